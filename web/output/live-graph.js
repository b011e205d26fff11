// A live graph: draw_dot(loss, live=True) in a training loop (playground_runtime.live). Its first event draws
// the card; each graph-update writes the new data and grads into the drawing in place (the layout stays
// still: only text and the weights' colours change); a drawing of the same shape (the end of the run's, with
// every teaching field) keeps the layout and brings its tools; a new shape is laid out again in the same card.
import { attachTeaching } from "./graph-teaching.js";
import { nameCard, valueCount } from "./graph-view.js";

export class LiveCard {
  constructor(list) {
    this.list = list; // the OutputList: its renderer, draw() and the run's drawings
    this.drawn = null; // {parts, view, teaching, layout, shape}
    this.shape = null; // the newest drawing's shape: updates of another shape are stale
    this.pending = null; // the newest update not written yet (updates arrive faster than a slow page draws)
    this.queue = Promise.resolve();
  }

  graph(event) {
    this.shape = event.shape;
    this.pending = null;
    this.queue = this.queue.then(() => this.draw(event)).catch(() => {});
    this.list.drawing.push(this.queue);
  }

  update(event) {
    if (event.shape !== this.shape) return;
    const queued = this.pending !== null;
    this.pending = event;
    if (queued) return;
    this.queue = this.queue.then(() => {
      const latest = this.pending;
      this.pending = null;
      if (latest && this.drawn && latest.shape === this.drawn.shape) this.drawn.teaching.update(latest.values, latest.explain);
    });
  }

  async draw(event) {
    const drawn = this.drawn;
    if (!drawn) {
      const first = await this.list.graph(event);
      if (first) this.drawn = { ...first, shape: event.shape };
      return;
    }
    const { parts, view, layout } = drawn;
    const before = drawn.teaching.state();
    const sameShape = event.shape === drawn.shape;
    let shownView = before.view;
    if (!sameShape) { // laid out again, in the same card
      shownView = event.view || "full";
      const dot = layout(event.dot);
      const { svg, fill } = await this.list.renderer.render(dot, event.groups?.[event.view]?.nodes ?? event.nodes);
      await fill();
      drawn.teaching.detach();
      view.replace(svg, dot);
      parts.card.querySelector(".graph-size").textContent = valueCount(event.nodes);
      nameCard(parts.card);
    } else {
      drawn.teaching.detach();
      const shownDot = shownView === "full" ? event.groups?.full?.dot ?? event.dot : event.groups?.[shownView]?.dot;
      if (shownDot) view.setDot(layout(shownDot));
    }
    drawn.shape = event.shape;
    drawn.teaching = attachTeaching({ card: parts.card, view, event: { ...event, dot: layout(event.dot) }, renderer: this.list.renderer, layout, shownView });
    drawn.teaching.update(event.table?.map((row) => [row.data, row.grad ?? null]) ?? [], event.explain);
    if (sameShape) drawn.teaching.reopen(before.explained, before.walked);
  }
}
