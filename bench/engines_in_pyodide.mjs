// micrograd 0.1.0 against scalargrad inside Pyodide under Node, side by side in one process:
// bench/engine_vs_micrograd.py's loop (MLP(2, [16, 16, 1]), 100 moons, hinge + 1e-4 L2, GC on,
// same data and weights, same losses checked), the median ms/step of each engine per repetition
// (engines take turns, the first one rotating), then a breakdown of a step per scalargrad (build the
// graph, zero_grad, topological order, backward, update, free), one step per engine in turn, min/median.
//
//   python build.py && pip download --no-deps -d .cache/micrograd micrograd==0.1.0
//   node bench/engines_in_pyodide.mjs [--reps 8] [--steps 5] [NAME=path/to/engine.py ...]
//   node bench/engines_in_pyodide.mjs --script file.py [NAME=path/to/engine.py ...]
//
// scalargrad is the wheel in dist/wheels; each NAME=engine.py is another engine run with this
// checkout's nn.py (importable as NAME.engine, NAME.nn), so that variants share the CPU's weather.
// --script runs a Python file instead, with the variants on sys.path and `config` set.
// The machine may be shared: compare only engines measured in the same run, and read the ranges.
import { readFileSync, readdirSync } from "node:fs";
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
const micrograd = option("--micrograd", `${root}/.cache/micrograd/micrograd-0.1.0-py3-none-any.whl`);
const variants = args.map((a) => a.split("="));

const dist = `${root}/dist`;
const { loadPyodide } = await import(pathToFileURL(`${dist}/pyodide/pyodide.mjs`).href);
const pyodide = await loadPyodide({ indexURL: `${dist}/pyodide/` });
const site = pyodide.runPython("import sysconfig; sysconfig.get_paths()['purelib']");
const wheel = readdirSync(`${dist}/wheels`).find((f) => f.startsWith("scalargrad-"));
pyodide.unpackArchive(new Uint8Array(readFileSync(`${dist}/wheels/${wheel}`)), "wheel", { extractDir: site });
pyodide.unpackArchive(new Uint8Array(readFileSync(micrograd)), "wheel", { extractDir: site });
const nn = readFileSync(`${root}/py/scalargrad/nn.py`, "utf8");
for (const [name, path] of variants) {
  pyodide.FS.mkdirTree(`/lab/${name}`);
  pyodide.FS.writeFile(`/lab/${name}/__init__.py`, "");
  pyodide.FS.writeFile(`/lab/${name}/engine.py`, readFileSync(path, "utf8"));
  pyodide.FS.writeFile(`/lab/${name}/nn.py`, nn);
}
pyodide.FS.mkdirTree("/lab");
pyodide.FS.writeFile("/lab/engine_vs_micrograd.py", readFileSync(`${root}/bench/engine_vs_micrograd.py`, "utf8"));
pyodide.setStdout({ batched: (line) => console.log(line) });
pyodide.setStderr({ batched: (line) => console.error(line) });
pyodide.globals.set("config", pyodide.toPy({ reps, steps, variants: variants.map(([n]) => n) }));

const BENCH = `
import gc, importlib, random, statistics, sys, time
sys.path.insert(0, '/lab')
import micrograd.engine, micrograd.nn
import scalargrad

from engine_vs_micrograd import loss_of, step  # the workload, as CPython runs it

def run(model, X, y, Value, steps):
    gc.collect()
    times, losses = [], []
    for k in range(steps):
        start = time.perf_counter()
        losses.append(step(model, X, y, Value, k, steps))
        times.append(time.perf_counter() - start)
    return 1000 * statistics.median(times), losses

def breakdown_step(model, X, y, Value, parts):
    gc.collect()
    t0 = time.perf_counter()
    loss = loss_of(model, X, y, Value)
    t1 = time.perf_counter()
    model.zero_grad()
    t2 = time.perf_counter()
    order = loss.topological_order()
    t3 = time.perf_counter()
    del order
    t4 = time.perf_counter()
    loss.backward()
    t5 = time.perf_counter()
    for p in model.parameters():
        p.data -= 0.01 * p.grad
    t6 = time.perf_counter()
    del loss
    t7 = time.perf_counter()
    for part, seconds in (('build', t1 - t0), ('zero_grad', t2 - t1), ('topo', t3 - t2), ('backward', t5 - t4),
                          ('update', t6 - t5), ('free', t7 - t6 + t4 - t3)):
        parts.setdefault(part, []).append(1000 * seconds)

X, labels = scalargrad.make_moons(100, noise=0.1, seed=1337)
y = [2 * label - 1 for label in labels]
random.seed(1337)
reference = micrograd.nn.MLP(2, [16, 16, 1])
engines = {'micrograd': (micrograd.engine.Value, micrograd.nn.MLP)}
for name in ['scalargrad'] + list(config['variants']):
    engines[name] = (importlib.import_module(name + '.engine').Value, importlib.import_module(name + '.nn').MLP)
n_values = None
print(f"Python {sys.version.split()[0]} on {sys.platform}; {config['steps']} steps per engine per repetition, GC on")
results = {name: [] for name in engines}
for rep in range(config['reps']):
    names = list(engines)
    names = names[rep % len(names):] + names[:rep % len(names)]  # rotate who goes first
    line = {}
    for name in names:
        Value, MLP = engines[name]
        model = MLP(2, [16, 16, 1])
        for p, q in zip(reference.parameters(), model.parameters(), strict=True):
            q.data = p.data
        ms, losses = run(model, X, y, Value, config['steps'])
        if name == 'micrograd':
            ref_losses = losses
        line[name] = (ms, losses)
    for name in engines:
        ms, losses = line[name]
        assert all(abs(a - b) <= 1e-9 * abs(a) for a, b in zip(ref_losses, losses)), f'{name}: losses differ'
        results[name].append(ms)
    print(f'rep {rep + 1}: ' + '  '.join(f'{n} {line[n][0]:.1f} ms' + ('' if n == 'micrograd' else f' ({line["micrograd"][0] / line[n][0]:.2f}x)')
                                         for n in engines), flush=True)
mg = results['micrograd']
print('summary (median over repetitions; range):')
for name, ms in results.items():
    ratios = [a / b for a, b in zip(mg, ms)]
    print(f'  {name:<14} {statistics.median(ms):7.1f} ms/step [{min(ms):.1f}-{max(ms):.1f}]'
          + ('' if name == 'micrograd' else f'   ratio {statistics.median(ratios):.2f}x [{min(ratios):.2f}-{max(ratios):.2f}]'))
# The breakdown: one step per engine in turn, so that all see the same load; min and median per phase.
# backward includes its own topological order.
parts = {name: {} for name in engines if name != 'micrograd'}
models = {}
for name in parts:
    Value, MLP = engines[name]
    models[name] = MLP(2, [16, 16, 1])
    for p, q in zip(reference.parameters(), models[name].parameters(), strict=True):
        q.data = p.data
for k in range(2 * config['steps']):
    for name in parts:
        breakdown_step(models[name], X, y, engines[name][0], parts[name])
n = len(loss_of(models['scalargrad'], X, y, engines['scalargrad'][0]).topological_order())
print(f'breakdown, ms per step for {n:,} values, min/median of {2 * config["steps"]} steps, engines in turn:')
for name, phases in parts.items():
    print(f'  {name:<14} ' + '  '.join(f'{k} {min(v):.1f}/{statistics.median(v):.1f}' for k, v in phases.items()))
`;

try {
  pyodide.runPython(script ? readFileSync(script, "utf8") : BENCH);
} catch (error) {
  console.error(error.message);
  process.exit(1);
}
