"""Helpers for the other engines (WebKit, Firefox) through Selenium: the proxy that refuses every request
leaving this machine (and relays the classroom's LAN name to it), and waits on the page's contract."""

import os
import select
import socket
import socketserver
from dataclasses import dataclass
from typing import Callable

from selenium.common.exceptions import ElementNotInteractableException
from selenium.webdriver.common.action_chains import ActionChains
from selenium.webdriver.common.by import By
from selenium.webdriver.common.keys import Keys
from selenium.webdriver.support.wait import WebDriverWait

from . import LAN_HOST, RUN_TIMEOUT_MS, STARTUP_TIMEOUT_MS


@dataclass
class Engine:
    agent: str  # in navigator.userAgent
    stop_in_place: bool  # on an isolated page: SharedArrayBuffer, so Stop interrupts without a restart
    revisit: Callable  # (driver, url): load the page again as a reader would, under the service worker


class Refuse(socketserver.BaseRequestHandler):
    """The proxy for every host but this machine: records what the browser tried to fetch and closes the
    connection without an answer. A plain-HTTP request for the classroom's LAN name (conftest.LAN_HOST) is
    relayed to this machine, as a room's network would carry it (WebKit has no host-resolver setting)."""

    def handle(self):
        self.request.settimeout(5)
        first = b''
        try:
            while b'\r\n' not in first and len(first) < 8192:
                chunk = self.request.recv(8192)
                if not chunk:
                    break
                first += chunk
        except OSError:
            pass
        line = first.split(b'\r\n')[0].decode('latin-1')
        target = line.split(' ')[1] if line.count(' ') >= 2 else ''
        if target.startswith(f'http://{LAN_HOST}:'):
            return self.relay(int(target.split(':')[2].split('/')[0]), first)
        # WebKit speaks TLS to the proxy for https, so its target is not readable here.
        self.server.attempts.append(line if line[:1].isalpha() else 'an https request')

    def relay(self, port, first):
        self.request.settimeout(STARTUP_TIMEOUT_MS / 1000)  # a browser may pause while a large file streams
        with socket.create_connection(('127.0.0.1', port), timeout=STARTUP_TIMEOUT_MS / 1000) as upstream:
            upstream.sendall(first)
            sockets = [self.request, upstream]
            while True:
                readable, _, _ = select.select(sockets, [], [], STARTUP_TIMEOUT_MS / 1000)
                if not readable:
                    return
                for source in readable:
                    data = source.recv(65536)
                    if not data:
                        return
                    (upstream if source is self.request else self.request).sendall(data)


def screenshot(driver, name):
    """With SCREENSHOTS=DIR in the environment, the browser's view as DIR/NAME-BROWSER.png, for a person to look
    at (docs/development.md, "Tests"); nothing otherwise."""
    folder = os.environ.get('SCREENSHOTS')
    if folder:
        os.makedirs(folder, exist_ok=True)
        driver.save_screenshot(os.path.join(folder, f"{name}-{driver.capabilities.get('browserName', 'browser')}.png"))


def wait(driver, condition, what, timeout_ms=RUN_TIMEOUT_MS):
    return WebDriverWait(driver, timeout_ms / 1000, poll_frequency=0.1).until(
        lambda _: condition(), f"waited for {what}"
    )


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
    wait(
        driver,
        lambda: (
            len(output.find_elements(By.CSS_SELECTOR, 'section.run')) == before + 1
            and state(root) in ('ready', 'error')
        ),
        'the run to end',
        STARTUP_TIMEOUT_MS,
    )
    section = output.find_elements(By.CSS_SELECTOR, 'section.run')[-1]
    assert state(root) == expected, section.text
    return section


def type_program(driver, root, code):
    """Select the editor's text and type over it (one line: the editor would indent a second)."""
    find(root, '.cm-content').click()
    try:
        driver.switch_to.active_element.send_keys(Keys.CONTROL, 'a')
        driver.switch_to.active_element.send_keys(code)
    except ElementNotInteractableException:  # Firefox names the shadow host as the active element
        ActionChains(driver).key_down(Keys.CONTROL).send_keys('a').key_up(Keys.CONTROL).send_keys(code).perform()
    wait(driver, lambda: find(root, '.cm-content').text == code, 'the typed code in the editor', 5000)
