"""Helpers for the other engines (WebKit, Firefox) through Selenium: waits on the page's contract (the proxy that
refuses every request leaving this machine is support/guard.py's)."""

import os
from dataclasses import dataclass
from typing import Callable

from selenium.common.exceptions import ElementNotInteractableException, WebDriverException
from selenium.webdriver.common.action_chains import ActionChains
from selenium.webdriver.common.by import By
from selenium.webdriver.common.keys import Keys
from selenium.webdriver.support.wait import WebDriverWait

from . import RUN_TIMEOUT_MS, STARTUP_TIMEOUT_MS


@dataclass
class Engine:
    agent: str  # in navigator.userAgent
    stop_in_place: bool  # on an isolated page: SharedArrayBuffer, so Stop interrupts without a restart
    revisit: Callable  # (driver, url): load the page again as a reader would, under the service worker


def screenshot(driver, name):
    """With SCREENSHOTS=DIR in the environment, the browser's view as DIR/NAME-BROWSER.png, for a person to look
    at (docs/development.md, "Tests"); nothing otherwise."""
    folder = os.environ.get('SCREENSHOTS')
    if folder:
        os.makedirs(folder, exist_ok=True)
        driver.save_screenshot(os.path.join(folder, f"{name}-{driver.capabilities.get('browserName', 'browser')}.png"))


# WebKitWebDriver's answer to a find while the page changes the element (a full run of the suite, the CDN article's
# output as a run began): the next poll finds it. Any other error ends the wait.
UNREADABLE_FIND = 'Could not parse element info'


def wait(driver, condition, what, timeout_ms=RUN_TIMEOUT_MS):
    def poll(_):
        try:
            return condition()
        except WebDriverException as error:
            if UNREADABLE_FIND not in (error.msg or ''):
                raise
            return False

    return WebDriverWait(driver, timeout_ms / 1000, poll_frequency=0.1).until(poll, f"waited for {what}")


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
