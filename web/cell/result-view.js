// A cell's verdict under its code (an exercise's checks, an nbgrader test cell's tests) and a solution
// offered after a failed try. exercise.js and notebook/assignment.js put both in a cell's `extra` part.
import { button, element } from "../dom/element.js";
import { codeBlock } from "./cell-view.js";
import { t } from "../i18n/messages.js";

/** {box, show(state, text, lead)}: `lead` (points) comes first, in bold; code in `text` is between backticks. */
export function resultView(testid) {
  const box = element("div", "result");
  box.dataset.testid = testid;
  box.setAttribute("role", "status");
  const show = (state, text, lead = "") => {
    box.dataset.state = state;
    const words = text.split("`").map((part, i) => (i % 2 ? element("code", "", part) : part));
    box.replaceChildren(...(lead ? [element("strong", "points", lead), " "] : []), ...words);
  };
  return { box, show };
}

/** A "Show the solution" button, hidden until offer(), and the box that shows the solution with a way to use it. */
export function solutionOffer(cell, solution) {
  const show = button(t("Show the solution"), { className: "quiet", testid: "solution", title: t("Show a solution that passes") });
  show.hidden = true;
  const box = element("div", "solution");
  show.addEventListener("click", () => {
    const use = button(t("Put it in the editor"), { className: "quiet", title: t("Replace your code with the solution (Ctrl+Z brings yours back)") });
    use.addEventListener("click", () => cell.setText(solution));
    box.replaceChildren(codeBlock(solution, t("A solution")), use);
    show.hidden = true;
  });
  return {
    button: show,
    box,
    offer: () => (show.hidden = box.hasChildNodes()),
    clear: () => box.replaceChildren(),
  };
}
