// A Markdown lesson (.md) as a notebook, as Jupytext's Markdown format reads one: the prose between code
// blocks is a Markdown cell, each block fenced as python or playground a code cell (`# quiz` on its first
// line: one whose graphs open in quiz mode), and a block marked `# exercise: ID` (with its `# checks:`,
// `# hint:` and `# solution:` blocks, exercise-markers.js) an exercise. parseLesson gives what ipynb.js's
// parseNotebook gives ({json, cells}), so notebook.html keeps, runs and downloads a lesson as it does a
// notebook; savedLessonText gives the .md back with the learner's edits in place and every other byte as it came.
import { ExerciseParts, marker } from "./exercise-markers.js";
import { lines } from "./ipynb.js";

const FENCE = /^( {0,3})(`{3,}|~{3,})[ \t]*([^\s`]*)[^\n]*$/;
const RUNS = new Set(["python", "playground"]);

/** The lesson's blocks in order: {kind: "prose" | "code", start, end, lang, codeStart, codeEnd} (offsets in text). */
function blocksOf(text) {
  const blocks = [];
  let prose = 0;
  let at = 0;
  while (at < text.length) {
    const lineEnd = text.indexOf("\n", at) < 0 ? text.length : text.indexOf("\n", at) + 1;
    const open = FENCE.exec(text.slice(at, lineEnd).replace(/\r?\n$/, ""));
    if (!open) {
      at = lineEnd;
      continue;
    }
    const [, , fence, lang] = open;
    const close = new RegExp(`^ {0,3}${fence[0] === "`" ? "`" : "~"}{${fence.length},}[ \\t]*$`);
    let end = lineEnd;
    let codeEnd = text.length;
    while (end < text.length) {
      const next = text.indexOf("\n", end) < 0 ? text.length : text.indexOf("\n", end) + 1;
      if (close.test(text.slice(end, next).replace(/\r?\n$/, ""))) {
        codeEnd = end;
        end = next;
        break;
      }
      end = next;
    }
    if (RUNS.has(lang.toLowerCase())) {
      if (at > prose) blocks.push({ kind: "prose", start: prose, end: at });
      blocks.push({ kind: "code", start: at, end, lang, codeStart: lineEnd, codeEnd });
      prose = end;
    }
    at = end;
  }
  if (text.length > prose) blocks.push({ kind: "prose", start: prose, end: text.length });
  return blocks;
}

const trimEnd = (code) => code.replace(/\s+$/, "");

/**
 * The lesson in `text` as a notebook: {json, cells, blocks}. `json` is nbformat 4 (a marked block's marker
 * is kept in its cell's metadata, `backprop_playground`, and its source is the code as written below it);
 * `cells` are those the page shows, as parseNotebook gives them, an exercise's with `exercise` (exercise.js's
 * description); checks, hints and solutions are in `json` only.
 */
export function parseLesson(text, name = "lesson.md") {
  const source = text.replace(/\r\n/g, "\n");
  const blocks = blocksOf(source);
  const json = { nbformat: 4, nbformat_minor: 5, metadata: { backprop_playground: { lesson: name } }, cells: [] };
  const cells = [];
  const parts = new ExerciseParts();
  const add = (cell, shown) => {
    json.cells.push({ id: `lesson-${json.cells.length + 1}`, ...cell });
    block.cell = json.cells.length - 1;
    if (shown) cells.push({ index: block.cell, raw: false, outputs: [], json: json.cells[block.cell], ...shown });
  };
  let block;
  for (block of blocks) {
    const text = source.slice(block.kind === "code" ? block.codeStart : block.start, block.kind === "code" ? block.codeEnd : block.end);
    if (block.kind === "prose") {
      if (text.trim()) add({ cell_type: "markdown", metadata: {}, source: lines(text.trim()) }, { type: "markdown", source: text.trim() });
      continue;
    }
    const code = trimEnd(text);
    const found = marker(code);
    if (found?.kind === "quiz") { // a plain cell whose graphs open in quiz mode: the marker is kept in its metadata
      block.marked = true;
      add({ cell_type: "code", metadata: { backprop_playground: { quiz: found.option, marker: code.split("\n")[0] } }, execution_count: null,
        outputs: [], source: lines(found.rest) }, { type: "code", source: trimEnd(found.rest), quiz: found.quiz });
      continue;
    }
    const { role, exercise } = parts.add(found);
    if (role === "cell") {
      add({ cell_type: "code", metadata: {}, execution_count: null, outputs: [], source: lines(found ? found.rest : code) },
        { type: "code", source: found ? trimEnd(found.rest) : code });
      continue;
    }
    block.marked = true;
    const metadata = { backprop_playground: { [found.kind]: found.id, marker: code.split("\n")[0] } };
    if (found.kind === "hint") add({ cell_type: "markdown", metadata, source: lines(exercise.hints.at(-1)) }, null);
    else if (role === "starter") {
      const starter = { cell_type: "code", metadata, execution_count: null, outputs: [], source: lines(exercise.starter) };
      add(starter, { type: "code", source: exercise.starter, exercise });
    } else add({ cell_type: "code", metadata, execution_count: null, outputs: [], source: lines(found.rest) }, null);
  }
  return { json, cells, blocks, text: source };
}

/**
 * The lesson as a .md file again, with `changes` (a Map from a cell's index to {source}) in place of the
 * code of the blocks they name; a marked block keeps its marker line. Everything else is as it came.
 */
export function savedLessonText({ blocks, text, json }, changes) {
  let out = "";
  let at = 0;
  for (const block of blocks) {
    const change = block.cell === undefined ? null : changes.get(block.cell);
    if (block.kind !== "code" || change?.source === undefined) continue;
    const lead = block.marked ? `${json.cells[block.cell].metadata.backprop_playground.marker}\n` : "";
    out += text.slice(at, block.codeStart) + lead + change.source + (change.source.endsWith("\n") ? "" : "\n");
    at = block.codeEnd;
  }
  return out + text.slice(at);
}

/** Whether a file of this name is a Markdown lesson rather than a notebook (anything else is read as one). */
export function isLesson(name) {
  return /\.(md|markdown)$/i.test(name);
}
