// Registers the service worker (sw.js) for this site's own pages, and offers a reload when a new build
// has been installed beside the running one: the page never switches under the learner.
import { element } from "../dom/element.js";
import { endPageWorkers } from "../session/start-worker.js";

const SITE = new URL("../", import.meta.url); // the site root, one folder up

export async function registerServiceWorker() {
  if (!("serviceWorker" in navigator) || !location.href.startsWith(SITE.href)) return null;
  const hadController = Boolean(navigator.serviceWorker.controller);
  const registration = await navigator.serviceWorker.register(new URL("./sw.js", SITE), { scope: SITE.href, updateViaCache: "none" });
  let accepted = false;
  const offer = (worker) => offerReload(() => {
    accepted = true;
    worker.postMessage({ type: "skip-waiting" });
    // Chromium hands over only once the old worker has no request to answer, and Python's workers may keep
    // fetching (a start, a program): they would end with the reload anyway.
    endPageWorkers();
  });
  if (registration.waiting && hadController) offer(registration.waiting);
  registration.addEventListener("updatefound", () => {
    const worker = registration.installing;
    worker.addEventListener("statechange", () => {
      if (worker.state === "installed" && navigator.serviceWorker.controller) offer(worker);
    });
  });
  navigator.serviceWorker.addEventListener("controllerchange", () => {
    if (accepted) location.reload();
  });
  return registration;
}

function offerReload(accept) {
  if (document.querySelector('[data-testid="update"]')) return;
  const toast = element("div", "update-toast");
  toast.dataset.testid = "update";
  toast.setAttribute("role", "status");
  const button = element("button", "", "Reload");
  button.type = "button";
  const text = element("span", "", "A new version is ready: ");
  button.addEventListener("click", () => {
    button.disabled = true;
    text.textContent = "Switching to the new version… ";
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
