"""What the tests share: the checkout's places, the timeouts, the classroom's LAN name, and small helpers.
Fixtures are in tests/conftest.py; page helpers in pages.py, servers in servers.py; the course, the
assignment and the learners' own Value classes in modules of their own. A test file imports from here,
never from another test file. This module imports nothing of the project: the engine's tests import it
inside Pyodide too (runtime/test_in_pyodide.py)."""

import hashlib
import re
import time
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[2]
STARTUP_TIMEOUT_MS = 90_000  # boot of Pyodide on a slow, busy machine
RUN_TIMEOUT_MS = 60_000
# A classroom's laptop as learners reach it: a name on the room's network, over plain HTTP, which browsers do
# not treat as secure (127.0.0.1 and localhost they do). Chromium resolves it to this machine through a
# host-resolver rule (conftest.browser_type_launch_args), Firefox through network.dns.localDomains, WebKit
# through the tests' relaying proxy (engines/smoke_cases.py).
LAN_HOST = 'classroom.lan'
LOCAL_HOSTS = {'127.0.0.1', 'localhost', LAN_HOST}
# The runtime's package: every frame of its own files names it in its path ("…/playground_runtime/runner.py"),
# so a learner's traceback that mentions it shows the runtime's frames (runtime/test_playground.py checks
# that the package is there under this name).
RUNTIME_PACKAGE = 'playground_runtime'

# The service worker fetches and hashes the whole build (41 MB) after ready: about 1.4 s of CPU per fresh
# page here, which every other test on the machine pays for. Chromium pages run without it; the tests of
# offline use, the second visit and what the worker sends ask for it with this mark (WebKit and Firefox
# always have it). A first visit's page is never controlled by the worker, so nothing else depends on it.
SERVICE_WORKER = pytest.mark.browser_context_args(service_workers='allow')

# Whether a test's call failed, in its item's stash (conftest.pytest_runtest_makereport): a browser it borrowed
# is then not lent again.
CALL_FAILED = pytest.StashKey[bool]()


# Every URL that does not stay on this machine: what a page asked of support/guard.py's proxy, which refuses it.
LEAVES = re.compile(
    r'^(?!(?:https?|wss?)://(?:%s)(?::\d+)?(?:[/?#]|$)|data:|blob:|file:)'
    % '|'.join(re.escape(host) for host in sorted(LOCAL_HOSTS)),
    re.IGNORECASE,
)
PYTHON_WORKER = re.compile(r'/session/python-worker\.js(?:[?#]|$)')


def block_the_network(context):
    """Watches a Playwright context of the tests' Chromium, whose requests that leave this machine go to the
    refusing proxy (support/guard.py): returns those it tried from now on (guard.Attempts: what its pages asked
    for, and what the proxy refused that was not Chromium's own). Counts the Python workers its pages start,
    for the suite's clock."""
    from .guard import Attempts
    from .suite_clock import count  # here: the engine's tests import this module inside Pyodide

    attempts = Attempts()

    def request(asked):
        if LEAVES.match(asked.url):
            attempts.asked.append(asked.url)

    def worker(started):
        if PYTHON_WORKER.search(started.url):
            count('Python workers')

    context.on('request', request)
    context.on('page', lambda page: page.on('worker', worker))
    context.set_default_timeout(RUN_TIMEOUT_MS)
    return attempts


def wait_until(page, expression, timeout_ms=30_000):
    """page.wait_for_function, without its polling: when the first check fails, Playwright polls with
    eval() inside the page, which the playground's Content-Security-Policy refuses (EvalError). Each
    page.evaluate here is DevTools' own evaluation, which the policy does not govern."""
    deadline = time.monotonic() + timeout_ms / 1000
    while not page.evaluate(expression):
        if time.monotonic() > deadline:
            raise AssertionError(f"timed out after {timeout_ms} ms waiting for {expression}")
        page.wait_for_timeout(50)


def files_of(folder):
    """Each file under `folder` (its path from there) and the SHA-256 of its bytes."""
    return {
        path.relative_to(folder).as_posix(): hashlib.sha256(path.read_bytes()).hexdigest()
        for path in sorted(folder.rglob('*'))
        if path.is_file()
    }
