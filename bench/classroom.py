"""Issue 26's figures: the classroom server under a room's load, and how soon the board shows a Run.

    python build.py && python bench/classroom.py [--learners 60] [--statements 20] [--runs 3]

1. Load: `learners` threads, each a learner posting `statements` statements one by one, all at once, against
   `build.py serve --classroom` in this process's threads (as the laptop runs it); meanwhile one more
   thread fetches static files. Prints p50 and p95 of a statement's latency, how many were stored (exactly
   once each, nothing refused), and the static files' latency under that load.
2. Run to board: a learner's Run on course.html's first exercise, to the teacher's board (another page)
   showing the new attempt: headless Chromium, the board polling every 2 s as it does.
"""

import argparse
import sqlite3
import statistics
import sys
import tempfile
import threading
import time
import urllib.request
from pathlib import Path

from backprop_playground.classroom import Classroom
from backprop_playground.paths import DIST
from backprop_playground.server import make_server
from harness import LAUNCH, TIMEOUT
from room_traffic import post, statement


def serve(folder):
    room = Classroom(folder)
    server = make_server(port=0, room=room)
    threading.Thread(target=server.serve_forever, daemon=True).start()
    return server, room, f"http://127.0.0.1:{server.server_address[1]}/"


def load(learners, statements):
    with tempfile.TemporaryDirectory() as folder:
        server, room, url = serve(Path(folder))
        latencies, statuses, static = [], [], []
        start = threading.Barrier(learners + 1)
        done = threading.Event()

        def learner(n):
            start.wait()
            for i in range(statements):
                seconds, status = post(url, statement(url, n, i))
                latencies.append(seconds)
                statuses.append(status)

        def reader():
            start.wait()
            while not done.is_set():
                began = time.perf_counter()
                with urllib.request.urlopen(url + 'course.html', timeout=60) as response:
                    response.read()
                static.append(time.perf_counter() - began)

        threads = [threading.Thread(target=learner, args=(n,)) for n in range(learners)]
        watcher = threading.Thread(target=reader)
        for thread in [*threads, watcher]:
            thread.start()
        began = time.perf_counter()
        for thread in threads:
            thread.join()
        wall = time.perf_counter() - began
        done.set()
        watcher.join()
        with sqlite3.connect(room.path) as db:
            stored, distinct = db.execute('SELECT COUNT(*), COUNT(DISTINCT id) FROM statements').fetchone()
        server.shutdown()
        server.server_close()
    return {
        'latencies': latencies,
        'refused': sum(s != 200 for s in statuses),
        'stored': stored,
        'distinct': distinct,
        'static': static,
        'wall': wall,
    }


def run_to_board(runs):
    from playwright.sync_api import expect, sync_playwright

    times = []
    with tempfile.TemporaryDirectory() as folder, sync_playwright() as playwright:
        server, room, url = serve(Path(folder))
        executable = '/usr/bin/chromium' if Path('/usr/bin/chromium').exists() else None
        browser = playwright.chromium.launch(executable_path=executable, args=LAUNCH)
        context = browser.new_context()
        learner = context.new_page()
        learner.goto(url + 'course.html')
        learner.get_by_test_id('student-name').fill('Ada')
        learner.get_by_test_id('join').click()
        board = context.new_page()
        board.goto(f"{url}teacher.html#token={room.token}")
        box = learner.get_by_test_id('exercise').first
        for attempt in range(1, runs + 2):
            cell = board.locator('td[data-exercise="mul-returns-value"]')
            box.get_by_test_id('run').click()
            began = time.perf_counter()
            expect(cell).to_have_attribute('data-attempts', str(attempt), timeout=TIMEOUT)
            if attempt > 1:  # the first includes Python's start
                times.append(time.perf_counter() - began)
            expect(box.get_by_test_id('status')).to_have_attribute('data-state', 'ready', timeout=TIMEOUT)
        browser.close()
        server.shutdown()
        server.server_close()
    return times


def main():
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument('--learners', type=int, default=60)
    parser.add_argument('--statements', type=int, default=20)
    parser.add_argument('--runs', type=int, default=3)
    args = parser.parse_args()
    if not (DIST / 'teacher.html').exists():
        sys.exit('bench/classroom.py: build first (python build.py)')
    figures = load(args.learners, args.statements)
    ms = sorted(1000 * s for s in figures['latencies'])
    expected = args.learners * args.statements
    print(f"load: {args.learners} learners x {args.statements} statements at once, in {figures['wall']:.2f} s")
    print(
        f"  statement latency: p50 {statistics.median(ms):.1f} ms, p95 {ms[int(0.95 * (len(ms) - 1))]:.1f} ms, "
        f"max {ms[-1]:.1f} ms"
    )
    print(
        f"  stored {figures['stored']} of {expected} ({figures['distinct']} distinct ids), refused {figures['refused']}"
    )
    static = sorted(1000 * s for s in figures['static'])
    print(
        f"  course.html meanwhile: {len(static)} fetches, p50 {statistics.median(static):.1f} ms, max {static[-1]:.1f} ms"
    )
    times = run_to_board(args.runs)
    print(
        f"run to board: {', '.join(f'{t:.2f}' for t in times)} s (median {statistics.median(times):.2f} s; "
        "the board polls every 2 s)"
    )


if __name__ == '__main__':
    main()
