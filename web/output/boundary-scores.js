// A decision boundary's scores from its model's numbers: the event of a scalargrad MLP carries its sizes,
// activation and parameters (playground_runtime.charts.mlp_spec) and not the 30 × 30 grid's scores, which the
// page computes here in about a millisecond, where Python in the worker took 20 ms of the learner's run.
// Each neuron as scalargrad's: activation(b + Σ wᵢxᵢ), the output layer linear; parameters in the order of
// model.parameters() (each neuron's weights, then its bias).
const ACTIVATIONS = {
  relu: (a) => (a < 0 ? 0 : a),
  tanh: Math.tanh,
  sigmoid: (a) => (a >= 0 ? 1 / (1 + Math.exp(-a)) : Math.exp(a) / (1 + Math.exp(a))),
  gelu: (a) => a * 0.5 * (1 + erf(a / Math.SQRT2)),
};
// As playground_runtime.charts' PAGE_MAX_WIDTH and PAGE_MAX_PARAMETERS: past them, Python sends the scores.
const MAX_WIDTH = 999;
const MAX_PARAMETERS = 100_000;
const MAX_WORK = 1e8; // multiply-adds, about a tenth of a second: a grid of 30 × 30 points at MAX_PARAMETERS

/**
 * Whether `model` holds numbers the page may read as an MLP's: known activation, layer sizes and parameters within
 * the limits above, all finite. Choosing an example (example-program.js) checks this much; the grid, more.
 */
export function isModelNumbers({ sizes, activation, parameters } = {}) {
  return typeof activation === "string" && Object.hasOwn(ACTIVATIONS, activation) &&
    Array.isArray(sizes) && sizes.length >= 2 && sizes.every((n) => Number.isInteger(n) && n > 0 && n <= MAX_WIDTH) &&
    Array.isArray(parameters) && parameters.length <= MAX_PARAMETERS && parameters.every(Number.isFinite);
}

/**
 * scores[j][i]: the model's output at (xs[i], ys[j]); null if `model` is not an MLP of 2 inputs these numbers
 * make, or the grid is not numbers or would take more than MAX_WORK (a run's event: the page's thread has no Stop).
 */
export function gridScores(model, xs, ys) {
  const layers = layersOf(model);
  const grid = [xs, ys].every((axis) => Array.isArray(axis) && axis.every(Number.isFinite));
  if (!layers || !grid || xs.length * ys.length * model.parameters.length > MAX_WORK) return null;
  return ys.map((y) => xs.map((x) => {
    const score = forward(layers, x, y);
    return Number.isFinite(score) ? score : null; // as the runtime sends a nan or an infinity
  }));
}

function layersOf(model) {
  if (!isModelNumbers(model ?? {})) return null;
  const { sizes, activation, parameters } = model;
  const wanted = sizes.slice(1).reduce((sum, n, k) => sum + n * (sizes[k] + 1), 0);
  if (sizes[0] !== 2 || wanted !== parameters.length) return null;
  const activate = ACTIVATIONS[activation];
  let at = 0;
  return sizes.slice(1).map((n, k) => {
    const width = sizes[k];
    const neurons = Array.from({ length: n }, () => {
      const neuron = { w: parameters.slice(at, at + width), b: parameters[at + width] };
      at += width + 1;
      return neuron;
    });
    return { neurons, activate: k < sizes.length - 2 ? activate : null };
  });
}

function forward(layers, x1, x2) {
  let inputs = [x1, x2];
  for (const { neurons, activate } of layers) {
    inputs = neurons.map(({ w, b }) => {
      let sum = b;
      for (let i = 0; i < w.length; i++) sum += w[i] * inputs[i];
      return activate ? activate(sum) : sum;
    });
  }
  return inputs[0];
}

// JavaScript has no erf: Numerical Recipes' erfc (a Chebyshev fit, fractional error below 1.2e-7), which a
// chart's colours and its line at 0 cannot show.
function erf(x) {
  const z = Math.abs(x);
  const t = 1 / (1 + 0.5 * z);
  const c = [-1.26551223, 1.00002368, 0.37409196, 0.09678418, -0.18628806, 0.27886807, -1.13520398, 1.48851587, -0.82215223, 0.17087277];
  const poly = c.reduceRight((acc, k) => k + t * acc, 0);
  const erfc = t * Math.exp(-z * z + poly);
  return x >= 0 ? 1 - erfc : erfc - 1;
}
