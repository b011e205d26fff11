// Exercises as authors write them, read into the one description exercise.js takes:
//   {id, starter, checks, solution, hints: [() => Node or Promise of Node], tries, readOnly, quiz, element}
// `element` is what the exercise replaces. The HTML form's other parts are <script> and <template> elements,
// which a page never shows; the Markdown form's are blocks that the host removes (fencedExercises' `hidden`).
//
// HTML form (docs/authors.md, "Writing an exercise"):
//   <pre data-playground data-exercise="ID" [data-tries="3" | "never"] [data-quiz]>starter</pre>
//   <script type="text/x-python" data-checks="ID">…</script>   <script type="text/x-python" data-solution="ID">…</script>
//   <template data-hint="ID">…</template> (any number)
// Markdown form: fenced blocks (python or playground) whose first line is a marker, in any Markdown host
// (formats/exercise-markers.js reads the markers and gathers the parts, as formats/markdown-lesson.js does
// for a .md lesson).
import { codeOf } from "../dom/code-text.js";
import { ExerciseParts, marker, quizOption } from "../formats/exercise-markers.js";
import { NOTEBOOK_HTML } from "../notebook/notebook-html.js";

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
  const parts = new ExerciseParts();
  const cells = [];
  const hidden = [];
  for (const block of blocks) {
    const found = marker(block.code);
    const { role, exercise } = parts.add(found);
    // A second starter of an id is shown as the code it is, without its marker's options.
    if (role === "cell") cells.push(found ? { element: block.element, code: found.rest, quiz: found.kind === "quiz" ? found.quiz : null } : block);
    else if (role === "starter") exercise.element = block.element;
    else hidden.push(block.element);
  }
  const exercises = parts.exercises().map((exercise) => ({ ...exercise, hints: exercise.hints.map(markdownHint) }));
  return { exercises, cells, hidden };
}

/**
 * A hint written in Markdown, rendered when it is revealed, as notebook.html renders Markdown cells
 * (markdown-it, then DOMPurify with the notebooks' settings: no script runs, nothing restyles the page).
 */
export function markdownHint(text) {
  return async () => {
    const [{ renderMarkdown }, { default: DOMPurify }] = await Promise.all([
      import("../notebook/markdown.bundle.js"), import("../vendor/purify.es.mjs"),
    ]);
    return DOMPurify(window).sanitize(renderMarkdown(text), { ...NOTEBOOK_HTML, RETURN_DOM_FRAGMENT: true });
  };
}
