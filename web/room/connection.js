// Whether the room's server answers, and what the learner should know when it does not. On the room's
// plain-HTTP network the page has no service worker, so a reload while the laptop is unreachable never comes
// back: the open tab is what keeps the work (docs/classroom.md, "Classroom"). Every few seconds a joined page tells
// the server it is here and what its browser can do there (the teacher's board counts them); the answer, or
// its absence, is the heartbeat.
import { t, tn } from "../i18n/messages.js";
const PRESENCE = new URL("../classroom/presence", import.meta.url);
const BEAT_MS = 5000;
// A laptop that sleeps or leaves the Wi-Fi does not refuse connections, it goes silent: an answer that has not
// come by then counts as none (and the next beat waits for this one, so silent requests never pile up).
const ANSWER_MS = 4000;
// Dispatched on the document when the server answers again after it did not: each outbox sends what waits.
export const ROOM_BACK_EVENT = "playground-room-back";
const NOTICE = () =>
  t("No connection to the classroom's server. Keep this tab open: your work is kept and will be sent when the room's network is back.");

export class RoomConnection {
  /** `outbox` (outbox.js) is flushed when the server answers again; its waiting count keeps the leave prompt. */
  constructor(learner, outbox) {
    this.learner = learner;
    this.outbox = outbox;
    this.reachable = true;
    this.notice = null;
    this.beating = false;
  }

  start() {
    this.beat();
    setInterval(() => this.beat(), BEAT_MS);
    addEventListener("offline", () => this.update(false));
    addEventListener("online", () => this.beat());
    this.outbox.onChange = () => this.show();
    // Leaving loses nothing that is stored, but without a service worker this page cannot come back while
    // the server is away, and results not yet sent wait for this tab (or its next visit) to send them.
    addEventListener("beforeunload", (event) => {
      if (this.reachable && this.outbox.waiting === 0) return;
      event.preventDefault();
      event.returnValue = "";
    });
  }

  async beat() {
    if (this.beating) return;
    this.beating = true;
    try {
      const response = await fetch(PRESENCE, {
        method: "POST",
        headers: { "Content-Type": "application/json" },
        body: JSON.stringify({ key: this.learner.key, browser: await browserFeatures() }),
        cache: "no-store",
        signal: AbortSignal.timeout(ANSWER_MS),
      });
      this.update(answered(response));
    } catch {
      this.update(false); // no answer in time: the server or the room's Wi-Fi is down
    } finally {
      this.beating = false;
    }
  }

  /** Called with whether the server answered (the outbox's own sends report too). */
  update(reachable) {
    const back = reachable && !this.reachable;
    this.reachable = reachable;
    this.show();
    if (back) {
      this.outbox.flush();
      document.dispatchEvent(new Event(ROOM_BACK_EVENT));
    }
  }

  show() {
    if (this.reachable) {
      this.notice?.remove();
      this.notice = null;
      return;
    }
    if (!this.notice) {
      this.notice = document.createElement("p");
      this.notice.className = "network-notice";
      this.notice.dataset.testid = "network-notice";
      this.notice.setAttribute("role", "status");
      document.body.prepend(this.notice);
    }
    const waiting = this.outbox.waiting;
    this.notice.dataset.waiting = String(waiting);
    this.notice.textContent = waiting ? `${NOTICE()} ${tn("{count} result waiting.", "{count} results waiting.", waiting, { count: waiting })}` : NOTICE();
  }
}

/** Whether a response came from the room's server: a proxy's 502 or 504 says the server is away. */
export function answered(response) {
  return response.status !== 502 && response.status !== 504;
}

/**
 * What this browser can do on this origin (plain HTTP on a LAN address withholds the secure-context ones).
 * `offline`: a service worker holds the whole site, so a reload comes back without the server.
 */
export async function browserFeatures() {
  const registration = await navigator.serviceWorker?.getRegistration().catch(() => null);
  return {
    secure: self.isSecureContext === true,
    isolated: self.crossOriginIsolated === true,
    interrupt: self.crossOriginIsolated === true && typeof SharedArrayBuffer === "function",
    offline: Boolean(navigator.serviceWorker?.controller || registration?.active),
  };
}
