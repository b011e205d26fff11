// Starts the page's Python as early as possible: before main.js, whose imports (the editor bundle)
// would otherwise delay Pyodide's download.
import { Session } from "../session/session.js";

export const session = new Session();
session.start();
