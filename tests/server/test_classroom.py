"""The classroom's API (backprop_playground.classroom under the site's server), without a browser or a site
build: statements in, bad input refused with nothing stored, the teacher's token, resends stored once, kill -9,
and who is here."""

import json
import os
import signal
import socket
import time
import uuid

import pytest

from backprop_playground import classroom
from backprop_playground.classroom import presence
from backprop_playground.classroom.network import MODES
from support.http_calls import call, free_port
from support.servers import room_in_a_process, serving, stop

VERB = 'http://adlnet.gov/expapi/verbs/'


@pytest.fixture
def room(tmp_path, tiny_site):
    """A classroom server on a free port: (base URL, Classroom)."""
    kept = classroom.Classroom(tmp_path / 'room')
    server, url = serving(room=kept, directory=tiny_site)
    yield url, kept
    stop(server)


def statement(base, learner='key-ada', name='Ada', verb='failed', exercise='mul', code='a * b', **extra):
    result = {
        'success': verb == 'passed',
        'response': code,
        'extensions': {classroom.MESSAGE: 'b.grad is 0.0, expected 2.0'},
    }
    return {
        'id': str(uuid.uuid4()),
        'actor': {'objectType': 'Agent', 'name': name, 'account': {'homePage': base, 'name': learner}},
        'verb': {'id': VERB + verb},
        'object': {'id': f"{base}course.html#exercise={exercise}"},
        'result': result,
        **extra,
    }


def post(base, body, version='1.0.3'):
    headers = {'Content-Type': 'application/json', **({'X-Experience-API-Version': version} if version else {})}
    return call(base + 'classroom/xapi/statements', body, headers)


def progress(base, token):
    status, body = call(base + 'classroom/progress', headers={'Authorization': f'Bearer {token}'})
    assert status == 200, body
    return json.loads(body)


def stored(kept):
    import sqlite3

    with sqlite3.connect(kept.path) as db:
        return db.execute('SELECT COUNT(*) FROM statements').fetchone()[0]


def test_statements_are_stored_once_and_the_progress_shows_each_learner(room):
    base, kept = room
    first = statement(base)
    status, body = post(base, first)
    assert (status, json.loads(body)) == (200, [first['id']])
    assert post(base, first)[0] == 200, 'a resend is answered as a send'
    batch = [
        statement(base, verb='passed', code='a * b  # fixed'),
        statement(base, learner='key-bo', name='Bo', exercise='tanh'),
    ]
    assert json.loads(post(base, batch)[1]) == [s['id'] for s in batch]
    assert stored(kept) == 3

    students = progress(base, kept.token)['students']
    assert [s['name'] for s in students] == ['Ada', 'Bo']
    ada = students[0]
    assert ada['key'] == 'key-ada'
    mul = ada['exercises']['mul']
    assert (mul['state'], mul['attempts'], mul['last_code']) == ('passed', 2, 'a * b  # fixed')
    assert mul['last_message'] == 'b.grad is 0.0, expected 2.0' and mul['at']
    assert students[1]['exercises'] == {'tanh': {**students[1]['exercises']['tanh'], 'state': 'failed', 'attempts': 1}}

    status, csv_text = call(base + 'classroom/export.csv', headers={'Authorization': f'Bearer {kept.token}'})
    assert status == 200
    assert csv_text.splitlines()[0] == 'learner_key,name,exercise,state,attempts,last_at'
    assert csv_text.splitlines()[1].startswith('key-ada,Ada,mul,passed,2,')


def bad_cases(base):
    good = statement(base)
    without = lambda key: {k: v for k, v in good.items() if k != key}  # noqa: E731
    return [
        ('not JSON', b'{"id": ', '1.0.3', 400),
        ('no version header', good, None, 400),
        ('no actor', without('actor'), '1.0.3', 400),
        ('no account', {**good, 'actor': {'objectType': 'Agent', 'name': 'Ada'}}, '1.0.3', 400),
        ('an unknown verb', {**good, 'verb': {'id': VERB + 'completed'}}, '1.0.3', 400),
        (
            'a foreign object',
            {**good, 'object': {'id': 'http://elsewhere.example/course.html#exercise=mul'}},
            '1.0.3',
            400,
        ),
        ('an object without an exercise', {**good, 'object': {'id': f'{base}course.html'}}, '1.0.3', 400),
        ('an id that is not a UUID', {**good, 'id': 'one'}, '1.0.3', 400),
        ('a score that is not a number', {**good, 'result': {'score': {'raw': 'all'}}}, '1.0.3', 400),
        ('a good one beside a bad one', [statement(base), without('verb')], '1.0.3', 400),
        ('over 256 KB', statement(base, code='x' * 300_000), '1.0.3', 413),
    ]


def test_bad_input_is_refused_with_a_message_and_nothing_is_stored(room):
    base, kept = room
    for what, body, version, expected in bad_cases(base):
        status, text = post(base, body, version)
        assert status == expected, what
        assert json.loads(text)['error'], what
    assert stored(kept) == 0
    assert call(base + 'index.html')[0] == 200, 'the site is still served'


def test_more_than_100_statements_in_10_s_from_one_learner_are_refused_but_not_the_rooms(room):
    base, kept = room
    assert post(base, [statement(base) for _ in range(60)])[0] == 200
    status, text = post(base, [statement(base) for _ in range(41)])
    assert status == 429 and 'wait' in json.loads(text)['error']
    assert post(base, [statement(base, learner='key-bo', name='Bo') for _ in range(100)])[0] == 200
    assert stored(kept) == 160


def test_the_board_api_needs_the_teachers_token(room):
    base, kept = room
    post(base, statement(base))
    for path in ['classroom/progress', 'classroom/export.csv']:
        for headers in [{}, {'Authorization': 'Bearer wrong'}, {'Authorization': f'Bearer {kept.token[:-1]}'}]:
            status, text = call(base + path, headers=headers)
            assert status == 401 and 'Ada' not in text, (path, headers)
    assert classroom.Classroom(kept.folder).token == kept.token, 'a restart keeps the link'


def test_without_a_classroom_there_is_no_api(tiny_site):
    server, url = serving(directory=tiny_site)
    try:
        assert call(url + 'classroom/config.json')[0] == 404
        assert post(url, {'id': str(uuid.uuid4())})[0] == 501
        assert call(url)[0] == 200
    finally:
        stop(server)


def test_a_statement_answered_200_survives_kill_9(tmp_path):
    folder, port = tmp_path / 'room', free_port()
    process, base = room_in_a_process(folder, port)
    try:
        sent = [statement(base, exercise=f'e{i}') for i in range(20)]
        for one in sent:
            assert post(base, one)[0] == 200
    finally:
        os.kill(process.pid, signal.SIGKILL)
        process.wait()
    process, base = room_in_a_process(folder, port)
    try:
        token = (folder / 'teacher-token').read_text().strip()
        exercises = progress(base, token)['students'][0]['exercises']
        assert sorted(exercises) == sorted(f'e{i}' for i in range(20))
    finally:
        process.kill()
        process.wait()


def test_a_negative_content_length_is_refused_at_once(room):
    base, kept = room
    with socket.create_connection(('127.0.0.1', int(base.rsplit(':', 1)[1].strip('/')))) as connection:
        connection.settimeout(10)
        connection.sendall(
            b'POST /classroom/xapi/statements HTTP/1.1\r\nHost: x\r\nContent-Length: -5\r\n'
            b'X-Experience-API-Version: 1.0.3\r\n\r\n'
        )
        assert connection.recv(100).startswith(b'HTTP/1.0 400')


def present(base, body):
    return call(base + 'classroom/presence', body, {'Content-Type': 'application/json'})


BROWSER = {'secure': False, 'isolated': False, 'interrupt': False, 'offline': False}


def test_pages_say_they_are_here_and_the_board_counts_what_their_browsers_can_do(room):
    base, kept = room
    status, body = call(base + 'classroom/config.json')
    assert (status, json.loads(body)['mode']) == (200, 'plain-http')
    assert present(base, {'key': 'key-ada', 'browser': BROWSER}) == (204, '')
    assert present(base, {'key': 'key-bo', 'browser': {**BROWSER, 'secure': True, 'offline': True}}) == (204, '')
    assert present(base, {'key': 'key-bo', 'browser': {**BROWSER, 'secure': True, 'offline': True}}) == (204, '')
    assert post(base, [statement(base)])[0] == 200
    shown = progress(base, kept.token)
    assert shown['room'] == {
        'mode': 'plain-http',
        'browsers': {'learners': 2, 'secure': 1, 'isolated': 0, 'interrupt': 0, 'offline': 1},
    }
    assert shown['students'][0]['browser'] == BROWSER  # Ada's row carries her browser
    for bad in [
        b'not json',
        {'key': 'k'},
        {'key': '', 'browser': BROWSER},
        {'key': 'k', 'browser': {**BROWSER, 'secure': 'yes'}},
        {'key': 'k' * 101, 'browser': BROWSER},
        [],
    ]:
        status, body = present(base, bad)
        assert status == 400 and json.loads(body)['error'], (bad, body)
    assert present(base, {'key': 'k', 'browser': BROWSER, 'pad': 'x' * 3000})[0] == 413
    assert progress(base, kept.token)['room']['browsers']['learners'] == 2, 'refused presences were counted'


def test_a_browser_not_heard_from_for_a_minute_is_not_counted(room, monkeypatch):
    base, kept = room
    present(base, {'key': 'key-ada', 'browser': BROWSER})
    later = time.monotonic() + presence.WINDOW_S + 1
    monkeypatch.setattr(presence.time, 'monotonic', lambda: later)
    assert kept.room()['browsers']['learners'] == 0


@pytest.mark.parametrize('mode', MODES)
def test_the_room_says_how_learners_reach_it(tmp_path, mode):
    assert classroom.Classroom(tmp_path, mode=mode).room()['mode'] == mode


def test_an_unknown_mode_is_refused(tmp_path):
    with pytest.raises(ValueError, match='plain-http'):
        classroom.Classroom(tmp_path, mode='lan')
