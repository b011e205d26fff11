// The chain-rule arithmetic of one value, in words and numbers, from an explain model (explain-model.js):
// how its data was made from its operands, and its grad as the sum over its uses of the local derivative
// times the user's grad. Text only: names are the program's labels, shown with textContent.
import { element } from "../dom/element.js";
import { t } from "../i18n/messages.js";

export const number = (x) => (x === null || x === undefined ? "nan" : Number(x).toFixed(4));
// Local derivatives that are always whole numbers are written as such: (1)(4.0000), not (1.0000)(4.0000).
const WHOLE = new Set(["+", "-", "neg", "relu", "ReLU", "max"]);
const local = (op, x) => (x === null ? "?" : WHOLE.has(op) && Number.isInteger(x) ? String(x) : number(x));
// k counted from 0, as a word before a noun: 1st, 2nd (a translation's own form: 1er, 2.º).
const ordinal = (k) => [t("1st"), t("2nd"), t("3rd")][k] ?? t("{n}th", { n: k + 1 });
const FUNCTIONS = { tanh: "tanh", exp: "exp", log: "log", relu: "relu", ReLU: "relu", sigmoid: "σ", gelu: "gelu" };
export const KNOWN_OPS = "+ − × / ** neg exp log tanh relu sigmoid";

/** `a.data × b.data` for the op of value i, with `f(k)` giving operand k's text (a name or a number). */
function formula(op, count, f) {
  if (op === "+") return Array.from({ length: count }, (_, k) => f(k)).join(" + ");
  if (op === "*") return Array.from({ length: count }, (_, k) => f(k)).join(" × ");
  if (op === "-") return count === 2 ? `${f(0)} − ${f(1)}` : `−${f(0)}`;
  if (op === "neg") return `−${f(0)}`;
  if (op === "/") return `${f(0)} / ${f(1)}`;
  if (op === "**") return `${f(0)} ** ${f(1)}`;
  if (op.startsWith("**")) return `${f(0)} ** ${op.slice(2)}`;
  if (op === "max") return `max(${f(0)}, ${f(1)})`;
  return `${FUNCTIONS[op] ?? op}(${Array.from({ length: count }, (_, k) => f(k)).join(", ")})`; // every operand of an op it does not know
}

/** The local derivative d user / d operand k as a rule in the operands' names: `b.data`, `1 − e.data²`. */
function rule(model, user, k) {
  const op = model.ops[user];
  const names = model.args[user].map((j) => `${model.names[j]}.data`);
  const out = `${model.names[user]}.data`;
  switch (op) {
    case "+": return "1";
    case "*": return names.filter((_, m) => m !== k).join(" × ") || "1";
    case "-": return names.length === 2 && k === 1 ? "−1" : names.length === 2 ? "1" : "−1";
    case "neg": return "−1";
    case "/": return k === 0 ? `1 / ${names[1]}` : `−${names[0]} / ${names[1]}²`;
    case "**": return k === 0 ? `${names[1]} · ${names[0]} ** (${names[1]} − 1)` : `${out} · ln(${names[0]})`;
    case "tanh": return `1 − ${out}²`;
    case "exp": return out;
    case "log": return `1 / ${names[0]}`;
    case "relu": case "ReLU": return `1 if ${out} > 0, else 0`;
    case "sigmoid": return `${out} · (1 − ${out})`;
    case "gelu": return `Φ(${names[0]}) + ${names[0]} · φ(${names[0]})`;
    case "max": return k === 0 ? `1 if ${names[0]} ≥ ${names[1]}, else 0` : `1 if ${names[1]} > ${names[0]}, else 0`;
    default:
      if (op.startsWith("**")) {
        const power = Number(op.slice(2));
        return `${op.slice(2)} · ${names[0]} ** ${Number.isFinite(power) ? String(power - 1) : `(${op.slice(2)} − 1)`}`;
      }
      return "?";
  }
}

/** Whether value i is an operand twice of one of its users: its partials then say which ("1st operand"), in words. */
const usedTwiceBy = (model, user, i) => model.args[user].filter((j) => j === i).length > 1;

const partial = (model, user, i, k) => {
  const twice = usedTwiceBy(model, user, i);
  const partial = `∂${model.names[user]}/∂${model.names[i]}`;
  return twice ? t("{partial} ({ordinal} operand)", { partial, ordinal: ordinal(k) }) : partial;
};

/** Why value i's arithmetic is not shown, or null. */
function whyNot(model, i) {
  const why = model.why.get(i);
  if (!why) return null;
  const name = model.names[i];
  if (why.kind === "no-op") return t("{name} has children but no _op, so how it was made is not known: its arithmetic is not shown.", { name });
  if (why.kind === "unknown-op") {
    return t('{name} was made by the op "{op}", which this explanation does not know (it knows {known}), so its arithmetic is not shown.', { name, op: why.op, known: KNOWN_OPS });
  }
  if (why.kind === "not-numbers") return t("{name}'s data, or its operands', are not plain numbers: its arithmetic is not shown.", { name });
  return t("{name}'s op is {op}, but {op} of its children's data does not give its data ({data}): was its data changed after it was computed, or is one of its inputs missing from _prev?",
    { name, op: why.op, data: number(model.data[i]) });
}

/** The forward paragraph of value i. */
function forward(model, i) {
  const name = model.names[i];
  if (model.args[i] === null) return t("{name} is an input: its data, {data}, was given, not computed.", { name, data: number(model.data[i]) });
  const not = whyNot(model, i);
  if (not) return not;
  const { args, ops, data } = model;
  const op = ops[i];
  return `${name}.data = ${formula(op, args[i].length, (k) => `${model.names[args[i][k]]}.data`)} = ` +
    `${formula(op, args[i].length, (k) => number(data[args[i][k]]))} = ${number(data[i])}`;
}

/** One term per use of value i: {text, state, user}. */
function terms(model, i) {
  const verdict = model.verdicts.get(i);
  const marked = new Set(verdict?.uses ?? []);
  return model.uses[i].map(([user, k], u) => {
    const d = model.local[user]?.[k] ?? null;
    const g = model.grad[user];
    const head = `${partial(model, user, i, k)} · ${model.names[user]}.grad`;
    if (d === null) {
      const reason = model.why.get(user) ? t("{name}'s arithmetic is not known", { name: model.names[user] }) : t("its local derivative is not a number");
      return { text: t("{term}: not known ({reason})", { term: head, reason }), state: "unknown", user };
    }
    const op = model.ops[user];
    const made = `${model.names[user]} = ${formula(op, model.args[user].length, (m) => model.names[model.args[user][m]])}`;
    const symbolic = rule(model, user, k);
    const derivative = `${partial(model, user, i, k)} = ${symbolic}${symbolic === local(op, d) ? "" : ` = ${local(op, d)}`}`;
    const detail = t("{made}, so {derivative}", { made, derivative });
    return { text: `${head} = (${local(op, d)})(${number(g)}) = ${number(d * g)}`, detail, state: marked.has(u) ? "mismatch" : "ok", user, product: d * g, d, g };
  });
}

/** The backward part of value i: {sum (a paragraph's text), terms, verdict (text or null), state}. */
function backward(model, i) {
  const name = model.names[i];
  if (!model.hasGrad[i]) return { sum: t("{name} has no grad.", { name }), terms: [], verdict: null, state: "none" };
  const held = model.grad[i];
  if (i === model.n - 1) {
    const seed = held === 1 ? t("{name}.grad = 1.0000: the seed. {name} is the output of this graph, and backward() starts by setting its grad to 1 (∂{name}/∂{name} = 1).", { name })
      : held === 0 ? t("{name}.grad = 0.0000: {name} is the output of this graph, and no backward pass has set its seed yet (backward() sets it to 1).", { name })
        : t("{name}.grad = {grad}: {name} is the output of this drawing; its grad is where backward starts here (backward() sets the grad of the value it is called on to 1).", { name, grad: number(held) });
    return { sum: seed, terms: [{ text: seed, state: "seed" }], verdict: null, state: "seed" };
  }
  const list = terms(model, i);
  const heads = model.uses[i].map(([user, k]) => `${partial(model, user, i, k)} · ${model.names[user]}.grad`).join(" + ");
  if (list.some((t) => t.state === "unknown")) {
    const sum = t("{name}.grad = {terms}: the sum is not shown, since one of its terms is not known. {name}.grad holds {grad}.", { name, terms: heads, grad: number(held) });
    return { sum, terms: list, verdict: null, state: "unknown" };
  }
  const total = list.reduce((s, t) => s + t.product, 0);
  const numbers = list.map((t) => `(${local(model.ops[t.user], t.d)})(${number(t.g)})`).join(" + ");
  const verdict = model.verdicts.get(i);
  const equation = `${name}.grad = ${heads} = ${numbers} = ${number(total)}`;
  const sum = verdict ? t("{equation}, but {name}.grad holds {grad}", { equation, name, grad: number(held) }) : equation;
  return { sum, terms: list, verdict: verdict ? says(model, i, verdict, list, total) : null, state: verdict ? "mismatch" : "ok" };
}

/** The verdict in plain words. */
function says(model, i, verdict, list, total) {
  const name = model.names[i];
  const held = number(model.grad[i]);
  const use = (u) => {
    const [user, k] = model.uses[i][u];
    const twice = usedTwiceBy(model, user, i);
    const values = { ordinal: ordinal(u), user: model.names[user], operand: ordinal(k), sends: number(list[u].product) };
    return twice ? t("its {ordinal} use ({user}, as its {operand} operand, which sends {sends})", values) : t("its {ordinal} use ({user}, which sends {sends})", values);
  };
  const count = model.uses[i].length;
  if (verdict.kind === "missing") {
    if (verdict.uses.length === count) {
      return t("✗ No use's contribution reached {name}.grad (it holds {held}; its uses send {total}): was each _backward above {name} called after its user's grad was set?",
        { name, held, total: number(total) });
    }
    const missing = verdict.uses.map(use);
    const values = { name, held, count, total: number(total), missing: missing.join(t(" and of ")) };
    return missing.length > 1
      ? t("✗ {name}.grad holds {held}, but its {count} uses add up to {total}: the contributions of {missing} are missing. A value used more than once gets a contribution from each use, added up: does every _backward add to the grads with +=? An = keeps only the last contribution.", values)
      : t("✗ {name}.grad holds {held}, but its {count} uses add up to {total}: the contribution of {missing} is missing. A value used more than once gets a contribution from each use, added up: does every _backward add to the grads with +=? An = keeps only the last contribution.", values);
  }
  if (verdict.kind === "repeated") {
    return t("✗ {name}.grad holds {held}, {times} times what its uses add up to ({total}): were the grads zeroed before backward() ran again? Grads keep adding up across backward() calls until they are set back to 0.",
      { name, held, times: verdict.times, total: number(total) });
  }
  // A leaf's grad may also hold what an earlier backward() added: leaves keep adding up until zeroed.
  const leaf = model.args[i] === null;
  if (verdict.kind === "wrong") {
    const [user] = model.uses[i][0];
    const values = { name, held, user: model.names[user], sends: number(list[0].product) };
    return leaf
      ? t("✗ {name}.grad holds {held}, but its one use ({user}, which sends {sends}): either {user}'s _backward gives {name} the wrong amount, or {name}.grad still holds what an earlier backward() added (grads add up until they are zeroed), or {name} is also used outside this drawing.", values)
      : t("✗ {name}.grad holds {held}, but its one use ({user}, which sends {sends}): either {user}'s _backward gives {name} the wrong amount, or {name} is also used outside this drawing.", values);
  }
  const values = { name, held, total: number(total) };
  return leaf
    ? t("✗ {name}.grad holds {held}, but its uses add up to {total}, and no set of their contributions gives {held}: one of them is wrong, or {name}.grad still holds what an earlier backward() added (grads add up until they are zeroed), or {name} is also used outside this drawing.", values)
    : t("✗ {name}.grad holds {held}, but its uses add up to {total}, and no set of their contributions gives {held}: one of them is wrong, or {name} is also used outside this drawing.", values);
}

/**
 * The explanation of value i as elements: a heading, the forward paragraph, the sum, one `grad-term`
 * item per use (the output's seed as one), and the verdict. `go(j)` shows value j's (a link's target).
 */
export function explanationOf(model, i, { go, headingLevel = "h3" } = {}) {
  const box = element("div", "explain-body");
  const name = model.names[i];
  const label = model.labels[i];
  const heading = label && label !== name ? t("{name} (label “{label}”)", { name, label }) : label ? name : t("{name}, a value without a label", { name });
  const title = element(headingLevel, "explain-title", heading);
  title.tabIndex = -1;
  box.append(title, element("p", "explain-values", fields(model, i)));
  const made = element("p", "explain-forward", forward(model, i));
  if (model.args[i] !== null && !whyNot(model, i)) made.translate = false; // an equation, no words
  box.append(element("h4", "explain-part", t("Forward: how its data was made")), made);
  if (go && model.args[i]?.length) box.append(links(t("Its operands:"), [...new Set(model.args[i])], model, go));
  const back = backward(model, i);
  box.dataset.state = back.state;
  const sum = element("p", "explain-sum", back.sum);
  const words = model.uses[i].some(([user]) => usedTwiceBy(model, user, i)); // "(1st operand)" in its partials
  sum.translate = back.state !== "ok" || words; // "ok": an equation alone
  box.append(element("h4", "explain-part", t("Backward: where its grad comes from")), sum);
  const list = element("ul", "explain-terms");
  list.setAttribute("aria-label", back.state === "seed" ? t("The seed") : t("{name}'s grad, one term per use", { name }));
  for (const term of back.terms) {
    const item = element("li", "explain-term");
    item.append((term.state === "ok" || term.state === "mismatch") && !words ? equationOf(term.text) : term.text);
    if (term.detail) item.append(element("span", "explain-detail", term.detail));
    item.dataset.testid = "grad-term";
    item.dataset.state = term.state;
    if (term.state === "seed") item.dataset.kind = "seed";
    if (term.state === "mismatch") item.prepend(element("strong", "explain-flag", "✗ "));
    list.append(item);
  }
  if (back.terms.length) box.append(list);
  if (go && model.uses[i].length) box.append(links(t("Its users:"), [...new Set(model.uses[i].map(([user]) => user))], model, go));
  if (back.verdict) {
    const verdict = element("p", "explain-verdict", back.verdict);
    verdict.dataset.state = "mismatch";
    box.append(verdict);
  }
  return box;
}

function links(caption, indices, model, go) {
  const line = element("p", "explain-links", caption);
  for (const j of indices) {
    const b = element("button", "graph-button explain-link", model.names[j]);
    b.type = "button";
    b.title = t("Explain {name}", { name: model.names[j] });
    b.setAttribute("aria-label", b.title);
    b.addEventListener("click", () => go(j));
    line.append(" ", b);
  }
  return line;
}

/** `data 0.2000 · grad -0.1000`, as the drawing's boxes name a value's fields. */
export const fields = (model, i) => t("data {data} · grad {grad}", { data: number(model.data[i]), grad: model.hasGrad[i] ? number(model.grad[i]) : t("none") });

/** A term's equation, marked as no words to translate. */
function equationOf(text) {
  const span = element("span", "explain-equation", text);
  span.translate = false;
  return span;
}

/**
 * How value i was made (`o = tanh(n)`, `x1*w1 = x1 × w1`), or that it is an input: the value named by `nameOf(j)`,
 * its operands by `operandOf(j)`.
 */
export const madeOf = (model, i, nameOf, operandOf = nameOf) =>
  (model.args[i]?.length ? `${nameOf(i)} = ${formula(model.ops[i], model.args[i].length, (k) => operandOf(model.args[i][k]))}` : t("an input"));

/** A short line for a value in a list (a neuron's values): `w1 · data 0.2000 · grad -0.1000`. */
export const summaryOf = (model, i) => `${model.names[i]}${model.ops[i] ? ` (${model.ops[i]})` : ""} · ${fields(model, i)}`;
