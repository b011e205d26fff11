"""The main page's modules come as one file (hosts/playground-page.bundle.js), whose session starts the Python
worker: one worker, started once that file has come, and a failure to load it is said as any other.
The worker's guards start just after it says "ready" (python-worker.js): a Run sent at once is still watched,
and goes before the worker's warm-up. The code editor is made once Python is ready, or when the learner reaches
for the code, which until then is a plain text area (hosts/main.js). In English, the page is first drawn with its
code: its bundle is render-blocking and carries the first example."""

import re
import time

import pytest
from playwright.sync_api import expect

from support import ROOT, STARTUP_TIMEOUT_MS, wait_until
from support.pages import open_playground, run, type_program

pytestmark = pytest.mark.usefixtures('site')

WORKER = 'session/python-worker.js'


# Before the page's scripts: each Python worker the page constructs.
RECORD_WORKERS = """window.pythonWorkers = 0;
window.Worker = class extends Worker {
  constructor(url, options) {
    super(url, options);
    if (String(url).endsWith('python-worker.js')) window.pythonWorkers += 1;
  }
};"""


def test_the_page_starts_one_python_worker_from_its_one_script(page, site_url):
    # The main page's modules come as one bundle, whose session starts the worker as it runs: no other module
    # of the page's is requested before the worker's script, and no second worker is started beside it.
    tab = page.context.new_page()  # the lent tab keeps no init script
    requests = []
    tab.on('request', lambda request: requests.append(request.url.removeprefix(site_url)))
    try:
        tab.add_init_script(RECORD_WORKERS)
        open_playground(tab, site_url)
        workers = tab.evaluate('window.pythonWorkers')
    finally:
        tab.close()
    assert requests.count(WORKER) == 1 and workers == 1, (requests, workers)
    scripts = [url for url in requests[: requests.index(WORKER)] if url.endswith('.js')]
    assert 'hosts/playground-page.bundle.js' in scripts, scripts
    assert set(scripts) <= {'offline/file-warning.js', 'hosts/playground-page.bundle.js'}, scripts


def first_held(page, routes, timeout_ms):
    """The first request that a route holding into `routes` has held, once the page has made it."""
    deadline = time.monotonic() + timeout_ms / 1000
    while not routes and time.monotonic() < deadline:
        page.wait_for_timeout(20)
    assert routes, f"the page made no request for its route to hold in {timeout_ms} ms"
    return routes[0]


# The page's first paint with content, and the mark set once its cell (the code's text area) is made.
FIRST_PAINT_AND_CODE = """[performance.getEntriesByName('first-contentful-paint')[0]?.startTime ?? null,
  performance.getEntriesByName('code-editable')[0]?.startTime ?? null]"""


def test_a_first_visit_is_drawn_first_with_its_code_which_needs_no_request(page, site_url):
    # The page's bundle is render-blocking and makes the cell before it awaits anything, with the first example's
    # text, which the bundle carries: the page is first drawn with the code, not empty and again once it came.
    # The bundle is held a moment, in which a page that did not wait for it would be drawn.
    requests, held = [], []
    page.on('request', lambda request: requests.append(request.url.removeprefix(site_url)))
    page.route('**/hosts/playground-page.bundle.js', lambda route: held.append(route))
    page.goto(site_url, wait_until='commit')
    bundle = first_held(page, held, STARTUP_TIMEOUT_MS)
    page.wait_for_timeout(300)
    bundle.continue_()
    wait_until(page, f"!{FIRST_PAINT_AND_CODE}.includes(null)")
    painted, editable = page.evaluate(FIRST_PAINT_AND_CODE)
    assert editable < painted, f"the code's text area was made at {editable} ms, after the first paint at {painted} ms"
    assert page.evaluate('window.playground.cell.code') == (ROOT / 'web' / 'examples' / 'neuron.py').read_text()
    assert 'examples/neuron.py' not in requests, requests


# Resource timing's entry for the editor's bundle and the python-ready mark, as startTimes.
EDITOR_AND_READY = """[performance.getEntriesByType('resource').find((e) => e.name.endsWith('/cell/editor.bundle.js'))?.startTime ?? null,
  performance.getEntriesByName('python-ready')[0]?.startTime ?? null]"""


def test_the_editor_is_made_once_python_is_ready(page, site_url):
    # CodeMirror costs the page's thread about 150 ms, which slowed Python's start: until Python is ready the code is
    # a plain text area, and the editor's bundle is not even requested.
    page.goto(site_url)
    expect(page.locator('textarea[data-testid=editor]')).to_have_value(re.compile(r'x1 = Value\(2\.0'))
    expect(page.get_by_test_id('status')).to_have_attribute('data-state', 'ready', timeout=STARTUP_TIMEOUT_MS)
    expect(page.get_by_test_id('editor').locator('.cm-content')).to_contain_text('x1 = Value(2.0')
    expect(page.locator('textarea[data-testid=editor]')).to_have_count(0)
    requested, ready = page.evaluate(EDITOR_AND_READY)
    assert requested is not None and ready is not None and requested >= ready, (requested, ready)


def test_code_typed_before_the_editor_is_made_is_kept_and_runs(page, site_url):
    # A learner who reaches for the code while Python loads types into the text area: the editor, made at once
    # (held back here until the typing is done, as build.json is, so that Python is loading), takes the text with
    # the cursor where it was; Ctrl+Enter there runs it once Python is ready, and the text is kept as typed.
    build, bundle = [], []
    page.route('**/build.json', lambda route: build.append(route))
    page.route('**/cell/editor.bundle.js', lambda route: bundle.append(route))
    try:
        page.goto(site_url)
        page.locator('textarea[data-testid=editor]').click()
        page.keyboard.press('ControlOrMeta+a')
        page.keyboard.insert_text("print('typed early')\n# the end")
        page.keyboard.press('ArrowLeft')
        page.keyboard.press('ControlOrMeta+Enter')
        expect(page.get_by_test_id('status')).to_contain_text('runs once')
        for held in (build, bundle):  # the page asked for build.json, and the learner's click for the editor
            for _ in range(100):
                if held:
                    break
                page.wait_for_timeout(50)
        build[0].continue_()
        expect(page.get_by_test_id('output').locator('pre.stdout')).to_have_text(
            'typed early\n', timeout=STARTUP_TIMEOUT_MS
        )
        expect(page.locator('textarea[data-testid=editor]')).to_have_value("print('typed early')\n# the end")
        bundle[0].continue_()
        editor = page.get_by_test_id('editor')
        expect(editor.locator('.cm-line').last).to_have_text('# the end')
        page.keyboard.type('X')  # the editor has the focus, and the cursor where it was: before the last letter
        expect(editor.locator('.cm-line').last).to_have_text('# the enXd')
    finally:
        page.unroute('**/build.json')
        page.unroute('**/cell/editor.bundle.js')
    page.reload()
    expect(page.get_by_test_id('editor')).to_contain_text('# the enXd')


def test_a_worker_that_could_not_load_is_said_and_retried(page, site_url):
    page.route(f"**/{WORKER}", lambda route: route.abort())
    try:
        with page.expect_event('requestfailed', lambda request: request.url.endswith(WORKER)):
            page.goto(site_url, wait_until='commit')
        status = page.get_by_test_id('status')
        expect(status).to_have_attribute('data-state', 'error', timeout=STARTUP_TIMEOUT_MS)
        expect(status).to_contain_text('Python could not start')
    finally:
        page.unroute(f"**/{WORKER}")
    page.get_by_test_id('retry').click()
    expect(status).to_have_attribute('data-state', 'ready', timeout=STARTUP_TIMEOUT_MS)


def press_run_while_python_loads(page, site_url, code, before=lambda page: None):
    """Opens the page with build.json held, so that Python is surely still loading when Run is pressed: the page
    sends the run with "ready", while the worker starts its guards. `before(page)` runs once the page's session
    is up, before Python loads. Returns once the run has ended and Python is ready."""
    held = []
    page.route('**/build.json', lambda route: held.append(route))
    try:
        page.goto(site_url)
        wait_until(page, 'Boolean(window.playground?.session)')
        before(page)
        type_program(page, code)
        status = page.get_by_test_id('status')
        expect(status).to_have_attribute('data-state', 'loading')
        page.get_by_test_id('run').click()
        expect(status).to_contain_text('runs once')
        assert held, 'Python started without build.json'
        for route in held:
            route.continue_()
    finally:
        page.unroute('**/build.json')
    expect(page.get_by_test_id('output').locator('section.run')).to_have_count(1, timeout=STARTUP_TIMEOUT_MS)
    expect(status).to_have_attribute('data-state', 'ready', timeout=STARTUP_TIMEOUT_MS)


def test_a_run_sent_the_moment_python_is_ready_is_watched_like_any_other(page, site_url):
    # The run replaces print: the next needs a fresh Python, for that reason. Had the run come before the
    # guards, it would have been refused (the worker is still "starting") or its change been what they start
    # from: either way, not this reason.
    press_run_while_python_loads(page, site_url, 'import builtins\nbuiltins.print = lambda *args, **kwargs: None\n')
    type_program(page, 'print("printed")\n')
    section = run(page)
    expect(section.locator('.notice')).to_contain_text('A fresh Python runs this program')
    expect(section.locator('.notice')).to_contain_text('changed the module builtins')
    expect(section.locator('pre.stdout')).to_have_text('printed\n')


WATCH_WARM_UP = """() => { window.warmedUpAt = null;
  window.playground.session.warmUp.events.then(() => (window.warmedUpAt = performance.now())); }"""


def test_a_run_sent_the_moment_python_is_ready_goes_before_the_warm_up(page, site_url):
    # The worker's warm-up program (and its check) would make a Run pressed while Python loaded wait: the run
    # goes first, and no warm-up follows it (the run warmed Python itself). Had the warm-up run first, its
    # events would have reached the page before the run's done.
    press_run_while_python_loads(page, site_url, 'print("first")\n', before=lambda page: page.evaluate(WATCH_WARM_UP))
    section = page.get_by_test_id('output').locator('section.run')
    expect(section.locator('pre.stdout')).to_have_text('first\n')
    found = page.evaluate("""() => ({ warmedUpAt: window.warmedUpAt,
      done: performance.getEntriesByName('run-python-done')[0]?.startTime ?? null })""")
    assert found['done'] is not None
    assert found['warmedUpAt'] is None, found


def without_guards(route):
    """The worker's script with guard() failing, headers as served (its isolation headers included)."""
    response = route.fetch()
    body = response.text().replace('function guard() {', 'function guard() {\n  throw new Error("no guards here");', 1)
    assert 'no guards here' in body
    headers = {k: v for k, v in response.headers.items() if k.lower() not in ('content-encoding', 'content-length')}
    route.fulfill(status=200, headers=headers, body=body)


def test_guards_that_cannot_start_are_a_failed_start_with_retry(page, site_url):
    # They start just after the worker says ready: their failure must still end in Retry, as a failure before
    # ready does, not in a new Python started after it (which would fail the same way, again and again).
    requests = []
    listen = lambda request: requests.append(request.url) if request.url.endswith(WORKER) else None  # noqa: E731
    page.on('request', listen)
    page.route(f"**/{WORKER}", lambda route: without_guards(route))
    try:
        page.goto(site_url)
        status = page.get_by_test_id('status')
        expect(status).to_have_attribute('data-state', 'error', timeout=STARTUP_TIMEOUT_MS)
        expect(status).to_contain_text('Python could not start')
        expect(status).to_contain_text('no guards here')
        page.wait_for_timeout(1000)
        assert len(requests) == 1, 'Python was started again after its guards failed'
        expect(status).to_have_attribute('data-state', 'error')
    finally:
        page.unroute(f"**/{WORKER}")
        page.remove_listener('request', listen)
    page.get_by_test_id('retry').click()
    expect(status).to_have_attribute('data-state', 'ready', timeout=STARTUP_TIMEOUT_MS)


def test_code_typed_before_the_editor_is_made_survives_a_reload(page, site_url):
    # The text area saves what is typed as the editor does: the editor's bundle never comes here.
    page.route('**/cell/editor.bundle.js', lambda route: route.abort())
    try:
        page.goto(site_url)
        page.locator('textarea[data-testid=editor]').fill("print('kept before the editor')\n")
        page.reload()
        expect(page.locator('textarea[data-testid=editor]')).to_have_value("print('kept before the editor')\n")
    finally:
        page.unroute('**/cell/editor.bundle.js')


def test_the_editor_waits_for_an_input_methods_composition_to_end(page, site_url):
    # Taking the text area from under a composition (Chinese, Japanese, accents on some keyboards) would end it
    # and leave its text twice or not at all: the editor is made once the composition is committed.
    bundle = []
    page.route('**/cell/editor.bundle.js', lambda route: bundle.append(route))
    try:
        page.goto(site_url)
        area = page.locator('textarea[data-testid=editor]')
        area.click()
        page.keyboard.press('ControlOrMeta+End')
        cdp = page.context.new_cdp_session(page)
        cdp.send('Input.imeSetComposition', {'text': 'にほ', 'selectionStart': 2, 'selectionEnd': 2})
        first_held(page, bundle, 5000).continue_()  # the learner's click asked for the editor
        page.wait_for_timeout(500)
        expect(area).to_have_count(1)  # still composing: no editor yet
        cdp.send('Input.insertText', {'text': '日本'})
        cdp.detach()
        editor = page.get_by_test_id('editor')
        expect(editor.locator('.cm-content')).to_contain_text('draw_dot(o)日本')
        assert page.evaluate('window.playground.cell.getText()').count('日本') == 1
        assert 'にほ' not in page.evaluate('window.playground.cell.getText()')
    finally:
        page.unroute('**/cell/editor.bundle.js')
