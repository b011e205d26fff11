// The Python worker: boots Pyodide, installs the wheels with micropip, runs programs.
// The messages it trades with python-client.js are listed in README.md, "Worker protocol".
import { loadPyodide } from "./pyodide/pyodide.mjs";

const STEPS = 4;
let playground = null;
let interruptBuffer = null;

const post = (message) => self.postMessage(message);
const progress = (step, text) => post({ type: "progress", step, steps: STEPS, text });

self.onmessage = ({ data }) => {
  if (data.type === "init") {
    boot(data).catch((error) => post({ type: "failed", error: describe(error) }));
  } else if (data.type === "run") {
    run(data);
  } else if (data.type === "reset") {
    playground.reset(data.env);
  }
};

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
  progress(1, "Downloading Python (about 7 MB the first time)…");
  const buildInfo = fetch(url("build.json")).then((response) => response.json());
  const pyodide = await loadPyodide({ indexURL: url("pyodide/"), stdout: () => {}, stderr: () => {} });
  const info = await buildInfo;
  measure("pyodide");
  if (buffer) {
    interruptBuffer = buffer;
    pyodide.setInterruptBuffer(buffer);
  }
  progress(2, "Loading the package installer…");
  const problems = [];
  await pyodide.loadPackage("micropip", { messageCallback: () => {}, errorCallback: (m) => problems.push(m) });
  // loadPackage reports a bad download only as a message: check that micropip is really there.
  let micropip;
  try {
    micropip = pyodide.pyimport("micropip");
  } catch (error) {
    throw new Error(`micropip could not be loaded: ${problems.join("; ") || describe(error)}`);
  }
  measure("micropip");
  progress(3, `Installing ${info.wheels.map((w) => w.split("-")[0]).join(" and ")}…`);
  await micropip.install.callKwargs(info.wheels.map((w) => url(`wheels/${w}`)), { deps: false });
  measure("install");
  progress(4, "Starting the engine…");
  playground = pyodide.pyimport("scalargrad.playground");
  measure("engine");
  post({ type: "ready", python: info.python, interruptible: Boolean(buffer), timings });
}

function run({ id, code, env, checks }) {
  if (interruptBuffer) interruptBuffer[0] = 0;
  const emit = (text) => post({ type: "output", id, event: JSON.parse(text) });
  try {
    // Pyodide turns JS null into jsnull, not None: pass undefined for "no env" and "no checks".
    const result = JSON.parse(playground.run(code, emit, env ?? undefined, checks ?? undefined));
    post({ type: "done", id, result });
  } catch (error) {
    // Not a Python exception (run() catches those): Pyodide itself failed and cannot be trusted.
    post({ type: "failed", id, error: describe(error) });
  }
}

function describe(error) {
  return error && error.message ? error.message : String(error);
}
