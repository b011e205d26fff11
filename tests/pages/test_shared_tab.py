"""The tab lent to each test that asks for `page` (support/shared_page.py, SharedTab): what a test leaves in it is
set back before the next test, and what cannot be set back spoils it, so that the next test gets a new context.
These tests hold a SharedTab of their own, so that what they leave never reaches another test."""

import pytest

from support.shared_page import SharedTab

pytestmark = pytest.mark.usefixtures('site')

LEAVE_STORAGE = '''async () => {
    localStorage.setItem('left', 'behind');
    document.cookie = 'left=behind';
    await new Promise((resolve, reject) => {
        const opening = indexedDB.open('left-behind', 1);
        opening.onupgradeneeded = () => opening.result.createObjectStore('things');
        opening.onsuccess = () => { opening.result.close(); resolve(); };
        opening.onerror = () => reject(opening.error);
    });
}'''
READ_STORAGE = '''async () => ({
    local: localStorage.getItem('left'),
    cookie: document.cookie,
    databases: (await indexedDB.databases()).map((database) => database.name),
    geolocation: (await navigator.permissions.query({ name: 'geolocation' })).state,
    dark: matchMedia('(prefers-color-scheme: dark)').matches,
})'''
AS_NEW = {'local': None, 'cookie': '', 'databases': [], 'geolocation': 'prompt', 'dark': False}


@pytest.fixture
def own(browser, browser_context_args):
    tab = SharedTab(browser, browser_context_args)
    yield tab
    tab.close()


def test_a_tab_given_back_shows_the_next_test_what_a_new_context_shows(own, site_url, other_origin):
    _, elsewhere = other_origin
    context = own.lend()
    page, viewport = own.page, own.page.viewport_size
    urls = (site_url + 'style.css', elsewhere + 'article.html')
    for url in urls:
        page.goto(url)
        assert page.evaluate(READ_STORAGE) == AS_NEW, url
    for url in urls:  # (the cookie is the host's: both origins see it)
        page.goto(url)
        page.evaluate(LEAVE_STORAGE)
    context.grant_permissions(['geolocation'])
    page.emulate_media(color_scheme='dark')
    page.set_viewport_size({'width': 400, 'height': 300})
    assert page.evaluate(READ_STORAGE) == {
        'local': 'behind',
        'cookie': 'left=behind',
        'databases': ['left-behind'],
        'geolocation': 'granted',
        'dark': True,
    }
    context.new_page().goto(site_url + 'style.css')  # a second page, which the next test must not find

    assert own.give_back(failed=False) == []
    assert not own.spoiled
    assert own.lend() is context and own.page is page and own.contexts == 1
    assert context.pages == [page] and page.url == 'about:blank' and page.viewport_size == viewport
    for url in urls:
        page.goto(url)
        assert page.evaluate(READ_STORAGE) == AS_NEW, url


LEAVINGS = {
    'a route on the page': lambda page: page.route('**/nothing', lambda route: route.abort()),
    'a route on its context': lambda page: page.context.route('**/nothing', lambda route: route.abort()),
    'a listener on its context': lambda page: page.context.on('console', lambda message: None),
    'a listener on the page': lambda page: page.on('dialog', lambda dialog: dialog.dismiss()),
    'a script for every page': lambda page: page.context.add_init_script('window.left = true'),
    'a default timeout': lambda page: page.set_default_timeout(1000),
    "Playwright's clock": lambda page: page.clock.install(),
}


@pytest.mark.parametrize('leaving', LEAVINGS)
def test_what_cannot_be_set_back_spoils_the_tab_and_the_next_test_gets_a_new_context(own, site_url, leaving):
    context = own.lend()
    page = own.page
    page.goto(site_url + 'style.css')
    LEAVINGS[leaving](page)
    own.give_back(failed=False)
    assert own.spoiled and page.is_closed(), 'the spoiled context is closed at once, as a test context of its own was'
    assert own.lend() is not context and own.contexts == 2


def test_a_failed_test_spoils_the_tab(own, site_url):
    context = own.lend()
    page = own.page
    page.goto(site_url + 'style.css')
    own.give_back(failed=True)
    assert page.is_closed()
    assert own.lend() is not context


def test_a_request_that_left_this_machine_is_given_back(own, other_origin):
    (folder, url) = other_origin
    (folder / 'plain.html').write_text('<!doctype html><title>plain</title>')  # no policy to stop the fetch
    (folder / 'leaves.js').write_text("fetch('http://example.org/from-a-worker').catch(() => postMessage('refused'))")
    own.lend()
    own.page.goto(url + 'plain.html')
    own.page.evaluate("fetch('https://example.com/left').catch(() => null)")
    # A worker's request, which Playwright does not always report (not a worker's in another origin's frame):
    # the proxy refused it, and says so (support/guard.py)
    own.page.evaluate("new Promise((refused) => { new Worker('leaves.js').onmessage = refused; })")
    given = list(own.give_back(failed=False))
    assert 'https://example.com/left' in given
    assert 'GET http://example.org/from-a-worker HTTP/1.1' in given
    assert set(given) <= {
        'https://example.com/left',
        'CONNECT example.com:443 HTTP/1.1',
        'http://example.org/from-a-worker',
        'GET http://example.org/from-a-worker HTTP/1.1',
    }
