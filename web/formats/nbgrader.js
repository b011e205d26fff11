// nbgrader's cell metadata and markers, read as nbgrader 0.9 reads them (its ClearSolutions and
// ClearHiddenTests preprocessors and utils.determine_grade): what each cell is in an assignment, and the
// student version of a teacher's source cell. Pure functions of a cell's JSON and text.
import { t } from "../i18n/catalogue.js";

export const CODE_STUB = "# YOUR CODE HERE\nraise NotImplementedError()";
export const TEXT_STUB = "YOUR ANSWER HERE";
const SOLUTION = ["BEGIN SOLUTION", "END SOLUTION"];
const HIDDEN_TESTS = ["BEGIN HIDDEN TESTS", "END HIDDEN TESTS"];

export const gradingOf = (cell) => {
  const nbgrader = cell?.metadata?.nbgrader;
  return nbgrader && typeof nbgrader === "object" ? nbgrader : null;
};

export const isAssignment = (cells) => cells.some((cell) => gradingOf(cell));

/**
 * What a cell is in an assignment: "test" (autograded tests, with points), "answer" (the learner writes
 * here), "locked" (read-only) or null; with its grade_id and points.
 */
export function roleOf(cell) {
  const grading = gradingOf(cell);
  if (!grading) return { role: cell?.metadata?.editable === false ? "locked" : null };
  const gradeId = typeof grading.grade_id === "string" ? grading.grade_id : null;
  const points = Number(grading.points) || 0;
  if (grading.solution) return { role: "answer", gradeId, points: grading.grade ? points : 0 };
  if (grading.grade && cell.cell_type === "code") return { role: "test", gradeId, points };
  if (grading.locked || grading.grade || cell.metadata.editable === false) return { role: "locked", gradeId };
  return { role: null, gradeId };
}

/**
 * Lines between a marker pair, markers included: `keep(line)` for the others. Throws on a region that
 * does not end, or one inside another, as nbgrader does.
 */
function regions(text, [begin, end], onRegion) {
  const kept = [];
  let inside = null;
  text.split("\n").forEach((line, i) => {
    if (line.includes(begin)) {
      if (inside) throw new Error(t('a "{marker}" inside another one (line {line})', { marker: begin, line: i + 1 }));
      inside = { start: i + 1, indent: line.match(/^\s*/)[0] };
    } else if (line.includes(end) && inside) {
      onRegion({ ...inside, end: i + 1 }, kept);
      inside = null;
    } else if (!inside) kept.push(line);
  });
  if (inside) throw new Error(t('"{begin}" on line {line} has no "{end}"', { begin, line: inside.start, end }));
  return kept.join("\n");
}

/** Whether a notebook is a teacher's source version: some cell has solution or hidden-test markers. */
export const isSource = (sources) => sources.some((text) => [...SOLUTION, ...HIDDEN_TESTS].some((marker) => text.includes(marker)));

const withoutMarkers = (text, markers) => text.split("\n").filter((line) => !markers.some((m) => line.includes(m))).join("\n");

/**
 * A cell as the student sees it: {shown, solution, hidden}. In a source notebook, solution regions become
 * nbgrader's stub at their indentation (an answer cell without regions becomes the stub whole), and a
 * test cell's hidden tests go: `hidden` lists their line numbers in `source`, which still runs whole.
 * `solution` is what an answer cell's solution was, without its markers (null in a release).
 */
export function studentVersion(cell, source, sourceNotebook) {
  const { role } = roleOf(cell);
  if (!sourceNotebook) return { shown: source, solution: null, hidden: [] };
  const stub = cell.cell_type === "code" ? CODE_STUB : TEXT_STUB;
  let replaced = false;
  const shown = regions(source, SOLUTION, ({ indent }, kept) => {
    replaced = true;
    kept.push(...stub.split("\n").map((line) => indent + line));
  });
  if (role === "answer" && replaced) return { shown, solution: withoutMarkers(source, SOLUTION), hidden: [] };
  if (role === "answer") return { shown: stub, solution: source.trim() ? source : null, hidden: [] };
  const hidden = [];
  if (role === "test") {
    const visible = regions(source, HIDDEN_TESTS, ({ start, end }) => {
      for (let line = start; line <= end; line += 1) hidden.push(line);
    });
    return { shown: visible, solution: null, hidden };
  }
  return { shown, solution: null, hidden };
}

/**
 * A cell's metadata in the student version, as `nbgrader generate_assignment` writes it (LockCells): graded,
 * answer and locked cells cannot be deleted in Jupyter, and all but answer cells cannot be edited. nbgrader's
 * checksums are left out: autograde restores graded cells from its own database by grade_id.
 */
export function studentMetadata(cell) {
  const grading = gradingOf(cell);
  if (!grading) return cell.metadata;
  const locked = !grading.solution && (grading.grade || grading.locked);
  return {
    ...cell.metadata,
    deletable: false,
    ...(locked ? { editable: false } : {}),
    nbgrader: { ...grading, cell_type: cell.cell_type },
  };
}
