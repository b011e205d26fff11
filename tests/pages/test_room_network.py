"""The classroom on its real network: learners reach the teacher's laptop by a LAN name over plain HTTP, an
origin that browsers do not treat as secure (no service worker, no cross-origin isolation, no brotli, no
crypto.randomUUID). Chromium resolves conftest.LAN_HOST to this machine; every non-local request is blocked.

What works there, what the page says when the room's server drops, and the two ways to the full experience:
HTTPS with a certificate from an authority the device trusts, and a policy that treats the origin as secure.
"""

import json
import os
import re
import shutil
import subprocess
import time

import pytest
import trustme
from playwright.sync_api import Error as PlaywrightError
from playwright.sync_api import expect

from backprop_playground.classroom import Classroom
from backprop_playground.paths import DIST
from backprop_playground.server import make_server
from support import LAN_HOST, STARTUP_TIMEOUT_MS, block_the_network, wait_until
from support.course import EXERCISES
from support.pages import (
    cells,
    check,
    exercise,
    load_example,
    on_the_clock,
    open_playground,
    press_run,
    run,
    saved,
    set_code,
    type_program,
)
from support.servers import NAME, RoomServer, board_cell, in_a_thread, join

BEAT_MS = 5000  # a joined page's heartbeat (web/room/connection.js)
ANSWER_MS = 4000  # the time each beat gives the server to answer

pytestmark = pytest.mark.usefixtures('site')

# What a page can use on an origin that is not secure, and what it cannot (docs/classroom.md, "Classroom").
INSECURE = {
    'isSecureContext': False,
    'crossOriginIsolated': False,
    'SharedArrayBuffer': 'undefined',
    'serviceWorker': False,
    'randomUUID': 'undefined',
    'subtle': 'undefined',
    'clipboard': 'undefined',
    'CompressionStream': 'function',
    'indexedDB': 'object',
    'localStorage': 'object',
}
FEATURES = """({isSecureContext, crossOriginIsolated, SharedArrayBuffer: typeof SharedArrayBuffer,
  serviceWorker: 'serviceWorker' in navigator, randomUUID: typeof crypto.randomUUID, subtle: typeof crypto.subtle,
  clipboard: typeof navigator.clipboard, CompressionStream: typeof CompressionStream, indexedDB: typeof indexedDB,
  localStorage: typeof localStorage})"""
READY = "performance.getEntriesByName('python-ready')[0].detail"


def runtime_files():
    """The runtime's large files, the memory snapshot in pieces (build step snapshot.py), as build.json names them."""
    info = json.loads((DIST / 'build.json').read_text())
    return [*info['snapshot']['files'], 'pyodide/pyodide.asm.wasm', 'pyodide/python_stdlib.zip']


@pytest.fixture
def lan_room(tmp_path):
    server = RoomServer(tmp_path / 'room', LAN_HOST)
    yield server
    server.stop()


def requested(page):
    paths = []
    page.on('request', lambda request: paths.append(request.url.split('/', 3)[3]))
    return paths


def test_the_main_page_on_a_lan_name_runs_draws_copies_and_says_why_stop_restarts(page, lan_site_url):
    paths = requested(page)
    open_playground(page, lan_site_url)
    assert page.evaluate(FEATURES) == INSECURE
    # The runtime came as one zstd file (no brotli here), not as its three largest files, and Python was
    # restored from the snapshot in it.
    assert page.evaluate(READY) | {'timings': None} == {'start': 'snapshot', 'packed': True, 'timings': None}
    assert 'pyodide/runtime.zst' in paths and not set(runtime_files()) & set(paths), paths
    load_example(page, 'neuron.py')
    section = run(page)
    expect(section.locator('svg')).to_contain_text('grad -1.5000')
    button = section.get_by_role('button', name="Copy this graph's DOT source")
    button.click()
    expect(button).to_have_text('Copied')  # navigator.clipboard is missing: the copy command did it
    page.get_by_test_id('share').click()
    expect(page.get_by_test_id('share-panel')).to_contain_text('Link copied to the clipboard')
    link = page.get_by_test_id('share-link').input_value()  # made with CompressionStream, which plain HTTP has
    assert link.startswith(lan_site_url + '#code=')

    type_program(page, "x = 1\nprint('looping')\nwhile True: pass")
    page.get_by_test_id('run').click()
    # Stop once the loop runs: the Stop of a running program (a Stop before the run is sent cancels it instead).
    expect(page.get_by_test_id('output').locator('section.run').last).to_contain_text(
        'looping', timeout=STARTUP_TIMEOUT_MS
    )
    page.get_by_test_id('stop').click()
    output = page.get_by_test_id('output')
    expect(output).to_contain_text('Python was restarted (this page is served over plain HTTP from a network address')
    type_program(page, "draw_dot(Value(2.0, label='again') * 3)")
    expect(run(page).locator('svg')).to_contain_text('data 6.0000')
    page.reload()  # the editor's text is kept in localStorage, which plain HTTP has
    expect(page.get_by_test_id('editor')).to_contain_text("label='again'", timeout=STARTUP_TIMEOUT_MS)
    page.goto(link)
    expect(page.get_by_test_id('editor')).to_contain_text('o = n.tanh()', timeout=STARTUP_TIMEOUT_MS)
    section = run(page)
    section.get_by_role('button', name="Copy this graph's DOT source").click()
    type_program(page, '# pasted')
    page.keyboard.press('ControlOrMeta+a')
    page.keyboard.press('ControlOrMeta+v')  # what the copy command copied is the graph's DOT
    expect(page.get_by_test_id('editor')).to_contain_text('digraph')


def test_a_first_visit_on_a_lan_name_sends_at_most_10_mb(page, tmp_path):
    """The course and one Run, as a learner's first visit in a room: the bytes the server sent, bodies only."""
    room = RoomServer(tmp_path / 'room', LAN_HOST)
    try:
        join(page, room.url)
        check(exercise(page, 'mul-returns-value'), 'failed')
        # Counted until quiet: the graph worker's warm-up and the standby Python (once no run went on for 1 s) come later.
        # With the tests' route set, Chromium keeps no HTTP cache, as an incognito window keeps almost none:
        # the standby starts from the page's copy of the runtime, or it would fetch it again. The standby fetches
        # nothing, so the quiet starts once it is ready (seen with three workers: quiet 4 s while it still started).
        wait_until(page, "performance.getEntriesByName('python-standby-ready').length > 0", STARTUP_TIMEOUT_MS)
        sent, since = sum(room.server.sent.values()), time.monotonic()
        while time.monotonic() - since < 4:
            page.wait_for_timeout(250)
            if sum(room.server.sent.values()) != sent:
                sent, since = sum(room.server.sent.values()), time.monotonic()
        assert page.evaluate("performance.getEntriesByName('python-standby-ready').length") == 1
        assert 8e6 < sent <= 10e6, f"{sent / 1e6:.2f} MB: {room.server.sent.most_common(5)}"
        assert room.server.times['/pyodide/runtime.zst'] == 1, room.server.times
        assert not {f'/{path}' for path in runtime_files()} & set(room.server.times), room.server.times
    finally:
        room.stop()


def standby_start(page):
    """Once the page's standby Python is ready: what it started from ({kept, packed, compiled})."""
    wait_until(page, "performance.getEntriesByName('python-standby-ready').length > 0", 60_000)
    return page.evaluate("performance.getEntriesByName('python-standby-ready')[0].detail")


def test_at_127_0_0_1_the_runtime_comes_as_its_own_files_with_brotli_once_for_the_page(page, site_url):
    paths = requested(page)
    open_playground(page, site_url)
    assert page.evaluate(READY)['packed'] is False
    assert set(runtime_files()) <= set(paths) and 'pyodide/runtime.zst' not in paths, paths
    load_example(page, 'neuron.py')
    expect(run(page).locator('svg')).to_contain_text('grad -1.5000')
    # The standby Python (once no run went on for 1 s) starts from the files the page kept, and from the
    # interpreter the first one compiled. With the tests' route set, Chromium keeps no HTTP cache, as an incognito
    # window keeps almost none: it would fetch them again, and compile the WebAssembly again.
    assert standby_start(page) == {'kept': True, 'packed': False, 'compiled': True}
    assert [paths.count(path) for path in runtime_files()] == [1] * len(runtime_files()), paths
    # The standard library's bytes went to the page (python-worker.js, stdlibForPage): the first Python still
    # imports from its own copy, modules that its snapshot had not imported.
    type_program(page, STDLIB_IMPORTS)
    expect(run(page).locator('.text')).to_have_text(
        re.compile(r'^imported [1-9]\d* modules from /lib/python\d+\.zip\n?$')
    )


STDLIB_IMPORTS = """import importlib, sys
names = [name for name in ('csv', 'difflib', 'fractions', 'textwrap', 'zipfile') if name not in sys.modules]
files = {importlib.import_module(name).__spec__.origin.split('.zip/')[0] + '.zip' for name in names}
print(f"imported {len(names)} modules from {', '.join(sorted(files))}")
"""


# A WebAssembly module that imports a function no one gives it: instantiating it fails (a LinkError).
UNLINKABLE = '[0, 97, 115, 109, 1, 0, 0, 0, 1, 4, 1, 96, 0, 0, 2, 12, 1, 3, 101, 110, 118, 4, 110, 111, 112, 101, 0, 0]'
PAGES_MODULE = 'const compiled = await fromPage.compiled.promise.catch(() => null);'


def test_a_standby_whose_kept_interpreter_does_not_instantiate_fetches_the_wasm_and_starts(page, site_url):
    """The page keeps the interpreter the first Python compiled, not the wasm's bytes: a later Python is handed
    the Module and an empty stand-in for the wasm. Where that Module does not instantiate, it fetches the wasm."""

    def unlinkable(route):
        response = route.fetch()
        text = response.text()
        assert PAGES_MODULE in text  # the worker's line that this test changes
        broken = (
            'const compiled = await fromPage.compiled.promise.then('
            f"(m) => m && new WebAssembly.Module(new Uint8Array({UNLINKABLE})), () => null);"
        )
        route.fulfill(response=response, body=text.replace(PAGES_MODULE, broken))  # its headers: COEP's too

    page.route('**/session/python-worker.js', unlinkable)
    paths = requested(page)
    open_playground(page, site_url)
    expect(run(page).locator('svg')).to_contain_text('grad')
    assert standby_start(page) == {'kept': True, 'packed': False, 'compiled': False}
    assert paths.count('pyodide/pyodide.asm.wasm') == 2, paths
    assert paths.count('pyodide/python_stdlib.zip') == 1, paths


def test_without_the_packed_runtime_the_files_come_one_by_one(page, context, lan_site_url):
    context.route(re.compile(r'.*/runtime\.zst$'), lambda route: route.fulfill(status=404, body='gone'))
    paths = requested(page)
    open_playground(page, lan_site_url)
    assert page.evaluate(READY) | {'timings': None} == {'start': 'snapshot', 'packed': False, 'timings': None}
    assert set(runtime_files()) <= set(paths), paths
    expect(run(page).locator('pre.stdout')).to_contain_text('0.7071')


def test_every_page_works_on_a_lan_name_and_keeps_the_learners_work(page, context, lan_room, cors_origin):
    url = lan_room.url
    page.goto(url + 'article.html')
    first = cells(page).first
    expect(press_run(first).locator('pre.stdout')).to_contain_text('Value(data=')
    assert page.evaluate('isSecureContext') is False

    page.goto(url + 'embed.html#example=accumulation.py')
    page.get_by_test_id('run').click()
    expect(page.get_by_test_id('output').locator('svg').first).to_contain_text(
        'grad 2.0000', timeout=STARTUP_TIMEOUT_MS
    )

    folder, notebooks = cors_origin
    (folder / 'lan.ipynb').write_text(
        '{"nbformat": 4, "nbformat_minor": 5, "metadata": {}, "cells": [{"cell_type": "code", '
        '"id": "c", "metadata": {}, "execution_count": null, "outputs": [], "source": "print(6 * 7)"}]}'
    )
    page.goto(f"{url}notebook.html#url={notebooks}lan.ipynb")
    dialog = page.get_by_test_id('classroom-join')
    dialog.get_by_test_id('student-name').fill(NAME)
    dialog.get_by_test_id('join').click()
    cell = cells(page).first
    set_code(cell, 'print(6 * 7, "edited")')
    page.get_by_test_id('run-all').click()
    expect(cell.locator('pre.stdout')).to_have_text('42 edited\n', timeout=STARTUP_TIMEOUT_MS)
    saved(page)
    page.reload()  # the notebook is kept in IndexedDB, which plain HTTP has
    expect(cells(page).first.locator('.cm-content')).to_have_text('print(6 * 7, "edited")', timeout=STARTUP_TIMEOUT_MS)

    board = context.new_page()
    board.goto(f"{url}teacher.html#token={lan_room.room.token}")
    network = board.get_by_test_id('room-network')
    expect(network).to_have_attribute('data-mode', 'plain-http', timeout=STARTUP_TIMEOUT_MS)
    expect(network).to_contain_text('keep the tab open')
    browsers = board.get_by_test_id('room-browsers')
    expect(browsers).to_have_attribute('data-learners', '1', timeout=15_000)
    assert [browsers.get_attribute(f'data-{name}') for name in ('secure', 'offline', 'interrupt')] == ['0', '0', '0']


def leaving_asks_first(page):
    """Whether a reload now asks first: the prompt is dismissed, so the page stays; without one it reloads.
    Waits for whichever comes. (Playwright's page.close(run_before_unload=True) shows no prompt in headless
    Chromium; a navigation does.)"""
    prompts = []

    def answer(dialog):
        prompts.append(dialog.type)
        dialog.dismiss()

    page.on('dialog', answer)
    page.evaluate('window.stayed = true; setTimeout(() => location.reload())')
    deadline = time.monotonic() + STARTUP_TIMEOUT_MS / 1000
    while not prompts and time.monotonic() < deadline:
        try:
            if page.evaluate('window.stayed') is None:
                break  # the reload happened: a new document, without the marker
        except PlaywrightError:
            pass  # the document went away between two looks
        page.wait_for_timeout(50)
    page.remove_listener('dialog', answer)
    page.wait_for_load_state()
    assert page.evaluate('window.stayed === true') == bool(prompts), prompts
    return prompts == ['beforeunload']


def test_when_the_rooms_server_drops_the_open_page_keeps_working_and_says_so(page, context, lan_room):
    join(page, lan_room.url)
    box = exercise(page, 'mul-returns-value')
    check(box, 'failed')
    board = context.new_page()
    board.goto(f"{lan_room.url}teacher.html#token={lan_room.room.token}")
    expect(board_cell(board, 'mul-returns-value')).to_have_attribute('data-attempts', '1', timeout=10_000)
    board.close()
    # A standby Python is started in the background once a run ended and the page is idle: Stop will swap it in.
    wait_until(page, "performance.getEntriesByName('python-standby-ready').length > 0", STARTUP_TIMEOUT_MS)

    lan_room.stop()
    notice = page.get_by_test_id('network-notice')
    expect(notice).to_contain_text(
        "Keep this tab open: your work is kept and will be sent when the room's network is back", timeout=15_000
    )
    # Python is in the page: checks, graphs and Stop go on without the server, and the result waits.
    set_code(box, EXERCISES['mul-returns-value']['solution'])
    check(box, 'passed')
    expect(notice).to_have_attribute('data-waiting', '1')
    expect(notice).to_contain_text('1 result waiting')
    graph = page.locator('[data-testid="cell"]:not([data-testid="exercise"])').first  # the course's one plain cell
    expect(press_run(graph).locator('svg')).to_contain_text('grad 2.0000')
    set_code(graph, 'while True: pass')
    graph.get_by_test_id('run').click()
    expect(graph.get_by_test_id('status')).to_have_attribute('data-state', 'running')
    graph.get_by_test_id('stop').click()
    expect(graph.get_by_test_id('output')).to_contain_text('Python was restarted', timeout=15_000)
    expect(graph.get_by_test_id('status')).to_have_attribute('data-state', 'ready')  # the standby took over
    # A second Stop needs a Python the page cannot download now: it says so, and Retry works once it can.
    graph.get_by_test_id('run').click()
    expect(graph.get_by_test_id('status')).to_have_attribute('data-state', 'running')
    graph.get_by_test_id('stop').click()
    expect(graph.get_by_test_id('status')).to_have_attribute('data-state', 'error', timeout=STARTUP_TIMEOUT_MS)
    expect(graph.get_by_test_id('status')).to_contain_text('Python could not start')
    assert leaving_asks_first(page), 'leaving while the server is away must ask first'

    lan_room.start()
    expect(notice).to_have_count(0, timeout=15_000)
    graph.get_by_test_id('retry').click()
    set_code(graph, "print('back')")
    expect(press_run(graph).locator('pre.stdout')).to_have_text('back\n')
    board = context.new_page()
    board.goto(f"{lan_room.url}teacher.html#token={lan_room.room.token}")
    expect(board_cell(board, 'mul-returns-value')).to_have_attribute('data-state', 'passed', timeout=25_000)
    board.close()
    assert not leaving_asks_first(page), 'nothing waits and the server answers: no prompt'


# The full experience: secure origin, service worker, isolation. Each test starts a browser of its own.


def full_experience(browser, url, stop_server):
    """Ready and isolated, Stop in place, then the site kept offline: a reload with the server gone comes back."""
    context = browser.new_context(service_workers='allow')
    attempts = block_the_network(context)
    page = context.new_page()
    open_playground(page, url)
    assert page.evaluate('[isSecureContext, crossOriginIsolated, typeof SharedArrayBuffer]') == [True, True, 'function']
    type_program(page, "x = 1\nprint('looping')\nwhile True: pass")
    page.get_by_test_id('run').click()
    # Stop once the loop runs: the Stop of a running program (a Stop before the run is sent cancels it instead).
    expect(page.get_by_test_id('output').locator('section.run').last).to_contain_text(
        'looping', timeout=STARTUP_TIMEOUT_MS
    )
    page.get_by_test_id('stop').click()
    expect(page.get_by_test_id('output').locator('section.run').last).to_contain_text('KeyboardInterrupt')
    expect(page.get_by_test_id('output')).not_to_contain_text('restarted')
    assert page.evaluate('navigator.serviceWorker.ready.then((r) => Boolean(r.active))') is True  # the precache is done
    stop_server()
    page.reload()
    expect(page.get_by_test_id('status')).to_have_attribute('data-state', 'ready', timeout=STARTUP_TIMEOUT_MS)
    assert page.evaluate('Boolean(navigator.serviceWorker.controller)')
    type_program(page, 'print(sum(range(10)))')
    expect(run(page).locator('pre.stdout')).to_have_text('45\n')
    context.close()
    assert attempts == [], attempts


def launch(playwright, launch_args, *extra, env=None):
    args = {**launch_args, 'args': [*launch_args['args'], *extra]}
    return playwright.chromium.launch(**args, **({'env': env} if env else {}))


def test_https_with_an_authority_the_device_trusts_gives_the_full_experience(
    playwright, browser_type_launch_args, tmp_path
):
    if not shutil.which('certutil'):
        pytest.skip('no certutil to make a browser trust an authority (apt-get install libnss3-tools)')
    authority = trustme.CA()
    certificate = authority.issue_cert(LAN_HOST)
    cert, key = tmp_path / 'room.pem', tmp_path / 'room.key'
    certificate.cert_chain_pems[0].write_to_path(cert)
    certificate.private_key_pem.write_to_path(key)
    # What a school's device installs: the authority, here in the NSS database Chromium reads on Linux.
    home = tmp_path / 'home'
    nssdb = home / '.pki' / 'nssdb'
    nssdb.mkdir(parents=True)
    authority.cert_pem.write_to_path(tmp_path / 'authority.pem')
    subprocess.run(['certutil', '-N', '--empty-password', '-d', f'sql:{nssdb}'], check=True)
    subprocess.run(
        ['certutil', '-A', '-d', f'sql:{nssdb}', '-t', 'C,,', '-n', 'school', '-i', str(tmp_path / 'authority.pem')],
        check=True,
    )
    server = make_server(port=0, tls=(cert, key), room=Classroom(tmp_path / 'room', mode='https'))
    in_a_thread(server)
    browser = launch(playwright, browser_type_launch_args, env={**os.environ, 'HOME': str(home)})
    try:
        full_experience(
            browser,
            f"https://{LAN_HOST}:{server.server_address[1]}/",
            lambda: (server.shutdown(), server.server_close()),
        )
    finally:
        browser.close()


def test_a_policy_that_treats_the_lan_origin_as_secure_gives_the_full_experience(
    playwright, browser_type_launch_args, tmp_path
):
    server = make_server(port=0, room=Classroom(tmp_path / 'room', mode='managed'))
    in_a_thread(server)
    origin = f"http://{LAN_HOST}:{server.server_address[1]}"
    # The command-line twin of Chrome's OverrideSecurityRestrictionsOnInsecureOrigin policy.
    browser = launch(playwright, browser_type_launch_args, f'--unsafely-treat-insecure-origin-as-secure={origin}')
    try:
        full_experience(browser, origin + '/', lambda: (server.shutdown(), server.server_close()))
    finally:
        browser.close()


def test_a_server_that_goes_silent_is_noticed_as_one_that_refuses(page, context, lan_room):
    """A laptop that sleeps or leaves the Wi-Fi does not refuse connections: its answers just never come."""
    page.clock.install()  # the heartbeat's timers come when the test moves the clock on
    answering = [True]
    continued = set()  # the beats answered that have not ended yet
    silent = []

    def presence(route):
        if answering[0]:
            continued.add(route.request)
            route.continue_()
        else:
            silent.append(route)  # never answered

    for event in ['requestfinished', 'requestfailed']:
        context.on(event, lambda request: continued.discard(request))
    context.route('**/classroom/presence', presence)
    join(page, lan_room.url)
    notice = page.get_by_test_id('network-notice')
    expect(notice).to_have_count(0)
    # From here the server is silent. A beat that was on its way when the clock jumps ahead would run out of
    # time at once (seen once in a full run): the clock moves once no beat is in flight.
    answering[0] = False
    while continued:
        page.wait_for_timeout(20)
    unanswered = BEAT_MS + ANSWER_MS
    on_the_clock(page, BEAT_MS, lambda ms: expect(notice).to_contain_text('Keep this tab open', timeout=ms), unanswered)
    # Playwright hands a route to the test's handler on a task of its own, which can come after the answer to
    # the expectation that saw the notice (seen once in CI): the clock stands still while the test waits for it.
    deadline = time.monotonic() + 5
    while not silent and time.monotonic() < deadline:
        page.wait_for_timeout(20)
    assert silent, 'the notice came before a beat went unanswered'
    context.unroute('**/classroom/presence')
    on_the_clock(page, BEAT_MS, lambda ms: expect(notice).to_have_count(0, timeout=ms), BEAT_MS)
