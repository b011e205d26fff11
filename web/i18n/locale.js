// Which language a page shows: `?locale=` when it names one the site has, else the reader's choice on the main
// page's menu (kept in this browser), else the language of the server the page came from (`serve --locale`, a
// teacher's for the room), else the first of the browser's languages the site has, else English.
// An article's cells choose theirs before the catalogue loads (hosts/article-language.js calls chooseLocale).
export const LOCALES = ["en", "fr", "es", "en-XA"]; // en-XA: the pseudo-locale (docs/translating.md)

let chosen = null;

/** The site's locale that `tag` names exactly, in any case, or null. */
function exactLocale(tag) {
  const asked = String(tag ?? "").toLowerCase();
  return LOCALES.find((locale) => locale.toLowerCase() === asked) ?? null;
}

/** The site's locale that `tag` names: the same tag in any case, or a language tag's first part (fr-CA: fr). */
export function matchLocale(tag) {
  const asked = String(tag ?? "").trim().toLowerCase();
  if (!asked) return null;
  return exactLocale(asked) ?? LOCALES.find((locale) => !locale.includes("-") && asked.split("-")[0] === locale) ?? null;
}

/** Makes `locale` (one of LOCALES) the page's, for the modules that load after this call. */
export function chooseLocale(locale) {
  chosen = LOCALES.includes(locale) ? locale : null;
}

const KEPT = "backprop-playground:locale";

/** The reader's choice on the menu, or null; storage can be blocked (a sandboxed frame, private modes). */
export function keptLocale() {
  try {
    return matchLocale(globalThis.localStorage?.getItem(KEPT));
  } catch {
    return null;
  }
}

export function keepLocale(locale) {
  try {
    globalThis.localStorage?.setItem(KEPT, locale);
  } catch {
    // the choice lasts for this visit only: the page is reloaded with ?locale= (hosts/language-menu.js)
  }
}

// `serve --locale` sets it on every response (backprop_playground/server/static.py, LOCALE_COOKIE).
const ROOM = "backprop-playground-room-locale";

/** The locale the server gave its pages, from the page's cookies, or null. */
function roomLocale(cookies = pageCookies()) {
  const value = cookies.split(";").map((pair) => pair.trim()).find((pair) => pair.startsWith(`${ROOM}=`));
  return value ? exactLocale(value.slice(ROOM.length + 1)) : null;
}

function pageCookies() {
  try {
    return globalThis.document?.cookie ?? "";
  } catch {
    return ""; // a sandboxed frame without its origin refuses document.cookie
  }
}

export function pageLocale(search = globalThis.location?.search ?? "", languages = globalThis.navigator?.languages ?? []) {
  if (chosen) return chosen;
  const exact = exactLocale(new URLSearchParams(search).get("locale"));
  if (exact) return exact;
  // The browser's languages, in its order; the pseudo-locale is only ever asked for by name.
  const browser = [...languages].map(matchLocale).find((locale) => locale && locale !== "en-XA");
  return keptLocale() ?? roomLocale() ?? browser ?? "en";
}
