// notebook.html's memory: the open notebook is saved in this browser as the learner types and after each
// run, the page lists recent notebooks to reopen, and "Revert to the original" (clicked twice) discards the
// learner's changes. Storage that is blocked or full says so; the notebook stays open either way.
// A record is {key, name, url, original, changes, touched}: `touched` once the learner typed or ran.
import { loadNotebook, recentNotebooks, saveNotebook } from "../notebook/stored-notebooks.js";
import { dateLocale, t } from "../i18n/messages.js";

const SAVE_AFTER_MS = 400; // after the last keystroke
const CONFIRM_MS = 6000;

export class NotebookKeeper {
  /** onReopen(record): open a stored notebook; onRevert(): open the current one's original. */
  constructor({ status, recent, revert, onReopen, onRevert }) {
    Object.assign(this, { status, recent, revert, onReopen, onRevert });
    this.current = null; // {key, name, url, original, changes: () => [[index, change]]}
    this.timer = null;
    this.saving = Promise.resolve();
    revert.addEventListener("click", () => this.revertClicked());
    addEventListener("pagehide", () => this.saveNow());
    document.addEventListener("visibilitychange", () => document.visibilityState === "hidden" && this.saveNow());
  }

  /** The most recently saved notebook, to open when the page has nothing else to open. */
  async latest() {
    try {
      const [newest] = await recentNotebooks();
      return newest ? await loadNotebook(newest.key) : null;
    } catch (error) {
      this.say(t("Notebooks you open are not kept in this browser: {error}. Use Download .ipynb to keep your work.", { error: error.message }), "error");
      return null;
    }
  }

  async stored(key) {
    try {
      return await loadNotebook(key);
    } catch {
      return null; // latest() or the next save says why
    }
  }

  /** A notebook is open; `restored`: it came back with the learner's changes (Revert is offered). */
  opened(current, restored) {
    if (this.timer !== null) this.saveNow(); // the last keystrokes in the notebook that was open
    this.current = current;
    this.touched = restored; // the record says whether the learner changed anything since it was opened
    this.revert.hidden = !restored;
    this.revert.textContent = t("Revert to the original");
    delete this.revert.dataset.confirm;
    this.saveNow();
  }

  /** The learner typed or ran something. */
  changed() {
    if (!this.current) return;
    this.touched = true;
    this.revert.hidden = false;
    if (this.status.dataset.kind !== "error") this.say(t("Saving your changes in this browser…"), "saving");
    clearTimeout(this.timer);
    this.timer = setTimeout(() => this.saveNow(), SAVE_AFTER_MS);
  }

  saveNow() {
    clearTimeout(this.timer);
    this.timer = null;
    const current = this.current;
    if (!current) return this.saving;
    const { key, name, url, original } = current;
    const record = { key, name, url, original, changes: current.changes(), touched: this.touched };
    this.newest = record;
    this.saving = this.saving.then(async () => {
      try {
        await saveNotebook(record);
        // A change made since this record was taken is not in it: the save that holds it says "saved".
        if (this.current !== current || this.timer !== null || this.newest !== record) return;
        const time = new Date().toLocaleTimeString(dateLocale, { hour: "2-digit", minute: "2-digit", second: "2-digit" });
        this.say(t("Your work on {name} is kept in this browser (saved {time}).", { name, time }));
        await this.listRecent();
      } catch (error) {
        this.say(t("Your work on {name} is not being kept in this browser: {error}. It stays open here; use Download .ipynb to keep a copy.", { name, error: error.message }), "error");
      }
    });
    return this.saving;
  }

  async listRecent() {
    let notebooks;
    try {
      notebooks = await recentNotebooks();
    } catch {
      notebooks = [];
    }
    const list = this.recent.querySelector("ul");
    list.replaceChildren(...notebooks.map(({ key, name, saved }) => {
      const item = document.createElement("li");
      const button = document.createElement("button");
      button.type = "button";
      button.className = "recent-notebook";
      button.dataset.testid = "recent-notebook";
      button.textContent = name;
      button.translate = false; // a file's name
      button.title = t("Saved {time}", { time: new Date(saved).toLocaleString(dateLocale) });
      if (key === this.current?.key) button.setAttribute("aria-current", "true");
      button.addEventListener("click", async () => {
        await this.saveNow();
        const record = await this.stored(key);
        if (record) this.onReopen(record);
      });
      item.append(button);
      return item;
    }));
    this.recent.hidden = notebooks.length === 0;
  }

  revertClicked() {
    if (this.revert.dataset.confirm === undefined) {
      this.revert.dataset.confirm = "";
      this.revert.textContent = t("Click again to discard your changes");
      setTimeout(() => {
        if (this.revert.dataset.confirm === undefined) return;
        delete this.revert.dataset.confirm;
        this.revert.textContent = t("Revert to the original");
      }, CONFIRM_MS);
      return;
    }
    clearTimeout(this.timer);
    this.onRevert();
  }

  say(text, kind = "notice") {
    this.status.textContent = text;
    this.status.dataset.kind = kind;
  }
}
