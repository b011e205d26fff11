// The main page: one cell bound to the page's own markup, plus examples, Clear, Share, Embed,
// and code that arrives by link (never run until Run is pressed).
import { Cell } from "../cell/cell.js";
import { byTestId } from "../dom/element.js";
import { EXAMPLES, FIRST_EXAMPLE, exampleText } from "./examples.js";
import { registerServiceWorker, tellInstallOfRuns } from "../offline/offline.js";
import { codeAside, pointsAside, putCodeAside, putPointsAside, saveCode, savedCode, savedPoints, savePoints } from "../cell/saved-code.js";
import { showEmbedCode, showShareLink } from "./share-panel.js";
import { BadLink, decodeCode, decodePoints, fragmentOptions, linkWithCode } from "../formats/share-link.js";
import { session } from "./start-python.js";
import { t } from "../i18n/messages.js";
import { languageMenu } from "./language-menu.js";

const $ = byTestId;
const examples = $("examples");
const notice = $("notice");

function showNotice(text, actions = [], kind = "info") {
  notice.dataset.kind = kind;
  notice.querySelector(".banner-text").textContent = text;
  const buttons = actions.map(([label, action]) => {
    const b = document.createElement("button");
    b.type = "button";
    b.textContent = label;
    b.addEventListener("click", () => {
      notice.hidden = true;
      action();
    });
    return b;
  });
  notice.querySelector(".banner-actions").replaceChildren(...buttons);
  notice.hidden = false;
}

/**
 * Code from a link replaces the editor's and does not run. The editor's code is put aside, unless code
 * is already aside: that is the learner's own, from before an earlier link, and is never replaced.
 */
async function openLink(options) {
  history.replaceState(null, "", location.pathname + location.search); // a reload keeps later edits
  const before = savedCode();
  const beforePoints = savedPoints();
  let opened;
  try {
    const [code, points] = [await decodeCode(options.get("code")), await decodePoints(options.get("points"))];
    opened = { code, points, message: t("This code came from a link. It has not run: read it, then press Run.") };
  } catch (error) {
    if (!(error instanceof BadLink)) throw error;
    opened = { code: FIRST_EXAMPLE, points: null, message: t("{reason} The first example is shown instead.", { reason: error.message }), bad: true };
  }
  if (before !== null && before.trim() && before !== opened.code && codeAside() === null) {
    putCodeAside(before);
    putPointsAside(beforePoints);
  }
  saveCode(opened.code);
  savePoints(opened.points);
  return opened;
}

// The code to open with: a link's, or the saved work, or the first example. Only a link's is awaited: otherwise the
// cell is made before the page is first drawn (in English: another language's catalogue is fetched first, in
// i18n/messages.js, and the page is drawn while it comes).
const fragment = fragmentOptions(location.hash);
const opened = fragment.has("code") ? await openLink(fragment) : { code: savedCode() ?? FIRST_EXAMPLE, points: savedPoints() };
const cell = new Cell({
  session,
  parts: { editorHost: document.getElementById("editor"), run: $("run"), stop: $("stop"), status: $("status"), output: $("output") },
  code: opened.code,
  follow: true,
  onChange: saveCode,
  points: opened.points,
  onPointsChange: savePoints,
  editorLater: true,
});
performance.mark("code-editable"); // in the text area; bench/page.py reads both marks
cell.editorReady.then((editor) => editor && performance.mark("editor-made"));

// The editor (CodeMirror: about 150 ms of this thread to load and make) is made once Python is ready and no run
// is on, or as soon as the learner reaches for the code, which until then is a plain text area. Made while Python
// started, it slowed the start by about 60 ms: on two cores that start is bound by the processor as a whole
// (bench/python_start.py).
function makeEditorWhenFree() {
  const { phase } = session.state;
  if (phase !== "ready" && phase !== "failed") return; // called again as the session changes and as runs end
  setTimeout(() => cell.busy || cell.makeEditor()); // a run's listeners are called before the cell is idle again
}
session.subscribe(makeEditorWhenFree);
cell.onResult(makeEditorWhenFree);
makeEditorWhenFree();

function offerRestore({ message, bad }) {
  const aside = codeAside();
  const actions = aside === null ? [] : [
    [t("Restore my earlier code"), () => {
      cell.setText(aside);
      cell.points.set(pointsAside());
      putCodeAside(null);
      putPointsAside(null);
    }],
    [t("Keep this"), () => {
      putCodeAside(null);
      putPointsAside(null);
    }],
  ];
  const text = [message, aside === null ? "" : t("Your earlier code was put aside, not lost.")].filter(Boolean).join(" ");
  if (text) showNotice(text, actions, bad ? "bad" : "info");
}
offerRestore(opened);

window.addEventListener("hashchange", async () => {
  const options = fragmentOptions(location.hash);
  if (!options.has("code")) return;
  const link = await openLink(options);
  cell.setText(link.code);
  cell.points.set(link.points);
  offerRestore(link);
});

document.addEventListener("keydown", (event) => {
  if (event.key === "Escape" && cell.busy) cell.stop();
});
$("clear").addEventListener("click", () => cell.output.clear());
languageMenu($("language"));

for (const { file, title } of EXAMPLES) examples.append(new Option(title, file));
examples.addEventListener("change", async () => {
  const file = examples.value;
  examples.value = "";
  if (!file) return;
  try {
    cell.setText(await exampleText(file));
    cell.focus();
  } catch (error) {
    showNotice(t("Could not load the example: {reason}", { reason: error.message }), [], "bad");
  }
});

$("share").addEventListener("click", async () => showShareLink(await linkWithCode(location.href, cell.getText(), cell.points.get())));
$("embed").addEventListener("click", async () => {
  const code = cell.getText();
  showEmbedCode({ iframe: await linkWithCode(new URL("embed.html", location.href), code, cell.points.get()), script: new URL("embed.js", location.href).href, code });
});

// The service worker fetches and hashes the whole site (41 MB) to keep it offline. It starts once Python is
// up and no run has ended for a moment, so that it slows neither the start nor a reader's first Runs; while it
// installs, it pauses whenever a run is under way (offline.js tells it).
const QUIET_MS = 2000;
let registered = false;
let quiet = null;
function registerWhenQuiet() {
  clearTimeout(quiet);
  if (registered || session.state.phase !== "ready") return;
  quiet = setTimeout(() => {
    if (cell.busy) return; // the run's end calls this again
    registered = true;
    registerServiceWorker(session).catch((error) => console.warn("offline use is not available:", error));
  }, QUIET_MS);
}
tellInstallOfRuns(session);
session.subscribe(registerWhenQuiet);
cell.onResult(registerWhenQuiet);

// For the browser console and the tests' diagnostics; `editor` is null until it is made (cell.setText works before).
window.playground = { cell, session, get editor() { return cell.editor; } };
