"""Issue 37's live graph: training with `draw_dot(loss, live=True)` in its loop against the same training
without it (its graph drawn once, at the end, in both), side by side in one run: in the built page in
headless Chromium (Run to the status leaving running, so the page's drawing and every update are in), and
in CPython, where only the runtime's own share shows. The network is the moons MLP(2, [8, 8, 1]) on 8
points: a 1,708-value graph, which opens by neuron and updates there.

    python build.py && python bench/live_graph.py [--runs 5] [--steps 600]

Medians over --runs, alternated. No assertions: figures only (tests/runtime/test_live.py asserts the
behaviour, with a clock of its own).
"""

import argparse
import json
import os
import time
from pathlib import Path

from playwright.sync_api import sync_playwright

from backprop_playground.paths import DIST
from harness import LAUNCH, median, ready, serve
from playground_runtime import runner as playground
from teaching import run_program

TRAINING = """random.seed(0)
model = MLP(2, [8, 8, 1])
X, y = make_moons(8, noise=0.1, seed=1)
y = [2 * t - 1 for t in y]
for k in range({steps}):
    scores = [model([Value(a), Value(b)]) for a, b in X]
    loss = sum(((1 + -yi * si).relu() for yi, si in zip(y, scores)), Value(0.0)) * (1.0 / len(X)); loss.label = 'loss'
    model.zero_grad()
    loss.backward()
    for p in model.parameters():
        p.data -= 0.1 * p.grad
    {live}
{after}"""


def programs(steps):
    live = TRAINING.format(steps=steps, live="draw_dot(loss, live=True)", after="")
    plain = TRAINING.format(steps=steps, live="pass", after="draw_dot(loss)\n")
    return live, plain


def in_cpython(code):
    events = []
    began = time.perf_counter()
    result = json.loads(playground.run(code, events.append))
    assert result['status'] == 'ok', result
    return 1000 * (time.perf_counter() - began), [json.loads(e) for e in events]


def main():
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument('--runs', type=int, default=5)
    parser.add_argument('--steps', type=int, default=600)
    args = parser.parse_args()
    live, plain = programs(args.steps)

    cpython = {'live': [], 'plain': []}
    for _ in range(args.runs):
        ms, events = in_cpython(live)
        cpython['live'].append(ms)
        updates = sum(e['type'] == 'graph-update' for e in events)
        cpython['plain'].append(in_cpython(plain)[0])

    _, url = serve(DIST)
    page_times = {'live': [], 'plain': []}
    with sync_playwright() as p:
        executable = '/usr/bin/chromium' if Path('/usr/bin/chromium').exists() else None
        browser = p.chromium.launch(executable_path=executable, args=LAUNCH)
        page = browser.new_context(viewport={'width': 1280, 'height': 800}).new_page()
        ready(page, url)
        run_program(page, plain)  # a first run of each warms the page's caches
        run_program(page, live)
        for _ in range(args.runs):
            for name, code in (('live', live), ('plain', plain)):
                page.click('[data-testid=clear]')
                result = run_program(page, code)
                assert result['state'] == 'ready', result
                page_times[name].append(result['ms'])
        drawn = page.evaluate("document.querySelector('[data-testid=output] svg g.node') !== null")
        browser.close()

    print(
        f"Medians of {args.runs} runs, {args.steps} training steps, headless Chromium, localhost, {os.cpu_count()} cores"
    )
    for where, times in (('in the page', page_times), ('in CPython', cpython)):
        with_live, without = median(times['live']), median(times['plain'])
        print(
            f"  {where}: with draw_dot(loss, live=True) {with_live / 1000:.2f} s, without {without / 1000:.2f} s, "
            f"ratio {with_live / without:.2f} (target at most 1.3)"
        )
        print(
            f"    each run, with / without: {', '.join(f'{a / 1000:.2f}/{b / 1000:.2f}' for a, b in zip(times['live'], times['plain']))}"
        )
    print(f"  {updates} graph-updates in a CPython run; the graph drawn in the page: {drawn}")


if __name__ == '__main__':
    main()
