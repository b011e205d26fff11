// A drawn graph's values as a tree that a screen reader walks (WAI-ARIA's tree view pattern): it starts at the
// value that was drawn, each value's inputs are its children, and a value used more than once appears under
// each of its users. One tab stop: Up and Down move between the items shown, Right opens an item or goes to
// its first input, Left closes it or goes back to its user, Home and End go to the first and the last; Enter
// opens the value's arithmetic. An item's inputs are made when it first opens: a long chain costs nothing
// until it is walked. In a grouped view (by neuron, by layer) the tree starts at the view's boxes, in the
// drawing's order, and each box opens to the values it holds, which open to their inputs as before.
import { element } from "../dom/element.js";
import { fields, madeOf } from "./explain-text.js";
import { valueIndex } from "./graph-view.js";
import { t, tn } from "../i18n/messages.js";

// A screen reader speaks the focused item's name each time it changes, and a live graph changes its numbers
// many times a second: the focused item follows them at most once this often, and not while a key is down.
const SPOKEN_EVERY_MS = 1000;

/** The value a graph was drawn from: the one no other value uses (the last such, as the runtime lists inputs first). */
export function rootOf(model) {
  for (let i = model.n - 1; i >= 0; i -= 1) if (!model.uses[i].length) return i;
  return model.n - 1;
}

/**
 * The tree of `model`'s values from `root`, or of a grouped view's `boxes` ({ids: its boxes and the values it
 * draws on their own, in the drawing's order, titles: {id: a box's name}, members: {id: a box's values},
 * outputs: {id: a box's one output}}). Items are keyed
 * by their id in the value-by-value drawing (`v3`) or their box's. `onFocus(id)` hears the drawing's box of
 * the item the tree is on (a value's own, or in a grouped view the box that holds it; null when it leaves);
 * `onOpen(key, item)` asks for its arithmetic. Returns {element, reveal(id), refresh(), state(),
 * restore(state)}: reveal opens the way to an id of the drawing and makes it the tree's tab stop, without
 * moving the page's focus; state() and restore() carry where the tree was to the tree of a live graph's next
 * drawing.
 */
export function valueTree(model, root, { onFocus, onOpen, boxes = null }) {
  // A value by its label, as the drawing shows it (the explanations' names are the program's, for its code).
  const labelOf = (i) => model.labels[i] || model.names[i];
  const operandOf = (i) => (/\s/.test(labelOf(i)) ? `(${labelOf(i)})` : labelOf(i)); // n = (x1*w1 + x2*w2) + b
  const isBox = (key) => Boolean(boxes) && valueIndex(key) === null;
  const childrenOf = (key) => (isBox(key) ? boxes.members[key] ?? [] : model.args[valueIndex(key)] ?? []).map((i) => `v${i}`);
  // One flat list, each item's level, position and set size said (ARIA's tree without nested groups): an item
  // holds its own words alone, which are its name, and its inputs follow it while it is open.
  const tree = element("ul", "value-tree");
  tree.setAttribute("role", "tree");
  tree.setAttribute("aria-label", boxes
    ? t("The graph by its boxes: each opens to the values it holds")
    : t("The values of the graph, from {name}: each opens to its inputs", { name: labelOf(root) }));
  // The focused item that missed a live update, when it last changed as it had the focus, and the keys down.
  const heard = { stale: null, at: -Infinity, keys: new Set(), timer: null };
  const tops = boxes ? boxes.ids : [`v${root}`];
  tree.append(...tops.map((key, k) => item(key, 1, k + 1, tops.length)));
  const top = tree.firstElementChild;
  top.tabIndex = 0;

  function item(key, level, position, size) {
    const li = element("li", "value-item");
    li.setAttribute("role", "treeitem");
    li.setAttribute("aria-level", String(level));
    li.setAttribute("aria-posinset", String(position));
    li.setAttribute("aria-setsize", String(size));
    li.style.setProperty("--level", String(level - 1));
    li.tabIndex = -1;
    li.dataset.key = key;
    const mark = element("span", "value-mark");
    mark.setAttribute("aria-hidden", "true");
    li.append(mark, element("span", "value-name"));
    if (childrenOf(key).length) li.setAttribute("aria-expanded", "false");
    name(li);
    return li;
  }

  /** `L1_n0 · 7 values · its output n0 · data 0.8814 · grad 0.5000`. */
  function boxName(li, key) {
    const members = boxes.members[key] ?? [];
    const parts = [boxes.titles[key] || key, tn("{count} value", "{count} values", members.length, { count: members.length })];
    const output = boxes.outputs?.[key];
    if (Number.isInteger(output) && output < model.n) parts.push(t("its output {name}", { name: labelOf(output) }), fields(model, output));
    li.lastChild.textContent = parts.join(" · ");
  }

  /** `x1 · data 2.0000 · grad -1.5000 · an input · used by x1*w1`. */
  function name(li) {
    if (isBox(li.dataset.key)) return boxName(li, li.dataset.key);
    const index = valueIndex(li.dataset.key);
    const uses = model.uses[index].length;
    const parts = [labelOf(index), fields(model, index), madeOf(model, index, labelOf, operandOf)];
    const users = [...new Set(model.uses[index].map(([user]) => labelOf(user)))].join(", ");
    if (uses === 1) parts.push(t("used by {users}", { users }));
    else if (uses) parts.push(tn("used {count} time, by {users}", "used {count} times, by {users}", uses, { count: uses, users }));
    li.lastChild.textContent = parts.join(" · ");
  }

  /** Names the item that missed a live update once the focused one may change: a second on, no key down. */
  function catchUp() {
    clearTimeout(heard.timer);
    const li = heard.stale;
    if (!li || heard.keys.size) return;
    const focused = li === document.activeElement;
    const wait = heard.at + SPOKEN_EVERY_MS - performance.now();
    if (focused && wait > 0) {
      heard.timer = setTimeout(catchUp, wait);
      return;
    }
    heard.stale = null;
    name(li);
    if (focused) heard.at = performance.now();
  }

  const levelOf = (li) => Number(li.getAttribute("aria-level"));

  /** The items after `li` that are its inputs, and theirs, while it is open. */
  function descendants(li) {
    const found = [];
    for (let next = li.nextElementSibling; next && levelOf(next) > levelOf(li); next = next.nextElementSibling) found.push(next);
    return found;
  }

  const inputsOf = (li) => descendants(li).filter((child) => levelOf(child) === levelOf(li) + 1);

  function open(li, opened) {
    const state = li.getAttribute("aria-expanded");
    if (state === null || state === String(opened)) return;
    if (opened) {
      const inputs = childrenOf(li.dataset.key);
      li.after(...inputs.map((key, k) => item(key, levelOf(li) + 1, k + 1, inputs.length)));
    } else {
      if (descendants(li).some((child) => child.tabIndex === 0)) move(li, false);
      for (const child of descendants(li)) child.remove();
    }
    li.setAttribute("aria-expanded", String(opened));
  }

  const current = () => tree.querySelector('[role="treeitem"][tabindex="0"]');

  function move(li, focus = true) {
    current()?.setAttribute("tabindex", "-1");
    li.tabIndex = 0;
    if (focus) li.focus();
  }

  /** The item of the value that `li` is an input of (or of the box that holds it). */
  function userOf(li) {
    for (let before = li.previousElementSibling; before; before = before.previousElementSibling) {
      if (levelOf(before) < levelOf(li)) return before;
    }
    return null;
  }

  /** The drawing's id for `li`: its value's, or in a grouped view its box's. */
  function drawnAs(li) {
    if (!boxes) return li.dataset.key;
    while (levelOf(li) > 1) li = userOf(li);
    return li.dataset.key;
  }

  tree.addEventListener("keydown", (event) => {
    heard.keys.add(event.code); // not .key: Shift+A goes down as "A" and may come up as "a"
    const li = event.target.closest?.('[role="treeitem"]');
    if (!li || !tree.contains(li) || event.altKey || event.ctrlKey || event.metaKey) return;
    const expanded = li.getAttribute("aria-expanded");
    const to = {
      ArrowDown: () => li.nextElementSibling,
      ArrowUp: () => li.previousElementSibling,
      Home: () => tree.firstElementChild,
      End: () => tree.lastElementChild,
      ArrowRight: () => (expanded === "false" ? (open(li, true), null) : expanded === "true" ? li.nextElementSibling : null),
      ArrowLeft: () => (expanded === "true" ? (open(li, false), null) : userOf(li)),
    }[event.key];
    if (to) {
      event.preventDefault();
      const next = to();
      if (next) move(next);
    } else if (event.key === "Enter" || event.key === " ") {
      event.preventDefault();
      onOpen(li.dataset.key, li);
    }
  });
  tree.addEventListener("keyup", (event) => {
    heard.keys.delete(event.code);
    catchUp();
  });
  tree.addEventListener("focusin", (event) => {
    tree.classList.add("shown"); // and it stays: hiding it again as the focus leaves would move what a click aims at
    const li = event.target.closest?.('[role="treeitem"]');
    if (li) onFocus(drawnAs(li));
    catchUp(); // the item left behind, at once
    heard.at = performance.now(); // the item focused is spoken now
  });
  tree.addEventListener("focusout", (event) => {
    if (tree.contains(event.relatedTarget)) return;
    heard.keys.clear(); // a key let go elsewhere sends its keyup there
    catchUp();
    onFocus(null);
  });
  tree.addEventListener("click", (event) => {
    const li = event.target.closest?.('[role="treeitem"]');
    if (!li) return;
    move(li);
    open(li, li.getAttribute("aria-expanded") === "false");
  });

  /** The way from the root to value `index` (its first path, through the inputs in order), as keys, or null. */
  function pathTo(index) {
    const from = new Map([[root, null]]);
    const queue = [root];
    while (queue.length) {
      const i = queue.shift();
      if (i === index) break;
      for (const j of model.args[i] ?? []) {
        if (!from.has(j)) {
          from.set(j, i);
          queue.push(j);
        }
      }
    }
    if (!from.has(index)) return null;
    const path = [];
    for (let i = index; i !== null; i = from.get(i)) path.unshift(`v${i}`);
    return path;
  }

  /** Opens the way down `path` (keys from a top item); the item of the last one reached. */
  function walkDown(path) {
    let li = [...tree.children].find((child) => levelOf(child) === 1 && child.dataset.key === path[0]) ?? top;
    if (li.dataset.key !== path[0]) return li;
    for (const key of path.slice(1)) {
      open(li, true);
      const next = inputsOf(li).find((child) => child.dataset.key === key);
      if (!next) break;
      li = next;
    }
    return li;
  }

  return {
    element: tree,
    reveal(id) {
      const path = boxes ? (tops.includes(id) ? [id] : null) : pathTo(valueIndex(id));
      if (path) move(walkDown(path), false);
    },
    /** Names the items again with the model's numbers (a live update); the focused one as catchUp() allows. */
    refresh() {
      for (const li of tree.children) {
        if (li === document.activeElement) heard.stale = li;
        else name(li);
      }
      catchUp();
    },
    /** {path: the values from the root to the tab stop, focused, shown}: what restore() brings back in a new tree. */
    state() {
      const path = [];
      for (let li = current(); li; li = userOf(li)) path.unshift(li.dataset.key);
      return { path, focused: tree.matches(":focus-within"), shown: tree.classList.contains("shown") };
    },
    restore({ path, focused, shown }) {
      const li = walkDown(path);
      tree.classList.toggle("shown", Boolean(shown));
      move(li, Boolean(focused));
    },
  };
}
