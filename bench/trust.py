"""Issue 16's figures in headless Chromium: Run→graph on the neuron, the first output after a run that
forces a fresh Python, and memory over 30 runs with Clear between them.

    python build.py && python bench/trust.py [--runs 5]

Python's live objects are counted with gc.get_objects(), which itself earns the next run a fresh Python:
run 5's count is from the first interpreter, run 30's from one that ran runs 6 to 30. The JS heap is read
after a full collection (DevTools protocol). Prints medians over --runs. No assertions: figures only (tests/test_trust.py asserts the behaviour).
"""

import argparse
import statistics
import threading
from pathlib import Path

from playwright.sync_api import expect, sync_playwright

from backprop_playground.paths import ROOT
from backprop_playground.server import make_server
from harness import LAUNCH, TIMEOUT  # noqa: E402

NEURON = (ROOT / 'web' / 'examples' / 'neuron.py').read_text()
TAINT = 'import math\nmath.pi = 3'
CHAIN = 'x = Value(1.0)\ny = x\nfor i in range({}):\n    y = y * 1.0001\ny.backward()\ndraw_dot(y)\n'
CHAINS = {3000: 'a 6,000-value program (too large to draw whole)', 900: 'a 1,800-value program, drawn'}
COUNT = '\nimport gc\ngc.collect()\nprint(len(gc.get_objects()))'

# Click Run from inside the page and time to a selector in the new run's section.
TIME_RUN = """async ([code, selector]) => {
  window.playground.cell.setText(code);
  const output = document.querySelector('[data-testid=output]');
  const before = output.querySelectorAll('section.run').length;
  const start = performance.now();
  document.querySelector('[data-testid=run]').click();
  await new Promise((resolve) => {
    if (!selector) return resolve();
    const check = () => {
      const sections = output.querySelectorAll('section.run');
      if (sections.length > before && sections[sections.length - 1].querySelector(selector)) { observer.disconnect(); resolve(); }
    };
    const observer = new MutationObserver(check);
    observer.observe(output, { subtree: true, childList: true });
    check();
  });
  const ms = performance.now() - start;
  const status = document.querySelector('[data-testid=status]');
  await new Promise((r) => setTimeout(r, 50));
  while (status.dataset.state !== 'ready' && status.dataset.state !== 'error' || document.querySelector('[data-testid=run]').disabled) {
    await new Promise((r) => setTimeout(r, 10));
  }
  return ms;
}"""


def open_page(browser, url):
    page = browser.new_page()
    page.goto(url)
    expect(page.get_by_test_id('status')).to_have_attribute('data-state', 'ready', timeout=TIMEOUT)
    return page


def main():
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument('--runs', type=int, default=5)
    args = parser.parse_args()
    server = make_server(port=0)
    threading.Thread(target=server.serve_forever, daemon=True).start()
    url = f"http://127.0.0.1:{server.server_address[1]}/"
    with sync_playwright() as p:
        browser = p.chromium.launch(
            executable_path='/usr/bin/chromium' if Path('/usr/bin/chromium').exists() else None, args=LAUNCH
        )
        page = open_page(browser, url)
        page.wait_for_timeout(4000)  # the standby Python restores in the background after the first ready
        page.evaluate(TIME_RUN, [NEURON, 'svg'])
        graph = [page.evaluate(TIME_RUN, [NEURON, 'svg']) for _ in range(args.runs)]
        fresh_ready, fresh_at_once = [], []
        for _ in range(args.runs):
            page.evaluate(TIME_RUN, [TAINT + '\nprint(0)', 'pre.stdout'])
            page.wait_for_timeout(4000)  # the next standby has time to restore, as between a learner's runs
            fresh_ready.append(page.evaluate(TIME_RUN, ["print('first')", 'pre.stdout']))
        for _ in range(max(2, args.runs // 2)):
            page.evaluate(TIME_RUN, [TAINT + '\nprint(0)', 'pre.stdout'])
            fresh_at_once.append(page.evaluate(TIME_RUN, ["print('first')", 'pre.stdout']))
        page.close()

        memory = {}
        for length in CHAINS:
            page = open_page(browser, url)
            cdp = page.context.new_cdp_session(page)
            objects, heap = [], []
            for i in range(30):
                page.evaluate(TIME_RUN, [CHAIN.format(length) + (COUNT if i in (4, 29) else ''), None])
                if i in (4, 29):
                    objects.append(
                        int(page.locator('[data-testid=output] section.run').last.locator('pre.stdout').inner_text())
                    )
                    cdp.send('HeapProfiler.collectGarbage')
                    heap.append(cdp.send('Runtime.getHeapUsage')['usedSize'])
                page.get_by_test_id('clear').click()
            memory[length] = objects, heap
            page.close()
        browser.close()
    print(
        f"Run→graph, neuron: median {statistics.median(graph):.0f} ms (min {min(graph):.0f}, max {max(graph):.0f}), {args.runs} runs"
    )
    print(
        f"first output after a run that forces a fresh Python, standby ready: median {statistics.median(fresh_ready):.0f} ms "
        f"(min {min(fresh_ready):.0f}, max {max(fresh_ready):.0f})"
    )
    print(
        f"  the same with Run pressed at once after the run that reached out: median {statistics.median(fresh_at_once):.0f} ms"
    )
    for length, (objects, heap) in memory.items():
        print(
            f"30 runs of {CHAINS[length]}, Clear between them: Python's live objects {objects[0]:,} after run 5, "
            f"{objects[1]:,} after run 30 ({objects[1] / objects[0]:.3f}x); page JS heap after a full collection "
            f"{heap[0] / 1e6:.1f} MB -> {heap[1] / 1e6:.1f} MB ({heap[1] / heap[0]:.2f}x)"
        )


if __name__ == '__main__':
    main()
