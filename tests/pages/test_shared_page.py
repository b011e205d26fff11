"""The check that runs after each test that borrowed the shared main page (support/shared_page.py): each thing
a test could leave behind is left once here, and the check must name it. These tests hold a SharedPlayground of
their own, so that the state they leave never reaches another test. Each that can, undoes what it left with what
the page offers and sees the check pass again; the page is then lent to the next (`own`, booted once for the
file); the others leave what cannot be undone and take a page of their own (`alone`)."""

import pytest
from playwright.sync_api import expect

from support.pages import run, type_program
from support.shared_page import SharedPlayground, SharedTab

pytestmark = pytest.mark.usefixtures('site')


def lent_page(browser, browser_context_args, site_url):
    shared = SharedPlayground(browser, browser_context_args, site_url)
    yield shared
    shared.close()


own = pytest.fixture(lent_page, scope='module', name='own')
alone = pytest.fixture(lent_page, name='alone')


def test_a_page_left_as_it_was_lent_passes_and_is_lent_again_without_a_new_boot(own):
    page = own.lend()
    boots = own.boots
    type_program(page, 'print("hello")\n')
    run(page)
    assert own.give_back(failed=False) == []
    assert own.lend() is page and own.boots == boots
    expect(page.get_by_test_id('output').locator('section.run')).to_have_count(0)
    assert own.give_back(failed=False) == []


def left(own, leave, undo=None):
    """What the check names after `leave(page)`; then `undo(page)` sets the page back, and the check must pass
    again for the page to be lent to the next test (without `undo`, the page is replaced)."""
    page = own.lend()
    leave(page)
    found = ' '.join(own.give_back(failed=False))
    if undo:
        undo(page)
        assert own.leftovers() == [], 'what the test left is still there after it was undone'
        own.spoiled = False
    return found


def test_a_run_still_going_is_named(own):
    def leave(page):
        type_program(page, 'while True: pass\n')
        page.get_by_test_id('run').click()
        expect(page.get_by_test_id('status')).to_have_attribute('data-state', 'running')

    def undo(page):  # the site is isolated: Stop interrupts in place
        page.get_by_test_id('stop').click()
        expect(page.get_by_test_id('status')).to_have_attribute('data-state', 'ready')

    assert 'a run still going' in left(own, leave, undo)


def open_share_panel(page):
    page.get_by_test_id('share').click()
    expect(page.get_by_test_id('share-panel')).to_be_visible()  # it opens once the link is made


def test_an_open_panel_is_named(own):
    def undo(page):
        page.get_by_test_id('share-panel').locator('.panel-close').click()

    assert "an open panel, notice or dialog: ['share-panel']" in left(own, open_share_panel, undo)


def test_a_notice_is_named(alone):
    def leave(page):
        page.evaluate("location.hash = '#code=not-a-link'")
        expect(page.get_by_test_id('notice')).to_be_visible()

    assert "an open panel, notice or dialog: ['notice']" in left(alone, leave)


def test_a_name_left_in_a_named_env_is_named(own):
    def leave(page):
        page.evaluate(
            "window.playground.session.run({ code: 'kept = 1', env: 'left-behind' }, () => {}).then(() => null)"
        )

    assert "a name left in a namespace" in left(
        own, leave, lambda page: page.evaluate("window.playground.session.reset('left-behind')")
    )


def test_a_python_that_failed_is_named(alone):
    def leave(page):
        page.evaluate("window.playground.session.failed('the test ended it')")

    assert 'Python is not ready (its phase is failed)' in left(alone, leave)


def test_a_python_that_does_not_answer_is_named(alone):
    def leave(page):  # a run the cell knows nothing of: its status says ready
        page.evaluate("() => { window.playground.session.run({ code: 'while True: pass', env: null }, () => {}); }")

    alone.verdict_timeout_ms = alone.probe_timeout_ms = 2000  # the run spins a core until the page is closed
    assert 'Python did not answer within 2000 ms' in left(alone, leave)


def test_a_route_and_a_listener_are_named(own):
    def abort(route):
        route.abort()

    def heard(message):
        pass

    assert 'a route or an event listener' in left(
        own, lambda page: page.route('**/nothing', abort), lambda page: page.unroute('**/nothing', abort)
    )
    assert 'a route or an event listener' in left(
        own, lambda page: page.on('console', heard), lambda page: page.remove_listener('console', heard)
    )


def test_a_request_that_left_this_machine_is_named(own):
    def leave(page):  # from a blank page of the same context: the playground's own policy refuses the fetch first
        blank = page.context.new_page()
        blank.evaluate("fetch('https://example.com/').catch(() => {})")
        blank.close()

    assert 'a request that left this machine' in left(own, leave, lambda page: own.attempts.clear())


def test_a_request_that_another_test_made_between_two_lends_is_not_named(own, browser, browser_context_args):
    # The proxy is the process's: a tab of another test asks it for a URL while the page is not lent
    page = own.lend()
    assert own.give_back(failed=False) == []
    other = SharedTab(browser, browser_context_args)
    other.lend()
    other.page.evaluate("fetch('https://example.com/another-test').catch(() => null)")
    assert 'https://example.com/another-test' in other.give_back(failed=False)
    other.close()
    assert own.lend() is page
    assert own.give_back(failed=False) == []


def test_a_permission_granted_is_named(own):
    assert 'permissions granted' in left(
        own,
        lambda page: page.context.grant_permissions(['clipboard-read', 'clipboard-write']),
        lambda page: page.context.clear_permissions(),
    )


def test_a_resized_window_is_named(own):
    assert 'the window resized to' in left(
        own,
        lambda page: page.set_viewport_size({'width': 600, 'height': 900}),
        lambda page: page.set_viewport_size(own.viewport),
    )


def test_kept_points_are_named(own):
    def leave(page):
        page.evaluate("window.playground.cell.points.set([[0.5, 0.5, 1]])")

    assert "the learner's points" in left(
        own, leave, lambda page: page.evaluate("window.playground.cell.points.set(null)")
    )


def test_a_page_that_left_something_or_failed_is_replaced(alone):
    first = alone.lend()
    open_share_panel(first)
    assert alone.give_back(failed=False)
    second = alone.lend()
    assert second is not first and first.is_closed() and alone.boots == 2
    assert alone.give_back(failed=True) == []
    assert alone.lend() is not second and alone.boots == 3
