// embed.html: one cell for pages that allow only iframes. Options live in the URL fragment:
//   code=<as in share links> [points=<as in share links>] | example=<file in examples/>, readonly, hide-editor,
//   autorun, theme=light|dark
// Autorun is honoured only inside a frame: a link opened at the top level never runs by itself.
import "./page-language.js"; // first: the page in the reader's language, before the modules after it fill it in
import { Cell } from "../cell/cell.js";
import { buildCellView } from "../cell/cell-view.js";
import { EXAMPLES, FIRST_EXAMPLE, exampleText } from "./examples.js";
import { reportHeight } from "./frame-height.js";
import { t } from "../i18n/messages.js";
import { registerServiceWorker } from "../offline/offline.js";
import { Session } from "../session/session.js";
import { playgroundLink } from "./playground-link.js";
import { decodeCode, decodePoints, fragmentOptions } from "../formats/share-link.js";

const options = fragmentOptions(location.hash);
const theme = ["light", "dark"].includes(options.get("theme")) ? options.get("theme") : "auto";
const parts = buildCellView(document.querySelector("main"), { theme, collapsed: options.has("hide-editor") }); // a landmark
reportHeight();

let code;
let points = null;
let problem = null;
try {
  code = options.has("code") ? await decodeCode(options.get("code")) : await exampleText(options.get("example") || EXAMPLES[0].file);
  points = await decodePoints(options.get("points"));
} catch (error) {
  problem = t("{reason} The first example is shown instead.", { reason: error.message });
  code = FIRST_EXAMPLE; // its page's bundle carries it
}

const session = new Session();
const cell = new Cell({ session, parts, code, points, readOnly: options.has("readonly") });
if (problem) {
  cell.output.startRun();
  cell.output.message("warning", problem);
}

parts.tools.append(playgroundLink(() => cell.getText(), () => cell.points.get()));
document.addEventListener("pointerover", () => session.start(), { once: true });
document.addEventListener("focusin", () => session.start(), { once: true });

if (options.has("autorun")) {
  if (window.top !== window) {
    cell.run();
  } else {
    cell.output.startRun();
    cell.output.message("notice", t("This link asks to run its code at once. Code from a link runs only when you press Run."));
  }
}
// In a frame on another site, storage is partitioned by that site: precaching there would download the
// whole site once per embedding blog, so only a top-level embed.html registers the service worker.
if (window.top === window) registerServiceWorker(session).catch(() => {});
window.playground = { cell, session };
