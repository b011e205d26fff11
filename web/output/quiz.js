// Predict, then reveal: a graph's Quiz me hides the grads (or the data) of all inputs, all computed values
// or the values the learner picks; the learner types a number for each (`data-testid="prediction"`), and
// Check marks each `data-state="right"` or `"wrong"` (to 4 significant digits), reveals the values and,
// for the wrong ones, their arithmetic (explain-text.js). Everything is judged here, in the page, against
// the numbers the graph's event carried: a program cannot mark an answer.
import { element } from "../dom/element.js";
import { toolButton, valueIndex } from "./graph-view.js";
import { explanationOf, number } from "./explain-text.js";
import { t } from "../i18n/messages.js";

const MAX_ITEMS = 20;
let answers = 0; // each answer's id, which its input names as its description: a screen reader says the mark

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
  return new QuizPanel(card, model, fields, onOpen);
}

/** The panel's elements, with no state: the quiz's options, its list of items, its score and its buttons. */
function quizElements() {
  const panel = element("section", "quiz");
  panel.dataset.testid = "quiz-panel";
  panel.setAttribute("aria-label", t("Quiz: predict the hidden values"));
  panel.hidden = true;
  const intro = element("p", "quiz-intro", t("Predict each hidden value, to 4 significant digits, then press Check."));
  const what = select("quiz-field", t("What to hide"), [["grad", t("the grads")], ["data", t("the data")]]);
  const which = select("quiz-which", t("Of which values"), [["all", t("of all inputs")], ["picked", t("of the values I pick")]]);
  const options = element("div", "quiz-options");
  options.setAttribute("role", "group");
  options.setAttribute("aria-label", t("What the quiz hides"));
  options.append(element("span", "", t("Hide")), what, which);
  const pickHint = element("p", "quiz-hint", t("Click the values to quiz in the graph (or focus one and press Enter); again to take one out."));
  const list = element("ol", "quiz-items");
  const score = element("p", "quiz-score");
  score.setAttribute("role", "status");
  const check = toolButton(t("Check"), t("Check my predictions"));
  check.dataset.testid = "quiz-check";
  const again = toolButton(t("Try again"), t("Try again: hide the values again and clear the marks"));
  const close = toolButton(t("Close quiz"), t("Close quiz: show every value again"));
  const actions = element("div", "quiz-actions");
  actions.append(check, again, close);
  panel.append(intro, options, pickHint, list, score, actions);
  return { panel, what, which, pickHint, list, score, check, again, close };
}

/** One item's row: the value's name, the learner's input, and where the answer and the arithmetic go. */
function itemRow(name, field, typed) {
  const row = element("li", "quiz-item");
  row.dataset.state = "pending";
  const label = element("label", "quiz-label");
  const input = element("input", "quiz-input");
  Object.assign(input, { type: "text", inputMode: "decimal", autocomplete: "off", spellcheck: false });
  input.dataset.testid = "prediction";
  input.dataset.state = "pending";
  input.value = typed;
  const asked = element("span", "quiz-name", `${name}.${field} =`);
  asked.translate = false; // code: the value's name and its field
  label.append(asked, " ", input);
  const answer = element("span", "quiz-answer");
  answer.id = `quiz-answer-${(answers += 1)}`;
  input.setAttribute("aria-describedby", answer.id);
  const reveal = element("div", "quiz-reveal");
  row.append(label, answer, reveal);
  return { input, row, answer, reveal };
}

class QuizPanel {
  constructor(card, model, fields, onOpen) {
    Object.assign(this, { model, fields, onOpen });
    this.items = []; // {index, field, input, row, answer, reveal}
    this.picked = [];
    this.hidden = new Set(); // "index field" while hidden in the drawing
    this.dom = quizElements();
    const { panel, what, which, check, again, close } = this.dom;
    check.addEventListener("click", () => this.judge());
    again.addEventListener("click", () => this.build(true));
    close.addEventListener("click", () => this.close());
    panel.addEventListener("keydown", (event) => {
      if (event.key === "Enter" && event.target.matches("input")) {
        event.preventDefault();
        this.judge();
      }
    });
    what.addEventListener("change", () => this.build(false));
    which.addEventListener("change", () => this.build(false));
    card.querySelector(".graph-view").after(panel);
  }

  /** The values quizzed unless the learner picks them: the inputs' grads, or the computed values' data. */
  defaults() {
    const { model } = this;
    if (this.dom.which.value === "picked") return this.picked;
    const field = this.dom.what.value;
    const indices = [];
    for (let i = 0; i < model.n; i += 1) {
      if (field === "grad" ? model.args[i] === null && model.hasGrad[i] : model.args[i] !== null) indices.push(i);
    }
    return indices.slice(0, MAX_ITEMS);
  }

  /** Value `index`'s `field` ("grad" or "data"), as the graph's event carried it. */
  valueOf(index, field) {
    return this.model[field][index];
  }

  show(index, field) {
    this.fields()(`v${index}`, field, number(this.valueOf(index, field)));
  }

  hide(index, field) {
    this.fields()(`v${index}`, field, "?");
  }

  showAll() {
    for (const key of this.hidden) this.show(...split(key));
    this.hidden = new Set();
  }

  build(keepTyped) {
    const { what, which, pickHint, list, score, check } = this.dom;
    const typed = new Map(this.items.map((item) => [`${item.index} ${item.field}`, item.input.value]));
    this.showAll();
    which.options[0].textContent = what.value === "grad" ? t("of all inputs") : t("of all computed values");
    pickHint.hidden = which.value !== "picked";
    const field = what.value;
    this.items = this.defaults().map((index) => {
      const item = itemRow(this.model.names[index], field, keepTyped ? typed.get(`${index} ${field}`) ?? "" : "");
      this.hidden.add(`${index} ${field}`);
      this.hide(index, field);
      return { index, field, ...item };
    });
    list.replaceChildren(...this.items.map((item) => item.row));
    score.textContent = this.items.length ? "" : which.value === "picked" ? t("Pick the values to quiz in the graph.") : t("This graph has no such values.");
    check.disabled = !this.items.length;
  }

  judge() {
    const { model, items } = this;
    let right = 0;
    for (const item of items) {
      const value = this.valueOf(item.index, item.field);
      const ok = rightTo4(item.input.value, value);
      right += ok;
      item.row.dataset.state = item.input.dataset.state = ok ? "right" : "wrong";
      item.input.setAttribute("aria-invalid", String(!ok));
      const answer = { value: number(value) };
      item.answer.textContent = ok ? t("✓ right: {value}", answer) : item.input.value.trim() ? t("✗ not quite: it is {value}", answer) : t("✗ no answer: it is {value}", answer);
      item.reveal.replaceChildren(...(ok ? [] : [explanationOf(model, item.index, { headingLevel: "h4" })]));
      this.show(item.index, item.field);
    }
    this.hidden = new Set();
    const score = { right, count: items.length };
    this.dom.score.textContent = right < items.length ? t("{right} of {count} right. The arithmetic of each wrong one is shown under it.", score) : t("{right} of {count} right.", score);
  }

  open({ field = "grad", values = null } = {}) {
    const { panel, what, which } = this.dom;
    what.value = field === "data" ? "data" : "grad";
    this.picked = values ? values.filter((i) => Number.isInteger(i) && i >= 0 && i < this.model.n) : [];
    which.value = values ? "picked" : "all";
    panel.hidden = false;
    this.onOpen(true);
    this.build(false);
    (this.items[0]?.input ?? what).focus({ preventScroll: true });
    panel.scrollIntoView({ block: "nearest" });
  }

  close() {
    if (this.dom.panel.hidden) return;
    this.showAll();
    this.dom.panel.hidden = true;
    this.onOpen(false);
  }

  get picking() {
    return !this.dom.panel.hidden && this.dom.which.value === "picked";
  }

  pick(id) {
    const index = valueIndex(id);
    if (index === null) return;
    this.picked = this.picked.includes(index) ? this.picked.filter((i) => i !== index) : [...this.picked, index];
    this.build(true);
  }

  remove() {
    this.dom.panel.remove();
  }

  hides(index, field) {
    return this.hidden.has(`${index} ${field}`);
  }

  /** After the drawing is replaced (a grouped view and back): hide what is hidden again. */
  rehide() {
    this.hidden.forEach((key) => this.hide(...split(key)));
  }
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
