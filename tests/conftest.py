import os
import subprocess
import sys
import threading
import time
from pathlib import Path
from urllib.parse import urlparse

import pytest

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

import build  # noqa: E402

DEBIAN_CHROMIUM = '/usr/bin/chromium'
STARTUP_TIMEOUT_MS = 90_000  # boot of Pyodide on a slow, busy machine
RUN_TIMEOUT_MS = 60_000
LOCAL_HOSTS = {'127.0.0.1', 'localhost'}


def pytest_xdist_auto_num_workers(config):
    # Most of a browser test is the browser's own CPU: two workers on two cores finish the suite in about
    # 0.7 of one worker's time here; past four, Pyodide's boots only queue for the same cores.
    return max(1, min(os.cpu_count() or 1, 4))


def pytest_sessionfinish(session, exitstatus):
    # A run that collected no tests proves nothing: make it fail rather than pass quietly.
    if exitstatus == pytest.ExitCode.NO_TESTS_COLLECTED:
        session.exitstatus = pytest.ExitCode.TESTS_FAILED


@pytest.fixture(scope='session')
def site():
    """dist/, built once per test session from the working tree."""
    build.build()
    return build.DIST


def _serve(isolated):
    server = build.make_server(port=0, isolated=isolated)
    threading.Thread(target=server.serve_forever, daemon=True).start()
    return server


@pytest.fixture(scope='session')
def site_url(site):
    """The site as `python build.py serve` sends it: cross-origin isolated, so Stop interrupts Python."""
    server = _serve(isolated=True)
    yield f"http://127.0.0.1:{server.server_address[1]}/"
    server.shutdown()
    server.server_close()


@pytest.fixture(scope='session')
def plain_site_url(site):
    """The site as a plain static host sends it: no COOP/COEP headers, so Stop must restart Python."""
    server = _serve(isolated=False)
    yield f"http://127.0.0.1:{server.server_address[1]}/"
    server.shutdown()
    server.server_close()


@pytest.fixture(scope='session')
def browser_type_launch_args(browser_type_launch_args):
    args = ['--no-sandbox', '--disable-gpu', '--disable-background-networking', '--disable-component-update',
            '--disable-sync', '--no-first-run']
    if os.path.exists(DEBIAN_CHROMIUM):
        return {**browser_type_launch_args, 'executable_path': DEBIAN_CHROMIUM, 'args': args}
    # A laptop without Debian's Chromium: Playwright's own browser, fetched once if it is missing.
    subprocess.run([sys.executable, '-m', 'playwright', 'install', 'chromium'], check=True)
    return {**browser_type_launch_args, 'args': args}


# The service worker fetches and hashes the whole build (55 MB) after ready: about 1.4 s of CPU per fresh
# page here, which every other test on the machine pays for. Chromium pages run without it; the tests of
# offline use, the second visit and what the worker sends ask for it with this mark (WebKit and Firefox
# always have it). A first visit's page is never controlled by the worker, so nothing else depends on it.
SERVICE_WORKER = pytest.mark.browser_context_args(service_workers='allow')


@pytest.fixture(scope='session')
def browser_context_args(browser_context_args):
    return {**browser_context_args, 'service_workers': 'block'}


@pytest.fixture
def context(context):
    """Every request that leaves this machine is blocked, and any attempt fails the test."""
    attempts = []

    def route(route):
        if urlparse(route.request.url).hostname in LOCAL_HOSTS or route.request.url.startswith(('data:', 'blob:', 'file:')):
            route.continue_()
        else:
            attempts.append(route.request.url)
            route.abort()

    context.route('**/*', route)
    context.set_default_timeout(RUN_TIMEOUT_MS)
    yield context
    assert attempts == [], f"the page tried to reach the network: {attempts}"



def wait_until(page, expression, timeout_ms=30_000):
    """page.wait_for_function, without its polling: when the first check fails, Playwright polls with
    eval() inside the page, which the playground's Content-Security-Policy refuses (EvalError). Each
    page.evaluate here is DevTools' own evaluation, which the policy does not govern."""
    deadline = time.monotonic() + timeout_ms / 1000
    while not page.evaluate(expression):
        if time.monotonic() > deadline:
            raise AssertionError(f"timed out after {timeout_ms} ms waiting for {expression}")
        page.wait_for_timeout(50)
