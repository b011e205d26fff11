// Exercises as authors write them, read into the one description exercise.js takes:
//   {id, starter, checks, solution, hints: [() => Node or Promise of Node], tries, readOnly, quiz, element}
// `element` is what the exercise replaces. The HTML form's other parts are <script> and <template> elements,
// which a page never shows; the Markdown form's are blocks that the host removes (fencedExercises' `hidden`).
//
// HTML form (docs/authors.md, "Writing an exercise"):
//   <pre data-playground data-exercise="ID" [data-tries="3" | "never"] [data-quiz]>starter</pre>
//   <script type="text/x-python" data-checks="ID">…</script>   <script type="text/x-python" data-solution="ID">…</script>
//   <template data-hint="ID">…</template> (any number)
// Markdown form: fenced blocks (python or playground) whose first line is a marker, in any Markdown host:
//   # exercise: ID [tries=N | tries=never] [quiz | quiz=data]     the starter; its graphs open in quiz mode
//   # quiz [: data | grad [: label, ...]]      (on a plain block) a cell whose graphs open in quiz mode
//   # checks: ID      # solution: ID           the hidden checks, the solution
//   # hint: ID                                 its further lines, "# " removed, are the hint (Markdown)
// notebook/markdown-lesson.js reads the same markers in a .md file (marker() below).
import { codeOf } from "../dom/code-text.js";

const MARKER = /^#\s*(exercise|checks|hint|solution):\s*([\w.:-]{1,200})\s*(.*)$/;
const QUIZ_MARKER = /^#\s*quiz(?:\s*:\s*(.*?))?\s*$/;

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
export const hintText = (rest) => rest.split("\n").map((line) => line.replace(/^#\s?/, "")).join("\n").trim();

/** The exercises of an HTML page's <pre data-playground data-exercise> blocks. */
export function htmlExercises(root) {
  return [...root.querySelectorAll("pre[data-playground][data-exercise]")].map((pre) => {
    const id = pre.dataset.exercise;
    const find = (attribute) => [...root.querySelectorAll(`[${attribute}]`)].filter((node) => node.getAttribute(attribute) === id);
    const [checks] = find("data-checks");
    const [solution] = find("data-solution");
    const tries = pre.dataset.tries;
    return {
      id,
      starter: codeOf(pre),
      checks: checks ? codeOf(checks) : null,
      solution: solution ? codeOf(solution) : null,
      hints: find("data-hint").map((template) => () => template.content.cloneNode(true)),
      tries: tries === undefined ? undefined : tries === "never" ? "never" : Number(tries),
      readOnly: pre.hasAttribute("data-readonly"),
      quiz: pre.hasAttribute("data-quiz") ? quizOption(pre.dataset.quiz) : null,
      theme: pre.dataset.theme,
      element: pre,
    };
  });
}

/**
 * Fenced blocks ([{element, code}], code-blocks.js) split into exercises and the plain cells left: a marked
 * block is part of its exercise and is never a cell. Parts whose exercise is not on the page stay hidden.
 */
export function fencedExercises(blocks) {
  const exercises = new Map();
  const cells = [];
  const hidden = [];
  for (const block of blocks) {
    const found = marker(block.code);
    if (!found || found.kind === "quiz") {
      cells.push(found ? { element: block.element, code: found.rest, quiz: found.quiz } : block);
      continue;
    }
    if (found.kind === "exercise" && exercises.has(found.id) && exercises.get(found.id).element) {
      // A second starter with the same id: shown as the code it is, never run as that exercise.
      cells.push({ element: block.element, code: found.rest });
      continue;
    }
    const exercise = exercises.get(found.id) ?? { id: found.id, starter: null, checks: null, solution: null, hints: [] };
    exercises.set(found.id, exercise);
    if (found.kind === "exercise") Object.assign(exercise, { starter: found.rest.replace(/\s+$/, ""), tries: found.tries, quiz: found.quiz, element: block.element });
    else {
      hidden.push(block.element);
      if (found.kind === "checks") exercise.checks ??= found.rest;
      else if (found.kind === "solution") exercise.solution ??= found.rest.replace(/\s+$/, "");
      else exercise.hints.push(markdownHint(hintText(found.rest)));
    }
  }
  return { exercises: [...exercises.values()].filter((exercise) => exercise.element), cells, hidden };
}

/**
 * A hint written in Markdown, rendered when it is revealed, as notebook.html renders Markdown cells
 * (markdown-it, then DOMPurify with the notebooks' settings: no script runs, nothing restyles the page).
 */
export function markdownHint(text) {
  return async () => {
    const [{ renderMarkdown }, { default: DOMPurify }, { NOTEBOOK_HTML }] = await Promise.all([
      import("../notebook/markdown.bundle.js"), import("../vendor/purify.es.mjs"), import("../notebook/saved-outputs.js"),
    ]);
    return DOMPurify(window).sanitize(renderMarkdown(text), { ...NOTEBOOK_HTML, RETURN_DOM_FRAGMENT: true });
  };
}
