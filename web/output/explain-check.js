// The page does not take the explanation's numbers on the runtime's word: a program can reach the runtime
// that computes them (playground_runtime.explain) and change it during its own run. Each local derivative is
// recomputed here from the values' data, and each verdict from the sum of its terms, so that an explanation
// that says what the values do not is refused (the graph is still drawn, without it).
const SAME = (a, b, scale = 0) => Math.abs(a - b) <= 1e-9 + 1e-6 * Math.max(Math.abs(a), Math.abs(b), scale);
// A sum is compared at the scale of its terms: large terms that cancel leave rounding larger than their total.
const size = (terms) => terms.reduce((s, t) => s + Math.abs(t), 0);

// d out / d operand i, from the operands' data xs and the output's data y (scalargrad.ops.LOCAL, in the same order).
const RULES = {
  "+": (xs) => xs.map(() => 1),
  "*": (xs) => xs.map((_, i) => xs.reduce((p, x, j) => (j === i ? p : p * x), 1)),
  "-": (xs) => (xs.length === 2 ? [1, -1] : [-1]),
  neg: () => [-1],
  "/": ([a, b]) => [1 / b, -a / (b * b)],
  "**": ([a, k], y) => [k * a ** (k - 1), y * Math.log(a)],
  tanh: (_, y) => [1 - y * y],
  exp: (_, y) => [y],
  log: ([a]) => [1 / a],
  relu: (_, y) => [y > 0 ? 1 : 0],
  ReLU: (_, y) => [y > 0 ? 1 : 0],
  sigmoid: (_, y) => [y * (1 - y)],
  max: ([a, b]) => (a >= b ? [1, 0] : [0, 1]),
};

function rule(op) {
  if (RULES[op]) return RULES[op];
  const k = /^\*\*(.+)$/.exec(op) ? Number(op.slice(2)) : NaN;
  return Number.isFinite(k) ? ([a]) => [k === 0 ? 0 : k * a ** (k - 1)] : null;
}

/** Whether each local derivative the runtime sent is what the op gives on the data (null: not known, allowed). */
function localsAgree(model) {
  for (let i = 0; i < model.n; i += 1) {
    const sent = model.local[i];
    if (!sent) continue;
    const f = rule(model.ops[i]);
    if (!f) { // an op the page does not compute (gelu): only "not known" is taken
      if (sent.some((d) => d !== null) && model.ops[i] !== "gelu") return false;
      continue;
    }
    const xs = model.args[i].map((j) => model.data[j]);
    if (xs.includes(null) || model.data[i] === null) return false;
    const mine = f(xs, model.data[i]);
    if (!sent.every((d, k) => d === null || (Number.isFinite(mine[k]) && SAME(d, mine[k])))) return false;
  }
  return true;
}

/** The terms d · user's grad of value j's uses, or null when one is not known. */
function termsOf(model, j) {
  const terms = [];
  for (const [user, k] of model.uses[j]) {
    const d = model.local[user]?.[k] ?? null;
    if (d === null || model.grad[user] === null) return null;
    terms.push(d * model.grad[user]);
  }
  return terms;
}

/** Whether each verdict says what the sums say, and no value whose sum is off goes without one. */
function verdictsAgree(model) {
  for (let j = 0; j < model.n - 1; j += 1) {
    const verdict = model.verdicts.get(j);
    const terms = model.uses[j].length && model.hasGrad[j] && model.grad[j] !== null ? termsOf(model, j) : null;
    if (!terms || !terms.every(Number.isFinite)) {
      if (verdict) return false;
      continue;
    }
    const held = model.grad[j];
    const total = terms.reduce((s, t) => s + t, 0);
    const scale = size(terms);
    if (!verdict) {
      if (!SAME(total, held, scale)) return false;
      continue;
    }
    if (SAME(total, held)) return false;
    if (verdict.kind === "missing") {
      const kept = terms.filter((_, k) => !verdict.uses.includes(k));
      if (!SAME(kept.reduce((s, t) => s + t, 0), held, size(kept))) return false;
    } else if (verdict.kind === "repeated") {
      if (!(verdict.times >= 2) || !SAME(verdict.times * total, held)) return false;
    } else if (verdict.kind === "wrong" && terms.length !== 1) return false;
  }
  return !model.verdicts.has(model.n - 1); // the output's grad is the seed
}

/** Whether the model's local derivatives and verdicts are what its data and grads give. */
export const agrees = (model) => localsAgree(model) && verdictsAgree(model);
