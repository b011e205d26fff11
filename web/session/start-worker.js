// Starts a module worker from a URL on this site, even when the page is on another origin (a blog
// that uses embed.js): browsers refuse `new Worker(url)` across origins, so there the worker is a
// same-origin blob that imports the real module by its absolute URL (the site must send CORS headers).
// A worker started ahead (startAhead) is what the first startModuleWorker of its URL returns.

const ahead = new Map(); // absolute URL -> { worker, error: its first error event, if one came before it was taken }
const started = new Set(); // the URLs startModuleWorker was asked for: one started ahead after that is not needed

/**
 * Starts the worker at `url` (this origin's) now, before the module that will use it has loaded, so that its
 * own modules load meanwhile; it waits for its first message, which the taker sends.
 */
export function startAhead(url) {
  const href = new URL(url).href;
  if (ahead.has(href) || started.has(href) || new URL(href).origin !== self.location.origin) return;
  try {
    const early = { worker: new Worker(href, { type: "module" }), error: null };
    early.worker.addEventListener("error", (event) => {
      event.preventDefault(); // said by the taker, as its own worker's errors are
      early.error ??= event;
    });
    ahead.set(href, early);
  } catch {
    // a browser without module workers: startModuleWorker says so when the page starts Python
  }
}

export function startModuleWorker(url) {
  const href = new URL(url).href;
  started.add(href);
  const early = ahead.get(href);
  if (early) {
    ahead.delete(href);
    // An error that came before the taker listened (the script could not be loaded) comes again once it does.
    const { worker, error } = early;
    if (error) setTimeout(() => worker.dispatchEvent(new ErrorEvent("error", { message: error.message })));
    return worker;
  }
  if (new URL(href).origin === self.location.origin) return new Worker(href, { type: "module" });
  const trampoline = new Blob([`import ${JSON.stringify(href)};`], { type: "text/javascript" });
  const blobUrl = URL.createObjectURL(trampoline);
  const worker = new Worker(blobUrl, { type: "module" });
  setTimeout(() => URL.revokeObjectURL(blobUrl), 10_000);
  return worker;
}
