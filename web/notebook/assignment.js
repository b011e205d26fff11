// An nbgrader assignment in notebook.html: each test cell shows its result and points (as `nbgrader
// autograde` would score it), the page shows the score, and an answer cell's solution, when the notebook
// is the teacher's source, is offered after a test below it fails.
import { reportResult } from "../cell/results.js";
import { resultView, solutionOffer } from "../cell/result-view.js";
import { t } from "../i18n/messages.js";

const shownPoints = (points) => String(Number(points.toFixed(2)));

/**
 * `entries`: the notebook's code cells in order, [{role, gradeId, points, solution, cell, host, parts}].
 * `scoreBox`: the page's `assignment-score` element. `onChange()` is called after each scored run.
 */
export function attachAssignment(entries, scoreBox, onChange = () => {}) {
  const tests = entries.filter((entry) => entry.role === "test");
  const earned = new Map(tests.map((entry) => [entry, 0]));
  const maxPoints = tests.reduce((sum, entry) => sum + entry.points, 0);
  const offers = new Map();

  for (const entry of entries) {
    if (entry.gradeId) entry.host.dataset.gradeId = entry.gradeId;
    if (entry.role === "answer" && entry.solution) {
      const offer = solutionOffer(entry.cell, entry.solution);
      entry.parts.tools.append(offer.button);
      entry.parts.extra.append(offer.box);
      offers.set(entry, offer);
      entry.cell.onResult((result) => result.status === "error" && offer.offer());
    }
  }

  const showScore = () => {
    const points = [...earned.values()].reduce((sum, value) => sum + value, 0);
    Object.assign(scoreBox.dataset, { points: shownPoints(points), maxPoints: shownPoints(maxPoints) });
    scoreBox.textContent = t("{points} / {max} points", { points: shownPoints(points), max: shownPoints(maxPoints) });
    scoreBox.hidden = false;
  };

  for (const entry of tests) {
    const { box, show } = resultView("test-result");
    entry.parts.extra.append(box);
    const of = (points) => t("{points} / {max} points", { points: shownPoints(points), max: shownPoints(entry.points) });
    show("idle", t("Not checked yet: run this cell (or Run all) to check the answers above it."), of(0));
    entry.cell.onResult((result) => {
      const check = result.check;
      if (check?.status === "passed") show("passed", `✓ ${check.message}`, of(entry.points));
      else if (check) show("failed", `✗ ${check.message}`, of(0));
      else show("idle", t("Stopped before the tests finished: run this cell again to check."), of(0));
      earned.set(entry, check?.status === "passed" ? entry.points : 0);
      if (check) {
        reportResult({ kind: "test", id: entry.gradeId ?? "", state: check.status, code: answersBefore(entries, entry).map((answer) => answer.cell.getText()).join("\n\n"),
          message: check.message, score: { raw: earned.get(entry), max: entry.points } });
      }
      if (check?.status === "failed") for (const answer of answersBefore(entries, entry)) offers.get(answer)?.offer();
      showScore();
      onChange();
    });
  }
  showScore();
}

/** The answer cells that a test cell checks: those since the test cell before it (at least the nearest one). */
function answersBefore(entries, test) {
  const at = entries.indexOf(test);
  const answers = [];
  for (let i = at - 1; i >= 0 && entries[i].role !== "test"; i -= 1) if (entries[i].role === "answer") answers.push(entries[i]);
  if (answers.length) return answers;
  const nearest = entries.slice(0, at).reverse().find((entry) => entry.role === "answer");
  return nearest ? [nearest] : [];
}
