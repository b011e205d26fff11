"""One booted main page lent to the tests of a worker, as pytest-pyodide's `selenium_module_scope` boots one page
per module and its `selenium` fixture lends it to each test (tests/conftest.py: `playground`, booted once per
worker for every file it runs; a test that needs a page of its own asks for `fresh_playground`).

The page promises that one Run cannot change the next; what a test can leave behind that the next would feel
is checked after each test, inside the test's own call (conftest.pytest_runtest_call), as Pyodide's
conftest fails a test that leaked: `leftovers()` names each such thing. Between tests the output is cleared
with the page's Clear button. A page whose test failed, or that left something, is closed and the next test
gets a new one.
"""

from operator import attrgetter
from urllib.parse import urlsplit

from playwright.sync_api import expect

from . import STARTUP_TIMEOUT_MS, block_the_network
from .pages import open_playground

# A program run on the page's session (not through the cell: no output) that says what a fresh namespace
# holds, what builtins has and which named envs keep a namespace: a name left in any is seen by later runs.
PROBE = (
    "import builtins, playground_runtime.runner as runner\n"
    "print(sorted(globals()), sorted(vars(builtins)), sorted(runner.ENVS))"
)
PROBE_TIMEOUT_MS = 20_000
VERDICT_TIMEOUT_MS = 15_000  # the page's own limit for a run's verdict is 10 s (python-client.js, SETTLE_TIMEOUT_MS)


class Lent:
    """A browser context and its one page, lent to tests one after another until one spoils them."""

    def __init__(self, browser, context_args, alone):
        self.browser, self.context_args, self.alone = browser, context_args, alone
        self.context = self.page = None
        self.attempts = []
        self.spoiled = False

    def open(self):
        """A new context, the network blocked, and its page, in place of the last."""
        self.close()
        self.context = self.browser.new_context(**self.context_args)
        self.attempts = block_the_network(self.context)
        self.page = self.context.new_page()
        self.page.on('crash', lambda page: setattr(self, 'spoiled', True))
        self.viewport = self.page.viewport_size

    def close(self):
        if self.context:
            self.context.close()
        self.context = self.page = None
        self.spoiled = False


class SharedPlayground(Lent):
    """The main page in a browser context of its own, booted on first use, reset between tests."""

    def __init__(self, browser, context_args, url, alone=False):
        super().__init__(browser, context_args, alone)
        self.url = url
        self.boots = 0
        self.probe_timeout_ms = PROBE_TIMEOUT_MS
        self.verdict_timeout_ms = VERDICT_TIMEOUT_MS

    def lend(self):
        if self.page is None or self.page.is_closed() or self.spoiled or self.alone:
            self.open()
            open_playground(self.page, self.url)
            self.boots += 1
            self.fresh_state = self.probe()
            self.permissions = permissions(self.page)
        else:
            self.attempts.clear()  # the proxy's lines of the tests between (a tab's of its own, say) are theirs
            self.page.get_by_test_id('clear').click()
            expect(self.page.get_by_test_id('output').locator('section.run')).to_have_count(0)
            self.page.evaluate('performance.clearMarks()')  # a test reads the marks of its own runs
        self.handlers = handlers(self.page, self.context)
        return self.page

    def probe(self):
        """What PROBE prints, or None when Python does not answer (its worker died)."""
        return self.page.evaluate(
            '''async ([code, timeout]) => {
            const printed = [];
            const ran = window.playground.session.run({ code, env: null }, (event) => {
                if (event.type === "stdout") printed.push(event.text);
            }).then(() => printed.join(""), (error) => `the probe failed: ${error}`);
            return Promise.race([ran, new Promise((resolve) => setTimeout(() => resolve(null), timeout))]);
        }''',
            [PROBE, self.probe_timeout_ms],
        )

    def leftovers(self):
        """What the test left on the page that the next test would feel, one sentence each (empty: nothing)."""
        page, found = self.page, []
        if page.is_closed():
            return ['the page was closed']
        # A run that used `js` ends with its Python, and the page starts a fresh one: that is the page's own
        # recovery, not a leftover, so let it finish (a run still going is one). The page decides it on the
        # run's verdict, which comes after the output the test saw: that is waited for first.
        page.evaluate(
            '''async ([timeout, verdictTimeout]) => {
            const { session, cell } = window.playground;
            const deadline = Date.now() + timeout;
            if (!cell.busy) {
                await Promise.race([session.python.settled, new Promise((resolve) => setTimeout(resolve, verdictTimeout))]);
            }
            while (!cell.busy && session.state.phase === "loading" && Date.now() < deadline) {
                await new Promise((resolve) => setTimeout(resolve, 50));
            }
        }''',
            [STARTUP_TIMEOUT_MS, self.verdict_timeout_ms],
        )
        if self.attempts:
            found.append(f'a request that left this machine: {self.attempts}')
        if page.viewport_size != self.viewport:
            found.append(f'the window resized to {page.viewport_size} (lent at {self.viewport})')
        granted, added = permissions(page), handlers(page, self.context)
        if granted != self.permissions:
            found.append(f'permissions granted: {granted} (at first: {self.permissions})')
        if added != self.handlers:
            found.append(
                f'a route or an event listener added to the page or its context: {added} (before: {self.handlers})'
            )
        state = page.evaluate('''() => ({
            status: document.querySelector('[data-testid=status]').dataset.state,
            phase: window.playground.session.state.phase,
            busy: window.playground.cell.busy,
            points: window.playground.cell.points.get(),
            shown: [...document.querySelectorAll('[data-testid=share-panel], [data-testid=notice], dialog, [role=dialog]')]
                .filter((e) => e.checkVisibility()).map((e) => e.dataset.testid || e.tagName.toLowerCase()),
        })''')
        if state['busy'] or state['status'] in ('running', 'loading'):
            found.append(f"a run still going or Python restarting (status {state['status']})")
        if state['phase'] != 'ready':
            found.append(f"Python is not ready (its phase is {state['phase']}): its worker died or failed")
        if state['shown']:
            found.append(f"an open panel, notice or dialog: {state['shown']}")
        if state['points']:
            found.append(f"the learner's points kept for the next run: {state['points']}")
        if not found:
            now = self.probe()
            if now is None:
                found.append(
                    f'Python did not answer within {self.probe_timeout_ms} ms: a run still going, or its worker died'
                )
            elif now != self.fresh_state:
                found.append(
                    f'a name left in a namespace (fresh, builtins or a named env): {now} (at first: {self.fresh_state})'
                )
        return found

    def give_back(self, failed):
        """After a test: checks it (when it passed) and returns what it left; a failed or leaky test spoils the page."""
        found = [] if failed else self.leftovers()
        self.spoiled = self.spoiled or failed or bool(found)
        return found


# What a test may grant the page's context (Playwright's grant_permissions) that the page can read back.
PERMISSIONS = ['clipboard-read', 'clipboard-write', 'geolocation', 'notifications', 'camera', 'microphone']


def permissions(page):
    """The state of each of PERMISSIONS, as the page's navigator.permissions gives it."""
    return page.evaluate(
        '''(names) => Promise.all(names.map((name) =>
        navigator.permissions.query({ name }).then((status) => `${name}: ${status.state}`, () => `${name}: unknown`)))''',
        PERMISSIONS,
    )


def handlers(page, context):
    """The routes and event listeners on the page and its context (Playwright keeps them on its own objects)."""

    def listeners(impl):
        return {event: len(impl.listeners(event)) for event in impl.event_names()}

    return {
        'page routes': len(page._impl_obj._routes),
        'context routes': len(context._impl_obj._routes),
        'page listeners': listeners(page._impl_obj),
        'context listeners': listeners(context._impl_obj),
    }


# What a test may change on a lent tab that the next test would feel and that cannot be read back or undone:
# calling any of these spoils the tab, and the next test gets a new context.
LASTING = {
    'context': [
        'add_init_script',
        'expose_binding',
        'expose_function',
        'set_offline',
        'set_extra_http_headers',
        'set_geolocation',
        'set_default_timeout',
        'set_default_navigation_timeout',
        'add_cookies',
        'set_storage_state',
        'route_from_har',
        'route_web_socket',
    ],
    'page': [
        'add_init_script',
        'expose_binding',
        'expose_function',
        'set_extra_http_headers',
        'add_locator_handler',
        'set_default_timeout',
        'set_default_navigation_timeout',
        'route_from_har',
        'route_web_socket',
    ],
    # Playwright's clock, once installed, stays for the context's life (each of these installs it).
    'context.clock': ['install', 'fast_forward', 'pause_at', 'resume', 'run_for', 'set_fixed_time', 'set_system_time'],
}
BLANK_TIMEOUT_MS = 10_000


class SharedTab(Lent):
    """One browser tab lent to each test of a file that asks for `page` (or `context`), where each would open a
    new context: each test's page navigates the same tab, so the browser keeps its renderer process and the
    runtime it compiled there (measured: a Python boot in a fresh context about 5 s of processor time with its
    context, in the lent tab about 3.5 to 4 s).

    The test still sees what a new context shows it. After each test the tab goes to about:blank (the test's
    pages and their Pythons end), every other page of the context is closed, the storage of every origin it
    reached is cleared (local storage, IndexedDB, caches, cookies), the permissions granted are taken back, the
    window's size and emulated media are set back. What cannot be set back spoils the tab: a route or an event
    listener added to the page or its context, a call that changes them for good (LASTING), a crash, a page
    that will not leave. A spoiled tab is closed and the next test gets a new one; a test that failed spoils it
    too. A test with context arguments of its own (a `browser_context_args` mark) gets a context of its own."""

    def __init__(self, browser, context_args, alone=False):
        super().__init__(browser, context_args, alone)
        self.contexts = 0

    def lend(self):
        if self.context is None or self.spoiled or self.alone:
            self.open()
            self.origins = set()
            self.context.on('request', lambda request: self.origins.add(origin_of(request.url)))
            self.cdp = self.context.new_cdp_session(self.page)
            for owner, names in LASTING.items():
                target = attrgetter(owner)(self)
                for name in names:
                    setattr(target, name, self.spoiling(getattr(target, name)))
            self.contexts += 1
        self.attempts.clear()
        self.handlers = handlers(self.page, self.context)
        return self.context

    def spoiling(self, method):
        def call(*args, **kwargs):
            self.spoiled = True
            return method(*args, **kwargs)

        return call

    def give_back(self, failed):
        """Sets the tab back for the next test, or spoils it. Returns the requests that left this machine."""
        if failed or self.spoiled or self.page.is_closed():
            return self.discard()
        try:
            for other in self.context.pages:
                if other != self.page:
                    other.close()
            self.page.goto('about:blank', timeout=BLANK_TIMEOUT_MS)
            if handlers(self.page, self.context) != self.handlers:
                return self.discard()
            for origin in self.origins - {None}:
                self.cdp.send('Storage.clearDataForOrigin', {'origin': origin, 'storageTypes': 'all'})
            self.origins.clear()
            self.context.clear_permissions()
            self.context.clear_cookies()
            if self.page.viewport_size != self.viewport:
                self.page.set_viewport_size(self.viewport)
            self.page.emulate_media(
                media='null', color_scheme='null', reduced_motion='null', forced_colors='null', contrast='null'
            )
        except Exception:
            return self.discard()
        return list(self.attempts)  # read last: a request made as the test's pages left counts

    def discard(self):
        """Spoils the tab and closes its context now, as a test's own context closed after it: its pages and their
        Pythons must not run on beside the next test. Returns the requests that left this machine."""
        self.close()
        self.spoiled = True
        return list(self.attempts)


def origin_of(url):
    parts = urlsplit(url)
    return f"{parts.scheme}://{parts.netloc}" if parts.scheme in ('http', 'https') else None
