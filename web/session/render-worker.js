// Lays out DOT with viz.js off the main thread, so the page stays responsive on big graphs.
// Replies in Promise.allSettled's shape: {id, status: "fulfilled", value} or {id, status: "rejected", reason}.
// The value is the SVG cut into a shell and parts of at most PART_SIZE node or edge groups,
// so that the page can insert a big graph a part per task instead of in one long task.
import { instance } from "../vendor/viz.js";

const PART_SIZE = 200;
// scalargrad gives its nodes ids of its own (v3, v3_op, L1_n2) and edges extra classes (into-v3).
const GROUP_START = /(?=<g id="[^"]*" class="(?:node|edge|cluster)\b)/;

const vizReady = instance();

self.onmessage = async ({ data: { id, dot } }) => {
  try {
    const viz = await vizReady;
    const result = viz.render(dot, { format: "svg" });
    if (result.status === "success") {
      self.postMessage({ id, status: "fulfilled", value: split(result.output) });
    } else {
      const messages = result.errors.map((e) => e.message.trim()).filter(Boolean);
      self.postMessage({ id, status: "rejected", reason: messages.join("\n") || "Graphviz could not lay out this graph" });
    }
  } catch (error) {
    self.postMessage({ id, status: "rejected", reason: String(error && error.message ? error.message : error) });
  }
};

function split(svg) {
  // Titles only repeat internal node names as tooltips; Graphviz escapes their text, so this is exact.
  const text = svg.replace(/<title>[^<]*<\/title>\n?/g, "").replace(/<!--[^>]*-->\n?/g, "");
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
