"""The built page in headless Chromium: load, run, render and Stop timings, and first-load bytes.

    python build.py && python bench/page.py [--runs 5] [--only teaching]

The teaching views' figures (stepping, live charts, micrograd inside Pyodide: issue 9) come last. They are
measured by bench/teaching.py; `--only teaching` prints only them, as
`python bench/teaching.py` does.

Prints medians over --runs fresh page loads (or repeated runs on one page). No assertions: figures only.
"""

import argparse
import os
import shutil
import sys
import tempfile
import time
from pathlib import Path

from playwright.sync_api import sync_playwright

import teaching
from backprop_playground.paths import DIST
from harness import (
    CHAIN,
    LAUNCH,
    TIMEOUT,
    WAIT_FOR_GRAPH,
    bare_site,
    first_load_bytes,
    mark,
    median,
    ready,
    serve,
    served_bytes,
    set_code,
    stop_latency,
    visits,
    wait_for,
)

ARTICLE_CELLS = 10
ARTICLE = """<!doctype html><meta charset="utf-8"><title>ten cells</title><h1>Ten cells</h1>{cells}
<script type="module" src="{site}embed.js"></script>"""
ARTICLE_CELL = (
    "<p>Step {i}.</p><pre data-playground>x{i} = Value({i}.0, label='x{i}')\nprint('cell {i}', x{i}.data)</pre>"
)


def article_figures(browser, site, runs):
    """An article of ten cells on another origin: what loads before a touch, and the first Run, cold."""
    folder = Path(tempfile.mkdtemp())
    cells = ''.join(ARTICLE_CELL.format(i=i) for i in range(1, ARTICLE_CELLS + 1))
    (folder / 'index.html').write_text(ARTICLE.format(cells=cells, site=site))
    _, article = serve(folder, isolated=False)
    shown, first_run, before_touch, python_workers, workers = [], [], [], [], []
    for _ in range(runs):
        context = browser.new_context()
        page = context.new_page()
        paths = []
        page.on('requestfinished', lambda r: r.url.startswith(site) and paths.append(r.url[len(site) :].split('?')[0]))
        page.on('worker', lambda w: workers.append(w.url))
        page.goto(article)
        page.wait_for_function("performance.getEntriesByName('cells-shown').length > 0")
        shown.append(mark(page, 'cells-shown'))
        page.wait_for_selector('[data-testid=cell] [data-testid=editor]')
        page.wait_for_timeout(500)
        before_touch.append(served_bytes(paths))
        start = time.perf_counter()
        first = page.locator('[data-testid=cell]').first
        first.get_by_test_id('run').click()
        first.locator('pre.stdout').wait_for(timeout=TIMEOUT)
        page.wait_for_function(
            "document.querySelector('[data-testid=cell]').shadowRoot"
            ".querySelector('[data-testid=status]').dataset.state === 'ready'",
            timeout=TIMEOUT,
        )
        first_run.append(1000 * (time.perf_counter() - start))
        python_workers.append(sum(p.endswith('python-worker.js') for p in paths))
        context.close()
    shutil.rmtree(folder)
    return {
        'shown': median(shown),
        'first_run': median(first_run),
        'bytes': before_touch[-1],
        'python_workers': max(python_workers),
        'workers': len(workers) / runs,
    }


def report(runs):
    """Measures and prints the load, run, render and Stop figures, the visits and the article."""
    bare_dir = bare_site()
    _, url = serve(DIST)
    plain_server, plain_url = serve(DIST, isolated=False)
    _, bare_url = serve(bare_dir)
    _, bare_plain_url = serve(bare_dir, isolated=False)  # the peer of the visits on a plain host

    with sync_playwright() as p:
        executable = '/usr/bin/chromium' if os.path.exists('/usr/bin/chromium') else None
        browser = p.chromium.launch(executable_path=executable, args=LAUNCH)
        editable, editor, python, bare, steps = [], [], [], [], []
        for _ in range(runs):
            for target, series in ((url, python), (bare_url, bare)):
                context = browser.new_context()
                page = context.new_page()
                if target == url:
                    ready(page, url)
                    wait_for(page, "performance.getEntriesByName('editor-made').length > 0")
                    editable.append(mark(page, 'code-editable'))
                    editor.append(mark(page, 'editor-made'))
                    steps.append(page.evaluate("performance.getEntriesByName('python-ready')[0].detail"))
                else:
                    page.goto(bare_url)
                    wait_for(page, "document.title === 'ready'")
                series.append(mark(page, 'python-ready'))
                context.close()

        context = browser.new_context(viewport={'width': 1280, 'height': 800})
        page = context.new_page()
        ready(page, url)
        page.select_option('[data-testid=examples]', 'neuron.py')
        wait_for(page, "window.playground.cell.getText().startsWith('# A single neuron')")
        page.evaluate(WAIT_FOR_GRAPH)  # warm-up
        neuron = [page.evaluate(WAIT_FOR_GRAPH)['ms'] for _ in range(runs)]
        renders = {}
        for values in (100, 500, 2000):
            set_code(page, CHAIN.format(steps=(values - 1) // 4))
            results = [page.evaluate(WAIT_FOR_GRAPH) for _ in range(max(3, runs // 2))]
            renders[values] = (median([r['ms'] for r in results]), max(r['longTask'] for r in results))
        interrupt = [stop_latency(page) for _ in range(runs)]
        context.close()

        context = browser.new_context()
        page = context.new_page()
        ready(page, plain_url)
        restart = [stop_latency(page) for _ in range(3)]
        context.close()
        raw, gz, files = first_load_bytes(browser, url)
        article = article_figures(browser, plain_url, runs)
        offline = visits(browser, plain_server, plain_url, bare_plain_url, runs)
        browser.close()
    shutil.rmtree(bare_dir)

    print(f"Backprop Playground page benchmark: medians of {runs} runs, headless Chromium, localhost")
    print(
        f"  code editable after navigation     {median(editable):7.0f} ms   (a plain text area until Python is ready)"
    )
    print(f"  editor made after navigation       {median(editor):7.0f} ms")
    print(f"  Python ready (playground)          {median(python):7.0f} ms")
    print(
        f"  Python ready (bare loadPyodide)    {median(bare):7.0f} ms   playground/bare = {median(python) / median(bare):.2f}"
    )
    parts = ', '.join(f"{name} {median([s['timings'][name] for s in steps]):.0f} ms" for name in steps[0]['timings'])
    starts = ', '.join(sorted({s['start'] for s in steps}))
    print(f"    inside the worker ({starts}): {parts}")
    print(f"  Run to graph, neuron example       {median(neuron):7.0f} ms")
    for values, (ms, long_task) in renders.items():
        print(
            f"  Run to graph, chain of {values:>4} values {ms:7.0f} ms   longest main-thread task {long_task:4.0f} ms"
        )
    print(f"  Stop, interrupt (isolated)         {median(interrupt):7.0f} ms")
    print(f"  Stop, restart to ready (plain host) {median(restart):6.0f} ms")
    print(f"  first load: {files} files, {raw / 1e6:.1f} MB raw, {gz / 1e6:.1f} MB as served with gzip")
    print("Visits on a plain static host (no COOP/COEP), service worker on:")
    print(
        f"  first visit ready {offline['first']:7.0f} ms   bare {offline['bare_first']:7.0f} ms   "
        f"ratio {offline['first'] / offline['bare_first']:.2f}   {offline['first_bytes'] / 1e6:.1f} MB sent "
        "(the page and the service worker's precache)"
    )
    print(
        f"  second visit ready {offline['second']:6.0f} ms   bare {offline['bare_second']:7.0f} ms   "
        f"ratio {offline['second'] / offline['bare_second']:.2f}   {offline['second_bytes'] / 1e3:.0f} KB sent"
    )
    print(f"  Stop on the second visit (isolated by the service worker): {offline['stop']:.0f} ms")
    article_bytes, article_files = article['bytes']
    print(f"Article of {ARTICLE_CELLS} cells on another origin (embed.js, plain host):")
    print(
        f"  fetched from the site before a cell is touched: {article_files} files, {article_bytes / 1e3:.0f} KB as served with gzip"
    )
    print(f"  navigation to every cell showing its code  {article['shown']:7.0f} ms")
    print(
        f"  first Run to its output, cold            {article['first_run']:7.0f} ms   "
        f"/ main page's Python ready = {article['first_run'] / median(python):.2f}"
    )
    print(
        f"  Python workers: {article['python_workers']} (workers started per page: {article['workers']:.0f}, "
        "the Python one and the graph one)"
    )


def main():
    parser = argparse.ArgumentParser()
    parser.add_argument('--runs', type=int, default=5)
    parser.add_argument('--only', choices=['teaching'], help="only the teaching views' figures (bench/teaching.py)")
    args = parser.parse_args()
    if not (DIST / 'index.html').exists():
        sys.exit("build the site first: python build.py")
    if args.only != 'teaching':
        report(args.runs)
    teaching.report(args.runs)


if __name__ == '__main__':
    main()
