// micrograd 0.1.0 against scalargrad inside Pyodide under Node, each engine in a Node process of its own
// (its own Pyodide, heap and collector), the processes taking turns so that they share the CPU's weather:
// bench/engine_vs_micrograd.py's loop (MLP(2, [16, 16, 1]), 100 moons, hinge + 1e-4 L2, GC on, same data
// and weights, same losses checked), the median ms/step of each engine per repetition (the first one
// rotating), then a breakdown of a step per scalargrad (build the graph, zero_grad, topological order,
// backward, update, free), one step per engine in turn, min/median.
//
//   python build.py && pip download --no-deps -d .cache/micrograd micrograd==0.1.0
//   node bench/engines_in_pyodide.mjs [--reps 8] [--steps 5] [NAME=path/to/engine.py ...]
//   node bench/engines_in_pyodide.mjs --script file.py [NAME=path/to/engine.py ...]
//
// scalargrad is the wheel in dist/wheels; each NAME=engine.py is another engine run with this
// checkout's nn.py (importable as NAME.engine, NAME.nn), or NAME=dir/ with its own engine.py and nn.py.
// --script runs a Python file in this process instead, with the variants on sys.path and `config` set.
// The machine may be shared: compare only engines measured in the same run, and read the ranges.
import { fork } from "node:child_process";
import { existsSync, readFileSync, readdirSync } from "node:fs";
import { dirname, resolve } from "node:path";
import { fileURLToPath, pathToFileURL } from "node:url";

const root = resolve(dirname(fileURLToPath(import.meta.url)), "..");
const args = process.argv.slice(2);
const option = (name, fallback) => {
  const i = args.indexOf(name);
  return i < 0 ? fallback : args.splice(i, 2)[1];
};
const reps = Number(option("--reps", 5));
const steps = Number(option("--steps", 10));
const script = option("--script", null);
const engine = option("--engine", null); // set in a child process: the one engine it runs
const micrograd = option("--micrograd", `${root}/.cache/micrograd/micrograd-0.1.0-py3-none-any.whl`);
const variants = args.map((a) => [a.slice(0, a.indexOf("=")), a.slice(a.indexOf("=") + 1)]);
const children = [];
let stopping = false;
const stopAll = () => {
  stopping = true;
  children.forEach((child) => child.kill());
};

async function startPython() {
  const dist = `${root}/dist`;
  const { loadPyodide } = await import(pathToFileURL(`${dist}/pyodide/pyodide.mjs`).href);
  const pyodide = await loadPyodide({ indexURL: `${dist}/pyodide/` });
  const site = pyodide.runPython("import sysconfig; sysconfig.get_paths()['purelib']");
  const wheel = readdirSync(`${dist}/wheels`).find((f) => f.startsWith("scalargrad-"));
  pyodide.unpackArchive(new Uint8Array(readFileSync(`${dist}/wheels/${wheel}`)), "wheel", { extractDir: site });
  pyodide.unpackArchive(new Uint8Array(readFileSync(micrograd)), "wheel", { extractDir: site });
  for (const [name, path] of variants) {
    const file = path.endsWith(".py");
    if (!existsSync(file ? path : `${path}/engine.py`)) throw new Error(`${name}=${path}: no ${file ? path : `${path}/engine.py`}`);
    const nn = !file && existsSync(`${path}/nn.py`) ? `${path}/nn.py` : `${root}/py/scalargrad/scalargrad/nn.py`;
    pyodide.FS.mkdirTree(`/lab/${name}`);
    pyodide.FS.writeFile(`/lab/${name}/__init__.py`, "");
    pyodide.FS.writeFile(`/lab/${name}/engine.py`, readFileSync(file ? path : `${path}/engine.py`, "utf8"));
    pyodide.FS.writeFile(`/lab/${name}/nn.py`, readFileSync(nn, "utf8"));
  }
  pyodide.FS.mkdirTree("/lab");
  pyodide.FS.writeFile("/lab/engine_vs_micrograd.py", readFileSync(`${root}/bench/engine_vs_micrograd.py`, "utf8"));
  pyodide.setStdout({ batched: (line) => console.log(line) });
  pyodide.setStderr({ batched: (line) => console.error(line) });
  pyodide.runPython("import sys; sys.path.insert(0, '/lab')");
  return pyodide;
}

// One engine's side: the moons data, a model with the reference weights, and the two measures.
const ENGINE = `
import gc, importlib, json, random, statistics, sys, time
import micrograd.nn
import scalargrad

from engine_vs_micrograd import loss_of, step  # the workload, as CPython runs it

X, labels = scalargrad.make_moons(100, noise=0.1, seed=1337)
y = [2 * label - 1 for label in labels]
random.seed(1337)
reference = micrograd.nn.MLP(2, [16, 16, 1])
Value = importlib.import_module(name + '.engine').Value
MLP = importlib.import_module(name + '.nn').MLP

def new_model():
    model = MLP(2, [16, 16, 1])
    for p, q in zip(reference.parameters(), model.parameters(), strict=True):
        q.data = p.data
    return model

def run(steps):
    model = new_model()
    gc.collect()
    times, losses = [], []
    for k in range(steps):
        start = time.perf_counter()
        losses.append(step(model, X, y, Value, k, steps))
        times.append(time.perf_counter() - start)
    return json.dumps({'ms': 1000 * statistics.median(times), 'losses': losses})

breakdown_model = new_model()

def breakdown_step():
    model = breakdown_model
    gc.collect()
    t0 = time.perf_counter()
    loss = loss_of(model, X, y, Value)
    t1 = time.perf_counter()
    model.zero_grad()
    t2 = time.perf_counter()
    order = loss.topological_order()
    t3 = time.perf_counter()
    n = len(order)
    del order
    t4 = time.perf_counter()
    loss.backward()
    t5 = time.perf_counter()
    for p in model.parameters():
        p.data -= 0.01 * p.grad
    t6 = time.perf_counter()
    del loss
    t7 = time.perf_counter()
    return json.dumps({'values': n, 'parts': {
        'build': t1 - t0, 'zero_grad': t2 - t1, 'topo': t3 - t2, 'backward': t5 - t4,
        'update': t6 - t5, 'free': t7 - t6 + t4 - t3}})
`;

async function child() {
  const pyodide = await startPython();
  process.on("disconnect", () => process.exit(1)); // the parent is gone
  pyodide.globals.set("name", engine);
  pyodide.runPython(ENGINE);
  process.on("message", ({ call, arg }) => {
    const answer = arg === undefined ? pyodide.globals.get(call)() : pyodide.globals.get(call)(arg);
    process.send(JSON.parse(answer));
  });
  process.send({ ready: true, version: pyodide.runPython("import sys; sys.version.split()[0]") });
}

function startEngine(name) {
  const proc = fork(fileURLToPath(import.meta.url),
    ["--engine", name, "--micrograd", micrograd, ...variants.map((v) => v.join("="))]);
  let waiting = null;
  const ready = new Promise((resolve) => (waiting = resolve));
  proc.on("message", (message) => waiting(message));
  proc.on("exit", (code, signal) => {
    if (!stopping && (code || signal)) {
      console.error(`${name}: its process ended with ${code ?? signal}`);
      stopAll();
      process.exit(1);
    }
  });
  children.push(proc);
  return {
    name,
    ready,
    ask(call, arg) {
      const answer = new Promise((resolve) => (waiting = resolve));
      proc.send({ call, arg });
      return answer;
    },
  };
}

const median = (xs) => {
  const s = [...xs].sort((a, b) => a - b);
  return s.length % 2 ? s[(s.length - 1) / 2] : (s[s.length / 2 - 1] + s[s.length / 2]) / 2;
};
const range = (xs) => `[${Math.min(...xs).toFixed(2)}-${Math.max(...xs).toFixed(2)}]`;

async function parent() {
  const engines = ["micrograd", "scalargrad", ...variants.map(([n]) => n)].map(startEngine);
  const { version } = (await Promise.all(engines.map((e) => e.ready)))[0];
  console.log(`Python ${version} in Pyodide under Node ${process.version}, a process per engine; `
    + `${steps} steps per engine per repetition, GC on`);
  const results = Object.fromEntries(engines.map((e) => [e.name, []]));
  for (let rep = 0; rep < reps; rep++) {
    const order = [...engines.slice(rep % engines.length), ...engines.slice(0, rep % engines.length)];
    const line = {};
    for (const e of order) line[e.name] = await e.ask("run", steps);
    const reference = line.micrograd.losses;
    for (const e of engines) {
      const same = line[e.name].losses.every((loss, k) => Math.abs(loss - reference[k]) <= 1e-9 * Math.abs(reference[k]));
      if (!same) throw new Error(`${e.name}: losses differ from micrograd's`);
      results[e.name].push(line[e.name].ms);
    }
    const mg = line.micrograd.ms;
    console.log(`rep ${rep + 1}: ` + engines.map((e) => `${e.name} ${line[e.name].ms.toFixed(1)} ms`
      + (e.name === "micrograd" ? "" : ` (${(mg / line[e.name].ms).toFixed(2)}x)`)).join("  "));
  }
  console.log("summary (median over repetitions; range):");
  for (const e of engines) {
    const ms = results[e.name];
    const ratios = results.micrograd.map((m, i) => m / ms[i]);
    console.log(`  ${e.name.padEnd(14)} ${median(ms).toFixed(1).padStart(7)} ms/step `
      + `[${Math.min(...ms).toFixed(1)}-${Math.max(...ms).toFixed(1)}]`
      + (e.name === "micrograd" ? "" : `   ratio ${median(ratios).toFixed(2)}x ${range(ratios)}`));
  }
  // One step per engine in turn, so that all see the same load; backward includes its own topological order.
  const ours = engines.filter((e) => e.name !== "micrograd");
  const parts = Object.fromEntries(ours.map((e) => [e.name, {}]));
  let values = 0;
  for (let k = 0; k < 2 * steps; k++) {
    for (const e of ours) {
      const answer = await e.ask("breakdown_step");
      if (e.name === "scalargrad") values = answer.values;
      for (const [part, seconds] of Object.entries(answer.parts)) (parts[e.name][part] ??= []).push(1000 * seconds);
    }
  }
  console.log(`breakdown, ms per step for ${values.toLocaleString("en")} values, min/median of ${2 * steps} steps, engines in turn:`);
  for (const e of ours) {
    console.log(`  ${e.name.padEnd(14)} ` + Object.entries(parts[e.name])
      .map(([part, ms]) => `${part} ${Math.min(...ms).toFixed(1)}/${median(ms).toFixed(1)}`).join("  "));
  }
  stopAll();
}

async function runScript() {
  const pyodide = await startPython();
  pyodide.globals.set("config", pyodide.toPy({ reps, steps, variants: variants.map(([n]) => n) }));
  pyodide.runPython(readFileSync(script, "utf8"));
}

try {
  await (engine ? child() : script ? runScript() : parent());
} catch (error) {
  console.error(error.message);
  stopAll();
  process.exit(1);
}
