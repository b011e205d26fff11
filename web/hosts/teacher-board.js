// teacher.html#token=…: the room's progress from the classroom server (classroom/progress), drawn as a
// table and polled every 2 s. Names, code and messages are learners' text: set as textContent, never run.
import "./page-language.js"; // first: the page in the reader's language, before the modules after it fill it in
import { byTestId } from "../dom/element.js";
import { clock, dateLocale, t, tn } from "../i18n/messages.js";

const POLL_MS = 2000;

const table = byTestId("progress");
const message = byTestId("board-message");
const detail = byTestId("student-detail");
const exportLink = byTestId("export");
const zips = byTestId("hand-ins-zips");
const network = byTestId("room-network");
const tokenOf = () => new URLSearchParams(location.hash.slice(1)).get("token") || "";
let token = tokenOf();
const SYMBOL = { passed: "✓", failed: "✗", "not-started": "–" };
// A result's state in words, as the board says it (its English is the state's name).
const STATE = { passed: t("passed"), failed: t("failed"), "not-started": t("not started") };
let selected = null; // {key, exercise}
let latest = null;

function say(text, kind = "notice") {
  message.textContent = text;
  message.dataset.kind = kind;
}

async function poll() {
  try {
    if (!token) {
      show(null);
      say(t("This board needs the teacher's link that `python build.py serve --classroom DIR` printed (teacher.html#token=…)."), "error");
      return;
    }
    const response = await fetch("classroom/progress", { headers: { Authorization: `Bearer ${token}` }, cache: "no-store" });
    if (response.status === 401) {
      show(null);
      say(t("This link's token is wrong: open the teacher's link that the server printed."), "error");
      return;
    }
    if (!response.ok) throw new Error(t("the server answered {status}", { status: response.status }));
    show(await response.json());
    const count = latest.students.length;
    say(tn("{count} learner · updated {time} · updates every {seconds} s", "{count} learners · updated {time} · updates every {seconds} s", count, { count, time: new Date().toLocaleTimeString(dateLocale), seconds: POLL_MS / 1000 }));
  } catch (error) {
    say(t("Could not reach the classroom server ({error}); trying again…", { error: error.message }), "error");
  } finally {
    setTimeout(poll, POLL_MS);
  }
}

// What learners' browsers can do, by how they reach the room (build.py serve; docs/classroom.md, "Classroom").
const MODES = {
  "plain-http": t("Learners reach this room over plain HTTP, on its network address. There their browsers run Python, exercises and notebooks and send their results, but keep no copy for offline use: a reload needs this laptop, and Stop restarts Python. Tell the class: open the page once this laptop is serving, and keep the tab open."),
  managed: t("Learners reach this room over plain HTTP, on devices whose policy treats it as secure: those keep the site for offline use after one visit, and Stop interrupts Python in place. Browsers without the policy get what plain HTTP gives."),
  https: t("Learners reach this room over HTTPS: browsers that trust its certificate keep the site for offline use after one visit, and Stop interrupts Python in place."),
};

function showRoom(room) {
  network.hidden = !room;
  if (!room) return;
  network.dataset.mode = room.mode;
  network.querySelector(".room-network-mode").textContent = MODES[room.mode] ?? "";
  const { learners, secure, offline, interrupt } = room.browsers;
  const counts = byTestId("room-browsers");
  Object.assign(counts.dataset, { learners, secure, offline, interrupt });
  counts.textContent = learners
    ? t("Browsers heard from in the last minute: {learners}. Secure: {secure} of {learners}; offline copy: {offline} of {learners}; Stop in place: {interrupt} of {learners}.", { learners, secure, offline, interrupt })
    : t("No learner's browser heard from in the last minute.");
}

// Where the room's record goes past this laptop (serve --forward; docs/classroom.md, "Past one room").
const forwardingBox = byTestId("forwarding");
const FORWARDING = {
  off: () => t("The record stays on this laptop: no school record store is set (serve --forward URL)."),
  sending: ({ to, waiting }) => tn("Sending to the school's record store at {to}: {count} statement to go.", "Sending to the school's record store at {to}: {count} statements to go.", waiting, { to, count: waiting }),
  "up-to-date": ({ to }) => t("Every statement is in the school's record store at {to}.", { to }),
  waiting: ({ to, waiting, last_error }) =>
    tn("{count} statement waiting for the school's record store at {to}: {error}. They are kept here and sent again until it takes them.",
      "{count} statements waiting for the school's record store at {to}: {error}. They are kept here and sent again until it takes them.", waiting, { count: waiting, to, error: last_error }),
  refused: ({ to, waiting, last_error }) =>
    tn("The school's record store at {to} refused this room's credentials: {error}. Forwarding is paused and {count} statement wait here, none lost: restart serve with the right --forward-auth file.",
      "The school's record store at {to} refused this room's credentials: {error}. Forwarding is paused and {count} statements wait here, none lost: restart serve with the right --forward-auth file.", waiting, { count: waiting, to, error: last_error }),
};

function showForwarding(forwarding) {
  forwardingBox.hidden = !forwarding;
  if (!forwarding) return;
  Object.assign(forwardingBox.dataset, { state: forwarding.state, waiting: String(forwarding.waiting) });
  byTestId("forwarding-state").textContent = FORWARDING[forwarding.state]?.(forwarding) ?? "";
  const list = byTestId("forwarding-conflicts");
  const count = forwarding.conflicts.length;
  list.parentElement.hidden = !count;
  forwardingBox.querySelector(".forwarding-conflicts-note").textContent = tn(
    "Set aside: {count} statement that the school's record store refused for good. It stays in this room's record and will not be sent again.",
    "Set aside: {count} statements that the school's record store refused for good. They stay in this room's record and will not be sent again.", count, { count });
  list.replaceChildren(...forwarding.conflicts.map((conflict) => {
    const item = document.createElement("li");
    Object.assign(item.dataset, { testid: "forwarding-conflict", id: conflict.id, status: String(conflict.status) });
    item.textContent = `${conflict.name} · ${conflict.exercise} · ${new Date(conflict.at).toLocaleString(dateLocale)}: ` +
      t("the store answered {status}, {error} (statement {id})", { status: conflict.status, error: conflict.error, id: conflict.id });
    return item;
  }));
}

function show(progress) {
  latest = progress;
  table.hidden = !progress;
  exportLink.parentElement.hidden = !progress;
  showRoom(progress?.room);
  showForwarding(progress?.forwarding);
  if (!progress) {
    table.tBodies[0].replaceChildren();
    detail.hidden = true;
    return;
  }
  const exercises = [...new Set(progress.students.flatMap((student) => Object.keys(student.exercises)))].sort();
  const assignments = progress.assignments ?? [];
  const head = table.tHead.rows[0];
  head.replaceChildren(head.cells[0], ...exercises.map((id) => cell("th", id, { scope: "col", translate: "no" })),
    ...assignments.map((name) => cell("th", t("{name} · hand-in", { name }), { scope: "col", class: "hand-in-head" })));
  table.tBodies[0].replaceChildren(...progress.students.map((student) => row(student, exercises, assignments)));
  showZips(assignments);
  if (selected) showDetail(selected);
}

/** Each assignment's hand-ins as one zip in nbgrader's layout (submitted/STUDENT/ASSIGNMENT/…). */
function showZips(assignments) {
  const shown = [...zips.querySelectorAll("a")].map((link) => link.dataset.assignment);
  if (shown.join("\n") === assignments.join("\n")) return;
  zips.replaceChildren(t("· Hand-ins, in nbgrader's layout:"), ...assignments.flatMap((name) => {
    const link = cell("a", `${name}.zip`, { href: "#", translate: "no" });
    Object.assign(link.dataset, { testid: "hand-ins-zip", assignment: name });
    link.addEventListener("click", (event) => {
      event.preventDefault();
      download(`classroom/hand-ins/${encodeURIComponent(name)}.zip`, `${name}.zip`);
    });
    return [" ", link];
  }));
  zips.hidden = !assignments.length;
}

/** When a learner handed in each assignment, or that they have not. */
function handInCell(student, name) {
  const at = student.hand_ins?.[name];
  const td = cell("td", at ? t("Handed in {time}", { time: clock(at) }) : "–");
  Object.assign(td.dataset, { testid: "hand-in-cell", assignment: name, state: at ? "handed-in" : "none", at: at ?? "" });
  td.className = "hand-in-cell";
  return td;
}

function row(student, exercises, assignments) {
  const tr = document.createElement("tr");
  Object.assign(tr.dataset, { testid: "student-row", student: student.name });
  tr.append(cell("th", student.name, { scope: "row", translate: "no" }));
  for (const id of exercises) {
    const mine = student.exercises[id] ?? { state: "not-started", attempts: 0 };
    const td = document.createElement("td");
    Object.assign(td.dataset, { exercise: id, state: mine.state, attempts: String(mine.attempts) });
    const button = document.createElement("button");
    button.type = "button";
    button.textContent = `${SYMBOL[mine.state]} ${mine.attempts || ""}`.trim();
    button.setAttribute("aria-label", t("{name}, {exercise}: {state}, {count} attempts", { name: student.name, exercise: id, state: STATE[mine.state] ?? mine.state, count: mine.attempts }));
    button.setAttribute("aria-pressed", String(selected?.key === student.key && selected?.exercise === id));
    button.addEventListener("click", () => showDetail({ key: student.key, exercise: id }));
    td.append(button);
    tr.append(td);
  }
  tr.append(...assignments.map((name) => handInCell(student, name)));
  return tr;
}

function showDetail(which) {
  selected = which;
  const student = latest?.students.find((s) => s.key === which.key);
  const mine = student?.exercises[which.exercise];
  for (const button of table.querySelectorAll("td button")) {
    const td = button.parentElement;
    button.setAttribute("aria-pressed", String(td.dataset.exercise === which.exercise && td.parentElement.dataset.student === student?.name));
  }
  detail.hidden = !student;
  if (!student) return;
  detail.querySelector("h2").textContent = `${student.name} · ${which.exercise}`;
  detail.querySelector("h2").translate = false; // a learner's name and an exercise's id
  byTestId("student-message").textContent = mine
    ? tn("{state} after {count} attempt", "{state} after {count} attempts", mine.attempts, { state: STATE[mine.state] ?? mine.state, count: mine.attempts }) + (mine.last_message ? `: ${mine.last_message}` : "")
    : t("Not started.");
  byTestId("student-code").textContent = mine?.last_code ?? "";
}

function cell(tag, text, attributes = {}) {
  const element = document.createElement(tag);
  element.textContent = text;
  for (const [name, value] of Object.entries(attributes)) element.setAttribute(name, value);
  return element;
}

/** Downloads what the token lets the board fetch (a link cannot send the token's header). */
async function download(address, name) {
  const response = await fetch(address, { headers: { Authorization: `Bearer ${token}` } });
  if (!response.ok) return say(t("Could not download {name} ({status}).", { name, status: response.status }), "error");
  const link = document.createElement("a");
  link.href = URL.createObjectURL(await response.blob());
  link.download = name;
  link.click();
  setTimeout(() => URL.revokeObjectURL(link.href), 60_000);
}

exportLink.addEventListener("click", (event) => {
  event.preventDefault();
  download("classroom/export.csv", "classroom.csv");
});
addEventListener("hashchange", () => (token = tokenOf()));
poll();
