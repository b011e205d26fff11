"""Where the suite's time goes, printed at the end of every run: the time of the tests by folder (set-up, call,
tear-down), the time spent starting things (browser launches, browser contexts, Python boots, builds, servers,
WebDriver sessions) and in fixed waits, the number of Python workers Chromium's pages started, each pytest-xdist worker's time outside any test, and the processor time
that each folder's and the costliest files' tests used (the test process with every process it started, the
browsers included): on two cores the suite waits for the processor, so that is what a shorter run must save.

Each process times what its tests start by wrapping the functions that start them (installed by
`install()`, which tests/conftest.py calls before it imports the helpers), and hands the figures to the
controller in each test's `user_properties`; what starts outside any test (the controller's build) is not
charged. `--suite-clock=FILE` also writes the table as JSON."""

import functools
import json
import os
import threading
import time
from collections import defaultdict

import pytest

KINDS = [
    'browser launches',
    'browser contexts',
    'Python boots',
    'Python workers',
    'builds',
    'servers started',
    'WebDriver sessions',
    'fixed waits',
]
PREFIX = 'suite-clock:'
COSTLIEST = 12  # files listed by processor time
SHORT_POLL_S = 0.1  # a sleep this short is a poll's interval, not a fixed wait
_current = {'item': None}


def _charge(kind, seconds):
    item = _current['item']
    if item is not None:
        item.user_properties.append((PREFIX + kind, seconds))


def count(kind):
    """One more of `kind` for the test running now, with no time of its own (a Chromium page's Python worker,
    seen by the test's network block as the request for its script: the page's first Python and each one after)."""
    _charge(kind, 0.0)


def timed(kind, function, only=None, any_thread=False):
    """`function`, with the time of each call charged to `kind` (only when `only(*args, **kwargs)` says so), when
    the test's own thread calls it (or any thread: a test may start a WebDriver session on one it waits for)."""

    @functools.wraps(function)
    def wrapper(*args, **kwargs):
        if (not any_thread and threading.current_thread() is not threading.main_thread()) or (
            only and not only(*args, **kwargs)
        ):
            return function(*args, **kwargs)
        started = time.perf_counter()
        try:
            return function(*args, **kwargs)
        finally:
            _charge(kind, time.perf_counter() - started)

    wrapper.suite_clock = True
    return wrapper


def wrap(owner, name, kind, only=None, any_thread=False):
    function = getattr(owner, name)
    if not getattr(function, 'suite_clock', False):
        setattr(owner, name, timed(kind, function, only, any_thread))


def install():
    """Wraps what starts things. Called before the test helpers are imported, so that `from X import f` sees
    the wrapped `f`."""
    from playwright.sync_api import Browser, BrowserType, Page
    from selenium.webdriver.remote.webdriver import WebDriver

    import backprop_playground.steps as build_package

    from . import drivers, pages, servers

    wrap(BrowserType, 'launch', 'browser launches')
    wrap(BrowserType, 'launch_persistent_context', 'browser launches')
    wrap(Browser, 'new_context', 'browser contexts')
    wrap(WebDriver, 'start_session', 'WebDriver sessions', any_thread=True)
    wrap(build_package, 'build', 'builds')
    for name in ('serving', 'static_origin', 'room_in_a_process'):
        wrap(servers, name, 'servers started')
    wrap(servers.RoomServer, 'start', 'servers started')
    wrap(pages, 'open_playground', 'Python boots')
    wrap(drivers, 'wait_ready', 'Python boots')
    wrap(time, 'sleep', 'fixed waits', only=lambda seconds: seconds > SHORT_POLL_S)
    wrap(Page, 'wait_for_timeout', 'fixed waits', only=lambda page, ms: ms > SHORT_POLL_S * 1000)


def add_options(parser):
    parser.addoption('--suite-clock', metavar='FILE', help="also write the suite's time table as JSON to FILE")


CPU = PREFIX + 'cpu'
_CPU_AT_START = pytest.StashKey[float]()
TICKS = os.sysconf('SC_CLK_TCK') if hasattr(os, 'sysconf') else 100
SAMPLE_EVERY_S = 0.5  # each reading costs about 3 ms of one core


class TreeCPU:
    """Processor seconds used by this process and every process under it since it began to count. A process's
    own time is read from /proc while it lives, every SAMPLE_EVERY_S, since a browser's processes that end are
    not reaped into their parents' counts (a closed Chromium's renderers are lost from them): one that ends
    between two readings loses at most that interval's time."""

    def __init__(self):
        self.root = os.getpid()
        self.seen = {}  # (pid, start time) -> last-read user+system ticks
        self.lock = threading.Lock()
        threading.Thread(target=self.sample_forever, daemon=True, name='suite-clock-cpu').start()

    def read(self):
        parents, used = {}, {}
        for name in os.listdir('/proc'):
            if not name.isdigit():
                continue
            try:
                with open(f'/proc/{name}/stat') as file:
                    fields = file.read().rsplit(')', 1)[1].split()
            except OSError:
                continue
            # After the name: state (0), ppid (1), ..., utime (11), stime (12), ..., starttime (19).
            parents[int(name)] = int(fields[1])
            used[(int(name), fields[19])] = int(fields[11]) + int(fields[12])
        children = {}
        for pid, parent in parents.items():
            children.setdefault(parent, []).append(pid)
        tree, stack = set(), [self.root]
        while stack:
            pid = stack.pop()
            tree.add(pid)
            stack.extend(children.get(pid, ()))
        with self.lock:
            for (pid, started), ticks in used.items():
                if pid in tree:
                    self.seen[(pid, started)] = ticks

    def seconds(self):
        self.read()
        with self.lock:
            return sum(self.seen.values()) / TICKS

    def sample_forever(self):
        while True:
            time.sleep(SAMPLE_EVERY_S)
            try:
                self.read()
            except OSError:
                return


@functools.cache
def _tree_cpu():
    return TreeCPU() if os.path.isdir('/proc/self') else None


def tree_cpu_seconds():
    """None where there is no /proc to read."""
    tree = _tree_cpu()
    return tree.seconds() if tree else None


@pytest.hookimpl(wrapper=True)
def pytest_runtest_protocol(item, nextitem):
    _current['item'] = item
    try:
        return (yield)
    finally:
        _current['item'] = None


@pytest.hookimpl(wrapper=True)
def pytest_runtest_setup(item):
    item.stash[_CPU_AT_START] = tree_cpu_seconds()
    return (yield)


@pytest.hookimpl(wrapper=True)
def pytest_runtest_teardown(item, nextitem):
    try:
        return (yield)
    finally:
        # Before the tear-down's report is made, which carries user_properties to the controller.
        before, after = item.stash.get(_CPU_AT_START, None), tree_cpu_seconds()
        if before is not None and after is not None:
            item.user_properties.append((CPU, after - before))


class Clock:
    """The controller's sums (or a run without workers)."""

    def __init__(self):
        self.started = time.perf_counter()
        self.phases = defaultdict(lambda: defaultdict(float))  # folder -> phase -> seconds
        self.tests = defaultdict(int)
        self.kinds = defaultdict(float)
        self.counts = defaultdict(int)
        self.busy = defaultdict(float)  # worker -> seconds in tests
        self.cpu = defaultdict(float)  # file -> processor seconds of its tests
        self.before_workers = 0.0

    def pytest_runtest_logreport(self, report):
        folder = report.nodeid.split('::')[0].rsplit('/', 1)[0]
        self.phases[folder][report.when] += report.duration
        worker = getattr(getattr(report, 'node', None), 'workerinput', {}).get('workerid', 'main')
        self.busy[worker] += report.duration
        if report.when == 'teardown':
            self.tests[folder] += 1
            for name, value in report.user_properties:
                if name == CPU:
                    self.cpu[report.nodeid.split('::')[0]] += value
                elif isinstance(name, str) and name.startswith(PREFIX):
                    self.kinds[name[len(PREFIX) :]] += value
                    self.counts[name[len(PREFIX) :]] += 1

    def table(self):
        wall = time.perf_counter() - self.started
        by_folder = defaultdict(float)
        for path, seconds in self.cpu.items():
            by_folder[path.rsplit('/', 1)[0]] += seconds
        return {
            'wall_s': round(wall, 1),
            'before_workers_s': round(self.before_workers, 1),
            'folders': {
                folder: {
                    'tests': self.tests[folder],
                    **{p: round(s, 1) for p, s in phases.items()},
                    'total': round(sum(phases.values()), 1),
                    'cpu': round(by_folder[folder], 1),
                }
                for folder, phases in sorted(self.phases.items(), key=lambda kv: -sum(kv[1].values()))
            },
            'kinds': {kind: {'seconds': round(self.kinds[kind], 1), 'count': self.counts[kind]} for kind in KINDS},
            'costliest_files_cpu_s': {
                path: round(seconds, 1) for path, seconds in sorted(self.cpu.items(), key=lambda kv: -kv[1])[:COSTLIEST]
            },
            'cpu_s': round(sum(self.cpu.values()), 1),
            'workers': {
                worker: {'in_tests_s': round(busy, 1), 'outside_tests_s': round(wall - busy, 1)}
                for worker, busy in sorted(self.busy.items())
            },
        }

    def pytest_terminal_summary(self, terminalreporter, config):
        table = self.table()
        write = terminalreporter.write_line
        terminalreporter.section("where the suite's time went (tests/support/suite_clock.py)")
        write(f"wall {table['wall_s']} s; build before the workers {table['before_workers_s']} s")
        write(f"{'folder':<16}{'tests':>6}{'setup s':>10}{'call s':>10}{'teardown s':>12}{'total s':>10}{'cpu s':>8}")
        for folder, row in table['folders'].items():
            write(
                f"{folder:<16}{row['tests']:>6}{row.get('setup', 0):>10}{row.get('call', 0):>10}"
                f"{row.get('teardown', 0):>12}{row['total']:>10}{row['cpu']:>8}"
            )
        write(f"processor time of the tests and all they started: {table['cpu_s']} s; the costliest files:")
        for path, seconds in table['costliest_files_cpu_s'].items():
            write(f"  {seconds:>7} s  {path}")
        write(f"{'started or waited':<22}{'count':>7}{'seconds':>10}")
        for kind, row in table['kinds'].items():
            write(f"{kind:<22}{row['count']:>7}{row['seconds']:>10}")
        for worker, row in table['workers'].items():
            write(f"worker {worker}: {row['in_tests_s']} s in tests, {row['outside_tests_s']} s outside them")
        path = config.getoption('--suite-clock')
        if path:
            with open(path, 'w') as file:
                json.dump(table, file, indent=1)


def built_before_workers(config, seconds):
    clock = config.pluginmanager.get_plugin('suite-clock-controller')
    if clock:
        clock.before_workers = seconds


def pytest_configure(config):
    if not hasattr(config, 'workerinput'):  # the controller, or a run without workers
        config.pluginmanager.register(Clock(), 'suite-clock-controller')
