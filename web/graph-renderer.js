// Turns DOT into a safe <svg> element, using render-worker.js.

export class GraphRenderer {
  constructor() {
    this.nextId = 1;
    this.pending = new Map();
    this.start();
  }

  start() {
    this.worker = new Worker(new URL("./render-worker.js", import.meta.url), { type: "module" });
    this.worker.onmessage = ({ data }) => {
      const request = this.pending.get(data.id);
      this.pending.delete(data.id);
      if (request) request(data);
    };
  }

  /** Resolves with an SVG element, or rejects with an Error whose message says what went wrong. */
  async render(dot) {
    const id = this.nextId++;
    const reply = await new Promise((resolve) => {
      this.pending.set(id, resolve);
      this.worker.postMessage({ id, dot });
    });
    if (reply.status === "rejected") throw new Error(reply.reason);
    return parseSvg(reply.value);
  }

  /** Abandons every layout in progress (Stop during a huge layout). */
  cancelAll() {
    this.worker.terminate();
    for (const resolve of this.pending.values()) resolve({ status: "rejected", reason: "Stopped before the graph was drawn." });
    this.pending.clear();
    this.start();
  }
}

export function parseSvg(text) {
  const doc = new DOMParser().parseFromString(text, "image/svg+xml");
  const svg = doc.documentElement;
  if (svg.nodeName !== "svg" || doc.querySelector("parsererror")) {
    throw new Error("Graphviz produced an SVG the browser cannot read");
  }
  sanitize(svg);
  return document.importNode(svg, true);
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
