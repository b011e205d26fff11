"""The classroom's pages in the reader's language (issue 45): a learner's join dialog and badge, room.html, and
the teacher's board with its clock in the language's form; the pseudo-locale walks each. Learners' names and
exercises' ids are data, as the board shows them."""

import re

import pytest
from playwright.sync_api import expect

from support import STARTUP_TIMEOUT_MS
from support.languages import unmarked
from support.pages import check, exercise
from support.servers import RoomServer

pytestmark = pytest.mark.usefixtures('site')


@pytest.fixture
def room(tmp_path):
    server = RoomServer(tmp_path / 'room')
    yield server
    server.stop()


def join_as_ada(page, url):
    page.goto(url)
    dialog = page.get_by_test_id('classroom-join')
    expect(dialog).to_be_visible(timeout=STARTUP_TIMEOUT_MS)
    return dialog


def test_a_learner_joins_and_sees_the_room_in_french_and_the_teacher_reads_the_board_in_french(page, context, room):
    dialog = join_as_ada(page, room.url + 'course.html?locale=fr')
    expect(dialog.get_by_role('heading')).to_have_text('Rejoindre la classe')
    expect(dialog).to_contain_text('Votre nom, tel que votre enseignant le verra')
    page.get_by_test_id('student-name').fill('Ada')
    page.get_by_test_id('join').click()
    expect(page.get_by_test_id('classroom-badge')).to_have_text(
        'En classe en tant que Ada · Changer · Travail de la classe'
    )

    page.goto(room.url + 'room.html?locale=fr')
    expect(page.locator('h1')).to_have_text('Le travail de la classe')
    expect(page.get_by_test_id('room-message')).to_have_text(
        "Rien n'est encore distribué : votre enseignant met le travail dans le dossier release/ de la classe, "
        "et il s'affiche ici.",
        timeout=STARTUP_TIMEOUT_MS,
    )

    board = context.new_page()
    board.goto(f'{room.url}teacher.html?locale=fr#token={room.room.token}')
    expect(board.locator('h1')).to_have_text('Progression de la classe')
    # No learner with a result yet: 0 takes the singular by French's plural rule; the time as French writes it
    expect(board.get_by_test_id('board-message')).to_have_text(
        re.compile(r'^0 élève · mis à jour à \d\d:\d\d:\d\d · mise à jour toutes les 2 s$'), timeout=STARTUP_TIMEOUT_MS
    )


def test_the_pseudo_locale_leaves_no_word_of_the_room_s_pages_out(page, context, room):
    dialog = join_as_ada(page, room.url + 'course.html?locale=en-XA')
    assert unmarked(page) == []  # the course's own words come from the catalogue too
    page.get_by_test_id('student-name').fill('Ada')
    page.get_by_test_id('join').click()
    expect(dialog).to_have_count(0)
    assert unmarked(page) == []
    check(exercise(page, 'mul-returns-value'), 'failed')

    page.goto(room.url + 'room.html?locale=en-XA')
    expect(page.get_by_test_id('room-message')).to_contain_text('⟪', timeout=STARTUP_TIMEOUT_MS)
    assert unmarked(page) == []

    board = context.new_page()
    board.goto(f'{room.url}teacher.html?locale=en-XA#token={room.room.token}')
    expect(board.get_by_test_id('board-message')).to_contain_text('⟪', timeout=STARTUP_TIMEOUT_MS)
    expect(board.get_by_test_id('student-row')).to_have_count(1, timeout=STARTUP_TIMEOUT_MS)
    board.get_by_test_id('student-row').locator('td button').first.click()
    expect(board.get_by_test_id('student-message')).to_contain_text('⟪')
    assert unmarked(board) == []


def test_a_room_served_in_french_opens_in_french_unless_the_reader_chose_another_and_the_next_serve_decides_again(
    page, context, tmp_path
):
    room = RoomServer(tmp_path / 'room', locale='fr')  # serve --classroom DIR --locale fr
    try:
        page.goto(room.url + 'room.html')
        expect(page.locator('html')).to_have_attribute('lang', 'fr')
        expect(page.locator('h1')).to_have_text('Le travail de la classe')
        board = context.new_page()
        board.goto(f'{room.url}teacher.html#token={room.room.token}')
        expect(board.locator('h1')).to_have_text('Progression de la classe')
        expect(board.get_by_test_id('board-message')).to_contain_text('mis à jour à', timeout=STARTUP_TIMEOUT_MS)
        page.goto(room.url + 'room.html?locale=en')  # a link's language comes first
        expect(page.locator('h1')).to_have_text("The room's work")

        room.stop()
        room.locale = None  # the teacher serves the room again, without --locale
        room.start()
        board.reload()  # the page came with the cookie's end: English, the browser's language
        expect(board.locator('h1')).to_have_text('Class progress')

        room.stop()
        room.locale = 'fr'
        room.start()
        page.goto(room.url + 'index.html')  # the learner's main page, and the language they choose on its menu
        expect(page.get_by_test_id('language')).to_have_value('fr')
        page.get_by_test_id('language').select_option('es')
        expect(page.locator('html')).to_have_attribute('lang', 'es')
        page.goto(room.url + 'room.html')
        expect(page.locator('h1')).to_have_text('El trabajo de la clase')  # the learner's own choice comes first
    finally:
        room.stop()


def test_a_hand_in_the_server_refuses_says_why_in_the_learner_s_language(page, tmp_path):
    room = RoomServer(tmp_path / 'room', locale='es')
    lesson = room.room.folder / 'release' / 'lesson'
    lesson.mkdir(parents=True)
    (lesson / 'intro.md').write_text('# Intro\n\n```python\nx = 1\nprint(x)\n```\n')
    try:
        page.goto(room.url + 'room.html')
        dialog = page.get_by_test_id('classroom-join')
        expect(dialog).to_be_visible(timeout=STARTUP_TIMEOUT_MS)
        page.get_by_test_id('student-name').fill('Ada')
        page.get_by_test_id('join').click()
        page.get_by_test_id('handout-open').click()
        expect(page.get_by_test_id('hand-in')).to_be_visible(timeout=STARTUP_TIMEOUT_MS)
        (lesson / 'intro.md').unlink()  # the teacher withdraws it as the learner hands it in
        page.get_by_test_id('hand-in').click()
        status = page.get_by_test_id('hand-in-status')
        expect(status).to_have_attribute('data-state', 'refused', timeout=STARTUP_TIMEOUT_MS)
        expect(status).to_have_text('No entregado: lesson/intro.md no se repartió en esta clase.')
    finally:
        room.stop()
