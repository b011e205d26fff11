// "Open in playground ↗": the main page in a new tab with a cell's code in the link (share-link.js), made
// anew as the pointer or the focus arrives and again on the click, since the code may have changed since.
import { element } from "../dom/element.js";
import { linkWithCode } from "../formats/share-link.js";
import { t } from "../i18n/messages.js";

const PLAYGROUND = new URL("../index.html", import.meta.url).href;

/**
 * The link to `playground` (this site's main page by default); `code()` gives (or promises) the code to
 * open, `points()` the cell's own data (or null).
 */
export function playgroundLink(code, points = () => null, playground = PLAYGROUND) {
  const link = element("a", "", t("Open in playground ↗"));
  Object.assign(link, { href: playground, target: "_blank", rel: "noopener" });
  link.dataset.testid = "open-in-playground";
  const refresh = async () => (link.href = await linkWithCode(playground, await code(), points()));
  link.addEventListener("pointerenter", refresh);
  link.addEventListener("focus", refresh);
  link.addEventListener("click", async (event) => {
    event.preventDefault();
    window.open(await refresh(), "_blank", "noopener");
  });
  return link;
}
