// Predict, then reveal: a graph's Quiz me hides the grads (or the data) of all inputs, all computed values
// or the values the learner picks; the learner types a number for each (`data-testid="prediction"`), and
// Check marks each `data-state="right"` or `"wrong"` (to 4 significant digits), reveals the values and,
// for the wrong ones, their arithmetic (explain-text.js). Everything is judged here, in the page, against
// the numbers the graph's event carried: a program cannot mark an answer.
import { element } from "../dom/element.js";
import { toolButton } from "./graph-view.js";
import { explanationOf, number } from "./explain-text.js";

const MAX_ITEMS = 20;

/** Whether `typed` is `value` to 4 significant digits (a zero: to the 4 decimals the graph shows). */
export function rightTo4(typed, value) {
  const text = String(typed).trim().replace(/^\u2212/, "-").replace(/^\+/, "");
  if (!/^-?(\d+\.?\d*|\.\d+)(e[-+]?\d+)?$/i.test(text) || value === null || value === undefined) return false;
  const guess = Number(text);
  if (value === 0) return Math.abs(guess) < 5e-5;
  const unit = 10 ** (Math.floor(Math.log10(Math.abs(value))) - 3); // one in the 4th significant digit
  return Math.abs(guess - value) <= unit / 2 * (1 + 1e-9) || Number(guess.toPrecision(4)) === Number(value.toPrecision(4));
}

/**
 * The quiz of one graph card: {open(options), close(), picking, pick(id), hides(id, field)}. `fields()` gives
 * the current drawing's field writer (graph-teaching.js's fieldWriter), `onOpen(open)` lets the card disable
 * its other tools while a quiz hides values.
 */
export function quizPanel({ card, model, fields, onOpen }) {
  const panel = element("section", "quiz");
  panel.dataset.testid = "quiz-panel";
  panel.setAttribute("aria-label", "Quiz: predict the hidden values");
  panel.hidden = true;
  const intro = element("p", "quiz-intro", "Predict each hidden value, to 4 significant digits, then press Check.");
  const what = select("quiz-field", "What to hide", [["grad", "the grads"], ["data", "the data"]]);
  const which = select("quiz-which", "Of which values", [["all", "of all inputs"], ["picked", "of the values I pick"]]);
  const options = element("div", "quiz-options");
  options.setAttribute("role", "group");
  options.setAttribute("aria-label", "What the quiz hides");
  options.append(element("span", "", "Hide"), what, which);
  const pickHint = element("p", "quiz-hint", "Click the values to quiz in the graph (or focus one and press Enter); again to take one out.");
  const list = element("ol", "quiz-items");
  const score = element("p", "quiz-score");
  score.setAttribute("role", "status");
  const check = toolButton("Check", "Check my predictions", () => judge());
  check.dataset.testid = "quiz-check";
  const again = toolButton("Try again", "Try again: hide the values again and clear the marks", () => build(true));
  const close = toolButton("Close quiz", "Close quiz: show every value again", () => api.close());
  const actions = element("div", "quiz-actions");
  actions.append(check, again, close);
  panel.append(intro, options, pickHint, list, score, actions);
  panel.addEventListener("keydown", (event) => {
    if (event.key === "Enter" && event.target.matches("input")) {
      event.preventDefault();
      judge();
    }
  });
  card.querySelector(".graph-view").after(panel);

  let items = []; // {index, field, input, row, answer, reveal}
  let picked = [];
  let hidden = new Set(); // "index field" while hidden in the drawing
  what.addEventListener("change", () => build(false));
  which.addEventListener("change", () => build(false));

  const defaults = () => {
    const field = what.value;
    if (which.value === "picked") return picked;
    const indices = [];
    for (let i = 0; i < model.n; i += 1) {
      if (field === "grad" ? model.args[i] === null && model.hasGrad[i] : model.args[i] !== null) indices.push(i);
    }
    return indices.slice(0, MAX_ITEMS);
  };

  function show(index, field) {
    const value = field === "grad" ? model.grad[index] : model.data[index];
    fields()(`v${index}`, field, number(value));
  }

  function build(keepTyped) {
    const typed = new Map(items.map((item) => [`${item.index} ${item.field}`, item.input.value]));
    for (const key of hidden) show(...split(key));
    hidden = new Set();
    which.options[0].textContent = what.value === "grad" ? "of all inputs" : "of all computed values";
    pickHint.hidden = which.value !== "picked";
    const field = what.value;
    items = defaults().map((index) => {
      const row = element("li", "quiz-item");
      row.dataset.state = "pending";
      const label = element("label", "quiz-label");
      const input = element("input", "quiz-input");
      Object.assign(input, { type: "text", inputMode: "decimal", autocomplete: "off", spellcheck: false });
      input.dataset.testid = "prediction";
      input.dataset.state = "pending";
      input.value = keepTyped ? typed.get(`${index} ${field}`) ?? "" : "";
      label.append(element("span", "quiz-name", `${model.names[index]}.${field} =`), " ", input);
      const answer = element("span", "quiz-answer");
      const reveal = element("div", "quiz-reveal");
      row.append(label, answer, reveal);
      hidden.add(`${index} ${field}`);
      fields()(`v${index}`, field, "?");
      return { index, field, input, row, answer, reveal };
    });
    list.replaceChildren(...items.map((item) => item.row));
    score.textContent = items.length ? "" : which.value === "picked" ? "Pick the values to quiz in the graph." : "This graph has no such values.";
    check.disabled = !items.length;
  }

  function judge() {
    let right = 0;
    for (const item of items) {
      const value = item.field === "grad" ? model.grad[item.index] : model.data[item.index];
      const ok = rightTo4(item.input.value, value);
      right += ok;
      item.row.dataset.state = item.input.dataset.state = ok ? "right" : "wrong";
      item.input.setAttribute("aria-invalid", String(!ok));
      item.answer.textContent = ok ? `✓ right: ${number(value)}` : `✗ ${item.input.value.trim() ? "not quite" : "no answer"}: it is ${number(value)}`;
      item.reveal.replaceChildren(...(ok ? [] : [explanationOf(model, item.index, { headingLevel: "h4" })]));
      show(item.index, item.field);
    }
    hidden = new Set();
    score.textContent = `${right} of ${items.length} right.${right < items.length ? " The arithmetic of each wrong one is shown under it." : ""}`;
  }

  const api = {
    open({ field = "grad", values = null } = {}) {
      what.value = field === "data" ? "data" : "grad";
      picked = values ? values.filter((i) => Number.isInteger(i) && i >= 0 && i < model.n) : [];
      which.value = values ? "picked" : "all";
      panel.hidden = false;
      onOpen(true);
      build(false);
      (items[0]?.input ?? what).focus({ preventScroll: true });
      panel.scrollIntoView({ block: "nearest" });
    },
    close() {
      if (panel.hidden) return;
      for (const key of hidden) show(...split(key));
      hidden = new Set();
      panel.hidden = true;
      onOpen(false);
    },
    get picking() {
      return !panel.hidden && which.value === "picked";
    },
    pick(id) {
      if (!/^v\d+$/.test(id)) return;
      const index = Number(id.slice(1));
      picked = picked.includes(index) ? picked.filter((i) => i !== index) : [...picked, index];
      build(true);
    },
    remove: () => panel.remove(),
    hides: (index, field) => hidden.has(`${index} ${field}`),
    /** After the drawing is replaced (a grouped view and back): hide what is hidden again. */
    rehide: () => hidden.forEach((key) => fields()(`v${split(key)[0]}`, split(key)[1], "?")),
  };
  return api;
}

const split = (key) => {
  const [index, field] = key.split(" ");
  return [Number(index), field];
};

function select(testid, label, options) {
  const s = element("select", "graph-speed quiz-select");
  s.dataset.testid = testid;
  s.setAttribute("aria-label", label);
  for (const [value, text] of options) s.append(new Option(text, value));
  return s;
}
