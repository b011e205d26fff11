// The DOM helpers every layer of the page uses (cell, output, notebook, room, offline, hosts): each imports
// them from here, never from another layer's view.

export function element(tag, className, text) {
  const e = document.createElement(tag);
  if (className) e.className = className;
  if (text !== undefined) e.textContent = text;
  return e;
}

/** A button that submits nothing; `onClick(button)` runs on each click. */
export function button(label, { className = "", testid = "", title = "", onClick = null } = {}) {
  const b = element("button", className, label);
  b.type = "button";
  if (testid) b.dataset.testid = testid;
  if (title) b.title = title;
  if (onClick) b.addEventListener("click", () => onClick(b));
  return b;
}

/** The element with this data-testid (the page contract, docs/contract.md) inside `root`. */
export const byTestId = (id, root = document) => root.querySelector(`[data-testid="${id}"]`);
