// A page served by a classroom server (`build.py serve --classroom`) reports every checked result there as
// an xAPI statement. It asks once per browser for the learner's name (kept with a random learner key in
// localStorage); results wait in IndexedDB (outbox.js) until the server acknowledges them, resent every
// 15 s and as soon as the network comes back, and the page says when the server cannot be reached
// (connection.js). Anywhere else, config.json does not exist and nothing is asked.
import { RESULT_EVENT } from "../cell/results.js";
import { RoomConnection, answered } from "./connection.js";
import { Outbox } from "./outbox.js";
import { t } from "../i18n/messages.js";

const CONFIG = new URL("../classroom/config.json", import.meta.url);
const STATEMENTS = new URL("../classroom/xapi/statements", import.meta.url);
const STYLESHEET = new URL("../room/classroom.css", import.meta.url);
const ROOM_PAGE = new URL("../room.html", import.meta.url).href; // what the teacher hands out
const NAME = "backprop-playground:classroom:name";
const KEY = "backprop-playground:classroom:key";
const VERBS = "http://adlnet.gov/expapi/verbs/";
const MESSAGE = "urn:backprop-playground:message"; // the classroom's store (classroom/statements.py) reads the check's message here
const RESEND_MS = 15_000;
const MAX_CODE = 60_000; // characters of the learner's code in a statement

let joined = null;
let connection = null; // the page's RoomConnection once it joined

/** What a request to the room's server found (a Response, or null for none): the notice and the outboxes follow it. */
export function heardFromServer(response) {
  connection?.update(response !== null && answered(response));
}

/**
 * A room's address (`classroom/...`) fetched as `learner`, whose key says whose hand-ins and feedback these
 * are: the response, or an error naming the server's answer.
 */
export async function fetchAsLearner(path, learner) {
  const response = await fetch(new URL(`../${path}`, import.meta.url), { headers: { "X-Learner-Key": learner.key }, cache: "no-store" });
  if (!response.ok) throw new Error(t("the server answered {status}", { status: response.status }));
  return response;
}

/** Joins the room if this page's server is a classroom's; resolves once that is known (and the learner named). */
export function joinClassroom() {
  joined ??= start();
  return joined;
}

async function start() {
  let response;
  try {
    response = await fetch(CONFIG, { cache: "no-store", credentials: "same-origin" });
  } catch {
    return null;
  }
  if (!response.ok) return null;
  const config = await response.json().catch(() => ({}));
  const link = document.createElement("link");
  link.rel = "stylesheet";
  link.href = STYLESHEET;
  document.head.append(link);
  const learner = { key: localStorage.getItem(KEY) || uuid(), name: localStorage.getItem(NAME), forwarding: Boolean(config.forwarding) };
  localStorage.setItem(KEY, learner.key);
  const outbox = new Outbox(send);
  connection = new RoomConnection(learner, outbox);
  document.addEventListener(RESULT_EVENT, (event) => {
    if (learner.name) outbox.add(statementOf(event.detail, learner));
  });
  badge(learner);
  if (!learner.name) await askName(learner);
  connection.start();
  outbox.flush();
  setInterval(() => outbox.flush(), RESEND_MS);
  addEventListener("online", () => outbox.flush());
  return learner;
}

/** POSTs statements; resolves with the ids to forget (acknowledged, or refused as bad), rejects to retry later. */
async function send(statements) {
  let response;
  try {
    response = await fetch(STATEMENTS, {
      method: "POST",
      headers: { "Content-Type": "application/json", "X-Experience-API-Version": "1.0.3" },
      body: JSON.stringify(statements),
    });
  } catch (error) {
    heardFromServer(null);
    throw error;
  }
  heardFromServer(response);
  if (response.ok) return statements.map((statement) => statement.id);
  // A statement the server will never take (400, 413) would be resent forever: it alone is dropped.
  if ((response.status === 400 || response.status === 413) && statements.length === 1) return [statements[0].id];
  if (response.status === 400 || response.status === 413) throw new Outbox.SendOneByOne();
  throw new Error(t("the classroom answered {status}", { status: response.status }));
}

function statementOf({ kind, id, state, code, message, score }, learner) {
  const page = `${location.origin}${location.pathname}`;
  // The server takes 256 KB a request: a longer program is cut, with a note, rather than refused.
  const response = code.length > MAX_CODE ? `${code.slice(0, MAX_CODE)}\n# … cut: ${code.length} characters in all` : code;
  const result = { success: state === "passed", response, extensions: { [MESSAGE]: message } };
  if (score) result.score = score;
  return {
    id: uuid(),
    actor: { objectType: "Agent", name: learner.name, account: { homePage: `${location.origin}/`, name: learner.key } },
    verb: { id: `${VERBS}${state}`, display: { "en-US": state } },
    object: { objectType: "Activity", id: `${page}#${kind}=${encodeURIComponent(id)}` },
    result,
    timestamp: new Date().toISOString(),
  };
}

function askName(learner) {
  const dialog = document.createElement("dialog");
  dialog.className = "classroom-join";
  dialog.dataset.testid = "classroom-join";
  const form = document.createElement("form");
  form.method = "dialog";
  const title = document.createElement("h2");
  title.textContent = t("Join the class");
  const label = document.createElement("label");
  label.textContent = t("Your name, as your teacher will see it");
  const input = document.createElement("input");
  Object.assign(input, { type: "text", required: true, maxLength: 60, autocomplete: "name", value: learner.name || "" });
  input.dataset.testid = "student-name";
  label.append(input);
  const note = document.createElement("p");
  note.textContent = learner.forwarding
    ? t("Your checked results, their code and the work you hand in go to this classroom's server, on your teacher's laptop, and your results from there to your school's learning record store.")
    : t("Your checked results, their code and the work you hand in go to this classroom's server, on your teacher's laptop.");
  const join = document.createElement("button");
  Object.assign(join, { type: "submit", textContent: t("Join") });
  join.dataset.testid = "join";
  form.append(title, label, note, join);
  dialog.append(form);
  dialog.addEventListener("cancel", (event) => learner.name || event.preventDefault()); // a name is needed once
  document.body.append(dialog);
  dialog.showModal();
  return new Promise((resolve) => {
    form.addEventListener("submit", (event) => {
      const name = input.value.trim();
      if (!name) {
        event.preventDefault();
        return;
      }
      learner.name = name;
      localStorage.setItem(NAME, name);
      badge(learner);
      dialog.remove();
      resolve();
    });
    dialog.addEventListener("close", () => dialog.remove());
  });
}

/** "In class as Ada · Change · Room's work", at the page's corner. */
function badge(learner) {
  let box = document.querySelector(".classroom-badge");
  if (!box) {
    box = document.createElement("div");
    box.className = "classroom-badge";
    box.dataset.testid = "classroom-badge";
    document.body.append(box);
  }
  const change = document.createElement("button");
  Object.assign(change, { type: "button", textContent: t("Change") });
  change.addEventListener("click", () => askName(learner));
  const work = document.createElement("a");
  Object.assign(work, { href: ROOM_PAGE, textContent: t("Room's work") });
  work.dataset.testid = "room-link";
  box.replaceChildren(learner.name ? `${t("In class as {name}", { name: learner.name })} · ` : `${t("Joining the class…")} `, change, " · ", work);
}

/** A version 4 UUID (crypto.randomUUID exists only on HTTPS; a classroom is plain HTTP). */
function uuid() {
  const bytes = crypto.getRandomValues(new Uint8Array(16));
  bytes[6] = (bytes[6] & 0x0f) | 0x40;
  bytes[8] = (bytes[8] & 0x3f) | 0x80;
  const hex = [...bytes].map((b) => b.toString(16).padStart(2, "0")).join("");
  return `${hex.slice(0, 8)}-${hex.slice(8, 12)}-${hex.slice(12, 16)}-${hex.slice(16, 20)}-${hex.slice(20)}`;
}
