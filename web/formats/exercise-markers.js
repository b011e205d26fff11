// The exercise markers an author writes on a fenced block's first line (docs/authors.md, "Writing an
// exercise"), read the same way for every host: Markdown pages, rendered blocks and .md lessons. The Python
// twin is backprop_playground/exercises.py (`build.py check`); tests/data/exercise-markers.json holds the
// cases both must read alike.
//   # exercise: ID [tries=N | tries=never] [quiz | quiz=grad | quiz=data]   the starter
//   # checks: ID      # solution: ID      # hint: ID (its further lines, "# " removed, are Markdown)
//   # quiz [: data | grad [: label, ...]]   (a plain block) a cell whose graphs open in quiz mode

const MARKER = /^#\s*(exercise|checks|hint|solution):\s*([\w.:-]{1,200})\s*(.*)$/;
const QUIZ_MARKER = /^#\s*quiz(?:\s*:\s*(.*?))?\s*$/;

const trimEnd = (code) => code.replace(/\s+$/, "");

/**
 * An author's quiz option (`data-quiz="..."`, `# quiz: ...`): "" or "grad" (the grads of all inputs),
 * "data" (the data of all computed values), and either with ": label, label" (those values only).
 * {field, labels} for quiz.js, or null when it is not that.
 */
export function quizOption(text) {
  const found = /^(grad|data)?\s*:?\s*([\w.\s,*+-]*)$/.exec(String(text ?? "").trim());
  if (!found) return null;
  const labels = found[2].split(/[\s,]+/).filter(Boolean);
  return { field: found[1] || "grad", labels: labels.length ? labels : null };
}

/** The quiz option a notebook cell's metadata keeps (`backprop_playground.quiz`, the marker's text), or null. */
export const quizOfMetadata = (metadata) => {
  const option = metadata?.backprop_playground?.quiz;
  return typeof option === "string" ? quizOption(option) : null;
};

/** A block's first line as a marker: {kind, id, tries, quiz, rest (the block without that line)}, or null. */
export function marker(code) {
  const newline = code.indexOf("\n");
  const first = (newline < 0 ? code : code.slice(0, newline)).trim();
  const rest = newline < 0 ? "" : code.slice(newline + 1);
  const quiz = QUIZ_MARKER.exec(first);
  if (quiz) return { kind: "quiz", quiz: quizOption(quiz[1] ?? ""), option: quiz[1] ?? "", rest };
  const found = MARKER.exec(first);
  if (!found) return null;
  const [, kind, id, options] = found;
  const tries = /(?:^|\s)tries=(never|\d+)(?:\s|$)/.exec(options)?.[1];
  const quizzed = /(?:^|\s)quiz(?:=(grad|data))?(?:\s|$)/.exec(options);
  return { kind, id, tries: tries === undefined ? undefined : tries === "never" ? "never" : Number(tries),
    quiz: quizzed ? { field: quizzed[1] || "grad", labels: null } : null, rest };
}

/** A hint's Markdown: the block's lines, each without its leading "# " (or "#"). */
const hintText = (rest) => rest.split("\n").map((line) => line.replace(/^#\s?/, "")).join("\n").trim();

/**
 * The exercises of a page's or a lesson's blocks, gathered in order: add() takes each block's marker() (or
 * null) and says what the block is: "cell" (no marker, a `# quiz` marker, or a second starter of an id, shown
 * as the code it is), "starter", or a hidden "part" (checks, hint, solution), with its exercise. The first
 * checks and solution of an id count; hints are kept as Markdown text, in order.
 */
export class ExerciseParts {
  #byId = new Map();

  add(found) {
    if (!found || found.kind === "quiz") return { role: "cell" };
    const known = this.#byId.get(found.id);
    if (found.kind === "exercise" && known && known.starter !== null) return { role: "cell" };
    const exercise = known ?? { id: found.id, starter: null, checks: null, solution: null, hints: [] };
    this.#byId.set(found.id, exercise);
    if (found.kind === "exercise") {
      Object.assign(exercise, { starter: trimEnd(found.rest), tries: found.tries, quiz: found.quiz });
      return { role: "starter", exercise };
    }
    if (found.kind === "hint") exercise.hints.push(hintText(found.rest));
    else exercise[found.kind] ??= found.kind === "solution" ? trimEnd(found.rest) : found.rest;
    return { role: "part", exercise };
  }

  /** The exercises that have a starter, in the order their ids first came. */
  exercises() {
    return [...this.#byId.values()].filter((exercise) => exercise.starter !== null);
  }
}
