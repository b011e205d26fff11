// The page's words in the reader's language: t() of an English text and { name: value } gives the catalogue's
// text for it with each {name} filled in, or the English where the catalogue has none; tn() of the English
// one and many, a number and the values chooses the form that number takes in the reader's language. The
// catalogue (dist/locales/, made from locales/LOCALE.po) is read as this module loads, so that a module which
// imports it has it at once; an English page reads none. `build.py messages` finds each call by its first
// arguments, string literals.
import { pageLocale } from "./locale.js";
import { pluralRule } from "./plural.js";

export const locale = pageLocale();
const loaded = locale === "en" ? null : await catalogue(locale);
const messages = loaded?.messages ?? {};
const formOf = rule(loaded?.plural);

async function catalogue(name) {
  try {
    const response = await fetch(new URL(`../locales/${name}.json`, import.meta.url));
    return response.ok ? await response.json() : null;
  } catch {
    return null; // English, rather than no page
  }
}

function rule(expression) {
  try {
    return pluralRule(expression ?? "n != 1");
  } catch {
    return pluralRule("n != 1");
  }
}

/** The catalogue's text for `text` (a page's own words, as dom/translate-page.js reads them), or `text`. */
export function translation(text) {
  return typeof messages[text] === "string" && Object.hasOwn(messages, text) ? messages[text] : text;
}

export function t(text, values = {}) {
  return filled(translation(text), values);
}

export function tn(one, many, n, values = {}) {
  const forms = Object.hasOwn(messages, one) ? messages[one] : null;
  const text = Array.isArray(forms) && forms.length ? (forms[formOf(n)] ?? forms.at(-1)) : n === 1 ? one : many;
  return filled(text, values);
}

const filled = (text, values) =>
  text.replace(/\{(\w+)\}/g, (whole, name) => (Object.hasOwn(values, name) ? String(values[name]) : whole));
