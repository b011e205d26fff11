// The main page's panel for Share (a link, copied, shown selected) and Embed (lines to paste).
import { copyText } from "../dom/clipboard.js";
import { t } from "../i18n/messages.js";
const panel = document.querySelector('[data-testid="share-panel"]');
const body = panel.querySelector(".panel-body");
panel.querySelector(".panel-close").addEventListener("click", () => (panel.hidden = true));

function field(label, value, { testid, lines = 1 } = {}) {
  const wrapper = document.createElement("label");
  wrapper.className = "panel-field";
  const caption = document.createElement("span");
  caption.textContent = label;
  const input = document.createElement(lines > 1 ? "textarea" : "input");
  if (lines > 1) input.rows = lines;
  input.readOnly = true;
  input.spellcheck = false;
  input.value = value;
  if (testid) input.dataset.testid = testid;
  input.addEventListener("focus", () => input.select());
  wrapper.append(caption, input);
  return { wrapper, input };
}

function note(text) {
  const p = document.createElement("p");
  p.className = "panel-note";
  p.setAttribute("role", "status");
  p.textContent = text;
  return p;
}

export async function showShareLink(url) {
  const { wrapper, input } = field(t("Link to this code (it opens in the editor and runs only when Run is pressed)"), url, { testid: "share-link" });
  const status = note("");
  body.replaceChildren(wrapper, status);
  panel.hidden = false;
  input.focus();
  input.select();
  if (await copyText(url)) {
    status.textContent = t("✓ Link copied to the clipboard.");
    status.dataset.copied = "true";
  } else {
    status.textContent = t("The clipboard is not available here: the link above is selected, copy it with Ctrl+C.");
  }
  input.select();
}

export function showEmbedCode({ iframe, script, code }) {
  const frameLine = `<iframe src="${escapeAttribute(iframe)}" style="width: 100%; height: 420px; border: 0" title="Backprop Playground" loading="lazy"></iframe>`;
  const scriptLines = `<script type="module" src="${escapeAttribute(script)}"></script>\n<pre data-playground>${escapeText(code)}</pre>`;
  const one = field(t("One program, in an iframe (any page that allows iframes):"), frameLine, { testid: "embed-code", lines: 3 });
  const many = field(t("Many cells in one article, sharing one Python (the script goes in once, a <pre data-playground> per cell):"), scriptLines, { lines: 5 });
  body.replaceChildren(one.wrapper, many.wrapper, note(t("See README.md, “Embedding”, for the options.")));
  panel.hidden = false;
  one.input.focus();
}

const escapeText = (text) => text.replace(/&/g, "&amp;").replace(/</g, "&lt;").replace(/>/g, "&gt;");
const escapeAttribute = (text) => escapeText(text).replace(/"/g, "&quot;");
