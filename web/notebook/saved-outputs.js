// The outputs a Jupyter notebook was saved with, shown under its code cell (marked as saved) until the
// cell runs here. SVG and HTML go through DOMPurify; images are data: URLs, as the notebook holds them.
import DOMPurify from "../vendor/purify.es.mjs";
import { element } from "../dom/element.js";
import { t } from "../i18n/messages.js";
import { NOTEBOOK_HTML } from "./notebook-html.js";

const purify = DOMPurify(window);
const text = (value) => (Array.isArray(value) ? value.join("") : String(value ?? ""));
// Tracebacks carry terminal colours (ANSI escape codes).
// eslint-disable-next-line no-control-regex -- the escape character is what it removes
const plain = (value) => text(value).replace(/\u001b\[[0-9;]*m/g, "");

/** A section of `root` with `outputs` (nbformat's shapes), or nothing if there are none. */
export function showSavedOutputs(root, outputs) {
  if (!outputs.length) return;
  const section = element("section", "run saved");
  section.dataset.testid = "saved-output";
  section.append(element("header", "run-header", t("Saved in the notebook · not run here yet")));
  for (const output of outputs) {
    const shown = render(output);
    if (shown) section.append(shown);
  }
  root.append(section);
}

function render(output) {
  switch (output.output_type) {
    case "stream":
      return textBlock(output.name === "stderr" ? "stderr" : "stdout", text(output.text));
    case "execute_result":
    case "display_data":
      return rich(output.data ?? {});
    case "error": {
      const box = element("div", "message error");
      box.append(element("strong", "error-title", `${output.ename}: ${output.evalue}`));
      const traceback = Array.isArray(output.traceback) ? output.traceback.join("\n") : output.traceback;
      box.append(element("pre", "traceback", plain(traceback)));
      return box;
    }
    default:
      return null;
  }
}

function rich(data) {
  if (data["image/svg+xml"]) {
    const figure = element("figure", "saved-image");
    figure.append(purify.sanitize(text(data["image/svg+xml"]), { ...NOTEBOOK_HTML, USE_PROFILES: { svg: true, svgFilters: true }, RETURN_DOM_FRAGMENT: true }));
    return figure;
  }
  for (const type of ["image/png", "image/jpeg", "image/gif"]) {
    if (data[type]) {
      const image = element("img", "saved-image");
      image.src = `data:${type};base64,${text(data[type]).replace(/\s/g, "")}`;
      image.alt = plain(data["text/plain"]) || "an image saved in the notebook";
      return image;
    }
  }
  if (data["text/html"]) {
    const box = element("div", "saved-html");
    box.append(purify.sanitize(text(data["text/html"]), { ...NOTEBOOK_HTML, RETURN_DOM_FRAGMENT: true }));
    return box;
  }
  if (data["text/plain"]) return textBlock("result", text(data["text/plain"]));
  return null;
}

function textBlock(kind, value) {
  const pre = element("pre", `text ${kind}`, value);
  pre.dataset.kind = kind;
  return pre;
}
