// A drawn graph's arithmetic, as playground_runtime.explain sends it with the graph (docs/contract.md):
// checked here once, so that the views can trust its shape; kept current by live updates. Nothing in it
// is markup: every string is shown as text. Its numbers are checked against the values (explain-check.js).
import { agrees } from "./explain-check.js";

const isIndex = (n, length) => Number.isInteger(n) && n >= 0 && n < length;
const isNumber = (x) => x === null || (typeof x === "number" && Number.isFinite(x));
const isText = (x) => typeof x === "string" && x.length < 10_000;
const KINDS = new Set(["missing", "repeated", "wrong", "unexplained"]);
const WHY = new Set(["no-op", "unknown-op", "not-reproduced", "not-numbers"]);

/** The explanation model of a graph event, or null when it has none or its shape is not what the runtime sends. */
export function explainModel(event) {
  const { table, explain } = event;
  if (!Array.isArray(table) || !explain || typeof explain !== "object") return null;
  const n = table.length;
  const { names, args, local } = explain;
  if (![names, args, local].every((list) => Array.isArray(list) && list.length === n)) return null;
  if (!names.every(isText) || !table.every((row) => row && isText(row.label) && isText(row.op) && isNumber(row.data) && isNumber(row.grad ?? null))) return null;
  for (let i = 0; i < n; i += 1) {
    if (args[i] === null) {
      if (local[i] !== null) return null;
      continue;
    }
    if (!Array.isArray(args[i]) || !args[i].every((j) => isIndex(j, n) && j !== i)) return null;
    if (local[i] !== null && (!Array.isArray(local[i]) || local[i].length !== args[i].length || !local[i].every(isNumber))) return null;
  }
  const model = {
    n,
    names,
    labels: table.map((row) => row.label),
    ops: table.map((row) => row.op),
    hasGrad: table.map((row) => row.grad !== null && row.grad !== undefined),
    args,
    data: [],
    grad: [],
    local: [],
    why: new Map(),
    verdicts: new Map(),
    uses: table.map(() => []),
  };
  args.forEach((operands, user) => operands?.forEach((j, k) => model.uses[j].push([user, k])));
  if (!update(model, { values: table.map((row) => [row.data, row.grad ?? null]), explain })) return null;
  return model;
}

/**
 * Takes a live update's numbers ({values: [[data, grad], ...], explain: {local, why, verdicts}}) for the
 * same shape; false (and nothing changed) when they do not fit it.
 */
export function update(model, { values, explain }) {
  const { n, args } = model;
  if (!Array.isArray(values) || values.length !== n || !values.every((v) => Array.isArray(v) && v.length === 2 && isNumber(v[0]) && isNumber(v[1]))) return false;
  const local = explain?.local;
  if (!Array.isArray(local) || local.length !== n) return false;
  for (let i = 0; i < n; i += 1) {
    const ok = local[i] === null || (args[i] !== null && Array.isArray(local[i]) && local[i].length === args[i].length && local[i].every(isNumber));
    if (!ok) return false;
  }
  const why = readMap(explain.why, n, (w) => w && WHY.has(w.kind) && isText(w.op) ? { kind: w.kind, op: w.op } : null);
  const verdicts = readMap(explain.verdicts, n, (v, i) => v && KINDS.has(v.kind) && Array.isArray(v.uses) &&
    v.uses.every((k) => isIndex(k, model.uses[i].length)) && (v.times === undefined || Number.isInteger(v.times))
    ? { kind: v.kind, uses: v.uses, times: v.times } : null);
  if (!why || !verdicts) return false;
  const numbers = { data: values.map((v) => v[0]), grad: values.map((v) => v[1]), local, why, verdicts };
  if (!agrees({ ...model, ...numbers })) return false; // what the values do not say is not shown
  Object.assign(model, numbers);
  return true;
}

function readMap(object, n, read) {
  if (!object || typeof object !== "object") return null;
  const map = new Map();
  for (const [key, value] of Object.entries(object)) {
    const i = Number(key);
    const item = isIndex(i, n) ? read(value, i) : null;
    if (!item) return null;
    map.set(i, item);
  }
  return map;
}
