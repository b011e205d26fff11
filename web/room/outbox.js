// Statements on their way to the classroom server, kept in IndexedDB until it acknowledges them: a result
// made while the Wi-Fi or the server is down is sent later, after a reload too. Without IndexedDB (blocked),
// they wait in memory for as long as the page is open.
const DATABASE = "backprop-playground-classroom";
const STORE = "outbox";
const BATCH = 50; // statements per request, well under the server's 100 per 10 s ...
const BATCH_BYTES = 200_000; // ... and its 256 KB

export class Outbox {
  /** Raised by `send` when a batch holds a statement the server refuses: each is then sent alone. */
  static SendOneByOne = class extends Error {};

  /** send(statements) resolves with the ids the server took (or refused for good), or rejects to retry. */
  constructor(send) {
    this.send = send;
    this.memory = new Map();
    this.database = openDatabase().catch(() => null);
    this.flushing = null;
  }

  async add(statement) {
    const db = await this.database;
    if (db) await store(db, "readwrite", (outbox) => outbox.put(statement)).catch(() => this.memory.set(statement.id, statement));
    else this.memory.set(statement.id, statement);
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
    const waiting = [...this.memory.values(), ...(db ? await store(db, "readonly", (outbox) => outbox.getAll()).catch(() => []) : [])];
    for (const batch of batches(waiting)) {
      let done;
      try {
        done = await this.send(batch);
      } catch (error) {
        if (!(error instanceof Outbox.SendOneByOne)) return; // the server is away: the next flush tries again
        done = [];
        for (const one of batch) done.push(...(await this.send([one]).catch(() => [])));
      }
      for (const id of done) this.memory.delete(id);
      if (db) await store(db, "readwrite", (outbox) => done.forEach((id) => outbox.delete(id))).catch(() => {});
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

function openDatabase() {
  return new Promise((resolve, reject) => {
    const opening = indexedDB.open(DATABASE, 1);
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
