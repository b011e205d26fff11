"""Trust end to end: one run cannot change the next, Python cannot forge the worker's messages, and every
failure says what to do. Every non-local request is blocked (conftest.py)."""

import re

import pytest
from playwright.sync_api import expect

from support import STARTUP_TIMEOUT_MS, wait_until
from support.course import IDS
from support.pages import (
    cells,
    check,
    exercise,
    open_playground,
    press_run,
    run,
    seen_requests,
    set_code,
    type_program,
)

pytestmark = pytest.mark.usefixtures('site')

FRESH = 'A fresh Python runs this program'


def run_program(page, code, expected_state='ready'):
    # After a run that reached out, the next Python may still be restoring (a busy machine): wait for the
    # last run's verdict, then for that Python.
    page.evaluate('async () => { await window.playground.session.python.settled; }')
    expect(page.get_by_test_id('status')).to_have_attribute(
        'data-state', re.compile('ready|error'), timeout=STARTUP_TIMEOUT_MS
    )
    type_program(page, code)
    # A run that reached out ends with its Python: the status may show the next one loading at once.
    return run(page, re.compile(f'{expected_state}|loading'))


TIMER = '''import js
from pyodide.ffi import create_proxy
def tick():
    js.ticks = js.ticks + 1
js.ticks = 0
js.setInterval(create_proxy(tick), 20)
'''

# (what a run does, what the next run prints when it was not changed by it)
LATER_RUNS = {
    'a timer set through js': (
        TIMER,
        'import js, time\ntime.sleep(0.2)\nprint(getattr(js, "ticks", "no ticks"))',
        'no ticks',
    ),
    'builtins.print replaced': (
        'import builtins\nbuiltins.print = lambda *args, **kwargs: None',
        'print("printed")',
        'printed',
    ),
    'Value.__add__ replaced': (
        'import scalargrad.engine as e\ne.Value.__add__ = lambda a, b: "hacked"',
        'print((Value(1.0) + Value(2.0)).data)',
        '3.0',
    ),
    "the playground's own functions replaced": (
        'import playground_runtime.runner as p, playground_runtime.isolation as i\n'
        'p.run = p.watch = p.Runner = None\ni.install = i.note = lambda *a: []',
        'print(2 + 2)',
        '4',
    ),
    "a callback scheduled with pyodide.webloop's own function": (
        'import builtins, pyodide.webloop as loop\nfrom pyodide.ffi import create_once_callable\n'
        'def later():\n    builtins.print = lambda *args, **kwargs: None\n'
        'loop.scheduleCallback(create_once_callable(later), 50)',
        'import time\ntime.sleep(0.2)\nprint("still printing")',
        'still printing',
    ),
    "Pyodide's internals reached through sys.modules": (
        'import sys\napi = sys.modules["pyodide_js._api"]\napi.version = "hacked"',
        'print("ran")',
        'ran',
    ),
    "JavaScript run through a function's constructor": (
        'import sys\npackages = sys.modules["pyodide._package_loader"].loadedPackages\n'
        'try:\n    packages.constructor.constructor("return 1")()\nexcept Exception as e:\n    print(type(e).__name__)',
        'print("ran")',
        'ran',
    ),
    "the worker's postMessage replaced through js": (
        'import js\nfrom pyodide.ffi import create_proxy\n'
        'js.MessagePort.prototype.postMessage = create_proxy(lambda *args: None)',
        'print("still printing")',
        'still printing',
    ),
    "a timer through js found in sys.meta_path, by a property's descriptor": (
        'import sys, builtins\nfrom pyodide.ffi import create_proxy, to_js\n'
        'finder = [f for f in sys.meta_path if hasattr(f, "jsproxies")][0]\nscope = finder.jsproxies["js"]\n'
        'Object = getattr(getattr(getattr(to_js([]).constructor, "__proto__"), "__proto__"), "constructor")\n'
        'def later():\n    builtins.print = lambda *args, **kwargs: None\n'
        'holder = scope\nwhile not Object.hasOwn(holder, "setTimeout"):  # on WorkerGlobalScope.prototype in Chromium\n'
        '    holder = Object.getPrototypeOf(holder)\n'
        'Object.getOwnPropertyDescriptor(holder, "setTimeout").value.call(None, create_proxy(later), 50)',
        'import time\ntime.sleep(0.2)\nprint("still printing")',
        'still printing',
    ),
    "JavaScript's Array.prototype changed from Python": (
        'from pyodide.ffi import create_proxy, to_js\nto_js([]).constructor.prototype.includes = create_proxy(lambda *args: True)',
        'from pyodide.ffi import to_js\nprint(to_js([1]).includes(2))',
        'False',
    ),
    'a finalizer that waits for a later run': (
        'class Ghost:\n    def __del__(self):\n        import sys\n        f = sys._getframe()\n'
        '        while f is not None and f.f_code.co_filename != "<editor>":\n            f = f.f_back\n'
        '        if f is not None:\n            f.f_globals["Value"] = lambda x: "forged"\n'
        '        again = Ghost()\n        again.me = again\nghost = Ghost()\nghost.me = ghost',
        'for i in range(20000):\n    x = [[] for _ in range(3)]\n    x[0].append(x)\nprint(Value(2.0).data)',
        '2.0',
    ),
    'a task left on the event loop': (
        'import asyncio\nasync def later():\n    await asyncio.sleep(0.05)\n'
        '    import builtins\n    builtins.print = None\nasyncio.ensure_future(later())',
        'import time\ntime.sleep(0.2)\nprint("still printing")',
        'still printing',
    ),
}


@pytest.mark.parametrize('first, second, expected', LATER_RUNS.values(), ids=LATER_RUNS.keys())
def test_a_run_cannot_change_a_later_run(playground, first, second, expected):
    page = playground
    done = run_program(page, first)
    expect(done.locator('.message.error')).to_have_count(0)  # it did what it set out to do
    section = run_program(page, second)
    expect(section.locator('pre.stdout')).to_have_text(expected + '\n')
    expect(section.locator('.notice')).to_contain_text(FRESH)


LATE_FETCH = '''import js
from pyodide.ffi import create_proxy
def later():
    js.fetch("late-callback-ran")
js.fetch("index.html")
js.setTimeout(create_proxy(later), 0)
print("asked")
'''


def test_a_timer_of_a_run_never_fires_after_it(playground):
    with seen_requests(playground) as requests:
        run_program(playground, LATE_FETCH)
        run_program(playground, 'print("next")')
        playground.wait_for_timeout(500)
    assert any(url.endswith('/index.html') for url in requests), 'the run did not fetch at all'
    assert not any('late-callback-ran' in url for url in requests), 'the callback ran after its run ended'


# Each list of the page's output that a script adds with aria-hidden (output-list.js's rehearsal of the
# warm-up's output), in the document or a cell's shadow root: how it was hidden, and what it held when it went.
WATCH_REHEARSALS = """
window.rehearsals = [];
const watcher = new MutationObserver((records) => {
  for (const record of records) {
    for (const node of record.addedNodes) {
      if (node.nodeType === 1 && node.matches('div.output[aria-hidden=true]')) {
        window.rehearsals.push({ node, inert: node.inert, visibility: getComputedStyle(node).visibility,
          position: getComputedStyle(node).position, testid: node.dataset.testid ?? null,
          inShadowRoot: node.getRootNode() instanceof ShadowRoot });
        if (window.runWhenRehearsing) document.querySelector('[data-testid=run]').click();
      }
    }
    for (const node of record.removedNodes) {
      const seen = window.rehearsals.find((r) => r.node === node);
      if (seen) Object.assign(seen, { removed: true, runs: node.querySelectorAll('section.run').length,
        printed: node.querySelector('pre.stdout')?.textContent ?? '', values: node.querySelectorAll('svg g.node').length,
        tools: node.querySelectorAll('.graph-card button').length });
    }
  }
});
watcher.observe(document, { childList: true, subtree: true });
const attachShadow = Element.prototype.attachShadow; // a cell's output in its shadow root too
Element.prototype.attachShadow = function (options) {
  const root = attachShadow.call(this, options);
  watcher.observe(root, { childList: true, subtree: true });
  return root;
};
"""
REHEARSED = """window.rehearsals.map(({ node, ...seen }) => ({ ...seen,
  marks: performance.getEntriesByType('mark').map((m) => m.name).filter((name) => name.startsWith('graph-')) }))"""


WARM_UP_ROUNDS = "performance.getEntriesByName('python-warm-up-round').length"


def test_the_unseen_warm_up_leaves_nothing_for_the_first_run(page, site_url):
    # python-worker.js runs a small program of its own when the page asks, 100 ms after ready, and output-list.js
    # shows its output unseen (a rehearsal of the first Run's output); then, while no run comes, the worker runs
    # another program of playground_runtime.warm_up three times: none may show, leave a name behind, mark a
    # run's stages, or cost the page its Python.
    page.add_init_script(WATCH_REHEARSALS)
    open_playground(page, site_url)
    wait_until(page, 'window.rehearsals.length > 0 && window.rehearsals.every((r) => r.removed)')
    wait_until(page, f'{WARM_UP_ROUNDS} === 3')
    [rehearsal] = page.evaluate(REHEARSED)
    assert rehearsal['inert'] and rehearsal['visibility'] == 'hidden' and rehearsal['testid'] is None
    assert rehearsal['position'] == 'fixed'  # off screen, it adds nothing to the page's scrolling
    assert rehearsal['runs'] > 0 and rehearsal['printed'].strip() and rehearsal['values'] > 0 and rehearsal['tools'] > 0
    assert rehearsal['marks'] == []  # no graph-… stage of bench/compare.py: the rehearsal is not a run
    assert page.locator('div.output').count() == 1
    section = run_program(
        page, "print([n for n in ('a', 'b', 'c', 'V', 'own', 'xs', 'grads') if n in globals()])\nprint(Value(1.5).grad)"
    )
    expect(section.locator('pre.stdout')).to_have_text('[]\n0.0\n')
    expect(section).not_to_contain_text(FRESH)
    output = page.get_by_test_id('output')
    expect(output.locator('section.run')).to_have_count(1)
    expect(output.locator('.graph-card')).to_have_count(0)
    draw = run_program(page, "a = Value(2.0, label='a')\ndraw_dot(a * a)")
    expect(draw.locator('svg g.node').first).to_be_visible()
    assert 'graph-inserted' in page.evaluate("performance.getEntriesByType('mark').map((m) => m.name)")


def test_a_run_ends_the_warm_up_rounds(page, site_url):
    # The rounds are for a page that waits for its reader: a Run pressed while Python loads is sent as it is
    # ready, before the first round, and none runs after it (one would share the worker with the next Run).
    page.goto(site_url)
    expect(page.get_by_test_id('status')).to_have_attribute('data-state', 'loading')
    page.get_by_test_id('run').click()
    section = page.get_by_test_id('output').locator('section.run')
    expect(section.locator('svg g.node').first).to_be_visible(timeout=STARTUP_TIMEOUT_MS)
    expect(page.get_by_test_id('status')).to_have_attribute('data-state', 'ready')
    rounds = page.evaluate(WARM_UP_ROUNDS)
    page.wait_for_timeout(1500)  # longer than the three rounds, 200 ms apart
    assert page.evaluate(WARM_UP_ROUNDS) == rounds < 3
    expect(page.get_by_test_id('output').locator('section.run')).to_have_count(1)


def with_slow_warm_up_steps(route):
    """The worker's script with a warm-up's steps 1 s apart, and a mark in the worker as its program has run."""
    response = route.fetch()
    body = response.text()
    for line, slow in (
        (
            '    () => runProgram(program, emit),',
            '    () => (runProgram(program, emit), performance.mark("warm-up-program-ran")),',
        ),
        (
            '    if (steps.length) warmUpNext = setTimeout(step);',
            '    if (steps.length) warmUpNext = setTimeout(step, 1000);',
        ),
    ):
        assert body.count(line) == 1, line
        body = body.replace(line, slow)
    route.fulfill(response=response, body=body)


def test_a_run_between_the_steps_of_a_warm_up_goes_first_and_its_check_covers_them(page, site_url):
    # A warm-up round is three tasks (the program, its garbage collected, its check): a Run that comes after the
    # program waits for none of the rest, which is dropped, and the run's own check covers the round's program.
    page.route('**/session/python-worker.js', with_slow_warm_up_steps)
    open_playground(page, site_url)
    page.evaluate("""() => { window.warmedUpAt = null;
      window.playground.session.warmUp.events.then(() => (window.warmedUpAt = performance.now())); }""")
    type_program(page, 'print("mine")')
    [worker] = [w for w in page.workers if w.url.endswith('/session/python-worker.js')]
    ran = "performance.getEntriesByName('warm-up-program-ran').length"
    for _ in range(200):  # the page asks for the warm-up 100 ms after ready
        if worker.evaluate(ran):
            break
        page.wait_for_timeout(50)
    assert worker.evaluate(ran) == 1
    section = run(page)
    expect(section.locator('pre.stdout')).to_have_text('mine\n')
    page.wait_for_timeout(2500)  # longer than the two steps left, 1 s apart
    assert page.evaluate('window.warmedUpAt') is None  # the warm-up's steps after its program never ran
    assert page.evaluate(WARM_UP_ROUNDS) == 0 and worker.evaluate(ran) == 1
    again = run_program(page, 'print("again")')
    expect(again.locator('pre.stdout')).to_have_text('again\n')
    expect(again).not_to_contain_text(FRESH)


def test_a_first_run_that_starts_python_is_not_slowed_by_a_rehearsal(page, site_url):
    # An article's cells start Python when the reader reaches them: the rehearsal happens in the cell's shadow
    # root. When the reader's Run is what starts Python, the run waits for it, and a rehearsal then would only
    # delay the reader's own.
    page.add_init_script(WATCH_REHEARSALS)
    page.goto(site_url + 'article.html')
    cells(page).last.hover()
    wait_until(page, 'window.rehearsals.length > 0 && window.rehearsals.every((r) => r.removed)')
    assert [r['inShadowRoot'] for r in page.evaluate(REHEARSED)] == [True]
    page.goto(site_url + 'article.html')
    section = press_run(cells(page).last)
    expect(section.locator('svg').first).to_be_visible()
    assert page.evaluate(REHEARSED) == []  # one would have begun as the warm-up's events came, before the run's


def test_a_run_asked_for_during_the_rehearsal_ends_it(page, site_url):
    page.add_init_script(WATCH_REHEARSALS + 'window.runWhenRehearsing = true;')  # Run, as the rehearsal begins
    open_playground(page, site_url)
    wait_until(page, 'window.rehearsals.length > 0 && window.rehearsals.every((r) => r.removed)')
    [rehearsal] = page.evaluate(REHEARSED)
    assert rehearsal['runs'] == 1  # its first round was under way; a second would have delayed the run
    expect(page.get_by_test_id('output').locator('section.run')).to_have_count(1)


def test_ordinary_runs_keep_their_python(playground):
    page = playground
    for code in [
        'import fractions\nprint(fractions.Fraction(1, 3))',
        'import random\nrandom.seed(1)\nprint(1)',
        'class V:\n    n = 0\nV.n += 1\nprint(V.n)',
    ]:
        section = run_program(page, code)
        expect(section.locator('pre.stdout')).to_be_visible()
        expect(section).not_to_contain_text(FRESH)


# [name, detail] of each mark named in `names`, from `since` on.
MARKS_SINCE = """([since, names]) => performance.getEntriesByType('mark')
  .filter((m) => m.startTime >= since && names.includes(m.name)).map((m) => [m.name, m.detail])"""
# The last run's verdict, or 'no verdict' if none came within 15 s (the check takes milliseconds).
SETTLED_OR_NOT = """() => Promise.race([window.playground.session.python.settled.then(() => 'settled'),
  new Promise((resolve) => setTimeout(() => resolve('no verdict'), 15000))])"""
# 1,601 values: drawing them takes longer than the check after the run (~1 s against ~50 ms here).
LONG_CHAIN = 'x = Value(1.0)\nfor i in range(400):\n    x = x * 1.0 + 0.0\nx.backward()\ndraw_dot(x)'


def test_the_check_after_a_run_waits_until_its_output_is_shown(playground):
    # The check (isolation.py, tens of milliseconds of Python) would take a processor from the drawing: the
    # worker gives its verdict only once the cell has shown the run's graph and asked for it.
    page = playground
    assert page.evaluate(SETTLED_OR_NOT) == 'settled'  # the shared page's probe, run before the test
    since = page.evaluate('performance.now()')
    section = run_program(page, LONG_CHAIN)
    expect(section.locator('svg g.node')).not_to_have_count(0)
    assert page.evaluate(SETTLED_OR_NOT) == 'settled'
    assert page.evaluate(MARKS_SINCE, [since, ['graph-teaching-attached', 'python-check-asked', 'python-settled']]) == [
        ['graph-teaching-attached', None],
        ['python-check-asked', None],
        ['python-settled', {'asked': True}],
    ]


def test_a_run_whose_output_no_cell_shows_still_gets_its_verdict(playground):
    # A run that no cell shows (the shared page's probe; a page's env cells) is checked as it ends: neither it
    # nor the run sent right after it waits for another Run to be pressed.
    page = playground
    statuses = page.evaluate("""async () => {
      const session = window.playground.session;
      const results = await Promise.all([session.run({ code: 'x = 1' }, () => {}), session.run({ code: 'y = 2' }, () => {})]);
      return results.map((result) => result.status);
    }""")
    assert statuses == ['ok', 'ok']
    assert page.evaluate(SETTLED_OR_NOT) == 'settled'


def test_a_run_sent_while_the_last_output_is_still_shown_asks_for_its_check(playground):
    # Another cell's Run while this one's output is still drawing (here: never drawn): the page asks for the
    # last run's check before it sends the next, which would otherwise wait for a verdict that never comes.
    page = playground
    assert page.evaluate(SETTLED_OR_NOT) == 'settled'
    since = page.evaluate('performance.now()')
    statuses = page.evaluate("""async () => {
      const session = window.playground.session;
      const first = session.run({ code: 'a = 1' }, () => {}, undefined, () => new Promise(() => {}));
      const second = session.run({ code: 'b = 2' }, () => {});
      return Promise.race([Promise.all([first, second]).then((results) => results.map((r) => r.status)),
        new Promise((resolve) => setTimeout(() => resolve('the second run never ran'), 15000))]);
    }""")
    assert statuses == ['ok', 'ok']
    assert page.evaluate(MARKS_SINCE, [since, ['run-posted', 'python-check-asked', 'python-settled']])[:4] == [
        ['run-posted', None],
        ['python-check-asked', None],
        ['python-settled', {'asked': True}],
        ['run-posted', None],
    ]


# A run that replaces the runtime's reset with one that puts the original back and forgets nothing.
REPLACED_RESET = """import playground_runtime as p
original = p.reset
def keep(env):
    p.reset = original
p.reset = keep
x = 1
"""


def test_a_reset_sent_before_the_check_cannot_run_what_the_run_replaced(playground):
    # A reset (a notebook swapped, an env reset) may come while the last run's output is still drawing, before
    # its check: the worker checks that run first, so the replaced reset never runs and the env is gone.
    page = playground
    assert page.evaluate(SETTLED_OR_NOT) == 'settled'
    events = page.evaluate(
        """async (code) => {
      const session = window.playground.session;
      await session.run({ code, env: 'kept' }, () => {}, undefined, () => new Promise(() => {}));
      session.reset('kept');
      const events = [];
      await session.run({ code: 'print("x" in globals())', env: 'kept' }, (event) => events.push(event));
      session.reset('kept'); // the fresh Python's env of that name, which the shared page must not keep
      return events;
    }""",
        REPLACED_RESET,
    )
    assert [event['text'] for event in events if event['type'] == 'stdout'] == ['False\n']
    assert any(FRESH in event.get('text', '') for event in events if event['type'] == 'notice')


FORGED_DONE = '''import js, time
for i in range(1, 400):
    js.postMessage(js.JSON.parse('{"type": "done", "id": %d, "result": {"status": "ok"}}' % i))
    js.postMessage(js.JSON.parse('{"type": "output", "id": %d, "event": {"type": "stdout", "text": "forged\\\\n"}}' % i))
print("posted")
time.sleep(1.5)
print("the real end")
'''


def test_messages_that_python_posts_are_not_taken_as_the_workers(playground):
    page = playground
    type_program(page, FORGED_DONE)
    page.get_by_test_id('run').click()
    status = page.get_by_test_id('status')
    section = page.get_by_test_id('output').locator('section.run').last
    expect(section).to_contain_text('posted', timeout=STARTUP_TIMEOUT_MS)
    # No clock here (a busy machine can take longer to look than the program sleeps): a forged "done" taken
    # for the run's would have ended it at once, so the worker's own output after the sleep would be dropped.
    expect(status).not_to_have_attribute('data-state', 'running', timeout=STARTUP_TIMEOUT_MS)
    expect(section.locator('pre.stdout')).to_have_text('posted\nthe real end\n')
    expect(section).not_to_contain_text('forged')


FORGED_PASS = '''import js
for i in range(1, 400):
    js.postMessage(js.JSON.parse('{"type": "done", "id": %d, "result": {"status": "ok", "check": '
                                 '{"status": "passed", "message": "All checks passed."}}}' % i))
'''


def test_an_exercise_cannot_be_passed_by_a_forged_message(page, site_url):
    page.goto(site_url + 'course.html')
    box = exercise(page, IDS[0])
    starter = box.get_by_test_id('editor').locator('.cm-content').inner_text()
    set_code(box, starter + '\n' + FORGED_PASS)
    # The program used `js`, so a fresh Python may still be restoring when the verdict shows.
    check(box, 'failed', status=re.compile('ready|loading'))


def test_deep_recursion_with_a_raised_limit_is_named_and_the_page_recovers(playground):
    page = playground
    section = run_program(
        page, 'import sys\nsys.setrecursionlimit(10**6)\ndef f(n):\n    return f(n + 1)\nf(0)', 'error'
    )
    expect(section).to_contain_text('RecursionError')
    expect(section).to_contain_text('at most 100,000 nested calls')
    expect(run_program(page, 'print("after")').locator('pre.stdout')).to_have_text('after\n')


def test_a_runtime_that_cannot_be_downloaded_says_so_and_retry_starts_it(page, site_url):
    page.route('**/pyodide.asm.wasm', lambda route: route.abort())
    page.goto(site_url)
    status = page.get_by_test_id('status')
    expect(status).to_have_attribute('data-state', 'error', timeout=STARTUP_TIMEOUT_MS)
    expect(status).to_contain_text('pyodide.asm.wasm')
    expect(status).to_contain_text('Retry')
    page.unroute('**/pyodide.asm.wasm')
    page.get_by_test_id('retry').click()
    expect(status).to_have_attribute('data-state', 'ready', timeout=STARTUP_TIMEOUT_MS)
    expect(page.get_by_test_id('retry')).to_be_hidden()


def test_a_browser_without_webassembly_is_told(page, site_url):
    page.add_init_script('delete globalThis.WebAssembly')
    page.goto(site_url)
    status = page.get_by_test_id('status')
    expect(status).to_have_attribute('data-state', 'error', timeout=STARTUP_TIMEOUT_MS)
    expect(status).to_contain_text('cannot run WebAssembly')
    expect(page.get_by_test_id('retry')).to_be_hidden()


def test_a_sandboxed_iframe_without_allow_same_origin_says_why(page, site_url, other_origin):
    folder, url = other_origin
    (folder / 'sandboxed.html').write_text(
        f'<!doctype html><meta charset="utf-8"><iframe id="cell" sandbox="allow-scripts" '
        f'src="{site_url}embed.html#example=neuron.py" style="width: 700px; height: 300px"></iframe>'
    )
    page.goto(url + 'sandboxed.html')
    frame = page.frame_locator('#cell')
    frame.get_by_test_id('run').click()
    status = frame.get_by_test_id('status')
    expect(status).to_have_attribute('data-state', 'error', timeout=STARTUP_TIMEOUT_MS)
    expect(status).to_contain_text(re.compile('sandbox.*allow-same-origin'))


def test_live_objects_stay_flat_over_thirty_runs(playground):
    """Python's live objects stay within 5% over 30 runs of a 6,000-value program with Clear between them."""
    page = playground
    program = 'x = Value(1.0)\ny = x\nfor i in range(3000):\n    y = y * 1.0001\ny.backward()\ndraw_dot(y)\n'
    counts = []
    for i in range(30):
        run_program(page, program + ('import gc\ngc.collect()\nprint(len(gc.get_objects()))' if i in (4, 29) else ''))
        if i in (4, 29):
            counts.append(
                int(page.get_by_test_id('output').locator('section.run').last.locator('pre.stdout').inner_text())
            )
        page.get_by_test_id('clear').click()
    assert counts[1] <= counts[0] * 1.05, counts
