// Which language a page shows: `?locale=` when it names one the site has, else English. An article's cells
// (embed.js) choose theirs before the catalogue loads (hosts/article-language.js calls chooseLocale). (The
// reader's own choice, kept across visits, and the browser's languages come once every page's words are in
// the catalogues: issue 45.)
export const LOCALES = ["en", "fr", "es", "en-XA"]; // en-XA: the pseudo-locale (docs/translating.md)

let chosen = null;

/** The site's locale that `tag` names: the same tag in any case, or a language tag's first part (fr-CA: fr). */
export function matchLocale(tag) {
  const asked = String(tag ?? "").trim().toLowerCase();
  if (!asked) return null;
  return LOCALES.find((locale) => locale.toLowerCase() === asked) ?? LOCALES.find((locale) => !locale.includes("-") && asked.split("-")[0] === locale) ?? null;
}

/** Makes `locale` (one of LOCALES) the page's, for the modules that load after this call. */
export function chooseLocale(locale) {
  chosen = LOCALES.includes(locale) ? locale : null;
}

export function pageLocale(search = globalThis.location?.search ?? "") {
  if (chosen) return chosen;
  const asked = new URLSearchParams(search).get("locale")?.toLowerCase();
  return LOCALES.find((locale) => locale.toLowerCase() === asked) ?? "en";
}
