// A cell: one program's editor, Run/Stop, status and output, over the page's session.
// Every host uses it: the main page binds it to its own markup, embeds to cell-view.js's.
import { codeArea, codeBlock } from "./cell-view.js";
import { exampleProgram } from "../output/example-program.js";
import { OutputList } from "../output/output-list.js";
import { PointStore } from "./points.js";
import { PythonRestarted } from "../session/python-client.js";
import { RunCancelled } from "../session/session.js";
import { t } from "../i18n/messages.js";
import { editorLabel, editorPhrases } from "./editor-phrases.js";

const editorModule = () => import("../cell/editor.bundle.js");

export class Cell {
  /**
   * parts: {editorHost, run, stop, status, output} elements (status holds .status-text and <progress>).
   * The code shows at once as plain text in editorHost (a <textarea>, or a <pre> if read-only), and becomes an
   * editor when its bundle arrives: at once, or with `editorLater` when the host calls makeEditor() or the
   * learner reaches for the code (its focus), whichever comes first.
   * `locked`: read-only and not editable at all (an nbgrader locked cell). `request(text)`: what a run
   * sends instead of {code: text} (an nbgrader test cell runs its hidden tests too). `points`: the learner's
   * own data ([[x1, x2, label], ...]), sent with each run, and `onPointsChange(points)` when they change;
   * `quiz` ({field, labels}): each graph opens its quiz (an author's data-quiz).
   */
  constructor({ session, parts, code, env = null, checks = null, readOnly = false, locked = false, follow = false, request, onChange, onRunRequest, onAdvance,
    points = null, onPointsChange = null, quiz = null, editorLater = false }) {
    Object.assign(this, { session, parts, env, checks, readOnly: readOnly || locked, locked, onChange, onAdvance });
    this.points = new PointStore(points, onPointsChange);
    this.request = request || ((text) => ({ code: text }));
    this.resultListeners = new Set();
    this.onRunRequest = onRunRequest || (() => this.run());
    this.code = code;
    this.editor = null;
    this.activity = null; // null, "waiting" (for Python or another run) or "running"
    this.outcome = null; // {state, text} of the last run
    this.ticket = null;
    this.held = null; // while other cells run first for this one: what Stop does
    this.output = new OutputList(parts.output, session.renderer, {
      follow,
      quiz,
      points: this.points,
      onExample: (spec) => this.forwardExample(spec),
      warmUp: session.warmUp,
    });
    this.errorMark = null; // an error's line to mark once the editor is made
    this.composing = false; // an input method is composing in the text area
    this.onComposed = null;
    this.fallback = this.readOnly ? codeBlock(code, editorLabel()) : this.editableFallback(code);
    parts.editorHost.replaceChildren(this.fallback);
    let make;
    /** Resolves with the editor once it is made, or with null if its bundle could not be had (the text area stays). */
    this.editorReady = new Promise((resolve) => (make = resolve))
      .then(() => editorModule())
      .then(({ createEditor }) => this.composed().then(() => this.upgrade(createEditor)), (error) => {
        console.warn("the code editor could not load:", error);
        return null;
      });
    this.makeEditor = () => make();
    this.fallback.addEventListener("focus", this.makeEditor, { once: true });
    if (!editorLater) this.makeEditor();
    parts.run.addEventListener("click", () => this.onRunRequest(this));
    parts.stop.addEventListener("click", () => this.stop());
    session.subscribe(() => this.render());
  }

  /** The plain text area: what is typed there is the code, saved as typed, and runs with the editor's keys. */
  editableFallback(code) {
    const area = codeArea(code, editorLabel());
    area.addEventListener("input", () => {
      this.code = area.value;
      this.errorMark = null;
      this.onChange?.(this.code);
    });
    area.addEventListener("compositionstart", () => (this.composing = true));
    area.addEventListener("compositionend", () => {
      this.composing = false;
      this.onComposed?.();
    });
    area.addEventListener("keydown", (event) => {
      if (event.key !== "Enter" || event.altKey || event.isComposing) return;
      if ((event.ctrlKey || event.metaKey) && !event.shiftKey) this.onRunRequest(this);
      else if (event.shiftKey && !event.ctrlKey && !event.metaKey) this.advance();
      else return;
      event.preventDefault();
    });
    return area;
  }

  /** Shift+Enter: in a notebook, run and move to the next cell, as in Jupyter; elsewhere, run. */
  advance() {
    return this.onAdvance ? this.onAdvance(this) : this.onRunRequest(this);
  }

  /** Resolves once no input method is composing in the text area: taking it from under a composition would end it. */
  composed() {
    return this.composing ? new Promise((resolve) => (this.onComposed = () => setTimeout(resolve))) : Promise.resolve();
  }

  upgrade(createEditor) {
    const area = this.fallback;
    const focused = area.matches(":focus");
    const [from, to] = area instanceof HTMLTextAreaElement ? [area.selectionStart, area.selectionEnd] : [0, 0];
    const selection = area.selectionDirection === "backward" ? { anchor: to, head: from } : { anchor: from, head: to };
    this.editor = createEditor({
      parent: this.parts.editorHost,
      doc: this.code,
      selection,
      readOnly: this.readOnly,
      editable: !this.locked,
      label: editorLabel(),
      phrases: editorPhrases(),
      onRun: () => this.onRunRequest(this),
      onAdvance: () => this.advance(),
      onChange: (text) => this.onChange?.(text),
    });
    const { scrollTop } = area;
    area.remove();
    this.editor.view.scrollDOM.scrollTop = scrollTop;
    if (focused) this.editor.focus();
    if (this.errorMark) this.editor.markError(...this.errorMark);
    this.errorMark = null;
    return this.editor;
  }

  focus() {
    if (this.editor) this.editor.focus();
    else this.fallback.focus();
  }

  getText() {
    return this.editor ? this.editor.getText() : this.code;
  }

  setText(text) {
    this.code = text;
    this.errorMark = null;
    if (this.editor) this.editor.setText(text); // its change saves it (onChange)
    else if (this.fallback instanceof HTMLTextAreaElement) {
      Object.assign(this.fallback, { defaultValue: text, value: text });
      this.onChange?.(text);
    } else this.fallback.textContent = text;
  }

  get busy() {
    return this.activity !== null;
  }

  /**
   * Runs the cell's code; resolves, once every output (graphs included) is in, with
   * {status: "ok" | "error" | "interrupted" | "restarted" | "cancelled" | "failed", check?}.
   */
  async run({ note, request: instead = null } = {}) {
    if (this.busy && !this.held) return { status: "busy" };
    this.held = null;
    this.activity = "waiting";
    this.outcome = null;
    this.ticket = this.session.ticket();
    this.ticket.onStart = () => this.setActivity("running");
    this.render();
    this.editor?.clearError();
    this.errorMark = null;
    this.output.startRun(note);
    try {
      const request = instead ?? { env: this.env, checks: this.checks, ...this.request(this.getText()), points: this.points.get() };
      const result = await this.session.run(request, (event) => this.output.add(event), this.ticket, () => this.output.settled());
      this.ticket = null; // Python is done; Stop now only cancels the drawing
      await this.output.settled();
      this.show(result);
      return this.finished(result);
    } catch (error) {
      return this.finished(await this.showFailure(error));
    } finally {
      this.ticket = null;
      this.setActivity(null);
    }
  }

  /**
   * Choose the example: one point of a boundary chart forwarded alone through the chart's model, its graph
   * drawn in this cell's output (a fresh namespace: nothing of the cell's env is touched, no checks run).
   */
  forwardExample(spec) {
    const code = exampleProgram(spec);
    if (!code || this.busy) return;
    this.run({ note: t("example {number} of the chart, forwarded alone", { number: spec.index + 1 }), request: { code, env: null, checks: null } });
  }

  /** Calls listener(result) after each run, with what run() resolves with (assignments listen). */
  onResult(listener) {
    this.resultListeners.add(listener);
  }

  finished(result) {
    for (const listener of this.resultListeners) listener(result);
    return result;
  }

  show(result) {
    if (result.status === "ok") {
      this.outcome = { state: "ready", text: t("Ready · finished") };
    } else if (result.status === "interrupted") {
      this.output.message("warning", t("Stopped: KeyboardInterrupt. Python kept its state and is ready."));
      this.outcome = { state: "ready", text: t("Ready · stopped") };
    } else {
      const { error } = result;
      this.output.error(error);
      if (error.line && this.editor) this.editor.markError(error.line, `${error.type}: ${error.message}`);
      else if (error.line) this.errorMark = [error.line, `${error.type}: ${error.message}`];
      const where = { type: error.type, line: error.line };
      this.outcome = { state: "error", text: error.line ? t("{type} on line {line} · see the output", where) : t("{type} · see the output", where) };
    }
  }

  async showFailure(error) {
    if (error instanceof RunCancelled) {
      this.output.message("warning", error.message);
      this.outcome = { state: "ready", text: t("Ready · stopped") };
      return { status: "cancelled" };
    }
    if (error instanceof PythonRestarted) {
      this.session.renderer.cancelAll();
      await this.output.settled();
      this.output.message("warning", error.message);
      return { status: "restarted" };
    }
    this.output.message("error", error.message); // Python could not start
    return { status: "failed" };
  }

  /** Shows the cell as waiting while other work runs for it; Stop calls onStop. */
  hold(onStop) {
    this.held = onStop;
    this.setActivity("waiting");
  }

  release() {
    if (!this.held) return;
    this.held = null;
    this.setActivity(null);
  }

  stop() {
    if (!this.busy) return;
    if (this.held) this.held();
    else if (this.ticket) this.session.stop(this.ticket);
    else this.session.renderer.cancelAll(); // Python is done, the graphs are still being laid out
  }

  /** The status's Retry button, made the first time a start fails. */
  retryButton(status) {
    let retry = status.querySelector('[data-testid="retry"]');
    if (!retry) {
      retry = document.createElement("button");
      Object.assign(retry, { type: "button", className: "button retry", textContent: t("Retry"), hidden: true });
      retry.dataset.testid = "retry";
      retry.addEventListener("click", () => this.session.retry());
      status.append(retry);
    }
    return retry;
  }

  setActivity(activity) {
    this.activity = activity;
    this.render();
  }

  render() {
    const session = this.session.state;
    let view;
    if (this.activity === "running") view = ["running", t("Running…")];
    else if (this.activity === "waiting" && session.phase === "loading") {
      view = ["loading", t("{loading} Your program runs once Python is ready.", { loading: session.text }), session.fraction];
    } else if (this.activity === "waiting") view = ["running", t("Waiting for the run before it…")];
    else if (session.phase === "idle") view = ["idle", t("Python starts when you use this cell")];
    else if (session.phase === "loading") view = ["loading", session.text, session.fraction];
    else if (session.phase === "failed") view = ["error", session.text, undefined, session.retry];
    else if (this.outcome) view = [this.outcome.state, this.outcome.text];
    else {
      const version = { version: session.version };
      view = ["ready", session.interruptible ? t("Ready · Python {version}", version) : t("Ready · Python {version} · Stop restarts Python", version)];
    }
    this.setStatus(...view);
  }

  setStatus(state, text, fraction, retry = false) {
    const { status, run, stop } = this.parts;
    status.dataset.state = state;
    status.querySelector(".status-text").textContent = text;
    const bar = status.querySelector("progress");
    bar.hidden = fraction === undefined;
    if (fraction !== undefined) bar.value = fraction;
    this.retryButton(status).hidden = !retry;
    run.disabled = this.busy;
    stop.disabled = !this.busy;
  }
}
