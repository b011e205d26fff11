// embed.html tells the page around it how tall it is; embed.js on that page sizes the iframe.
// The message: {type: "backprop-playground:height", height: <CSS pixels>}, posted to the parent.
const TYPE = "backprop-playground:height";
const SITE = new URL(import.meta.url).origin;
const MIN_HEIGHT = 60;
const MAX_HEIGHT = 8000;

export function reportHeight() {
  if (window.parent === window) return;
  let last = 0;
  new ResizeObserver(() => {
    const height = Math.ceil(document.documentElement.getBoundingClientRect().height);
    if (height !== last) window.parent.postMessage({ type: TYPE, height: (last = height) }, "*");
  }).observe(document.documentElement);
}

export function resizeFrames() {
  window.addEventListener("message", (event) => {
    if (event.origin !== SITE || event.data?.type !== TYPE) return;
    const height = Number(event.data.height);
    if (!Number.isFinite(height)) return;
    for (const frame of document.querySelectorAll("iframe")) {
      if (frame.contentWindow === event.source) frame.style.height = `${Math.min(Math.max(height, MIN_HEIGHT), MAX_HEIGHT)}px`;
    }
  });
}
