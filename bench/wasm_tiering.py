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
import time
from pathlib import Path

from playwright.sync_api import sync_playwright

from compare import run_to_graph, wait_for_standby
from embed_bytes import ARGS, executable
from harness import mark, ready, serve, set_code

DIST = Path(__file__).resolve().parents[1] / 'dist'
FLAGS = '--js-flags=--trace-wasm-compilation-times --trace-deopt'
LATER_RUNS = 3
QUIET_MS = 6000
LINE = re.compile(r'^(\S+Z) pw:browser \[pid=\d+\]\[out\] (.*)$')
TURBOFAN = re.compile(r'Compiled function 0x[0-9a-f]+#(\d+) using TurboFan, took (\d+) μs')
MARKS = {
    'run': 'Run pressed',
    'graph': 'its graph in the page',
    'standby': 'the standby Python starts (its worker shares the compiled module)',
}
MARK = re.compile(r'^=== (\d+) (.*)$')
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


def one_page(browser, url, code, at_ms, say):
    """Run pressed `at_ms` after ready, then LATER_RUNS later Runs; `say(text)` marks the browser's log with
    when each happened, in ms after python-ready on the page's clock."""
    context = browser.new_context(viewport={'width': 1280, 'height': 800}, service_workers='allow')
    page = context.new_page()
    ready(page, url)
    set_code(page, code)

    def since_ready(name=None):
        """Now, or the last `name` mark (None if there is none), in ms after python-ready."""
        now = 'performance.now()' if name is None else f"performance.getEntriesByName('{name}').at(-1)?.startTime"
        at = page.evaluate(now)
        return None if at is None else at - mark(page, 'python-ready')

    say(f'ready {since_ready():.0f}')  # said that long after python-ready: the browser's lines are timed by it
    page.wait_for_timeout(max(0, at_ms - 300 - since_ready()))  # run_to_graph waits 300 ms more
    for number in range(1 + LATER_RUNS):
        if number == 1:
            wait_for_standby(page)
            if (standby := since_ready('python-standby-start')) is not None:  # none after WITHOUT_STANDBY_MS
                say(f'standby {standby:.0f}')
            page.wait_for_timeout(QUIET_MS)
        ms, stages = run_to_graph(page)
        pressed = since_ready('run-posted') - stages[0]  # stages are ms after the press
        say(f'run {pressed:.0f}')
        say(f'graph {pressed + ms:.0f}')
    context.close()
    say('closed 0')


def timeline(log, names, eval_loop):
    """Each page's events, (ms after python-ready, text), read from the browser's log and say()'s marks; the
    browser's lines between a page's closed mark and the next page's ready mark are the next page's."""
    pages, waiting, ready_at = [], [], None
    for raw in log.splitlines():
        if mark_line := MARK.match(raw):
            when, (what, figure) = float(mark_line[1]), mark_line[2].split()
            if what == 'ready':
                ready_at = when - float(figure)
                pages.append([(at - ready_at, event) for at, event in waiting])
                waiting = []
            elif what == 'closed':
                ready_at = None
            else:
                pages[-1].append((float(figure), MARKS[what]))
        elif line := LINE.match(raw):
            at = datetime.datetime.fromisoformat(line[1].replace('Z', '+00:00')).timestamp() * 1000
            if (compiled := TURBOFAN.search(line[2])) and int(compiled[1]) == eval_loop:
                event = f'TurboFan compile of the eval loop ended, took {int(compiled[2]) / 1000:.0f} ms'
            elif deopt := DEOPT.search(line[2]):
                event = f'deopt of {names.get(int(deopt[2]), f"function {deopt[2]}")} at offset {deopt[3]} ({deopt[1]})'
            else:
                continue
            if ready_at is None:
                waiting.append((at, event))
            else:
                pages[-1].append((at - ready_at, event))
    return [sorted(events) for events in pages]


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
    # Playwright's driver writes the browser's output on its own stderr, which it shares with this process: that
    # and the marks below go to one file, in the order they came.
    with tempfile.TemporaryFile('w+', encoding='utf-8') as log:
        saved, debug = os.dup(2), os.environ.get('DEBUG')
        os.dup2(log.fileno(), 2)
        os.environ['DEBUG'] = 'pw:browser'

        def say(text):
            os.write(2, f'\n=== {time.time() * 1000:.0f} {text}\n'.encode())

        try:
            with sync_playwright() as playwright:
                browser = playwright.chromium.launch(executable_path=executable(), args=[*ARGS, FLAGS])
                for _ in range(args.pages):
                    for ms in (int(ms) for ms in args.at.split(',')):
                        one_page(browser, url, code, ms, say)
                browser.close()
        finally:
            os.dup2(saved, 2)
            os.close(saved)
            if debug is None:
                del os.environ['DEBUG']
            else:
                os.environ['DEBUG'] = debug
        log.seek(0)
        pages = timeline(log.read(), names, eval_loop)
    for number, events in enumerate(pages, 1):
        print(f'page {number}:')
        for at, text in events:
            print(f'  {at:7.0f} ms  {text}')


if __name__ == '__main__':
    main()
