"""Fixtures for every folder of tests/: the built site and its servers, Chromium's settings for the
Playwright pages, other origins, and an nbgrader course. Helpers are in support/ (on pytest's pythonpath)."""

import os
import subprocess
import sys
import time
from pathlib import Path

import pytest
from playwright.sync_api import expect

from support import suite_clock

suite_clock.install()  # before the helpers below are imported: they are timed where they start things

from backprop_playground.paths import DIST  # noqa: E402
from backprop_playground.steps import build  # noqa: E402
from support import CALL_FAILED, LAN_HOST, ROOT, block_the_network, files_of  # noqa: E402
from support.assignment import make_course  # noqa: E402
from support.cdn import CDN, installed, installed_package  # noqa: E402
from support.course import IDS  # noqa: E402
from support.guard import chromium_proxy_args  # noqa: E402
from support.made_once import made_once, run_folder  # noqa: E402
from support.pages import open_playground, seen_requests  # noqa: E402
from support.servers import serving, static_origin, stop  # noqa: E402
from support.shared_page import SharedPlayground, SharedTab  # noqa: E402
from support.suite_clock import pytest_configure, pytest_runtest_protocol, pytest_runtest_setup, pytest_runtest_teardown  # noqa: E402,F401

DEBIAN_CHROMIUM = '/usr/bin/chromium'


def pytest_xdist_auto_num_workers(config):
    # Most of a browser test is the browser's own CPU: two workers on two cores finish the suite in about
    # 0.7 of one worker's time here, and a third fills the time the others wait (for a server, a subprocess, a
    # fixed wait: two kept the cores 1.73 busy, three 1.83; 611 s against 574 s in full runs an hour apart);
    # past four, Pyodide's boots only queue for the same cores.
    return max(1, min((os.cpu_count() or 1) + 1, 4))


def pytest_addoption(parser):
    suite_clock.add_options(parser)
    parser.addoption(
        '--reverse',
        action='store_true',
        help='run the tests in reverse order (a file whose tests share a page passes so too)',
    )
    parser.addoption(
        '--alone',
        action='store_true',
        help='give each test that would share the main page one of its own, as if it ran alone',
    )


# The folders in the order their files are handed to pytest-xdist's workers (pyproject.toml's
# `--no-loadscope-reorder`: in the order collected): the long browser files first, so that the last files either
# worker takes are short ones and neither waits long for the other at the end. xdist's own order, the files with
# the most tests first, left the few long ones last (test_in_pyodide, test_room_coursework, test_wheel): one
# worker waited 20 to 25 s for the other.
FIRST_TO_LAST = ['engines', 'pages', 'wheel', 'site', 'server', 'runtime', 'formats', 'engine', 'notebooks', 'data']


def handed_out_before(item):
    parts = item.path.relative_to(ROOT / 'tests').parts
    return FIRST_TO_LAST.index(parts[0]) if len(parts) > 1 and parts[0] in FIRST_TO_LAST else len(FIRST_TO_LAST)


def pytest_collection_modifyitems(config, items):
    items.sort(key=handed_out_before)  # stable: a file's tests keep their order
    if config.getoption('--reverse'):
        items.reverse()


def pytest_sessionfinish(session, exitstatus):
    # A run that collected no tests proves nothing: make it fail rather than pass quietly.
    if exitstatus == pytest.ExitCode.NO_TESTS_COLLECTED:
        session.exitstatus = pytest.ExitCode.TESTS_FAILED


# The site.

BUILT = 'BACKPROP_PLAYGROUND_TESTS_BUILT'  # set by the controller once it built, for its workers


@pytest.hookimpl(tryfirst=True)
def pytest_sessionstart(session):
    """With pytest-xdist's workers, the controller builds dist/ once before it starts them (they would each ask
    for it); only the engine's own tests need no build."""
    config = session.config
    if hasattr(config, 'workerinput') or not getattr(config.option, 'numprocesses', None):
        return
    if config.args and all(
        Path(arg.split('::')[0]).resolve().is_relative_to(ROOT / 'tests' / 'engine') for arg in config.args
    ):
        return
    started = time.perf_counter()
    build()
    suite_clock.built_before_workers(config, time.perf_counter() - started)
    os.environ[BUILT] = str(DIST)


@pytest.fixture(scope='session')
def site():
    """dist/, built once per test session from the working tree (by the controller, when there are workers)."""
    if os.environ.get(BUILT) != str(DIST):
        build()
    return DIST


@pytest.fixture(scope='session')
def site_url(site):
    """The site as `python build.py serve` sends it: cross-origin isolated, so Stop interrupts Python."""
    server, url = serving(isolated=True)
    yield url
    stop(server)


@pytest.fixture(scope='session')
def lan_site_url(site_url):
    """The same server as site_url, as a learner's laptop reaches it: by a LAN name over plain HTTP."""
    return site_url.replace('127.0.0.1', LAN_HOST)


@pytest.fixture(scope='session')
def plain_site_url(site):
    """The site as a plain static host sends it: no COOP/COEP headers, so Stop must restart Python."""
    server, url = serving(isolated=False)
    yield url
    stop(server)


@pytest.fixture(scope='session')
def other_origin(tmp_path_factory):
    """A plain static server on another port: another origin, like a blog's. (folder, URL)"""
    folder = tmp_path_factory.mktemp('blog')
    server, url = static_origin(folder)
    yield folder, url
    stop(server)


@pytest.fixture(scope='session')
def cors_origin(tmp_path_factory):
    """A static server on another port that sends CORS headers, as GitHub's raw files do. (folder, URL)"""
    folder = tmp_path_factory.mktemp('lectures')
    server, url = static_origin(folder, cors=True)
    yield folder, url
    stop(server)


@pytest.fixture(scope='session')
def cdn_package(site, tmp_path_factory):
    """`python build.py package`'s tarball as `npm install` unpacked it, made once per run (npm packs and unpacks
    about 50 MB: 7 s of processor time): (folder, package.json)."""
    folder, _ = made_once(run_folder(tmp_path_factory), 'npm', installed_package)
    return installed(folder)


@pytest.fixture(scope='session')
def cdn(cdn_package):
    """The package on a stand-in for jsDelivr (support/cdn.py), on an origin of its own; `cdn.embed` is the
    script line's URL without its query."""
    folder, info = cdn_package
    server = CDN({f"{info['name']}@{info['version']}": folder})
    server.embed = server.package_url(f"{info['name']}@{info['version']}") + 'embed.js'
    yield server
    server.stop()


# Chromium, for the pages.


@pytest.fixture(scope='session')
def browser_type_launch_args(browser_type_launch_args):
    args = [
        '--no-sandbox',
        '--disable-gpu',
        '--disable-background-networking',
        '--disable-component-update',
        '--disable-sync',
        '--no-first-run',
        f'--host-resolver-rules=MAP {LAN_HOST} 127.0.0.1',
        *chromium_proxy_args(),  # every request that leaves this machine is refused (support/guard.py)
        '--js-flags=--liftoff-only',  # WebAssembly's first tier only (docs/development.md, "First tier")
    ]
    if os.path.exists(DEBIAN_CHROMIUM):
        return {**browser_type_launch_args, 'executable_path': DEBIAN_CHROMIUM, 'args': args}
    # A laptop without Debian's Chromium: Playwright's own browser, fetched once if it is missing.
    subprocess.run([sys.executable, '-m', 'playwright', 'install', 'chromium'], check=True)
    return {**browser_type_launch_args, 'args': args}


@pytest.fixture(scope='session')
def browser_context_args(browser_context_args):
    # Without the service worker unless a test asks for it (support.SERVICE_WORKER says why).
    return {**browser_context_args, 'service_workers': 'block'}


@pytest.fixture(scope='module')
def shared_tab(browser, browser_context_args, pytestconfig):
    """The tab that a file's tests each navigate (support/shared_page.py, SharedTab), made on first use."""
    tab = SharedTab(browser, browser_context_args, alone=pytestconfig.getoption('--alone'))
    yield tab
    tab.close()


@pytest.fixture
def context(request, new_context, shared_tab):
    """The lent tab's context (`page` is its tab), or for a test with context arguments of its own a new one. Every
    request that leaves this machine is blocked, and any attempt fails the test."""
    if request.node.get_closest_marker('browser_context_args'):
        context = new_context()
        attempts = block_the_network(context)
        yield context
    else:
        context = shared_tab.lend()
        yield context
        attempts = shared_tab.give_back(failed=request.node.stash.get(CALL_FAILED, True))
    assert attempts == [], f"the page tried to reach the network: {attempts}"


@pytest.fixture
def page(context, shared_tab):
    return shared_tab.page if context is shared_tab.context else context.new_page()


@pytest.hookimpl(wrapper=True)
def pytest_runtest_makereport(item, call):
    report = yield
    if report.when == 'setup':
        item.stash[CALL_FAILED] = True  # until the call says otherwise (a rerun's set-up may fail)
    if report.when == 'call':
        item.stash[CALL_FAILED] = report.failed or hasattr(report, 'wasxfail')
    return report


@pytest.fixture(scope='session')
def shared_playground(browser, browser_context_args, site_url, pytestconfig):
    """The main page booted once per worker, lent by `playground` to each test that asks for it, from every file
    the worker runs (the check after each test is the same within a file and across files)."""
    shared = SharedPlayground(browser, browser_context_args, site_url, alone=pytestconfig.getoption('--alone'))
    yield shared
    shared.close()


@pytest.fixture
def playground(shared_playground):
    """The main page with Python ready, shared with the worker's other tests: its output cleared, and after the
    test a check (pytest_runtest_call) that it left nothing the next test would feel."""
    return shared_playground.lend()


@pytest.fixture
def fresh_playground(page, site_url):
    """The main page with Python ready, opened as a new page: for a test that reloads it, crashes it, reads
    its first state or needs its context (permissions, routes). It is the file's lent tab (`page`), which the
    test sees as a new context."""
    return open_playground(page, site_url)


@pytest.hookimpl(wrapper=True)
def pytest_runtest_call(item):
    """A test that borrowed the shared page fails, in its own call, if it left anything the next would feel."""
    shared = item.funcargs.get('shared_playground') if 'playground' in item.fixturenames else None
    try:
        result = yield
    except BaseException:
        if shared:
            shared.give_back(failed=True)
        raise
    if shared:
        found = shared.give_back(failed=False)
        assert not found, 'the test left the shared page with: ' + '; '.join(found)
    return result


@pytest.fixture
def course_page(page, site_url):
    """course.html with its exercises shown."""
    page.goto(site_url + 'course.html')
    expect(page.get_by_test_id('exercise')).to_have_count(len(IDS))
    return page


@pytest.fixture
def requests(context):
    """The URL of every request the pages of the context make, as they make them."""
    with seen_requests(context) as seen:
        yield seen


# nbgrader.

STUDENTS = ['untouched', 'right', 'wrong_tanh', 'from_source']  # the students test_assignments hands in as


@pytest.fixture(scope='module')
def nbgrader_course(tmp_path_factory):
    """An nbgrader course of the file's own (its tests hand in and autograde there)."""
    return make_course(tmp_path_factory.mktemp('course'), STUDENTS)


@pytest.fixture(scope='session')
def made_release(tmp_path_factory):
    """nbgrader_release's course, made once per run (a worker that runs no other nbgrader command then starts
    none): the release's path, and the course's files as they were made."""
    course, made = made_once(run_folder(tmp_path_factory), 'release', lambda folder: make_course(folder, STUDENTS))
    return course / 'release' / 'ps1' / 'assignment.ipynb', made


@pytest.fixture
def nbgrader_release(made_release):
    """ps1's release notebook, as `nbgrader generate_assignment` makes it, shared by the run's tests that only
    read it: a test that changed its course fails."""
    release, made = made_release
    yield release
    assert files_of(release.parents[2]) == made, "the test changed the shared nbgrader course"
