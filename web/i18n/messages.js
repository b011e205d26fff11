// The page's words in the reader's language: the catalogue of the page's locale (dist/locales/, made from
// locales/LOCALE.po), read as this module loads, so that a module which imports it has it at once; an English
// page reads none. t(), tn() and translation() are catalogue.js's. `build.py messages` finds each call of t()
// and tn() by its first arguments, string literals.
import { pageLocale } from "./locale.js";
import { useCatalogue } from "./catalogue.js";

export { refusalText, t, tn, translation } from "./catalogue.js";
export const locale = pageLocale();
/** The locale for dates and times: the page's language, or the browser's own for English (as before languages). */
export const dateLocale = locale === "en" ? undefined : locale;

/** An ISO time as hours and minutes in the page's language; a text that is not a time, as it is. */
export function clock(at) {
  const time = new Date(at);
  return Number.isNaN(time.getTime()) ? at : time.toLocaleTimeString(dateLocale, { hour: "2-digit", minute: "2-digit" });
}
/** The catalogue the page uses, or null for English: the Python worker gets it with its "init" message. */
export const catalogue = locale === "en" ? null : await load(locale);
useCatalogue(catalogue);

async function load(name) {
  try {
    const response = await fetch(new URL(`../locales/${name}.json`, import.meta.url));
    return response.ok ? await response.json() : null;
  } catch {
    return null; // English, rather than no page
  }
}
