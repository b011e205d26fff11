"""Smoke tests in WebKit, Safari's engine: Debian's WebKitGTK (MiniBrowser) driven by Selenium, on an Xvfb
display of the tests' own.

Chromium's suite covers the pages in depth; these run each kind of page once in the other engine: the main
page on a first visit and on a second (controlled by the service worker), an article cell (in its open shadow
root) and a course exercise. WebKitGTK is cross-origin isolated without SharedArrayBuffer, so Stop restarts
Python there. Every non-local request goes to a proxy that refuses it, and any attempt fails the test.
Without WebKitWebDriver or Xvfb (apt-get install webkit2gtk-driver xvfb) the tests skip and say which is missing.
"""
import os
import shutil
import socketserver
import subprocess
import threading
import warnings

import pytest
import urllib3
from selenium import webdriver
from selenium.webdriver.common.by import By
from selenium.webdriver.common.keys import Keys
from selenium.webdriver.common.proxy import Proxy
from selenium.webdriver.remote.client_config import ClientConfig
from selenium.webdriver.remote.remote_connection import RemoteConnection
from selenium.webdriver.support.select import Select
from selenium.webdriver.support.wait import WebDriverWait

from conftest import LOCAL_HOSTS, RUN_TIMEOUT_MS, STARTUP_TIMEOUT_MS
from test_course import STARTER_MESSAGES

MISSING = [name for name in ('WebKitWebDriver', 'Xvfb') if not shutil.which(name)]
pytestmark = [
    pytest.mark.skipif(bool(MISSING), reason=f"no {' or '.join(MISSING)} (apt-get install webkit2gtk-driver xvfb)"),
    pytest.mark.usefixtures('site'),
]


@pytest.fixture(scope='session')
def display():
    """A private X server; -displayfd makes it pick a free display and write its number once it is up.

    -noreset: by default Xvfb resets when its last client leaves, and a browser that starts during the reset
    cannot open the display and exits (WebKitWebDriver then waits for it forever).
    """
    read, write = os.pipe()
    xvfb = subprocess.Popen(['Xvfb', '-displayfd', str(write), '-screen', '0', '1280x1024x24', '-nolisten', 'tcp', '-noreset'],
                            pass_fds=[write], stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
    os.close(write)
    with os.fdopen(read) as pipe:
        number = pipe.readline().strip()
    if not number:
        pytest.fail(f"Xvfb did not start (exit status {xvfb.wait()})")
    yield f':{number}'
    xvfb.terminate()
    xvfb.wait()


class Refuse(socketserver.BaseRequestHandler):
    """Records what the browser tried to fetch and closes the connection without an answer."""

    def handle(self):
        self.request.settimeout(5)
        try:
            first = self.request.recv(200)
        except OSError:
            first = b''
        line = first.split(b'\r\n')[0].decode('latin-1')
        # WebKit speaks TLS to the proxy for https, so its target is not readable here.
        self.server.attempts.append(line if line[:1].isalpha() else 'an https request')


@pytest.fixture(scope='session')
def guard():
    server = socketserver.ThreadingTCPServer(('127.0.0.1', 0), Refuse)
    server.daemon_threads = True
    server.attempts = []
    threading.Thread(target=server.serve_forever, daemon=True).start()
    yield server
    server.shutdown()
    server.server_close()


NEW_SESSION_TIMEOUT_S = 60  # a new session takes 1 to 3 s; now and then the browser never answers (see below)
START_ATTEMPTS = 3
COMMAND_TIMEOUT_S = 150  # above the page load and script timeouts: a hung driver fails a test, not the suite


def start_webkit(display, proxy, log):
    options = webdriver.WebKitGTKOptions()
    options.add_argument('--automation')
    options.proxy = Proxy({'proxyType': 'manual', 'httpProxy': proxy, 'sslProxy': proxy, 'noProxy': sorted(LOCAL_HOSTS)})
    service = webdriver.WebKitGTKService(executable_path=shutil.which('WebKitWebDriver'),
                                         env={**os.environ, 'DISPLAY': display}, log_output=log)
    service.start()
    config = ClientConfig(remote_server_addr=service.service_url, timeout=NEW_SESSION_TIMEOUT_S)
    try:
        driver = webdriver.Remote(RemoteConnection(client_config=config), options=options)
    except Exception:
        # The browser the driver started may outlive it, holding what the next one needs: end it first.
        subprocess.run(['pkill', '-KILL', '-P', str(service.process.pid)], check=False)
        service.stop()
        raise
    config.timeout = COMMAND_TIMEOUT_S
    driver.set_page_load_timeout(RUN_TIMEOUT_MS / 1000)
    driver.set_script_timeout(RUN_TIMEOUT_MS / 1000)
    return driver, service


@pytest.fixture
def webkit(display, guard, tmp_path):
    """A fresh WebKit (its automation session keeps no data between sessions, so no service worker either)."""
    proxy = f'127.0.0.1:{guard.server_address[1]}'
    log = tmp_path / 'webkit.log'
    for attempt in range(1, START_ATTEMPTS + 1):
        try:
            driver, service = start_webkit(display, proxy, str(log))
            break
        except urllib3.exceptions.HTTPError:
            # If MiniBrowser exits before it answers, WebKitWebDriver waits for it forever: start it again.
            # CI saw two hangs in a row once (2 cores, under load), hence three attempts.
            if attempt == START_ATTEMPTS:
                raise
            warnings.warn(f"WebKit did not start within {NEW_SESSION_TIMEOUT_S} s (attempt {attempt}) and was "
                          f"started again; its log: {log.read_text()[-2000:]!r}")
            log = tmp_path / f'webkit-{attempt + 1}.log'
    guard.attempts.clear()
    try:
        yield driver
    finally:
        try:
            driver.quit()
        finally:
            service.stop()
    assert guard.attempts == [], f"the page tried to reach the network: {guard.attempts}"


def wait(driver, condition, what, timeout_ms=RUN_TIMEOUT_MS):
    return WebDriverWait(driver, timeout_ms / 1000, poll_frequency=0.1).until(lambda _: condition(), f"waited for {what}")


def find(root, selector):
    return root.find_element(By.CSS_SELECTOR, selector)


def part(root, name):
    return find(root, f'[data-testid="{name}"]')


def state(root):
    return part(root, 'status').get_attribute('data-state')


def wait_ready(driver, root):
    wait(driver, lambda: state(root) in ('ready', 'error'), 'Python to start', STARTUP_TIMEOUT_MS)
    assert state(root) == 'ready', part(root, 'status').text


def press_run(driver, root, expected='ready'):
    """Press Run (its section appears at once) and wait until the run has ended; returns its section."""
    output = part(root, 'output')
    before = len(output.find_elements(By.CSS_SELECTOR, 'section.run'))
    part(root, 'run').click()
    wait(driver, lambda: len(output.find_elements(By.CSS_SELECTOR, 'section.run')) == before + 1
         and state(root) in ('ready', 'error'), 'the run to end', STARTUP_TIMEOUT_MS)
    section = output.find_elements(By.CSS_SELECTOR, 'section.run')[-1]
    assert state(root) == expected, section.text
    return section


def type_program(driver, root, code):
    """Select the editor's text and type over it (one line: the editor would indent a second)."""
    find(root, '.cm-content').click()
    driver.switch_to.active_element.send_keys(Keys.CONTROL, 'a')
    driver.switch_to.active_element.send_keys(code)
    wait(driver, lambda: find(root, '.cm-content').text == code, 'the typed code in the editor', 5000)


def stop_a_loop(driver, root):
    """Run an endless loop and press Stop: on an isolated page without SharedArrayBuffer Python restarts."""
    type_program(driver, root, 'while True: pass')
    part(root, 'run').click()
    wait(driver, lambda: state(root) == 'running', 'the loop to run')
    part(root, 'stop').click()
    wait(driver, lambda: 'Python was restarted' in part(root, 'output').text, 'Stop to restart Python')
    assert 'this browser has no SharedArrayBuffer' in part(root, 'output').text, 'the page is isolated: say what is missing'
    wait_ready(driver, root)


def run_the_neuron_stop_and_run_again(driver):
    page = driver.find_element(By.TAG_NAME, 'body')
    wait_ready(driver, page)
    Select(part(page, 'examples')).select_by_value('neuron.py')
    wait(driver, lambda: 'o = n.tanh()' in find(page, '.cm-content').text, 'the neuron example in the editor', 5000)
    graph = press_run(driver, page).find_element(By.CSS_SELECTOR, 'svg')
    assert 'data 0.7071' in graph.text and 'grad -1.5000' in graph.text
    stop_a_loop(driver, page)
    type_program(driver, page, "draw_dot(Value(2.0, label='again') * 3)")
    graph = press_run(driver, page).find_element(By.CSS_SELECTOR, 'svg')
    assert 'again' in graph.text and 'data 6.0000' in graph.text


def test_the_main_page_runs_draws_and_stops(webkit, site_url):
    webkit.get(site_url)
    run_the_neuron_stop_and_run_again(webkit)
    assert 'AppleWebKit/605' in webkit.execute_script('return navigator.userAgent')


def test_the_main_page_on_a_second_visit_under_the_service_worker(webkit, plain_site_url):
    webkit.get(plain_site_url)
    wait_ready(webkit, webkit.find_element(By.TAG_NAME, 'body'))
    assert webkit.execute_script('return self.crossOriginIsolated') is False
    webkit.execute_async_script('navigator.serviceWorker.ready.then(() => arguments[0]())')
    webkit.refresh()
    assert webkit.execute_script('return Boolean(navigator.serviceWorker.controller)')
    # The service worker adds COOP/COEP, but WebKit gives no SharedArrayBuffer even then.
    assert webkit.execute_script('return [self.crossOriginIsolated, typeof SharedArrayBuffer]') == [True, 'undefined']
    run_the_neuron_stop_and_run_again(webkit)


def test_an_article_cell_runs_and_draws_in_its_shadow_root(webkit, site_url):
    webkit.get(site_url + 'article.html')
    cells = wait(webkit, lambda: webkit.find_elements(By.CSS_SELECTOR, '[data-testid="cell"]'), 'the cells')
    cell = cells[0].shadow_root
    section = press_run(webkit, cell)
    assert 'Value(data=-1.0)' in find(section, 'pre.stdout').text
    third = cells[2].shadow_root
    section = press_run(webkit, third)
    assert '+' in find(section, 'pre.stdout').text and 'data 10.0000' in find(section, 'svg').text
    stop_a_loop(webkit, third)


def test_a_course_exercise_fails_then_passes_with_the_solution(webkit, site_url):
    webkit.get(site_url + 'course.html')
    box = wait(webkit, lambda: webkit.find_elements(By.CSS_SELECTOR, '[data-testid="exercise"]'), 'the exercises')[0].shadow_root
    result = part(box, 'result')
    assert result.get_attribute('data-state') == 'idle'
    press_run(webkit, box)
    assert result.get_attribute('data-state') == 'failed'
    assert STARTER_MESSAGES['mul-returns-value'].replace('`', '') in result.text
    part(box, 'solution').click()
    wait(webkit, lambda: box.find_elements(By.CSS_SELECTOR, '.solution button'), 'the solution')[0].click()
    press_run(webkit, box)
    assert result.get_attribute('data-state') == 'passed', result.text
    assert 'All checks passed' in result.text
