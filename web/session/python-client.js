// The page's side of the Python worker: start it, run one program at a time, stop it, replace it.
// Stop interrupts Python through a SharedArrayBuffer where the browser has one; otherwise (or if Python
// does not stop soon) it ends the worker and starts a fresh one. A run that reached outside its namespace
// (docs/security.md, "Security model") ends its worker too: the next run gets the standby, a fresh Python
// restored in the background while the page was idle: once a run has ended and no other began for a moment,
// never during a run nor before the first (most pages are read, not run, and a learner's first Runs come fast).
// One still starting when a Run is pressed ends, and another starts once the page is idle again (that one stays).
import { Interpreter } from "./interpreter.js";
import { reasonText } from "./fresh-reasons.js";
import { t } from "../i18n/messages.js";

export class PythonRestarted extends Error {
  constructor(reason) {
    super(reason);
    this.name = "PythonRestarted";
  }
}

const INTERRUPT_GRACE_MS = 1500;
// Python took the interrupt (its check sets the buffer back to 0) and runs on: a program or a finalizer caught
// the KeyboardInterrupt (one raised in a __del__ or a weakref callback is only printed), or the run is ending
// (its charts are drawn with Stop ignored). Stop interrupts it again, each INTERRUPT_GRACE_MS, for this long
// in all; then restarts.
const UNWIND_GRACE_MS = 6000;
// The check after a run takes milliseconds; a worker that has not given its verdict by then is not trusted.
const SETTLE_TIMEOUT_MS = 10000;
const STANDBY_IDLE_MS = 1000; // no run for this long after one ended: the standby's restore slows no run
// A standby that could not start (the site's server away, on a room's network without a service worker) is
// tried again this much later, so that one is ready once the server is back.
const STANDBY_RETRY_MS = 10_000;
const SIGINT = 2;
// A Python that will run the reader's next program warms up again while it waits (python-worker.js); the standby
// does not: its rounds would share the processor with the reader's Runs on the Python in use.
const WARM_UP_ROUNDS = 3;
const WARM_UP_ASKED_AFTER_MS = 100;

const ignore = () => {};

export class PythonClient {
  constructor() {
    this.onProgress = this.onReady = this.onFailed = this.onRestart = this.onFresh = this.onWarmedUp = ignore;
    this.latest = {}; // the last progress and ready messages, for a page that connects late
    this.interpreter = null;
    this.standby = null;
    this.endedStandby = false; // a run ended the last standby before it was ready: the next one stays
    this.pending = null; // { id, resolve, reject, onEvent }
    this.settled = Promise.resolve(); // the last run's verdict: whether its interpreter may run the next
    this.freshNotice = null; // said in the output of the first run on a fresh interpreter
    this.nextId = 1;
    this.ready = false;
  }

  /** Whether the page has asked for a run: the standby waits for the first, so a page only read starts none. */
  get hasRun() {
    return this.nextId > 1;
  }

  /** Sets the handlers and replays what already happened while the page was loading. */
  connect({ onProgress, onReady, onFailed, onRestart, onFresh = ignore, onWarmedUp = ignore }) {
    Object.assign(this, { onProgress, onReady, onFailed, onRestart, onFresh, onWarmedUp });
    if (this.latest.progress) onProgress(this.latest.progress);
    if (this.latest.ready) onReady(this.latest.ready);
  }

  /** Starts Python, or swaps in the standby; `text` says so while it is not ready yet. */
  start(text = null) {
    this.promote(this.standby || this.spawn({ warmUpRounds: WARM_UP_ROUNDS }), text);
  }

  spawn(options) {
    const interpreter = new Interpreter((message) => this.receive(interpreter, message), options);
    return interpreter;
  }

  /** Makes `interpreter` the one that runs programs; the page follows its start if it is not ready yet. */
  promote(interpreter, text) {
    this.standby = null;
    this.interpreter = interpreter;
    this.ready = interpreter.readyMessage !== null;
    this.latest = {};
    if (this.ready) this.announce(interpreter.readyMessage);
    else if (text) this.receive(interpreter, { type: "progress", step: interpreter.progress?.step ?? 1, steps: 3, text });
    else if (interpreter.progress) this.receive(interpreter, interpreter.progress);
  }

  /** Starts the standby `delay` ms from now if by then Python is ready, idle, has run a program and has none. */
  prepareStandby(delay = STANDBY_IDLE_MS) {
    clearTimeout(this.standbyTimer);
    if (this.standby || !this.hasRun) return;
    this.standbyTimer = setTimeout(() => {
      if (this.standby || this.pending || !this.ready) return;
      performance.mark("python-standby-start"); // read by tests: the page's second Python worker is this one
      this.standby = this.spawn();
    }, delay);
  }

  announce(message) {
    this.ready = true;
    this.latest.ready = message;
    this.onReady(message);
    this.pending?.whenReady?.();
    this.prepareStandby();
  }

  receive(interpreter, message) {
    if (message.type === "progress") interpreter.progress = message;
    if (message.type === "ready") {
      interpreter.readyMessage = message;
      // After the runs that waited for this Python, sent in the microtasks after "ready", and a Run pressed just
      // after it: on the same port, they come first, and the worker then skips its warm-up.
      setTimeout(() => interpreter.post({ type: "warm-up" }), WARM_UP_ASKED_AFTER_MS);
      // Read by tests: a restart is instant, and starts from the page's copy of the runtime (kept) or the packed one.
      if (interpreter === this.standby) {
        this.endedStandby = false;
        performance.mark("python-standby-ready", { detail: { kept: message.kept, packed: message.packed, compiled: message.compiled } });
      }
    }
    if (message.type === "reached") {
      interpreter.reached ??= message.reason; // the first way a run reached out: this worker will go
      if (interpreter === this.interpreter && !interpreter.whenSettled) this.afterRun([]); // between runs
      else this.check(interpreter); // after "done": the worker checked at once, the 10 s count from now
      return;
    }
    if (interpreter !== this.interpreter) {
      if (message.type === "failed" && interpreter === this.standby) {
        interpreter.terminate(); // the next promotion boots one the usual way, and reports its failure
        this.standby = null;
        this.prepareStandby(STANDBY_RETRY_MS);
      }
      return;
    }
    const pending = this.pending && this.pending.id === message.id ? this.pending : null;
    switch (message.type) {
      case "progress":
        this.latest.progress = message;
        this.onProgress(message);
        break;
      case "ready":
        this.announce(message);
        break;
      case "warmed-up": // the events of the worker's own warm-up program (python-worker.js)
        this.onWarmedUp(message.events);
        break;
      case "warm-up-round":
        performance.mark("python-warm-up-round"); // read by tests: the worker warmed up again, unseen
        break;
      case "output":
        if (pending) pending.onEvent(message.event);
        break;
      case "done":
        performance.mark("run-python-done");
        markStamps(message.stamps);
        // The worker checks the run once its output is shown (its check would slow the drawing), at once if
        // it shows none or reached out, or when the next run is sent.
        interpreter.unchecked = message.id;
        if (interpreter.reached) this.check(interpreter);
        new Promise((resolve) => resolve(pending?.shown?.())).catch(ignore).then(() => this.check(interpreter, message.id));
        if (pending) this.settle().resolve(message.result);
        break;
      case "settled":
        // Read by tests: `asked`, whether the page had asked for the check (python-worker.js checks at once only
        // after a run that left work scheduled or reached out).
        performance.mark("python-settled", { detail: { asked: !interpreter.unchecked } });
        this.afterRun(message.reasons);
        break;
      case "failed":
        this.fail(message.error, message.starting === true);
        break;
    }
  }

  /**
   * Runs `code` in the named env (null: a fresh namespace), then `checks` if given. With `test`
   * ({hidden: [line numbers]}), `code` is an nbgrader test cell (playground_runtime.nbgrader_cells).
   * `points` ([[x1, x2, label], ...] or null) are the learner's own, for scalargrad.datasets.points().
   * `shown`, if given, is called as the run ends and returns a promise that settles once the page has shown
   * the run's output.
   */
  run({ code, env = null, checks = null, test = null, points = null }, onEvent, shown = null) {
    if (this.pending) return Promise.reject(new Error("a program is already running"));
    clearTimeout(this.standbyTimer);
    if (this.standby && this.standby.readyMessage === null && !this.endedStandby) {
      // A standby still starting gives way: its start took a processor from the run (a Run pressed then took twice
      // as long). Another starts once the page is idle again, and is not ended: Runs that keep coming as it starts
      // still get one (a Stop where Python cannot be interrupted swaps it in).
      this.standby.terminate();
      this.standby = null;
      this.endedStandby = true;
      performance.mark("python-standby-ended"); // read by tests: it may have ended before it requested its script
    }
    const id = this.nextId++;
    const result = new Promise((resolve, reject) => (this.pending = { id, resolve, reject, onEvent, shown }));
    this.dispatch({ type: "run", id, code, env, checks, test, points }, onEvent);
    return result;
  }

  /** Lets the worker check its last run now (or run `id`, if that is the last), if it has not yet. */
  check(interpreter = this.interpreter, id = interpreter?.unchecked) {
    if (!interpreter?.unchecked || interpreter.unchecked !== id) return;
    if (interpreter !== this.interpreter) return; // a replaced one is checked no more
    interpreter.unchecked = false;
    performance.mark("python-check-asked"); // read by tests: the worker checks no run before it is asked
    interpreter.post({ type: "check" });
    clearTimeout(interpreter.settleTimer);
    interpreter.settleTimer = setTimeout(() => {
      if (interpreter === this.interpreter) this.afterRun(["did not give its verdict after the run"]);
    }, SETTLE_TIMEOUT_MS);
  }

  async dispatch(message, onEvent) {
    this.check();
    await this.settled; // the last run's interpreter may be replaced first
    if (!this.ready && this.pending?.id === message.id) await new Promise((resolve) => (this.pending.whenReady = resolve));
    if (this.pending?.id !== message.id) return; // stopped, or Python failed, while it waited
    this.pending.posted = true;
    if (this.freshNotice) onEvent({ type: "notice", text: this.freshNotice });
    this.freshNotice = null;
    this.settled = new Promise((resolve) => (this.interpreter.whenSettled = resolve));
    // A Stop meant for an earlier run is not this one's; a Stop pressed from now on is (the worker reads it
    // before the run begins).
    if (this.interpreter.interruptBuffer) this.interpreter.interruptBuffer[0] = 0;
    performance.mark("run-posted"); // this mark and the graph-… ones of output-list.js: bench/compare.py's stages
    this.interpreter.post(message);
  }

  /** After each run the worker says whether the run reached outside its namespace; if so, it goes. */
  afterRun(reasons) {
    const interpreter = this.interpreter;
    interpreter.unchecked = false;
    clearTimeout(interpreter.settleTimer);
    const all = [...new Set([interpreter.reached, ...reasons].filter(Boolean))].slice(0, 3);
    if (all.length) {
      const why = all.map(reasonText).join("; ");
      interpreter.terminate(); // at once: nothing that the run left behind runs on
      this.freshNotice = t("A fresh Python runs this program: the last run {why}, which would have changed later runs.", { why });
      this.start(t("Starting a fresh Python…"));
      this.onFresh(this.freshNotice);
    }
    interpreter.whenSettled?.();
    interpreter.whenSettled = null;
  }

  /** Forgets a named env's namespace. */
  reset(env) {
    if (this.ready) this.interpreter.post({ type: "reset", env });
  }

  get running() {
    return this.pending !== null;
  }

  stop() {
    if (!this.pending) return;
    if (!this.pending.posted) {
      this.pending.whenReady?.();
      this.settle().reject(new PythonRestarted(t("Stopped before it ran.")));
      return;
    }
    const { id } = this.pending;
    const buffer = this.interpreter.interruptBuffer;
    if (buffer && this.ready) {
      buffer[0] = SIGINT;
      if (!this.pending.stopping) this.restartUnlessStopped(id, buffer, performance.now()); // one watch per run
      this.pending.stopping = true;
    } else {
      this.restart(t("Stopped: Python was restarted ({why}, so it cannot be interrupted).", { why: whyNotInterruptible() }));
    }
  }

  /** A long call into C code never checks the buffer: then the run's worker is ended and a fresh one started. */
  restartUnlessStopped(id, buffer, since) {
    setTimeout(() => {
      if (this.pending?.id !== id) return;
      if (buffer[0] === 0 && performance.now() - since < UNWIND_GRACE_MS) {
        buffer[0] = SIGINT;
        performance.mark("python-stop-again"); // read by tests: the first interrupt did not end the run
        this.restartUnlessStopped(id, buffer, since);
      } else {
        // Read by tests when a Stop restarts where it should not: had Python taken the last interrupt?
        performance.mark("python-stop-restart", { detail: { taken: buffer[0] === 0, waited: Math.round(performance.now() - since) } });
        this.restart(t("Python did not stop in time, so it was restarted."));
      }
    }, INTERRUPT_GRACE_MS);
  }

  restart(reason) {
    this.interpreter.terminate();
    this.interpreter.whenSettled?.();
    this.onRestart(reason);
    if (this.pending) this.settle().reject(new PythonRestarted(reason));
    this.start();
  }

  /** The worker is unusable (its start failed, or Pyodide died): report it and start afresh if it had been ready. */
  fail(error, starting = false) {
    const wasReady = this.ready && !starting; // `starting`: its guards, which start just after "ready", could not
    this.ready &&= wasReady;
    this.interpreter.terminate();
    this.interpreter.whenSettled?.();
    if (this.pending) {
      this.pending.whenReady?.();
      this.settle().reject(new PythonRestarted(explainFailure(error)));
    }
    this.onFailed(error, wasReady);
    if (wasReady) {
      this.onRestart(explainFailure(error));
      this.start();
    }
  }

  settle() {
    const pending = this.pending;
    this.pending = null;
    this.prepareStandby();
    return pending;
  }
}

/**
 * The worker's side of a run's stages (bench/compare.py), on this page's clock: when the run reached the worker
 * and when its first graph left it. Anything but two times within this page's life is ignored.
 */
function markStamps(stamps) {
  const marks = { received: "python-run-received", graph: "python-graph-posted" };
  for (const [key, name] of Object.entries(marks)) {
    const at = Number(stamps?.[key]) - performance.timeOrigin;
    if (Number.isFinite(at) && at >= 0 && at <= performance.now()) performance.mark(name, { startTime: at });
  }
}

/** Why Stop cannot interrupt Python in place here: WebKit is isolated and still has no SharedArrayBuffer. */
function whyNotInterruptible() {
  if (self.crossOriginIsolated) return t("this browser has no SharedArrayBuffer");
  // A classroom's LAN address over plain HTTP: browsers ignore the isolation headers of an origin that is not
  // secure (docs/classroom.md, "Classroom").
  if (!self.isSecureContext) return t("this page is served over plain HTTP from a network address, which browsers do not isolate");
  return t("this page is not cross-origin isolated");
}

function explainFailure(error) {
  if (/Maximum call stack size exceeded/.test(error)) {
    // Pyodide's C stack is far smaller than CPython's: freeing a very long chain of a learner's own
    // objects, or a __repr__ that recurses through C code, exhausts it and Pyodide cannot go on.
    return t("Python ran out of stack and was restarted. This happens when a very long chain of your own objects is freed, or a __repr__ calls itself through repr(): try a shorter loop.");
  }
  return t("Python failed and was restarted: {error}", { error });
}
