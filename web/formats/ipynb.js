// Jupyter notebooks (nbformat 4) in and out: what notebook-page.js opens and saves, and embed.js makes. A
// run's outputs read from the page are notebook/run-outputs.js.
import { validPoints } from "./points.js";
import { t } from "../i18n/catalogue.js";

export class BadNotebook extends Error {
  constructor(message) {
    super(message);
    this.name = "BadNotebook";
  }
}

const joined = (source) => (Array.isArray(source) ? source.join("") : String(source ?? ""));

/**
 * The notebook in `text`: {json, cells}. `json` is the file as it was parsed, and stays the model of the
 * notebook: a download changes only what ran or was edited here (savedNotebookText), so ids, metadata,
 * attachments and cells this page does not show (an unknown cell_type) go back as they came. `cells` are
 * those the page shows: [{index (in json.cells), type: "markdown" | "code", raw, source, outputs, json}].
 */
export function parseNotebook(text, name = t("this file")) {
  let notebook;
  try {
    notebook = JSON.parse(text);
  } catch (error) {
    throw new BadNotebook(t("{name} is not a Jupyter notebook: it is not JSON ({error}).", { name, error: error.message }));
  }
  if (!notebook || typeof notebook !== "object" || !Array.isArray(notebook.cells)) {
    throw new BadNotebook(t("{name} is not a Jupyter notebook: it has no list of cells.", { name }));
  }
  if (notebook.nbformat !== 4) {
    throw new BadNotebook(t("{name} is nbformat {version}; this page opens nbformat 4 (Jupyter saves that since 2015: open and save it in Jupyter or JupyterLite to convert it).",
      { name, version: notebook.nbformat ?? t("unknown") }));
  }
  const cells = [];
  notebook.cells.forEach((cell, index) => {
    if (!cell || !["markdown", "code", "raw"].includes(cell.cell_type)) return;
    cells.push({
      index,
      type: cell.cell_type === "code" ? "code" : "markdown",
      raw: cell.cell_type === "raw",
      source: joined(cell.source),
      outputs: cell.cell_type === "code" && Array.isArray(cell.outputs) ? cell.outputs : [],
      json: cell,
    });
  });
  return { json: notebook, cells };
}

/** nbformat's multiline strings: a list of lines, each but the last ending in "\n". */
export function lines(text) {
  return text.split(/(?<=\n)/).filter((line, i, all) => line !== "" || i < all.length - 1);
}

// Jupyter's own layout: one space of indent, a newline at the end.
const layout = (notebook) => `${JSON.stringify(notebook, null, 1)}\n`;

/**
 * The notebook `json` as a file again, with `changes` (a Map from a cell's index to {source, outputs,
 * executionCount, metadata}, each optional) applied. Everything else is the file as it came, key order too.
 */
export function savedNotebookText(json, changes) {
  const cells = json.cells.map((cell, index) => {
    const change = changes.get(index);
    if (!change) return cell;
    const saved = { ...cell };
    if (change.source !== undefined && change.source !== joined(cell.source)) {
      saved.source = typeof cell.source === "string" ? change.source : lines(change.source);
    }
    if (change.outputs !== undefined) {
      const count = change.executionCount ?? null;
      saved.outputs = change.outputs.map((output) => (output.output_type === "execute_result" ? { ...output, execution_count: count } : output));
      saved.execution_count = count;
    }
    if (change.metadata !== undefined) saved.metadata = change.metadata;
    return saved;
  });
  return layout({ ...json, cells });
}

/** A new notebook of code cells, for an article's "Open as notebook". */
export function newNotebookText(sources, metadata = {}) {
  return layout({
    nbformat: 4,
    nbformat_minor: 5,
    metadata: {
      ...metadata,
      kernelspec: { name: "python3", display_name: "Python 3 (Pyodide)", language: "python" },
      language_info: { name: "python" },
    },
    cells: sources.map((source, i) => ({
      cell_type: "code", id: `cell-${i + 1}`, metadata: {}, source: lines(source), execution_count: null, outputs: [],
    })),
  });
}

/** A Markdown cell's text with `attachment:NAME` images (pasted into Jupyter) as data: URLs. */
export function withAttachments(text, attachments) {
  if (!attachments || typeof attachments !== "object") return text;
  return text.replace(/attachment:([^\s)"'<>]+)/g, (whole, name) => {
    const bundle = attachments[decodeURIComponent(name)] ?? attachments[name];
    const type = bundle && Object.keys(bundle).find((key) => /^image\/(png|jpeg|gif|webp)$/.test(key));
    return type ? `data:${type};base64,${joined(bundle[type]).replace(/\s/g, "")}` : whole;
  });
}

/** The learner's own points a code cell keeps in its metadata (`backprop_playground.points`), or null. */
export function pointsOf(metadata) {
  return validPoints(metadata?.backprop_playground?.points);
}

/** `metadata` with `points` as the cell's own data (none: the key goes); the rest as it came. */
export function withPoints(metadata, points) {
  const { points: _, ...ours } = metadata?.backprop_playground ?? {};
  const kept = validPoints(points);
  const mine = kept ? { ...ours, points: kept } : ours;
  const { backprop_playground: __, ...rest } = metadata ?? {};
  return Object.keys(mine).length ? { ...rest, backprop_playground: mine } : rest;
}

export const samePoints = (a, b) => JSON.stringify(validPoints(a)) === JSON.stringify(validPoints(b));
