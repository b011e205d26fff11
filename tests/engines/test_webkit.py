"""Smoke tests in WebKit, Safari's engine: Debian's WebKitGTK (MiniBrowser) driven by Selenium, on an Xvfb
display of the tests' own, with the cases of smoke_cases.py.

WebKitGTK is cross-origin isolated without SharedArrayBuffer, so Stop restarts Python there. Every non-local
request goes to a proxy that refuses it, and any attempt fails the test. Without WebKitWebDriver or Xvfb
(apt-get install webkit2gtk-driver xvfb) the tests skip and say which is missing.
"""

import glob
import os
import shutil
import subprocess
import threading
import warnings
from pathlib import Path

import pytest
import urllib3
from selenium import webdriver
from selenium.webdriver.common.proxy import Proxy
from selenium.webdriver.remote.client_config import ClientConfig
from selenium.webdriver.remote.remote_connection import RemoteConnection
from smoke_cases import (  # noqa: F401 (run here too)
    test_a_classroom_learner_joins_and_an_assignment_scores,
    test_a_classroom_on_a_lan_name_joins_checks_and_stop_restarts,
    test_a_course_exercise_fails_then_passes_with_the_solution,
    test_a_notebook_opens_by_url_and_runs,
    test_a_room_hands_out_collects_and_shows_feedback_without_its_scripts,
    test_an_article_cell_runs_and_draws_in_its_shadow_root,
    test_an_article_with_cells_from_the_cdn_runs_draws_and_stop_restarts,
    test_embed_html_runs_in_an_iframe,
    test_only_this_machine_is_reached_and_the_refusing_proxy_sees_any_other_host,
    test_the_main_page_on_a_second_visit_under_the_service_worker,
    test_the_main_page_runs_draws_stops_and_explains_a_grad_with_a_quiz,
)

from support import LAN_HOST, LOCAL_HOSTS, RUN_TIMEOUT_MS
from support.drivers import Engine

MISSING = [name for name in ('WebKitWebDriver', 'Xvfb') if not shutil.which(name)]
# Now and then WebKitGTK stops answering in the middle of a test (on 2 busy cores, about one fresh-clone run
# in ten): WebKitWebDriver then gives up on a command with its own "timeout" error, which Selenium raises as a
# TimeoutException with no message. That test runs once more, in a new browser, and the log says "rerun".
# A wait that runs out (support/drivers.py, wait) says what it waited for and is not rerun. A page load that
# never ends gets the same error as a hung browser, so it is rerun too; the same cases run in Firefox
# (test_firefox.py) with no rerun, and a page that hangs every time still fails here.
BROWSER_STOPPED_ANSWERING = r'^TimeoutException: Message: \n?$'
pytestmark = [
    pytest.mark.skipif(bool(MISSING), reason=f"no {' or '.join(MISSING)} (apt-get install webkit2gtk-driver xvfb)"),
    pytest.mark.usefixtures('site'),
    pytest.mark.flaky(reruns=1, only_rerun=[BROWSER_STOPPED_ANSWERING]),
]


@pytest.fixture(scope='session')
def display():
    """A private X server; -displayfd makes it pick a free display and write its number once it is up.

    -noreset: by default Xvfb resets when its last client leaves, and a browser that starts during the reset
    cannot open the display and exits (WebKitWebDriver then waits for it forever).
    """
    read, write = os.pipe()
    xvfb = subprocess.Popen(
        ['Xvfb', '-displayfd', str(write), '-screen', '0', '1280x1024x24', '-nolisten', 'tcp', '-noreset'],
        pass_fds=[write],
        stdout=subprocess.DEVNULL,
        stderr=subprocess.DEVNULL,
    )
    os.close(write)
    with os.fdopen(read) as pipe:
        number = pipe.readline().strip()
    if not number:
        pytest.fail(f"Xvfb did not start (exit status {xvfb.wait()})")
    yield f':{number}'
    xvfb.terminate()
    xvfb.wait()


# A new session takes 1 to 5 s. A browser that dies while it starts leaves WebKitWebDriver waiting for it
# forever: the browser is started through a watcher that writes its exit status, and a browser that ended before
# its session answered is started again at once, with its status and backtrace in the log. (The segmentation
# fault that did this once a run is avoided: see through().) A session that does not answer within
# NEW_SESSION_TIMEOUT_S is started again too.
NEW_SESSION_TIMEOUT_S = 20
START_ATTEMPTS = 4
COMMAND_TIMEOUT_S = 150  # above the page load and script timeouts: a hung driver fails a test, not the suite
MINIBROWSERS = sorted(
    glob.glob('/usr/lib/*/webkit2gtk-4.*/MiniBrowser') + glob.glob('/usr/libexec/webkit2gtk-4.*/MiniBrowser')
)
# A browser that crashes leaves its core file beside the log (where the kernel writes a file named "core", as
# here), and the watcher writes its exit status at once; BrowserEndedWhileStarting then quotes gdb's backtrace.
WATCHER = """#!/bin/sh
cd "$(dirname "$WATCHED_BROWSER_EXIT")" && ulimit -c unlimited
"$WATCHED_BROWSER" "$@"
status=$?
[ -f core ] && mv core "$WATCHED_BROWSER_EXIT.core"
echo "$status" > "$WATCHED_BROWSER_EXIT"
exit $status
"""
BACKTRACE_TIMEOUT_S = 60


def backtrace(browser, core):
    """gdb's backtrace of a crashed browser's core file (deleted after), or why there is none."""
    if not core.exists():
        return 'no core file (the kernel writes none, or writes it elsewhere)'
    try:
        return subprocess.run(
            [
                'gdb',
                '-batch',
                '-nx',
                '-ex',
                'info threads',
                '-ex',
                'bt 40',
                '-ex',
                'thread apply all bt 12',
                browser,
                str(core),
            ],
            capture_output=True,
            text=True,
            timeout=BACKTRACE_TIMEOUT_S,
        ).stdout[:6000]
    except (OSError, subprocess.TimeoutExpired) as error:
        return f'gdb gave none: {error}'
    finally:
        core.unlink(missing_ok=True)


class BrowserEndedWhileStarting(Exception):
    pass


# On Xvfb there is no GPU: WebKitGTK's accelerated compositing then paints its layers through Mesa's software
# OpenGL, which doubled the processor time of every test here (2 cases: 52 s against 26 s, and the wall time
# with it). Without it WebKit paints as it does on a machine without working OpenGL; the pages' code is the same.
NO_SOFTWARE_GL = {'WEBKIT_DISABLE_COMPOSITING_MODE': '1'}
# WebAssembly in JavaScriptCore's first tiers only, without OMG, its optimizing one (docs/development.md, "First
# tier"): this file in 60 to 66 s against 71 to 74 s alone, 77 to 86 s of processor time against 98 to 104 s.
FIRST_TIER = {'JSC_useOMGJIT': '0'}


def end_tree(pid):
    """Kills the processes under `pid` (the driver's browser, and the browser's own)."""
    found = subprocess.run(['pgrep', '-P', str(pid)], capture_output=True, text=True).stdout.split()
    for child in found:
        end_tree(int(child))
        subprocess.run(['kill', '-KILL', child], check=False)


def through(proxy):
    """The environment that sends every request but this machine's to `proxy`, which refuses it; the LAN name goes
    there too, and the proxy relays it to this machine (support/guard.py, Refuse).

    Not the session's `proxy` capability: WebKitGTK 2.50 crashes while it starts a session whose proxy has a
    noProxy list (MiniBrowser's backtrace: strlen in g_strdupv, called by webkit_network_proxy_settings_new),
    17 starts in 40 beside two busy processes here, none in 40 without the list. The "system" proxy is GLib's,
    and libproxy reads it from these variables."""
    return {
        'GIO_USE_PROXY_RESOLVER': 'libproxy',
        'http_proxy': f'http://{proxy}',
        'https_proxy': f'http://{proxy}',
        'no_proxy': ','.join(sorted(LOCAL_HOSTS - {LAN_HOST})),
    }


def start_webkit(display, proxy, log):
    options = webdriver.WebKitGTKOptions()
    options.add_argument('--automation')
    options.proxy = Proxy({'proxyType': 'system'})
    watch = {}
    exit_file = Path(f'{log}.browser-exit')
    if MINIBROWSERS:
        watcher = Path(f'{log}.watcher.sh')
        watcher.write_text(WATCHER)
        watcher.chmod(0o755)
        options.binary_location = str(watcher)
        watch = {'WATCHED_BROWSER': MINIBROWSERS[-1], 'WATCHED_BROWSER_EXIT': str(exit_file)}
    service = webdriver.WebKitGTKService(
        executable_path=shutil.which('WebKitWebDriver'),
        env={**os.environ, 'DISPLAY': display, **NO_SOFTWARE_GL, **FIRST_TIER, **watch, **through(proxy)},
        log_output=log,
    )
    service.start()
    config = ClientConfig(remote_server_addr=service.service_url, timeout=NEW_SESSION_TIMEOUT_S)
    started = {}

    def start_session():
        try:
            started['driver'] = webdriver.Remote(RemoteConnection(client_config=config), options=options)
        except Exception as error:
            started['error'] = error

    thread = threading.Thread(target=start_session, daemon=True)
    thread.start()
    while thread.is_alive() and not exit_file.exists():
        thread.join(0.1)
    if 'driver' not in started:
        # The browser the driver started may outlive it, holding what the next one needs: end it first.
        end_tree(service.process.pid)
        service.stop()
        thread.join()
        if exit_file.exists():
            status = exit_file.read_text().strip()
            said = (
                f"; gdb's backtrace: {backtrace(MINIBROWSERS[-1], Path(f'{exit_file}.core'))}"
                if int(status) > 128
                else ''
            )
            raise BrowserEndedWhileStarting(
                f"MiniBrowser ended with status {status} before its session answered (139: a segmentation fault){said}"
            )
        raise started['error']
    driver = started['driver']
    config.timeout = COMMAND_TIMEOUT_S
    driver.set_page_load_timeout(RUN_TIMEOUT_MS / 1000)
    driver.set_script_timeout(RUN_TIMEOUT_MS / 1000)
    return driver, service


@pytest.fixture
def engine(display, guard, tmp_path):
    """A fresh WebKit (its automation session keeps no data between sessions, so no service worker either)."""
    proxy = f'127.0.0.1:{guard.server_address[1]}'
    log = tmp_path / 'webkit.log'
    for attempt in range(1, START_ATTEMPTS + 1):
        try:
            driver, service = start_webkit(display, proxy, str(log))
            break
        except (urllib3.exceptions.HTTPError, BrowserEndedWhileStarting) as error:
            # CI saw two failed starts in a row once (2 cores, under load), hence four attempts.
            if attempt == START_ATTEMPTS:
                raise
            said = (
                error
                if isinstance(error, BrowserEndedWhileStarting)
                else f"it did not answer within {NEW_SESSION_TIMEOUT_S} s"
            )
            warnings.warn(
                f"WebKit did not start (attempt {attempt}: {said}) and was started again; WebKitWebDriver's "
                f"log: {log.read_text()[-2000:]!r}"
            )
            log = tmp_path / f'webkit-{attempt + 1}.log'
    guard.attempts.clear()
    try:
        yield driver, Engine(agent='AppleWebKit/605', stop_in_place=False, revisit=lambda driver, url: driver.refresh())
    finally:
        try:
            driver.quit()
        finally:
            service.stop()
    assert guard.attempts == [], f"the page tried to reach the network: {guard.attempts}"
