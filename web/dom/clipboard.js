// Copies text to the clipboard. navigator.clipboard exists only in secure contexts: on a classroom's LAN
// address over plain HTTP the page falls back to the older copy command, which works there during a click.
export async function copyText(text) {
  if (navigator.clipboard) {
    try {
      await navigator.clipboard.writeText(text);
      return true;
    } catch {
      // refused (no focus, a policy): try the copy command below
    }
  }
  const area = document.createElement("textarea");
  area.value = text;
  area.setAttribute("readonly", "");
  Object.assign(area.style, { position: "fixed", top: "0", left: "0", opacity: "0", pointerEvents: "none" });
  const focused = document.activeElement;
  document.body.append(area);
  area.select();
  let copied;
  try {
    copied = document.execCommand("copy");
  } catch {
    copied = false;
  }
  area.remove();
  focused?.focus?.();
  return copied;
}
