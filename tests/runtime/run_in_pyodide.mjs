// Runs pytest inside Pyodide under Node, with the runtime and wheels exactly as dist/ ships them.
// usage: node tests/runtime/run_in_pyodide.mjs DIST_DIR TEST_WHEELS_DIR TESTS_DIR test_file...
// The test files are given relative to TESTS_DIR, which is also on sys.path (for tests/support).
import { readdirSync } from "node:fs";
import { resolve } from "node:path";
import { pathToFileURL } from "node:url";

const [dist, testWheels, testsDir, ...testFiles] = process.argv.slice(2).map((p, i) => (i < 3 ? resolve(p) : p));
const { loadPyodide } = await import(pathToFileURL(`${dist}/pyodide/pyodide.mjs`).href);

const pyodide = await loadPyodide({ indexURL: `${dist}/pyodide/` });
const problems = [];
await pyodide.loadPackage("micropip", { messageCallback: () => {}, errorCallback: (m) => problems.push(m) });
const micropip = pyodide.pyimport("micropip"); // throws if the shipped lock's micropip failed to load
const wheels = [
  ...readdirSync(`${dist}/wheels`).filter((f) => f.endsWith(".whl")).map((f) => `${dist}/wheels/${f}`),
  ...readdirSync(testWheels).filter((f) => f.endsWith(".whl")).map((f) => `${testWheels}/${f}`),
];
await micropip.install.callKwargs(wheels.map((w) => pathToFileURL(w).href), { deps: false });

pyodide.FS.mkdirTree("/tests");
pyodide.FS.mount(pyodide.FS.filesystems.NODEFS, { root: testsDir }, "/tests");
const writer = (stream) => ({ write: (bytes) => (stream.write(bytes), bytes.length) });
pyodide.setStdout(writer(process.stdout));
pyodide.setStderr(writer(process.stderr));
pyodide.globals.set("test_files", pyodide.toPy(testFiles.map((f) => `/tests/${f}`)));
const code = pyodide.runPython(`
import sys, pytest, scalargrad
sys.path.insert(0, '/tests')
print(f"Python {sys.version.split()[0]} on {sys.platform}, scalargrad from {scalargrad.__file__}")
int(pytest.main(['-q', '-p', 'no:cacheprovider', '--noconftest', '--rootdir', '/tests', *test_files]))
`);
if (problems.length) console.error(problems.join("\n"));
process.exit(code);
