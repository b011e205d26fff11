// The main page's modules, in the order they run, bundled into one file (hosts/playground-page.bundle.js):
// one request instead of some fifty, so that the page's session, and with it the Python worker, starts
// as soon as that file is read. Every module's own URL (new URL(…, import.meta.url), import()) is written
// as "../folder/file", which resolves alike from the bundle's folder.
import "./page-language.js";
import "./start-python.js";
import "./main.js";
