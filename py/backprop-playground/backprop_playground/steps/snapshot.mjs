// A Pyodide memory snapshot of Python with the site's wheels unpacked and the page's runtime imported
// (snapshot.py says when it is made). A snapshot may hold no JavaScript objects, so the wheels are unpacked
// from Python, not with loadPackage.
// usage: node snapshot.mjs DIST TARGET WHEEL...
import { readFileSync, writeFileSync } from "node:fs";
import { pathToFileURL } from "node:url";

const [dist, target, ...wheels] = process.argv.slice(2);
const { loadPyodide } = await import(pathToFileURL(`${dist}/pyodide/pyodide.mjs`).href);
const pyodide = await loadPyodide({ indexURL: `${dist}/pyodide/`, _makeSnapshot: true });
for (const name of wheels) pyodide.FS.writeFile(`/tmp/${name}`, readFileSync(`${dist}/wheels/${name}`));
pyodide.runPython(`
import os, sys, sysconfig, zipfile
for name in ${JSON.stringify(wheels)}:
    with zipfile.ZipFile('/tmp/' + name) as wheel:
        wheel.extractall(sysconfig.get_path('purelib'))
    os.remove('/tmp/' + name)
import playground_runtime
sys.path.remove('')  # loadPyodide puts it back on restore
os.environ.pop('_', None)  # this program's path on the build machine
`);
writeFileSync(target, pyodide.makeMemorySnapshot());
