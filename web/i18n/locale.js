// Which language a page shows: `?locale=` when it names one the site has, else English. (The reader's own
// choice, kept across visits, and the browser's languages come once every page's words are in the
// catalogues: issue 45.)
export const LOCALES = ["en", "fr", "es", "en-XA"]; // en-XA: the pseudo-locale (docs/translating.md)

export function pageLocale(search = globalThis.location?.search ?? "") {
  const asked = new URLSearchParams(search).get("locale")?.toLowerCase();
  return LOCALES.find((locale) => locale.toLowerCase() === asked) ?? "en";
}
