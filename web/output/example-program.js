// Choose the example: the program that forwards one point of a boundary chart through the chart's model
// (playground_runtime.example). It is made of numbers alone, checked here: nothing a run sent as text
// reaches it, so no program's words are run by a click on a chart.
import { isModelNumbers } from "./boundary-scores.js";

const finite = (x) => typeof x === "number" && Number.isFinite(x);

/** The program for `spec` ({sizes, activation, parameters, point, label, index}), or null if it is not that. */
export function exampleProgram({ sizes, activation, parameters, point, label, index }) {
  const ok = isModelNumbers({ sizes, activation, parameters }) &&
    Array.isArray(point) && point.length === 2 && point.every(finite) && finite(label) && Number.isInteger(index) && index >= 0;
  if (!ok) return null;
  const spec = JSON.stringify({ sizes, activation, parameters, point, label, index });
  // A JSON string is a Python string literal too: only numbers, brackets, commas and the keys above are in it.
  return `from playground_runtime.example import forward_example\ndraw_dot(forward_example(${JSON.stringify(spec)}))\n`;
}
