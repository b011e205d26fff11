// The markup of a compact cell (embeds, embed.html, exercises): a bar with Run, Stop, status and
// tools, the code, and the output. cell.js brings it to life; cell.css styles it.
import { button, element } from "../dom/element.js";
import { matchLocale } from "../i18n/locale.js";
import { locale, t } from "../i18n/messages.js";

export const STYLESHEET = new URL("../cell/cell.css", import.meta.url).href;

/** A host element with an open shadow root holding the cell's stylesheet: the article's CSS stays out. */
export function shadowHost(testid) {
  const host = document.createElement("div");
  host.dataset.testid = testid;
  // Cells in French on an English article: a screen reader reads them in French (WCAG's language of parts).
  if (matchLocale(document.documentElement.lang) !== locale) host.lang = locale;
  const root = host.attachShadow({ mode: "open" });
  const link = document.createElement("link");
  link.rel = "stylesheet";
  link.href = STYLESHEET;
  root.append(link);
  return { host, root };
}

/** Builds the cell into `root` and returns its parts for new Cell({parts}). */
export function buildCellView(root, { name = "", theme = "auto", collapsed = false } = {}) {
  const box = element("div", "cell");
  box.dataset.theme = theme;
  const bar = element("div", "cell-bar");
  const run = button(t("▶ Run"), { className: "button run", testid: "run", title: t("Run (Ctrl+Enter)") });
  const stop = button(t("■ Stop"), { className: "button stop", testid: "stop", title: t("Stop (Esc)") });
  // Until a Cell takes these parts and listens to them (embed.html may first fetch an example), a press of
  // Run would do nothing at all: the Cell enables it as it renders.
  run.disabled = true;
  stop.disabled = true;
  const status = element("div", "status");
  Object.assign(status.dataset, { testid: "status", state: "idle" });
  status.setAttribute("role", "status");
  status.setAttribute("aria-live", "polite");
  const progress = element("progress");
  progress.max = 1;
  progress.hidden = true;
  status.append(element("span", "status-dot"), element("span", "status-text"), progress);
  const tools = element("span", "cell-tools");
  bar.append(...(name ? [element("span", "cell-name", name)] : []), run, stop, status, tools);
  const editorHost = element("div", "cell-editor");
  const extra = element("div", "cell-extra"); // exercises put their result, hints and solution here
  const output = element("div", "output");
  output.dataset.testid = "output";
  box.append(bar, editorHost, extra, output);
  if (collapsed) {
    box.dataset.collapsed = "";
    const toggle = button(t("Show code"), { className: "quiet", title: t("Show or hide this cell's code") });
    toggle.addEventListener("click", () => {
      const hidden = box.toggleAttribute("data-collapsed");
      toggle.textContent = hidden ? t("Show code") : t("Hide code");
    });
    tools.append(toggle);
  }
  box.addEventListener("keydown", (event) => {
    if (event.key === "Escape" && !stop.disabled) stop.click();
  });
  root.append(box);
  return { box, editorHost, run, stop, status, output, tools, extra };
}

/**
 * The code as plain text that can be edited, until the editor is made (cell.js): what is typed here is the cell's
 * code, and goes to the editor with the cursor where it was.
 */
export function codeArea(text, label) {
  const area = element("textarea", "cell-code");
  Object.assign(area, { defaultValue: text, spellcheck: false, autocapitalize: "off", autocomplete: "off", rows: text.split("\n").length });
  area.setAttribute("autocorrect", "off"); // Safari's
  area.dataset.testid = "editor";
  area.setAttribute("aria-label", label);
  return area;
}

/** Code shown as text. Long lines scroll sideways, so the block takes focus: arrow keys scroll it too. */
export function codeBlock(text, label) {
  const pre = element("pre", "cell-code", text);
  pre.tabIndex = 0;
  pre.setAttribute("role", "region");
  pre.setAttribute("aria-label", label);
  return pre;
}
