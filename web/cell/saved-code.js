// The editor's text survives a reload: it is kept in localStorage on every change. Code put aside
// when a link brought other code stays under a second key until the learner restores or drops it.
// read() and write() serve other stored text too (exercises' progress).
const KEY = "backprop-playground:code";
const ASIDE_KEY = "backprop-playground:code-before-link";

export function read(key) {
  try {
    return localStorage.getItem(key);
  } catch {
    return null; // storage can be blocked (private mode, sandboxed embeds)
  }
}

export function write(key, text) {
  try {
    if (text === null) localStorage.removeItem(key);
    else localStorage.setItem(key, text);
  } catch {
    // nothing to do: the text stays in the editor
  }
}

export const savedCode = () => read(KEY);
export const saveCode = (text) => write(KEY, text);
export const codeAside = () => read(ASIDE_KEY);
export const putCodeAside = (text) => write(ASIDE_KEY, text);
