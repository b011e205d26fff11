"""Issue 18's first figure: the bytes of a first visit to the main page, service worker's precache included,
as `python build.py serve` sends them (brotli where the browser takes it), beside the same server without
brotli (gzip only, as GitHub Pages sends), in one run; then the bytes of a second visit.

    python build.py && python bench/first_visit.py [--runs 3]

No request route is set: Playwright turns the HTTP cache off while one is, and the precache would then
download everything a second time.
"""

import argparse
import statistics
from pathlib import Path

from playwright.sync_api import sync_playwright

from backprop_playground.paths import DIST
from backprop_playground.server.static import ENCODINGS
from harness import LAUNCH, TIMEOUT
from harness import serve as serve_site


def serve(encodings):
    """`build.py serve` sending `encodings`; server.sent counts the body bytes it sends per file."""
    return serve_site(DIST, encodings=encodings)


def visit(browser, server, url):
    """(first visit's bytes per file, the files it was sent more than once, second visit's bytes)."""
    context = browser.new_context()
    page = context.new_page()
    server.sent.clear()
    server.times.clear()
    page.goto(url)
    page.wait_for_selector('[data-testid=status][data-state=ready]', timeout=TIMEOUT)
    page.evaluate('navigator.serviceWorker.ready')
    page.wait_for_timeout(500)
    first = dict(server.sent)
    twice = sorted(path for path, times in server.times.items() if times > 1)
    server.sent.clear()
    page.goto(url)
    page.wait_for_selector('[data-testid=status][data-state=ready]', timeout=TIMEOUT)
    page.wait_for_timeout(500)
    second = sum(server.sent.values())
    context.close()
    return first, twice, second


def main():
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument('--runs', type=int, default=3)
    args = parser.parse_args()
    servers = {'brotli': serve(ENCODINGS), 'gzip only': serve([('gzip', '.gz')])}
    results = {name: [] for name in servers}
    with sync_playwright() as p:
        executable = '/usr/bin/chromium' if Path('/usr/bin/chromium').exists() else None
        browser = p.chromium.launch(executable_path=executable, args=LAUNCH)
        for _ in range(args.runs):
            for name, (server, url) in servers.items():
                results[name].append(visit(browser, server, url))
        browser.close()
    for name, runs in results.items():
        totals = [sum(first.values()) for first, _, _ in runs]
        first = runs[0][0]
        twice = sorted({path for _, paths, _ in runs for path in paths})
        largest = sorted(first.items(), key=lambda item: -item[1])[:4]
        print(
            f"first visit, {name}: median {statistics.median(totals) / 1e6:.2f} MB sent "
            f"(min {min(totals) / 1e6:.2f}, max {max(totals) / 1e6:.2f}) in {len(first)} files; largest: "
            + ", ".join(f"{path.lstrip('/')} {size / 1e6:.2f} MB" for path, size in largest)
            + f"; sent twice: {', '.join(twice) or 'none'}"
        )
        print(f"second visit, {name}: median {statistics.median(second for _, _, second in runs) / 1e3:.0f} KB sent")


if __name__ == '__main__':
    main()
