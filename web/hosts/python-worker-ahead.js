// index.html's first script: the page's Python worker starts here, so that its modules load beside the
// page's own; the page's session (start-python.js), once its modules have loaded, takes it and starts Python.
import { startAhead } from "../session/start-worker.js";

startAhead(new URL("../session/python-worker.js", import.meta.url));
