// Hand in: a notebook opened from the room (notebook.html#url=classroom/release/ASSIGNMENT/FILE) goes to the
// teacher's laptop as Download .ipynb would make it (POST classroom/hand-in), where the server files it in
// nbgrader's layout. A hand-in that cannot be sent waits in an outbox of its own, like statements, and goes
// when the room's network is back; a later hand-in of the same file replaces one still waiting.
import { button, element } from "../dom/element.js";
import { fetchAsLearner, heardFromServer } from "./classroom.js";
import { ROOM_BACK_EVENT } from "./connection.js";
import { Outbox } from "./outbox.js";
import { clock, refusalText, t } from "../i18n/messages.js";

const HAND_IN = new URL("../classroom/hand-in", import.meta.url);
const RELEASE = new URL("../classroom/release/", import.meta.url).href;
const RESEND_MS = 15_000;
const shown = new Map(); // "ASSIGNMENT/FILE" -> the status element showing that file's hand-in
// Hand-ins the server refused for good, kept so that a page which did not show the refusal (room.html, sending
// what an earlier visit left waiting) can still say so, for a day: learner's key -> "ASSIGNMENT/FILE" -> {why, at}.
const REFUSED = "backprop-playground-refused-hand-ins";
const REFUSAL_KEPT_MS = 24 * 3600_000;

let outbox = null;

/** {assignment, file} when `url` is a file handed out by this room, else null. */
export function handedOut(url) {
  if (!url || !url.startsWith(RELEASE)) return null;
  try {
    const [assignment, ...path] = url.slice(RELEASE.length).split(/[?#]/)[0].split("/").map(decodeURIComponent);
    return assignment && path.length ? { assignment, file: path.join("/") } : null;
  } catch {
    return null; // not valid percent-encoding: not one of the room's files
  }
}

/**
 * Puts Hand in and its status after `anchor`, for the learner {key, name}; `notebookText()` gives the
 * notebook as Download .ipynb makes it. Returns the element added (remove it when the notebook closes).
 */
export function attachHandIn(anchor, learner, { assignment, file }, notebookText) {
  startHandIns();
  const id = `${assignment}/${file}`;
  const status = element("output", "hand-in-status");
  status.dataset.testid = "hand-in-status";
  status.setAttribute("aria-live", "polite");
  const handIn = button(t("Hand in"), { className: "notebook-button primary", testid: "hand-in" });
  handIn.title = t("Send this notebook, as it is now, to your teacher");
  handIn.addEventListener("click", async () => {
    let notebook;
    try {
      notebook = JSON.parse(notebookText());
    } catch (error) {
      say(status, "refused", t("Not handed in: this notebook could not be saved ({error}).", { error: error.message }));
      return;
    }
    handIn.disabled = true;
    say(status, "waiting", t("Sending…"));
    const revision = `${Date.now()}-${Math.random()}`;
    try {
      await outbox.add({ id, revision, key: learner.key, name: learner.name, assignment, file, notebook });
    } finally {
      handIn.disabled = false;
    }
  });
  const box = element("span", "hand-in");
  box.append(handIn, status);
  anchor.after(box);
  shown.set(id, status);
  const refused = refusedHandIns(learner.key)[id];
  if (refused) say(status, "refused", t("Not handed in: {why}.", { why: refused.why }));
  lastHandIn(learner, id, status);
  return box;
}

/** This learner's hand-ins refused for good in the last day, with none taken since: "ASSIGNMENT/FILE" -> {why, at}. */
export function refusedHandIns(key) {
  return recent(everyRefusal()[key]);
}

function recent(refusals = {}) {
  return Object.fromEntries(Object.entries(refusals).filter(([, { at }]) => Date.now() - Date.parse(at) < REFUSAL_KEPT_MS));
}

function everyRefusal() {
  try {
    return JSON.parse(localStorage.getItem(REFUSED) ?? "{}");
  } catch {
    return {}; // storage blocked (then the room cannot be joined either) or damaged
  }
}

function keepRefusal({ key, id }, why) {
  const refused = everyRefusal();
  const mine = recent(refused[key]);
  if (why) mine[id] = { why, at: new Date().toISOString() };
  else delete mine[id];
  try {
    localStorage.setItem(REFUSED, JSON.stringify({ ...refused, [key]: mine }));
  } catch {
    // storage full: the page that showed the refusal said it
  }
}

/**
 * The hand-ins' outbox, started: what an earlier visit left waiting is sent now (room.html starts it too).
 * Its `unsent` holds the "ASSIGNMENT/FILE" ids waiting; `onChange` is called when they change.
 */
export function startHandIns() {
  outbox ??= startOutbox();
  return outbox;
}

/** What the server has of this learner's hand-in, when nothing was pressed yet on this page. */
async function lastHandIn(learner, id, status) {
  try {
    const at = (await (await fetchAsLearner("classroom/handouts", learner)).json()).mine?.handed_in?.[id];
    if (at && !status.dataset.state) say(status, "handed-in", t("Handed in at {time}.", { time: clock(at) }));
  } catch {
    // the room's server is away (the network notice says so), or has nothing to say
  }
}

function startOutbox() {
  const box = new Outbox(send, "backprop-playground-hand-ins");
  setInterval(() => box.flush(), RESEND_MS);
  addEventListener("online", () => box.flush());
  document.addEventListener(ROOM_BACK_EVENT, () => box.flush()); // the page's heartbeat heard the server again
  // A hand-in not yet sent waits for this tab, or its next visit to the room.
  addEventListener("beforeunload", (event) => {
    if (box.waiting === 0) return;
    event.preventDefault();
    event.returnValue = "";
  });
  box.flush(); // what an earlier visit left waiting
  return box;
}

/** Sends waiting hand-ins one by one; resolves with those the server took or refused for good. */
async function send(items) {
  const done = [];
  for (const item of items) {
    const status = shown.get(item.id);
    let response;
    try {
      response = await fetch(HAND_IN, { method: "POST", headers: { "Content-Type": "application/json" }, body: JSON.stringify(item) });
    } catch (error) {
      heardFromServer(null); // the page says so now, and sends it as soon as its heartbeat hears the server
      if (status) say(status, "waiting", t("Not sent yet: the room's server cannot be reached. It is kept in this browser and sent when the network is back."));
      if (done.length) return done; // those already taken are forgotten; the rest wait
      throw error;
    }
    heardFromServer(response);
    const answer = await response.json().catch(() => ({}));
    const why = refusalText(answer) || t("the classroom answered {status}", { status: response.status });
    if (response.ok) {
      if (status) say(status, "handed-in", t("Handed in at {time}.", { time: clock(answer.at) }));
      keepRefusal(item, null);
      done.push(item.id);
    } else if (response.status === 429 || response.status >= 500) {
      if (status) say(status, "waiting", t("Not sent yet ({why}): it will be sent again.", { why }));
      if (done.length) return done;
      throw new Error(why);
    } else {
      if (status) say(status, "refused", t("Not handed in: {why}.", { why }));
      keepRefusal(item, why);
      done.push(item.id); // refused for good: sending the same again would be refused again
    }
  }
  return done;
}

function say(status, state, text) {
  status.dataset.state = state;
  status.textContent = text;
}
