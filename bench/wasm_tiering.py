"""Issue 57, item 3's profile: what V8 does with the interpreter's WebAssembly in a page's first seconds, and
where a Run pressed then falls. Chromium prints each optimizing (TurboFan) compile of a wasm function and each
deopt (`--js-flags`, on stdout, which Playwright passes on with DEBUG=pw:browser); this script runs pages as
early_runs.py does (fresh context, service worker allowed, the neuron example, Run pressed --at ms after the
python-ready mark, then later Runs once the standby is ready) and prints, per page, a timeline in ms after
python-ready: each TurboFan compile of Python's eval loop (as it ends, with how long it took), each wasm deopt
(the function and the bytecode offset in the module), each Run's press and its graph, the standby's start.

    python build.py && python bench/wasm_tiering.py [--pages 2] [--at 1000,3000] [--dist DIR]

The Runs and the standby are timed on the page's clock. V8's lines are timed as Playwright's driver read them,
on the same wall clock: a line V8 kept in its output buffer for a while comes late. Pyodide's wasm has no name
section: functions are named from its export section (function_names()), a static function by its number; a
deopt in another module (zstd.wasm) would be misnamed. No assertions: figures only.
"""

import argparse
import datetime
import os
import re
import tempfile
from pathlib import Path

from playwright.sync_api import sync_playwright

from early_runs import one_page
from embed_bytes import ARGS, executable
from harness import serve

DIST = Path(__file__).resolve().parents[1] / 'dist'
FLAGS = '--js-flags=--trace-wasm-compilation-times --trace-deopt'
LINE = re.compile(r'^(\S+Z) pw:browser \[pid=\d+\]\[out\] (.*)$')
TURBOFAN = re.compile(r'Compiled function 0x[0-9a-f]+#(\d+) using TurboFan, took (\d+) μs')
DEOPT = re.compile(r'deopt-eager, reason: ([^,)]+).*deoptimizing wasm-function\[(\d+)\].*bytecode offset (\d+)')


def leb128(data, at):
    value = shift = 0
    while True:
        byte = data[at]
        at += 1
        value |= (byte & 0x7F) << shift
        shift += 7
        if byte < 0x80:
            return value, at


def function_names(wasm):
    """{function index: its first exported name}, from the module's export section (id 7)."""
    names, at = {}, 8
    while at < len(wasm):
        section = wasm[at]
        size, at = leb128(wasm, at + 1)
        if section == 7:
            count, entry = leb128(wasm, at)
            for _ in range(count):
                length, entry = leb128(wasm, entry)
                name = wasm[entry : entry + length].decode()
                kind = wasm[entry + length]
                index, entry = leb128(wasm, entry + length + 1)
                if kind == 0:
                    names.setdefault(index, name)
        at += size
    return names


# Read after a Run, on the page's clock: when navigation began (epoch ms, the clock the browser's log has) and the
# last python-ready, run-posted and python-standby-start marks (ms after it, null where there is none).
CLOCK = """() => [performance.timeOrigin,
  ...['python-ready', 'run-posted', 'python-standby-start'].map((n) => performance.getEntriesByName(n).at(-1)?.startTime ?? null)]"""


def page_events(browser, url, code, at_ms):
    """One page of early_runs.py's: (when its navigation began and when Python was ready, epoch ms; its Runs'
    presses and graphs and the standby's start, as (ms after python-ready, what))."""
    page = {'events': []}

    def seen(tab, run):
        ms, stages = run
        page['origin'], ready_at, posted, standby = tab.evaluate(CLOCK)
        page['ready'] = page['origin'] + ready_at
        pressed = posted - ready_at - stages[0]  # stages are ms after the press
        page['events'] += [(pressed, 'Run pressed'), (pressed + ms, 'its graph in the page')]
        page['standby'] = None if standby is None else standby - ready_at  # none after WITHOUT_STANDBY_MS

    one_page(browser, url, code, at_ms, seen)
    if page['standby'] is not None:
        page['events'].append((page['standby'], 'the standby Python starts (its worker shares the compiled module)'))
    return page['origin'], page['ready'], page['events']


def browser_events(log, names, eval_loop):
    """The TurboFan compiles of the eval loop and the wasm deopts in the browser's log: (epoch ms, what)."""
    events = []
    for line in map(LINE.match, log.splitlines()):
        if not line:
            continue
        at = datetime.datetime.fromisoformat(line[1].replace('Z', '+00:00')).timestamp() * 1000
        if (compiled := TURBOFAN.search(line[2])) and int(compiled[1]) == eval_loop:
            events.append((at, f'TurboFan compile of the eval loop ended, took {int(compiled[2]) / 1000:.0f} ms'))
        elif deopt := DEOPT.search(line[2]):
            name = names.get(int(deopt[2]), f'function {deopt[2]}')
            events.append((at, f'deopt of {name} at offset {deopt[3]} ({deopt[1]})'))
    return events


def timeline(pages, logged):
    """Each page's events and the browser's, in ms after its python-ready: a browser event is the page's that
    began last before it (pages take turns, one at a time)."""
    pages = sorted(pages)
    timelines = [list(events) for _, _, events in pages]
    for at, event in logged:
        began = [i for i, (origin, _, _) in enumerate(pages) if origin <= at]
        if began:
            timelines[began[-1]].append((at - pages[began[-1]][1], event))
    return [sorted(events) for events in timelines]


def main():
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument('--pages', type=int, default=2, help='pages per moment (default 2)')
    parser.add_argument('--at', default='1000,3000', help='ms after ready (default 1000,3000)')
    parser.add_argument('--dist', type=Path, default=DIST, help='the build to serve (default dist/)')
    args = parser.parse_args()
    names = function_names((args.dist / 'pyodide' / 'pyodide.asm.wasm').read_bytes())
    eval_loop = {name: index for index, name in names.items()}.get('_PyEval_EvalFrameDefault')
    if eval_loop is None:
        raise SystemExit("this build's pyodide.asm.wasm exports no _PyEval_EvalFrameDefault")
    code = (args.dist / 'examples' / 'neuron.py').read_text()
    url = serve(args.dist)[1]
    # Playwright's driver writes the browser's output on its own stderr, which it shares with this process.
    with tempfile.TemporaryFile('w+', encoding='utf-8') as log:
        saved, debug = os.dup(2), os.environ.get('DEBUG')
        os.dup2(log.fileno(), 2)
        os.environ['DEBUG'] = 'pw:browser'
        try:
            with sync_playwright() as playwright:
                browser = playwright.chromium.launch(executable_path=executable(), args=[*ARGS, FLAGS])
                pages = [
                    page_events(browser, url, code, int(ms)) for _ in range(args.pages) for ms in args.at.split(',')
                ]
                browser.close()
        finally:
            os.dup2(saved, 2)
            os.close(saved)
            if debug is None:
                del os.environ['DEBUG']
            else:
                os.environ['DEBUG'] = debug
        log.seek(0)
        logged = browser_events(log.read(), names, eval_loop)
    pages = timeline(pages, logged)
    for number, events in enumerate(pages, 1):
        print(f'page {number}:')
        for at, text in events:
            print(f'  {at:7.0f} ms  {text}')


if __name__ == '__main__':
    main()
