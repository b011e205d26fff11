// Starts a module worker from a URL on this site, even when the page is on another origin (a blog
// that uses embed.js): browsers refuse `new Worker(url)` across origins, so there the worker is a
// same-origin blob that imports the real module by its absolute URL (the site must send CORS headers).
export function startModuleWorker(url) {
  const worker = newModuleWorker(new URL(url).href);
  running.add(worker);
  const terminate = worker.terminate.bind(worker);
  worker.terminate = () => {
    running.delete(worker);
    terminate();
  };
  return worker;
}

const running = new Set();

/** Ends every worker the page started and has not ended: for a page that is about to leave (offline.js). */
export function endPageWorkers() {
  for (const worker of [...running]) worker.terminate();
}

function newModuleWorker(href) {
  if (new URL(href).origin === self.location.origin) return new Worker(href, { type: "module" });
  const trampoline = new Blob([`import ${JSON.stringify(href)};`], { type: "text/javascript" });
  const blobUrl = URL.createObjectURL(trampoline);
  const worker = new Worker(blobUrl, { type: "module" });
  setTimeout(() => URL.revokeObjectURL(blobUrl), 10_000);
  return worker;
}
