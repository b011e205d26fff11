// notebook.html: opens a Jupyter notebook (a file, a dropped file, `#url=URL`, or `#nb=` from an article's
// "Open as notebook"), shows its Markdown and its code cells (article cells, one env), runs them, and
// saves it again as .ipynb with the outputs of each cell's last run.
import { hostedCell } from "./cell-host.js";
import { BadNotebook, notebookText, outputsOf, parseNotebook } from "../notebook/ipynb.js";
import { Notebook } from "./notebook.js";
import { registerServiceWorker } from "../offline/offline.js";
import { NOTEBOOK_HTML, showSavedOutputs } from "../notebook/saved-outputs.js";
import { Session } from "../session/session.js";
import { decodeCode } from "./share-link.js";
import DOMPurify from "../vendor/purify.es.mjs";

const MAX_BYTES = 50e6;

const session = new Session();
const purify = DOMPurify(window);
const byTestId = (id) => document.querySelector(`[data-testid="${id}"]`);
const view = byTestId("notebook");
const heading = document.querySelector("h1");
const message = byTestId("notebook-message");
const fileInput = byTestId("notebook-file");
const runAllButton = byTestId("run-all");
const downloadButton = byTestId("download-notebook");

let current = null; // {name, metadata, entries: [{type, source, outputs, cell?}], notebook, codeCells, env}
let opened = 0; // each notebook opened gets an env of its own: nothing of one reaches the next

function say(text, kind = "notice") {
  message.textContent = text;
  message.dataset.kind = kind;
}

async function open(text, name) {
  let shown;
  try {
    if (text.length > MAX_BYTES) throw new BadNotebook(`${name} is ${(text.length / 1e6).toFixed(0)} MB, more than this page opens.`);
    shown = await build(parseNotebook(text, name));
  } catch (error) {
    const why = error instanceof BadNotebook ? error.message : `${name} could not be shown: ${error.message}.`;
    say(`${why} The notebook that was open stays open.`, "error");
    return;
  }
  // Only now does the notebook that was open go: stop what it was running, forget its names.
  if (current) {
    current.closed = true;
    for (const cell of current.codeCells) cell.stop();
    session.reset(current.env);
  }
  const { nodes, ...rest } = shown;
  view.replaceChildren(...nodes);
  current = { name, ...rest };
  document.title = `${name} · Backprop Playground`;
  runAllButton.disabled = downloadButton.disabled = false;
  const count = (n, what) => `${n} ${what}${n === 1 ? "" : "s"}`;
  heading.textContent = name.replace(/\.ipynb$/, "");
  say(`Opened ${name}: ${count(current.codeCells.length, "code cell")}, ` +
    `${count(current.entries.length - current.codeCells.length, "Markdown cell")}. ` +
    "Run a cell, or Run all. Shift+Enter runs a cell and moves to the next.");
  session.start();
  performance.mark("notebook-shown"); // read by bench/notebook.py
}

/** The notebook's cells as elements, not yet in the page (a notebook that fails to show changes nothing). */
async function build(parsed) {
  const { renderMarkdown } = await import("../notebook/markdown.bundle.js");
  opened += 1;
  const env = `notebook-${opened}`;
  const notebook = new Notebook(session);
  const entries = parsed.cells.map((entry) => ({ ...entry }));
  const codeCells = [];
  const nodes = entries.map((entry) => {
    if (entry.type === "markdown") return markdownCell(entry, renderMarkdown);
    const { host, cell, parts } = hostedCell({
      session,
      notebook,
      code: entry.source,
      env,
      name: `[${codeCells.length + 1}]`,
      onAdvance: (target) => {
        notebook.run(target);
        codeCells[codeCells.indexOf(target) + 1]?.focus();
      },
    });
    showSavedOutputs(parts.output, entry.outputs);
    entry.cell = cell;
    codeCells.push(cell);
    return host;
  });
  return { nodes, metadata: parsed.metadata, entries, notebook, codeCells, env };
}

function markdownCell(entry, renderMarkdown) {
  const box = document.createElement("div");
  box.className = entry.raw ? "markdown-cell raw" : "markdown-cell";
  box.dataset.testid = "markdown-cell";
  if (entry.raw) {
    const pre = document.createElement("pre");
    pre.textContent = entry.source;
    box.append(pre);
  } else {
    // Raw HTML in a Markdown cell is allowed, then cleaned: no scripts, no <style> that would restyle the page.
    box.append(purify.sanitize(renderMarkdown(entry.source), { ...NOTEBOOK_HTML, RETURN_DOM_FRAGMENT: true }));
  }
  return box;
}

async function runAll() {
  if (!current) return;
  const running = current;
  const { notebook, codeCells } = running;
  runAllButton.disabled = true;
  say(`Running ${codeCells.length} ${codeCells.length === 1 ? "cell" : "cells"}…`);
  try {
    const { failed, stopped } = await notebook.runAll(codeCells, () => running.closed);
    if (running.closed) return; // another notebook was opened meanwhile: its message stays
    const numbers = failed.map((cell) => codeCells.indexOf(cell) + 1);
    if (stopped) say(`Stopped at cell ${numbers.at(-1)}: the cells after it did not run.`, "warning");
    else if (failed.length) {
      say(`Ran all ${codeCells.length} cells; ${failed.length === 1 ? "cell" : "cells"} ${numbers.join(", ")} failed ` +
        "(see the output under each). The cells after a failed one ran anyway, as in Jupyter.", "warning");
    } else say(`Ran all ${codeCells.length} ${codeCells.length === 1 ? "cell" : "cells"}.`);
  } finally {
    runAllButton.disabled = false;
  }
}

function download() {
  if (!current) return;
  const cells = current.entries.map((entry) => {
    if (entry.type === "markdown") return { type: entry.raw ? "raw" : "markdown", source: entry.source };
    const { cell } = entry;
    const ran = cell.output.runs > 0;
    return { type: "code", source: cell.getText(), ran, outputs: ran ? outputsOf(cell.output.section) : entry.outputs };
  });
  const text = notebookText({ cells, metadata: current.metadata }, session.state.version);
  const link = document.createElement("a");
  link.href = URL.createObjectURL(new Blob([text], { type: "application/x-ipynb+json" }));
  link.download = current.name.endsWith(".ipynb") ? current.name : `${current.name}.ipynb`;
  link.click();
  setTimeout(() => URL.revokeObjectURL(link.href), 60_000);
}

async function openFile(file) {
  if (!file) return;
  say(`Opening ${file.name}…`);
  await open(await file.text(), file.name);
}

/** `#url=URL` (relative, or any host that sends CORS headers) or `#nb=` (a notebook in the link itself). */
async function openFromFragment() {
  const fragment = new URLSearchParams(location.hash.slice(1));
  if (fragment.has("nb")) {
    try {
      await open(await decodeCode(fragment.get("nb")), fragment.get("name") || "article.ipynb");
    } catch (error) {
      say(`This link's notebook could not be read: ${error.message}`, "error");
    }
    return;
  }
  if (!fragment.has("url")) return;
  const address = fragment.get("url");
  let url;
  try {
    url = new URL(address, location.href);
  } catch {
    say(`"${address}" is not a URL.`, "error");
    return;
  }
  say(`Downloading ${url.href}…`);
  let response;
  try {
    response = await fetch(url, { credentials: "omit" });
  } catch {
    say(`Could not download ${url.href}: the host is unreachable, or it does not let other sites read the file ` +
      "(it must send CORS headers). Download the notebook and open it with Open notebook… instead.", "error");
    return;
  }
  if (!response.ok) {
    say(`Could not download ${url.href}: the host answered ${response.status} ${response.statusText}.`, "error");
    return;
  }
  await open(await response.text(), fileName(url));
}

function fileName(url) {
  const last = url.pathname.split("/").pop() || "notebook.ipynb";
  try {
    return decodeURIComponent(last);
  } catch {
    return last; // not valid percent-encoding: keep it as it is
  }
}

byTestId("open-notebook").addEventListener("click", () => fileInput.click());
fileInput.addEventListener("change", () => openFile(fileInput.files[0]).finally(() => (fileInput.value = "")));
runAllButton.addEventListener("click", runAll);
downloadButton.addEventListener("click", download);
addEventListener("dragover", (event) => event.preventDefault());
addEventListener("drop", (event) => {
  event.preventDefault();
  openFile(event.dataTransfer?.files?.[0]);
});
addEventListener("hashchange", openFromFragment);
openFromFragment();
addEventListener("load", () => registerServiceWorker().catch(() => {}));
