"""Issue 18's four figures, side by side in one run on `build.py serve`, headless Chromium:

  1. a first visit's bytes, service worker's precache included (brotli, and gzip only beside it);
  2. Run to a drawn graph: the neuron, the issue's 1,999-value chain, a 4,834-value network (opens grouped);
     the chain beside Graphviz's native `dot -Tsvg` on the same DOT (issue 27; needs `apt-get install graphviz`);
  3. Python ready against a bare loadPyodide: a first visit, and a second one from the service worker, and
     the floor of that approach, a page that does nothing but restore the snapshot;
  4. the moons example with plot() and plot_boundary() against the same program without them, in the page,
     with its final draw_dot in both and (issue 27's sixth figure) without it in either, so the graph's
     time does not hide the charts' cost.

    python build.py && python bench/lighter_faster.py [--runs 5] [--charts-only]

Medians over --runs. No assertions: figures only (the tests assert the behaviour).
"""

import argparse
import json
import os
import re
import shutil
import subprocess
import time
from pathlib import Path

from playwright.sync_api import sync_playwright

import first_visit
from backprop_playground.paths import DIST, ROOT
from backprop_playground.server.static import ENCODINGS
from harness import (
    LAUNCH,
    WAIT_FOR_GRAPH,
    bare_site,
    mark,
    median,
    ready,
    serve,
    set_code,
    snapshot_only_site,
    visits,
    wait_for,
)
from playground_runtime import runner as playground
from teaching import run_program

NEURON = (ROOT / 'web' / 'examples' / 'neuron.py').read_text()
CHAIN = "y = Value(1.0, label='y')\nfor i in range(999):\n    y = y * 1.0001\ny.backward()\ndraw_dot(y)\n"
NETWORK = """random.seed(0)
model = MLP(3, [8, 8, 1])
xs = [[random.uniform(-1, 1) for _ in range(3)] for _ in range(20)]
ys = [random.choice([-1.0, 1.0]) for _ in xs]
loss = sum(((model(x) - y) ** 2 for x, y in zip(xs, ys)), Value(0.0))
loss.backward()
draw_dot(loss)
"""
MOONS = (ROOT / 'web' / 'examples' / 'moons-mlp.py').read_text()
FINAL_DRAWING = '# The whole network on one point'  # where the moons example's training ends


def without_charts(program):
    return re.sub(r'^\s*plot(_boundary)?\(.*\n', '', program, flags=re.M)


MOONS_WITHOUT_CHARTS = without_charts(MOONS)
MOONS_TRAINING = MOONS[: MOONS.index(FINAL_DRAWING)]  # the final draw_dot left out
MOONS_TRAINING_WITHOUT_CHARTS = without_charts(MOONS_TRAINING)


def first_start(browser, url, runs):
    """Navigation to python-ready on a fresh context (a first visit) of a bare page."""
    times = []
    for _ in range(runs):
        context = browser.new_context()
        page = context.new_page()
        page.goto(url)
        wait_for(page, "document.title === 'ready'")
        times.append(mark(page, 'python-ready'))
        context.close()
    return median(times)


def graphs(page, runs):
    """Run to the graph drawn and the status ready, on one page after a warm-up run of each program; the
    output is cleared before each run (earlier runs' graphs would make the page's layout slower)."""

    def run_to_graph():
        page.click('[data-testid=clear]')
        return page.evaluate(WAIT_FOR_GRAPH)['ms']

    figures = {}
    for name, code in (('neuron', NEURON), ('1,999-value chain', CHAIN), ('4,834-value network, grouped', NETWORK)):
        set_code(page, code)
        run_to_graph()
        figures[name] = median([run_to_graph() for _ in range(runs)])
    return figures


def native_dot(runs):
    """Graphviz's own `dot -Tsvg` on the DOT the page draws for the chain (what a Jupyter user renders with)."""
    if not shutil.which('dot'):
        return None
    events = []
    playground.run(CHAIN, lambda text: events.append(json.loads(text)))
    dot = next(event['dot'] for event in events if event['type'] == 'graph')
    times = []
    for _ in range(runs):
        began = time.perf_counter()
        subprocess.run(['dot', '-Tsvg'], input=dot.encode(), capture_output=True, check=True)
        times.append(1000 * (time.perf_counter() - began))
    return median(times)


def charts(page, runs, plotted, plain):
    """Run to ready of a program with and without its plot calls, alternated: their medians."""
    with_charts, without = [], []
    for _ in range(runs):
        page.click('[data-testid=clear]')
        with_charts.append(run_program(page, plotted)['ms'])
        page.click('[data-testid=clear]')
        without.append(run_program(page, plain)['ms'])
    return median(with_charts), median(without)


def print_charts(example, training):
    for name, (plotted, plain) in (('moons example', example), ('its training alone, no final draw_dot', training)):
        print(
            f"  4. {name}: with plot and plot_boundary {plotted / 1000:.2f} s, without {plain / 1000:.2f} s, "
            f"ratio {plotted / plain:.2f} (target 1.15)"
        )


def charts_only(runs):
    _, url = serve(DIST)
    with sync_playwright() as p:
        executable = '/usr/bin/chromium' if Path('/usr/bin/chromium').exists() else None
        browser = p.chromium.launch(executable_path=executable, args=LAUNCH)
        page = browser.new_context(viewport={'width': 1280, 'height': 800}).new_page()
        ready(page, url)
        example = charts(page, runs, MOONS, MOONS_WITHOUT_CHARTS)
        training = charts(page, runs, MOONS_TRAINING, MOONS_TRAINING_WITHOUT_CHARTS)
        browser.close()
    print(f"Medians of {runs} runs, headless Chromium, localhost, {os.cpu_count()} cores")
    print_charts(example, training)


def main():
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument('--runs', type=int, default=5)
    parser.add_argument('--charts-only', action='store_true', help='only the fourth figure')
    args = parser.parse_args()
    if args.charts_only:
        return charts_only(args.runs)
    bare, snapshot_only = bare_site(), snapshot_only_site()
    _, snapshot_only_url = serve(snapshot_only, isolated=False)
    _, url = serve(DIST)
    plain_server, plain_url = serve(DIST, isolated=False)
    _, bare_plain_url = serve(bare, isolated=False)
    bytes_servers = {'brotli': first_visit.serve(ENCODINGS), 'gzip only': first_visit.serve([('gzip', '.gz')])}
    with sync_playwright() as p:
        executable = '/usr/bin/chromium' if Path('/usr/bin/chromium').exists() else None
        browser = p.chromium.launch(executable_path=executable, args=LAUNCH)
        sent = {
            name: [sum(first_visit.visit(browser, server, address)[0].values()) for _ in range(args.runs)]
            for name, (server, address) in bytes_servers.items()
        }
        context = browser.new_context(viewport={'width': 1280, 'height': 800})
        page = context.new_page()
        ready(page, url)
        drawn = graphs(page, args.runs)
        example = charts(page, args.runs, MOONS, MOONS_WITHOUT_CHARTS)
        training = charts(page, args.runs, MOONS_TRAINING, MOONS_TRAINING_WITHOUT_CHARTS)
        context.close()
        starts = visits(browser, plain_server, plain_url, bare_plain_url, args.runs)
        floor = first_start(browser, snapshot_only_url, args.runs)
        browser.close()
    shutil.rmtree(bare)
    shutil.rmtree(snapshot_only)

    print(f"Issue 18, medians of {args.runs} runs, headless Chromium, localhost, {os.cpu_count()} cores")
    print(
        f"  1. first visit, precache included: {median(sent['brotli']) / 1e6:.2f} MB with brotli (target 10), "
        f"{median(sent['gzip only']) / 1e6:.2f} MB with gzip only"
    )
    print(
        "  2. Run to a drawn graph: "
        + ', '.join(f"{name} {ms:.0f} ms" for name, ms in drawn.items())
        + " (targets 80 ms, 1 s, 1 s)"
    )
    native = native_dot(args.runs)
    chain = drawn['1,999-value chain']
    print(
        f"     the chain against native `dot -Tsvg` on the same DOT: {chain:.0f} / {native:.0f} ms = {chain / native:.2f}"
        " (target 1.0)"
        if native
        else "     native `dot` is not installed (apt-get install graphviz) to compare the chain with"
    )
    print(
        f"  3. Python ready / bare loadPyodide: first visit {starts['first']:.0f} / {starts['bare_first']:.0f} ms = "
        f"{starts['first'] / starts['bare_first']:.2f}, from the service worker {starts['second']:.0f} / "
        f"{starts['bare_second']:.0f} ms = {starts['second'] / starts['bare_second']:.2f} (target 0.30); a page that "
        f"only restores the snapshot, first visit: {floor:.0f} ms = {floor / starts['bare_first']:.2f}"
    )
    print_charts(example, training)


if __name__ == '__main__':
    main()
