// Your own data on a decision-boundary chart: a click adds a point of the selected class, a right-click (or
// Delete) removes the nearest, CSV pasted or dropped replaces them all (a bad line is named and nothing
// changes), and a click on a point chooses that example: its graph, forwarded alone through the chart's
// model. The points live in the cell's PointStore (cell/points.js): the next Run trains on them through
// scalargrad.datasets.points(). The keyboard moves a cursor over the chart with the arrow keys.
import { element } from "../dom/element.js";
import { parseCsv, pointsCsv } from "../formats/points.js";
import { toolButton } from "./graph-view.js";
import { t } from "../i18n/messages.js";

const NEAR = 7; // pixels: a click this close to a point chooses it
const LABELS = { 1: t("class 1 (blue)"), 0: t("class 0 (red)") };
const MOVES = { ArrowLeft: [-1, 0], ArrowRight: [1, 0], ArrowUp: [0, 1], ArrowDown: [0, -1] };

/**
 * The editing tools of one boundary chart's card. `redraw()` draws the chart again (with shown(event)'s
 * points); `onExample(spec)` forwards one example. Returns {shown(event), drawn(), count()}: shown gives the
 * event with the points to draw.
 */
export function pointEditor({ card, plot, store, redraw, onExample }) {
  return new PointEditor(card, plot, store, redraw, onExample);
}

/** The tools' elements, with no state: the class radios, the CSV box, the message and the hint. */
function toolElements() {
  const tools = element("div", "point-tools");
  tools.dataset.testid = "point-tools";
  const classes = element("div", "point-classes");
  classes.setAttribute("role", "radiogroup");
  classes.setAttribute("aria-label", t("Class of the points you add"));
  const radios = [1, 0].map((value) => {
    const b = toolButton(LABELS[value], t("Add points of {class}", { class: LABELS[value] }));
    b.setAttribute("role", "radio");
    b.dataset.testid = "point-class";
    b.dataset.label = String(value);
    b.classList.add(`point-class-${value}`);
    return b;
  });
  classes.append(element("span", "point-caption", t("Add:")), ...radios);
  const csvToggle = toolButton(t("Paste CSV…"), t("Paste CSV… or drop a file: x,y,label on each line"));
  csvToggle.dataset.testid = "points-paste";
  const clear = toolButton(t("Clear my points"), t("Clear my points: points() gives the moons again"));
  clear.dataset.testid = "points-clear";
  const csvBox = element("div", "points-csv");
  csvBox.hidden = true;
  const csv = element("textarea", "points-csv-text");
  Object.assign(csv, { rows: 5, spellcheck: false });
  csv.dataset.testid = "points-csv";
  csv.setAttribute("aria-label", t("Points as CSV: x,y,label on each line, the label 0 or 1"));
  const load = toolButton(t("Use these points"), t("Use these points: they replace yours"));
  load.dataset.testid = "points-load";
  csvBox.append(csv, load);
  const message = element("p", "points-message");
  message.dataset.testid = "points-message";
  message.setAttribute("role", "status");
  const hint = element("p", "points-hint", t("Click the chart to add a point, click a point to see its graph, right-click to remove the nearest. Keyboard: arrows move the cursor, Enter adds, Delete removes, E shows the example, 1 and 0 pick the class."));
  hint.id = `points-hint-${Math.random().toString(36).slice(2)}`;
  tools.append(classes, csvToggle, clear, csvBox, message, hint);
  const mark = element("div", "point-cursor");
  mark.hidden = true;
  return { tools, radios, csvToggle, clear, csvBox, csv, load, message, hint, mark };
}

/** The chart's figure's scales: a client position in data coordinates (null outside the frame) and back. */
function geometry(plot) {
  const figure = plot.querySelector(".chart");
  if (!figure || typeof figure.scale !== "function") return null;
  const svg = figure.localName === "svg" ? figure : figure.querySelector("svg");
  const x = figure.scale("x");
  const y = figure.scale("y");
  if (!svg || !x?.invert || !y?.invert) return null;
  const rect = svg.getBoundingClientRect();
  const box = svg.viewBox.baseVal;
  const sx = (box?.width || rect.width) / rect.width;
  const sy = (box?.height || rect.height) / rect.height;
  return {
    toData(clientX, clientY) {
      const px = (clientX - rect.left) * sx;
      const py = (clientY - rect.top) * sy;
      const [x0, x1] = [Math.min(...x.range), Math.max(...x.range)];
      const [y0, y1] = [Math.min(...y.range), Math.max(...y.range)];
      return px < x0 || px > x1 || py < y0 || py > y1 ? null : [x.invert(px), y.invert(py)];
    },
    toClient: ([a, b]) => [rect.left + x.apply(a) / sx, rect.top + y.apply(b) / sy],
    domain: { x: x.domain, y: y.domain },
  };
}

/** The index of the point of `points` nearest a client position, and its distance in pixels. */
function nearest(points, geo, clientX, clientY) {
  let best = { index: -1, distance: Infinity };
  points.forEach((p, index) => {
    const [cx, cy] = geo.toClient(p);
    const distance = Math.hypot(cx - clientX, cy - clientY);
    if (distance < best.distance) best = { index, distance };
  });
  return best;
}

class PointEditor {
  constructor(card, plot, store, redraw, onExample) {
    Object.assign(this, { plot, store, redraw, onExample });
    this.event = null; // the latest boundary event
    this.edited = false; // changed since that event: the chart shows the store's points
    this.label = 1;
    this.cursor = null; // [x, y] in data coordinates, for the keyboard
    this.dom = toolElements();
    const { tools, radios, csvToggle, clear, csv, load, hint } = this.dom;
    radios.forEach((b) => b.addEventListener("click", () => this.choose(Number(b.dataset.label))));
    csvToggle.addEventListener("click", () => this.toggleCsv());
    clear.addEventListener("click", () => this.clear());
    load.addEventListener("click", () => this.fromCsv(csv.value));
    card.append(tools);
    plot.tabIndex = 0;
    plot.setAttribute("role", "application");
    plot.setAttribute("aria-roledescription", t("chart of your data"));
    plot.setAttribute("aria-label", t("Decision boundary and the points it is trained on"));
    plot.setAttribute("aria-describedby", hint.id);
    this.choose(1);
    this.listen(card);
  }

  listen(card) {
    const { plot } = this;
    plot.addEventListener("click", (e) => {
      const geo = geometry(plot);
      const at = geo?.toData(e.clientX, e.clientY);
      if (!at) return;
      const near = nearest(this.shownPoints(), geo, e.clientX, e.clientY);
      if (near.distance <= NEAR) this.example(near.index);
      else this.add(at);
    });
    plot.addEventListener("contextmenu", (e) => {
      const geo = geometry(plot);
      if (!geo?.toData(e.clientX, e.clientY)) return;
      e.preventDefault();
      this.remove(geo, e.clientX, e.clientY);
    });
    plot.addEventListener("keydown", (e) => this.key(e));
    plot.addEventListener("blur", () => (this.dom.mark.hidden = true));
    card.addEventListener("dragover", (e) => e.preventDefault());
    card.addEventListener("drop", async (e) => {
      const file = e.dataTransfer?.files?.[0];
      if (!file) return;
      e.preventDefault();
      e.stopPropagation(); // notebook.html opens a dropped file as a notebook
      this.fromCsv(await file.text());
    });
  }

  /** The keyboard: arrows move the cursor, Enter adds, Delete removes, E shows the example, 1 and 0 the class. */
  key(e) {
    const geo = geometry(this.plot);
    if (!geo) return;
    const { x, y } = geo.domain;
    this.cursor ??= [(x[0] + x[1]) / 2, (y[0] + y[1]) / 2];
    const step = e.shiftKey ? 1 / 8 : 1 / 40;
    const [cx, cy] = geo.toClient(this.cursor);
    if (MOVES[e.key]) {
      const [dx, dy] = MOVES[e.key];
      this.cursor = [clamp(this.cursor[0] + dx * step * (x[1] - x[0]), x), clamp(this.cursor[1] + dy * step * (y[1] - y[0]), y)];
      this.say(t("Cursor at ({x}, {y}).", { x: round(this.cursor[0]), y: round(this.cursor[1]) }));
    } else if (e.key === "Enter" || e.key === " ") this.add(this.cursor);
    else if (e.key === "Delete" || e.key === "Backspace") this.remove(geo, cx, cy);
    else if (e.key === "e" || e.key === "E") this.example(nearest(this.shownPoints(), geo, cx, cy).index);
    else if (e.key === "1" || e.key === "0") this.choose(Number(e.key));
    else return;
    e.preventDefault();
    this.showCursor();
  }

  choose(value) {
    this.label = value;
    for (const r of this.dom.radios) r.setAttribute("aria-checked", String(Number(r.dataset.label) === value));
  }

  say(text, state = "ok") {
    this.dom.message.textContent = text;
    this.dom.message.dataset.state = state;
  }

  toggleCsv() {
    const { csvBox, csv } = this.dom;
    csvBox.hidden = !csvBox.hidden;
    if (!csvBox.hidden) {
      csv.value = pointsCsv(this.base());
      csv.focus();
    }
  }

  clear() {
    this.store.set(null);
    this.edited = true;
    this.say(t("No points of your own: the next Run's points() gives the moons. Click the chart to add points."));
    this.redraw();
  }

  fromCsv(text) {
    const parsed = parseCsv(text);
    if (parsed.error) return this.say(t("{error} Nothing was changed.", { error: parsed.error }), "error");
    this.changed(parsed.points, t("Loaded {count} points.", { count: parsed.points.length }));
  }

  /** The learner's points are now `points`: kept, said with `what` came of the edit, drawn. */
  changed(points, what) {
    this.store.set(points);
    this.edited = true;
    this.summarize(what);
    this.redraw();
  }

  /** The points an edit starts from: the learner's own, or a copy of what the chart shows. */
  base() {
    return this.store.get() ?? (this.edited ? [] : (this.event?.points ?? []).map(([x, y, l]) => [x, y, l > 0 ? 1 : 0]));
  }

  showsOwn() {
    return this.edited || (this.store.get() !== null && !this.event?.from_points);
  }

  summarize(prefix = "") {
    const own = this.store.get() ?? [];
    const ones = own.filter((p) => p[2] === 1).length;
    const note = this.event && !this.event.from_points ? ` ${t("This chart's data did not come from points(): your points reach a program that reads X, y = points().")}` : "";
    const counts = { count: own.length, ones, zeros: own.length - ones };
    this.say(`${prefix} ${own.length ? t("{count} points of your own ({ones} of class 1, {zeros} of class 0): the next Run trains on them.", counts) : t("No points of your own: points() gives the moons.")}${note}`.trim());
  }

  shownPoints() {
    return this.showsOwn() ? (this.store.get() ?? []).map(([x, y, l]) => [x, y, l ? 1 : -1]) : this.event?.points ?? [];
  }

  add([x, y]) {
    this.changed([...this.base(), [round(x), round(y), this.label]], t("Added a point of {class} at ({x}, {y}).", { class: LABELS[this.label], x: round(x), y: round(y) }));
  }

  remove(geo, clientX, clientY) {
    const points = this.base();
    const { index } = nearest(points, geo, clientX, clientY);
    if (index < 0) return this.say(t("There is no point to remove."));
    const [gone] = points.splice(index, 1);
    this.changed(points, t("Removed the point at ({x}, {y}).", { x: round(gone[0]), y: round(gone[1]) }));
  }

  example(index) {
    const point = this.shownPoints()[index];
    if (!point) return;
    if (!this.event?.model) return this.say(t("Choosing an example needs the model drawn here to be an MLP of scalargrad's (MLP(2, [...]))."), "error");
    this.say(t("Example {number}: its graph, forwarded alone through the model that drew this chart, is below.", { number: index + 1 }));
    this.onExample({ ...this.event.model, point: [point[0], point[1]], label: point[2], index });
  }

  showCursor() {
    const { plot, cursor } = this;
    const { mark } = this.dom;
    const geo = geometry(plot);
    if (!geo || !cursor) return;
    const [cx, cy] = geo.toClient(cursor);
    const frame = plot.getBoundingClientRect();
    Object.assign(mark.style, { left: `${cx - frame.left}px`, top: `${cy - frame.top}px` });
    mark.hidden = false;
    if (!mark.isConnected) plot.append(mark);
  }

  /** The event as the chart should draw it: with the learner's points once they edited them. */
  shown(latest) {
    if (latest !== this.event) {
      this.event = latest;
      this.edited = false;
      this.summarize();
    }
    // The runtime counted `agree` on its points: the learner's own are not those.
    return { ...this.event, points: this.shownPoints(), ...(this.showsOwn() && { agree: undefined }) };
  }

  /** After a redraw: the keyboard's cursor goes back on top. */
  drawn() {
    return (document.activeElement === this.plot || this.plot.contains(document.activeElement)) && this.showCursor();
  }

  count() {
    return this.shownPoints().length;
  }
}

const round = (v) => Math.round(v * 1e4) / 1e4;
const clamp = (v, [low, high]) => Math.min(Math.max(v, Math.min(low, high)), Math.max(low, high));
