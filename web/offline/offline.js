// Registers the service worker (sw.js) for this site's own pages, and offers a reload when a new build
// has been installed beside the running one: the page never switches under the learner. While a worker
// installs, the page tells it whether a run is under way: it fetches no next file meanwhile (sw.js).
import { element } from "../dom/element.js";
import { t } from "../i18n/messages.js";

const SITE = new URL("../", import.meta.url); // the site root, one folder up
const NUDGE = new URL("./offline/nudge-worker.js", SITE);
const NUDGE_MS = 1000;

// Only this site's own pages, in a browser with service workers, have this site's worker.
const reachable = () => "serviceWorker" in navigator && location.href.startsWith(SITE.href);

/** `session`, the page's Session: whose runs the precache waits for. */
export async function registerServiceWorker(session) {
  if (!reachable()) return null;
  const hadController = Boolean(navigator.serviceWorker.controller);
  const registration = await navigator.serviceWorker.register(new URL("./sw.js", SITE), { scope: SITE.href, updateViaCache: "none" });
  if (!registration) return null; // Playwright's service_workers='block' resolves with nothing
  tellOfRuns(registration, session);
  let accepted = false;
  const offer = (worker) => offerReload(() => {
    accepted = true;
    worker.postMessage({ type: "skip-waiting" });
    // Chromium lets the new worker take over once the old one has no request left to answer, but looks again
    // only when a page or a worker starts loading: a page that had just fetched (Python's start, a program)
    // was left on the old build for minutes. Starting a worker that ends at once is such a look.
    setInterval(() => new Worker(NUDGE), NUDGE_MS);
  });
  if (registration.waiting && hadController) offer(registration.waiting);
  registration.addEventListener("updatefound", () => {
    const worker = registration.installing;
    worker.addEventListener("statechange", () => {
      if (worker.state !== "installed" || !navigator.serviceWorker.controller) return;
      if (accepted) worker.postMessage({ type: "skip-waiting" }); // a newer build came while switching
      else offer(worker);
    });
  });
  navigator.serviceWorker.addEventListener("controllerchange", () => {
    if (accepted) location.reload();
  });
  return registration;
}

/**
 * Tells an install already under way for this site (another tab's) of this page's runs, from the page's start:
 * the main page registers the worker itself only once Python is ready and the page quiet.
 */
export function tellInstallOfRuns(session) {
  if (!reachable()) return;
  navigator.serviceWorker.getRegistration(SITE.href).then((registration) => registration && tellOfRuns(registration, session)).catch(() => {});
}

const told = new WeakSet(); // the registrations this page tells of its runs

function tellOfRuns(registration, session) {
  if (told.has(registration)) return;
  told.add(registration);
  const tell = () => registration.installing?.postMessage({ type: "runs", busy: session.busy });
  session.onBusy(tell);
  registration.addEventListener("updatefound", tell);
}

function offerReload(accept) {
  if (document.querySelector('[data-testid="update"]')) return;
  const toast = element("div", "update-toast");
  toast.dataset.testid = "update";
  toast.setAttribute("role", "status");
  const button = element("button", "", t("Reload"));
  button.type = "button";
  const text = element("span", "", `${t("A new version is ready:")} `);
  button.addEventListener("click", () => {
    button.disabled = true;
    text.textContent = `${t("Switching to the new version…")} `;
    accept();
  });
  toast.append(text, button);
  Object.assign(toast.style, {
    position: "fixed", right: "1rem", bottom: "1rem", zIndex: "2147483647", display: "flex", gap: "0.6rem",
    alignItems: "center", padding: "0.6rem 0.9rem", borderRadius: "8px", background: "#1c2330", color: "#fff",
    font: "15px system-ui, sans-serif", boxShadow: "0 4px 16px rgba(0, 0, 0, 0.25)",
  });
  document.body.append(toast);
}
