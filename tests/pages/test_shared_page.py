"""The check that runs after each test that borrowed the shared main page (support/shared_page.py): each thing
a test could leave behind is left once here, and the check must name it. These tests hold a SharedPlayground of
their own, so that the state they leave never reaches another test."""
import pytest
from playwright.sync_api import expect

from support.pages import run, type_program
from support.shared_page import SharedPlayground

pytestmark = pytest.mark.usefixtures('site')


@pytest.fixture
def own(browser, browser_context_args, site_url):
    shared = SharedPlayground(browser, browser_context_args, site_url)
    yield shared
    shared.close()


def test_a_page_left_as_it_was_lent_passes_and_is_lent_again_without_a_new_boot(own):
    page = own.lend()
    type_program(page, 'print("hello")\n')
    run(page)
    assert own.give_back(failed=False) == []
    assert own.lend() is page and own.boots == 1
    expect(page.get_by_test_id('output').locator('section.run')).to_have_count(0)


def left(own, leave):
    page = own.lend()
    leave(page)
    return ' '.join(own.give_back(failed=False))


def test_a_run_still_going_is_named(own):
    def leave(page):
        type_program(page, 'while True: pass\n')
        page.get_by_test_id('run').click()
        expect(page.get_by_test_id('status')).to_have_attribute('data-state', 'running')
    assert 'a run still going' in left(own, leave)


def open_share_panel(page):
    page.get_by_test_id('share').click()
    expect(page.get_by_test_id('share-panel')).to_be_visible()  # it opens once the link is made


def test_an_open_panel_is_named(own):
    assert "an open panel, notice or dialog: ['share-panel']" in left(own, open_share_panel)


def test_a_notice_is_named(own):
    def leave(page):
        page.evaluate("location.hash = '#code=not-a-link'")
        expect(page.get_by_test_id('notice')).to_be_visible()
    assert "an open panel, notice or dialog: ['notice']" in left(own, leave)


def test_a_name_left_in_a_named_env_is_named(own):
    def leave(page):
        page.evaluate("window.playground.session.run({ code: 'kept = 1', env: 'left-behind' }, () => {}).then(() => null)")
    assert "a name left in a namespace" in left(own, leave)


def test_a_python_that_failed_is_named(own):
    def leave(page):
        page.evaluate("window.playground.session.failed('the test ended it')")
    assert 'Python is not ready (its phase is failed)' in left(own, leave)


def test_a_python_that_does_not_answer_is_named(own):
    def leave(page):  # a run the cell knows nothing of: its status says ready
        page.evaluate("() => { window.playground.session.run({ code: 'while True: pass', env: null }, () => {}); }")
    own.probe_timeout_ms = 2000
    assert 'Python did not answer within 2000 ms' in left(own, leave)


def test_a_route_and_a_listener_are_named(own):
    assert 'a route or an event listener' in left(own, lambda page: page.route('**/nothing', lambda route: route.abort()))
    assert 'a route or an event listener' in left(own, lambda page: page.on('console', lambda message: None))


def test_a_request_that_left_this_machine_is_named(own):
    def leave(page):  # from a blank page of the same context: the playground's own policy refuses the fetch first
        blank = page.context.new_page()
        blank.evaluate("fetch('https://example.com/').catch(() => {})")
        blank.close()
    assert 'a request that left this machine' in left(own, leave)


def test_a_resized_window_is_named(own):
    assert 'the window resized to' in left(own, lambda page: page.set_viewport_size({'width': 600, 'height': 900}))


def test_kept_points_are_named(own):
    def leave(page):
        page.evaluate("window.playground.cell.points.set([[0.5, 0.5, 1]])")
    assert "the learner's points" in left(own, leave)


def test_a_page_that_left_something_or_failed_is_replaced(own):
    first = own.lend()
    open_share_panel(first)
    assert own.give_back(failed=False)
    second = own.lend()
    assert second is not first and first.is_closed() and own.boots == 2
    assert own.give_back(failed=True) == []
    assert own.lend() is not second and own.boots == 3
