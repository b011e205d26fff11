// Teaching tools on a drawn graph, from the data playground_runtime sends with it (docs/learners.md,
// "Teaching views"): step through backward (the learner's own _backward closures, replayed in Python)
// and forward, check gradients against finite differences, a table of the nodes, grouped views.
import { element } from "../dom/element.js";
import { explainModel, update as updateModel } from "./explain-model.js";
import { markNode, nodeById, nodeTitle, relabel, toolButton, valueIndex } from "./graph-view.js";
import { explainPanel } from "./node-explain.js";
import { nodePicking } from "./node-picking.js";
import { quizPanel } from "./quiz.js";
import { rootOf, valueTree } from "./value-tree.js";
import { colourWeights } from "./weight-colours.js";
import { t, tn } from "../i18n/messages.js";

const SPEEDS = [["0.5×", 1600], ["1×", 800], ["2×", 400], ["4×", 200]];

export const formatNumber = (x) => (x === null || x === undefined ? "nan" : Number(x).toFixed(4));

/**
 * Adds the teaching tools to a drawn graph's card. `quiz` ({field, labels}) opens its quiz at once (an
 * author's data-quiz). Returns the GraphTeaching: update(values, explain) gives a live update's numbers for
 * the same shape; detach(), state() and reopen(id) as below.
 */
export function attachTeaching(options) {
  return new GraphTeaching(options);
}

/**
 * A grouped view's boxes for the tree of values, and the values it draws on their own (inputs, targets, a loss),
 * in the drawing's order, each box named as the drawing names it.
 */
function boxesOf(svg, { members, outputs }) {
  if (!members) return null; // a graph too large for its boxes' members to be sent
  const nodes = [...svg.querySelectorAll("g.node")].filter((node) => Object.hasOwn(members, node.id) || valueIndex(node.id) !== null);
  if (!nodes.length) return null;
  const titles = Object.fromEntries(nodes.map((node) => [node.id, nodeTitle(node)]));
  return { ids: nodes.map((node) => node.id), titles, members, outputs: outputs ?? {} };
}

/** The bar of tools over the drawing and the narration under it, with no state. */
function teachingElements(card) {
  const bar = element("div", "graph-teach");
  const narration = element("p", "graph-narration");
  narration.setAttribute("aria-live", "polite");
  narration.hidden = true;
  card.querySelector(".graph-view").before(bar);
  card.append(narration);
  return { bar, narration };
}

class GraphTeaching {
  constructor({ card, view, event, renderer, layout, quiz = null, shownView = null }) {
    Object.assign(this, { card, view, event, renderer, layout });
    Object.assign(this, teachingElements(card));
    this.cleanups = []; // what detach() undoes
    this.labels = Object.fromEntries((event.table || []).map((row) => [row.id, row.label || row.id]));
    this.fullDot = event.groups?.full?.dot ?? (event.grouped_only ? null : event.dot);
    this.fullValues = event.groups?.full?.nodes ?? event.nodes;
    this.showing = { view: shownView || event.view || "full", stepper: null };
    this.viewButtons = new Map();
    this.writeField = () => {};
    this.explain = this.quiz = null;
    this.disabledBefore = new Map(); // each tool's state before the quiz opened
    this.addSteppers();
    if (event.check) this.bar.append(toolButton(t("Check gradients"), t("Check gradients against finite differences"), () => this.checkGradients()));
    if (event.table) this.addTable();
    if (event.groups) this.addViews();
    this.model = explainModel(event);
    this.onShow((svg) => {
      this.writeField = fieldWriter(svg);
      if (this.showing.view === "neuron") colourWeights(svg, event.groups?.neuron?.weights, this.model?.data);
    });
    if (this.model) this.addExplainAndQuiz(quiz);
    if (!this.bar.childElementCount) this.bar.remove();
  }

  onShow(listener) {
    this.cleanups.push(this.view.onShow(listener));
  }

  /** Shows `text` under the drawing; `code` in it is shown as code, never as markup. */
  say(text) {
    this.narration.hidden = !text;
    this.narration.replaceChildren(...(text || "").split("`").map((part, i) => (i % 2 ? element("code", "", part) : part)));
  }

  async showView(name, dot, values) {
    this.showing.view = name;
    for (const [other, b] of this.viewButtons) b.setAttribute("aria-pressed", String(other === name));
    await this.showVariant(dot, values);
  }

  /** Steppers and the check work on the value-by-value drawing: a grouped view switches back to it. */
  async onFullGraph() {
    if (this.showing.view !== "full") await this.showView("full", this.fullDot, this.fullValues);
  }

  async showVariant(variant, values) {
    this.stopStepper();
    const dot = this.layout(variant);
    const { svg, fill } = await this.renderer.render(dot, values);
    await fill(); // before it is shown: what each drawing gets (fields, focus, colours) needs its nodes
    this.view.replace(svg, dot);
  }

  stopStepper() {
    this.showing.stepper?.close();
    this.showing.stepper = null;
  }

  addSteppers() {
    const { event } = this;
    const start = async (kind) => {
      this.stopStepper();
      await this.onFullGraph();
      const say = (text) => this.say(text);
      this.showing.stepper = kind === "backward" ? backwardStepper(this.view, event, this.labels, say) : forwardStepper(this.view, event, say);
      this.bar.after(this.showing.stepper.controls);
      this.showing.stepper.controls.querySelector("button").focus();
    };
    if (event.steps && event.steps.steps.length) this.bar.append(toolButton(t("Step through backward"), t("Step through backward: run each _backward in turn"), () => start("backward")));
    if (event.table && event.table.some((row) => row.op)) this.bar.append(toolButton(t("Step through forward"), t("Step through forward: compute each value in turn"), () => start("forward")));
  }

  async checkGradients() {
    this.stopStepper();
    const { check } = this.event;
    await this.onFullGraph();
    const reason = check.reason ? ` ${check.reason}` : "";
    if (!check.wrong.length) return this.say(t("✓ All {count} grads agree with finite differences.", { count: check.checked }) + reason);
    await this.showVariant(check.dot, this.fullValues);
    const [first] = check.wrong;
    const values = { count: check.wrong.length, label: first.label || t("a value"), grad: formatNumber(first.grad), expected: formatNumber(first.expected), more: check.wrong.length - 1 };
    const wrong = check.wrong.length > 1
      ? tn("✗ {count} grad disagrees with finite differences: {label}.grad is {grad}, expected {expected} ({more} more marked).",
        "✗ {count} grads disagree with finite differences: {label}.grad is {grad}, expected {expected} ({more} more marked).", check.wrong.length, values)
      : t("✗ 1 grad disagrees with finite differences: {label}.grad is {grad}, expected {expected}.", values);
    this.say(`${wrong}${check.hint ? ` ${check.hint}` : ""}${reason}`);
  }

  addTable() {
    let table = null;
    this.cleanups.push(() => table?.remove());
    this.bar.append(this.tableButton = toolButton(t("Table"), t("Show the nodes as a table (label, op, data, grad)"), (b) => {
      if (table) {
        table.remove();
        table = null;
      } else {
        table = nodeTable(this.event.table, this.event.title);
        this.card.append(table);
      }
      b.setAttribute("aria-pressed", String(Boolean(table)));
    }));
  }

  addViews() {
    const { groups } = this.event;
    const variants = [
      ["full", t("Full graph"), t("Show the graph: full graph"), this.fullDot, this.fullValues],
      ["neuron", t("By neuron"), t("Show the graph: by neuron"), groups.neuron?.dot, groups.neuron?.nodes],
      ["layer", t("By layer"), t("Show the graph: by layer"), groups.layer?.dot, groups.layer?.nodes],
    ];
    const group = element("span", "graph-views");
    group.setAttribute("role", "group");
    group.setAttribute("aria-label", t("Which view of the graph"));
    for (const [name, label, title, dot, values] of variants) {
      const b = toolButton(label, name === "full" && !dot ? t("Full graph: more than 2,000 values, too many to draw one by one") : title,
        () => this.showView(name, dot, values));
      b.disabled = !dot;
      this.viewButtons.set(name, b);
      b.setAttribute("aria-pressed", String(name === this.showing.view));
      group.append(b);
    }
    this.bar.append(group);
  }

  /** A value's arithmetic when the reader picks it, and the quiz; `quizAtStart` opens the quiz at once. */
  addExplainAndQuiz(quizAtStart) {
    const { card, view, model, event, bar } = this;
    const explain = this.explain = explainPanel({ card, view, model, boxes: () => (this.showing.view === "full" ? null : event.groups?.[this.showing.view]) });
    const quiz = this.quiz = quizPanel({ card, model, fields: () => this.writeField, onOpen: (open) => this.quizOpened(open) });
    const picking = new AbortController();
    let walked = null; // the drawing's id of the box the tree of values is on, marked there
    const markWalked = () => markNode(view.svg(), "walked", walked);
    let treeView = null; // the view the tree was made for: each view has its own
    const makeTree = (svg) => {
      treeView = this.showing.view;
      const group = treeView === "full" ? null : event.groups?.[treeView];
      const boxes = group ? boxesOf(svg, group) : null;
      const tree = group && !boxes ? null : valueTree(model, rootOf(model), {
        boxes,
        onFocus: (id) => {
          walked = id;
          markWalked();
        },
        onOpen: (key, item) => explain.pick(key, nodeById(view.svg(), key), { back: item }),
      });
      const old = this.tree;
      if (old && tree) old.element.replaceWith(tree.element);
      else if (tree) card.querySelector(".graph-view").after(tree.element);
      else old?.element.remove();
      if (old?.element.classList.contains("shown")) tree?.element.classList.add("shown");
      this.tree = tree;
      walked = null;
    };
    this.cleanups.push(() => picking.abort(), () => quiz.close(), () => explain.remove(), () => quiz.remove(), () => this.tree?.element.remove());
    const prepare = nodePicking(card.querySelector(".graph-view"), {
      onPick: (id, node) => {
        if (quiz.picking) return quiz.pick(id);
        this.tree?.reveal(id);
        explain.pick(id, node);
      },
      signal: picking.signal,
    });
    this.onShow((svg) => {
      prepare(svg);
      quiz.rehide();
      if (treeView !== this.showing.view) makeTree(svg);
      markWalked();
    });
    const quizButton = toolButton(t("Quiz me"), t("Quiz me: hide values and predict them"), async () => {
      this.stopStepper();
      explain.close();
      await this.onFullGraph();
      quiz.open();
    });
    quizButton.dataset.testid = "quiz";
    bar.querySelector(".graph-views") ? bar.querySelector(".graph-views").before(quizButton) : bar.append(quizButton);
    if (quizAtStart) {
      const labelled = (quizAtStart.labels ?? []).flatMap((label) =>
        model.labels.flatMap((l, i) => (l === label || model.names[i] === label ? [i] : [])));
      this.onFullGraph().then(() => quiz.open({ field: quizAtStart.field, values: quizAtStart.labels?.length ? labelled : null }));
    }
  }

  /** While values are hidden, the tools that would show them wait: the steppers, the check, the table, the views. */
  quizOpened(open) {
    if (this.tree) this.tree.element.hidden = open; // it would say the hidden values
    if (open && this.tableButton?.getAttribute("aria-pressed") === "true") this.tableButton.click(); // it would show them
    for (const b of this.bar.querySelectorAll("button")) {
      if (b.dataset.testid === "quiz") continue;
      if (open) this.disabledBefore.set(b, b.disabled);
      b.disabled = open || (this.disabledBefore.get(b) ?? b.disabled);
    }
  }

  /** Takes the tools off the card (a live graph's next drawing brings its own); the drawing stays. */
  detach() {
    this.stopStepper();
    this.say("");
    for (const cleanup of this.cleanups) cleanup();
    this.bar.remove();
    this.narration.remove();
  }

  /**
   * Which view shows ("full", "neuron", "layer"), the id of the value whose arithmetic is open, and where the
   * tree of values is (value-tree.js's state()).
   */
  state() {
    return { view: this.showing.view, explained: this.explain?.picked ?? null, walked: this.tree?.state() ?? null };
  }

  /** Opens the arithmetic of the value (or box) with this id again, and brings the tree back, as state() gave them. */
  reopen(id, walked = null) {
    if (id) this.explain?.pick(id, nodeById(this.view.svg(), id), { focus: false });
    if (walked) this.tree?.restore(walked);
  }

  /** A live update: the values' [data, grad] in the graph's order, and the explanation's numbers. */
  update(values, numbers) {
    if (!Array.isArray(values) || values.length !== (this.event.table?.length ?? -1)) return false;
    if (this.model && !updateModel(this.model, { values, explain: numbers })) return false;
    const rows = values.map((v) => (Array.isArray(v) ? v : [null, null]));
    if (this.showing.view === "full") this.writeValues(rows);
    else this.writeGrouped(rows);
    if (this.explain?.open) this.explain.refresh();
    this.tree?.refresh();
    return true;
  }

  /** The value-by-value drawing: each field the quiz does not hide, and no grad where a value has none. */
  writeValues(rows) {
    rows.forEach(([data, grad], i) => {
      if (!this.quiz?.hides(i, "data")) this.writeField(`v${i}`, "data", formatNumber(data));
      if (this.event.table[i].grad !== null && !this.quiz?.hides(i, "grad")) this.writeField(`v${i}`, "grad", formatNumber(grad));
    });
  }

  /** A grouped view: the records drawn outside the boxes, and each box's one output. */
  writeGrouped(rows) {
    const group = this.event.groups?.[this.showing.view];
    rows.forEach(([data, grad], i) => {
      this.writeField(`v${i}`, "data", formatNumber(data));
      this.writeField(`v${i}`, "grad", formatNumber(grad));
    });
    for (const [box, i] of Object.entries(group?.outputs ?? {})) {
      if (!rows[i]) continue;
      this.writeField(box, "data", formatNumber(rows[i][0]));
      this.writeField(box, "grad", formatNumber(rows[i][1]));
    }
    if (this.showing.view === "neuron") colourWeights(this.view.svg(), this.event.groups?.neuron?.weights, rows.map((r) => r[0]));
  }
}

/** Writes a node's field ("data …" or "grad …") in the drawing, in place, and only when its text
 * changes: rewriting every field of a big graph on each step costs more than a frame of layout. */
function fieldWriter(svg) {
  const fields = new Map(); // "v3 grad" -> [text element, the text it shows]
  for (const node of svg.querySelectorAll("g.node[id]")) {
    for (const t of node.querySelectorAll("text")) {
      const [field] = t.textContent.split(" ", 1);
      if (field === "data" || field === "grad") fields.set(`${node.id} ${field}`, [t, t.textContent]);
    }
  }
  return (id, field, text) => {
    const entry = fields.get(`${id} ${field}`);
    const wanted = `${field} ${text}`;
    if (!entry || entry[1] === wanted) return;
    entry[0].textContent = wanted;
    entry[1] = wanted;
  };
}

function fieldTexts(svg) {
  return [...svg.querySelectorAll("g.node text")].map((t) => [t, t.textContent]);
}

function controlsBar(label, { onStep, onBack, onReset, length }) {
  const controls = element("div", "graph-stepper");
  controls.setAttribute("role", "group");
  controls.setAttribute("aria-label", label);
  const position = element("span", "graph-step-position");
  let k = 0;
  let timer = null;
  const go = (next) => {
    k = Math.max(0, Math.min(length, next));
    position.textContent = t("step {k} of {length}", { k, length });
    back.disabled = k === 0;
    step.disabled = k === length;
    if (k === length) pause();
    return k;
  };
  const pause = () => {
    clearInterval(timer);
    timer = null;
    relabel(play, t("▶ Play"), t("Play the steps"));
  };
  const speed = element("select", "graph-speed");
  speed.setAttribute("aria-label", t("Speed"));
  for (const [name, ms] of SPEEDS) speed.append(new Option(name, String(ms)));
  speed.value = "800";
  const reset = toolButton(t("Reset"), t("Reset the steps"), () => onReset(go(0)));
  const back = toolButton(t("◀ Step back"), t("Step back"), () => onBack(go(k - 1)));
  const step = toolButton(t("Step ▶"), t("Step"), () => onStep(go(k + 1)));
  const play = toolButton(t("▶ Play"), t("Play the steps"), () => {
    if (timer) return pause();
    if (k === length) onReset(go(0));
    relabel(play, t("Pause"), t("Pause the steps"));
    timer = setInterval(() => onStep(go(k + 1)), Number(speed.value));
  });
  speed.addEventListener("change", () => timer && (pause(), play.click()));
  const close = toolButton(t("Close"), t("Close the stepper and show the graph as drawn"), () => controls.close());
  controls.addEventListener("keydown", (event) => {
    const keys = { ArrowRight: step, ArrowLeft: back, Home: reset, " ": play, Escape: close };
    if (!keys[event.key] || event.target === speed) return;
    event.preventDefault();
    keys[event.key].click();
  });
  controls.append(reset, back, step, play, speed, position, close);
  go(0);
  controls.pause = pause;
  return controls;
}

function backwardStepper(view, event, labels, say) {
  const { start, steps } = event.steps;
  const svg = view.svg();
  const original = fieldTexts(svg);
  const setField = fieldWriter(svg);
  const gradsAfter = (k) => steps.slice(0, k).reduce((grads, s) => Object.assign(grads, s.grads), { ...start });
  const root = event.table[event.table.length - 1];
  const show = (k) => {
    const grads = gradsAfter(k);
    for (const [id, grad] of Object.entries(grads)) setField(id, "grad", formatNumber(grad));
    for (const marked of svg.querySelectorAll(".step-current, .step-edge, .step-target")) marked.classList.remove("step-current", "step-edge", "step-target");
    if (k === 0) {
      say(t("Start: {label}.grad = 1.0 (the output's own gradient), every other grad 0. Press Step: each value's _backward runs in reverse topological order.", { label: labels[root.id] }));
      return;
    }
    const current = steps[k - 1];
    svg.querySelector(`g[id="${current.id}"]`)?.classList.add("step-current");
    for (const edge of svg.querySelectorAll(`g.into-${current.id}`)) edge.classList.add("step-edge");
    for (const id of Object.keys(current.grads)) svg.querySelector(`g[id="${id}"]`)?.classList.add("step-target");
    say(current.error ? t("Step {k}: {text} (it raised {error})", { k, text: current.text, error: current.error }) : t("Step {k}: {text}", { k, text: current.text }));
  };
  const controls = controlsBar(t("Step through backward"), { onStep: show, onBack: show, onReset: show, length: steps.length });
  controls.close = () => {
    controls.pause();
    for (const [t, text] of original) t.textContent = text;
    for (const marked of svg.querySelectorAll(".step-current, .step-edge, .step-target")) marked.classList.remove("step-current", "step-edge", "step-target");
    controls.remove();
    say("");
  };
  show(0);
  return { controls, close: controls.close };
}

function forwardStepper(view, event, say) {
  const svg = view.svg();
  const original = fieldTexts(svg);
  const setField = fieldWriter(svg);
  const computed = event.table.filter((row) => row.op);
  const show = (k) => {
    for (const marked of svg.querySelectorAll(".step-current")) marked.classList.remove("step-current");
    computed.forEach((row, i) => setField(row.id, "data", i < k ? formatNumber(row.data) : "?"));
    for (const row of event.table) setField(row.id, "grad", "–");
    if (k === 0) {
      say(t("Start: only the inputs have data. Press Step: each value is computed from its inputs, in topological order."));
      return;
    }
    const row = computed[k - 1];
    svg.querySelector(`g[id="${row.id}"]`)?.classList.add("step-current");
    say(t("Step {k}: {label} = {op} of its inputs = {data}", { k, label: row.label || t("a value"), op: row.op, data: formatNumber(row.data) }));
  };
  const controls = controlsBar(t("Step through forward"), { onStep: show, onBack: show, onReset: show, length: computed.length });
  controls.close = () => {
    controls.pause();
    for (const [t, text] of original) t.textContent = text;
    for (const marked of svg.querySelectorAll(".step-current")) marked.classList.remove("step-current");
    controls.remove();
    say("");
  };
  show(0);
  return { controls, close: controls.close };
}

function nodeTable(rows, title) {
  const table = element("table", "graph-table");
  table.dataset.testid = "graph-table";
  table.append(element("caption", "", title ? t("The values of the graph of {title}, inputs first", { title }) : t("The values of this graph, inputs first")));
  const head = element("tr");
  head.translate = false; // Value's attribute names, as code writes them
  for (const name of ["label", "op", "data", "grad"]) head.append(element("th", "", name));
  table.append(head);
  for (const row of rows) {
    const tr = element("tr");
    const [label, op] = [element("td", "", row.label), element("td", "", row.op)];
    label.translate = op.translate = false; // the program's own label and op
    tr.append(label, op, element("td", "num", formatNumber(row.data)),
      element("td", "num", row.grad === null || row.grad === undefined ? "–" : formatNumber(row.grad)));
    table.append(tr);
  }
  return table;
}
