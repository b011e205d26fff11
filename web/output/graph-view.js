// One graph in the output: a toolbar (fit, zoom, download SVG, copy DOT) over a pannable, zoomable view.
// Mouse: drag to pan, wheel to zoom. Touch: one finger pans, two fingers pinch to zoom and pan.
import { copyText } from "../dom/clipboard.js";
import { button, element } from "../dom/element.js";
import { t, tn } from "../i18n/messages.js";

/** A button named by a file format's name, which no language translates (its title says what it does). */
const formatName = (b) => Object.assign(b, { translate: false });

/** "{count} values" for a graph of `nodes` values, the count as English writes it (1,234). */
export const valueCount = (nodes) => tn("{count} value", "{count} values", nodes, { count: nodes.toLocaleString("en") });

const MIN_HEIGHT = 140;
export const MIN_SCALE = 0.7; // screen pixels per Graphviz point: smaller text is not readable
const MAX_SCALE = 1.4;
const MAX_HEIGHT_SHARE = 0.7; // of the window's height

export function graphCard({ title, nodes }) {
  const card = element("figure", "graph-card");
  const caption = element("figcaption", "graph-caption");
  const name = element("span", "graph-title", title ? t("Graph of {name}", { name: title }) : t("Graph"));
  const size = element("span", "graph-size", valueCount(nodes));
  const tools = element("span", "graph-tools");
  caption.append(name, size, tools);
  const view = element("div", "graph-view");
  view.append(element("div", "graph-pending", t("Drawing…")));
  card.append(caption, view);
  nameCard(card);
  return { card, view, tools };
}

/**
 * Names a graph card by its title and size (again after the size changes): the caption, which would name it,
 * holds the tools' buttons too.
 */
export function nameCard(card) {
  const words = (selector) => card.querySelector(selector)?.textContent ?? "";
  card.setAttribute("aria-label", `${words(".graph-title")} · ${words(".graph-size")}`);
}

/** The value a drawing's id stands for (`v3`: 3), or null for a box's id (`L1_n0`, a neuron's or a layer's). */
export const valueIndex = (id) => (/^v\d+$/.test(id) ? Number(id.slice(1)) : null);

/** The drawing's box with id `id` (`v3`, `L1_n0`), or null. */
export const nodeById = (svg, id) => (id ? svg.querySelector(`g.node[id="${CSS.escape(id)}"]`) : null);

/** A box's name as the drawing shows it: its first text, or its id. */
export const nodeTitle = (node) => node.querySelector("text")?.textContent.trim() || node.id;

/** Marks the box with drawing id `id` (none for null) with the class `name`, and no other box. */
export function markNode(svg, name, id) {
  for (const old of svg.querySelectorAll(`g.${name}`)) old.classList.remove(name);
  nodeById(svg, id)?.classList.add(name);
}

/** The graph's own size, in Graphviz points, from a freshly rendered <svg>. */
export function homeBox(svg) {
  const box = svg.viewBox.baseVal;
  return { x: box.x, y: box.y, width: box.width, height: box.height };
}

/** The largest graph, in Graphviz points, that a view `width` pixels wide shows whole at a readable scale. */
export const readableBox = (width) => ({ width: width / MIN_SCALE, height: (window.innerHeight * MAX_HEIGHT_SHARE) / MIN_SCALE });

/**
 * Shows `svg` in the card's view and adds the tools. Returns {showOutput, replace(svg, dot), svg(), onShow}:
 * replace() shows another drawing (a grouped view, a checked graph) with the same tools; onShow(listener)
 * calls listener(svg) with the drawing shown now and every later one, until the function it returns is called.
 */
export function showGraph({ view, tools }, firstSvg, firstDot) {
  let svg, dot, home, current;
  const shown = new Set(); // listeners called with each new drawing
  const apply = () => svg.setAttribute("viewBox", `${current.x} ${current.y} ${current.width} ${current.height}`);
  const hint = element("span", "graph-hint", t("drag to pan · Fit shows all"));

  function show(newSvg, newDot) {
    svg = newSvg;
    dot = newDot;
    home = homeBox(svg);
    svg.removeAttribute("width");
    svg.removeAttribute("height");
    svg.setAttribute("preserveAspectRatio", "xMidYMid meet");
    // An <svg> reads as an image, whose children some screen readers skip: its values' boxes are buttons.
    svg.setAttribute("role", "group");
    svg.setAttribute("aria-label", t("The drawing of the graph"));
    view.replaceChildren(svg);
    for (const listener of shown) listener(svg);
    // Fit the width, but never shrink text below a readable size: a wider graph is panned;
    // "Fit" shows the whole graph however small.
    const width = view.clientWidth || 600;
    const scale = Math.min(Math.max(width / home.width, MIN_SCALE), MAX_SCALE);
    const height = Math.max(MIN_HEIGHT, Math.min(home.height * scale, window.innerHeight * MAX_HEIGHT_SHARE));
    view.style.height = `${Math.round(height)}px`;
    if (home.width * scale > width + 1) tools.before(hint);
    else hint.remove();
    current = { width: width / scale, height: height / scale };
    current.x = home.x - Math.max(0, (current.width - home.width) / 2); // small graphs sit in the middle
    current.y = home.y - (current.height - home.height) / 2;
    apply();
  }

  const zoom = (factor, cx = 0.5, cy = 0.5) => {
    const width = current.width * factor;
    const height = current.height * factor;
    current = { x: current.x + (current.width - width) * cx, y: current.y + (current.height - height) * cy, width, height };
    apply();
  };
  const fit = () => {
    current = { ...home };
    apply();
  };
  // A graph up to two views wide starts at its inputs, to be read left to right; a longer one
  // starts on its output node, where a reader of a long chain wants to land.
  const showOutput = () => {
    const root = svg.querySelector("g.root");
    if (!root || (current.width * 2 >= home.width && current.height >= home.height)) return;
    const toSvg = svg.getScreenCTM().inverse().multiply(root.getScreenCTM());
    const b = root.getBBox();
    const corner = new DOMPoint(b.x + b.width, b.y + b.height / 2).matrixTransform(toSvg);
    const margin = 12;
    current.x = Math.min(Math.max(home.x, corner.x + margin - current.width), home.x + home.width - current.width);
    current.y = Math.min(Math.max(home.y, corner.y - current.height / 2), home.y + home.height - current.height);
    apply();
  };

  view.addEventListener("wheel", (event) => {
    event.preventDefault();
    const rect = view.getBoundingClientRect();
    zoom(Math.exp(event.deltaY * 0.0015), (event.clientX - rect.left) / rect.width, (event.clientY - rect.top) / rect.height);
  }, { passive: false });

  // Pointers down on the view: one drags, two pinch (distance zooms, midpoint pans).
  const pointers = new Map();
  let gesture = null;
  const startGesture = () => {
    const points = [...pointers.values()];
    const mid = { x: points.reduce((s, p) => s + p.x, 0) / points.length, y: points.reduce((s, p) => s + p.y, 0) / points.length };
    const spread = points.length > 1 ? Math.hypot(points[0].x - points[1].x, points[0].y - points[1].y) : 0;
    gesture = { mid, spread, start: { ...current } };
  };
  view.addEventListener("pointerdown", (event) => {
    if (event.target.closest("button, a")) return;
    pointers.set(event.pointerId, { x: event.clientX, y: event.clientY });
    view.setPointerCapture(event.pointerId);
    view.classList.add("dragging");
    startGesture();
  });
  view.addEventListener("pointermove", (event) => {
    if (!pointers.has(event.pointerId)) return;
    pointers.set(event.pointerId, { x: event.clientX, y: event.clientY });
    const points = [...pointers.values()];
    const mid = { x: points.reduce((s, p) => s + p.x, 0) / points.length, y: points.reduce((s, p) => s + p.y, 0) / points.length };
    const { start } = gesture;
    const perPixel = Math.max(start.width / view.clientWidth, start.height / view.clientHeight);
    current = { ...start, x: start.x - (mid.x - gesture.mid.x) * perPixel, y: start.y - (mid.y - gesture.mid.y) * perPixel };
    if (points.length > 1 && gesture.spread > 0) {
      const spread = Math.hypot(points[0].x - points[1].x, points[0].y - points[1].y);
      const rect = view.getBoundingClientRect();
      apply();
      zoom(gesture.spread / spread, (mid.x - rect.left) / rect.width, (mid.y - rect.top) / rect.height);
      gesture = { mid, spread, start: { ...current } };
      return;
    }
    apply();
  });
  const endPointer = (event) => {
    pointers.delete(event.pointerId);
    if (pointers.size) startGesture();
    else view.classList.remove("dragging");
  };
  view.addEventListener("pointerup", endPointer);
  view.addEventListener("pointercancel", endPointer);
  view.addEventListener("dblclick", fit);

  show(firstSvg, firstDot);
  tools.append(
    toolButton("−", t("Zoom out"), () => zoom(1.25)),
    toolButton("+", t("Zoom in"), () => zoom(0.8)),
    toolButton(t("Fit"), t("Fit the whole graph"), fit),
    formatName(toolButton("SVG", t("Download this graph as SVG"), () => download(svg))),
    formatName(toolButton("DOT", t("Copy this graph's DOT source"), (b) => copyDot(dot, b))),
  );
  const onShow = (listener) => {
    shown.add(listener);
    listener(svg);
    return () => shown.delete(listener);
  };
  // A live graph's values change in its DOT too: what DOT copies is the latest.
  const setDot = (newDot) => (dot = newDot);
  return { showOutput, replace: show, svg: () => svg, dot: () => dot, setDot, onShow };
}

function download(svg) {
  const clone = svg.cloneNode(true);
  clone.setAttribute("xmlns", "http://www.w3.org/2000/svg");
  const blob = new Blob([new XMLSerializer().serializeToString(clone)], { type: "image/svg+xml" });
  const link = element("a");
  link.href = URL.createObjectURL(blob);
  link.download = "graph.svg";
  link.click();
  setTimeout(() => URL.revokeObjectURL(link.href), 1000);
}

async function copyDot(text, feedback) {
  flash(feedback, (await copyText(text)) ? t("Copied") : t("Copy failed"));
}

function flash(target, text) {
  const before = target.textContent;
  target.textContent = text;
  setTimeout(() => (target.textContent = before), 1200);
}

/** A button of a graph's toolbars: its title is its accessible name too. */
export function toolButton(label, title, onClick) {
  const b = button(label, { className: "graph-button", onClick });
  relabel(b, label, title);
  return b;
}

/** Changes what a button shows and its name together: the name must contain the visible label (WCAG 2.5.3). */
export function relabel(b, label, title) {
  b.textContent = label;
  b.title = title;
  b.setAttribute("aria-label", title);
}
