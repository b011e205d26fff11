// A cell's own data, the learner's points (formats/points.js says what they are), kept while the page is open:
// the chart, the point editor, the saved code and each run read and change them here.
import { validPoints } from "../formats/points.js";

/** The points of one cell: get(), set(points or null), subscribe(listener) (called with every change). */
export class PointStore {
  constructor(points = null, onChange = null) {
    this.points = validPoints(points);
    this.listeners = new Set(onChange ? [onChange] : []);
  }

  get() {
    return this.points;
  }

  set(points) {
    this.points = validPoints(points);
    for (const listener of this.listeners) listener(this.points);
  }

  subscribe(listener) {
    this.listeners.add(listener);
    return () => this.listeners.delete(listener);
  }
}
