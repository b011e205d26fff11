"""One booted main page lent to the tests of a file, as pytest-pyodide's `selenium_module_scope` boots one page
per module and its `selenium` fixture lends it to each test (tests/conftest.py: `playground`; a test that
needs a page of its own asks for `fresh_playground`).

The page promises that one Run cannot change the next; what a test can leave behind that the next would feel
is checked after each test, inside the test's own call (conftest.pytest_runtest_call), as Pyodide's
conftest fails a test that leaked: `leftovers()` names each such thing. Between tests the output is cleared
with the page's Clear button. A page whose test failed, or that left something, is closed and the next test
gets a new one.
"""
from playwright.sync_api import expect

from . import STARTUP_TIMEOUT_MS, block_the_network
from .pages import open_playground

# A program run on the page's session (not through the cell: no output) that says what a fresh namespace
# holds, what builtins has and which named envs keep a namespace: a name left in any is seen by later runs.
PROBE = ("import builtins, playground_runtime.runner as runner\n"
         "print(sorted(globals()), sorted(vars(builtins)), sorted(runner.ENVS))")
PROBE_TIMEOUT_MS = 20_000
VERDICT_TIMEOUT_MS = 15_000  # the page's own limit for a run's verdict is 10 s (python-client.js, SETTLE_TIMEOUT_MS)


class SharedPlayground:
    """The main page in a browser context of its own, booted on first use, reset between tests."""

    def __init__(self, browser, context_args, url, alone=False):
        self.browser, self.context_args, self.url, self.alone = browser, context_args, url, alone
        self.context = self.page = None
        self.attempts = []
        self.spoiled = False
        self.boots = 0
        self.probe_timeout_ms = PROBE_TIMEOUT_MS

    def lend(self):
        if self.page is None or self.page.is_closed() or self.spoiled or self.alone:
            self.close()
            self.context = self.browser.new_context(**self.context_args)
            self.attempts = block_the_network(self.context)
            self.page = self.context.new_page()
            self.page.on('crash', lambda page: setattr(self, 'spoiled', True))
            open_playground(self.page, self.url)
            self.boots += 1
            self.fresh_state = self.probe()
            self.viewport = self.page.viewport_size
        else:
            self.page.get_by_test_id('clear').click()
            expect(self.page.get_by_test_id('output').locator('section.run')).to_have_count(0)
            self.page.evaluate('performance.clearMarks()')  # a test reads the marks of its own runs
        self.handlers = handlers(self.page, self.context)
        return self.page

    def probe(self):
        """What PROBE prints, or None when Python does not answer (its worker died)."""
        return self.page.evaluate('''async ([code, timeout]) => {
            const printed = [];
            const ran = window.playground.session.run({ code, env: null }, (event) => {
                if (event.type === "stdout") printed.push(event.text);
            }).then(() => printed.join(""), (error) => `the probe failed: ${error}`);
            return Promise.race([ran, new Promise((resolve) => setTimeout(() => resolve(null), timeout))]);
        }''', [PROBE, self.probe_timeout_ms])

    def leftovers(self):
        """What the test left on the page that the next test would feel, one sentence each (empty: nothing)."""
        page, found = self.page, []
        if page.is_closed():
            return ['the page was closed']
        # A run that used `js` ends with its Python, and the page starts a fresh one: that is the page's own
        # recovery, not a leftover, so let it finish (a run still going is one). The page decides it on the
        # run's verdict, which comes after the output the test saw: that is waited for first.
        page.evaluate('''async ([timeout, verdictTimeout]) => {
            const { session, cell } = window.playground;
            const deadline = Date.now() + timeout;
            if (!cell.busy) {
                await Promise.race([session.python.settled, new Promise((resolve) => setTimeout(resolve, verdictTimeout))]);
            }
            while (!cell.busy && session.state.phase === "loading" && Date.now() < deadline) {
                await new Promise((resolve) => setTimeout(resolve, 50));
            }
        }''', [STARTUP_TIMEOUT_MS, VERDICT_TIMEOUT_MS])
        if self.attempts:
            found.append(f'a request that left this machine: {self.attempts}')
        if page.viewport_size != self.viewport:
            found.append(f'the window resized to {page.viewport_size} (lent at {self.viewport})')
        if handlers(page, self.context) != self.handlers:
            found.append(f'a route or an event listener added to the page or its context: '
                         f'{handlers(page, self.context)} (before: {self.handlers})')
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
                found.append(f'Python did not answer within {self.probe_timeout_ms} ms: a run still going, or its worker died')
            elif now != self.fresh_state:
                found.append(f'a name left in a namespace (fresh, builtins or a named env): {now} (at first: {self.fresh_state})')
        return found

    def give_back(self, failed):
        """After a test: checks it (when it passed) and returns what it left; a failed or leaky test spoils the page."""
        found = [] if failed else self.leftovers()
        self.spoiled = self.spoiled or failed or bool(found)
        return found

    def close(self):
        if self.context:
            self.context.close()
        self.context = self.page = None
        self.spoiled = False


def handlers(page, context):
    """The routes and event listeners on the page and its context (Playwright keeps them on its own objects)."""
    def listeners(impl):
        return {event: len(impl.listeners(event)) for event in impl.event_names()}
    return {'page routes': len(page._impl_obj._routes), 'context routes': len(context._impl_obj._routes),
            'page listeners': listeners(page._impl_obj), 'context listeners': listeners(context._impl_obj)}
