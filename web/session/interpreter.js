// One Python worker and the private channel to it. The page and the worker talk only over a
// MessageChannel port that the worker keeps in module scope, out of reach of Python's `js` (the worker's
// global scope): whatever a program posts with js.postMessage arrives on the worker object, which
// nothing here listens to.
import { forgetRuntime, keptRuntime } from "./packed-runtime.js";
import { startModuleWorker } from "./start-worker.js";
import { catalogue } from "../i18n/messages.js";

export class Interpreter {
  /** `warmUpRounds`: how often the worker runs playground_runtime.warm_up.AGAIN while no run has come. */
  constructor(onMessage, { warmUpRounds = 0 } = {}) {
    this.readyMessage = null;
    this.progress = null;
    // Test for the feature, not for isolation: WebKitGTK is crossOriginIsolated without SharedArrayBuffer.
    this.interruptBuffer = canInterrupt() ? new Uint8Array(new SharedArrayBuffer(1)) : null;
    const channel = new MessageChannel();
    this.port = channel.port1;
    const base = new URL("..", import.meta.url).href; // the site's root, one folder up, wherever the page that uses it is
    let runtime = null;
    const downloaded = []; // what this worker says it fetched of the large files, kept once it is ready
    let compiled = null; // the WebAssembly.Module it compiled, kept once it is ready
    this.port.onmessage = ({ data }) => {
      if (data.type === "compiled") {
        if (this.readyMessage === null) compiled = data.module;
        return;
      }
      if (data.type === "kept") {
        if (this.readyMessage === null) downloaded.push(data);
        return;
      }
      if (data.type === "ready" && this.readyMessage === null) {
        runtime.keep(downloaded.splice(0), data.start === "snapshot");
        runtime.keepCompiled(compiled);
      }
      if (data.type === "failed" && (this.readyMessage === null || data.starting)) forgetRuntime(base, runtime); // a Retry fetches it all again
      onMessage(data);
    };
    try {
      this.worker = startModuleWorker(new URL("../session/python-worker.js", import.meta.url));
    } catch (error) {
      queueMicrotask(() => onMessage({ type: "failed", error: describeStartError(error) }));
      return;
    }
    this.worker.onerror = (event) => {
      event.preventDefault?.();
      onMessage({ type: "failed", error: event.message || "the Python worker could not start" });
    };
    const serviceWorker = ownServiceWorker(base);
    runtime = keptRuntime(base, serviceWorker !== "none");
    // Each worker gets its own copy of what the page keeps: the packed bytes go to the decoder, which takes them.
    // A worker downloads only the large files that the page does not have yet, and hands them over, unless this
    // site's service worker serves them.
    const files = runtime.keptFiles();
    this.worker.postMessage({ type: "init", base, precached: serviceWorker !== "none", keep: serviceWorker !== "controls",
      interruptBuffer: this.interruptBuffer, catalogue, warmUpRounds, port: channel.port2 }, [channel.port2]);
    this.port.postMessage({ type: "files", value: files }, files ? [...files.values()] : []);
    this.postCompiled(runtime.compiled());
    this.hand("build", runtime.info);
    this.hand("site-packages", runtime.sitePackages);
    this.hand("packed", files ? Promise.resolve(null) : runtime.packed, (bytes) => bytes?.slice(0));
  }

  /** Posts what `promise` gives as {type, value}, or {type, error}. */
  hand(type, promise, copy = (value) => value) {
    promise.then((value) => this.post({ type, value: copy(value) }), (error) => this.post({ type, error: error?.message ?? String(error) }));
  }

  /** The interpreter an earlier Python compiled, or null where there is none or this browser cannot post it. */
  postCompiled(module) {
    try {
      this.post({ type: "compiled", value: module });
    } catch {
      this.post({ type: "compiled", value: null }); // the worker compiles its own
    }
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
 * This site's service worker for this page: "controls" (it serves the runtime's files), "will" (a secure
 * origin, a page of this site, which registers it: its precache fetches the files one by one, so the packed
 * runtime would be fetched for nothing) or "none" (a LAN address over plain HTTP, an article on another site,
 * a page outside the site's folder such as an npm copy served beside an author's pages: the packed one may
 * serve). A controller that is another site's or another script's is not this site's.
 */
function ownServiceWorker(base) {
  try {
    if (new URL(base).origin !== self.location.origin || !self.location.href.startsWith(base)) return "none";
    const controller = self.navigator.serviceWorker?.controller;
    if (controller) return controller.scriptURL === new URL("sw.js", base).href ? "controls" : "none";
    return self.isSecureContext === true && "serviceWorker" in self.navigator ? "will" : "none";
  } catch {
    return "none"; // a sandboxed frame refuses navigator.serviceWorker
  }
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
