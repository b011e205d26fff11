"""Helpers for the pages in Playwright: the main page's cell, a cell or an exercise in its shadow root,
notebook.html, articles on another origin, and axe. Each waits for what the page's contract says
(docs/contract.md, "The page contract") rather than for a time."""

import base64
import contextlib
import html
import json
import math
import re
import subprocess
import sys
import textwrap
import zlib

from playwright.sync_api import expect

from . import ROOT, RUN_TIMEOUT_MS, STARTUP_TIMEOUT_MS
from .course import IDS


@contextlib.contextmanager
def seen_requests(target):
    """The URL of every request a page (or a context's pages) makes while the block runs, as it makes it; the
    listener is removed after, so a shared page is left as it was."""
    seen = []

    def saw(request):
        seen.append(request.url)

    target.on('request', saw)
    try:
        yield seen
    finally:
        target.remove_listener('request', saw)


def on_the_clock(page, step_ms, assertion, within_ms):
    """`assertion(timeout)` once the clock the test installed (`page.clock.install()`) has moved on by
    `step_ms`, which runs at once the page's timers that fell due (a poll, a heartbeat, a request's time running
    out), and again after each further step up to `within_ms` of the page's time; then once more for up to
    10 s of real time, in which the clock runs on as a clock does. A timer set while a step ran waits for the
    next step, as it would have waited for the time. The clock moves every page of the context, so a test moves it
    when no run is under way in any of them. The installed clock's `performance` keeps no marks: a test that
    reads the page's marks cannot use it."""
    for _ in range(math.ceil(within_ms / step_ms)):
        page.clock.fast_forward(step_ms)
        try:
            return assertion(500)
        except AssertionError:
            pass
    return assertion(10_000)


# The main page (index.html): one cell bound to the page's markup.


def open_playground(page, url):
    page.goto(url)
    expect(page.get_by_test_id('status')).to_have_attribute('data-state', 'ready', timeout=STARTUP_TIMEOUT_MS)
    return page


def type_program(page, code):
    """Replace the editor's text the way a paste does: in the plain text area that holds the code while Python loads,
    whose focus makes the editor at once, or in the editor."""
    page.get_by_test_id('editor').click()
    page.keyboard.press('ControlOrMeta+a')
    page.keyboard.insert_text(code)
    page.keyboard.press('Escape')  # close an autocompletion list: it would cover the editor for the next click
    expect(page.get_by_test_id('editor')).to_contain_text(code.strip().splitlines()[-1].strip())


def load_example(page, example):
    page.get_by_test_id('examples').select_option(example)
    first_line = (ROOT / 'web' / 'examples' / example).read_text().splitlines()[0]
    expect(page.get_by_test_id('editor').locator('.cm-line').first).to_have_text(first_line)


def run(page, expected_state='ready'):
    """Press Run; wait for its section of output, then for ready/error once everything is in.

    The run's own section shows that it started: 'running' may be over before a check sees it, and a run that
    ends with its worker (one that used `js`) goes on to 'loading' while a fresh Python starts, which takes
    over 5 s on a busy machine (seen in a full run of the suite)."""
    status = page.get_by_test_id('status')
    sections = page.get_by_test_id('output').locator('section.run')
    before = sections.count()
    page.get_by_test_id('run').click()
    expect(sections).to_have_count(before + 1)
    expect(status).not_to_have_attribute('data-state', 'running', timeout=RUN_TIMEOUT_MS)
    expect(status).to_have_attribute('data-state', expected_state, timeout=RUN_TIMEOUT_MS)
    return sections.last


def graphs(section):
    return section.locator('svg')


# Cells in their shadow roots (articles, the course, notebook.html) and exercises.


def cells(page):
    return page.get_by_test_id('cell')


def press_run(cell, expected_state='ready'):
    """Press a cell's Run; wait until its own run section is in and the run has ended."""
    output = cell.get_by_test_id('output')
    before = output.locator('section.run').count()
    cell.get_by_test_id('run').click()
    expect(output.locator('section.run')).to_have_count(before + 1, timeout=STARTUP_TIMEOUT_MS)
    expect(cell.get_by_test_id('status')).to_have_attribute(
        'data-state', re.compile('ready|error'), timeout=STARTUP_TIMEOUT_MS
    )
    expect(cell.get_by_test_id('status')).to_have_attribute('data-state', expected_state)
    return output.locator('section.run').last


def set_code(cell, code):
    """Replace the text of a cell's (or an exercise's) editor the way a paste does."""
    cell.locator('.cm-content').click()
    cell.page.keyboard.press('ControlOrMeta+a')
    cell.page.keyboard.insert_text(code)


def exercise(page, exercise_id):
    """One of course.html's exercises, by its id."""
    return page.get_by_test_id('exercise').nth(IDS.index(exercise_id))


def check(box, expected, status='ready'):
    """Press an exercise's Run and wait for the verdict."""
    result = box.get_by_test_id('result')
    box.get_by_test_id('run').click()
    expect(result).to_have_attribute('data-state', expected, timeout=STARTUP_TIMEOUT_MS)
    expect(box.get_by_test_id('status')).to_have_attribute('data-state', status)
    return result


# Articles on another origin (a blog's), and share links.


# A blog theme that would hide a cell's buttons and shrink its graphs if its CSS reached inside the cell.
HOSTILE_THEME = '''<style>
  button { display: none !important; }
  svg { max-width: 10px !important; display: none !important; }
  pre { white-space: pre-wrap !important; color: red !important; }
  div { font-size: 40px !important; }
</style>'''


def rouge(code):
    """A fenced Python block as Jekyll's Rouge writes it."""
    return (
        f'<div class="language-python highlighter-rouge"><div class="highlight"><pre class="highlight"><code>'
        f'{html.escape(code, quote=False)}\n</code></pre></div></div>\n'
    )


def article(other_origin, name, body, head=''):
    """Writes an article into the other origin's folder; returns its URL."""
    folder, url = other_origin
    (folder / name).write_text(
        f'<!doctype html><html><head><meta charset="utf-8">{head}</head><body>{body}</body></html>'
    )
    return url + name


def mkdocs_article(other_origin, name, markdown, site_url, project, strict=False):
    """Builds `markdown` with MkDocs (in `project`, a folder of its own) into the other origin's NAME/, with
    the playground's embed.js as MkDocs loads a script; returns the page's URL."""
    folder, url = other_origin
    (project / 'docs').mkdir()
    (project / 'docs' / 'index.md').write_text(markdown)
    (project / 'mkdocs.yml').write_text(
        textwrap.dedent(f'''\
        site_name: {name}
        site_dir: {folder / name}
        theme:
          name: mkdocs
          highlightjs: false
        extra_javascript:
          - path: {site_url}embed.js?lang=python
            type: module
        ''')
    )
    subprocess.run(
        [sys.executable, '-m', 'mkdocs', 'build', '--quiet', *(['--strict'] if strict else [])], cwd=project, check=True
    )
    return f'{url}{name}/index.html'


def share_fragment(code):
    """What share-link.js writes: deflate-raw, then base64url without padding."""
    compressor = zlib.compressobj(9, zlib.DEFLATED, -15)
    data = compressor.compress(code.encode()) + compressor.flush()
    return 'code=' + base64.urlsafe_b64encode(data).decode().rstrip('=')


# notebook.html.


def open_notebook(page, site_url, path, count):
    """Opens the file at `path` with Open notebook…, and waits for its `count` code cells."""
    page.goto(site_url + 'notebook.html')
    with page.expect_file_chooser() as chooser:
        page.get_by_test_id('open-notebook').click()
    chooser.value.set_files(str(path))
    # The page empties its file input once the file is open (or refused): until then, the cells may be those of
    # the notebook it brought back on its own as it loaded, which the file's replace.
    expect(page.get_by_test_id('notebook-file')).to_have_value('', timeout=STARTUP_TIMEOUT_MS)
    expect(cells(page)).to_have_count(count, timeout=STARTUP_TIMEOUT_MS)


def run_cell(cell):
    """press_run for a cell that may show saved outputs: its first run replaces them."""
    ran = cell.locator('section.run:not(.saved)')
    before = ran.count()
    cell.get_by_test_id('run').click()
    expect(ran).to_have_count(before + 1, timeout=STARTUP_TIMEOUT_MS)
    expect(cell.get_by_test_id('status')).to_have_attribute('data-state', 'ready', timeout=STARTUP_TIMEOUT_MS)
    return ran.last


def message(page):
    return page.get_by_test_id('notebook-message')


def run_all(page):
    page.get_by_test_id('run-all').click()
    expect(message(page)).to_contain_text('Ran all', timeout=STARTUP_TIMEOUT_MS)


def saved(page):
    """Waits until the last change is in the browser's storage (a save follows 0.4 s after the last one)."""
    status = page.get_by_test_id('storage-status')
    expect(status).to_have_attribute('data-kind', 'notice', timeout=10_000)
    expect(status).to_contain_text('kept in this browser (saved')


def download_notebook(page, path):
    """Download .ipynb, saved at `path`; returns the notebook."""
    with page.expect_download() as saving:
        page.get_by_test_id('download-notebook').click()
    path.parent.mkdir(parents=True, exist_ok=True)
    saving.value.save_as(path)
    return json.loads(path.read_text(encoding='utf-8'))


# axe-core, injected with page.evaluate (DevTools evaluation), which a page's Content-Security-Policy does not
# block, unlike a <script> tag. axe reads the open shadow roots of the cells. Its default rules, and WCAG 2.2
# AA's one rule, which axe leaves off by default: every control 24 by 24 CSS pixels, or spaced as if it were.

AXE = ROOT / 'node_modules' / 'axe-core' / 'axe.min.js'
BLOCKING = ('serious', 'critical')


def blocking_violations(page):
    if not page.evaluate('typeof axe === "object"'):
        page.evaluate(AXE.read_text(encoding='utf-8'))
    return page.evaluate(
        '''async (impacts) => {
        const rules = Object.fromEntries(axe.getRules(["wcag22aa"]).map(({ ruleId }) => [ruleId, { enabled: true }]));
        const { violations } = await axe.run(document, { resultTypes: ["violations"], rules });
        return violations.filter((v) => impacts.includes(v.impact)).map((v) => ({
            id: v.id, impact: v.impact, help: v.help,
            nodes: v.nodes.map((n) => ({ target: n.target, html: n.html, why: n.failureSummary })),
        }));
    }''',
        list(BLOCKING),
    )


def selector(target):
    """axe's target: one selector per frame, a list of them where it goes into shadow roots."""
    return ' | '.join(' >> '.join(part) if isinstance(part, list) else part for part in target)


def assert_accessible(page, where, shown=5):
    page.mouse.move(0, 0)  # what the pointer last pressed may have moved under it: no hover state by chance
    found = blocking_violations(page)
    lines = []
    for violation in found:
        nodes = violation['nodes']
        lines.append(f"{violation['id']} ({violation['impact']}, {len(nodes)} elements): {violation['help']}")
        for node in nodes[:shown]:
            lines += [
                f"  {selector(node['target'])}",
                f"    {node['html'][:160]}",
                f"    {' '.join(node['why'].split())[:300]}",
            ]
        if len(nodes) > shown:
            lines.append(f"  … and {len(nodes) - shown} more")
    assert not found, f"axe on {where}:\n" + '\n'.join(lines)


def assert_accessible_in_both_schemes(page, where):
    """The pages follow the reader's colour scheme as it changes (a cell's theme "auto"): checked in each, then
    the page is given back the context's own."""
    for scheme in ['light', 'dark']:
        page.emulate_media(color_scheme=scheme)
        assert_accessible(page, f'{where} ({scheme})')
    page.emulate_media(color_scheme='null')
