"""Offline after one visit, Stop on a plain host, new builds, sub-paths, file:// and the classroom zip.

Every non-local request is blocked (conftest.py); each test gets a fresh browser context, so a fresh
service worker registration.
"""

import functools
import http.server
import shutil
import time
import zipfile

import pytest
from playwright.sync_api import expect

from backprop_playground.steps import compress, service_worker
from backprop_playground.steps.archive import zip_site
from backprop_playground.steps.output import Output
from support import SERVICE_WORKER, STARTUP_TIMEOUT_MS
from support.pages import open_playground, run, type_program
from support.servers import in_a_thread, serving

pytestmark = [pytest.mark.usefixtures('site'), SERVICE_WORKER]


def serve_folder(folder, isolated=False):
    return serving(isolated=isolated, directory=folder)


def first_visit(page, url):
    """Open a page and wait until the service worker has precached the site."""
    open_playground(page, url)
    scope = page.evaluate('navigator.serviceWorker.ready.then((r) => r.active && r.scope)')
    assert scope == url
    return page


def controlled(page):
    page.reload()
    expect(page.get_by_test_id('status')).to_have_attribute('data-state', 'ready', timeout=STARTUP_TIMEOUT_MS)
    assert page.evaluate('Boolean(navigator.serviceWorker.controller)')
    return page


# Counts the page's calls to navigator.serviceWorker.register (a registration shows in getRegistrations()
# only once its script is fetched, which can be seconds later).
COUNT_REGISTER_CALLS = """
window.registerCalls = 0;
const register = ServiceWorkerContainer.prototype.register;
ServiceWorkerContainer.prototype.register = function (...args) {
  window.registerCalls += 1;
  return register.apply(this, args);
};
"""


def test_the_precache_waits_until_python_is_ready_and_no_run_is_under_way(page, plain_site_url):
    # Run is pressed before Python is ready, so the run is under way when Python has been ready for 2 s.
    page.add_init_script(COUNT_REGISTER_CALLS)
    page.goto(plain_site_url)
    type_program(page, 'import time\ntime.sleep(4)\nprint("slept")')
    page.get_by_test_id('run').click()
    status = page.get_by_test_id('status')
    expect(status).to_have_attribute('data-state', 'running', timeout=STARTUP_TIMEOUT_MS)
    page.wait_for_timeout(2500)
    expect(status).to_have_attribute('data-state', 'running')  # still the same run
    assert page.evaluate('window.registerCalls') == 0, 'the precache started during the run'
    expect(page.get_by_test_id('output').locator('pre.stdout')).to_have_text('slept\n', timeout=STARTUP_TIMEOUT_MS)
    assert page.evaluate('navigator.serviceWorker.ready.then((r) => r.active.scriptURL)') == plain_site_url + 'sw.js'
    assert page.evaluate('window.registerCalls') == 1


# Keeps the page's registration as window.registered (a failed first install removes it from
# getRegistration()); INSTALL_OUTCOME then resolves with what became of the worker it installed: 'activated', or
# 'redundant' when its install failed.
KEEP_REGISTRATION = """
const register = ServiceWorkerContainer.prototype.register;
ServiceWorkerContainer.prototype.register = function (...args) {
  window.registered = register.apply(this, args);
  return window.registered;
};
"""
INSTALL_OUTCOME = """new Promise((resolve) => {
  const look = () => {
    if (!window.registered) return setTimeout(look, 50);
    window.registered.then((registration) => {
      const worker = registration.installing ?? registration.waiting ?? registration.active;
      const settled = () => ['activated', 'redundant'].includes(worker.state) && resolve(worker.state);
      worker.addEventListener('statechange', settled);
      settled();
    });
  };
  look();
})"""


def hold_the_first_file(context):
    """Holds the install's first file at the network (the route, in the returned list), so that the install is
    under way for as long as a test needs."""
    held = []

    def hold(route):
        if route.request.service_worker and not route.request.url.endswith('/sw.js') and not held:
            held.append(route)  # the worker's script is fetched for it too: the install starts after
        else:
            route.fallback()

    context.route('**/*', hold)
    return held


def until(page, condition, message, seconds=STARTUP_TIMEOUT_MS / 1000):
    """Waits for a condition on what Playwright reports (its events come while the page waits)."""
    deadline = time.monotonic() + seconds
    while not condition():
        assert time.monotonic() < deadline, message
        page.wait_for_timeout(50)


def no_file_fetched_during_a_run(page, context, held):
    """Runs a 4 s program on `page` while the install is under way, its first file let go once the run has
    started: the install must fetch nothing more until the run has ended, and go on at once after it."""
    type_program(page, 'import time\ntime.sleep(4)\nprint("slept")')
    page.get_by_test_id('run').click()
    status = page.get_by_test_id('status')
    expect(status).to_have_attribute('data-state', 'running')
    fetched = []
    context.on('request', lambda request: request.service_worker and fetched.append(request.url))
    held[0].fallback()  # the first file goes on; the next must wait for the run's end
    page.wait_for_timeout(2500)
    expect(status).to_have_attribute('data-state', 'running')  # still the same run
    assert fetched == [], f'the install fetched files during the run (after {held[0].request.url})'
    expect(page.get_by_test_id('output').locator('pre.stdout')).to_have_text('slept\n')
    # Told the run has ended, not released by the longest wait (sw.js: HOLD_MS, 30 s).
    until(page, lambda: fetched, 'the install did not go on after the run', seconds=10)


def test_the_install_fetches_no_file_while_a_run_is_under_way(page, context, plain_site_url):
    """The service worker's install (41 MB fetched and hashed) waits while the page has a run under way
    (sw.js, yieldToRuns)."""
    page.add_init_script(KEEP_REGISTRATION)
    held = hold_the_first_file(context)
    open_playground(page, plain_site_url)
    # The page registers the worker once Python is ready and the page quiet (main.js).
    until(page, lambda: held, 'the service worker fetched nothing')
    no_file_fetched_during_a_run(page, context, held)
    assert page.evaluate(INSTALL_OUTCOME) == 'activated'


def test_a_page_opened_in_another_tab_tells_an_install_under_way_of_its_runs(page, context, plain_site_url):
    """A main page registers the worker itself only once Python is ready and it has been quiet for 2 s; opened
    while another tab's install is under way, it tells that install of its runs from its start (offline.js,
    tellInstallOfRuns)."""
    held = hold_the_first_file(context)
    open_playground(page, plain_site_url)
    until(page, lambda: held, 'the service worker fetched nothing')
    no_file_fetched_during_a_run(open_playground(context.new_page(), plain_site_url), context, held)


def test_a_second_visit_works_with_the_network_off(page, context, plain_site_url):
    first_visit(page, plain_site_url)
    context.set_offline(True)
    controlled(page)
    type_program(page, 'print(sum(range(10)))\n')
    expect(run(page).locator('pre.stdout')).to_have_text('45\n')

    page.goto(plain_site_url + 'article.html')
    cell = page.get_by_test_id('cell').first
    cell.get_by_test_id('run').click()
    expect(cell.locator('pre.stdout')).to_contain_text('Value(data=', timeout=STARTUP_TIMEOUT_MS)

    page.goto(plain_site_url + 'course.html')
    exercise = page.get_by_test_id('exercise').first
    exercise.get_by_test_id('run').click()
    expect(exercise.get_by_test_id('result')).to_have_attribute('data-state', 'failed', timeout=STARTUP_TIMEOUT_MS)

    page.goto(plain_site_url + 'embed.html#example=accumulation.py')
    page.get_by_test_id('run').click()
    expect(page.get_by_test_id('output').locator('svg').first).to_contain_text(
        'grad 2.0000', timeout=STARTUP_TIMEOUT_MS
    )


PLANT_FROM_PAGE = '''async ([name, text]) => {
  for (const cacheName of await caches.keys()) {
    const cache = await caches.open(cacheName);
    for (const request of await cache.keys()) {
      if (request.url.split('?')[0].endsWith(name)) await cache.put(request, new Response(text));
    }
  }
}'''

CACHED_TEXT = '''async (name) => {
  for (const cacheName of await caches.keys()) {
    const cache = await caches.open(cacheName);
    for (const request of await cache.keys()) {
      if (request.url.split('?')[0].endsWith(name)) return (await cache.match(request)).text();
    }
  }
}'''


def test_files_planted_in_the_cache_are_never_served(page, context, plain_site_url):
    """A program's own worker ends with a run that used `js` (tests/test_trust.py), so the planting here is
    done by script in the page itself, as anything else on the origin could do."""
    controlled(first_visit(page, plain_site_url))
    page.evaluate(PLANT_FROM_PAGE, ['/hosts/playground-page.bundle.js', "document.title = 'planted'"])
    page.evaluate(PLANT_FROM_PAGE, ['/index.html', '<title>planted</title><p>planted</p>'])
    assert 'planted' in page.evaluate(CACHED_TEXT, '/index.html')

    controlled(page)
    assert page.title() == 'Backprop Playground'
    assert 'planted' not in page.evaluate(CACHED_TEXT, '/hosts/playground-page.bundle.js'), (
        'the verified copy was not put back'
    )
    type_program(page, 'print("built files")\n')
    expect(run(page).locator('pre.stdout')).to_have_text('built files\n')

    page.evaluate(PLANT_FROM_PAGE, ['/index.html', '<title>planted</title><p>planted</p>'])
    context.set_offline(True)
    page.reload()
    expect(page.locator('body')).to_contain_text('was changed on this device')
    expect(page.locator('body')).not_to_contain_text('planted')


def test_an_install_keeps_no_copy_of_a_file_changed_after_the_build(page, site, tmp_path):
    """The install checks each file's hash as it streams in (sw.js, checkedAsItComes), where the browser's own
    check of `integrity` would read the whole file first: a file changed after the build (a proxy, a
    half-finished deploy) is still never kept, nor served from the worker."""
    folder = tmp_path / 'changed'
    shutil.copytree(site, folder)
    bundle = folder / 'hosts' / 'course-page.bundle.js'  # not a file the main page loads
    bundle.write_text(bundle.read_text() + '\n// changed after the build\n')
    compress.compress(folder)  # its .br and .gz too; the service worker keeps the build's hashes
    server, url = serve_folder(folder)
    try:
        page.add_init_script(KEEP_REGISTRATION)
        open_playground(page, url)
        assert page.evaluate(INSTALL_OUTCOME) == 'activated'  # without that file (Workbox's handlerDidError)
        assert page.evaluate(CACHED_TEXT, '/hosts/playground-page.bundle.js')
        assert page.evaluate(CACHED_TEXT, '/hosts/course-page.bundle.js') is None
        controlled(page)
        served = page.evaluate("fetch('hosts/course-page.bundle.js').then((response) => response.text())")
        assert 'changed after the build' not in served
        type_program(page, 'print("still runs")\n')
        expect(run(page).locator('pre.stdout')).to_have_text('still runs\n')
    finally:
        server.shutdown()


def test_stop_interrupts_in_place_on_a_plain_host_after_the_first_load(page, plain_site_url):
    first_visit(page, plain_site_url)
    assert page.evaluate('self.crossOriginIsolated') is False
    controlled(page)
    assert page.evaluate('self.crossOriginIsolated') is True
    expect(page.get_by_test_id('status')).not_to_contain_text('Stop restarts Python')
    type_program(page, 'counted = 0\nprint("looping")\nwhile True:\n    counted += 1\n')
    page.get_by_test_id('run').click()
    # Stop once the loop runs: the Stop of a running program (a Stop before the run is sent cancels it instead).
    expect(page.get_by_test_id('output')).to_contain_text('looping', timeout=STARTUP_TIMEOUT_MS)
    page.get_by_test_id('stop').click()
    expect(page.get_by_test_id('output')).to_contain_text('KeyboardInterrupt')
    expect(page.get_by_test_id('output')).not_to_contain_text('restarted')
    # The same interpreter: no second start, and no fresh Python for the next run (the loop kept to its namespace).
    type_program(page, 'print("same Python")\n')
    section = run(page)
    expect(section.locator('pre.stdout')).to_have_text('same Python\n')
    expect(section).not_to_contain_text('A fresh Python')
    assert page.evaluate("performance.getEntriesByName('python-ready').length") == 1


def publish_a_new_build(site, tmp_path, live):
    """Deploys version 2 the way a deploy should: the server's folder is a link that switches from one whole
    build to the next. Rewritten in place, the browser's own update check (seconds after a navigation) could
    fetch sw.js while its .gz was still the old one, and the update was missed."""
    folder = tmp_path / 'version-2'
    shutil.copytree(site, folder)
    index = folder / 'index.html'
    index.write_text(
        index.read_text().replace('<title>Backprop Playground</title>', '<title>Backprop Playground 2</title>')
    )
    example = folder / 'examples' / 'accumulation.py'  # fetched: the first example is in the page's bundle
    example.write_text('# version 2\n' + example.read_text())
    service_worker.bundle_service_worker(Output(folder))
    compress.compress(folder)
    (tmp_path / 'next').symlink_to(folder, target_is_directory=True)
    (tmp_path / 'next').replace(live)


def offered(page):
    page.evaluate('navigator.serviceWorker.getRegistration().then((r) => r.update())')
    expect(page.get_by_test_id('update')).to_contain_text('A new version is ready', timeout=STARTUP_TIMEOUT_MS)
    assert page.title() == 'Backprop Playground', 'the page switched under the learner'
    return page.get_by_test_id('update').get_by_role('button', name='Reload')


@pytest.fixture
def live(site, tmp_path):
    """A server whose folder is a link to the site, ready to be switched to a new build. (link, URL)"""
    link = tmp_path / 'live'
    link.symlink_to(site, target_is_directory=True)
    server, url = serve_folder(link)
    yield link, url
    server.shutdown()


def test_a_new_build_is_offered_and_then_served_whole(page, site, tmp_path, live):
    link, url = live
    controlled(first_visit(page, url))
    publish_a_new_build(site, tmp_path, link)
    offered(page).click()
    expect(page).to_have_title('Backprop Playground 2', timeout=STARTUP_TIMEOUT_MS)
    expect(page.get_by_test_id('status')).to_have_attribute('data-state', 'ready', timeout=STARTUP_TIMEOUT_MS)
    page.get_by_test_id('examples').select_option('accumulation.py')
    expect(page.get_by_test_id('editor').locator('.cm-line').first).to_have_text('# version 2')
    old_entries = page.evaluate('''async () => {
        const keys = [];
        for (const name of await caches.keys()) for (const r of await (await caches.open(name)).keys()) keys.push(r.url);
        return keys.filter((k) => k.includes('index.html'));
    }''')
    assert len(old_entries) == 1, f"the old build's files were kept: {old_entries}"


# Chromium hands the site to the new worker once the old one has no request left to answer, and looks again
# only when a page or worker starts loading. A page that had just fetched (here Python, as its start does for
# seconds) was left on the old build for minutes.
KEEP_FETCHING = """import js, time
url = js.location.origin + '/examples/neuron.py'
print('fetching')
while True:
    request = js.XMLHttpRequest.new()
    request.open('GET', url, False)
    request.send()
    time.sleep(0.02)
"""


# What the update toast says, kept across the reload it leads to.
TOAST_TEXTS = """new MutationObserver(() => {
  const toast = document.querySelector('[data-testid="update"]');
  const said = JSON.parse(sessionStorage.getItem('toast') || '[]');
  if (toast && !said.includes(toast.textContent)) sessionStorage.setItem('toast', JSON.stringify([...said, toast.textContent]));
}).observe(document, { childList: true, subtree: true, characterData: true });
"""


def test_a_new_build_takes_over_while_the_page_keeps_fetching(page, site, tmp_path, live):
    link, url = live
    page.add_init_script(TOAST_TEXTS)
    controlled(first_visit(page, url))
    publish_a_new_build(site, tmp_path, link)
    reload = offered(page)
    type_program(page, KEEP_FETCHING)
    page.get_by_test_id('run').click()
    expect(page.get_by_test_id('output')).to_contain_text('fetching', timeout=STARTUP_TIMEOUT_MS)
    reload.click()
    expect(page).to_have_title('Backprop Playground 2', timeout=STARTUP_TIMEOUT_MS)
    assert page.evaluate("JSON.parse(sessionStorage.getItem('toast'))") == [
        'A new version is ready: Reload',
        'Switching to the new version… Reload',
    ]


def test_the_site_works_under_a_sub_path(page, site, tmp_path):
    (tmp_path / 'courses').mkdir()
    (tmp_path / 'courses' / 'backprop').symlink_to(site, target_is_directory=True)
    server, url = serve_folder(tmp_path)
    try:
        sub = url + 'courses/backprop/'
        first_visit(page, sub)
        type_program(page, "draw_dot(Value(3.0, label='deep'))\n")
        expect(run(page).locator('svg')).to_contain_text('deep')
    finally:
        server.shutdown()


def test_a_page_opened_from_a_file_says_what_to_run_instead(page, site):
    page.goto((site / 'index.html').as_uri())
    expect(page.get_by_test_id('file-warning')).to_contain_text('python build.py serve', timeout=1000)
    expect(page.get_by_test_id('status')).to_have_attribute('data-state', 'error')


def test_the_classroom_zip_unpacks_to_a_site_that_boots(page, site, tmp_path):
    archive = zip_site()
    with zipfile.ZipFile(archive) as opened:
        opened.extractall(tmp_path)
    handler = functools.partial(http.server.SimpleHTTPRequestHandler, directory=str(tmp_path / 'backprop-playground'))
    handler.log_message = lambda *args: None
    server = http.server.ThreadingHTTPServer(('127.0.0.1', 0), handler)
    in_a_thread(server)
    try:
        open_playground(page, f"http://127.0.0.1:{server.server_address[1]}/")
        type_program(page, 'print("from the stick")\n')
        expect(run(page).locator('pre.stdout')).to_have_text('from the stick\n')
    finally:
        server.shutdown()
