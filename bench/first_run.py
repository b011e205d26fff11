"""Issue 27's second figure: the first Run on a freshly opened page against later Runs (Run pressed to the
first graph node in the output), the neuron example, pages that became ready 1 s earlier.

    python build.py && python bench/first_run.py [--pages 5]
"""

import argparse
import statistics
import threading
from pathlib import Path

from playwright.sync_api import sync_playwright

from backprop_playground.server import make_server
from harness import LAUNCH, RUN_TO_GRAPH, TIMEOUT


def ready(page):
    for _ in range(2400):
        if page.evaluate("document.querySelector('[data-testid=status]').dataset.state") == 'ready':
            return
        page.wait_for_timeout(50)
    raise TimeoutError('the page did not become ready')


def main():
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument('--pages', type=int, default=5)
    args = parser.parse_args()
    server = make_server(port=0)
    threading.Thread(target=server.serve_forever, daemon=True).start()
    url = f"http://127.0.0.1:{server.server_address[1]}/"
    firsts, laters = [], []
    with sync_playwright() as playwright:
        executable = '/usr/bin/chromium' if Path('/usr/bin/chromium').exists() else None
        browser = playwright.chromium.launch(executable_path=executable, args=LAUNCH)
        for _ in range(args.pages):
            context = browser.new_context()
            page = context.new_page()
            page.goto(url)
            ready(page)
            page.select_option('[data-testid=examples]', 'neuron.py')
            page.wait_for_timeout(1000)
            firsts.append(page.evaluate(RUN_TO_GRAPH, [[], TIMEOUT])['ms'])
            ready(page)
            runs = []
            for _ in range(3):
                page.wait_for_timeout(300)
                runs.append(page.evaluate(RUN_TO_GRAPH, [[], TIMEOUT])['ms'])
                ready(page)
            laters.append(statistics.median(runs))
            print(f"  first {firsts[-1]:.0f} ms, later {', '.join(f'{t:.0f}' for t in runs)} ms")
            context.close()
        browser.close()
    first, later = statistics.median(firsts), statistics.median(laters)
    print(f"first Run {first:.0f} ms, later Runs {later:.0f} ms (medians of {args.pages} pages): {first / later:.2f}x")


if __name__ == '__main__':
    main()
