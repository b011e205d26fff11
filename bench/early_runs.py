"""Issue 57, item 3: a Run pressed in the page's first seconds against later Runs. Each page is opened fresh
(its service worker allowed, as a reader gets it on localhost), the neuron set in the editor, and Run pressed
once, at one of the moments after the python-ready mark (--at, in ms: 1.0 s, 1.9 s, just after the service worker
starts its 41 MB precache at 2 s, and 3 s, when the precache may still be under way); then, once the standby
Python is ready and the precache is done (QUIET_MS more), three later Runs. Each figure is Run pressed to the first
node of the graph (compare.py's run_to_graph), medians over --pages pages per moment, the first page of each
unmeasured.

    python build.py && python bench/early_runs.py [--pages 5] [--at 1000,1900,2300,3000] [--vs REF]

With --vs REF (a git ref, built as compare.py builds one), each page of this checkout is followed by one of REF's,
in fresh contexts of the same browser: the figures side by side, measured in one run.

Prints, for each build, each moment's median against the later Runs' median, and the ratio (the issue's goal: at
most 1.25), with when the Run was sent (the run-posted mark), after python-ready, and the medians of each
stage of those Runs (compare.py's marks, ms after the press): a first Run that waited for the worker shows it in
python-run-received, one whose Python ran slower in python-graph-posted.
No assertions: figures only.
"""

import argparse
from pathlib import Path

from playwright.sync_api import sync_playwright

from compare import STAGES, build_ref, run_to_graph, stage_medians, wait_for_standby
from embed_bytes import ARGS, executable
from harness import mark, median, ready, serve, set_code

DIST = Path(__file__).resolve().parents[1] / 'dist'
QUIET_MS = 6000
LATER_RUNS = 3


def one_page(browser, url, code, ms, seen=None):
    """Run pressed `ms` after ready, then LATER_RUNS later Runs: (first, when it was sent, [later]), each Run as
    run_to_graph gives it, (ms, its stages); `seen(page, run)`, if given, after each Run, its page still open."""
    context = browser.new_context(viewport={'width': 1280, 'height': 800}, service_workers='allow')
    page = context.new_page()
    ready(page, url)
    set_code(page, code)
    # From the python-ready mark, not from when this script saw it (the page's load event, which goto
    # waits for, came about 250 ms after it): run_to_graph waits 300 ms more.
    since_ready = page.evaluate('performance.now()') - mark(page, 'python-ready')
    page.wait_for_timeout(max(0, ms - 300 - since_ready))
    first = run_to_graph(page)
    sent = mark(page, 'run-posted') - mark(page, 'python-ready')  # when the page posted the Run
    seen = seen or (lambda page, run: None)
    seen(page, first)
    wait_for_standby(page)
    page.wait_for_timeout(QUIET_MS)
    later = []
    for _ in range(LATER_RUNS):
        later.append(run_to_graph(page))
        seen(page, later[-1])
    context.close()
    return first, sent, later


def main():
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument('--pages', type=int, default=5, help='measured pages per moment (default 5)')
    parser.add_argument('--at', default='1000,1900,2300,3000', help='ms after ready (default 1000,1900,2300,3000)')
    parser.add_argument('--vs', metavar='REF', help='a git ref to measure side by side with this checkout')
    args = parser.parse_args()
    moments = [int(ms) for ms in args.at.split(',')]
    builds = {'this checkout': DIST}
    if args.vs:
        commit, dist = build_ref(args.vs)
        builds[f"{args.vs} ({commit[:7]})"] = dist
    # Each build's own neuron example, and its server.
    sites = {name: ((dist / 'examples' / 'neuron.py').read_text(), serve(dist)[1]) for name, dist in builds.items()}
    firsts = {(name, ms): [] for name in builds for ms in moments}
    pressed = {(name, ms): [] for name in builds for ms in moments}
    laters = {name: [] for name in builds}
    with sync_playwright() as playwright:
        browser = playwright.chromium.launch(executable_path=executable(), args=ARGS)
        for page_number in range(args.pages + 1):
            for ms in moments:
                for name, (code, url) in sites.items():
                    first, sent, later = one_page(browser, url, code, ms)
                    if page_number:
                        firsts[name, ms].append(first)
                        pressed[name, ms].append(sent)
                        laters[name].extend(later)
                    print(
                        f"  {name}, {ms} ms after ready: {first[0]:.0f} ms; "
                        f"later {', '.join(f'{t:.0f}' for t, _ in later)} ms",
                        flush=True,
                    )
        browser.close()
    for name in builds:
        later = median([t for t, _ in laters[name]])
        print(f"{name}: later Runs {later:.1f} ms (median of {len(laters[name])}); {stages(laters[name])}")
        for ms in moments:
            first = median([t for t, _ in firsts[name, ms]])
            print(
                f"  Run {ms / 1000:.1f} s after ready (sent at {median(pressed[name, ms]) / 1000:.2f} s): "
                f"{first:.1f} ms, {first / later:.2f}x the later Runs; {stages(firsts[name, ms])}"
            )


def stages(runs):
    """The medians of the Runs' stages, in ms after the press (compare.py's STAGES): where the time went."""
    medians = stage_medians(runs)
    return ', '.join(f"{name} {'n/a' if medians[name] is None else f'{medians[name]:.0f}'}" for name in STAGES)


if __name__ == '__main__':
    main()
