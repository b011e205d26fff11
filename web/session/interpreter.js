// One Python worker and the private channel to it. The page and the worker talk only over a
// MessageChannel port that the worker keeps in module scope, out of reach of Python's `js` (the worker's
// global scope): whatever a program posts with js.postMessage arrives on the worker object, which
// nothing here listens to.
import { keptRuntime } from "./packed-runtime.js";
import { startModuleWorker } from "./start-worker.js";

export class Interpreter {
  constructor(onMessage) {
    this.readyMessage = null;
    this.progress = null;
    // Test for the feature, not for isolation: WebKitGTK is crossOriginIsolated without SharedArrayBuffer.
    this.interruptBuffer = canInterrupt() ? new Uint8Array(new SharedArrayBuffer(1)) : null;
    const channel = new MessageChannel();
    this.port = channel.port1;
    const base = new URL("..", import.meta.url).href; // the site's root, one folder up, wherever the page that uses it is
    const fromCache = precached(base);
    const runtime = keptRuntime(base, fromCache);
    const downloaded = []; // what this worker says it fetched of the large files, kept once it is ready
    this.port.onmessage = ({ data }) => {
      if (data.type === "kept") {
        if (this.readyMessage === null) downloaded.push(data);
        return;
      }
      if (data.type === "ready" && this.readyMessage === null) runtime.keep(downloaded.splice(0), data.start === "snapshot");
      onMessage(data);
    };
    try {
      this.worker = startModuleWorker(new URL("./python-worker.js", import.meta.url));
    } catch (error) {
      queueMicrotask(() => onMessage({ type: "failed", error: describeStartError(error) }));
      return;
    }
    this.worker.onerror = (event) => {
      event.preventDefault?.();
      onMessage({ type: "failed", error: event.message || "the Python worker could not start" });
    };
    // Each worker gets its own copy of what the page keeps: the packed bytes go to the decoder, which takes them.
    // A worker downloads the large files itself only where the page has none of them yet, and hands them over
    // unless this site's service worker serves them.
    const files = runtime.keptFiles();
    const keep = !files && !self.navigator.serviceWorker?.controller;
    this.worker.postMessage({ type: "init", base, precached: fromCache, keep, interruptBuffer: this.interruptBuffer, port: channel.port2 },
      [channel.port2]);
    this.port.postMessage({ type: "files", value: files }, files ? [...files.values()] : []);
    this.hand("build", runtime.info);
    this.hand("wheels", runtime.wheels);
    this.hand("packed", runtime.packed, (bytes) => bytes?.slice(0));
  }

  /** Posts what `promise` gives as {type, value}, or {type, error}. */
  hand(type, promise, copy = (value) => value) {
    promise.then((value) => this.post({ type, value: copy(value) }), (error) => this.post({ type, error: error?.message ?? String(error) }));
  }

  post(message) {
    this.port.postMessage(message);
  }

  terminate() {
    this.worker?.terminate();
    this.port.close();
  }
}

/**
 * Whether this site's service worker holds the runtime's files, or will once this page registers it (a secure
 * origin, this site's own page): its precache fetches them one by one, so the packed runtime would be fetched
 * for nothing. Elsewhere (a LAN address over plain HTTP, an article on another site) the packed one may serve.
 */
function precached(base) {
  if (new URL(base).origin !== self.location.origin) return false; // a controller there is the other site's
  if (self.navigator.serviceWorker?.controller) return true;
  return self.isSecureContext === true && "serviceWorker" in self.navigator;
}

function canInterrupt() {
  return self.crossOriginIsolated === true && typeof SharedArrayBuffer === "function";
}

function describeStartError(error) {
  if (error && error.name === "SecurityError") {
    return `this page may not start a worker here (${error.message}). In an iframe, the sandbox attribute must ` +
      "include allow-same-origin for the playground to run";
  }
  return error && error.message ? error.message : String(error);
}
