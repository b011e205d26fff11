// Lays out DOT with viz.js off the main thread, so the page stays responsive on big graphs.
// Replies in Promise.allSettled's shape: {id, status: "fulfilled", value} or {id, status: "rejected", reason}.
import { instance } from "./vendor/viz.js";

const vizReady = instance();

self.onmessage = async ({ data: { id, dot } }) => {
  try {
    const viz = await vizReady;
    const result = viz.render(dot, { format: "svg" });
    if (result.status === "success") {
      self.postMessage({ id, status: "fulfilled", value: result.output });
    } else {
      const messages = result.errors.map((e) => e.message.trim()).filter(Boolean);
      self.postMessage({ id, status: "rejected", reason: messages.join("\n") || "Graphviz could not lay out this graph" });
    }
  } catch (error) {
    self.postMessage({ id, status: "rejected", reason: String(error && error.message ? error.message : error) });
  }
};
