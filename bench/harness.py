"""What the benchmarks share: the browser's flags, the serving of a build, the bare Pyodide page that is the
playground's peer, waits on the page's marks, and the first and second visit's figures. Each benchmark is a
script of its own (page.py, teaching.py, compare.py...) that imports from here; this file is not run by
itself."""

import json
import os
import statistics
import tempfile
import threading
import time
from pathlib import Path

from backprop_playground.paths import DIST
from backprop_playground.server import make_server

LAUNCH = [
    '--no-sandbox',
    '--disable-gpu',
    '--disable-background-networking',
    '--disable-component-update',
    '--disable-sync',
    '--no-first-run',
]
TIMEOUT = 120_000

# Its own files, not inline: served like the playground, it gets the same Content-Security-Policy.
BARE_PAGE = """<!doctype html><meta charset="utf-8"><title>bare Pyodide</title><script type="module" src="bare-page.js"></script>"""
BARE_SCRIPT = """const worker = new Worker("bare-worker.js", { type: "module" });
worker.onmessage = () => { performance.mark("python-ready"); document.title = "ready"; };"""
BARE_WORKER = """import { loadPyodide } from "./pyodide/pyodide.mjs";
await loadPyodide({ indexURL: new URL("./pyodide/", self.location.href).href });
self.postMessage("ready");"""
# The floor of a start from the snapshot: a page that does nothing but restore it (no editor, no wheels).
# The snapshot's pieces (build step snapshot.py) are fetched at once, read through Blobs and put in place, as
# python-worker.js does (here the pieces laid end to end, then each extent where it goes).
SNAPSHOT_ONLY_WORKER = """import { loadPyodide } from "./pyodide/pyodide.mjs";
const { files, size, extents } = SNAPSHOT;
const memory = Promise.all(files.map(async (path) => new Uint8Array(await (await (await fetch("./" + path)).blob()).arrayBuffer())))
  .then((parts) => {
    const held = parts.length === 1 ? parts[0] : new Uint8Array(parts.reduce((sum, part) => sum + part.length, 0));
    if (parts.length > 1) parts.reduce((offset, part) => (held.set(part, offset), offset + part.length), 0);
    const whole = new Uint8Array(size);
    extents.reduce((at, [offset, length]) => (whole.set(held.subarray(at, at + length), offset), at + length), 0);
    return whole;
  });
await loadPyodide({ indexURL: new URL("./pyodide/", self.location.href).href, _loadSnapshot: memory });
self.postMessage("ready");"""

WAIT_FOR_GRAPH = """() => new Promise((resolve) => {
  const output = document.querySelector('[data-testid=output]');
  const status = document.querySelector('[data-testid=status]');
  const longest = { task: 0 };
  const tasks = new PerformanceObserver((list) => {
    for (const e of list.getEntries()) longest.task = Math.max(longest.task, e.duration);
  });
  tasks.observe({ type: 'longtask' });
  const start = performance.now();
  const check = () => {
    const section = output.querySelector('section.run:last-child');
    if (section && section.querySelector('svg') && status.dataset.state !== 'running') {
      observer.disconnect();
      const ms = performance.now() - start; // the 50 ms below only let long tasks be reported
      setTimeout(() => { tasks.disconnect(); resolve({ ms, longTask: longest.task }); }, 50);
    }
  };
  const observer = new MutationObserver(check);
  observer.observe(document.body, { subtree: true, childList: true, attributes: true });
  document.querySelector('[data-testid=run]').click();
})"""

# Run pressed to the first node of the new run's graph (a MutationObserver, no polling): {ms, started}, ms null
# after `timeout`. The marks named in `stages` (bench/compare.py's) are cleared first; `started`, the click's
# time, is what to read the new ones against.
RUN_TO_GRAPH = """([stages, timeout]) => new Promise((resolve) => {
  for (const name of stages) performance.clearMarks(name);
  const output = document.querySelector('[data-testid=output]');
  const before = output.querySelectorAll('section.run').length;
  const observer = new MutationObserver(() => {
    const runs = output.querySelectorAll('section.run');
    if (runs.length > before && runs[runs.length - 1].querySelector('svg g.node')) {
      observer.disconnect();
      resolve({ ms: performance.now() - started, started });
    }
  });
  setTimeout(() => { observer.disconnect(); resolve({ ms: null, started }); }, timeout);
  observer.observe(output, { childList: true, subtree: true });
  const started = performance.now();
  document.querySelector('[data-testid=run]').click();
})"""

CHAIN = "x = Value(0.0, label='x0')\nfor i in range({steps}):\n    x = x * 1.0 + i\nx.backward()\ndraw_dot(x)\n"


def serve(directory, isolated=True, **options):
    """`build.py serve`'s server in a thread; server.sent counts the body bytes it sends, by path."""
    server = make_server(port=0, isolated=isolated, directory=directory, **options)
    threading.Thread(target=server.serve_forever, daemon=True).start()
    return server, f"http://127.0.0.1:{server.server_address[1]}/"


def bare_site(worker=BARE_WORKER):
    """A folder with the bare page, `worker` as its worker, and dist/'s Pyodide (the peer of the playground)."""
    folder = Path(tempfile.mkdtemp())
    (folder / 'index.html').write_text(BARE_PAGE)
    (folder / 'bare-page.js').write_text(BARE_SCRIPT)
    (folder / 'bare-worker.js').write_text(worker)
    os.symlink(DIST / 'pyodide', folder / 'pyodide')
    return folder


def snapshot_only_site():
    """The floor of a start from the snapshot: the bare page, whose worker only restores dist/'s snapshot."""
    snapshot = json.loads((DIST / 'build.json').read_text())['snapshot']
    return bare_site(SNAPSHOT_ONLY_WORKER.replace('SNAPSHOT', json.dumps(snapshot)))


def wait_for(page, expression):
    """page.wait_for_function polls with eval(), which the page's Content-Security-Policy refuses."""
    deadline = time.monotonic() + TIMEOUT / 1000
    while not page.evaluate(expression):
        if time.monotonic() > deadline:
            raise TimeoutError(expression)
        page.wait_for_timeout(20)


def mark(page, name):
    return page.evaluate(f"performance.getEntriesByName('{name}')[0].startTime")


def ready(page, url):
    page.goto(url)
    page.wait_for_selector('[data-testid=status][data-state=ready]', timeout=TIMEOUT)


def set_code(page, code):
    page.evaluate("code => window.playground.cell.setText(code)", code)


def stop_latency(page):
    set_code(page, "while True:\n    pass\n")
    page.click('[data-testid=run]')
    page.wait_for_selector('[data-testid=status][data-state=running]')
    time.sleep(0.3)
    start = time.perf_counter()
    page.click('[data-testid=stop]')
    page.wait_for_selector('[data-testid=status][data-state=ready]', timeout=TIMEOUT)
    return 1000 * (time.perf_counter() - start)


def first_load_bytes(browser, url):
    context = browser.new_context()
    page = context.new_page()
    paths = []
    page.on('requestfinished', lambda r: paths.append(r.url[len(url) :].split('?')[0] or 'index.html'))
    ready(page, url)
    page.wait_for_timeout(500)
    context.close()
    raw = sum((DIST / p).stat().st_size for p in set(paths) if (DIST / p).is_file())
    gz = sum(
        (DIST / f"{p}.gz" if (DIST / f"{p}.gz").is_file() else DIST / p).stat().st_size
        for p in set(paths)
        if (DIST / p).is_file()
    )
    return raw, gz, len(set(paths))


def served_bytes(paths):
    """Bytes as `build.py serve` sends them: the .gz where there is one."""
    files = [DIST / p for p in set(paths) if (DIST / p).is_file()]
    return sum((Path(f"{f}.gz") if Path(f"{f}.gz").is_file() else f).stat().st_size for f in files), len(files)


def visits(browser, plain_server, plain_url, bare_url, runs):
    """A first and a second visit (from the service worker's cache) on a plain host, against bare Pyodide's
    first and second visit (from the HTTP cache) on a plain host too, in the same run; bytes as the server
    sent them."""
    figures = {
        name: [] for name in ('first', 'second', 'bare_first', 'bare_second', 'first_bytes', 'second_bytes', 'stop')
    }
    for _ in range(runs):
        context = browser.new_context()
        page = context.new_page()
        plain_server.sent.clear()
        ready(page, plain_url)
        figures['first'].append(mark(page, 'python-ready'))
        page.evaluate('navigator.serviceWorker.ready')
        page.wait_for_timeout(300)
        figures['first_bytes'].append(sum(plain_server.sent.values()))
        plain_server.sent.clear()
        ready(page, plain_url)  # the service worker serves it now, and isolates it
        figures['second'].append(mark(page, 'python-ready'))
        figures['second_bytes'].append(sum(plain_server.sent.values()))
        figures['stop'].append(stop_latency(page))
        context.close()
        context = browser.new_context()
        page = context.new_page()
        for key in ('bare_first', 'bare_second'):
            page.goto(bare_url)
            wait_for(page, "document.title === 'ready'")
            figures[key].append(mark(page, 'python-ready'))
        context.close()
    return {name: median(values) for name, values in figures.items()}


def median(values):
    return statistics.median(values)
