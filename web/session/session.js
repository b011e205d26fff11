// One page's Python: one Python worker and one graph worker, shared by every cell on the page.
// Runs wait their turn (one at a time); Python starts on the first start() or run().
import { GraphRenderer } from "./graph-renderer.js";
import { missingFeature } from "./browser-support.js";
import { PythonClient } from "./python-client.js";
import { t } from "../i18n/messages.js";

export class RunCancelled extends Error {
  constructor() {
    super(t("Stopped before it ran."));
    this.name = "RunCancelled";
  }
}

export class Session {
  constructor() {
    this.python = new PythonClient();
    this.renderer = new GraphRenderer();
    // phase: idle (not requested), loading, ready, failed. text and fraction describe loading;
    // retry: whether a failed start may be tried again.
    this.state = { phase: "idle", text: "", fraction: undefined, interruptible: false, version: "", retry: false };
    this.listeners = new Set();
    this.restartListeners = new Set();
    this.busyListeners = new Set();
    this.runsUnderWay = 0; // asked for and not yet shown: waiting their turn or for Python, running, being drawn
    this.queue = Promise.resolve();
    this.current = null; // the ticket whose code Python is running
    this.readyWaiters = [];
    // The events of Python's warm-up program, once per page: an output list rehearses showing them unseen,
    // while no run has been asked for (an article's first Run starts Python: a rehearsal would only slow it).
    // The page asks the worker for its warm-up 100 ms after "ready" (python-client.js), and the worker posts
    // no "warmed-up" once a run came first: a Run that waited for Python is asked for, in the microtasks after
    // "ready", before any "warmed-up" is read.
    let resolveEvents;
    this.warmUp = { events: new Promise((resolve) => (resolveEvents = resolve)), wanted: () => !this.python.hasRun };
    this.python.connect({
      onProgress: ({ step, steps, text }) => this.update({ phase: "loading", text, fraction: (step - 1) / steps }),
      onReady: ({ python: version, interruptible, start, packed, timings }) => {
        performance.mark("python-ready", { detail: { start, packed, timings } }); // read by bench/ and tests
        this.renderer.warmUp();
        this.update({ phase: "ready", text: "", fraction: undefined, version, interruptible });
        for (const { resolve } of this.readyWaiters.splice(0)) resolve();
      },
      onFailed: (error, wasReady) => {
        if (!wasReady) this.failed(t("Python could not start: {error}. Check your connection, then press Retry.", { error }));
      },
      onRestart: (reason) => {
        this.update({ phase: "loading", text: t("Restarting Python…"), fraction: 0 });
        for (const listener of this.restartListeners) listener(reason);
      },
      // A run reached outside its namespace: the next runs on a fresh Python, which has no env's names.
      onFresh: (reason) => {
        for (const listener of this.restartListeners) listener(reason);
      },
      onWarmedUp: (events) => resolveEvents(events),
    });
  }

  start() {
    if (this.state.phase !== "idle") return;
    const missing = missingFeature();
    if (missing) return this.failed(missing, { retry: false });
    this.update({ phase: "loading", text: t("Starting Python…"), fraction: 0 });
    this.python.start();
  }

  /** After a failed start: tries again, without a reload. */
  retry() {
    if (this.state.phase !== "failed") return;
    this.update({ phase: "idle" });
    this.start();
  }

  failed(text, { retry = true } = {}) {
    this.update({ phase: "failed", text, retry });
    for (const { reject } of this.readyWaiters.splice(0)) reject(new Error(text));
  }

  /** Calls listener(state) now and on every change. */
  subscribe(listener) {
    this.listeners.add(listener);
    listener(this.state);
  }

  /** Calls listener(reason) whenever Python restarts: every env's names are gone. */
  onRestart(listener) {
    this.restartListeners.add(listener);
  }

  /**
   * Calls listener(busy) now and whenever the page goes from no run under way to one, and back: background
   * work (the service worker's precache) waits while one is.
   */
  onBusy(listener) {
    this.busyListeners.add(listener);
    listener(this.busy);
  }

  /** Whether a run is under way. */
  get busy() {
    return this.runsUnderWay > 0;
  }

  countRun(change) {
    const was = this.busy;
    this.runsUnderWay += change;
    if (was === this.busy) return;
    for (const listener of this.busyListeners) {
      try {
        listener(this.busy);
      } catch (error) {
        reportError(error); // a listener's failure is its own: the run goes on
      }
    }
  }

  update(change) {
    this.state = { ...this.state, ...change };
    for (const listener of this.listeners) listener(this.state);
  }

  whenReady() {
    if (this.python.ready) return Promise.resolve();
    this.start();
    if (this.state.phase === "failed") return Promise.reject(new Error(this.state.text));
    return new Promise((resolve, reject) => this.readyWaiters.push({ resolve, reject }));
  }

  /**
   * Runs {code, env, checks} once earlier runs are done and Python is ready; resolves with the result.
   * `ticket` (from ticket()) lets the caller stop or cancel it; `shown` returns a promise that settles once the
   * page has shown the run's output (PythonClient.run). Rejects with PythonRestarted or RunCancelled.
   */
  run(request, onEvent, ticket = this.ticket(), shown = null) {
    let showing = null; // the promise of the one call to `shown`: the run counts as under way until it settles
    const shownOnce = shown && (() => (showing = shown()));
    const turn = this.queue.then(async () => {
      await this.whenReady();
      if (ticket.cancelled) throw new RunCancelled();
      this.current = ticket;
      ticket.onStart();
      try {
        return await this.python.run(request, onEvent, shownOnce);
      } finally {
        this.current = null;
      }
    });
    this.queue = turn.catch(() => {});
    const result = Promise.race([turn, ticket.whenCancelled]);
    this.countRun(+1);
    result.then(() => showing).catch(() => {}).finally(() => this.countRun(-1));
    return result;
  }

  ticket() {
    let cancel;
    const whenCancelled = new Promise((_, reject) => (cancel = reject));
    whenCancelled.catch(() => {});
    const ticket = { cancelled: false, whenCancelled, onStart: () => {} };
    ticket.cancel = () => {
      ticket.cancelled = true;
      cancel(new RunCancelled());
    };
    return ticket;
  }

  /** Stops a run: interrupts it if Python is running it, or cancels it while it waits its turn. */
  stop(ticket) {
    if (this.current === ticket) this.python.stop();
    else ticket.cancel();
  }

  reset(env) {
    this.python.reset(env);
  }
}
