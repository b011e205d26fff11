// Starts the page's Python as early as possible: before main.js's own code (the cell, the examples)
// runs, so that Pyodide's download starts first.
import { Session } from "../session/session.js";

export const session = new Session();
session.start();
