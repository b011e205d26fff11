// The Python worker: boots Pyodide, writes the wheels' files, runs programs.
// The messages it trades with python-client.js are listed in docs/contract.md, "Worker protocol".
// The page sends build.json, the wheels' files and the packed runtime, which it downloaded once for every
// Python it starts (packed-runtime.js); the files are written straight into site-packages, so the start costs
// what a bare loadPyodide costs; micropip loads only for a program that imports it.
// The build bundles this file with the modules it imports and Pyodide's loader into one file of the same name
// (backprop_playground/steps/bundles.py): one request, where each level of imports cost a round trip.
import { loadPyodide } from "pyodide";
import { download, fileResponse, unpackRuntime, withCompiledRuntime, withPackedFiles } from "./packed-runtime.js";
import { listed, t, useCatalogue } from "../i18n/catalogue.js";

const STEPS = 3;
let pyodide = null;
let playground = null;
// Taken once at the start: a program can replace playground_runtime's functions, not these references.
let runProgram = null;
let changes = null;
let interruptBuffer = null;
// The page's private channel, in module scope: Python's `js` is the global scope, which does not hold it.
// `send` is bound once: JavaScript that a program runs could replace MessagePort.prototype.postMessage.
let send = null;
// How the run in progress first reached outside its namespace. The page hears of it at once, before
// anything the program does next (its own JavaScript could change what this module relies on later).
let reached = "starting";
const reach = (reason) => {
  if (reached !== null) return;
  reached = String(reason);
  send({ type: "reached", reason: reached });
};
// Callbacks that Pyodide's event loop has scheduled and that have not run yet (asyncio's tasks, sleeps).
let scheduled = 0;
// JavaScript's own objects as they were once Python was up (see snapshotIntrinsics), and what compares them:
// taken before any program runs, so that nothing a program replaces is used to check it.
const { ownKeys, getPrototypeOf } = Reflect;
const { getOwnPropertyDescriptor, hasOwn, is: same } = Object;
let intrinsics = null;
let gcCollect = null;

const post = (message) => send(message);
const progress = (step, text) => post({ type: "progress", step, steps: STEPS, text });

// What the page sends as it has it: {value} or {error}, once each.
const fromPage = Object.fromEntries(["build", "site-packages", "packed", "files", "compiled"].map((type) => {
  let settle;
  const promise = new Promise((resolve, reject) => (settle = ({ value, error }) => (error ? reject(new Error(error)) : resolve(value))));
  promise.catch(() => {}); // reported where it is awaited
  return [type, { promise, settle }];
}));

self.onmessage = ({ data }) => {
  if (data.type !== "init" || send) return;
  self.onmessage = null;
  const port = data.port;
  send = port.postMessage.bind(port);
  port.onmessage = ({ data }) => {
    if (data.type === "run") {
      hasRun = true;
      endWarmUp(); // from now on, runs warm it up
      run(data, clock());
    }
    else if (data.type === "check") checkLastRun?.();
    else if (data.type === "warm-up") warmUp();
    else if (data.type === "reset") {
      // A reset runs the runtime's code, which the last run may have replaced: that run is checked first.
      if ((checkLastRun?.() ?? true) && reached === null) playground.reset(data.env);
    }
    else if (hasOwn(fromPage, data.type)) fromPage[data.type].settle(data);
  };
  boot(data).catch((error) => post({ type: "failed", error: describe(error) }));
};

/**
 * `target` as Python may see it: any use marks the run, which then gets a worker of its own that ends
 * with it (a timer or a handler set through it would otherwise outlive the run).
 */
function marked(target, reason) {
  const handler = {
    get(target, key) {
      reach(reason);
      const value = Reflect.get(target, key);
      // Web API functions (setTimeout, fetch) refuse to be called on a Proxy; constructors keep their statics.
      return target === globalThis && typeof value === "function" && !("prototype" in value) ? value.bind(target) : value;
    },
  };
  // Every other way to use an object (a property's descriptor, `in`, its keys, its prototype) marks too.
  for (const trap of ["set", "has", "defineProperty", "deleteProperty", "getOwnPropertyDescriptor", "ownKeys",
    "getPrototypeOf", "setPrototypeOf", "isExtensible", "preventExtensions", "apply", "construct"]) {
    handler[trap] = (...args) => {
      reach(reason);
      return Reflect[trap](...args);
    };
  }
  return new Proxy(target, handler);
}

/** The object Python sees as `js`: the worker's global scope. */
const jsGlobals = marked(globalThis, "used JavaScript (the js module)");

async function boot({ base, precached, keep, interruptBuffer: buffer, catalogue, warmUpRounds }) {
  useCatalogue(catalogue); // the page's language, for the progress it reports
  // Relative URLs in a worker resolve against the worker script; the page sends its own base.
  const url = (path) => new URL(path, base).href;
  const timings = {};
  let lap = performance.now();
  const measure = (name) => {
    const now = performance.now();
    timings[name] = Math.round(now - lap);
    lap = now;
  };
  progress(1, t("Downloading Python (about 9 MB the first time)…"));
  const info = fromPage.build.promise;
  // Made while Python starts (the downloads, or the restore of a runtime the page kept), in a task of its own once
  // the page has sent them: the wheels' files' parsing and encoding cost milliseconds that a restored Python would
  // otherwise wait for.
  const meanwhile = (make) => (value) => new Promise((resolve) => setTimeout(resolve)).then(() => make(value));
  // The page's own runtime is not a library a learner installs: the message names the others.
  const libraries = info.then(({ wheels, runtime }) => listed(wheels.filter((name) => name !== runtime).map((w) => w.split("-")[0])));
  const sitePackages = fromPage["site-packages"].promise.then(meanwhile((text) => encoded(JSON.parse(text))));
  for (const promise of [libraries, sitePackages]) promise.catch(() => {}); // reported where awaited
  // What this worker downloads of the runtime's large files (the standard library, the snapshot's pieces: of the
  // wasm, the page keeps the Module compiled from it) goes to the page too, which keeps it for the page's later
  // Pythons (packed-runtime.js), where the page asks for it; all of it before "ready", after which it takes none.
  const fetched = keep ? (href, bytes) => send({ type: "kept", url: href, bytes }, [bytes]) : null;
  const start = await Promise.race([startPython(url, info, precached, fetched), runtimeFailure()]);
  dropFromPage();
  pyodide = start.pyodide;
  measure("pyodide");
  if (buffer) {
    interruptBuffer = buffer; // Python reads it only while it runs a program (run() sets it)
  }
  const { sitePackages: { folder: built } } = await info;
  progress(2, t("Installing {libraries}…", { libraries: await libraries }));
  // Also after a snapshot: it restores Python's memory, not its files (tracebacks and imports need them). The
  // build's folder is the snapshot's Python's; a Python that booted as usual says its own (about 10 ms).
  const folder = start.from === "snapshot" ? built : pyodide.runPython("import sysconfig; sysconfig.get_path('purelib')");
  writeFiles(pyodide.FS, folder, await sitePackages);
  measure("install");
  progress(3, t("Starting the engine…"));
  playground = pyodide.pyimport("playground_runtime");
  if (catalogue) playground.use_catalogue(JSON.stringify(catalogue)); // the runtime's words, as the page's
  if (start.from === "snapshot") playground.restored();
  runProgram = playground.run;
  gcCollect = pyodide.pyimport("gc").collect;
  measure("engine");
  const { python } = await info;
  post({ type: "ready", python, interruptible: Boolean(buffer), start: start.from, packed: start.packed,
    kept: start.kept, compiled: start.compiled, timings });
  // The guards start in the task that says "ready", with nothing awaited in between: no program can run
  // before them, and a Run that comes meanwhile (one pressed while Python loaded is sent on "ready") waits for
  // this task, about 50 ms. Guards that cannot start are a failed start, as before "ready": the page offers
  // Retry rather than starting Python again and again.
  try {
    guard();
  } catch (error) {
    post({ type: "failed", error: describe(error), starting: true });
    self.close();
    return;
  }
  reached = null; // what the worker itself did to start Python is not a run's
  warmUpRoundsAsked = Number(warmUpRounds) || 0;
}

/** What notices a run that reaches outside its namespace (playground_runtime.isolation, and JavaScript's side). */
function guard() {
  watchPyodideApi();
  countScheduledCallbacks();
  guardFunctionConstructors();
  changes = playground.watch(reach);
  intrinsics = snapshotIntrinsics([playground]);
}

// A restored Python's first runs are slower than later ones: playground_runtime.warm_up says why, and what
// runs unseen about it. Its first program runs when the page asks ("warm-up", which the page posts 100 ms
// after it heard "ready"), unless a run came first: a Run pressed while Python loaded is sent on "ready", so
// it comes first on the same port, and warms Python itself (waiting for the warm-up and its check cost it
// 70 ms). Its events go to the page, which rehearses showing them (output-list.js). The second runs as many
// times after it as init's warmUpRounds say, WARM_UP_EVERY_MS apart, until a run comes. Each round gets the
// after-run check of any run, in steps of their own: the program, its garbage collected, the check (traced in
// a restored Python: 20-55, 10-40 and 20-55 ms). A run that comes meanwhile waits for one step, not the round,
// and the steps left are dropped: its own check, against the state before the round, covers the round too.
const WARM_UP_EVERY_MS = 200;
let warmUpRoundsAsked = null; // set once the guards are up: no warm-up before
let roundsLeft = 0;
let hasRun = false;
let warmUpNext = null; // the timer of the warm-up's next step or round

function warmUp() {
  const rounds = warmUpRoundsAsked;
  warmUpRoundsAsked = null; // once
  if (hasRun || rounds === null || reached !== null) return;
  const events = [];
  warmUpWith(playground.warm_up.FIRST, (text) => events.push(JSON.parse(text)), () => {
    post({ type: "warmed-up", events });
    roundsLeft = rounds;
    warmUpNext = setTimeout(warmUpAgain, WARM_UP_EVERY_MS);
  });
}

function warmUpAgain() {
  if (roundsLeft <= 0 || reached !== null) return;
  roundsLeft -= 1;
  warmUpWith(playground.warm_up.AGAIN, () => {}, () => {
    post({ type: "warm-up-round" });
    warmUpNext = setTimeout(warmUpAgain, WARM_UP_EVERY_MS);
  });
}

/** Ends the warm-up: a run has come. */
function endWarmUp() {
  clearTimeout(warmUpNext);
  warmUpNext = null;
  roundsLeft = 0;
}

/**
 * Runs one of the warm-up's programs, then collects its garbage and checks it, each in a task of its own;
 * `then()` once the check found nothing. Where a step fails or finds a change, this Python runs no more.
 */
function warmUpWith(program, emit, then) {
  const steps = [
    () => runProgram(program, emit),
    () => gcCollect(),
    () => {
      const found = changes(true);
      const reasons = found.toJs();
      found.destroy();
      if (reasons.length) reach(reasons[0]); // cannot happen for these programs; if it did, the page starts another Python
    },
  ];
  const step = () => {
    warmUpNext = null;
    if (reached !== null) return;
    try {
      steps.shift()();
    } catch (error) {
      reach(`failed to run its warm-up (${describe(error)})`);
    }
    if (reached !== null) return;
    if (steps.length) warmUpNext = setTimeout(step);
    else then();
  };
  step();
}

/**
 * The runtime's large files by absolute URL, and where they came from: the page's copy of what an earlier Python
 * of the page downloaded ("kept": the standard library, the snapshot's pieces), or the packed runtime ("packed":
 * the wasm too); null where they are fetched as usual.
 */
async function largeFiles(url, info, precached) {
  const kept = await fromPage.files.promise;
  if (kept) return { files: new Map([...kept].map(([href, bytes]) => [href, new Uint8Array(bytes)])), from: "kept" };
  if (precached) return null;
  const [build, packed] = await Promise.all([info, fromPage.packed.promise]);
  const files = await unpackRuntime(url, build, packed);
  return files && { files, from: "packed" };
}

/** `files` ({path: text}) as [path, UTF-8 bytes] pairs (Emscripten's own encoding of a string is ten times slower). */
function encoded(files) {
  const utf8 = new TextEncoder();
  return Object.entries(files).map(([path, text]) => [path, utf8.encode(text)]);
}

/** Writes `files` ([path, bytes] pairs) into `folder` (build.json's sitePackages), as unpacking the wheels would. */
function writeFiles(FS, folder, files) {
  const made = new Set();
  for (const [path, bytes] of files) {
    const file = `${folder}/${path}`;
    const parent = file.slice(0, file.lastIndexOf("/"));
    if (!made.has(parent)) FS.mkdirTree(parent);
    made.add(parent);
    FS.writeFile(file, bytes, { canOwn: true }); // the file is its bytes: nothing else holds them
  }
}

/** Lets go of the page's copies once Python has started: the worker keeps no second runtime for its life. */
function dropFromPage() {
  for (const type of ["files", "packed"]) fromPage[type] = { promise: Promise.resolve(null), settle: () => {} };
}

/**
 * Python restored from the build's memory snapshot (scalargrad already imported), or booted as usual
 * if the build has none or it does not restore: the snapshot fits only the runtime that made it.
 * `fetched(url, bytes)`, if given, receives what was downloaded of the large files: the snapshot's pieces and the
 * standard library, not the wasm (the page keeps the Module compiled from it).
 */
async function startPython(url, info, precached, fetched) {
  const options = { indexURL: url("pyodide/"), stdout: () => {}, stderr: () => {}, jsglobals: jsGlobals };
  const large = largeFiles(url, info, precached).catch(() => null);
  const files = large.then((found) => found?.files ?? null);
  const snapshot = Promise.all([info, files]).then(([{ snapshot }, files]) => (snapshot ? joined(snapshot, files, url, fetched) : null));
  snapshot.catch(() => {}); // a plain boot follows
  const { packed, snapshot: memory } = await info;
  // loadPyodide fetches the wasm and the standard library itself; the snapshot's pieces are joined above.
  const parts = (packed?.parts ?? []).filter(({ path }) => !(Array.isArray(memory?.files) && memory.files.includes(path)));
  const compiled = await fromPage.compiled.promise.catch(() => null);
  // Pyodide's own names for the two files it fetches: with the page's Module, an empty wasm stands in for the
  // 9 MB it spares (the page keeps no copy of them: the Module is all a later Python needs of them).
  const [wasm, stdlib] = ["pyodide.asm.wasm", "python_stdlib.zip"].map((name) => new URL(name, options.indexURL).href);
  const standIn = compiled instanceof WebAssembly.Module ? new Map([[wasm, new Uint8Array(0)]]) : null;
  const unpacked = standIn ? files.then((found) => new Map([...(found ?? []), ...standIn])) : files;
  const fetchAsUsual = globalThis.fetch;
  // Whether the standard library came from the network, and its bytes as Pyodide read them: both go to the page
  // (stdlibForPage).
  let stdlibDownloaded = false;
  let stdlibRead = null;
  const onDownload = (href, response) => {
    if (href !== stdlib || !fetched) return;
    stdlibDownloaded = true;
    const read = response.arrayBuffer.bind(response);
    response.arrayBuffer = () => read().then((buffer) => (stdlibRead = buffer));
  };
  let compiledHere = false; // the page's Module did not instantiate, or there was none
  const handOver = (module) => {
    compiledHere = true;
    try {
      send({ type: "compiled", module });
    } catch {
      // a browser that cannot post a Module: later Pythons compile their own
    }
  };
  const urls = new Set([...parts.map(({ path }) => url(path)), wasm]); // the stdlib too, where the page keeps it
  const started = await withPackedFiles(urls, unpacked, onDownload, () =>
    withCompiledRuntime(compiled, handOver, async () => {
      // The wasm's bytes from the packed runtime or the page's copy, where there are some; else from the network.
      const bytes = (await files)?.get(wasm);
      return bytes?.length ? fileResponse(wasm, bytes) : fetchAsUsual(wasm);
    }, async () => {
      try {
        // The snapshot as a promise: loadPyodide fetches the wasm and the standard library while its pieces come.
        if (memory) return { pyodide: await loadPyodide({ ...options, _loadSnapshot: snapshot }), from: "snapshot" };
      } catch {
        // fall through to the plain boot
      }
      return { pyodide: await loadPyodide(options), from: "boot" };
    }));
  // The standard library, if it came from the network, goes to the page (or not at all, where it is not in
  // Pyodide's files: the page's next Python fetches it).
  if (stdlibDownloaded) {
    try {
      fetched(stdlib, stdlibForPage(started.pyodide, stdlibRead));
    } catch {
      // a Pyodide that keeps it elsewhere
    }
  }
  const found = await large;
  return { ...started, packed: found?.from === "packed", kept: found?.from === "kept", compiled: !compiledHere };
}

/**
 * The standard library's zip, which Pyodide writes as /lib/python314.zip (for Python 3.14): the bytes it read from
 * the network (`read`), where its file holds a copy of them (Emscripten's MEMFS copies what it is given without
 * canOwn), else a copy of the file. A copy of 9 MB cost Python's start about 7 ms, just before "ready".
 */
function stdlibForPage(pyodide, read) {
  const path = `/lib/${pyodide.FS.readdir("/lib").find((entry) => /^python\d+\.zip$/.test(entry))}`;
  const { contents } = pyodide.FS.lookupPath(path).node;
  const copied = read instanceof ArrayBuffer && contents instanceof Uint8Array && contents.buffer !== read &&
    pyodide.FS.stat(path).size === read.byteLength;
  return copied ? read : pyodide.FS.readFile(path).buffer;
}

/**
 * The memory snapshot, whose pieces (build step snapshot.py) come in `files` or are fetched: laid end to end,
 * they hold the snapshot's `extents` ([offset, length] each), and the rest of its `size` bytes are zeros.
 * What was fetched goes to `fetched` once the pieces add up.
 */
async function joined({ files: pieces, size, extents }, files, url, fetched) {
  const downloaded = [];
  const parts = await Promise.all(pieces.map(async (path) => {
    const kept = files?.get(url(path));
    if (kept) return kept;
    const bytes = new Uint8Array(await pieceBytes(url(path)));
    downloaded.push([url(path), bytes]);
    return bytes;
  }));
  const held = placesIn(extents, size);
  if (parts.reduce((sum, part) => sum + part.length, 0) !== held) {
    throw new Error(`the snapshot's pieces do not hold the ${held} bytes expected`);
  }
  const whole = new Uint8Array(size);
  let [part, at] = [0, 0]; // where the next extent's bytes begin: parts[part], from `at`
  for (let [offset, length] of extents) {
    while (length > 0) {
      const taken = parts[part].subarray(at, at + length); // empty only for an empty piece, passed over below
      whole.set(taken, offset);
      [offset, length, at] = [offset + taken.length, length - taken.length, at + taken.length];
      if (at === parts[part].length) [part, at] = [part + 1, 0];
    }
  }
  for (const [href, bytes] of downloaded) fetched?.(href, bytes.buffer); // joined into `whole` already
  return whole;
}

/**
 * How many bytes `extents` place in a snapshot of `size` bytes; throws unless they are whole numbers, in order,
 * apart and within it (build.json might be broken: then Python boots as usual).
 */
function placesIn(extents, size) {
  let [end, held] = [0, 0];
  for (const [offset, length] of extents) {
    if (![offset, length].every(Number.isSafeInteger) || offset < end || length <= 0 || offset + length > size) {
      throw new Error(`the snapshot's extents do not fit its ${size} bytes`);
    }
    [end, held] = [offset + length, held + length];
  }
  return held;
}

/**
 * A piece's bytes, read through a Blob: in Chromium, a body read so takes about two thirds of the time
 * arrayBuffer() takes (which hands each chunk of it to this worker's thread). Where the browser cannot hold
 * it as a Blob (its store for them is full), it is fetched again and read as bytes.
 */
async function pieceBytes(href) {
  try {
    return await (await (await download(href)).blob()).arrayBuffer();
  } catch {
    return (await download(href)).arrayBuffer();
  }
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

function interruptible(on) {
  if (!interruptBuffer) return;
  try {
    pyodide.setInterruptBuffer(on ? interruptBuffer : undefined);
  } catch {
    // A Pyodide that failed fatally refuses every call: the error to report is the one that failed it.
  }
}

// The check after the last run, until the page asks for it (see run()).
let checkLastRun = null;

/** Now, on a clock the page's is comparable with: its "done" message carries when the run came and its graph left. */
const clock = () => performance.timeOrigin + performance.now();

async function run({ id, code, env, checks, test, points }, received) {
  const trusted = checkLastRun?.() ?? true; // the page asks before it sends a run; this is in case it did not
  if (reached !== null || !trusted) {
    // Something reached out between runs (its message is on its way to the page): this Python runs no more.
    post({ type: "failed", id, error: `this Python was changed after its last run (it ${reached ?? "changed what later runs see"})` });
    self.close();
    return;
  }
  const stamps = { received, graph: null }; // bench/compare.py's stages on the worker's side
  const emit = (text) => {
    const event = JSON.parse(text);
    if (event.type === "graph" && stamps.graph === null) stamps.graph = clock();
    post({ type: "output", id, event });
  };
  try {
    let result;
    if (interruptBuffer && interruptBuffer[0] !== 0) {
      interruptBuffer[0] = 0; // Stop, pressed after the page sent this run: it never begins
      result = { status: "interrupted" };
    } else {
      // Stop reaches Python while it runs this program, never in the checks, resets and warm-up around it:
      // a KeyboardInterrupt there would cost the learner their Python.
      interruptible(true);
      try {
        await loadMicropipIfImported(code, (text) => post({ type: "output", id, event: { type: "notice", text } }));
        // Pyodide turns JS null into jsnull, not None: pass undefined for "no env", "no checks", "no test", "no points".
        const asTest = test ? JSON.stringify(test) : undefined;
        const asPoints = Array.isArray(points) && points.length ? JSON.stringify(points) : undefined;
        result = JSON.parse(await finished(runProgram(code, emit, env ?? undefined, checks ?? undefined, asTest, asPoints)));
      } finally {
        interruptible(false);
      }
    }
    if (result.fresh) reach(result.fresh);
    post({ type: "done", id, result, stamps });
  } catch (error) {
    if (error?.type === "KeyboardInterrupt") {
      // Stop, while micropip was looked for, or escaping a program with top-level await
      post({ type: "done", id, result: { status: "interrupted" } });
    } else {
      // Not a Python exception (run() catches those): Pyodide itself failed and cannot be trusted.
      post({ type: "failed", id, error: describe(error) });
      return;
    }
  }
  // Whether this interpreter may run the next program: checked once the page has shown the run's output, or
  // when it sends the next run or a reset (its "check"), so that the check's tens of milliseconds of Python do not
  // take a processor from the drawing. Nothing of the program's can run meanwhile: it left no callback
  // scheduled (or it is checked at once), and a reset, which runs the runtime's code, checks it first.
  checkLastRun = () => {
    checkLastRun = null;
    return checkRun(id, env);
  };
  if (scheduled > 0 || reached !== null) checkLastRun();
}

/** The check after run `id`; posts its verdict and returns whether this Python may run another program. */
function checkRun(id, env) {
  const reasons = [];
  try {
    // Without a named env the namespace is gone: what the run defined must go with it, finalizers included.
    if (env == null) gcCollect();
    const changed = changedIntrinsic(intrinsics);
    if (changed) reach(`changed JavaScript's own ${changed}`);
    const found = changes(env == null);
    reasons.push(...found.toJs());
    found.destroy();
  } catch (error) {
    reasons.push(`left Python in a state that could not be checked (${describe(error)})`);
  }
  if (scheduled > 0) reasons.push("left work scheduled on the event loop");
  post({ type: "settled", id, reasons });
  // This worker has run its last program: close it now, discarding the tasks the run queued (a timer, a
  // promise's callback), rather than one message later, when the page terminates it.
  if (reasons.length || reached !== null) {
    self.close();
    return false;
  }
  return true;
}

/**
 * JavaScript's own objects (every global and its prototype, the prototypes of functions, iterators and
 * typed arrays, Pyodide's PyProxy classes, and their prototype chains), each with its properties as they
 * are now. Python reaches some of them without `js` (an array from to_js has Array.prototype); a program
 * that set Array.prototype.push to a function of its own would run it during later runs.
 */
function snapshotIntrinsics(pyProxies) {
  const roots = new Set();
  const add = (value) => {
    for (let object = value; (typeof object === "object" || typeof object === "function") && object !== null && !roots.has(object);
      object = getPrototypeOf(object)) {
      roots.add(object);
      const prototype = hasOwn(object, "prototype") ? getOwnPropertyDescriptor(object, "prototype").value : null;
      if (typeof prototype === "object" && prototype !== null) add(prototype);
    }
  };
  add(globalThis);
  for (const key of ownKeys(globalThis)) {
    const { value } = getOwnPropertyDescriptor(globalThis, key);
    if (value !== jsGlobals) add(value);
  }
  const iterators = [[][Symbol.iterator](), new Map().entries(), new Set().values(), ""[Symbol.iterator](), /a/g[Symbol.matchAll]("a")];
  for (const value of [...iterators, async function () {}, function* () {}, async function* () {}, Uint8Array]) add(value);
  for (const proxy of pyProxies) add(getPrototypeOf(proxy)); // the PyProxy classes, not the proxy itself
  return [...roots].map((object) => {
    const keys = ownKeys(object);
    return { object, prototype: getPrototypeOf(object), keys, values: keys.map((key) => descriptorParts(object, key)) };
  });
}

function descriptorParts(object, key) {
  const descriptor = getOwnPropertyDescriptor(object, key);
  if (descriptor === undefined) return [undefined, undefined]; // an exotic object listed a key it lacks
  // Own properties only: Object.prototype could have been given a getter named "get". An accessor counts by
  // its shape alone: WebKit makes a new getter function each time one is asked for.
  // A data property holding an object (not a function) counts by its type: WebKit makes some anew when
  // read (PerformanceObserver.supportedEntryTypes). Functions and primitives count by identity.
  if (!hasOwn(descriptor, "value")) return [descriptor.get === undefined, descriptor.set === undefined, 0];
  const { value } = descriptor;
  return [typeof value === "object" && value !== null ? "an object" : value];
}

/**
 * The first of JavaScript's own objects whose properties were replaced or removed since the snapshot,
 * named; or null. Properties added are not counted: engines add some themselves, lazily (WebKit, to
 * PerformanceObserver, during the first run).
 */
function changedIntrinsic(snapshot) {
  for (let i = 0; i < snapshot.length; i += 1) {
    const { object, prototype, keys, values } = snapshot[i];
    let changed = getPrototypeOf(object) !== prototype;
    let changedKey = null;
    for (let j = 0; !changed && j < keys.length; j += 1) {
      changedKey = keys[j];
      if (!hasOwn(object, keys[j])) {
        changed = true;
        break;
      }
      const was = values[j];
      const is = descriptorParts(object, keys[j]);
      changed = is.length !== was.length || !same(is[0], was[0]) || !same(is[1], was[1]) || !same(is[2], was[2]);
    }
    if (changed) return `${describeIntrinsic(object)}${typeof changedKey === "string" ? ` (${changedKey})` : ""}`;
  }
  return null;
}

function describeIntrinsic(object) {
  if (object === globalThis) return "global scope";
  const constructor = hasOwn(object, "constructor") ? getOwnPropertyDescriptor(object, "constructor").value : null;
  const name = typeof constructor === "function" && hasOwn(constructor, "name") ? getOwnPropertyDescriptor(constructor, "name").value : null;
  if (typeof name === "string") return `${name}.prototype`;
  const own = typeof object === "function" && hasOwn(object, "name") ? getOwnPropertyDescriptor(object, "name").value : null;
  return typeof own === "string" ? own : "objects";
}

/** run()'s JSON text, or, for a program with top-level `await`, what its coroutine returns. */
async function finished(value) {
  if (typeof value === "string") return value;
  try {
    return await value;
  } finally {
    value.destroy();
  }
}

/**
 * `pyodide_js` (Pyodide's own API, which can set handlers that outlive a run) marks the run, like `js`;
 * so does the module `pyodide_js._api`, Pyodide's internals, which Python imported while it started.
 */
function watchPyodideApi() {
  pyodide.registerJsModule("pyodide_js", marked(pyodide, "used Pyodide's JavaScript API (pyodide_js)"));
  pyodide.runPython("import sys; sys.modules.pop('pyodide_js', None); import pyodide_js");
  const modules = pyodide.pyimport("sys").modules;
  modules.set("pyodide_js._api", marked(pyodide._api, "used Pyodide's internals (pyodide_js._api)"));
  modules.destroy();
  // The one other JavaScript object that a module of Pyodide's holds from its start.
  const loader = pyodide.pyimport("pyodide._package_loader");
  loader.loadedPackages = marked(pyodide.loadedPackages, "used Pyodide's package list (a JavaScript object)");
  loader.destroy();
}

/**
 * Pyodide's event loop schedules every callback (asyncio's tasks, sleeps, call_later) through one function,
 * which pyodide.webloop imported while Python started. This one counts what has not run yet: work a run
 * leaves behind would run during a later one.
 */
function countScheduledCallbacks() {
  const schedule = pyodide._api.scheduleCallback;
  const counted = (callback, timeout = 0) => {
    scheduled += 1;
    schedule(() => {
      scheduled -= 1;
      callback();
    }, timeout);
  };
  pyodide._api.scheduleCallback = counted;
  const webloop = pyodide.pyimport("pyodide.webloop");
  webloop.scheduleCallback = counted;
  webloop.destroy();
}

/**
 * Any JavaScript function Python can see leads, through `f.constructor`, to Function: a way to run
 * JavaScript without `js`. The constructors that functions inherit now mark the run (Pyodide itself never
 * calls them this way).
 */
function guardFunctionConstructors() {
  const kinds = [function () {}, async function () {}, function* () {}, async function* () {}];
  for (const kind of kinds) {
    const prototype = Object.getPrototypeOf(kind);
    const marked = new Proxy(prototype.constructor, {
      apply(target, self, args) {
        reach("ran JavaScript of its own");
        return Reflect.apply(target, self, args);
      },
      construct(target, args, newTarget) {
        reach("ran JavaScript of its own");
        return Reflect.construct(target, args, newTarget === marked ? target : newTarget);
      },
    });
    Object.defineProperty(prototype, "constructor", { value: marked, writable: true, configurable: true });
  }
}

function describe(error) {
  return error && error.message ? error.message : String(error);
}
