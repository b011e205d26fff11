"""Issue 32's figures: the classroom on its real network, a LAN name over plain HTTP (no brotli there).

    python build.py && python bench/room_network.py [--runs 5] [--learners 30] [--browsers 3]

1. A first visit to the main page, side by side in one run, fresh browser contexts taking turns: bytes sent by
   the server (bodies, as counted between the browser and the server) and Python's ready time, at 127.0.0.1
   (brotli), at the LAN name with the packed runtime (one zstd file), and at the LAN name with the runtime's
   files one by one (the packed file refused: how a first visit went before). Medians of --runs.
2. A room opening the course at once: `build.py serve --host 0.0.0.0 --classroom` in a process of its own;
   --learners HTTP clients each fetch what a first visit to course.html with one Run fetches on the LAN name
   (the list recorded from a real browser, asked for with a plain-HTTP browser's Accept-Encoding), while
   --browsers headless Chromium pages open the main page there and wait for Python. Prints every response's
   status, each client's time p50/p95, the bytes sent, the browsers' ready times and the server's CPU seconds.
"""

import argparse
import http.client
import os
import socket
import statistics
import subprocess
import sys
import tempfile
import threading
import time
from collections import Counter
from pathlib import Path

from playwright.sync_api import sync_playwright

from backprop_playground.paths import DIST, ROOT
from harness import LAUNCH, TIMEOUT, serve

LAN = 'classroom.lan'
ARGS = [*LAUNCH, f'--host-resolver-rules=MAP {LAN} 127.0.0.1']
READY = "performance.getEntriesByName('python-ready')[0]"


def first_visit(browser, url, refuse_packed=False):
    """(ms from navigation to Python ready, whether the packed runtime was used); the server counts the bytes."""
    context = browser.new_context(service_workers='block')
    if refuse_packed:
        context.route('**/runtime.zst', lambda route: route.fulfill(status=404, body=''))
    page = context.new_page()
    page.goto(url)
    page.wait_for_selector('[data-testid=status][data-state=ready]', timeout=TIMEOUT)
    ready, packed = page.evaluate(f"[{READY}.startTime, {READY}.detail.packed]")
    page.wait_for_timeout(300)  # the last requests of the page's start (the graph worker's warm-up)
    context.close()
    return ready, packed


def side_by_side(runs):
    server, url = serve(DIST)
    port = server.server_address[1]
    ways = {
        '127.0.0.1, brotli': (f"http://127.0.0.1:{port}/", False),
        f'{LAN}, packed runtime': (f"http://{LAN}:{port}/", False),
        f'{LAN}, files one by one (before)': (f"http://{LAN}:{port}/", True),
    }
    results = {name: [] for name in ways}
    with sync_playwright() as p:
        browser = p.chromium.launch(executable_path=executable(), args=ARGS)
        for _ in range(runs):
            for name, (url, refuse) in ways.items():
                server.sent.clear()
                ready, packed = first_visit(browser, url, refuse)
                results[name].append((sum(server.sent.values()), ready, packed))
        browser.close()
    server.shutdown()
    before = statistics.median(ready for _, ready, _ in results[f'{LAN}, files one by one (before)'])
    print(f"1. A first visit to the main page, {runs} fresh contexts each, taking turns:")
    for name, rows in results.items():
        sent, ready = statistics.median(r[0] for r in rows), statistics.median(r[1] for r in rows)
        print(
            f"   {name:<40} {sent / 1e6:5.2f} MB sent, Python ready {ready:6.0f} ms "
            f"(min {min(r[1] for r in rows):.0f}, max {max(r[1] for r in rows):.0f}; {ready / before:.2f}x the LAN before), "
            f"packed used: {sorted({r[2] for r in rows})}"
        )


def executable():
    return '/usr/bin/chromium' if Path('/usr/bin/chromium').exists() else None


def recorded_visit(port):
    """The paths a first visit to course.html with one Run fetches on the LAN name (a real browser's list)."""
    paths = []
    with sync_playwright() as p:
        browser = p.chromium.launch(executable_path=executable(), args=ARGS)
        context = browser.new_context(service_workers='block')
        page = context.new_page()
        page.on('request', lambda request: paths.append(request.url.split('/', 3)[3]))
        page.goto(f"http://{LAN}:{port}/course.html")
        page.get_by_test_id('student-name').fill('Recorder')
        page.get_by_test_id('join').click()
        box = page.get_by_test_id('exercise').first
        box.get_by_test_id('run').click()
        box.get_by_test_id('result').and_(page.locator('[data-state=failed]')).wait_for(timeout=TIMEOUT)
        page.wait_for_timeout(500)
        browser.close()
    return [path for path in dict.fromkeys(paths) if not path.startswith('classroom/')]


def fetch_all(port, paths, times, statuses, sent):
    started = time.perf_counter()
    connection = None
    for path in paths:
        connection = http.client.HTTPConnection('127.0.0.1', port, timeout=120)
        connection.request('GET', '/' + path, headers={'Host': f'{LAN}:{port}', 'Accept-Encoding': 'gzip, deflate'})
        response = connection.getresponse()
        body = response.read()
        statuses[response.status] += 1
        sent.append(len(body))
        connection.close()
    times.append(time.perf_counter() - started)


def cpu_seconds(pid):
    with open(f'/proc/{pid}/stat') as stat:
        fields = stat.read().rsplit(')', 1)[1].split()
    return (int(fields[11]) + int(fields[12])) / os.sysconf('SC_CLK_TCK')


def free_port():
    with socket.socket() as probe:
        probe.bind(('127.0.0.1', 0))
        return probe.getsockname()[1]


def room_at_once(learners, browsers):
    port = free_port()
    with tempfile.TemporaryDirectory() as folder:
        laptop = subprocess.Popen(
            [sys.executable, 'build.py', 'serve', '--host', '0.0.0.0', '--port', str(port), '--classroom', folder],
            cwd=ROOT,
            stdout=subprocess.PIPE,
            stderr=subprocess.STDOUT,
            text=True,
        )
        try:
            for line in laptop.stdout:
                if line.startswith('teacher:'):
                    break
            paths = recorded_visit(port)
            times, statuses, sent, ready = [], Counter(), [], []
            cpu_before = cpu_seconds(laptop.pid)
            with sync_playwright() as p:
                browser = p.chromium.launch(executable_path=executable(), args=ARGS)
                contexts = [browser.new_context(service_workers='block') for _ in range(browsers)]
                pages = [context.new_page() for context in contexts]
                clients = [
                    threading.Thread(target=fetch_all, args=(port, paths, times, statuses, sent))
                    for _ in range(learners)
                ]
                started = time.perf_counter()
                for client in clients:
                    client.start()
                for page in pages:
                    page.goto(f"http://{LAN}:{port}/", wait_until='commit')
                for page in pages:
                    page.wait_for_selector('[data-testid=status][data-state=ready]', timeout=TIMEOUT)
                    ready.append(page.evaluate(f"{READY}.startTime"))
                for client in clients:
                    client.join()
                wall = time.perf_counter() - started
                browser.close()
            cpu = cpu_seconds(laptop.pid) - cpu_before
        finally:
            laptop.kill()
            laptop.wait()
    quantiles = statistics.quantiles(times, n=20)
    print(
        f"2. {learners} learners opening course.html at once on {LAN} ({len(paths)} files each, {sum(sent) / learners / 1e6:.2f} MB "
        f"each), with {browsers} browsers starting Python meanwhile:"
    )
    print(f"   responses: {dict(statuses)}; all served: {statuses.get(200, 0) == learners * len(paths)}")
    print(
        f"   a learner's whole visit: p50 {statistics.median(times):.2f} s, p95 {quantiles[18]:.2f} s; all done in {wall:.2f} s; "
        f"{sum(sent) / 1e6:.0f} MB sent"
    )
    print(f"   browsers' Python ready meanwhile: {', '.join(f'{r:.0f}' for r in sorted(ready))} ms")
    print(f"   the server's CPU: {cpu:.2f} s")


def main():
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument('--runs', type=int, default=5)
    parser.add_argument('--learners', type=int, default=30)
    parser.add_argument('--browsers', type=int, default=3)
    args = parser.parse_args()
    side_by_side(args.runs)
    room_at_once(args.learners, args.browsers)


if __name__ == '__main__':
    main()
