// The editor's text survives a reload: it is kept in localStorage on every change.
const KEY = "backprop-playground:code";

export function savedCode() {
  try {
    return localStorage.getItem(KEY);
  } catch {
    return null; // storage can be blocked (private mode, sandboxed embeds)
  }
}

export function saveCode(text) {
  try {
    localStorage.setItem(KEY, text);
  } catch {
    // nothing to do: the text stays in the editor
  }
}
