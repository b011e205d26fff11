// The view by neuron draws each weight as the edge it carries into its neuron: blue for a positive weight,
// red for a negative one, thicker the larger it is against the largest (as TensorFlow Playground draws links).
const POSITIVE = "#2563eb";
const NEGATIVE = "#dc2626";
const THINNEST = 0.6;
const THICKEST = 4.5;

/** Colours the edges `weights` names ({edge id: value position}) by the values' `data`. */
export function colourWeights(svg, weights, data) {
  if (!svg || !weights || !Array.isArray(data)) return;
  const entries = Object.entries(weights).filter(([, i]) => typeof data[i] === "number");
  const largest = Math.max(1e-12, ...entries.map(([, i]) => Math.abs(data[i])));
  for (const [id, i] of entries) {
    const edge = svg.querySelector(`g.edge[id="${CSS.escape(id)}"]`);
    if (!edge) continue;
    const w = data[i];
    const colour = w < 0 ? NEGATIVE : POSITIVE;
    const width = (THINNEST + (THICKEST - THINNEST) * Math.abs(w) / largest).toFixed(2);
    edge.classList.add("weight");
    edge.dataset.sign = w < 0 ? "negative" : "positive";
    for (const path of edge.querySelectorAll("path")) {
      path.setAttribute("stroke", colour);
      path.setAttribute("stroke-width", width);
    }
    for (const head of edge.querySelectorAll("polygon")) {
      head.setAttribute("stroke", colour);
      head.setAttribute("fill", colour);
    }
  }
}
