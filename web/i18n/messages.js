// The page's words in the reader's language: t() of an English text and { name: value } gives the catalogue's
// text for it with each {name} filled in, or the English where the catalogue has none. The catalogue (dist/locales/,
// made from locales/LOCALE.po) is read as this module loads, so that a module which imports it has it at
// once; an English page reads none. `build.py messages` finds each call of t() by its first argument, a string literal.
import { pageLocale } from "./locale.js";

export const locale = pageLocale();
const messages = locale === "en" ? {} : await catalogue(locale);

async function catalogue(name) {
  try {
    const response = await fetch(new URL(`../locales/${name}.json`, import.meta.url));
    return response.ok ? ((await response.json()).messages ?? {}) : {};
  } catch {
    return {}; // English, rather than no page
  }
}

/** The catalogue's text for `text` (a page's own words, as dom/translate-page.js reads them), or `text`. */
export function translation(text) {
  return Object.hasOwn(messages, text) ? messages[text] : text;
}

export function t(text, values = {}) {
  return translation(text).replace(/\{(\w+)\}/g, (whole, name) => (Object.hasOwn(values, name) ? String(values[name]) : whole));
}
