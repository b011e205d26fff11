"""Issue 57, item 3's profile: what V8 does with the interpreter's WebAssembly in a page's first seconds, and
where a Run pressed then falls. Chromium prints each optimizing (TurboFan) compile of a wasm function and each
deopt (`--js-flags`, on stdout, which Playwright passes on with DEBUG=pw:browser); this script runs pages as
early_runs.py does (fresh context, service worker allowed, the neuron example, Run pressed --at ms after the
python-ready mark, then later Runs once the standby is ready) and prints, per page, a timeline in ms after
python-ready: each TurboFan compile of Python's eval loop (as it ends, with its length), each wasm deopt (the
function and the bytecode offset), the Run's press and its graph, then the later Runs.

    python build.py && python bench/wasm_tiering.py [--pages 2] [--at 1000,3000] [--dist DIR]

Pyodide's wasm has no name section: functions are numbers. The eval loop is _PyEval_EvalFrameDefault, found
in the export section (function_names()). No assertions: figures only.
"""

import argparse
import datetime
import os
import re
import sys
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
    """Run pressed `at_ms` after ready, then LATER_RUNS later Runs; `say(text)` marks the browser's log."""
    context = browser.new_context(viewport={'width': 1280, 'height': 800}, service_workers='allow')
    page = context.new_page()
    ready(page, url)
    set_code(page, code)
    since_ready = lambda: page.evaluate('performance.now()') - mark(page, 'python-ready')  # noqa: E731
    say(f'ready {since_ready():.0f}')  # this mark is said that long after python-ready
    page.wait_for_timeout(max(0, at_ms - 300 - since_ready()))
    for number in range(1 + LATER_RUNS):
        if number:
            wait_for_standby(page)
            page.wait_for_timeout(QUIET_MS if number == 1 else 0)
        say(f'run {since_ready() + 300:.0f}')  # run_to_graph presses Run 300 ms from now
        ms, _ = run_to_graph(page)
        say(f'graph {ms:.0f}')
    context.close()


def timeline(log, names, eval_loop):
    """Each page's events, (ms after python-ready, text), read from the browser's log and say()'s marks; the
    browser's lines before a page's ready mark are that page's."""
    pages, waiting, ready_at, pressed = [], [], None, None
    for raw in log.splitlines():
        if mark_line := MARK.match(raw):
            when, (what, figure) = float(mark_line[1]), mark_line[2].split()
            if what == 'ready':
                ready_at = when - float(figure)
                pages.append([(at - ready_at, text) for at, text in waiting])
                waiting = []
            elif what == 'run':
                pressed = float(figure)
                pages[-1].append((pressed, 'Run pressed'))
            elif what == 'graph':
                pages[-1].append((pressed + float(figure), f'its graph in the page, {figure} ms after the press'))
                waiting, ready_at = [], None  # until the next page's ready mark, what comes is that page's
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
    eval_loop = next(index for index, name in names.items() if name == '_PyEval_EvalFrameDefault')
    code = (args.dist / 'examples' / 'neuron.py').read_text()
    url = serve(args.dist)[1]
    # Playwright's driver writes the browser's output on its own stderr, which it shares with this process: that
    # and the marks below go to one file, in the order they came.
    with tempfile.TemporaryFile('w+', encoding='utf-8') as log:
        saved = os.dup(2)
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
            del os.environ['DEBUG']
        log.seek(0)
        pages = timeline(log.read(), names, eval_loop)
    for number, events in enumerate(pages, 1):
        print(f'page {number}:')
        for at, text in events:
            print(f'  {at:7.0f} ms  {text}')
    sys.stdout.flush()


if __name__ == '__main__':
    main()
