// notebook.html: opens a Jupyter notebook or a Markdown lesson (a file, a dropped file, `#url=URL`, or `#nb=`
// from an article's "Open as notebook"), shows its Markdown and its code cells (article cells, one env) and
// its exercises, runs them, keeps the learner's changes in this browser, and saves it again as .ipynb: the
// file as it came, with the sources edited here and the outputs of each cell's last run (a lesson also as
// the .md it came from, edits in place). An nbgrader assignment checks itself (assignment.js).
import "./page-language.js"; // first: the page in the reader's language, before the modules after it fill it in
import { hostedCell } from "./cell-host.js";
import { makeExercise } from "../cell/exercise.js";
import { isLesson, parseLesson, savedLessonText } from "../formats/markdown-lesson.js";
import { NotebookKeeper } from "./notebook-keeper.js";
import { attachAssignment } from "../notebook/assignment.js";
import { BadNotebook, parseNotebook, pointsOf, samePoints, savedNotebookText, withAttachments, withPoints } from "../formats/ipynb.js";
import { outputsOf } from "../notebook/run-outputs.js";
import { isAssignment, isSource, roleOf, studentMetadata, studentVersion } from "../formats/nbgrader.js";
import { fingerprint } from "../notebook/stored-notebooks.js";
import { EnvCells } from "../cell/env-cells.js";
import { byTestId, element } from "../dom/element.js";
import { registerServiceWorker } from "../offline/offline.js";
import { NOTEBOOK_HTML } from "../notebook/notebook-html.js";
import { showSavedOutputs } from "../notebook/saved-outputs.js";
import { Session } from "../session/session.js";
import { decodeCode } from "../formats/share-link.js";
import DOMPurify from "../vendor/purify.es.mjs";
import { quizOfMetadata } from "../formats/exercise-markers.js";
import { markdownHint } from "./exercise-blocks.js";
import { t, tn } from "../i18n/messages.js";

const MAX_BYTES = 50e6;

const session = new Session();
const purify = DOMPurify(window);
const view = byTestId("notebook");
const heading = document.querySelector("h1");
const message = byTestId("notebook-message");
const fileInput = byTestId("notebook-file");
const runAllButton = byTestId("run-all");
const downloadButton = byTestId("download-notebook");
const downloadMarkdownButton = byTestId("download-markdown");
const scoreBox = byTestId("assignment-score");

// {name, key, url, original, revertTo, json, entries, envCells, codeCells, env, student}; entries are the
// cells shown, each {index, type, source, outputs, json, role, gradeId, points, shown, solution, hidden,
// kept (its change from storage), cell?, host?, parts?}.
let current = null;
let opened = 0; // each notebook opened gets an env of its own: nothing of one reaches the next
let openings = 0; // open() calls: one that a later one overtakes shows nothing
let handIn = null; // Hand in and its status, for a notebook the room handed out
const keeper = new NotebookKeeper({
  status: byTestId("storage-status"),
  recent: byTestId("recent-notebooks"),
  revert: byTestId("revert-notebook"),
  onReopen: (record) => open(record.original, record.name, { key: record.key, url: record.url, kept: record }),
  onRevert: () => current && open(current.revertTo, current.name, { key: current.key, url: current.url }),
});

function say(text, kind = "notice") {
  message.textContent = text;
  message.dataset.kind = kind;
}

/**
 * Opens the notebook `text`. `key` names it in this browser's storage (the same file or URL, the same key);
 * `kept`, a stored record, brings back the learner's changes; `revertTo` is what Revert opens.
 */
async function open(text, name, { key = `file:${name}:${fingerprint(text)}`, url = null, kept = null, revertTo = text } = {}) {
  let shown;
  const opening = ++openings;
  try {
    if (text.length > MAX_BYTES) throw new BadNotebook(t("{name} is {size} MB, more than this page opens.", { name, size: (text.length / 1e6).toFixed(0) }));
    const parsed = isLesson(name) ? parseLesson(text, name) : parseNotebook(text, name);
    shown = await build(parsed, name, kept, key);
  } catch (error) {
    const why = error instanceof BadNotebook ? error.message : t("{name} could not be shown: {error}.", { name, error: error.message });
    if (opening === openings) say(t("{why} The notebook that was open stays open.", { why }), "error");
    return;
  }
  if (opening !== openings) return; // the learner opened another notebook meanwhile
  // Only now does the notebook that was open go: stop what it was running, forget its names.
  if (current) {
    current.closed = true;
    for (const cell of current.codeCells) cell.stop();
    session.reset(current.env);
  }
  const { nodes, ...rest } = shown;
  view.replaceChildren(...nodes);
  current = { name, key, url, original: text, revertTo, ...rest };
  downloadMarkdownButton.hidden = !rest.lesson;
  offerHandIn(current);
  if (rest.assignment) attachAssignment(rest.entries.filter((entry) => entry.cell), scoreBox, () => keeper.changed());
  else scoreBox.hidden = true;
  const shownNow = current;
  keeper.opened({ key, name, url, original: text, changes: () => [...changesOf(shownNow)] }, Boolean(kept?.touched));
  document.title = `${name} · Backprop Playground`;
  runAllButton.disabled = downloadButton.disabled = false;
  heading.textContent = name.replace(/\.(ipynb|md|markdown)$/i, "");
  const back = kept ? `${t("Your work on {name} is back from this browser: Revert to the original discards it.", { name })} ` : "";
  const changedSince = kept && revertTo !== text ? `${t("The notebook at its address has changed since: Revert opens the new version.")} ` : "";
  const tests = rest.entries.filter((entry) => entry.role === "test").length;
  const what = rest.assignment
    ? `${t("An assignment: {tests} check the answers and score them.", { tests: tn("{count} test cell", "{count} test cells", tests, { count: tests }) })} `
    : "";
  const exercises = current.entries.filter((entry) => entry.exercise).length;
  const checked = exercises ? `${t("{exercises}, checked by its own Run", { exercises: tn("{count} exercise", "{count} exercises", exercises, { count: exercises }) })}, ` : "";
  const code = current.codeCells.length;
  const markdown = current.entries.length - current.codeCells.length - exercises;
  const opened = t("Opened {name}: {code}, {checked}{markdown}.", {
    name,
    code: tn("{count} code cell", "{count} code cells", code, { count: code }),
    checked,
    markdown: tn("{count} Markdown cell", "{count} Markdown cells", markdown, { count: markdown }),
  });
  say(`${back}${changedSince}${opened} ${what}${t("Run a cell, or Run all. Shift+Enter runs a cell and moves to the next.")}`);
  session.start();
  performance.mark("notebook-shown"); // read by bench/notebook.py
}

/**
 * A notebook the room handed out (opened from room.html) gets Hand in, once the page has joined the room:
 * it sends what Download .ipynb would save. Anywhere else nothing is loaded for it.
 */
function offerHandIn(shown) {
  handIn?.remove();
  handIn = null;
  if (!shown.url?.includes("/classroom/release/")) return;
  Promise.all([import("../room/classroom.js"), import("../room/hand-in.js")]).then(async ([{ joinClassroom }, { attachHandIn, handedOut }]) => {
    const handout = handedOut(shown.url);
    const learner = handout && (await joinClassroom());
    if (!learner || current !== shown) return;
    handIn = attachHandIn(downloadMarkdownButton, learner, handout, () => savedNotebookText(shown.json, changesOf(shown)));
  });
}

/** The notebook's cells as elements, not yet in the page (a notebook that fails to show changes nothing). */
async function build(parsed, name, kept, key) {
  const { renderMarkdown } = await import("../notebook/markdown.bundle.js");
  const assignment = isAssignment(parsed.cells.map((entry) => entry.json));
  // A teacher's source version opens as the student version: solutions and hidden tests are kept, unseen.
  const student = assignment && isSource(parsed.cells.map((entry) => entry.source));
  const keptChanges = new Map(kept?.changes ?? []);
  const entries = parsed.cells.map((entry, i) => {
    let version;
    try {
      version = studentVersion(entry.json, entry.source, student);
    } catch (error) {
      throw new BadNotebook(t("{name} is not a valid nbgrader assignment: in its cell {number}, {error}.", { name, number: i + 1, error: error.message }));
    }
    return { ...entry, ...roleOf(entry.json), ...version, kept: keptChanges.get(entry.index) ?? null };
  });
  opened += 1;
  const env = `notebook-${opened}`;
  const envCells = new EnvCells(session);
  const codeCells = [];
  let exercises = 0;
  const nodes = entries.map((entry) => {
    if (entry.type === "markdown") return markdownCell(entry, renderMarkdown);
    if (entry.exercise) {
      // An exercise runs on its own, as on the course, and keeps its progress with this notebook.
      exercises += 1;
      const exercise = { ...entry.exercise, hints: entry.exercise.hints.map(markdownHint) }; // a lesson's hints are Markdown
      const { host, cell } = makeExercise(exercise, session,
        { name: t("Exercise {number}", { number: exercises }), place: key, code: entry.kept?.source, onChange: () => keeper.changed() });
      cell.onResult(() => keeper.changed());
      Object.assign(entry, { cell, host });
      return host;
    }
    const { host, cell, parts } = hostedCell({
      session,
      envCells,
      code: entry.kept?.source ?? entry.shown,
      env,
      name: `[${codeCells.length + 1}]`,
      locked: entry.role === "test" || entry.role === "locked",
      // A test cell runs as the teacher wrote it, hidden tests too, and is scored as nbgrader scores it.
      request: entry.role === "test" ? () => ({ code: entry.source, test: { hidden: entry.hidden } }) : undefined,
      onChange: () => keeper.changed(),
      // The learner's own points and an author's quiz mode live in the cell's metadata (ipynb.js, markdown-lesson.js).
      quiz: entry.quiz ?? quizOfMetadata(entry.json.metadata),
      points: pointsOf(entry.kept?.metadata ?? entry.json.metadata),
      onPointsChange: () => keeper.changed(),
      onAdvance: (target) => {
        envCells.run(target);
        codeCells[codeCells.indexOf(target) + 1]?.focus();
      },
    });
    cell.onResult(() => keeper.changed());
    if (entry.role === "test" || entry.role === "locked") parts.tools.append(element("span", "cell-note", t("Read-only")));
    // A source notebook's saved outputs may show its solutions: the student version has none.
    showSavedOutputs(parts.output, entry.kept?.outputs ?? (student ? [] : entry.outputs));
    Object.assign(entry, { cell, host, parts });
    codeCells.push(cell);
    return host;
  });
  return { nodes, json: parsed.json, entries, envCells, codeCells, env, assignment, student, lesson: parsed.blocks ? parsed : null };
}

function markdownCell(entry, renderMarkdown) {
  const box = document.createElement("div");
  box.className = entry.raw ? "markdown-cell raw" : "markdown-cell";
  box.dataset.testid = "markdown-cell";
  if (entry.raw) {
    const pre = document.createElement("pre");
    pre.textContent = entry.shown;
    box.append(pre);
  } else {
    // Raw HTML in a Markdown cell is allowed, then cleaned: no scripts, no <style> that would restyle the page.
    const text = withAttachments(entry.shown, entry.json.attachments);
    box.append(purify.sanitize(renderMarkdown(text), { ...NOTEBOOK_HTML, RETURN_DOM_FRAGMENT: true }));
  }
  return box;
}

/**
 * What changed in the open notebook, as savedNotebookText takes it: edited sources, the outputs of cells
 * that ran here (numbered in order) or ran before a reload, and, for a source notebook, its student version.
 */
function changesOf({ entries, student }) {
  const changes = new Map();
  let count = 0;
  for (const entry of entries) {
    const change = {};
    const text = entry.cell ? entry.cell.getText() : entry.shown;
    if (text !== entry.source) change.source = text;
    if (entry.cell?.output.runs > 0) Object.assign(change, { outputs: outputsOf(entry.cell.output.section), executionCount: ++count });
    else if (entry.kept?.outputs) Object.assign(change, { outputs: entry.kept.outputs, executionCount: entry.kept.executionCount == null ? null : ++count });
    else if (student && entry.cell) Object.assign(change, { outputs: [], executionCount: null });
    if (student && entry.role) change.metadata = studentMetadata(entry.json);
    const points = entry.cell?.points.get() ?? null;
    if (!samePoints(points, pointsOf(entry.json.metadata))) change.metadata = withPoints(change.metadata ?? entry.json.metadata, points);
    if (Object.keys(change).length) changes.set(entry.index, change);
  }
  return changes;
}

async function runAll() {
  if (!current) return;
  const running = current;
  const { envCells, codeCells } = running;
  runAllButton.disabled = true;
  say(tn("Running {count} cell…", "Running {count} cells…", codeCells.length, { count: codeCells.length }));
  try {
    const { failed, stopped } = await envCells.runAll(codeCells, () => running.closed);
    if (running.closed) return; // another notebook was opened meanwhile: its message stays
    const numbers = failed.map((cell) => codeCells.indexOf(cell) + 1);
    if (stopped) say(t("Stopped at cell {number}: the cells after it did not run.", { number: numbers.at(-1) }), "warning");
    else if (failed.length) {
      say(tn("Ran all {count} cells; cell {cells} failed (see the output under each). The cells after a failed one ran anyway, as in Jupyter.",
        "Ran all {count} cells; cells {cells} failed (see the output under each). The cells after a failed one ran anyway, as in Jupyter.",
        failed.length, { count: codeCells.length, cells: numbers.join(", ") }), "warning");
    } else say(tn("Ran all {count} cell.", "Ran all {count} cells.", codeCells.length, { count: codeCells.length }));
  } finally {
    runAllButton.disabled = false;
  }
}

function download() {
  if (!current) return;
  const base = current.name.replace(/\.(ipynb|md|markdown)$/i, "");
  save(savedNotebookText(current.json, changesOf(current)), `${base}.ipynb`, "application/x-ipynb+json");
}

/** A lesson as the .md it came from, with the learner's code in place. */
function downloadMarkdown() {
  if (!current?.lesson) return;
  save(savedLessonText(current.lesson, changesOf(current)), /\.(md|markdown)$/i.test(current.name) ? current.name : `${current.name}.md`, "text/markdown");
}

function save(text, name, type) {
  const link = document.createElement("a");
  link.href = URL.createObjectURL(new Blob([text], { type }));
  link.download = name;
  link.click();
  setTimeout(() => URL.revokeObjectURL(link.href), 60_000);
}

async function openFile(file) {
  if (!file) return;
  say(t("Opening {name}…", { name: file.name }));
  await openKept(await file.text(), file.name, `file:${file.name}`);
}

/** Opens `text`, or the learner's changed copy of it if this browser kept one. */
async function openKept(text, name, prefix) {
  const key = `${prefix}:${fingerprint(text)}`;
  const stored = await keeper.stored(key);
  await open(text, name, { key, kept: stored?.touched ? stored : null });
}

/** `#url=URL` (relative, or any host that sends CORS headers) or `#nb=` (a notebook in the link itself). */
async function openFromFragment() {
  const fragment = new URLSearchParams(location.hash.slice(1));
  if (fragment.has("nb")) {
    try {
      await openKept(await decodeCode(fragment.get("nb")), fragment.get("name") || "article.ipynb", "link");
    } catch (error) {
      say(t("This link's notebook could not be read: {error}", { error: error.message }), "error");
    }
    return;
  }
  if (!fragment.has("url")) return;
  const address = fragment.get("url");
  let url;
  try {
    url = new URL(address, location.href);
  } catch {
    say(t('"{address}" is not a URL.', { address }), "error");
    return;
  }
  say(t("Downloading {url}…", { url: url.href }));
  const key = `url:${url.href}`;
  const stored = await keeper.stored(key);
  const kept = stored?.touched ? stored : null;
  let response;
  try {
    response = await fetch(url, { credentials: "omit" });
  } catch {
    if (kept) return open(kept.original, kept.name, { key, url: url.href, kept });
    say(t("Could not download {url}: the host is unreachable, or it does not let other sites read the file (it must send CORS headers). Download the notebook and open it with Open notebook… instead.", { url: url.href }), "error");
    return;
  }
  if (!response.ok) {
    if (kept) return open(kept.original, kept.name, { key, url: url.href, kept });
    say(t("Could not download {url}: the host answered {status}.", { url: url.href, status: `${response.status} ${response.statusText}` }), "error");
    return;
  }
  const text = await response.text();
  if (kept) await open(kept.original, kept.name, { key, url: url.href, kept, revertTo: text });
  else await open(text, fileName(url), { key, url: url.href });
}

/** A visit with nothing to open brings back the notebook the learner worked on last. */
async function openLatest() {
  if (new URLSearchParams(location.hash.slice(1)).size) return openFromFragment();
  const latest = await keeper.latest();
  await keeper.listRecent();
  if (latest && openings === 0) await open(latest.original, latest.name, { key: latest.key, url: latest.url, kept: latest });
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
downloadMarkdownButton.addEventListener("click", downloadMarkdown);
addEventListener("dragover", (event) => event.preventDefault());
addEventListener("drop", (event) => {
  event.preventDefault();
  openFile(event.dataTransfer?.files?.[0]);
});
addEventListener("hashchange", openFromFragment);
openLatest();
// Assignments report their test results to a classroom, when this site is served as one.
import("../room/classroom.js").then(({ joinClassroom }) => joinClassroom());
addEventListener("load", () => registerServiceWorker(session).catch(() => {}));
