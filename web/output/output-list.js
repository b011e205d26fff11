// The output list: every run appends a section; text, notices, graphs and errors appear in order.
import { showChart } from "./chart-view.js";
import { attachTeaching } from "./graph-teaching.js";
import { element } from "../dom/element.js";
import { graphCard, readableBox, showGraph } from "./graph-view.js";
import { LiveCard } from "./live-graph.js";
import { pointEditor } from "./point-editor.js";
import { dateLocale, t } from "../i18n/messages.js";

const SMALL_GRAPH = 100; // values: few enough to lay out again, to find a layout that reads whole
const NARROW = "(max-width: 700px)";
// Made at its first use: the warm-up's rehearsal (below), while the page is idle, or a run that came before it. A
// formatter's first making costs 20 to 50 ms of the page's thread: made as the page loads, it came as the Python
// worker started, whose start waits for that thread. A Run pressed the moment Python is ready pays it instead
// (bench/compare.py's figure for that Run did not change: 203 ms against 203, 6 rounds each).
let clockFormat = null;
const clockTime = (now) => (clockFormat ??= new Intl.DateTimeFormat(dateLocale, { hour: "2-digit", minute: "2-digit", second: "2-digit" })).format(now);

// Other layouts of the same graph, for when left to right does not fit: records with their fields
// stacked (narrower), then top to bottom.
const stacked = (dot) => dot.replace(/label="\{ (.*) \}" shape=record/g, 'label="$1" shape=record');
const topDown = (dot) => dot.replace(/rankdir=("?)LR\b\1/, "rankdir=TB");

let rehearsed = false;
const REHEARSALS = 2;

/**
 * Once per page, when Python's warm-up program has run (python-worker.js): its output, a printed line and a
 * graph with its teaching tools, is shown in a list of its own beside this one, unseen, then removed. The
 * browser's first style, layout and font work for a run's output, Graphviz's first layout of such a graph and
 * the first calls of the code that shows it (30 to 40 ms here) are paid while the page is idle, not on the
 * reader's first Run. It gives way as soon as a run is asked for (`warmUp.wanted()`, the session's): then it
 * would only delay it.
 */
function rehearse(root, renderer, warmUp) {
  // Once a run was asked for, a rehearsal would only delay the next (and the worker may post no warm-up at all).
  if (!warmUp || rehearsed || !warmUp.wanted()) return;
  warmUp.events
    .then(async (events) => {
      if (rehearsed || !root.isConnected || !warmUp.wanted()) return;
      rehearsed = true;
      const stage = element("div", root.className);
      stage.inert = true;
      stage.setAttribute("aria-hidden", "true");
      // Fixed, off screen: it adds nothing to the page's scrolling (an embed's frame is sized to its content).
      stage.style.cssText = `position: fixed; left: -10000px; top: 0; width: ${root.clientWidth || 600}px; visibility: hidden`;
      root.after(stage);
      try {
        for (let round = 0; round < REHEARSALS && warmUp.wanted(); round++) {
          const output = new OutputList(stage, renderer, { rehearsal: true });
          output.startRun();
          for (const event of events) if (warmUp.wanted()) output.add(event);
          await output.settled();
        }
      } finally {
        stage.remove();
      }
    })
    .catch(() => {}); // the first Run then pays what it paid without a rehearsal, nothing more
}

export class OutputList {
  /**
   * With `follow`, the newest output is scrolled into view (a page of its own, not an article); with `quiz`
   * ({field, labels}), each graph opens its quiz (quiz.js) as soon as it is drawn; `points` (a PointStore)
   * and `onExample(spec)` let a decision boundary's chart take the learner's points and choose an example.
   * `warmUp` (the session's {events, wanted}): a list of the page rehearses its events; `rehearsal`: this is one.
   */
  constructor(root, renderer, { follow = false, quiz = null, points = null, onExample = null, warmUp = null, rehearsal = false } = {}) {
    this.root = root;
    this.follow = follow;
    this.quiz = quiz; // {field, labels}: every graph opens its quiz (an author's data-quiz)
    this.points = points; // the cell's PointStore: a boundary chart edits it
    this.onExample = onExample ?? (() => {}); // forwards one example of a boundary chart (cell.js)
    this.renderer = renderer;
    this.section = null;
    this.runs = 0;
    this.drawing = [];
    // The stages of bench/compare.py; a rehearsal's are not a run's.
    this.mark = rehearsal ? () => {} : (name) => performance.mark(name);
    if (!rehearsal) rehearse(root, renderer, warmUp);
  }

  /** Starts a new section; `note` says why it ran when the reader did not press its Run. */
  startRun(note) {
    this.root.querySelector(":scope > section.saved")?.remove(); // a notebook's saved outputs, until it runs
    this.runs += 1;
    this.section = element("section", "run");
    this.section.dataset.run = String(this.runs);
    const time = clockTime(new Date());
    const header = { number: this.runs, time, note };
    this.section.append(element("header", "run-header", note ? t("Run {number} · {time} · {note}", header) : t("Run {number} · {time}", header)));
    this.root.append(this.section);
    this.release();
    this.drawing = [];
    this.lastText = null;
  }

  /** One event from playground_runtime.runner (see its docstring for the shapes). */
  add(event) {
    if (event.type !== "graph-teaching") this.release(); // a graph's teaching fields come right after it, or not at all
    switch (event.type) {
      case "stdout":
      case "stderr":
      case "result":
        this.text(event.type, event.text);
        break;
      case "graph":
        if (event.live !== undefined) this.liveCard(event).graph(event);
        else this.graph(event, new Promise((resolve) => (this.awaitingFields = resolve)));
        break;
      case "graph-teaching": {
        const { type, ...fields } = event;
        this.awaitingFields?.(fields);
        this.awaitingFields = null;
        break;
      }
      case "graph-update":
        this.lives?.get(`${this.runs}:${event.live}`)?.update(event);
        break;
      case "graph-too-large":
        this.message("warning", t("Graph not drawn: {reason}.", { reason: event.text }));
        break;
      case "notice":
        this.message("notice", event.text);
        break;
      case "chart":
        this.chart(event);
        break;
    }
  }

  text(kind, text) {
    if (!this.lastText || this.lastText.dataset.kind !== kind) {
      this.lastText = element("pre", `text ${kind}`);
      this.lastText.dataset.kind = kind;
      this.append(this.lastText);
    }
    this.lastText.append(text); // a new text node: no re-layout of what is already there
    if (this.follow) this.followText(this.lastText);
  }

  /** With `follow`, the end of printed text stays in view as it grows: once a frame (each scroll lays the page out). */
  followText(pre) {
    this.textFrame ??= requestAnimationFrame(() => {
      this.textFrame = null;
      if (pre.isConnected && pre === this.lastText) pre.scrollIntoView({ block: "end" });
    });
  }

  message(kind, text) {
    this.append(element("p", `message ${kind}`, text));
  }

  error({ type, message, traceback }) {
    const box = element("div", "message error");
    box.append(element("strong", "error-title", `${type}: ${message}`));
    if (traceback) box.append(element("pre", "traceback", traceback));
    this.append(box);
  }

  /**
   * Draws a graph event in a new card; resolves with {parts, view, teaching, layout, event}, or null if it
   * could not. `fields`: a promise of its teaching fields (a graph-teaching event), or of null if none came.
   */
  graph(event, fields = null) {
    this.mark("graph-received");
    const parts = graphCard(event);
    this.append(parts.card);
    const done = this.draw(parts, event, fields)
      .then((drawn) => ({ parts, ...drawn }))
      .catch((error) => {
        parts.view.replaceChildren(element("p", "message error", t("Could not draw this graph: {error}", { error: error.message })));
        return null;
      });
    this.drawing.push(done);
    return done;
  }

  async draw(parts, event, fields) {
    // The layout chosen here (a transformation of the DOT) applies to every variant the teaching tools draw.
    // A small graph that does not read whole left to right tries its records stacked, then top to bottom.
    const base = matchMedia(NARROW).matches ? topDown : (dot) => dot;
    const layouts = event.nodes <= SMALL_GRAPH ? [base, (d) => stacked(base(d)), topDown] : [base];
    const dots = layouts.map((layout) => layout(event.dot));
    const tried = dots.filter((dot, i) => dots.indexOf(dot) === i); // a layout that changes nothing is not tried twice
    const values = event.groups?.[event.view]?.nodes ?? event.nodes; // a network may open on a grouped view
    const fit = tried.length > 1 ? readableBox(parts.view.clientWidth || 600) : null;
    const { svg, fill, index } = await this.renderer.renderFitting(tried, values, fit);
    this.mark("graph-laid-out");
    const dot = tried[index];
    const layout = layouts[dots.indexOf(dot)];
    // A quiz hides the values from the first paint: its drawing waits for the fields that open it. Otherwise
    // the drawing goes first and its tools come with the fields.
    let shown = { ...event, ...(this.quiz && (await fields)), dot };
    const view = showGraph(parts, svg, dot);
    await fill();
    view.showOutput();
    this.mark("graph-inserted");
    const attach = (shownView) => attachTeaching({ card: parts.card, view, event: shown, renderer: this.renderer, layout, quiz: this.quiz, shownView });
    let teaching = attach();
    const more = !this.quiz && (await fields);
    if (more) {
      const { view: shownView } = teaching.state(); // a view the reader chose meanwhile stays
      teaching.detach();
      shown = { ...shown, ...more, dot };
      teaching = attach(shownView);
    }
    if (fields) this.mark("graph-teaching-attached");
    return { view, teaching, layout, event: shown };
  }

  /** The graph that waits for its teaching fields gets none (another event came, or the run ended). */
  release() {
    this.awaitingFields?.(null);
    this.awaitingFields = null;
  }

  /** The card of a live graph (draw_dot(..., live=True)): one per call site and run (live-graph.js). */
  liveCard(event) {
    this.lives ??= new Map();
    const key = `${this.runs}:${event.live}`;
    if (!this.lives.has(key)) this.lives.set(key, new LiveCard(this));
    return this.lives.get(key);
  }

  /**
   * Live charts: one card per chart name and run, updated as points arrive. A decision boundary's card
   * takes the learner's own points too (point-editor.js), when the cell keeps points.
   */
  chart(event) {
    this.charts ??= new Map();
    const key = `${this.runs}:${event.chart}`;
    if (!this.charts.has(key)) {
      const card = element("figure", "chart-card");
      card.dataset.testid = "chart";
      card.dataset.chart = event.chart;
      const plot = element("div", "chart-plot");
      card.append(plot);
      this.append(card);
      const chart = { card, plot, points: [] };
      if (event.kind === "boundary" && this.points) {
        chart.editor = pointEditor({ card, plot, store: this.points, redraw: () => this.drawChart(chart), onExample: this.onExample });
      }
      this.charts.set(key, chart);
    }
    const chart = this.charts.get(key);
    if (event.kind === "series") chart.points.push(...event.points);
    else chart.latest = event;
    chart.kind = event.kind;
    this.drawChart(chart);
  }

  drawChart(chart) {
    const data = chart.kind === "series" ? chart.points : chart.editor ? chart.editor.shown(chart.latest) : chart.latest;
    chart.card.dataset.points = String(chart.kind === "series" ? chart.points.length : data.points.length);
    showChart(chart.plot, chart.kind, data)
      .then(() => chart.editor?.drawn())
      .catch((error) => chart.plot.replaceChildren(element("p", "message error", t("Could not draw this chart: {error}", { error: error.message }))));
  }

  /** Resolves once every graph of the current run is in the page. */
  settled() {
    this.release();
    return Promise.all(this.drawing);
  }

  append(node) {
    if (!node.matches("pre.text")) this.lastText = null;
    if (!this.section) this.startRun();
    this.section.append(node);
    if (this.follow) node.scrollIntoView({ block: "nearest" });
  }

  clear() {
    this.root.replaceChildren();
    this.section = null;
  }
}
