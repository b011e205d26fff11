// Starts a module worker from a URL on this site, even when the page is on another origin (a blog
// that uses embed.js): browsers refuse `new Worker(url)` across origins, so there the worker is a
// same-origin blob that imports the real module by its absolute URL (the site must send CORS headers).

export function startModuleWorker(url) {
  const href = new URL(url).href;
  if (new URL(href).origin === self.location.origin) return new Worker(href, { type: "module" });
  const trampoline = new Blob([`import ${JSON.stringify(href)};`], { type: "text/javascript" });
  const blobUrl = URL.createObjectURL(trampoline);
  const worker = new Worker(blobUrl, { type: "module" });
  setTimeout(() => URL.revokeObjectURL(blobUrl), 10_000);
  return worker;
}
