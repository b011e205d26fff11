// Notebooks kept in this browser (IndexedDB), so that a reload, a closed tab or a later visit brings the
// learner's work back. One record per notebook: {key, name, url, original, changes, saved}: the file as it
// was opened and what the learner changed in it (ipynb.js's savedNotebookText applies them).
const DATABASE = "backprop-playground";
const STORE = "notebooks";
const RECENT = 8;

export class StorageUnavailable extends Error {
  constructor(reason) {
    super(reason);
    this.name = "StorageUnavailable";
  }
}

let database = null;

function request(operation) {
  return new Promise((resolve, reject) => {
    operation.onsuccess = () => resolve(operation.result);
    operation.onerror = () => reject(operation.error);
  });
}

function openDatabase() {
  database ??= new Promise((resolve, reject) => {
    let opening;
    try {
      opening = indexedDB.open(DATABASE, 1);
    } catch (error) {
      throw new StorageUnavailable(`this browser does not let the page keep data (${error.name || error.message})`);
    }
    opening.onupgradeneeded = () => opening.result.createObjectStore(STORE, { keyPath: "key" });
    opening.onsuccess = () => resolve(opening.result);
    opening.onerror = () => reject(new StorageUnavailable(`this browser refused to open its storage (${opening.error?.name || "no reason given"})`));
    opening.onblocked = () => reject(new StorageUnavailable("another tab holds an older version of this page's storage: close it and reload"));
  }).catch((error) => {
    throw error instanceof StorageUnavailable ? error : new StorageUnavailable(error.message);
  });
  return database;
}

async function withStore(mode, use) {
  const db = await openDatabase();
  const transaction = db.transaction(STORE, mode);
  const done = new Promise((resolve, reject) => {
    transaction.oncomplete = resolve;
    transaction.onerror = transaction.onabort = () => reject(transaction.error);
  });
  const [result] = await Promise.all([request(use(transaction.objectStore(STORE))), done]);
  return result;
}

export async function saveNotebook(record) {
  try {
    await withStore("readwrite", (store) => store.put({ ...record, saved: Date.now() }));
  } catch (error) {
    if (error instanceof StorageUnavailable) throw error;
    throw new StorageUnavailable(error?.name === "QuotaExceededError"
      ? "this browser's storage for the page is full" : `this browser could not store it (${error?.name || error})`);
  }
}

export async function loadNotebook(key) {
  return (await withStore("readonly", (store) => store.get(key))) ?? null;
}

/** The most recently saved notebooks, newest first: [{key, name, saved}]. */
export async function recentNotebooks() {
  const all = await withStore("readonly", (store) => store.getAll());
  return all.sort((a, b) => b.saved - a.saved).slice(0, RECENT).map(({ key, name, saved }) => ({ key, name, saved }));
}

/** A short name for a text, the same in every browser (crypto.subtle needs HTTPS, a classroom has HTTP). */
export function fingerprint(text) {
  let h1 = 0xdeadbeef;
  let h2 = 0x41c6ce57;
  for (let i = 0; i < text.length; i += 1) {
    const c = text.charCodeAt(i);
    h1 = Math.imul(h1 ^ c, 2654435761);
    h2 = Math.imul(h2 ^ c, 1597334677);
  }
  h1 = Math.imul(h1 ^ (h1 >>> 16), 2246822507) ^ Math.imul(h2 ^ (h2 >>> 13), 3266489909);
  h2 = Math.imul(h2 ^ (h2 >>> 16), 2246822507) ^ Math.imul(h1 ^ (h1 >>> 13), 3266489909);
  return `${(h2 >>> 0).toString(16).padStart(8, "0")}${(h1 >>> 0).toString(16).padStart(8, "0")}`;
}
