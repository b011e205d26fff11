// A page's own words, in its HTML, in the reader's language. The page is read as `build.py messages` reads it
// (py/backprop-playground/backprop_playground/catalogues/extract.py): each element's text where it has no
// element inside, an element marked data-i18n as one message with its <code>, <strong> and <em> kept, and the title,
// aria-label, placeholder and alt attributes; nothing inside script, style, pre, code, textarea or svg, or
// under translate="no".
import { locale, translation } from "../i18n/messages.js";

const SKIPPED = new Set(["script", "style", "pre", "code", "textarea", "svg"]);
const ATTRIBUTES = ["title", "aria-label", "placeholder", "alt"];
const LETTER = /\p{L}/u;
const INLINE = ["code", "strong", "em"]; // the elements a data-i18n message keeps, with their tags
const INLINE_PART = new RegExp(`(${INLINE.map((tag) => `<${tag}>.*?</${tag}>`).join("|")})`);
const TAGGED = new RegExp(`^<(${INLINE.join("|")})>(.*)</\\1>$`);

const collapsed = (text) => text.split(/\s+/).filter(Boolean).join(" ");

export function translatePage(doc = document) {
  // Set only when it differs: setting it, even to the same value, restyles every element of the page (:lang).
  if (doc.documentElement.lang !== locale) doc.documentElement.lang = locale;
  if (locale !== "en") translate(doc.documentElement);
}

function translate(element) {
  if (SKIPPED.has(element.localName) || element.getAttribute("translate") === "no") return;
  for (const name of ATTRIBUTES) translateAttribute(element, name);
  if (element.localName === "meta" && element.getAttribute("name") === "description") translateAttribute(element, "content");
  if (element.hasAttribute("data-i18n")) return translateInline(element);
  if (element.localName === "template") {
    for (const child of [...element.content.children]) translate(child); // a hint, shown later
    return;
  }
  if (element.children.length === 0) {
    const text = collapsed(element.textContent);
    if (LETTER.test(text) && translation(text) !== text) element.textContent = translation(text);
    return;
  }
  for (const child of [...element.children]) translate(child);
}

function translateAttribute(element, name) {
  const text = collapsed(element.getAttribute(name) ?? "");
  if (LETTER.test(text) && translation(text) !== text) element.setAttribute(name, translation(text));
}

/** Text, <code>, <strong> and <em> as one message; the translation's own such parts become those elements again. */
function translateInline(element) {
  const inline = (node) => INLINE.includes(node.localName);
  const parts = [...element.childNodes].map((node) => (inline(node) ? `<${node.localName}>${node.textContent}</${node.localName}>` : node.textContent ?? ""));
  const text = collapsed(parts.join(""));
  if (translation(text) === text) return;
  element.replaceChildren(...translation(text).split(INLINE_PART).filter(Boolean).map((part) => {
    const tagged = part.match(TAGGED);
    if (!tagged) return document.createTextNode(part);
    const node = document.createElement(tagged[1]);
    node.textContent = tagged[2];
    return node;
  }));
}
