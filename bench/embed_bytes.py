"""Issue 42's figures: what a reader downloads, counted until the page is quiet, in both kinds of profile.

    python build.py && python bench/embed_bytes.py [--vs DIST] [--runs 2]

For this checkout's dist/, and side by side for another build's (`--vs`, a built dist/ folder, e.g. main's
built in a worktree), each in a fresh profile whose HTTP cache lives in memory (an incognito window, a guest
session: Playwright's new_context) and in a fresh profile with a disk cache (launch_persistent_context):
1. a first visit to index.html on the room's LAN name (plain HTTP: no brotli, no service worker), until quiet
   after one Run of the neuron;
2. then a Stop that restarts Python (the LAN name is not isolated) and one more Run, until quiet: the bytes
   added;
3. an article on another origin whose cells come from a stand-in for jsDelivr (tests/support/cdn.py), until
   quiet after its first Run: the package's files for this checkout (build step package.py), dist/ as it is
   for --vs (what an author would have put on a CDN before there was a package).
4. Python's ready time on the self-hosted brotli path: index.html at 127.0.0.1 (a secure origin, sent brotli),
   navigation to python-ready, in the memory-cache profile; and the bytes of that visit until quiet after one
   Run, with the service worker allowed (it registers once Python is ready and idle, and precaches the site).
Bytes are the bodies the servers sent. "Quiet": nothing sent for QUIET_S, which is longer than the 2 s after
which a page starts its standby Python. No route is set: Playwright turns the HTTP cache off while one is.
Medians of --runs; targets (issue 42): 1 at most 10 MB, 2 at most 0.5 MB, 3 at most 10 MB.
"""

import argparse
import shutil
import statistics
import sys
import tempfile
import time
from pathlib import Path

from playwright.sync_api import sync_playwright

from backprop_playground.paths import DIST, ROOT
from backprop_playground.steps.package import lay_out
from harness import LAUNCH, TIMEOUT, serve, set_code

sys.path.insert(0, str(ROOT / 'tests'))
from support.cdn import CDN  # noqa: E402  (the stand-in the tests use)
from support.servers import static_origin  # noqa: E402

LAN = 'classroom.lan'
ARGS = [*LAUNCH, f'--host-resolver-rules=MAP {LAN} 127.0.0.1']
QUIET_S = 4
NEURON = (ROOT / 'web' / 'examples' / 'neuron.py').read_text()
LOOP = "while True:\n    pass\n"
ARTICLE = """<!doctype html><meta charset="utf-8"><title>from a CDN</title><h1>A post</h1>
<pre data-playground>x = Value(2.0, label='x')
y = x * x + x; y.label = 'y'
y.backward()
draw_dot(y)</pre>
<pre data-playground>print(x.grad)</pre>
<script type="module" src="{embed}"></script>"""


def quiet(counters):
    """Waits until the counters' total has not moved for QUIET_S; returns it."""
    total, since = sum(sum(c.values()) for c in counters), time.monotonic()
    while time.monotonic() - since < QUIET_S:
        time.sleep(0.25)
        now = sum(sum(c.values()) for c in counters)
        if now != total:
            total, since = now, time.monotonic()
    return total


def run_and_wait(page, code):
    set_code(page, code)
    before = page.locator('[data-testid=output] section.run').count()
    page.click('[data-testid=run]')
    page.locator('[data-testid=output] section.run').nth(before).locator('svg').first.wait_for(timeout=TIMEOUT)


def first_visit(page, server, url, code=NEURON):
    """Bytes the server sent to a first visit until quiet after one Run of code."""
    server.sent.clear()
    page.goto(url)
    page.wait_for_selector('[data-testid=status][data-state=ready]', timeout=TIMEOUT)
    run_and_wait(page, code)
    return quiet([server.sent])


def lan_visit(page, server, url):
    """(bytes until quiet after one Run, bytes added by a Stop that restarts and one more Run)."""
    first = first_visit(page, server, url)
    set_code(page, LOOP)
    page.click('[data-testid=run]')
    page.wait_for_selector('[data-testid=status][data-state=running]', timeout=TIMEOUT)
    page.wait_for_timeout(300)
    page.click('[data-testid=stop]')
    page.get_by_text('Python was restarted').first.wait_for(timeout=TIMEOUT)
    page.wait_for_selector('[data-testid=status][data-state=ready]', timeout=TIMEOUT)
    run_and_wait(page, NEURON)
    return first, quiet([server.sent]) - first


def brotli_visit(page, server, url):
    """(ms from navigation to Python ready at 127.0.0.1, bytes until quiet after one Run)."""
    server.sent.clear()
    page.goto(url)
    page.wait_for_selector('[data-testid=status][data-state=ready]', timeout=TIMEOUT)
    ready = page.evaluate("performance.getEntriesByName('python-ready')[0].startTime")
    run_and_wait(page, NEURON)
    return ready, quiet([server.sent])


def cdn_article(page, cdn, article_url):
    cdn.sent.clear()
    page.goto(article_url)
    cell = page.get_by_test_id('cell').first
    cell.get_by_test_id('run').click()
    cell.locator('[data-testid=output] svg').first.wait_for(timeout=TIMEOUT)
    return quiet([cdn.sent])


def in_profile(p, kind, visit, service_workers='block'):
    """Runs visit(page) in a fresh profile of `kind`: memory (a new context) or disk (a new user-data-dir)."""
    if kind == 'memory':
        browser = p.chromium.launch(executable_path=executable(), args=ARGS)
        context = browser.new_context(service_workers=service_workers)
    else:
        folder = tempfile.mkdtemp(prefix='profile-')
        browser = None
        context = p.chromium.launch_persistent_context(
            folder, executable_path=executable(), args=ARGS, service_workers=service_workers
        )
    try:
        return visit(context.new_page())
    finally:
        context.close()
        if browser:
            browser.close()
        else:
            shutil.rmtree(folder, ignore_errors=True)


def executable():
    return '/usr/bin/chromium' if Path('/usr/bin/chromium').exists() else None


def measure(builds, runs):
    blog = Path(tempfile.mkdtemp(prefix='blog-'))
    blog_server, blog_url = static_origin(blog)
    servers = {}
    for name, (dist, cdn_folder) in builds.items():
        server, url = serve(dist)
        cdn = CDN({'backprop-playground@0.0.0': cdn_folder})
        (blog / f"{name}.html").write_text(
            ARTICLE.format(embed=cdn.package_url('backprop-playground@0.0.0') + 'embed.js')
        )
        servers[name] = (server, url, cdn, f"{blog_url}{name}.html")
    rows = {(name, kind): [] for name in builds for kind in ('memory', 'disk')}
    ready = {name: [] for name in builds}
    with sync_playwright() as p:
        for _ in range(runs):
            for name, (server, url, cdn, article) in servers.items():  # taking turns
                for kind in ('memory', 'disk'):
                    first, restart = in_profile(
                        p, kind, lambda page: lan_visit(page, server, url.replace('127.0.0.1', LAN))
                    )
                    article_bytes = in_profile(p, kind, lambda page: cdn_article(page, cdn, article))
                    rows[name, kind].append((first, restart, article_bytes))
                    print(
                        f"   {name}, {kind} cache: {first / 1e6:.2f} MB, +{restart / 1e6:.2f} MB, article {article_bytes / 1e6:.2f} MB",
                        file=sys.stderr,
                    )
                ready[name].append(
                    in_profile(p, 'memory', lambda page: brotli_visit(page, server, url), service_workers='allow')
                )
                print(
                    f"   {name}, 127.0.0.1: ready {ready[name][-1][0]:.0f} ms, {ready[name][-1][1] / 1e6:.2f} MB",
                    file=sys.stderr,
                )
    for server, _, cdn, _ in servers.values():
        server.shutdown()
        cdn.stop()
    blog_server.shutdown()
    return rows, ready


def main():
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument('--vs', type=Path, help="another build's dist/ folder, measured side by side")
    parser.add_argument('--runs', type=int, default=2)
    args = parser.parse_args()
    package = Path(tempfile.mkdtemp(prefix='package-'))
    lay_out(package)
    builds = {'this build': (DIST, package)}
    if args.vs:
        builds['--vs'] = (args.vs, args.vs)
    rows, ready = measure(builds, args.runs)
    print(f"Bytes sent until quiet ({QUIET_S} s), medians of {args.runs}; MB:")
    print(f"   {'':<12} {'profile':<8} {'1. LAN first visit':>19} {'2. Stop + Run':>14} {'3. CDN article':>15}")
    for (name, kind), values in rows.items():
        figures = [statistics.median(v[i] for v in values) / 1e6 for i in range(3)]
        print(f"   {name:<12} {kind:<8} {figures[0]:>19.2f} {figures[1]:>14.2f} {figures[2]:>15.2f}")
    print("   targets                ≤ 10.00             ≤ 0.50          ≤ 10.00")
    print(
        "4. 127.0.0.1 with brotli, memory-cache profile, service worker allowed: Python ready (ms), bytes until quiet (MB)"
    )
    for name, values in ready.items():
        ms = statistics.median(v[0] for v in values)
        ratio = (
            f", {ms / statistics.median(v[0] for v in ready['--vs']):.2f}x --vs"
            if '--vs' in ready and name != '--vs'
            else ''
        )
        print(
            f"   {name:<12} ready {ms:6.0f} ms (min {min(v[0] for v in values):.0f}, max {max(v[0] for v in values):.0f}{ratio}), "
            f"{statistics.median(v[1] for v in values) / 1e6:.2f} MB"
        )


if __name__ == '__main__':
    main()
