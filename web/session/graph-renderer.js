// Turns DOT into a safe <svg> element, using render-worker.js for the layout and DOMPurify to clean it.
import { startModuleWorker } from "./start-worker.js";

const SVG_NS = "http://www.w3.org/2000/svg";
const XLINK_NS = "http://www.w3.org/1999/xlink"; // Graphviz writes xlink:title and xlink:href in the parts
const QUICK_LAYOUT = 1000; // values: past this, render-worker.js places nodes the quick way (it says why)
const WARM_UP = 'digraph { rankdir=LR; a [shape=record, label="{ a | data 1.0 | grad 0.0 }"]; b [label="*"]; a -> b }';

export class GraphRenderer {
  constructor() {
    this.nextId = 1;
    this.pending = new Map();
    this.worker = null;
  }

  /**
   * Starts the worker ahead of the first graph and draws a small one, unseen: Graphviz compiles, its first
   * layout and DOMPurify's first pass are done while the page is idle, not on the reader's first Run (the
   * output's rehearsal, output-list.js, then draws a graph like a reader's).
   */
  warmUp() {
    if (this.worker) return;
    this.worker = startModuleWorker(new URL("./render-worker.js", import.meta.url));
    this.worker.onmessage = ({ data }) => {
      const request = this.pending.get(data.id);
      this.pending.delete(data.id);
      if (request) request(data);
    };
    this.render(WARM_UP)
      .then(({ fill }) => fill())
      .catch(() => {}); // a failure shows on the first real graph
  }

  /**
   * Lays out `dot`, a drawing of `values` values; resolves with {svg, fill}: an <svg> holding the graph's
   * frame, and fill(), which cleans the nodes and edges a part per task, then adds them all at once
   * (the page styles and lays out a big drawing once, not after every part).
   * Rejects with an Error whose message says what went wrong.
   */
  render(dot, values = 0) {
    return this.renderFitting([dot], values);
  }

  /**
   * Like render(), for the first of `dots` (layouts of one graph) whose drawing fits `fit` ({width, height},
   * in Graphviz points), or the first of them if none does; also resolves with its `index` in `dots`.
   * The worker tries them in turn: one message and one drawing to clean, however many layouts it takes.
   */
  async renderFitting(dots, values = 0, fit = null) {
    this.warmUp();
    const id = this.nextId++;
    const reply = await new Promise((resolve) => {
      this.pending.set(id, resolve);
      this.worker.postMessage({ id, dots, quick: values > QUICK_LAYOUT, fit });
    });
    if (reply.status === "rejected") throw new Error(reply.reason);
    await loadPurify();
    const { shell, parts, index } = reply.value;
    const svg = parseSvg(shell);
    const target = svg.querySelector("g") || svg;
    const fill = async () => {
      const drawing = document.createDocumentFragment();
      for (const part of parts) {
        const group = parseSvg(`<svg xmlns="${SVG_NS}" xmlns:xlink="${XLINK_NS}"><g>${part}</g></svg>`).firstElementChild;
        drawing.append(...group.childNodes);
        await yieldToPage();
      }
      target.append(drawing);
    };
    return { svg, fill, index };
  }

  /** Abandons every layout in progress (Stop during a huge layout). */
  cancelAll() {
    if (!this.worker) return;
    this.worker.terminate();
    this.worker = null;
    for (const resolve of this.pending.values()) resolve({ status: "rejected", reason: "Stopped before the graph was drawn." });
    this.pending.clear();
  }
}

/** Lets the page handle input between parts; unlike setTimeout, not clamped to 4 ms after a few rounds. */
function yieldToPage() {
  if (globalThis.scheduler?.yield) return globalThis.scheduler.yield();
  return new Promise((resolve) => {
    const channel = new MessageChannel();
    channel.port1.onmessage = resolve;
    channel.port2.postMessage(null);
  });
}

/** Parses Graphviz's SVG text into an <svg> element of this document, with only what a drawing needs. */
function parseSvg(text) {
  const doc = new DOMParser().parseFromString(text, "image/svg+xml");
  const svg = doc.documentElement;
  if (svg.namespaceURI !== SVG_NS || svg.localName !== "svg" || doc.querySelector("parsererror")) {
    throw new Error("Graphviz produced an SVG the browser cannot read");
  }
  purify.sanitize(svg, GRAPHVIZ_SVG);
  return document.adoptNode(svg);
}

// Graphviz copies some attributes into the SVG unescaped (fontname: a quote ends the attribute and
// starts new markup) or as links (URL, href, image). So DOMPurify keeps only the SVG elements and
// attributes that Graphviz writes for a drawing: no links (even "#code=..." would open other code),
// no images, foreignObject or style elements, no url() outside the drawing.
const DRAWING_ATTRIBUTES = [
  "xmlns", "xmlns:xlink", "xml:space", "width", "height", "viewBox", "preserveAspectRatio", "id", "class",
  "transform", "points", "d", "x", "y", "x1", "y1", "x2", "y2", "cx", "cy", "r", "rx", "ry", "fx", "fy",
  "fill", "fill-opacity", "stroke", "stroke-width", "stroke-dasharray", "stroke-opacity", "opacity",
  "font-family", "font-size", "font-weight", "font-style", "text-anchor", "text-decoration", "baseline-shift",
  "gradientUnits", "offset", "style", "xlink:title",
];
const GRAPHVIZ_SVG = {
  IN_PLACE: true,
  ALLOWED_TAGS: [
    "svg", "g", "title", "text", "#text", "a", "polygon", "polyline", "path", "ellipse", "circle",
    "defs", "linearGradient", "radialGradient", "stop",
  ],
  ALLOWED_ATTR: DRAWING_ATTRIBUTES,
  ADD_URI_SAFE_ATTR: DRAWING_ATTRIBUTES, // none is a link; the hook below checks url()
  ALLOW_DATA_ATTR: false, // data-testid="run" on a node would pass for the page's own button
  ALLOW_ARIA_ATTR: false,
  KEEP_CONTENT: false, // what is inside a dropped element goes with it
};
const OUTSIDE_URL = /url\(\s*(?!['"]?#)/i;

let purify = null;
let purifyLoading = null;

/** DOMPurify, loaded with the first graph: a page whose reader never runs anything does not download it. */
function loadPurify() {
  purifyLoading ??= import("../vendor/purify.es.mjs").then(({ default: DOMPurify }) => {
    purify = DOMPurify(window); // an instance of our own: its hook applies to graphs only
    purify.addHook("uponSanitizeAttribute", (element, attribute) => {
      // Graphviz writes style only on gradient stops (stop-color, stop-opacity).
      if (OUTSIDE_URL.test(attribute.attrValue) || (attribute.attrName === "style" && element.localName !== "stop")) {
        attribute.keepAttr = false;
      }
    });
  }).catch((error) => {
    purifyLoading = null; // the next graph tries again
    throw new Error(`the graph's sanitizer (vendor/purify.es.mjs) could not be loaded: ${error.message}. Check your connection, then run again`);
  });
  return purifyLoading;
}
