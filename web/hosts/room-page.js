// room.html: what the room's teacher hands out (DIR/release/ASSIGNMENT/FILE on their laptop), each file with
// its state for this learner: new, started (worked on in this browser), handed in, or with feedback. A
// notebook or a lesson opens in notebook.html, kept in this browser like any other; the teacher's feedback
// is fetched with this learner's key and shown in a sandboxed frame, where none of its scripts run.
import "./page-language.js"; // first: the page in the reader's language, before the modules after it fill it in
import { button, byTestId, element } from "../dom/element.js";
import { loadNotebook } from "../notebook/stored-notebooks.js";
import { fetchAsLearner, joinClassroom } from "../room/classroom.js";
import { refusedHandIns, startHandIns } from "../room/hand-in.js";
import { clock, t, tn } from "../i18n/messages.js";

const POLL_MS = 10_000;
// What notebook.html opens and Hand in sends back: a notebook or lesson at the top of its assignment, where
// nbgrader grades. Other files (data, a notebook in a subfolder) are downloaded.
const OPENS = /^[^/]+\.(ipynb|md|markdown)$/i;
const LABEL = { new: t("New"), started: t("Started"), waiting: t("Waiting to be sent"), refused: t("Not handed in"), "handed-in": t("Handed in"), feedback: t("Feedback") };

const message = byTestId("room-message");
const list = byTestId("handouts");
const feedback = byTestId("feedback");
const frame = byTestId("feedback-frame");
const items = new Map(); // "ASSIGNMENT/FILE" -> its <li>

function say(text, kind = "notice") {
  message.textContent = text;
  message.dataset.kind = kind;
}

async function start() {
  const learner = await joinClassroom();
  if (!learner) {
    say(t("This page lists the work a classroom hands out. It shows it when it comes from the teacher's laptop (build.py serve --classroom DIR): open the address your teacher gives, then room.html."), "error");
    return;
  }
  byTestId("feedback-close").addEventListener("click", () => {
    feedback.hidden = true;
    frame.srcdoc = "";
  });
  // Hand-ins left waiting (the server was away when Hand in was pressed) are sent from here too.
  const handIns = startHandIns();
  handIns.onChange = () => refresh(learner, handIns);
  const poll = async () => {
    await refresh(learner, handIns);
    setTimeout(poll, POLL_MS);
  };
  poll();
}

async function refresh(learner, handIns) {
  let room;
  try {
    room = await (await fetchAsLearner("classroom/handouts", learner)).json();
  } catch (error) {
    say(t("Could not reach the classroom's server ({error}); trying again…", { error: error.message }), "error");
    return;
  }
  const files = room.handouts.flatMap(({ assignment, files }) => files.map((file) => ({ assignment, file })));
  const refused = refusedHandIns(learner.key);
  const shown = new Set();
  for (const { assignment, file } of files) {
    const id = `${assignment}/${file}`;
    shown.add(id);
    const item = items.get(id) ?? listed(assignment, file, learner);
    items.set(id, item);
    await showState(item, id, room.mine, handIns.unsent.has(id), refused[id]);
  }
  // A hand-in refused after its file was withdrawn has no line of its own to show it.
  const unlisted = Object.entries(refused).filter(([id]) => !shown.has(id) && !handIns.unsent.has(id));
  const lost = unlisted.map(([id, { why }]) => t("Not handed in: {why}. Your work on it stays kept in this browser.", { why: why.startsWith(id) ? why : `${id} (${why})` }));
  const assignments = room.handouts.filter(({ files }) => files.length).length;
  say([files.length
    ? tn("{count} assignment from your teacher. Open one to work on it; Hand in sends it back.", "{count} assignments from your teacher. Open one to work on it; Hand in sends it back.", assignments, { count: assignments })
    : t("Nothing is handed out yet: your teacher puts the work in the room's release/ folder, and it shows here."), ...lost].join(" "),
  lost.length ? "error" : "notice");
  for (const [id, item] of items) {
    if (shown.has(id)) continue;
    item.remove();
    items.delete(id);
  }
  for (const section of list.querySelectorAll("section")) section.hidden = !section.querySelector("li");
}

/** The <li> of one handed-out file, under its assignment's heading. */
function listed(assignment, file, learner) {
  let section = [...list.children].find((one) => one.dataset.assignment === assignment);
  if (!section) {
    section = element("section");
    section.dataset.assignment = assignment;
    const heading = Object.assign(element("h2", "", assignment), { translate: false }); // the teacher's folder name
    section.append(heading, element("ul"));
    const after = [...list.children].find((one) => one.dataset.assignment > assignment);
    list.insertBefore(section, after ?? null);
  }
  const item = element("li", "handout");
  Object.assign(item.dataset, { testid: "handout", assignment, file });
  const address = `classroom/release/${[assignment, ...file.split("/")].map(encodeURIComponent).join("/")}`;
  item.dataset.url = new URL(address, location.href).href;
  const open = element("a", "open", OPENS.test(file) ? t("Open") : t("Download"));
  open.dataset.testid = "handout-open";
  if (OPENS.test(file)) open.href = `notebook.html#${new URLSearchParams({ url: address })}`;
  else Object.assign(open, { href: address, download: file.split("/").pop() });
  const see = button(t("See feedback"), { testid: "feedback-link", onClick: () => showFeedback(item, learner) });
  see.hidden = true;
  item.append(Object.assign(element("span", "handout-name", file), { translate: false }), element("span", "handout-state"), open, see);
  const ul = section.querySelector("ul");
  ul.insertBefore(item, [...ul.children].find((one) => one.dataset.file > file) ?? null);
  return item;
}

async function showState(item, id, mine, waiting, refused) {
  let state = "new";
  if (waiting) state = "waiting";
  else if (refused) state = "refused";
  else if (mine.feedback[id]) state = "feedback";
  else if (mine.handed_in[id]) state = "handed-in";
  else if (OPENS.test(item.dataset.file)) {
    const kept = await loadNotebook(`url:${item.dataset.url}`).catch(() => null); // storage blocked: "new"
    if (kept?.touched) state = "started";
  }
  item.dataset.state = state;
  item.dataset.feedback = mine.feedback[id] ?? "";
  const at = mine.handed_in[id];
  const label = state === "refused" ? `${LABEL.refused}: ${refused.why}` : LABEL[state];
  item.querySelector(".handout-state").textContent = at && ["handed-in", "feedback"].includes(state) ? `${label} · ${clock(at)}` : label;
  item.querySelector('[data-testid="feedback-link"]').hidden = !mine.feedback[id]; // a refused later hand-in keeps it
}

async function showFeedback(item, learner) {
  const { assignment, feedback: name } = item.dataset;
  const address = `classroom/feedback/${encodeURIComponent(assignment)}/${encodeURIComponent(name)}`;
  let html;
  try {
    html = await (await fetchAsLearner(address, learner)).text();
  } catch (error) {
    say(t("Your feedback could not be fetched ({error}).", { error: error.message }), "error");
    return;
  }
  feedback.querySelector("h2").textContent = t("Feedback on {file}", { file: `${assignment}/${item.dataset.file}` });
  frame.srcdoc = html;
  feedback.hidden = false;
  feedback.scrollIntoView({ block: "start" });
}

start();
