// A cell's last run as nbformat outputs, read from the page: what a notebook's download keeps of each cell
// that ran here (formats/ipynb.js writes them into the file).
import { lines } from "../formats/ipynb.js";

/** Outputs in nbformat's shapes, read from one run's section of a cell's output (output-list.js's markup). */
export function outputsOf(section) {
  const outputs = [];
  for (const node of section?.children ?? []) {
    if (node.matches("pre.text.stdout, pre.text.stderr")) {
      outputs.push({ output_type: "stream", name: node.dataset.kind, text: lines(node.textContent) });
    } else if (node.matches("pre.text.result")) {
      outputs.push({ output_type: "execute_result", execution_count: null, metadata: {}, data: { "text/plain": lines(node.textContent) } });
    } else if (node.matches(".graph-card")) {
      const svg = node.querySelector(".graph-view svg, svg");
      if (!svg) continue;
      const title = node.querySelector(".graph-title")?.textContent || "Graph";
      outputs.push({
        output_type: "display_data",
        metadata: {},
        data: { "image/svg+xml": lines(svg.outerHTML), "text/plain": [`<${title}, drawn by Backprop Playground>`] },
      });
    } else if (node.matches(".message.error")) {
      const title = node.querySelector(".error-title")?.textContent ?? node.textContent;
      const at = title.indexOf(": ");
      const traceback = node.querySelector(".traceback")?.textContent ?? title;
      outputs.push({
        output_type: "error",
        ename: at > 0 ? title.slice(0, at) : "Error",
        evalue: at > 0 ? title.slice(at + 2) : title,
        traceback: traceback.replace(/\n$/, "").split("\n"),
      });
    }
  }
  return outputs;
}
