// The page's side of the Python worker: start it, run one program at a time, stop it.
// Stop interrupts Python through a SharedArrayBuffer when the page is cross-origin isolated and has one;
// otherwise (or if Python does not stop soon) it ends the worker and starts a fresh one.
import { startModuleWorker } from "./start-worker.js";

export class PythonRestarted extends Error {
  constructor(reason) {
    super(reason);
    this.name = "PythonRestarted";
  }
}

const INTERRUPT_GRACE_MS = 1500;
const SIGINT = 2;

const ignore = () => {};

export class PythonClient {
  constructor() {
    this.onProgress = this.onReady = this.onFailed = this.onRestart = ignore;
    this.latest = {}; // the last progress and ready messages, for a page that connects late
    this.worker = null;
    this.pending = null; // { id, resolve, reject, onEvent }
    this.nextId = 1;
    this.ready = false;
  }

  /** Sets the handlers and replays what already happened while the page was loading. */
  connect({ onProgress, onReady, onFailed, onRestart }) {
    Object.assign(this, { onProgress, onReady, onFailed, onRestart });
    if (this.latest.progress) onProgress(this.latest.progress);
    if (this.latest.ready) onReady(this.latest.ready);
  }

  start() {
    this.latest = {};
    this.ready = false;
    // Test for the feature, not for isolation: WebKitGTK is crossOriginIsolated without SharedArrayBuffer.
    this.interruptBuffer = canInterrupt() ? new Uint8Array(new SharedArrayBuffer(1)) : null;
    this.worker = startModuleWorker(new URL("./python-worker.js", import.meta.url));
    this.worker.onmessage = ({ data }) => this.receive(data);
    this.worker.onerror = (event) => this.fail(event.message || "the Python worker could not start");
    const base = new URL(".", import.meta.url).href; // the site's root, wherever the page that uses it is
    this.worker.postMessage({ type: "init", base, interruptBuffer: this.interruptBuffer });
  }

  receive(message) {
    const pending = this.pending && this.pending.id === message.id ? this.pending : null;
    switch (message.type) {
      case "progress":
        this.latest.progress = message;
        this.onProgress(message);
        break;
      case "ready":
        this.ready = true;
        this.latest.ready = message;
        this.onReady(message);
        break;
      case "output":
        if (pending) pending.onEvent(message.event);
        break;
      case "done":
        if (pending) this.settle().resolve(message.result);
        break;
      case "failed":
        this.fail(message.error);
        break;
    }
  }

  /** Runs `code` in the named env (null: a fresh namespace), then `checks` if given. */
  run({ code, env = null, checks = null }, onEvent) {
    if (this.pending) return Promise.reject(new Error("a program is already running"));
    return new Promise((resolve, reject) => {
      const id = this.nextId++;
      this.pending = { id, resolve, reject, onEvent };
      this.worker.postMessage({ type: "run", id, code, env, checks });
    });
  }

  /** Forgets a named env's namespace. */
  reset(env) {
    if (this.ready) this.worker.postMessage({ type: "reset", env });
  }

  get running() {
    return this.pending !== null;
  }

  stop() {
    if (!this.pending) return;
    const { id } = this.pending;
    if (this.interruptBuffer) {
      this.interruptBuffer[0] = SIGINT;
      // A long call into C code never checks the buffer: fall back to a restart.
      setTimeout(() => {
        if (this.pending && this.pending.id === id) this.restart("Python did not stop in time, so it was restarted.");
      }, INTERRUPT_GRACE_MS);
    } else {
      // WebKit is isolated and still has no SharedArrayBuffer: say which of the two is missing.
      const missing = self.crossOriginIsolated ? "this browser has no SharedArrayBuffer" : "this page is not cross-origin isolated";
      this.restart(`Stopped: Python was restarted (${missing}, so it cannot be interrupted).`);
    }
  }

  restart(reason) {
    this.worker.terminate();
    this.onRestart(reason);
    if (this.pending) this.settle().reject(new PythonRestarted(reason));
    this.start();
  }

  fail(error) {
    // The worker is unusable (boot failed, or Pyodide died): report it and start afresh.
    const wasReady = this.ready;
    this.worker.terminate();
    if (this.pending) this.settle().reject(new PythonRestarted(explainFailure(error)));
    this.onFailed(error, wasReady);
    if (wasReady) {
      this.onRestart(explainFailure(error));
      this.start();
    }
  }

  settle() {
    const pending = this.pending;
    this.pending = null;
    return pending;
  }
}

function canInterrupt() {
  return self.crossOriginIsolated === true && typeof SharedArrayBuffer === "function";
}

function explainFailure(error) {
  if (/Maximum call stack size exceeded/.test(error)) {
    // Pyodide's C stack is far smaller than CPython's: freeing a very long chain of a learner's own
    // objects, or a __repr__ that recurses through C code, exhausts it and Pyodide cannot go on.
    return "Python ran out of stack and was restarted. This happens when a very long chain of your own " +
      "objects is freed, or a __repr__ calls itself through repr(): try a shorter loop.";
  }
  return `Python failed and was restarted: ${error}`;
}
