// Turns DOT into a safe <svg> element, using render-worker.js for the layout.
import { startModuleWorker } from "./start-worker.js";

const SVG_NS = "http://www.w3.org/2000/svg";

export class GraphRenderer {
  constructor() {
    this.nextId = 1;
    this.pending = new Map();
    this.worker = null;
  }

  /** Starts the worker ahead of the first graph (it compiles Graphviz, best done while idle). */
  warmUp() {
    if (this.worker) return;
    this.worker = startModuleWorker(new URL("./render-worker.js", import.meta.url));
    this.worker.onmessage = ({ data }) => {
      const request = this.pending.get(data.id);
      this.pending.delete(data.id);
      if (request) request(data);
    };
  }

  /**
   * Lays out `dot`; resolves with {svg, fill}: an <svg> holding the graph's frame, and fill(),
   * which adds the nodes and edges a part per task once the svg is in the page.
   * Rejects with an Error whose message says what went wrong.
   */
  async render(dot) {
    this.warmUp();
    const id = this.nextId++;
    const reply = await new Promise((resolve) => {
      this.pending.set(id, resolve);
      this.worker.postMessage({ id, dot });
    });
    if (reply.status === "rejected") throw new Error(reply.reason);
    const { shell, parts } = reply.value;
    const svg = parseSvg(shell);
    const target = svg.querySelector("g") || svg;
    const fill = async () => {
      for (const part of parts) {
        const group = parseSvg(`<svg xmlns="${SVG_NS}"><g>${part}</g></svg>`).firstElementChild;
        target.append(...group.childNodes);
        await new Promise((resolve) => setTimeout(resolve, 0)); // let the page breathe between parts
      }
    };
    return { svg, fill };
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

export function parseSvg(text) {
  const doc = new DOMParser().parseFromString(text, "image/svg+xml");
  const svg = doc.documentElement;
  if (svg.nodeName !== "svg" || doc.querySelector("parsererror")) {
    throw new Error("Graphviz produced an SVG the browser cannot read");
  }
  sanitize(svg);
  return document.adoptNode(svg);
}

// Graphviz copies some attributes (fontname, URL, href) into the SVG unescaped or as links:
// keep only what a drawing needs.
function sanitize(svg) {
  for (const element of svg.querySelectorAll("script, foreignObject, iframe, object, embed")) element.remove();
  for (const element of [svg, ...svg.querySelectorAll("*")]) {
    for (const { name, value } of [...element.attributes]) {
      const isLink = name === "href" || name.endsWith(":href");
      if (name.toLowerCase().startsWith("on") || (isLink && !value.startsWith("#"))) {
        element.removeAttribute(name);
      }
    }
  }
}
