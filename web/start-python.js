// Starts the Python worker as early as possible: index.html loads this before main.js,
// whose imports (the editor bundle) would otherwise delay Pyodide's download.
import { PythonClient } from "./python-client.js";

export const python = new PythonClient();
python.start();
