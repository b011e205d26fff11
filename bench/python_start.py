"""Python ready on the main page against the floor of a start from the snapshot (issue 57: at most 1.10x), and
against another build's dist/ with --vs, in pairs of fresh headless Chromium contexts taking turns.

    python build.py && python bench/python_start.py [--rounds 30] [--vs DIR]

The floor is harness.py's snapshot-only page: a worker that does nothing but restore dist/'s snapshot. Each site
is served by `build.py serve`'s server in a process of its own (in this one, its Python would share the driver's
interpreter lock). Each round opens every site once, in an order that turns between rounds, and reads the
python-ready mark, polled every 20 ms alike. On two cores a round varies by 40-100 ms and the machine's speed
drifts over minutes: the figures are the trimmed mean (the middle half) and the median of the paired
differences, which that drift cancels out of. No assertions: figures only.
"""

import argparse
import os
import shutil
import statistics
import subprocess
import sys
import time
from pathlib import Path

from playwright.sync_api import sync_playwright

from backprop_playground.paths import DIST
from harness import LAUNCH, TIMEOUT, snapshot_only_site

SERVE = """import sys
from backprop_playground.server import make_server
server = make_server(port=0, isolated=True, directory=sys.argv[1])
print(server.server_address[1], flush=True)
server.serve_forever()"""
READY = "performance.getEntriesByName('python-ready')[0]?.startTime ?? null"


def served(directory):
    """(process, URL) of `build.py serve`'s server for `directory`, in a process of its own."""
    process = subprocess.Popen([sys.executable, '-c', SERVE, str(directory)], stdout=subprocess.PIPE, text=True)
    return process, f"http://127.0.0.1:{process.stdout.readline().strip()}/"


def python_ready(browser, url):
    """Navigation to the python-ready mark, ms, in a fresh context (a first visit, its cache in memory)."""
    context = browser.new_context(viewport={'width': 1280, 'height': 800})
    try:
        page = context.new_page()
        page.goto(url)
        deadline = time.monotonic() + TIMEOUT / 1000
        while (ready := page.evaluate(READY)) is None:
            if time.monotonic() > deadline:
                raise TimeoutError(f"{url}: no python-ready mark")
            page.wait_for_timeout(20)
        return ready
    finally:
        context.close()


def trimmed(values):
    """The mean of the middle half."""
    values = sorted(values)
    cut = len(values) // 4
    return statistics.mean(values[cut : len(values) - cut])


def main():
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument('--rounds', type=int, default=30)
    parser.add_argument('--vs', type=Path, help="another build's dist/, opened in the same rounds")
    args = parser.parse_args()
    floor = snapshot_only_site()
    sites = {'this build': DIST, 'snapshot-only floor': floor, **({f"{args.vs}": args.vs} if args.vs else {})}
    servers = {name: served(directory) for name, directory in sites.items()}
    times = {name: [] for name in sites}
    try:
        with sync_playwright() as p:
            browser = p.chromium.launch(executable_path='/usr/bin/chromium', args=LAUNCH)
            for name, (_, url) in servers.items():  # unmeasured: the browser's and the servers' first pages
                python_ready(browser, url)
            for round_ in range(args.rounds):
                order = list(servers.items())
                for name, (_, url) in order if round_ % 2 == 0 else reversed(order):
                    times[name].append(python_ready(browser, url))
            browser.close()
    finally:
        for process, _ in servers.values():
            process.terminate()
        shutil.rmtree(floor)
    ours = times['this build']
    print(
        f"Python ready, {args.rounds} rounds of fresh contexts taking turns, headless Chromium, {os.cpu_count()} cores"
    )
    print(f"{'':40} {'trimmed mean':>13} {'median':>8} {'paired difference':>18} {'ratio':>7}")
    for name, values in times.items():
        row = f"{name:40} {trimmed(values):10,.0f} ms {statistics.median(values):5,.0f} ms"
        if values is not ours:
            paired = [ours_one - other for ours_one, other in zip(ours, values)]
            ratio = trimmed(ours) / trimmed(values)
            row += f" {trimmed(paired):+8,.0f} / {statistics.median(paired):+,.0f} ms {ratio:6.2f}x"
        print(row)
    print("paired difference: this build's minus the row's (trimmed mean / median); ratio: this build's over the row's")


if __name__ == '__main__':
    main()
