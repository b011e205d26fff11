// Teaching tools on a drawn graph, from the data playground_runtime sends with it (docs/learners.md,
// "Teaching views"): step through backward (the learner's own _backward closures, replayed in Python)
// and forward, check gradients against finite differences, a table of the nodes, grouped views.
import { element } from "../dom/element.js";
import { explainModel, update as updateModel } from "./explain-model.js";
import { relabel, toolButton } from "./graph-view.js";
import { explainPanel } from "./node-explain.js";
import { nodePicking } from "./node-picking.js";
import { quizPanel } from "./quiz.js";
import { colourWeights } from "./weight-colours.js";

const SPEEDS = [["0.5×", 1600], ["1×", 800], ["2×", 400], ["4×", 200]];

export const formatNumber = (x) => (x === null || x === undefined ? "nan" : Number(x).toFixed(4));

/**
 * Adds the teaching tools to a drawn graph's card. `quiz` ({field, labels}) opens its quiz at once (an
 * author's data-quiz). Returns {update(values, explain)}: a live update's numbers for the same shape.
 */
export function attachTeaching({ card, view, event, renderer, layout, quiz: quizAtStart = null, shownView = null }) {
  const cleanups = []; // what detach() undoes
  const onShow = (listener) => cleanups.push(view.onShow(listener));
  const bar = element("div", "graph-teach");
  const narration = element("p", "graph-narration");
  narration.setAttribute("aria-live", "polite");
  narration.hidden = true;
  const say = (text) => { // `code` in the narration is shown as code, never as markup
    narration.hidden = !text;
    narration.replaceChildren(...(text || "").split("`").map((part, i) => (i % 2 ? element("code", "", part) : part)));
  };
  card.querySelector(".graph-view").before(bar);
  card.append(narration);
  const labels = Object.fromEntries((event.table || []).map((row) => [row.id, row.label || row.id]));
  const fullDot = event.groups?.full?.dot ?? (event.grouped_only ? null : event.dot);
  const fullValues = event.groups?.full?.nodes ?? event.nodes;
  const showing = { view: shownView || event.view || "full", stepper: null };
  const viewButtons = new Map();

  async function showView(name, dot, values) {
    showing.view = name;
    for (const [other, b] of viewButtons) b.setAttribute("aria-pressed", String(other === name));
    await showVariant(dot, values);
  }

  // Steppers and the check work on the value-by-value drawing: a grouped view switches back to it.
  const onFullGraph = async () => {
    if (showing.view !== "full") await showView("full", fullDot, fullValues);
  };

  async function showVariant(variant, values) {
    stopStepper();
    const dot = layout(variant);
    const { svg, fill } = await renderer.render(dot, values);
    await fill(); // before it is shown: what each drawing gets (fields, focus, colours) needs its nodes
    view.replace(svg, dot);
  }

  function stopStepper() {
    showing.stepper?.close();
    showing.stepper = null;
  }

  const start = async (kind) => {
    stopStepper();
    await onFullGraph();
    showing.stepper = kind === "backward" ? backwardStepper(view, event, labels, say) : forwardStepper(view, event, say);
    bar.after(showing.stepper.controls);
    showing.stepper.controls.querySelector("button").focus();
  };

  if (event.steps && event.steps.steps.length) bar.append(toolButton("Step through backward", "Step through backward: run each _backward in turn", () => start("backward")));
  if (event.table && event.table.some((row) => row.op)) bar.append(toolButton("Step through forward", "Step through forward: compute each value in turn", () => start("forward")));
  if (event.check) {
    bar.append(toolButton("Check gradients", "Check gradients against finite differences", async () => {
      stopStepper();
      const { check } = event;
      await onFullGraph();
      if (!check.wrong.length) return say(`✓ All ${check.checked} grads agree with finite differences.${check.reason ? ` ${check.reason}` : ""}`);
      await showVariant(check.dot, fullValues);
      const [first] = check.wrong;
      const more = check.wrong.length > 1 ? ` (${check.wrong.length - 1} more marked)` : "";
      say(`✗ ${check.wrong.length} grad${check.wrong.length > 1 ? "s disagree" : " disagrees"} with finite differences: ` +
        `${first.label || "a value"}.grad is ${formatNumber(first.grad)}, expected ${formatNumber(first.expected)}${more}.` +
        `${check.hint ? ` ${check.hint}` : ""}${check.reason ? ` ${check.reason}` : ""}`);
    }));
  }
  let tableButton = null;
  if (event.table) {
    let table = null;
    cleanups.push(() => table?.remove());
    bar.append(tableButton = toolButton("Table", "Show the nodes as a table (label, op, data, grad)", (b) => {
      if (table) {
        table.remove();
        table = null;
        b.setAttribute("aria-pressed", "false");
        return;
      }
      table = nodeTable(event.table, event.title);
      card.append(table);
      b.setAttribute("aria-pressed", "true");
    }));
  }
  if (event.groups) {
    const variants = [["full", "Full graph", fullDot, fullValues], ["neuron", "By neuron", event.groups.neuron?.dot, event.groups.neuron?.nodes],
      ["layer", "By layer", event.groups.layer?.dot, event.groups.layer?.nodes]];
    const group = element("span", "graph-views");
    group.setAttribute("role", "group");
    group.setAttribute("aria-label", "Which view of the graph");
    for (const [name, label, dot, values] of variants) {
      const b = toolButton(label, name === "full" && !dot ? "Full graph: more than 2,000 values, too many to draw one by one" : `Show the graph: ${label.toLowerCase()}`,
        () => showView(name, dot, values));
      b.disabled = !dot;
      viewButtons.set(name, b);
      b.setAttribute("aria-pressed", String(name === showing.view));
      group.append(b);
    }
    bar.append(group);
  }
  const model = explainModel(event);
  let writeField = () => {};
  onShow((svg) => {
    writeField = fieldWriter(svg);
    if (showing.view === "neuron") colourWeights(svg, event.groups?.neuron?.weights, model?.data);
  });
  let explain = null;
  let quiz = null;
  if (model) {
    explain = explainPanel({ card, view, model, boxes: () => (showing.view === "full" ? null : event.groups?.[showing.view]) });
    const others = new Map();
    quiz = quizPanel({
      card, model, fields: () => writeField,
      // While values are hidden, the tools that would show them wait: the steppers, the check, the table, the views.
      onOpen: (open) => {
        if (open) tableButton?.getAttribute("aria-pressed") === "true" && tableButton.click(); // it would show them
        for (const b of bar.querySelectorAll("button")) {
          if (b.dataset.testid === "quiz") continue;
          if (open) others.set(b, b.disabled);
          b.disabled = open || (others.get(b) ?? b.disabled);
        }
      },
    });
    const picking = new AbortController();
    cleanups.push(() => picking.abort(), () => quiz.close(), () => explain.remove(), () => quiz.remove());
    const prepare = nodePicking(card.querySelector(".graph-view"), {
      onPick: (id, node) => (quiz.picking ? quiz.pick(id) : explain.pick(id, node)),
      signal: picking.signal,
    });
    onShow((svg) => {
      prepare(svg);
      quiz.rehide();
    });
    const quizButton = toolButton("Quiz me", "Quiz me: hide values and predict them", async () => {
      stopStepper();
      explain.close();
      await onFullGraph();
      quiz.open();
    });
    quizButton.dataset.testid = "quiz";
    bar.querySelector(".graph-views") ? bar.querySelector(".graph-views").before(quizButton) : bar.append(quizButton);
    if (quizAtStart) {
      const labelled = (quizAtStart.labels ?? []).flatMap((label) =>
        model.labels.flatMap((l, i) => (l === label || model.names[i] === label ? [i] : [])));
      onFullGraph().then(() => quiz.open({ field: quizAtStart.field, values: quizAtStart.labels?.length ? labelled : null }));
    }
  }
  if (!bar.childElementCount) bar.remove();

  return {
    /** Takes the tools off the card (a live graph's next drawing brings its own); the drawing stays. */
    detach() {
      stopStepper();
      say("");
      for (const cleanup of cleanups) cleanup();
      bar.remove();
      narration.remove();
    },
    /** Which view shows ("full", "neuron", "layer"), and the id of the value whose arithmetic is open. */
    state: () => ({ view: showing.view, explained: explain?.picked ?? null }),
    /** Opens the arithmetic of the value (or box) with this id again, as state() gave it. */
    reopen(id) {
      const node = id && view.svg().querySelector(`g.node[id="${CSS.escape(id)}"]`);
      if (node && explain) explain.pick(id, node, { focus: false });
    },
    /** A live update: the values' [data, grad] in the graph's order, and the explanation's numbers. */
    update(values, numbers) {
      if (!Array.isArray(values) || values.length !== (event.table?.length ?? -1)) return false;
      if (model && !updateModel(model, { values, explain: numbers })) return false;
      const rows = values.map((v) => (Array.isArray(v) ? v : [null, null]));
      if (showing.view === "full") {
        rows.forEach(([data, grad], i) => {
          if (!quiz?.hides(i, "data")) writeField(`v${i}`, "data", formatNumber(data));
          if (event.table[i].grad !== null && !quiz?.hides(i, "grad")) writeField(`v${i}`, "grad", formatNumber(grad));
        });
      } else { // a grouped view: the records drawn outside the boxes, and each box's one output
        rows.forEach(([data, grad], i) => {
          writeField(`v${i}`, "data", formatNumber(data));
          writeField(`v${i}`, "grad", formatNumber(grad));
        });
        for (const [box, i] of Object.entries(event.groups?.[showing.view]?.outputs ?? {})) {
          if (!rows[i]) continue;
          writeField(box, "data", formatNumber(rows[i][0]));
          writeField(box, "grad", formatNumber(rows[i][1]));
        }
        if (showing.view === "neuron") colourWeights(view.svg(), event.groups?.neuron?.weights, rows.map((r) => r[0]));
      }
      if (explain?.open) explain.refresh();
      return true;
    },
  };
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
    position.textContent = `step ${k} of ${length}`;
    back.disabled = k === 0;
    step.disabled = k === length;
    if (k === length) pause();
    return k;
  };
  const pause = () => {
    clearInterval(timer);
    timer = null;
    relabel(play, "▶ Play", "Play the steps");
  };
  const speed = element("select", "graph-speed");
  speed.setAttribute("aria-label", "Speed");
  for (const [name, ms] of SPEEDS) speed.append(new Option(name, String(ms)));
  speed.value = "800";
  const reset = toolButton("Reset", "Reset the steps", () => onReset(go(0)));
  const back = toolButton("◀ Step back", "Step back", () => onBack(go(k - 1)));
  const step = toolButton("Step ▶", "Step", () => onStep(go(k + 1)));
  const play = toolButton("▶ Play", "Play the steps", () => {
    if (timer) return pause();
    if (k === length) onReset(go(0));
    relabel(play, "Pause", "Pause the steps");
    timer = setInterval(() => onStep(go(k + 1)), Number(speed.value));
  });
  speed.addEventListener("change", () => timer && (pause(), play.click()));
  const close = toolButton("Close", "Close the stepper and show the graph as drawn", () => controls.close());
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
      say(`Start: ${labels[root.id]}.grad = 1.0 (the output's own gradient), every other grad 0. Press Step: each value's _backward runs in reverse topological order.`);
      return;
    }
    const current = steps[k - 1];
    svg.querySelector(`g[id="${current.id}"]`)?.classList.add("step-current");
    for (const edge of svg.querySelectorAll(`g.into-${current.id}`)) edge.classList.add("step-edge");
    for (const id of Object.keys(current.grads)) svg.querySelector(`g[id="${id}"]`)?.classList.add("step-target");
    say(`Step ${k}: ${current.text}${current.error ? ` (it raised ${current.error})` : ""}`);
  };
  const controls = controlsBar("Step through backward", { onStep: show, onBack: show, onReset: show, length: steps.length });
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
      say("Start: only the inputs have data. Press Step: each value is computed from its inputs, in topological order.");
      return;
    }
    const row = computed[k - 1];
    svg.querySelector(`g[id="${row.id}"]`)?.classList.add("step-current");
    say(`Step ${k}: ${row.label || "a value"} = ${row.op} of its inputs = ${formatNumber(row.data)}`);
  };
  const controls = controlsBar("Step through forward", { onStep: show, onBack: show, onReset: show, length: computed.length });
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
  table.append(element("caption", "", `The values of ${title ? `the graph of ${title}` : "this graph"}, inputs first`));
  const head = element("tr");
  for (const name of ["label", "op", "data", "grad"]) head.append(element("th", "", name));
  table.append(head);
  for (const row of rows) {
    const tr = element("tr");
    tr.append(element("td", "", row.label), element("td", "", row.op), element("td", "num", formatNumber(row.data)),
      element("td", "num", row.grad === null || row.grad === undefined ? "–" : formatNumber(row.grad)));
    table.append(tr);
  }
  return table;
}
