// The Python worker: boots Pyodide, unpacks the wheels, runs programs.
// The messages it trades with python-client.js are listed in README.md, "Worker protocol".
// The wheels download alongside the runtime and are unpacked straight into site-packages, so the start
// costs what a bare loadPyodide costs; micropip loads only for a program that imports it.
import { loadPyodide } from "./pyodide/pyodide.mjs";

const STEPS = 3;
let pyodide = null;
let playground = null;
// Taken once at the start: a program can replace scalargrad.playground's functions, not these references.
let runProgram = null;
let changes = null;
let interruptBuffer = null;
// The page's private channel, in module scope: Python's `js` is the global scope, which does not hold it.
let port = null;
// Why the run in progress reached outside its namespace; python-client.js replaces this worker if any.
const reasons = new Set();
const reach = (reason) => reasons.add(String(reason));

const post = (message) => port.postMessage(message);
const progress = (step, text) => post({ type: "progress", step, steps: STEPS, text });

self.onmessage = ({ data }) => {
  if (data.type !== "init" || port) return;
  self.onmessage = null;
  port = data.port;
  port.onmessage = ({ data }) => {
    if (data.type === "run") run(data);
    else if (data.type === "reset") playground.reset(data.env);
  };
  boot(data).catch((error) => post({ type: "failed", error: describe(error) }));
};

/**
 * The object Python sees as `js`: the global scope, but any use of it marks the run, which then gets a
 * worker of its own that ends with it (a timer or a handler set through `js` would otherwise outlive it).
 */
const jsGlobals = new Proxy(globalThis, {
  get(target, key) {
    reach("used JavaScript (the js module)");
    const value = Reflect.get(target, key);
    // Web API functions (setTimeout, fetch) refuse to be called on a Proxy; constructors keep their statics.
    return typeof value === "function" && !("prototype" in value) ? value.bind(target) : value;
  },
  set(target, key, value) {
    reach("used JavaScript (the js module)");
    return Reflect.set(target, key, value);
  },
  defineProperty(target, key, descriptor) {
    reach("used JavaScript (the js module)");
    return Reflect.defineProperty(target, key, descriptor);
  },
  deleteProperty(target, key) {
    reach("used JavaScript (the js module)");
    return Reflect.deleteProperty(target, key);
  },
});

async function download(url) {
  const response = await fetch(url);
  if (!response.ok) throw new Error(`${url}: ${response.status} ${response.statusText}`);
  return response;
}

async function boot({ base, interruptBuffer: buffer }) {
  // Relative URLs in a worker resolve against the worker script; the page sends its own base.
  const url = (path) => new URL(path, base).href;
  const timings = {};
  let lap = performance.now();
  const measure = (name) => {
    const now = performance.now();
    timings[name] = Math.round(now - lap);
    lap = now;
  };
  progress(1, "Downloading Python (about 13 MB the first time)…");
  const info = download(url("build.json")).then((response) => response.json());
  const wheels = info.then(({ wheels }) =>
    Promise.all(wheels.map(async (name) => ({ name, bytes: await (await download(url(`wheels/${name}`))).arrayBuffer() }))));
  wheels.catch(() => {}); // reported below, once Python is there to say it
  const start = await Promise.race([startPython(url, info), runtimeFailure()]);
  pyodide = start.pyodide;
  measure("pyodide");
  if (buffer) {
    interruptBuffer = buffer;
    pyodide.setInterruptBuffer(buffer);
  }
  progress(2, `Installing ${(await info).wheels.map((w) => w.split("-")[0]).join(" and ")}…`);
  // Also after a snapshot: it restores Python's memory, not its files (tracebacks and imports need them).
  // unpackArchive's default is the working directory, not site-packages, where the snapshot imported from.
  const extractDir = pyodide.runPython("import sysconfig; sysconfig.get_path('purelib')");
  for (const { bytes } of await wheels) pyodide.unpackArchive(bytes, "wheel", { extractDir });
  measure("install");
  progress(3, "Starting the engine…");
  playground = pyodide.pyimport("scalargrad.playground");
  if (start.from === "snapshot") playground.restored();
  watchPyodideApi();
  runProgram = playground.run;
  changes = playground.watch(reach);
  reasons.clear(); // what the worker itself did to start Python
  measure("engine");
  post({ type: "ready", python: (await info).python, interruptible: Boolean(buffer), start: start.from, timings });
}

/**
 * Python restored from the build's memory snapshot (scalargrad already imported), or booted as usual
 * if the build has none or it does not restore: the snapshot fits only the runtime that made it.
 */
async function startPython(url, info) {
  const options = { indexURL: url("pyodide/"), stdout: () => {}, stderr: () => {}, jsglobals: jsGlobals };
  const snapshot = info.then(({ snapshot }) => (snapshot ? download(url(snapshot)).then((r) => r.arrayBuffer()) : null));
  snapshot.catch(() => {}); // a plain boot follows
  try {
    if (await snapshot) return { pyodide: await loadPyodide({ ...options, _loadSnapshot: snapshot }), from: "snapshot" };
  } catch {
    // fall through to the plain boot
  }
  return { pyodide: await loadPyodide(options), from: "boot" };
}

/**
 * Rejects if Pyodide cannot download or compile its WebAssembly. Pyodide 314 only logs that failure
 * ("wasm instantiation failed!", then the error) and its loadPyodide never settles: the page would say
 * "Downloading Python…" forever.
 */
function runtimeFailure() {
  return new Promise((_, reject) => {
    const warn = console.warn;
    let failed = false;
    console.warn = (...args) => {
      warn(...args);
      if (failed) {
        console.warn = warn;
        reject(new Error(`the Python runtime (pyodide.asm.wasm) could not be downloaded or compiled: ${describe(args[0])}`));
      }
      failed ||= args[0] === "wasm instantiation failed!";
    };
  });
}

/** Whether the program imports micropip, read by Python's own parser (`import asyncio, micropip` too). */
function importsMicropip(code) {
  if (!code.includes("micropip")) return false;
  const found = pyodide.pyimport("pyodide.code").find_imports(code); // [] for a program that does not parse
  try {
    return found.toJs().includes("micropip");
  } finally {
    found.destroy();
  }
}

/** micropip (shipped in pyodide/, with its lock entry) loads the first time a program imports it. */
async function loadMicropipIfImported(code, notice) {
  if (pyodide.loadedPackages.micropip || !importsMicropip(code)) return;
  const problems = [];
  await pyodide.loadPackage("micropip", { messageCallback: () => {}, errorCallback: (m) => problems.push(m) });
  // loadPackage reports a bad download only as a message: say so before the import fails.
  if (!pyodide.loadedPackages.micropip) notice(`micropip could not be loaded: ${problems.join("; ") || "no reason given"}`);
}

async function run({ id, code, env, checks }) {
  if (interruptBuffer) interruptBuffer[0] = 0;
  reasons.clear();
  const emit = (text) => post({ type: "output", id, event: JSON.parse(text) });
  try {
    await loadMicropipIfImported(code, (text) => post({ type: "output", id, event: { type: "notice", text } }));
    // Pyodide turns JS null into jsnull, not None: pass undefined for "no env" and "no checks".
    const result = JSON.parse(runProgram(code, emit, env ?? undefined, checks ?? undefined));
    post({ type: "done", id, result });
  } catch (error) {
    // Not a Python exception (run() catches those): Pyodide itself failed and cannot be trusted.
    post({ type: "failed", id, error: describe(error) });
    return;
  }
  // After "done", while the page draws: whether this interpreter may run the next program.
  try {
    const found = changes();
    for (const reason of found) reach(reason);
    found.destroy();
  } catch (error) {
    reach(`left Python in a state that could not be checked (${describe(error)})`);
  }
  post({ type: "settled", id, reasons: [...reasons] });
  // This worker has run its last program: close it now, discarding the tasks the run queued (a timer, a
  // promise's callback), rather than one message later, when the page terminates it.
  if (reasons.size) self.close();
  reasons.clear();
}

/** `pyodide_js` (Pyodide's own API, which can set handlers that outlive a run) marks the run, like `js`. */
function watchPyodideApi() {
  const api = new Proxy(pyodide, {
    get(target, key) {
      reach("used Pyodide's JavaScript API (pyodide_js)");
      return Reflect.get(target, key);
    },
  });
  pyodide.registerJsModule("pyodide_js", api);
  pyodide.runPython("import sys; sys.modules.pop('pyodide_js', None); import pyodide_js");
}

function describe(error) {
  return error && error.message ? error.message : String(error);
}
