// teacher.html#token=…: the room's progress from the classroom server (classroom/progress), drawn as a
// table and polled every 2 s. Names, code and messages are learners' text: set as textContent, never run.
const POLL_MS = 2000;
const byTestId = (id) => document.querySelector(`[data-testid="${id}"]`);
const table = byTestId("progress");
const message = byTestId("board-message");
const detail = byTestId("student-detail");
const exportLink = byTestId("export");
const tokenOf = () => new URLSearchParams(location.hash.slice(1)).get("token") || "";
let token = tokenOf();
const SYMBOL = { passed: "✓", failed: "✗", "not-started": "–" };
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
      say("This board needs the teacher's link that `python build.py serve --classroom DIR` printed (teacher.html#token=…).", "error");
      return;
    }
    const response = await fetch("classroom/progress", { headers: { Authorization: `Bearer ${token}` }, cache: "no-store" });
    if (response.status === 401) {
      show(null);
      say("This link's token is wrong: open the teacher's link that the server printed.", "error");
      return;
    }
    if (!response.ok) throw new Error(`the server answered ${response.status}`);
    show(await response.json());
    const count = latest.students.length;
    say(`${count} learner${count === 1 ? "" : "s"} · updated ${new Date().toLocaleTimeString()} · updates every ${POLL_MS / 1000} s`);
  } catch (error) {
    say(`Could not reach the classroom server (${error.message}); trying again…`, "error");
  } finally {
    setTimeout(poll, POLL_MS);
  }
}

function show(progress) {
  latest = progress;
  table.hidden = !progress;
  exportLink.parentElement.hidden = !progress;
  if (!progress) {
    table.tBodies[0].replaceChildren();
    detail.hidden = true;
    return;
  }
  const exercises = [...new Set(progress.students.flatMap((student) => Object.keys(student.exercises)))].sort();
  const head = table.tHead.rows[0];
  head.replaceChildren(head.cells[0], ...exercises.map((id) => cell("th", id, { scope: "col" })));
  table.tBodies[0].replaceChildren(...progress.students.map((student) => row(student, exercises)));
  if (selected) showDetail(selected);
}

function row(student, exercises) {
  const tr = document.createElement("tr");
  Object.assign(tr.dataset, { testid: "student-row", student: student.name });
  tr.append(cell("th", student.name, { scope: "row" }));
  for (const id of exercises) {
    const mine = student.exercises[id] ?? { state: "not-started", attempts: 0 };
    const td = document.createElement("td");
    Object.assign(td.dataset, { exercise: id, state: mine.state, attempts: String(mine.attempts) });
    const button = document.createElement("button");
    button.type = "button";
    button.textContent = `${SYMBOL[mine.state]} ${mine.attempts || ""}`.trim();
    button.setAttribute("aria-label", `${student.name}, ${id}: ${mine.state.replace("-", " ")}, ${mine.attempts} attempts`);
    button.setAttribute("aria-pressed", String(selected?.key === student.key && selected?.exercise === id));
    button.addEventListener("click", () => showDetail({ key: student.key, exercise: id }));
    td.append(button);
    tr.append(td);
  }
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
  byTestId("student-message").textContent = mine
    ? `${mine.state.replace("-", " ")} after ${mine.attempts} attempt${mine.attempts === 1 ? "" : "s"}${mine.last_message ? `: ${mine.last_message}` : ""}`
    : "Not started.";
  byTestId("student-code").textContent = mine?.last_code ?? "";
}

function cell(tag, text, attributes = {}) {
  const element = document.createElement(tag);
  element.textContent = text;
  for (const [name, value] of Object.entries(attributes)) element.setAttribute(name, value);
  return element;
}

exportLink.addEventListener("click", async (event) => {
  event.preventDefault();
  const response = await fetch("classroom/export.csv", { headers: { Authorization: `Bearer ${token}` } });
  if (!response.ok) return say(`Could not export (${response.status}).`, "error");
  const link = document.createElement("a");
  link.href = URL.createObjectURL(await response.blob());
  link.download = "classroom.csv";
  link.click();
  setTimeout(() => URL.revokeObjectURL(link.href), 60_000);
});
addEventListener("hashchange", () => (token = tokenOf()));
poll();
