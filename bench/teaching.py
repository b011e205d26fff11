"""The teaching views in the built page (issue 9): stepping, the demo with live charts, and micrograd in Pyodide.

    python build.py && python bench/teaching.py [--runs 3]
    (or python bench/page.py --only teaching; bench/page.py alone prints these after its own figures)

  1. Step through backward on a chain of about 200 values: per press of Step, the main thread's time
     (the click handler, then the next frame's style, layout and paint), the handler alone, and the
     click to two animation frames later (target: under 16 ms).
  2. micrograd's demo (100 steps of MLP(2, [16, 16, 1]) on 100 moons) with plot() and plot_boundary()
     every step: Run to ready in the page, against the same loop without plots in CPython, in this
     process (target: within 2.5x), and the points the training chart got.
  3. scalargrad against micrograd 0.1.0 inside the page's Pyodide, micrograd installed from its PyPI
     wheel with micropip (target: 3x). Each Run awaits the install, then times both engines: after a
     Run that imported micropip the page starts a fresh Python, so nothing installed outlives its Run.

Prints figures, never asserts; a figure that cannot be measured is printed with the reason.
"""

import argparse
import contextlib
import gc
import io
import json
import os
import re
import subprocess
import sys
import tempfile
import time
from pathlib import Path

from playwright.sync_api import sync_playwright

import scalargrad
import scalargrad.nn
from backprop_playground.paths import DIST
from harness import CHAIN, LAUNCH, median, ready, serve, set_code

CHAIN_LINKS = 50  # x0, then each link adds a constant, a product, a number and a sum: 201 values
DEMO_STEPS = 100
ENGINE_STEPS = 10

# bench/engine_vs_micrograd.py's loss (hinge + 1e-4 L2, learning rate 1.0 - 0.9 k / steps) and
# micrograd's demo's accuracy. The page and CPython run this same text.
LOOP = """import random, time
X, labels = make_moons(100, noise=0.1, seed=1337)
y = [2 * label - 1 for label in labels]

def loss_of(model, Value):
    scores = [model([Value(a), Value(b)]) for a, b in X]
    losses = [(1 + -yi * si).relu() for yi, si in zip(y, scores)]
    data_loss = sum(losses) * (1.0 / len(losses))
    reg_loss = 1e-4 * sum(p * p for p in model.parameters())
    accuracy = sum((yi > 0) == (si.data > 0) for yi, si in zip(y, scores)) / len(y)
    return data_loss + reg_loss, accuracy

def step(model, Value, k, steps):
    total_loss, accuracy = loss_of(model, Value)
    model.zero_grad()
    total_loss.backward()
    learning_rate = 1.0 - 0.9 * k / steps
    for p in model.parameters():
        p.data -= learning_rate * p.grad
    return total_loss, accuracy
"""

DEMO = (
    LOOP
    + f"""
random.seed(1337)
model = MLP(2, [16, 16, 1])
start = time.perf_counter()
for k in range({DEMO_STEPS}):
    total_loss, acc = step(model, Value, k, {DEMO_STEPS})
    plot(step=k, loss=total_loss, accuracy=acc)
    plot_boundary(model, X, y)
print('BENCH', time.perf_counter() - start, repr(total_loss.data))
"""
)

# A program that imports micropip makes the worker load it first. The install and the comparison are one
# program: after a run that imported micropip, the next run gets a fresh Python, without micrograd.
INSTALL = """import micropip, time
install_started = time.perf_counter()
await micropip.install({url!r})
installed_s = time.perf_counter() - install_started
"""


# The playground puts scalargrad in sys.modules as micrograd: drop that alias to import the real one.
def engines_program(order):
    """One Run: ENGINE_STEPS steps of each engine, in `order`, from the same weights."""
    return (
        """import gc, json, statistics, sys
for name in ('micrograd', 'micrograd.engine', 'micrograd.nn'):
    sys.modules.pop(name, None)
import micrograd.engine, micrograd.nn
import scalargrad, scalargrad.nn
"""
        + LOOP
        + f"""
random.seed(1337)
reference = micrograd.nn.MLP(2, [16, 16, 1])
ours = scalargrad.nn.MLP(2, [16, 16, 1])
for p, q in zip(reference.parameters(), ours.parameters(), strict=True):
    q.data = p.data
engines = {{'micrograd': (reference, micrograd.engine.Value), 'scalargrad': (ours, scalargrad.Value)}}

def per_step(model, Value):
    gc.collect()  # as bench/engine_vs_micrograd.py: neither engine pays for the other's garbage
    times, losses = [], []
    for k in range({ENGINE_STEPS}):
        start = time.perf_counter()
        losses.append(step(model, Value, k, {ENGINE_STEPS})[0].data)
        times.append(time.perf_counter() - start)
    return statistics.median(times), losses

timed = {{name: per_step(*engines[name]) for name in {list(order)!r}}}
print('BENCH', json.dumps({{'micrograd': timed['micrograd'][0], 'scalargrad': timed['scalargrad'][0],
                           'module': micrograd.engine.__file__, 'install_s': installed_s,
                           'same_losses': all(abs(a - b) <= 1e-9 * abs(a)
                                              for a, b in zip(timed['micrograd'][1], timed['scalargrad'][1]))}}))
"""
    )


# Run to the status leaving `running` (the click sets it at once; it leaves once every output is in).
RUN_TO_READY = """() => new Promise((resolve) => {
  const status = document.querySelector('[data-testid=status]');
  const start = performance.now();
  const observer = new MutationObserver(() => {
    if (status.dataset.state === 'running') return;
    observer.disconnect();
    resolve({ ms: performance.now() - start, state: status.dataset.state });
  });
  observer.observe(status, { attributes: true, attributeFilter: ['data-state'] });
  document.querySelector('[data-testid=run]').click();
})"""

# Presses Step until the last step. The grad texts are compared outside the timed part. The main thread
# works twice per press: in the click handler, then in the next frame's style, layout and paint, which end
# where a task posted from that frame's requestAnimationFrame callback starts. Each click comes in a task
# of its own, as a user's does: a click from inside a frame would be drawn in that frame, unmeasured.
PRESS_STEPS = """async () => {
  const stepper = document.querySelector('[data-testid=output] section.run:last-child .graph-stepper');
  const step = [...stepper.querySelectorAll('button')].find((b) => b.getAttribute('aria-label') === 'Step');
  const svg = stepper.closest('.graph-card').querySelector('.graph-view svg');
  const grads = () => [...svg.querySelectorAll('g.node text')].map((t) => t.textContent).filter((t) => t.startsWith('grad ')).join('|');
  const frame = () => new Promise((resolve) => requestAnimationFrame(resolve));
  const nextTask = () => new Promise((resolve) => {
    const channel = new MessageChannel();
    channel.port1.onmessage = resolve;
    channel.port2.postMessage(null);
  });
  const frameWork = async () => {
    await frame();
    const start = performance.now();
    await nextTask();
    return performance.now() - start;
  };
  const presses = [];
  while (!step.disabled) {
    await nextTask();
    const before = grads();
    const start = performance.now();
    step.click();
    const handled = performance.now();
    const rendering = await frameWork();
    await frame();
    presses.push({ handler: handled - start, rendering, mainThread: handled - start + rendering,
                   toFrames: performance.now() - start, changed: grads() !== before });
  }
  return { presses, position: stepper.querySelector('.graph-step-position').textContent };
}"""


def run_program(page, code):
    """Runs code in the page: {'ms': click to the status leaving running, 'state': the status then}."""
    set_code(page, code)
    return page.evaluate(RUN_TO_READY)


def last_run(page):
    return page.locator('[data-testid=output] section.run').last


def bench_line(page):
    """What the last run printed after 'BENCH ': the programs hand their numbers back that way."""
    text = '\n'.join(last_run(page).locator('pre.stdout').all_inner_texts())
    lines = [line for line in text.splitlines() if line.startswith('BENCH ')]
    return lines[-1][len('BENCH ') :] if lines else None


def what_went_wrong(page):
    return ' '.join(last_run(page).inner_text().split())[-400:]


def on_fresh_page(browser, url, measure):
    """measure(page) on a page of its own, once Python is ready."""
    context = browser.new_context(viewport={'width': 1280, 'height': 800})
    page = context.new_page()
    try:
        ready(page, url)
        return measure(page)
    finally:
        context.close()


def step_presses(page, runs):
    """Every press of Step through a freshly drawn chain, `runs` times."""
    presses, positions = [], []
    for _ in range(runs):
        result = run_program(page, CHAIN.format(steps=CHAIN_LINKS))
        if result['state'] != 'ready':
            return {'error': f"the chain did not run: {what_went_wrong(page)}"}
        page.locator('[data-testid=output] svg g.node').first.wait_for()
        opener = last_run(page).get_by_role('button', name=re.compile('^Step through backward'))
        if not opener.count():
            return {'error': "the graph has no button named 'Step through backward...'"}
        opener.click()
        last_run(page).locator('.graph-stepper').wait_for()
        pressed = page.evaluate(PRESS_STEPS)
        presses += pressed['presses']
        positions.append(pressed['position'])
    return {
        'presses': presses,
        'position': positions[-1],
        'size': last_run(page).locator('.graph-size').all_inner_texts(),
    }


def demo_with_charts(page, runs):
    """The demo with plot() and plot_boundary() every step: Run to ready, its loop, and the training chart's points."""
    run_ms, loop_ms, losses = [], [], set()
    for _ in range(runs):
        page.click('[data-testid=clear]')
        result = run_program(page, DEMO)
        line = bench_line(page)
        if result['state'] != 'ready' or not line:
            return {'error': f"the demo did not finish ({result['state']}): {what_went_wrong(page)}"}
        seconds, loss = line.split()
        run_ms.append(result['ms'])
        loop_ms.append(1000 * float(seconds))
        losses.add(loss)
    chart = last_run(page).locator('[data-testid=chart][data-chart=training]')
    points = chart.get_attribute('data-points') if chart.count() else None
    return {'ms': median(run_ms), 'loop_ms': median(loop_ms), 'losses': losses, 'points': points}


def demo_in_cpython(runs):
    """The same program in CPython with plot() and plot_boundary() doing nothing: exec's wall time."""
    run_ms, losses = [], set()
    for _ in range(runs):
        namespace = {
            'Value': scalargrad.Value,
            'MLP': scalargrad.nn.MLP,
            'make_moons': scalargrad.make_moons,
            'plot': lambda **series: None,
            'plot_boundary': lambda model, X, y: None,
        }
        printed = io.StringIO()
        gc.collect()
        start = time.perf_counter()
        with contextlib.redirect_stdout(printed):
            exec(DEMO, namespace)
        run_ms.append(1000 * (time.perf_counter() - start))
        losses.add(printed.getvalue().split()[-1])
    return {'ms': median(run_ms), 'losses': losses, 'python': sys.version.split()[0]}


def download_micrograd(folder):
    """micrograd 0.1.0's wheel from PyPI: (its path, None) or (None, why there is none)."""
    command = [
        sys.executable,
        '-m',
        'pip',
        'download',
        '--quiet',
        '--no-deps',
        '--only-binary=:all:',
        '-d',
        str(folder),
        'micrograd==0.1.0',
    ]
    done = subprocess.run(command, capture_output=True, text=True)
    wheels = list(Path(folder).glob('micrograd-0.1.0-*.whl'))
    if not wheels:
        return None, f"pip download micrograd==0.1.0 failed: {(done.stderr or done.stdout).strip()[-300:]}"
    return wheels[0], None


def site_with(folder, extra_file):
    """folder made into dist/ with extra_file beside it: every entry of dist/ linked, nothing in dist/ touched."""
    for entry in DIST.iterdir():
        os.symlink(entry, Path(folder) / entry.name)
    os.symlink(extra_file, Path(folder) / extra_file.name)
    return folder


def engines_in_pyodide(page, wheel_url, runs):
    """micrograd 0.1.0 (installed by micropip) and scalargrad, ENGINE_STEPS steps each per run, in one program."""
    results = []
    for i in range(runs + runs % 2):  # an even count: each engine goes first as often
        order = ('micrograd', 'scalargrad') if i % 2 == 0 else ('scalargrad', 'micrograd')  # turns to go first
        result = run_program(page, INSTALL.format(url=wheel_url) + engines_program(order))
        line = bench_line(page)
        if result['state'] != 'ready' or not line:
            return {'error': f"the comparison did not run ({result['state']}): {what_went_wrong(page)}"}
        results.append(json.loads(line))
    ratios = [r['micrograd'] / r['scalargrad'] for r in results]
    return {
        'install_s': results[0]['install_s'],
        'module': results[0]['module'],
        'runs': len(results),
        'micrograd_ms': 1000 * median([r['micrograd'] for r in results]),
        'scalargrad_ms': 1000 * median([r['scalargrad'] for r in results]),
        'ratio': median(ratios),
        'ratios': (min(ratios), max(ratios)),
        'same_losses': all(r['same_losses'] for r in results),
    }


def page_figures(runs):
    """Figures 1 to 3 from one browser; the site is dist/ plus micrograd's wheel, served as build.py serves."""
    with tempfile.TemporaryDirectory() as wheel_folder, tempfile.TemporaryDirectory() as site_folder:
        wheel, download_problem = download_micrograd(wheel_folder)
        _, url = serve(site_with(site_folder, wheel) if wheel else DIST)
        with sync_playwright() as p:
            executable = '/usr/bin/chromium' if os.path.exists('/usr/bin/chromium') else None
            browser = p.chromium.launch(executable_path=executable, args=LAUNCH)
            steps = on_fresh_page(browser, url, lambda page: step_presses(page, runs))
            demo = on_fresh_page(browser, url, lambda page: demo_with_charts(page, runs))
            engines = (
                {'error': download_problem}
                if download_problem
                else on_fresh_page(browser, url, lambda page: engines_in_pyodide(page, f"{url}{wheel.name}", runs))
            )
            browser.close()
    return steps, demo, engines


def print_steps(steps):
    if 'error' in steps:
        print(f"  1. Step through backward: not measured: {steps['error']}")
        return
    presses = steps['presses']
    main_thread = [p['mainThread'] for p in presses]
    handler = [p['handler'] for p in presses]
    rendering = [p['rendering'] for p in presses]
    to_frames = [p['toFrames'] for p in presses]
    slowest = max(presses, key=lambda p: p['mainThread'])
    unchanged = sum(not p['changed'] for p in presses)
    print(
        f"  1. Step through backward, chain of {', '.join(steps['size']) or f'{4 * CHAIN_LINKS + 1} values'} "
        f"(stepper at '{steps['position']}'), {len(presses)} presses of Step (target under 16 ms):"
    )
    print(
        f"     main-thread time per step            median {median(main_thread):5.1f} ms   max {max(main_thread):5.1f} ms "
        f"(the slowest: handler {slowest['handler']:.1f} + frame {slowest['rendering']:.1f})"
    )
    print(f"       click handler alone (synchronous)  median {median(handler):5.1f} ms   max {max(handler):5.1f} ms")
    print(
        f"       the next frame's style, layout, paint median {median(rendering):4.1f} ms   max {max(rendering):5.1f} ms"
    )
    print(
        f"     click to two animation frames later  median {median(to_frames):5.1f} ms   max {max(to_frames):5.1f} ms "
        "(waits for frames too)"
    )
    if unchanged:
        print(f"     presses after which no grad text had changed: {unchanged}")


def print_demo(demo, cpython):
    if 'error' in demo:
        print(f"  2. micrograd's demo with live charts: not measured: {demo['error']}")
        return
    losses = (
        'the same final loss'
        if demo['losses'] == cpython['losses']
        else f"final losses differ: page {sorted(demo['losses'])}, CPython {sorted(cpython['losses'])}"
    )
    print(
        f"  2. micrograd's demo, {DEMO_STEPS} steps of MLP(2, [16, 16, 1]) on 100 moons, plot + plot_boundary every step:"
    )
    print(
        f"     page, click Run to ready             {demo['ms'] / 1000:6.2f} s   (the loop timed inside Pyodide: {demo['loop_ms'] / 1000:.2f} s)"
    )
    print(
        f"     CPython {cpython['python']}, no plot calls       {cpython['ms'] / 1000:6.2f} s   "
        f"page/CPython = {demo['ms'] / cpython['ms']:.2f} (target within 2.5), {losses}"
    )
    print(
        f"     training chart points: {demo['points'] if demo['points'] is not None else 'no training chart in the page'}"
    )


def print_engines(engines):
    if 'error' in engines:
        print(f"  3. scalargrad vs micrograd 0.1.0 in Pyodide: not measured: {engines['error']}")
        return
    print(
        f"  3. scalargrad vs micrograd 0.1.0 inside the page's Pyodide, {ENGINE_STEPS} steps each, same data and weights,"
        f" {engines['runs']} Runs taking turns to go first"
    )
    print(
        f"     (each Run awaits micropip.install of the PyPI wheel first, a fresh Python's: {engines['install_s']:.2f} s; "
        f"micrograd from {engines['module']}):"
    )
    print(
        f"     micrograd 0.1.0 {engines['micrograd_ms']:6.1f} ms/step   scalargrad {engines['scalargrad_ms']:6.1f} ms/step   "
        f"micrograd/scalargrad, median of the Runs' ratios = {engines['ratio']:.2f} [{engines['ratios'][0]:.2f}-{engines['ratios'][1]:.2f}] (target 3)   "
        f"losses {'equal' if engines['same_losses'] else 'DIFFER'}"
    )


def report(runs):
    """Measures and prints figures 1 to 3 (bench/page.py calls this too)."""
    steps, demo, engines = page_figures(runs)
    cpython = demo_in_cpython(runs)  # with the browser closed, so that it runs alone
    print(f"Teaching views (issue 9): medians of {runs} run(s), headless Chromium, localhost")
    print_steps(steps)
    print_demo(demo, cpython)
    print_engines(engines)


def main():
    parser = argparse.ArgumentParser()
    parser.add_argument('--runs', type=int, default=1)
    args = parser.parse_args()
    if not (DIST / 'index.html').exists():
        sys.exit("build the site first: python build.py")
    report(args.runs)


if __name__ == '__main__':
    main()
