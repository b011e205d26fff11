// An exercise: a cell whose Run also runs hidden checks in the learner's namespace, with a result,
// hints revealed one at a time, a solution offered after failed tries, and progress kept per page.
// Hosts read the author's blocks (HTML or Markdown: hosts/exercise-blocks.js, formats/markdown-lesson.js)
// into one description: {id, starter, checks, solution, hints: [() => Node | Promise<Node>], tries, readOnly, quiz}.
// `quiz` ({field, labels}): its graphs open in quiz mode (quiz.js).
// `tries`: how many failed tries offer the solution (the page's default, else 1), or "never".
import { Cell } from "./cell.js";
import { buildCellView, shadowHost } from "./cell-view.js";
import { resultView, solutionOffer } from "./result-view.js";
import { button, element } from "../dom/element.js";
import { read, write } from "./saved-code.js";
import { reportResult } from "./results.js";
import { t, tn } from "../i18n/messages.js";

/**
 * Makes the exercise; returns {host, cell}: the host (data-testid="exercise") goes where the caller puts it.
 * Progress is kept under `place` (the page's path by default; notebook.html names the notebook) and the id;
 * `code`, if given, is the learner's code to show instead of what was kept; `onChange(code)` follows each edit.
 */
export function makeExercise(exercise, session, { theme = "auto", name = "", tries: pageTries, place = location.pathname, code, onChange } = {}) {
  const { id, starter, checks = null, solution = null, hints = [], readOnly = false, quiz = null } = exercise;
  const limit = exercise.tries ?? pageTries; // undefined: no limit set, the solution comes after one failed try
  const key = `backprop-playground:exercise:${place}:${id}`;
  const saved = loadProgress(key);

  const { host, root } = shadowHost("exercise");
  const parts = buildCellView(root, { name, theme });
  const cell = new Cell({
    session,
    parts,
    code: code ?? saved.code ?? starter,
    checks,
    readOnly,
    quiz,
    onChange: (code) => {
      saveProgress(key, { ...loadProgress(key), code });
      onChange?.(code);
    },
    onRunRequest: () => check(),
  });

  const { box: result, show: showResult } = resultView("result");
  const triesNote = element("p", "tries-left");
  triesNote.dataset.testid = "tries-left";
  const helpers = element("div", "exercise-help");
  parts.extra.append(result, triesNote, helpers);
  if (saved.passed) showResult("passed", t("✓ Passed. Your code is kept in this browser."));
  else showResult("idle", checks ? t("Press Run to check your code.") : t("This exercise has no checks."));

  const hintBox = element("div", "hints");
  let shown = 0;
  const hintButton = button(t("Show a hint ({count})", { count: hints.length }), { className: "quiet", testid: "hint", title: t("Reveal the next hint") });
  hintButton.addEventListener("click", async () => {
    if (shown >= hints.length) return;
    const hint = element("div", "hint");
    hintBox.append(hint);
    shown += 1;
    hintButton.textContent = shown < hints.length ? t("Next hint ({count} left)", { count: hints.length - shown }) : t("No more hints");
    hintButton.disabled = shown === hints.length;
    hint.append(await hints[shown - 1]());
  });
  const offer = solutionOffer(cell, solution ?? "");
  const reset = button(t("Reset exercise"), { className: "quiet", testid: "reset", title: t("Go back to the starter code and forget this exercise's progress") });
  reset.addEventListener("click", () => {
    cell.setText(starter);
    write(key, null);
    showResult("idle", t("Press Run to check your code."));
    offer.clear();
    showTries(0);
  });
  if (hints.length) parts.tools.append(hintButton);
  if (solution) parts.tools.append(offer.button);
  parts.tools.append(reset);
  helpers.append(hintBox, offer.box);
  if (showTries(saved.failed ?? 0) && solution) offer.offer();

  /** The failed tries left before the solution is offered: on the host and in words, once a limit is set. */
  function showTries(failed) {
    triesNote.hidden = limit === undefined || !solution;
    if (triesNote.hidden) return false;
    if (limit === "never") {
      host.dataset.triesLeft = "never";
      triesNote.textContent = t("The solution is not offered for this exercise.");
      return false;
    }
    const left = Math.max(0, limit - failed);
    host.dataset.triesLeft = String(left);
    triesNote.textContent = left === 0 ? t("The solution is offered below.") :
      tn("The solution is offered after {count} more failed try.", "The solution is offered after {count} more failed tries.", left, { count: left });
    return left === 0;
  }

  async function check() {
    showResult("running", t("Checking…"));
    const outcome = await cell.run();
    if (outcome.status === "ok" && outcome.check) {
      const passed = outcome.check.status === "passed";
      showResult(passed ? "passed" : "failed", `${passed ? "✓" : "✗"} ${outcome.check.message}`);
    } else if (outcome.status === "error") {
      showResult("failed", t("✗ Your code raised an error before the checks could run: see the traceback below."));
    } else if (outcome.status === "ok") {
      showResult("idle", t("This exercise has no checks."));
    } else {
      showResult("idle", t("Stopped before the checks ran. Press Run to check your code."));
    }
    const state = { passed: "passed", failed: "failed" }[result.dataset.state];
    if (state) {
      const before = loadProgress(key);
      const failed = (before.failed ?? 0) + (state === "failed" ? 1 : 0);
      saveProgress(key, { code: cell.getText(), passed: state === "passed" || Boolean(before.passed), failed });
      const unlocked = limit === undefined ? state === "failed" : showTries(failed);
      if (unlocked && solution) offer.offer();
      reportResult({ kind: "exercise", id, state, code: cell.getText(), message: result.textContent });
    }
  }

  host.addEventListener("pointerenter", () => session.start(), { once: true });
  host.addEventListener("focusin", () => session.start(), { once: true });
  return { host, cell };
}

function loadProgress(key) {
  try {
    return JSON.parse(read(key)) || {};
  } catch {
    return {};
  }
}

const saveProgress = (key, progress) => write(key, JSON.stringify(progress));
