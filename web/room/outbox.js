// What waits for the classroom server (statements; hand-ins, in an outbox of their own), kept in IndexedDB
// until it acknowledges them: a result made while the Wi-Fi or the server is down is sent later, after a
// reload too. Without IndexedDB (blocked), they wait in memory for as long as the page is open. Each item
// has an `id`: adding one with the id of an item still waiting replaces it, and an item that carries a
// `revision` is forgotten only when the revision sent is the one stored (a hand-in pressed again while the
// one before it was on its way stays to be sent).
const DATABASE = "backprop-playground-classroom"; // the statements' (its name is kept: earlier builds' waiting items)
const STORE = "outbox";
const BATCH = 50; // statements per request, well under the server's 100 per 10 s ...
const BATCH_BYTES = 200_000; // ... and its 256 KB

export class Outbox {
  /** Raised by `send` when a batch holds a statement the server refuses: each is then sent alone. */
  static SendOneByOne = class extends Error {};

  /**
   * send(items) resolves with the ids the server took (or refused for good), or rejects to retry.
   * `database`: the IndexedDB database this outbox keeps its items in.
   */
  constructor(send, database = DATABASE) {
    this.send = send;
    this.memory = new Map();
    this.database = openDatabase(database).catch(() => null);
    this.flushing = null;
    this.unsent = new Set(); // the ids waiting: those read at the last flush, and those added since
    this.onChange = () => {};
  }

  /** How many statements wait to be sent. */
  get waiting() {
    return this.unsent.size;
  }

  async add(statement) {
    const db = await this.database;
    if (db) await store(db, "readwrite", (outbox) => outbox.put(statement)).catch(() => this.memory.set(statement.id, statement));
    else this.memory.set(statement.id, statement);
    this.unsent.add(statement.id);
    this.onChange();
    this.flush();
  }

  /** Sends what waits; one flush at a time, and one more after it when statements came meanwhile. */
  flush() {
    if (this.flushing) {
      this.again = true;
      return this.flushing;
    }
    this.again = false;
    this.flushing = this.sendWaiting().finally(() => {
      this.flushing = null;
      if (this.again) this.flush();
    });
    return this.flushing;
  }

  async sendWaiting() {
    const db = await this.database;
    const before = new Set(this.unsent);
    const waiting = [...this.memory.values(), ...(db ? await store(db, "readonly", (outbox) => outbox.getAll()).catch(() => []) : [])];
    // What is stored is the truth: another tab of this site may have sent some (IndexedDB is shared), so the
    // count is what was read, plus what this page added while reading.
    const read = new Set(waiting.map(({ id }) => id));
    this.unsent = new Set([...read, ...[...this.unsent].filter((id) => !before.has(id))]);
    this.onChange();
    for (const batch of batches(waiting)) {
      let done;
      try {
        done = await this.send(batch);
      } catch (error) {
        if (!(error instanceof Outbox.SendOneByOne)) return; // the server is away: the next flush tries again
        done = [];
        for (const one of batch) done.push(...(await this.send([one]).catch(() => [])));
      }
      const sent = new Map(batch.map((item) => [item.id, item.revision]));
      const forget = (item) => item && item.revision === sent.get(item.id);
      for (const id of done) if (forget(this.memory.get(id))) this.memory.delete(id);
      if (db) await store(db, "readwrite", (outbox) => done.forEach((id) => {
        outbox.get(id).onsuccess = (event) => forget(event.target.result) && outbox.delete(id);
      })).catch(() => {});
      const still = db ? new Set(await store(db, "readonly", (outbox) => outbox.getAllKeys()).catch(() => [])) : new Set();
      for (const id of done) if (!this.memory.has(id) && !still.has(id)) this.unsent.delete(id);
      this.onChange();
    }
  }
}

/** Statements in requests of at most BATCH statements and BATCH_BYTES of JSON (one larger goes alone). */
function batches(statements) {
  const all = [];
  let batch = [];
  let bytes = 0;
  for (const statement of statements) {
    const size = JSON.stringify(statement).length;
    if (batch.length && (batch.length === BATCH || bytes + size > BATCH_BYTES)) {
      all.push(batch);
      batch = [];
      bytes = 0;
    }
    batch.push(statement);
    bytes += size;
  }
  if (batch.length) all.push(batch);
  return all;
}

function openDatabase(name) {
  return new Promise((resolve, reject) => {
    const opening = indexedDB.open(name, 1);
    opening.onupgradeneeded = () => opening.result.createObjectStore(STORE, { keyPath: "id" });
    opening.onsuccess = () => resolve(opening.result);
    opening.onerror = () => reject(opening.error);
  });
}

function store(db, mode, use) {
  return new Promise((resolve, reject) => {
    const transaction = db.transaction(STORE, mode);
    const request = use(transaction.objectStore(STORE));
    transaction.oncomplete = () => resolve(request?.result);
    transaction.onerror = transaction.onabort = () => reject(transaction.error);
  });
}
