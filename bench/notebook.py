"""Issue 17's figures in headless Chromium: how soon a 100-cell notebook shows all its cells, what Run all
adds per cell over the cells' own run time, and the article's compressed bytes before any interaction.

    python build.py && python bench/notebook.py [--runs 3]

Figures only, no assertions (tests/test_notebook_page.py asserts the behaviour). The notebooks are
written into dist/ for the run and removed after it.
"""

import argparse
import gzip
import json
import posixpath
import re
import statistics
import threading
from pathlib import Path

from playwright.sync_api import expect, sync_playwright

from backprop_playground.paths import DIST
from backprop_playground.server import make_server
from harness import LAUNCH, TIMEOUT, wait_for  # noqa: E402

# Each code cell reports its own Python time, so that Run all's overhead is what is left.
TIMED_CELL = (
    'import time as _t\n_start = _t.perf_counter()\nx{i} = sum(range(1000))\n_own.append(_t.perf_counter() - _start)'
)

NOTE_WHEN_RAN_ALL = """() => {
  const message = document.querySelector('[data-testid=notebook-message]');
  new MutationObserver((_, observer) => {
    if (!message.textContent.includes('Ran all')) return;
    window.ranAllAt = performance.now();
    observer.disconnect();
  }).observe(message, { childList: true, characterData: true, subtree: true });
}"""


def notebook(cells):
    return json.dumps(
        {
            'nbformat': 4,
            'nbformat_minor': 5,
            'metadata': {},
            'cells': [
                {
                    'cell_type': kind,
                    'id': f'c{i}',
                    'metadata': {},
                    'source': source,
                    **({'outputs': [], 'execution_count': None} if kind == 'code' else {}),
                }
                for i, (kind, source) in enumerate(cells)
            ],
        }
    )


def hundred_cells():
    cells = []
    for i in range(50):
        cells.append(('markdown', f'## Step {i}\n\nWe multiply *a* by **{i}** and look at `grad`.'))
        cells.append(
            ('code', f'a{i} = Value({i}.0, label="a{i}")\nb{i} = a{i} * a{i}\nb{i}.backward()\nprint(a{i}.grad)')
        )
    return notebook(cells)


def thirty_cells():
    return notebook([('code', '_own = []')] + [('code', TIMED_CELL.format(i=i)) for i in range(29)])


def article_bytes():
    """The article's files before any interaction, compressed: the page, its CSS, embed.js and every module
    it imports statically, the cells' stylesheet and the editor bundle (Python loads on first use)."""
    dist = DIST
    seen, queue = set(), ['embed.js']
    while queue:
        name = queue.pop()
        if name in seen:
            continue
        seen.add(name)
        source = (dist / name).read_text(encoding='utf-8')
        folder = posixpath.dirname(name)
        queue += [
            posixpath.normpath(posixpath.join(folder, m))
            for m in re.findall(r'^import [^;]*? from "(\.{1,2}/[^"]+)";', source, re.M)
        ]
    files = [
        'article.html',
        'article.css',
        'offline/file-warning.js',
        'cell/cell.css',
        'cell/editor.bundle.js',
        *sorted(seen),
    ]
    return sum(len(gzip.compress((dist / f).read_bytes(), 9)) for f in files), len(files)


def main():
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument('--runs', type=int, default=3)
    args = parser.parse_args()
    written = {'bench-100.ipynb': hundred_cells(), 'bench-30.ipynb': thirty_cells()}
    for name, text in written.items():
        (DIST / name).write_text(text)
    server = make_server(port=0)
    threading.Thread(target=server.serve_forever, daemon=True).start()
    url = f"http://127.0.0.1:{server.server_address[1]}/"
    shown, per_cell = [], []
    try:
        with sync_playwright() as p:
            browser = p.chromium.launch(
                executable_path='/usr/bin/chromium' if Path('/usr/bin/chromium').exists() else None, args=LAUNCH
            )
            for _ in range(args.runs):
                page = browser.new_page()
                page.goto(url + 'notebook.html#url=bench-100.ipynb')
                wait_for(page, 'performance.getEntriesByName("notebook-shown").length > 0')
                shown.append(
                    page.evaluate('''() => {
                    const fetched = performance.getEntriesByType("resource").find((e) => e.name.endsWith("bench-100.ipynb"));
                    return performance.getEntriesByName("notebook-shown")[0].startTime - fetched.startTime;
                }''')
                )
                assert page.get_by_test_id('cell').count() == 50
                page.close()
            for _ in range(args.runs):
                page = browser.new_page()
                page.goto(url + 'notebook.html#url=bench-30.ipynb')
                expect(page.get_by_test_id('cell')).to_have_count(30, timeout=TIMEOUT)
                expect(page.get_by_test_id('cell').first.get_by_test_id('status')).to_have_attribute(
                    'data-state', 'ready', timeout=TIMEOUT
                )
                # Timed in the page: expect() polls at growing intervals, up to a second late.
                page.evaluate(NOTE_WHEN_RAN_ALL)
                start = page.evaluate('performance.now()')
                page.get_by_test_id('run-all').click()
                wait_for(page, 'window.ranAllAt !== undefined')
                wall = page.evaluate('window.ranAllAt') - start
                page.get_by_test_id('cell').last.locator('.cm-content').click()
                page.keyboard.press('ControlOrMeta+a')
                page.keyboard.insert_text('print(sum(_own) * 1000)')
                page.keyboard.press('Escape')
                page.get_by_test_id('cell').last.get_by_test_id('run').click()
                own = page.get_by_test_id('cell').last.locator('pre.stdout')
                expect(own).to_be_visible(timeout=TIMEOUT)
                per_cell.append((wall - float(own.inner_text())) / 30)
                page.close()
            browser.close()
    finally:
        for name in written:
            (DIST / name).unlink(missing_ok=True)
    size, count = article_bytes()
    print(
        f"100-cell notebook (50 Markdown, 50 code) from #url= to every cell shown: median {statistics.median(shown):.0f} ms "
        f"(min {min(shown):.0f}, max {max(shown):.0f}), {args.runs} opens"
    )
    print(
        f"Run all on 30 cells: {statistics.median(per_cell):.1f} ms per cell over the cells' own Python time "
        f"(median of {args.runs}; includes each run's message round trip, output and the check after it)"
    )
    print(f"article before interaction: {size / 1024:.0f} KB compressed in {count} files (gzip -9)")


if __name__ == '__main__':
    main()
