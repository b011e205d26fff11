// Live charts from a running program (scalargrad's plot() and plot_boundary()), drawn with
// Observable Plot: the loss and accuracy by step, and a 2-D classifier's decision boundary.
import { t } from "../i18n/messages.js";
import { gridScores } from "./boundary-scores.js";

const plotModule = () => import("../output/plot.bundle.js");
const pending = new WeakMap(); // target -> {latest: the data not drawn yet, done} (one redraw per frame)
const WIDTH = 360;
const HEIGHT = 220;

/** Draws `data` into `target` (replacing what it holds) at the next frame; resolves once it is drawn. */
export function showChart(target, kind, data) {
  const waiting = pending.get(target);
  if (waiting) {
    waiting.latest = { kind, data };
    return waiting.done;
  }
  const entry = { latest: { kind, data } };
  entry.done = (async () => {
    try {
      const Plot = await plotModule();
      await new Promise(requestAnimationFrame);
      const { latest } = entry;
      const figures = latest.kind === "series" ? seriesCharts(Plot, latest.data) : [boundaryChart(Plot, latest.data)];
      // Plot names each mark's group ("raster", "dot") with aria-label, which a group without a role may not carry.
      for (const g of figures.flatMap((f) => [...f.querySelectorAll("g[aria-label]:not([role])")])) g.removeAttribute("aria-label");
      target.replaceChildren(...figures);
    } finally {
      pending.delete(target);
    }
  })();
  pending.set(target, entry);
  return entry.done;
}

function seriesCharts(Plot, points) {
  const names = [...new Set(points.flatMap((p) => Object.keys(p)))].filter((name) => name !== "step");
  return names.map((name) => {
    const values = points.filter((p) => typeof p[name] === "number");
    const last = values[values.length - 1];
    const figure = Plot.plot({
      width: WIDTH, height: HEIGHT, marginLeft: 48, grid: true,
      title: last ? t("{name} · {value} at step {step}", { name, value: Number(last[name]).toPrecision(4), step: last.step }) : name,
      ariaLabel: values.length ? seriesWords(name, values) : name,
      x: { label: t("step") }, y: { label: name, ...(name === "accuracy" ? { domain: [0, 1], tickFormat: "%" } : {}) },
      marks: [Plot.lineY(values, { x: "step", y: name, stroke: name === "accuracy" ? "#15803d" : "#2563eb" }), Plot.dot(values.slice(-1), { x: "step", y: name, fill: "currentColor" })],
    });
    figure.classList.add("chart");
    return figure;
  });
}

/** The line's words, for a reader who cannot see it: where it began and ended, and its lowest and highest. */
function seriesWords(name, values) {
  const [first, last] = [values[0], values[values.length - 1]];
  const ys = values.map((p) => p[name]);
  const [low, high] = ys.reduce(([a, b], y) => [Math.min(a, y), Math.max(b, y)], [Infinity, -Infinity]); // no spread: a long run has many
  const number = (y) => Number(y).toPrecision(4);
  return t("{name} by step: {first} at step {firstStep}, {last} at step {lastStep}; lowest {low}, highest {high}", {
    name, first: number(first[name]), firstStep: first.step, last: number(last[name]), lastStep: last.step,
    low: number(low), high: number(high),
  });
}

function boundaryChart(Plot, { grid, points, agree, model }) {
  const nx = grid.x.length;
  const ny = grid.y.length;
  const scores = (grid.score ?? gridScores(model, grid.x, grid.y))?.flat();
  if (!scores) throw new Error(t("its model's numbers do not make an MLP of 2 inputs"));
  const extent = Math.max(1e-9, ...scores.map(Math.abs));
  const figure = Plot.plot({
    width: WIDTH, height: WIDTH, x: { label: "x₀" }, y: { label: "x₁" },
    title: Number.isInteger(agree) ? t("decision boundary · {agree} of {count} points on their class's side", { agree, count: points.length }) : t("decision boundary"),
    ariaLabel: t("The model's score over x₀ and x₁, blue above 0 and red below, the line where it is 0, and the points in their class's colour"),
    color: { type: "diverging", scheme: "RdBu", domain: [-extent, extent], legend: false },
    marks: [
      Plot.raster(scores, { width: nx, height: ny, x1: grid.x[0], x2: grid.x[nx - 1], y1: grid.y[0], y2: grid.y[ny - 1], fill: (d) => d, interpolate: "nearest", imageRendering: "auto" }),
      Plot.contour(scores, { width: nx, height: ny, x1: grid.x[0], x2: grid.x[nx - 1], y1: grid.y[0], y2: grid.y[ny - 1], thresholds: [0], stroke: "#111", strokeWidth: 1.5, fill: null }),
      Plot.dot(points, { x: "0", y: "1", fill: (p) => (p[2] > 0 ? "#1d4ed8" : "#b91c1c"), stroke: "white", r: 3.5 }),
    ],
  });
  figure.classList.add("chart");
  return figure;
}
