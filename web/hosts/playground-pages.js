// Where a cell's "Open in playground ↗" and "Open as notebook ↗" go: the playground an author names
// (`playground=URL` on embed.js's query, or `data-playground-url` on a cell or an element around it), else
// this site's own index.html and notebook.html where it serves them (`servesPages`: embed.js says whether it does).

const SITE = new URL("../", import.meta.url);

/** {index, notebook}: the two pages' URLs for a cell in `element`, or null where there are none to open. */
export function playgroundPages(element, named, servesPages) {
  const address = element?.closest?.("[data-playground-url]")?.dataset.playgroundUrl || named;
  let base = servesPages ? SITE : null;
  try {
    if (address) base = new URL(address, document.baseURI);
    if (address && !/(\/|\.\w+)$/.test(base.pathname)) base.pathname += "/"; // …/playground names a folder
  } catch {
    // an address that does not parse names nothing
  }
  if (!base || !/^https?:$/.test(base.protocol)) return null;
  return { index: new URL(/\.html?$/.test(base.pathname) ? base : "index.html", base).href, notebook: new URL("notebook.html", base).href };
}
