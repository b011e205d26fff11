// Turns DOT into a safe <svg> element, using render-worker.js for the layout and graph-svg-cleaner.js to clean it.
import { cleanGraphSvg } from "./graph-svg-cleaner.js";
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
   * layout and the first cleaning are done while the page is idle, not on the reader's first Run (the
   * output's rehearsal, output-list.js, then draws a graph like a reader's).
   */
  warmUp() {
    if (this.worker) return;
    this.worker = startModuleWorker(new URL("../session/render-worker.js", import.meta.url));
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
  cleanGraphSvg(svg);
  return document.adoptNode(svg);
}
