// Why a run gets a fresh Python, in the reader's language. The reasons come as English phrases from the Python
// worker (python-worker.js) and from the check after each run (playground_runtime/isolation.py), which stays
// free of the catalogue: a run's own code could reach what the check would call. The page finds each phrase's
// words here; a phrase not listed (one the runtime translated itself, such as "ran out of memory") stays.
import { t } from "../i18n/messages.js";

// The more particular first: "changed the module math" before "changed {what}".
const PHRASES = [
  [/^imported (.+)$/, (name) => t("imported {name}", { name })],
  [/^wrote to a file$/, () => t("wrote to a file")],
  [/^changed the file system$/, () => t("changed the file system")],
  [/^added an audit hook$/, () => t("added an audit hook")],
  [/^set a trace function$/, () => t("set a trace function")],
  [/^set a profile function$/, () => t("set a profile function")],
  [/^used the garbage collector's list of objects$/, () => t("used the garbage collector's list of objects")],
  [/^changed the working directory$/, () => t("changed the working directory")],
  [/^changed an environment variable$/, () => t("changed an environment variable")],
  [/^used ctypes$/, () => t("used ctypes")],
  [/^put its own code into the module (.+)$/, (name) => t("put its own code into the module {name}", { name })],
  [/^replaced the module (.+)$/, (name) => t("replaced the module {name}", { name })],
  [/^changed a class or a closure of the module (.+)$/, (name) => t("changed a class or a closure of the module {name}", { name })],
  [/^left objects of its own alive \(their __del__ or callbacks could run in a later run\)$/,
    () => t("left objects of its own alive (their __del__ or callbacks could run in a later run)")],
  [/^changed sys\.modules, sys's import or trace hooks, or the warnings filters$/,
    () => t("changed sys.modules, sys's import or trace hooks, or the warnings filters")],
  [/^changed a setting of Python's \(the garbage collector, the environment, the working directory\)$/,
    () => t("changed a setting of Python's (the garbage collector, the environment, the working directory)")],
  [/^changed JavaScript's own (.+)$/, (name) => t("changed JavaScript's own {name}", { name })],
  [/^used JavaScript \(the js module\)$/, () => t("used JavaScript (the js module)")],
  [/^used Pyodide's JavaScript API \(pyodide_js\)$/, () => t("used Pyodide's JavaScript API (pyodide_js)")],
  [/^used Pyodide's internals \(pyodide_js\._api\)$/, () => t("used Pyodide's internals (pyodide_js._api)")],
  [/^used Pyodide's package list \(a JavaScript object\)$/, () => t("used Pyodide's package list (a JavaScript object)")],
  [/^ran JavaScript of its own$/, () => t("ran JavaScript of its own")],
  [/^failed to run its warm-up \((.+)\)$/s, (error) => t("failed to run its warm-up ({error})", { error })],
  [/^left Python in a state that could not be checked \((.+)\)$/s, (error) => t("left Python in a state that could not be checked ({error})", { error })],
  [/^left work scheduled on the event loop$/, () => t("left work scheduled on the event loop")],
  [/^did not give its verdict after the run$/, () => t("did not give its verdict after the run")], // python-client.js
  [/^changed the module (.+)$/, (name) => t("changed the module {name}", { name })],
  [/^changed the class (.+)$/, (name) => t("changed the class {name}", { name })],
  [/^changed the function (.+)$/, (name) => t("changed the function {name}", { name })],
  [/^changed (.+)$/, (what) => t("changed {what}", { what })],
];

/** `reason` (an English phrase, as the worker sends it) in the page's language. */
export function reasonText(reason) {
  const text = String(reason);
  for (const [phrase, words] of PHRASES) {
    const found = phrase.exec(text);
    if (found) return words(...found.slice(1));
  }
  return text;
}
