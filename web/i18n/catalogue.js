// The catalogue in use and what reads it: t() of an English text and { name: value } gives the catalogue's text
// for it with each {name} filled in, or the English where the catalogue has none; tn() of the English one and
// many, a number and the values chooses the form that number takes in the catalogue's language; listed() joins
// names as that language lists them. No top-level await here: the Python worker imports this module, and a module
// worker that awaited while loading would miss the messages the page posts to it meanwhile (it gets the page's
// catalogue with its "init" message instead).
import { pluralRule } from "./plural.js";

const english = pluralRule("n != 1");
let messages = {};
let formOf = english;

/** Uses `catalogue` ({locale, plural, messages}, dist/locales/LOCALE.json), or English for null. */
export function useCatalogue(catalogue) {
  messages = catalogue?.messages ?? {};
  try {
    formOf = pluralRule(catalogue?.plural ?? "n != 1");
  } catch {
    formOf = english;
  }
}

/** The catalogue's text for `text` (a page's own words, as dom/translate-page.js reads them), or `text`. */
export function translation(text) {
  return Object.hasOwn(messages, text) && typeof messages[text] === "string" ? messages[text] : text;
}

export function t(text, values = {}) {
  return filled(translation(text), values);
}

export function tn(one, many, n, values = {}) {
  const forms = Object.hasOwn(messages, one) ? messages[one] : null;
  const text = Array.isArray(forms) && forms.length ? (forms[formOf(n)] ?? forms.at(-1)) : n === 1 ? one : many;
  return filled(text, values);
}

/**
 * `items` as the catalogue's language lists them: "a, b and c". Not Intl.ListFormat, whose first use in a worker
 * costs 25-45 ms of processor (ICU's locale data), paid by Python's start on two cores.
 */
export function listed(items) {
  if (items.length < 2) return items.join("");
  return t("{some} and {last}", { some: items.slice(0, -1).join(", "), last: items.at(-1) }); // as teaching.py lists
}

/**
 * A refusal of the classroom's server ({error, message, values}: backprop_playground/classroom/statements.py) in
 * the catalogue's language: its message's translation with its values filled in, else its error as sent.
 */
export function refusalText(answer) {
  const { error, message, values } = answer !== null && typeof answer === "object" ? answer : {};
  if (typeof message !== "string" || typeof values !== "object" || values === null) return error;
  return filled(translation(message), values);
}

const filled = (text, values) =>
  text.replace(/\{(\w+)\}/g, (whole, name) => (Object.hasOwn(values, name) ? String(values[name]) : whole));
