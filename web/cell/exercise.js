// An exercise: a cell whose Run also runs hidden checks in the learner's namespace, with a result,
// hints revealed one at a time, a solution offered after a failed try, and progress kept per page.
// Authoring format (README.md, "Writing an exercise"), linked by the exercise's id:
//   <pre data-playground data-exercise="ID">starter</pre>
//   <script type="text/x-python" data-checks="ID">…</script>
//   <template data-hint="ID">…</template> (any number)   <script type="text/x-python" data-solution="ID">…</script>
import { Cell } from "./cell.js";
import { buildCellView, button, shadowHost } from "./cell-view.js";
import { resultView, solutionOffer } from "./result-view.js";
import { element } from "../output/graph-view.js";
import { read, write } from "./saved-code.js";
import { reportResult } from "./results.js";

const codeOf = (node) => node.textContent.replace(/^\n/, "").replace(/\s+$/, "");

export function makeExercise(pre, session, { theme = "auto", name = "" } = {}) {
  const id = pre.dataset.exercise;
  const find = (attribute) => [...document.querySelectorAll(`[${attribute}]`)].filter((node) => node.getAttribute(attribute) === id);
  const [checks] = find("data-checks");
  const [solution] = find("data-solution");
  const hints = find("data-hint");
  const starter = codeOf(pre);
  const key = `backprop-playground:exercise:${location.pathname}:${id}`;
  const saved = loadProgress(key);

  const { host, root } = shadowHost("exercise");
  const parts = buildCellView(root, { name, theme });
  const cell = new Cell({
    session,
    parts,
    code: saved.code ?? starter,
    checks: checks ? codeOf(checks) : null,
    readOnly: pre.hasAttribute("data-readonly"),
    onChange: (code) => saveProgress(key, { ...loadProgress(key), code }),
    onRunRequest: () => check(),
  });

  const { box: result, show: showResult } = resultView("result");
  const helpers = element("div", "exercise-help");
  parts.extra.append(result, helpers);
  if (saved.passed) showResult("passed", "✓ Passed. Your code is kept in this browser.");
  else showResult("idle", checks ? "Press Run to check your code." : "This exercise has no checks.");

  const hintBox = element("div", "hints");
  let shown = 0;
  const hintButton = button(`Show a hint (${hints.length})`, "quiet", "hint", "Reveal the next hint");
  hintButton.addEventListener("click", () => {
    const hint = element("div", "hint");
    hint.append(hints[shown].content.cloneNode(true));
    hintBox.append(hint);
    shown += 1;
    hintButton.textContent = shown < hints.length ? `Next hint (${hints.length - shown} left)` : "No more hints";
    hintButton.disabled = shown === hints.length;
  });
  const offer = solutionOffer(cell, solution ? codeOf(solution) : "");
  const reset = button("Reset exercise", "quiet", "reset", "Go back to the starter code and forget this exercise's progress");
  reset.addEventListener("click", () => {
    cell.setText(starter);
    write(key, null);
    showResult("idle", "Press Run to check your code.");
    offer.clear();
  });
  if (hints.length) parts.tools.append(hintButton);
  if (solution) parts.tools.append(offer.button);
  parts.tools.append(reset);
  helpers.append(hintBox, offer.box);

  async function check() {
    showResult("running", "Checking…");
    const outcome = await cell.run();
    if (outcome.status === "ok" && outcome.check) {
      const passed = outcome.check.status === "passed";
      showResult(passed ? "passed" : "failed", `${passed ? "✓" : "✗"} ${outcome.check.message}`);
      saveProgress(key, { code: cell.getText(), passed: passed || loadProgress(key).passed });
    } else if (outcome.status === "error") {
      showResult("failed", "✗ Your code raised an error before the checks could run: see the traceback below.");
    } else if (outcome.status === "ok") {
      showResult("idle", "This exercise has no checks.");
    } else {
      showResult("idle", "Stopped before the checks ran. Press Run to check your code.");
    }
    if (result.dataset.state === "failed" && solution) offer.offer();
    const state = { passed: "passed", failed: "failed" }[result.dataset.state];
    if (state) reportResult({ kind: "exercise", id, state, code: cell.getText(), message: result.textContent });
  }

  host.addEventListener("pointerenter", () => session.start(), { once: true });
  host.addEventListener("focusin", () => session.start(), { once: true });
  pre.replaceWith(host);
  return cell;
}

function loadProgress(key) {
  try {
    return JSON.parse(read(key)) || {};
  } catch {
    return {};
  }
}

const saveProgress = (key, progress) => write(key, JSON.stringify(progress));
