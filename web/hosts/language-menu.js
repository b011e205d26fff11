// The main page's language menu: the reader's choice is kept in this browser (i18n/locale.js) and the page
// opens again in it, with ?locale= in its address; the editor's text is kept on every change (saved-code.js).
import { keepLocale } from "../i18n/locale.js";
import { locale } from "../i18n/messages.js";

export function languageMenu(select) {
  select.value = [...select.options].some((option) => option.value === locale) ? locale : "en";
  select.addEventListener("change", () => {
    keepLocale(select.value);
    const address = new URL(location.href);
    address.searchParams.set("locale", select.value);
    location.assign(address);
  });
}
