// The language of an article's cells, chosen before any module reads the catalogue (article-cells.js imports
// this first; course.html's bundle imports page-language.js before it, so its cells take the page's language):
// `embed.js?locale=fr` where the article's script says so, else `?locale=` in the article's address (the
// reader's, as on any page), else `data-locale` on a cell (the first cell that has one: a page has one
// catalogue, so its cells share one language), else the article's own <html lang> (fr-CA: French), else
// English. The article's <html lang> is the author's and is left as it is.
import { chooseLocale, matchLocale } from "../i18n/locale.js";

// The script tag that loaded the site's embed.js (read for its query, not imported): the site's root is one folder up.
const EMBED = `${new URL("../", import.meta.url).href}embed.js`;

function scriptLocale() {
  for (const script of document.querySelectorAll("script[src]")) {
    const src = new URL(script.getAttribute("src"), document.baseURI);
    if (src.href.split(/[?#]/)[0] === EMBED && src.searchParams.has("locale")) return src.searchParams.get("locale");
  }
  return null;
}

const asked = matchLocale(new URLSearchParams(location.search).get("locale"));
const cell = matchLocale(document.querySelector("[data-playground][data-locale]")?.dataset.locale);
chooseLocale(matchLocale(scriptLocale()) ?? asked ?? cell ?? matchLocale(document.documentElement.lang));
