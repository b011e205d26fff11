// The service worker: the whole site offline after one visit, and cross-origin isolation on any host.
// The build (backprop_playground/steps/service_worker.py) bundles this file with Workbox's precaching and
// injects the manifest (every file of the build, with its revision and a SHA-384 integrity) in place of
// self.__WB_MANIFEST.
//  - Precache: a new build installs its whole set beside the old one; the page offers a reload, and
//    only on "skip-waiting" does this worker take over (then the old entries are deleted).
//  - Verify: a cached file is served only if it matches the manifest's hash. Python in the page can
//    reach `caches` through `js`; anything it plants is refetched (and re-verified) from the network.
//  - Isolate: pages and workers get COOP/COEP (coi-serviceworker's technique), so Stop can interrupt Python,
//    and the Content-Security-Policy (the build defines CONTENT_SECURITY_POLICY from backprop_playground/policy.py): a worker's policy comes
//    only from its own response, never from the page's <meta>.
import { PrecacheController, PrecacheRoute } from "workbox-precaching";
import { registerRoute } from "workbox-routing";

const HEADERS = {
  "Cross-Origin-Opener-Policy": "same-origin",
  "Cross-Origin-Embedder-Policy": "require-corp",
  "Cross-Origin-Resource-Policy": "cross-origin",
  "Content-Security-Policy": CONTENT_SECURITY_POLICY,
};

/** Whether `body` (a Response or a Blob) has the SHA-384 of `integrity` ("sha384-…"). */
async function matchesIntegrity(body, integrity) {
  const [algorithm, expected] = integrity.split(/-(.*)/s);
  const digest = await crypto.subtle.digest(algorithm.replace("sha", "SHA-"), await body.arrayBuffer());
  return btoa(String.fromCharCode(...new Uint8Array(digest))) === expected;
}

const verify = {
  async cachedResponseWillBeUsed({ request, cachedResponse }) {
    if (!cachedResponse) return null;
    const integrity = controller.getIntegrityForCacheKey(request.url);
    if (!integrity || (await matchesIntegrity(cachedResponse.clone(), integrity))) return cachedResponse;
    return null; // not what this build shipped: fetch it again (Workbox verifies and re-caches it)
  },
};

// Workbox fetches a new build's files with cache: "reload"; "no-cache" lets the browser revalidate what it
// downloaded moments ago (a 304), so a first visit does not fetch the runtime twice. Integrity still holds.
const revalidate = {
  requestWillFetch: async ({ request }) => (request.cache === "reload" ? new Request(request, { cache: "no-cache" }) : request),
};

// Only documents and workers need the headers; other files pass through as cached, so that the browser
// keeps its compiled-code cache for the runtime's wasm.
const ISOLATED = new Set(["document", "iframe", "worker", "sharedworker"]);
// notebook.html may fetch notebooks from other hosts (build.py, NOTEBOOK_POLICY); its workers may not.
const NOTEBOOK_HEADERS = { ...HEADERS, "Content-Security-Policy": NOTEBOOK_CONTENT_SECURITY_POLICY };
const headersFor = (request) =>
  (request.destination === "document" && new URL(request.url).pathname.endsWith("/notebook.html") ? NOTEBOOK_HEADERS : HEADERS);
const isolate = {
  handlerWillRespond: async ({ request, response }) => (ISOLATED.has(request.destination) ? withHeaders(response, headersFor(request)) : response),
};

// While it installs, this worker fetches, hashes and stores the whole site (41 MB: about a second of both
// processors), one file at a time. A page with a run under way says so (offline.js, {type: "runs", busy}), and
// no next file is fetched until no open page has one, so that the precache slows no Run. A page closed mid-run
// holds nothing; no single wait lasts more than HOLD_MS, nor all of them more than HOLDS_MS, and none once the
// install has taken HOLDS_UNTIL_MS: a browser ends an install that takes minutes (Chromium: 5), slow network
// or not, and the next visit would fetch what was not yet kept.
const HOLD_MS = 30_000;
const HOLDS_MS = 120_000;
const HOLDS_UNTIL_MS = 180_000;
const LOOK_AGAIN_MS = 1000; // whether a page that said it was running is still open
const busyPages = new Set();
let heldMs = 0;
let installStarted = null; // when the install asked for its first file
let wake = () => {};

self.addEventListener("message", (event) => {
  if (event.data?.type !== "runs" || !event.source) return;
  if (event.data.busy) busyPages.add(event.source.id);
  else busyPages.delete(event.source.id);
  if (!busyPages.size) wake();
});

async function noRunUnderWay() {
  const started = Date.now();
  installStarted ??= started;
  const limit = Math.min(HOLD_MS, HOLDS_MS - heldMs, HOLDS_UNTIL_MS - (started - installStarted));
  while (busyPages.size && Date.now() - started < limit) {
    const open = new Set((await self.clients.matchAll({ includeUncontrolled: true })).map((client) => client.id));
    for (const id of busyPages) if (!open.has(id)) busyPages.delete(id);
    if (!busyPages.size) break;
    await new Promise((resolve) => {
      wake = resolve;
      setTimeout(resolve, LOOK_AGAIN_MS);
    });
  }
  heldMs += Date.now() - started;
}

// The wait is between the chunks of a file, not only between files: the runtime's three largest (35 of the
// 41 MB) take most of the install. So the install checks each file's hash itself as it streams in (a fetch
// given `integrity` reads the whole file before it resolves); a file that does not match errors its stream,
// and with it the cache's put: the file is not kept, as after a failed fetch (Workbox then goes on without it).
const yieldToRuns = {
  requestWillFetch: async ({ request, event, state }) => {
    if (event?.type !== "install" || !request.integrity) return request;
    await noRunUnderWay();
    state.integrity = request.integrity;
    return new Request(request, { integrity: "" });
  },
  fetchDidSucceed: async ({ response, event, state }) => {
    if (event?.type !== "install" || !state.integrity) return response;
    if (!response.body) {
      if (await matchesIntegrity(new Blob([]), state.integrity)) return response;
      throw new TypeError("an empty answer is not the file this build shipped");
    }
    const { status, statusText, headers } = response;
    return new Response(checkedAsItComes(response.body, state.integrity), { status, statusText, headers });
  },
};

function checkedAsItComes(body, integrity) {
  const reader = body.getReader();
  const chunks = [];
  return new ReadableStream({
    async pull(stream) {
      await noRunUnderWay();
      const { done, value } = await reader.read();
      if (!done) {
        chunks.push(value);
        stream.enqueue(value);
      } else if (await matchesIntegrity(new Blob(chunks), integrity)) stream.close();
      else stream.error(new TypeError(`not the file this build shipped (its ${integrity.split("-")[0]} differs)`));
    },
    cancel: (reason) => reader.cancel(reason),
  });
}

const explain = {
  handlerDidError: async ({ request }) => {
    const text = "Backprop Playground: a file of this site was changed on this device and could not be " +
      `fetched again (${new URL(request.url).pathname}). Connect to the network and reload.`;
    const html = request.mode === "navigate";
    const body = html ? `<!doctype html><meta charset="utf-8"><title>Reload needed</title><p>${text}</p>` : text;
    return withHeaders(new Response(body, { status: 503, headers: { "Content-Type": html ? "text/html; charset=utf-8" : "text/plain" } }), HEADERS);
  },
};

function withHeaders(response, headers) {
  if (!response || response.type === "opaque" || response.status === 0) return response;
  const merged = new Headers(response.headers);
  for (const [name, value] of Object.entries(headers)) merged.set(name, value);
  return new Response(response.body, { status: response.status, statusText: response.statusText, headers: merged });
}

const controller = new PrecacheController({ plugins: [verify, yieldToRuns, revalidate, isolate, explain] });
controller.precache(self.__WB_MANIFEST);
registerRoute(new PrecacheRoute(controller, { directoryIndex: "index.html", ignoreURLParametersMatching: [/.*/] }));

self.addEventListener("message", (event) => {
  if (event.data?.type === "skip-waiting") self.skipWaiting();
});
