// Starts the page's Python as early as possible: index.html loads this before main.js,
// whose imports (the editor bundle) would otherwise delay Pyodide's download. Its worker was started
// before either (python-worker-ahead.js); the session takes it.
import { Session } from "../session/session.js";

export const session = new Session();
session.start();
