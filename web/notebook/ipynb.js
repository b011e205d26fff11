// Jupyter notebooks (nbformat 4) in and out: what notebook-page.js opens and saves.

export class BadNotebook extends Error {
  constructor(message) {
    super(message);
    this.name = "BadNotebook";
  }
}

const joined = (source) => (Array.isArray(source) ? source.join("") : String(source ?? ""));

/** {cells: [{type: "markdown" | "code", source, outputs}], metadata} from a notebook's JSON text. */
export function parseNotebook(text, name = "this file") {
  let notebook;
  try {
    notebook = JSON.parse(text);
  } catch (error) {
    throw new BadNotebook(`${name} is not a Jupyter notebook: it is not JSON (${error.message}).`);
  }
  if (!notebook || typeof notebook !== "object" || !Array.isArray(notebook.cells)) {
    throw new BadNotebook(`${name} is not a Jupyter notebook: it has no list of cells.`);
  }
  if (notebook.nbformat !== 4) {
    throw new BadNotebook(`${name} is nbformat ${notebook.nbformat ?? "unknown"}; this page opens nbformat 4 ` +
      "(Jupyter saves that since 2015: open and save it in Jupyter or JupyterLite to convert it).");
  }
  const cells = notebook.cells
    .filter((cell) => cell && (cell.cell_type === "markdown" || cell.cell_type === "code" || cell.cell_type === "raw"))
    .map((cell) => ({
      type: cell.cell_type === "code" ? "code" : "markdown",
      raw: cell.cell_type === "raw",
      source: joined(cell.source),
      outputs: cell.cell_type === "code" && Array.isArray(cell.outputs) ? cell.outputs : [],
    }));
  return { cells, metadata: notebook.metadata && typeof notebook.metadata === "object" ? notebook.metadata : {} };
}

/** nbformat's multiline strings: a list of lines, each but the last ending in "\n". */
export function lines(text) {
  return text.split(/(?<=\n)/).filter((line, i, all) => line !== "" || i < all.length - 1);
}

/**
 * A notebook's JSON text: `cells` as [{type, source, outputs, ran}], each code cell's outputs in nbformat's
 * shapes; cells that ran here are numbered in order.
 */
export function notebookText({ cells, metadata = {} }, python) {
  let count = 0;
  const out = cells.map((cell, i) => {
    const id = `cell-${i + 1}`;
    if (cell.type !== "code") return { cell_type: cell.type, id, metadata: {}, source: lines(cell.source) };
    const execution = cell.ran ? ++count : null;
    const outputs = (cell.outputs ?? []).map((output) =>
      output.output_type === "execute_result" ? { ...output, execution_count: execution } : output);
    return { cell_type: "code", id, metadata: {}, source: lines(cell.source), execution_count: execution, outputs };
  });
  const notebook = {
    nbformat: 4,
    nbformat_minor: 5,
    metadata: {
      ...metadata,
      kernelspec: { name: "python3", display_name: "Python 3 (Pyodide)", language: "python" },
      language_info: { name: "python", version: python || metadata.language_info?.version || "3" },
    },
    cells: out,
  };
  return `${JSON.stringify(notebook, null, 1)}\n`;
}

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
