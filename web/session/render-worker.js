// Lays out DOT with viz.js off the main thread, so the page stays responsive on big graphs.
// Replies in Promise.allSettled's shape: {id, status: "fulfilled", value} or {id, status: "rejected", reason}.
// The value is the SVG cut into a shell and parts of at most PART_SIZE node or edge groups,
// so that the page can insert a big graph a part per task instead of in one long task.
import { instance } from "../vendor/viz.js";

const PART_SIZE = 200;
// scalargrad gives its nodes ids of its own (v3, v3_op, L1_n2) and edges extra classes (into-v3).
const GROUP_START = /(?=<g id="[^"]*" class="(?:node|edge|cluster)\b)/;

const vizReady = instance();

// Graphviz's default placement (network simplex) grows faster than the graph: a chain of 2,000 values took
// 480 ms, 375 ms of it to build the first feasible tree. nslimit=0 skips that search (127 ms) and draws the
// same ranks in a taller staircase. Only for big graphs, and only where the DOT does not set nslimit itself.
const QUICK_PLACEMENT = { nslimit: 0 };

// A request lays out the first of `dots` whose drawing fits `fit` ({width, height} in Graphviz points), or
// the first of them when none fits or no `fit` is given: one message, however many layouts it takes.
self.onmessage = async ({ data: { id, dots, quick, fit } }) => {
  try {
    const viz = await vizReady;
    let drawn = null; // {svg, index}
    for (const [index, dot] of dots.entries()) {
      const result = viz.render(dot, { format: "svg", graphAttributes: quick ? QUICK_PLACEMENT : {} });
      if (result.status !== "success") {
        if (index > 0) continue; // another layout of a graph that was drawn: the first stands
        const messages = result.errors.map((e) => e.message.trim()).filter(Boolean);
        self.postMessage({ id, status: "rejected", reason: messages.join("\n") || "Graphviz could not lay out this graph" });
        return;
      }
      if (!fit || fits(result.output, fit)) {
        drawn = { svg: result.output, index };
        break;
      }
      drawn ??= { svg: result.output, index };
    }
    self.postMessage({ id, status: "fulfilled", value: { ...split(drawn.svg), index: drawn.index } });
  } catch (error) {
    self.postMessage({ id, status: "rejected", reason: String(error && error.message ? error.message : error) });
  }
};

const VIEW_BOX = /<svg\b[^>]*?\sviewBox="[-\d.]+ [-\d.]+ ([\d.]+) ([\d.]+)"/;

function fits(svg, { width, height }) {
  const box = VIEW_BOX.exec(svg);
  return box !== null && Number(box[1]) <= width && Number(box[2]) <= height;
}

function split(svg) {
  // Titles only repeat internal node names as tooltips; Graphviz escapes their text, so this is exact.
  const text = hoistTextAttributes(svg.replace(/<title>[^<]*<\/title>\n?/g, "").replace(/<!--[^>]*-->\n?/g, ""))
    .replaceAll(">\n<", "><"); // a line break between two elements is a text node to parse and sanitize
  const groups = text.split(GROUP_START);
  const end = groups[groups.length - 1].lastIndexOf("</g>");
  if (groups.length < 2 || end < 0) return { shell: text, parts: [] };
  const tail = groups[groups.length - 1];
  groups[groups.length - 1] = tail.slice(0, end);
  const shell = groups.shift() + tail.slice(end);
  const parts = [];
  for (let i = 0; i < groups.length; i += PART_SIZE) parts.push(groups.slice(i, i + PART_SIZE).join(""));
  return { shell, parts };
}

// Graphviz writes the same font and anchor on every <text>: 28,000 attributes in a 2,000-value graph.
const TEXT_ATTRIBUTE = / (?:xml:space|text-anchor|font-family|font-size)="[^"]*"/g;
const GRAPH_GROUP = /<g id="[^"]*" class="graph"/;

/**
 * The SVG with the most common value of each text attribute said once, on the graph's group, where every
 * <text> inherits it: the page parses and sanitizes a fifth less. DOMPurify still sees all of it.
 */
function hoistTextAttributes(svg) {
  // Only from <svg> on: a graph's stylesheet attribute is written, unescaped, into a processing instruction before it.
  const start = svg.indexOf("<svg");
  const drawing = svg.slice(start);
  if (start < 0 || !GRAPH_GROUP.test(drawing)) return svg;
  const counts = new Map();
  for (const [attribute] of drawing.matchAll(TEXT_ATTRIBUTE)) counts.set(attribute, (counts.get(attribute) ?? 0) + 1);
  const common = new Map(); // attribute name -> its most common text, ` name="value"`
  for (const [attribute, count] of counts) {
    const name = attribute.slice(1, attribute.indexOf("="));
    if (!common.has(name) || count > counts.get(common.get(name))) common.set(name, attribute);
  }
  const hoisted = new Set(common.values());
  return svg.slice(0, start) + drawing.replace(TEXT_ATTRIBUTE, (attribute) => (hoisted.has(attribute) ? "" : attribute))
    .replace(GRAPH_GROUP, (group) => group + [...hoisted].join(""));
}
