// What the playground needs from the browser, tested before Python starts, so that an old or locked-down
// browser gets a sentence instead of a spinner.
import { t } from "../i18n/messages.js";

const CURRENT_BROWSER = () => t("Open the playground in a current Chrome, Edge, Firefox or Safari.");

/** A sentence naming what this browser lacks, or null. */
export function missingFeature() {
  if (typeof WebAssembly !== "object" || typeof WebAssembly.instantiate !== "function") {
    return `${t("This browser cannot run WebAssembly, which Python in the page needs (it may be turned off).")} ${CURRENT_BROWSER()}`;
  }
  if (self.origin === "null") {
    // A sandboxed iframe without allow-same-origin: the browser refuses it this site's workers.
    return t('This cell is in an iframe whose sandbox attribute leaves out allow-same-origin, so the browser does not let it start Python. The page that embeds it can add it: sandbox="allow-scripts allow-same-origin".');
  }
  if (typeof Worker !== "function" || !supportsModuleWorkers()) {
    return `${t("This browser cannot start module workers, which Python in the page needs.")} ${CURRENT_BROWSER()}`;
  }
  return null;
}

// The standard feature test: a browser that knows module workers reads the `type` option. Options are
// read before the URL, so an unparsable URL starts nothing and fetches nothing.
function supportsModuleWorkers() {
  let read = false;
  const probe = {
    get type() {
      read = true;
      return "module";
    },
  };
  try {
    new Worker("http://[", probe).terminate();
  } catch {
    // expected: the URL does not parse
  }
  return read;
}
