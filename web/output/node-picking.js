// A drawn graph's values as things to pick: a click (a press and release without a drag: the view pans
// on drags) or Enter/Space on a focused value calls onPick(id). The graph is one tab stop: arrow keys,
// Home and End move between its values, in the order the drawing lists them (inputs first).
const PICKABLE = /^(v\d+|L\d+(_n\d+)?)$/; // a value's record, or a neuron's or a layer's box: not an op's circle
const DRAG = 5; // pixels: a pointer that moved further was panning

export function pickableNodes(svg) {
  return [...svg.querySelectorAll("g.node[id]")].filter((g) => PICKABLE.test(g.id));
}

/**
 * Makes the values of each drawing `view` shows pickable; returns prepare(svg), to call on every new drawing.
 * `onPick(id, node, how)`, `how` "pointer" or "key"; `signal` (an AbortSignal) ends it.
 */
export function nodePicking(viewElement, { onPick, signal }) {
  let pressed = null;
  viewElement.addEventListener("pointerdown", (event) => {
    const node = event.target.closest?.("g.node");
    pressed = node && PICKABLE.test(node.id) && event.button === 0 ? { node, x: event.clientX, y: event.clientY } : null;
  }, { signal });
  viewElement.addEventListener("pointerup", (event) => {
    const press = pressed;
    pressed = null;
    if (!press || Math.hypot(event.clientX - press.x, event.clientY - press.y) > DRAG || !press.node.isConnected) return;
    onPick(press.node.id, press.node, "pointer");
  }, { signal });
  viewElement.addEventListener("pointercancel", () => (pressed = null), { signal });

  return function prepare(svg) {
    const nodes = pickableNodes(svg);
    if (!nodes.length) return;
    const start = svg.querySelector("g.node.root") ?? nodes[nodes.length - 1];
    for (const node of nodes) {
      node.setAttribute("tabindex", node === start ? "0" : "-1");
      node.setAttribute("role", "button");
      node.setAttribute("aria-roledescription", "value");
    }
    const move = (from, to) => {
      from.setAttribute("tabindex", "-1");
      to.setAttribute("tabindex", "0");
      to.focus({ preventScroll: false });
    };
    svg.addEventListener("keydown", (event) => {
      if (signal?.aborted) return;
      const node = event.target.closest?.("g.node");
      const at = nodes.indexOf(node);
      if (at < 0) return;
      const next = { ArrowRight: at + 1, ArrowDown: at + 1, ArrowLeft: at - 1, ArrowUp: at - 1, Home: 0, End: nodes.length - 1 }[event.key];
      if (next !== undefined) {
        event.preventDefault();
        move(node, nodes[Math.max(0, Math.min(nodes.length - 1, next))]);
      } else if (event.key === "Enter" || event.key === " ") {
        event.preventDefault();
        onPick(node.id, node, "key");
      }
    });
  };
}
