"""The room hands out and collects, as a teacher and two learners use it, at a LAN name over plain HTTP as a
room's laptops reach it: nbgrader makes the release in the room's folder, each learner opens it from
room.html, answers and hands in; `nbgrader autograde` grades the hand-ins where they landed; the feedback
nbgrader writes goes to its learner alone, shown without running its scripts. A hand-in made while the
server is stopped arrives after it starts again, and the board shows the hand-ins."""

import json
import shutil

import pytest
from playwright.sync_api import expect

import support.assignment as assignment
from support import LAN_HOST, STARTUP_TIMEOUT_MS, block_the_network
from support.assignment import autograde, make_course, nbgrader, source_notebook
from support.pages import assert_accessible_in_both_schemes, cells, on_the_clock, saved, set_code
from support.servers import RoomServer

pytestmark = pytest.mark.usefixtures('site')
FILE = 'assignment.ipynb'
BEAT_MS = 5000  # a joined page tells the server it is there (web/room/connection.js)
POLL_MS = 10_000  # room.html looks at the handouts again (web/hosts/room-page.js)


@pytest.fixture(scope='module')
def released(tmp_path_factory):
    """An nbgrader course with ps1 released by `nbgrader generate_assignment`, made once for the file (each
    nbgrader command takes about 3 s of processor time to start)."""
    return make_course(tmp_path_factory.mktemp('released') / 'course')


@pytest.fixture
def course(released, tmp_path):
    """The released course, copied into the room's folder: the test hands in, grades and changes it there."""
    return shutil.copytree(released, tmp_path / 'course')


@pytest.fixture
def room(course):
    server = RoomServer(course, LAN_HOST)
    yield server
    server.stop()


@pytest.fixture
def second_learner(browser, browser_context_args):
    """Another learner's browser: a context of its own, the network blocked as for the first."""
    context = browser.new_context(**browser_context_args)
    attempts = block_the_network(context)
    yield context.new_page()
    context.close()
    assert attempts == [], f"the page tried to reach the network: {attempts}"


def join_room(page, room, name):
    page.goto(room.url + 'room.html')
    dialog = page.get_by_test_id('classroom-join')
    expect(dialog).to_be_visible(timeout=STARTUP_TIMEOUT_MS)
    dialog.get_by_test_id('student-name').fill(name)
    dialog.get_by_test_id('join').click()
    expect(page.get_by_test_id('classroom-badge')).to_contain_text(f'In class as {name}')


def handout(page, assignment_name='ps1', file=FILE):
    return page.locator(f'[data-testid="handout"][data-assignment="{assignment_name}"][data-file="{file}"]')


def answer_and_hand_in(page, code):
    handout(page).get_by_test_id('handout-open').click()
    expect(cells(page)).to_have_count(4, timeout=STARTUP_TIMEOUT_MS)
    set_code(cells(page).first, code)
    page.get_by_test_id('run-all').click()
    expect(page.get_by_test_id('notebook-message')).to_contain_text('Ran all', timeout=STARTUP_TIMEOUT_MS)
    page.get_by_test_id('hand-in').click()
    expect(page.get_by_test_id('hand-in-status')).to_have_attribute('data-state', 'handed-in', timeout=30_000)
    expect(page.get_by_test_id('hand-in-status')).to_contain_text('Handed in at')


def test_two_learners_hand_in_nbgrader_grades_it_where_it_landed_and_each_sees_their_own_feedback(
    page, second_learner, room, course
):
    ana, bo = page, second_learner
    # A notebook in a subfolder is handed out as a file to download: nbgrader grades those at the top.
    (course / 'release' / 'ps1' / 'extra').mkdir()
    (course / 'release' / 'ps1' / 'extra' / 'more.ipynb').write_text(source_notebook())
    join_room(ana, room, 'Ana Lima')
    join_room(bo, room, 'Bo')
    for learner in (ana, bo):
        expect(handout(learner)).to_have_attribute('data-state', 'new', timeout=STARTUP_TIMEOUT_MS)
        expect(learner.get_by_test_id('handout')).to_have_count(2)
        expect(handout(learner, file='extra/more.ipynb').get_by_test_id('handout-open')).to_have_text('Download')
    answer_and_hand_in(ana, assignment.RIGHT)
    answer_and_hand_in(bo, assignment.WRONG_TANH)

    submitted = course / 'submitted'
    assert sorted(path.relative_to(submitted).as_posix() for path in submitted.rglob('*') if path.is_file()) == [
        f'ana_lima/ps1/{FILE}',
        'ana_lima/ps1/timestamp.txt',
        f'bo/ps1/{FILE}',
        'bo/ps1/timestamp.txt',
    ]
    assert autograde(course) == {'ana_lima': 5.0, 'bo': 2.0}  # no step between the hand-ins and nbgrader
    nbgrader(course, 'db', 'student', 'import', 'students.csv')  # the learners' names, for the gradebook
    nbgrader(course, 'generate_feedback', 'ps1')
    # The teacher's feedback is HTML: a script in it must not run in the learner's page.
    feedback = course / 'feedback' / 'ana_lima' / 'ps1' / 'assignment.html'
    feedback.write_text(
        feedback.read_text().replace('</body>', '<script>document.body.dataset.ran = "yes"</script></body>')
    )

    for learner, mine, theirs in [(ana, '5.0 / 5.0', '2.0 / 5.0'), (bo, '2.0 / 5.0', '5.0 / 5.0')]:
        learner.goto(room.url + 'room.html')
        expect(handout(learner)).to_have_attribute('data-state', 'feedback', timeout=STARTUP_TIMEOUT_MS)
        handout(learner).get_by_test_id('feedback-link').click()
        frame = learner.frame_locator('[data-testid="feedback-frame"]')
        expect(frame.locator('body')).to_contain_text(mine, timeout=10_000)
        expect(frame.locator('body')).not_to_contain_text(theirs)
        assert learner.get_by_test_id('feedback-frame').get_attribute('sandbox') == ''
    ana_frame = ana.frame_locator('[data-testid="feedback-frame"]').locator('body')
    expect(ana_frame).to_contain_text('Test')  # the test cells' results are there
    ana.wait_for_timeout(500)
    assert ana_frame.get_attribute('data-ran') is None, "a script of the feedback ran"
    assert_accessible_in_both_schemes(ana, 'room.html with its feedback open')


def test_a_hand_in_waits_while_the_server_is_away_and_the_board_shows_it(page, context, room, course):
    (course / 'release' / 'lesson').mkdir()
    (course / 'release' / 'lesson' / 'intro.md').write_text('# Intro\n\n```python\nx = 1\nprint(x)\n```\n')
    page.clock.install()  # the heartbeat comes when the test moves the clock on
    join_room(page, room, 'Ada')
    expect(handout(page, 'lesson', 'intro.md')).to_have_attribute('data-state', 'new', timeout=STARTUP_TIMEOUT_MS)
    handout(page, 'lesson', 'intro.md').get_by_test_id('handout-open').click()
    expect(cells(page)).to_have_count(1, timeout=STARTUP_TIMEOUT_MS)
    set_code(cells(page).first, 'x = 2\nprint(x)')
    saved(page)
    page.goto(room.url + 'room.html')
    expect(handout(page, 'lesson', 'intro.md')).to_have_attribute('data-state', 'started', timeout=STARTUP_TIMEOUT_MS)
    expect(handout(page)).to_have_attribute('data-state', 'new')

    handout(page, 'lesson', 'intro.md').get_by_test_id('handout-open').click()
    expect(cells(page)).to_have_count(1, timeout=STARTUP_TIMEOUT_MS)
    expect(page.get_by_test_id('hand-in')).to_be_visible(timeout=STARTUP_TIMEOUT_MS)  # once the page has joined
    room.stop()
    page.get_by_test_id('hand-in').click()
    status = page.get_by_test_id('hand-in-status')
    expect(status).to_have_attribute('data-state', 'waiting', timeout=10_000)
    expect(status).to_contain_text('Not sent yet')
    # The failed send told the page's heartbeat at once: the notice shows, and the hand-in goes when it hears the server.
    assert page.get_by_test_id('network-notice').is_visible()
    assert not (course / 'submitted').exists()
    room.start()
    on_the_clock(
        page, BEAT_MS, lambda ms: expect(status).to_have_attribute('data-state', 'handed-in', timeout=ms), BEAT_MS
    )
    handed = json.loads((course / 'submitted' / 'ada' / 'lesson' / 'intro.ipynb').read_text())
    assert ''.join(handed['cells'][1]['source']) == 'x = 2\nprint(x)'

    board = context.new_page()
    board.goto(f"{room.url}teacher.html#token={room.room.token}")
    cell = board.locator(
        '[data-testid="student-row"][data-student="Ada"] [data-testid="hand-in-cell"][data-assignment="lesson"]'
    )
    expect(cell).to_have_attribute('data-state', 'handed-in', timeout=STARTUP_TIMEOUT_MS)
    expect(
        board.locator(
            '[data-testid="student-row"][data-student="Ada"] [data-testid="hand-in-cell"][data-assignment="ps1"]'
        )
    ).to_have_attribute('data-state', 'none')
    with board.expect_download() as zipping:
        board.locator('[data-testid="hand-ins-zip"][data-assignment="lesson"]').click()
    assert zipping.value.suggested_filename == 'lesson.zip'

    # A hand-in still waiting when its tab was closed goes from room.html, the next time the learner opens it.
    page.goto(room.url + 'room.html')
    handout(page).get_by_test_id('handout-open').click()
    expect(cells(page)).to_have_count(4, timeout=STARTUP_TIMEOUT_MS)
    expect(page.get_by_test_id('hand-in')).to_be_visible(timeout=STARTUP_TIMEOUT_MS)  # once the page has joined
    room.stop()
    page.get_by_test_id('hand-in').click()
    expect(page.get_by_test_id('hand-in-status')).to_contain_text('Not sent yet', timeout=10_000)  # kept, then tried
    page.close()
    room.start()
    again = context.new_page()
    again.goto(room.url + 'room.html')
    expect(handout(again)).to_have_attribute('data-state', 'handed-in', timeout=30_000)
    assert (course / 'submitted' / 'ada' / 'ps1' / FILE).is_file()


def test_a_waiting_hand_in_that_the_server_then_refuses_is_said_on_the_rooms_page(page, context, room, course):
    lesson = course / 'release' / 'lesson'
    lesson.mkdir()
    (lesson / 'intro.md').write_text('# Intro\n\n```python\nx = 1\nprint(x)\n```\n')
    page.clock.install()  # room.html's next look at the handouts comes when the test moves the clock on
    join_room(page, room, 'Ada')
    handout(page, 'lesson', 'intro.md').get_by_test_id('handout-open').click()
    expect(cells(page)).to_have_count(1, timeout=STARTUP_TIMEOUT_MS)
    expect(page.get_by_test_id('hand-in')).to_be_visible(timeout=STARTUP_TIMEOUT_MS)  # once the page has joined
    room.stop()
    page.get_by_test_id('hand-in').click()
    expect(page.get_by_test_id('hand-in-status')).to_have_attribute('data-state', 'waiting', timeout=10_000)
    # "Sending…" shows at the click, before the hand-in is kept in IndexedDB: a page closed then (the test, on a
    # busy machine) lost it. Close it once the page says it is kept.
    expect(page.get_by_test_id('hand-in-status')).to_contain_text('It is kept in this browser', timeout=10_000)
    page.close()

    # The teacher withdraws the lesson while the hand-in waits: room.html sends it, and it is refused.
    (lesson / 'intro.md').unlink()
    room.start()
    again = context.new_page()
    again.goto(room.url + 'room.html')
    message = again.get_by_test_id('room-message')
    expect(message).to_contain_text('Not handed in: lesson/intro.md was not handed out in this room.', timeout=30_000)
    expect(message).to_contain_text('1 assignment from your teacher')  # the lesson's folder is empty
    expect(message).to_have_attribute('data-kind', 'error')

    # Handed out again, the lesson's line says so, until a hand-in of it is taken.
    (lesson / 'intro.md').write_text('# Intro\n\n```python\nx = 1\nprint(x)\n```\n')
    item = handout(again, 'lesson', 'intro.md')
    on_the_clock(
        again, POLL_MS, lambda ms: expect(item).to_have_attribute('data-state', 'refused', timeout=ms), POLL_MS
    )
    expect(item).to_contain_text('Not handed in: lesson/intro.md was not handed out in this room')
    expect(message).not_to_contain_text('Not handed in')
    item.get_by_test_id('handout-open').click()
    status = again.get_by_test_id('hand-in-status')
    expect(status).to_have_attribute('data-state', 'refused', timeout=STARTUP_TIMEOUT_MS)
    again.get_by_test_id('hand-in').click()
    expect(status).to_have_attribute('data-state', 'handed-in', timeout=30_000)
    again.goto(room.url + 'room.html')
    expect(handout(again, 'lesson', 'intro.md')).to_have_attribute(
        'data-state', 'handed-in', timeout=STARTUP_TIMEOUT_MS
    )
    assert (course / 'submitted' / 'ada' / 'lesson' / 'intro.ipynb').is_file()
