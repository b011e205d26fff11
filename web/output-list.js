// The output list: every run appends a section; text, notices, graphs and errors appear in order.
import { element, graphCard, showGraph } from "./graph-view.js";

export class OutputList {
  /** With `follow`, the newest output is scrolled into view (a page of its own, not an article). */
  constructor(root, renderer, { follow = false } = {}) {
    this.root = root;
    this.follow = follow;
    this.renderer = renderer;
    this.section = null;
    this.runs = 0;
    this.drawing = [];
  }

  /** Starts a new section; `note` says why it ran when the reader did not press its Run. */
  startRun(note) {
    this.runs += 1;
    this.section = element("section", "run");
    this.section.dataset.run = String(this.runs);
    const time = new Date().toLocaleTimeString([], { hour: "2-digit", minute: "2-digit", second: "2-digit" });
    this.section.append(element("header", "run-header", `Run ${this.runs} · ${time}${note ? ` · ${note}` : ""}`));
    this.root.append(this.section);
    this.drawing = [];
    this.lastText = null;
  }

  /** One event from scalargrad.playground (see its docstring for the shapes). */
  add(event) {
    switch (event.type) {
      case "stdout":
      case "stderr":
      case "result":
        this.text(event.type, event.text);
        break;
      case "graph":
        this.graph(event);
        break;
      case "graph-too-large":
        this.message("warning", `Graph not drawn: ${event.text}.`);
        break;
      case "notice":
        this.message("notice", event.text);
        break;
    }
  }

  text(kind, text) {
    if (!this.lastText || this.lastText.dataset.kind !== kind) {
      this.lastText = element("pre", `text ${kind}`);
      this.lastText.dataset.kind = kind;
      this.append(this.lastText);
    }
    this.lastText.append(text); // a new text node: no re-layout of what is already there
  }

  message(kind, text) {
    this.append(element("p", `message ${kind}`, text));
  }

  error({ type, message, traceback }) {
    const box = element("div", "message error");
    box.append(element("strong", "error-title", `${type}: ${message}`));
    if (traceback) box.append(element("pre", "traceback", traceback));
    this.append(box);
  }

  graph({ dot, nodes, title }) {
    const parts = graphCard({ title, nodes });
    this.append(parts.card);
    const done = this.renderer.render(dot).then(
      async ({ svg, fill }) => {
        const view = showGraph(parts, svg, dot);
        await fill();
        view.showOutput();
      },
    ).catch((error) => parts.view.replaceChildren(element("p", "message error", `Could not draw this graph: ${error.message}`)));
    this.drawing.push(done);
  }

  /** Resolves once every graph of the current run is in the page. */
  settled() {
    return Promise.all(this.drawing);
  }

  append(node) {
    if (!node.matches("pre.text")) this.lastText = null;
    if (!this.section) this.startRun();
    this.section.append(node);
    if (this.follow) node.scrollIntoView({ block: "nearest" });
  }

  clear() {
    this.root.replaceChildren();
    this.section = null;
  }
}
