"""The classroom end to end: a learner joins, fails then passes an exercise, and the teacher's board
shows both, live, with her code; a result made while the server is stopped reaches the board after a
restart. Each runs twice: at 127.0.0.1, which browsers treat as secure, and at a LAN name over plain HTTP,
as a room's laptops reach it (conftest.LAN_HOST). Every non-local request is blocked (conftest.py)."""

import json
import sqlite3

import pytest
from playwright.sync_api import expect

import support.assignment as assignment
from support import LAN_HOST, STARTUP_TIMEOUT_MS
from support.course import EXERCISES
from support.pages import assert_accessible_in_both_schemes, cells, check, exercise, on_the_clock, set_code
from support.servers import NAME, RoomServer, board_cell, join

BEAT_MS = 5000  # a joined page tells the server it is there (web/room/connection.js)
POLL_MS = 2000  # the teacher's board polls (web/hosts/teacher-board.js)

pytestmark = pytest.mark.usefixtures('site')


@pytest.fixture(params=['127.0.0.1', LAN_HOST], ids=['localhost', 'lan'])
def room(tmp_path, request):
    server = RoomServer(tmp_path / 'room', request.param)
    yield server
    server.stop()


def test_a_learner_joins_fails_then_passes_and_the_board_shows_it_live(page, context, room):
    page.clock.install()  # the board's polls come when the test moves the clock on
    join(page, room.url)
    board = context.new_page()
    board.goto(f"{room.url}teacher.html#token={room.room.token}")
    expect(board.get_by_test_id('board-message')).to_contain_text('0 learners', timeout=STARTUP_TIMEOUT_MS)

    box = exercise(page, 'mul-returns-value')
    check(box, 'failed')
    cell = board_cell(board, 'mul-returns-value')
    on_the_clock(
        board, POLL_MS, lambda ms: expect(cell).to_have_attribute('data-state', 'failed', timeout=ms), 2 * POLL_MS
    )
    expect(cell).to_have_attribute('data-attempts', '1')

    set_code(box, EXERCISES['mul-returns-value']['solution'] + '\n# <script>alert(1)</script>')
    check(box, 'passed')
    on_the_clock(
        board, POLL_MS, lambda ms: expect(cell).to_have_attribute('data-state', 'passed', timeout=ms), 2 * POLL_MS
    )
    expect(cell).to_have_attribute('data-attempts', '2')
    expect(board_cell(board, 'mul-records-graph')).to_have_count(0)  # nobody has tried it yet

    cell.get_by_role('button').click()
    code = board.get_by_test_id('student-code')
    expect(code).to_contain_text('return Value(self.data * other.data)')
    expect(code).to_contain_text('# <script>alert(1)</script>')  # drawn as text, never run
    expect(board.get_by_test_id('student-message')).to_contain_text('passed after 2 attempts')
    expect(board.get_by_test_id('student-row').first.locator('th')).to_have_text(NAME)
    assert board.locator('b').count() == 0, "a learner's name became markup"

    # A reload does not ask again: the name and the learner key are kept in this browser.
    page.reload()
    expect(page.get_by_test_id('classroom-badge')).to_contain_text('In class as', timeout=STARTUP_TIMEOUT_MS)
    expect(page.get_by_test_id('classroom-join')).to_have_count(0)


def test_without_the_token_the_board_shows_no_learner(page, room):
    statement = {
        'id': '00000000-0000-4000-8000-000000000001',
        'actor': {'name': 'Zebedee', 'account': {'homePage': room.url, 'name': 'k'}},
        'verb': {'id': 'http://adlnet.gov/expapi/verbs/failed'},
        'object': {'id': f'{room.url}course.html#exercise=mul'},
    }
    room.room.store(json.dumps(statement).encode(), '1.0.3', room.host)
    for fragment in ['', '#token=wrong']:
        page.goto(f"{room.url}teacher.html{fragment}")
        expect(page.get_by_test_id('board-message')).to_have_attribute('data-kind', 'error', timeout=STARTUP_TIMEOUT_MS)
        expect(page.get_by_test_id('progress')).to_be_hidden()
        assert 'Zebedee' not in page.content()
    page.goto(f"{room.url}teacher.html#token={room.room.token}")
    expect(page.get_by_test_id('student-row')).to_have_attribute('data-student', 'Zebedee', timeout=STARTUP_TIMEOUT_MS)
    assert_accessible_in_both_schemes(page, "the teacher's board with a learner's result")


def test_a_result_made_while_the_server_is_stopped_reaches_the_board_after_a_restart(page, context, room):
    page.clock.install()  # the heartbeat and the board's polls come when the test moves the clock on
    join(page, room.url)
    box = exercise(page, 'mul-returns-value')
    check(box, 'failed')  # Python is in the page now: it goes on without the server
    board = context.new_page()
    board.goto(f"{room.url}teacher.html#token={room.room.token}")
    expect(board_cell(board, 'mul-returns-value')).to_have_attribute('data-attempts', '1', timeout=10_000)
    room.stop()
    set_code(box, EXERCISES['mul-returns-value']['solution'])
    check(box, 'passed')
    page.wait_for_timeout(500)  # it tried, and failed, to send it
    room.start()
    # Resent at the next heartbeat after the restart, with no reload and no click; the board polls on its own.
    cell = board_cell(board, 'mul-returns-value')
    resent = BEAT_MS + 2 * POLL_MS  # the next heartbeat sends it, a poll of the board shows it
    on_the_clock(page, POLL_MS, lambda ms: expect(cell).to_have_attribute('data-state', 'passed', timeout=ms), resent)
    expect(cell).to_have_attribute('data-attempts', '2')


def test_a_static_host_asks_no_name_and_sends_nothing(page, site_url):
    requests = []
    page.on('request', lambda request: requests.append(request.url))
    page.goto(site_url + 'course.html')
    check(exercise(page, 'mul-returns-value'), 'failed')
    expect(page.get_by_test_id('classroom-join')).to_have_count(0)
    classroom_requests = [url for url in requests if '/classroom/' in url]
    assert classroom_requests == [site_url + 'classroom/config.json'], 'one probe, a 404, and nothing else'


def test_an_assignments_test_cells_reach_the_board_with_their_points(page, context, room, nbgrader_release):
    page.goto(room.url + 'notebook.html')
    dialog = page.get_by_test_id('classroom-join')
    dialog.get_by_test_id('student-name').fill(NAME)
    dialog.get_by_test_id('join').click()
    with page.expect_file_chooser() as chooser:
        page.get_by_test_id('open-notebook').click()
    chooser.value.set_files(str(nbgrader_release))
    set_code(cells(page).first, assignment.WRONG_TANH)
    page.get_by_test_id('run-all').click()
    expect(page.get_by_test_id('assignment-score')).to_have_text('2 / 5 points', timeout=STARTUP_TIMEOUT_MS)
    board = context.new_page()
    board.goto(f"{room.url}teacher.html#token={room.room.token}")
    expect(board_cell(board, 'test_mul')).to_have_attribute('data-state', 'passed', timeout=10_000)
    expect(board_cell(board, 'test_tanh')).to_have_attribute('data-state', 'failed', timeout=10_000)
    progress = room.room.progress()['students'][0]['exercises']
    assert progress['test_tanh']['last_message'] == 'the grad of tanh at 0.8814 should be about 0.5'
    assert 'self.grad += (1 - t) * out.grad' in progress['test_tanh']['last_code']
    with sqlite3.connect(room.room.path) as db:
        scores = dict(db.execute('SELECT exercise, score_raw FROM statements'))
    assert scores == {'test_mul': 2.0, 'test_tanh': 0.0}
