"""The room's record forwarded to a school's Learning Record Store (classroom/forward.py, `serve --forward`):
against a recording stub that scripts every answer an LRS may give (batches, headers, order, conflicts,
refusals, credentials, outages, backoff), then against a real LRS, Ralph, across an outage and a kill -9 of
the room's server in the middle of a batch: every statement arrives, none twice."""

import base64
import hashlib
import hmac
import http.server
import json
import os
import signal
import sqlite3
import subprocess
import sys
import threading
import time
import urllib.error
import urllib.request
import uuid

import pytest

from backprop_playground import cli, paths
from backprop_playground.classroom import MESSAGE, Classroom, forward, statements
from backprop_playground.classroom.forward import AUTH_VARIABLE, Backoff, Target
from support import ROOT
from support.http_calls import call, free_port
from support.ralph import PASSWORD, USER, Ralph, installed
from support.servers import RecordingLRS, in_a_thread, room_in_a_process, serving, stop

VERB = 'http://adlnet.gov/expapi/verbs/'
AUTH = ('room', 'the right password')
FAST = {'first': 0.02, 'cap': 0.1}  # backoff for the tests: the real one starts at 2 to 4 s


@pytest.fixture
def lrs():
    stub = RecordingLRS().start()
    yield stub
    stub.stop()


class CountingBackoff(Backoff):
    """The real schedule, fast, with each wait it was asked for: (failures, seconds). With `hold_at=N`, the
    forwarder is held in its Nth wait until the test calls release(): the test reads the state that wait
    stands for, however late its own thread runs (a fast wait may be over before a busy machine looks)."""

    def __init__(self, hold_at=None, **options):
        super().__init__(**{**FAST, **options})
        self.asked = []
        self.hold_at, self.released = hold_at, threading.Event()

    def delay(self, failures):
        seconds = super().delay(failures)
        self.asked.append((failures, seconds))
        if len(self.asked) == self.hold_at:
            self.released.wait(60)
        return seconds

    def release(self):
        self.released.set()


@pytest.fixture
def rooms(tiny_site):
    """open(folder, lrs_url, user=..., password=..., **forwarder options) -> (base URL, Classroom), a room's server
    forwarding to `lrs_url`; each is stopped at the end."""
    opened = []

    def open_room(folder, url, user=AUTH[0], password=AUTH[1], **options):
        room = Classroom(
            folder, forward=Target(url, user, password, 'the test'), **{'backoff': CountingBackoff(), **options}
        )
        server, base = serving(room=room, directory=tiny_site)
        opened.append((server, room))
        return base, room

    yield open_room
    for server, room in opened:
        room.forwarder.stop()
        stop(server)


def statement(base, learner='key-ada', name='Ada', verb='failed', exercise='mul', timestamp=True):
    made = {
        'id': str(uuid.uuid4()),
        'actor': {'objectType': 'Agent', 'name': name, 'account': {'homePage': base, 'name': learner}},
        'verb': {'id': VERB + verb, 'display': {'en-US': verb}},
        'object': {'objectType': 'Activity', 'id': f"{base}course.html#exercise={exercise}"},
        'result': {
            'success': verb == 'passed',
            'response': 'a * b',
            'extensions': {MESSAGE: 'b.grad is 0.0, expected 2.0'},
        },
    }
    if timestamp:
        made['timestamp'] = time.strftime('%Y-%m-%dT%H:%M:%S.000Z', time.gmtime())
    return made


def as_forwarded(made, token):
    """`made` as the LRS should get it: the learner key replaced by its pseudonym in this room."""
    key = made['actor']['account']['name']
    pseudonym = hmac.new(token.encode(), key.encode(), hashlib.sha256).hexdigest()[:32]
    return {**made, 'actor': {**made['actor'], 'account': {**made['actor']['account'], 'name': pseudonym}}}


def post(base, body):
    headers = {'Content-Type': 'application/json', 'X-Experience-API-Version': '1.0.3'}
    status, text = call(base + 'classroom/xapi/statements', body, headers)
    assert status == 200, text
    return json.loads(text)


def post_many(base, count, learners=5, **options):
    """`count` statements from several learners (each may send 100 in 10 s), posted 10 at a time: in order."""
    sent = [
        statement(base, learner=f'key-{i % learners}', name=f'Learner {i % learners}', **options) for i in range(count)
    ]
    for start in range(0, count, 10):
        post(base, sent[start : start + 10])
    return sent


def forwarding(base, token):
    status, text = call(base + 'classroom/progress', headers={'Authorization': f'Bearer {token}'})
    assert status == 200, text
    return json.loads(text)['forwarding']


def eventually(check, what, timeout=60):
    """Waits until check() is truthy (the forwarder works on its own thread); returns its value."""
    deadline = time.monotonic() + timeout
    while not (value := check()):
        assert time.monotonic() < deadline, f"timed out waiting for {what}"
        time.sleep(0.02)
    return value


def up_to_date(base, room):
    return eventually(lambda: (f := forwarding(base, room.token))['state'] == 'up-to-date' and f, 'up-to-date')


def basic(user, password):
    return 'Basic ' + base64.b64encode(f"{user}:{password}".encode()).decode()


# Against the recording stub.


def test_every_statement_goes_once_in_order_in_batches_of_at_most_100_with_the_xapi_headers(rooms, lrs, tmp_path):
    is_open = threading.Event()
    lrs.answer = lambda batch: (200, [s['id'] for s in batch]) if is_open.is_set() else (503, {'detail': 'starting up'})
    base, room = rooms(tmp_path / 'room', lrs.url)
    sent = post_many(base, 250)
    shown = eventually(
        lambda: (f := forwarding(base, room.token))['waiting'] == 250 and f['state'] == 'waiting' and f,
        'the LRS to answer 503',
    )
    assert shown['to'] == lrs.url and 'the LRS answered 503: starting up' in shown['last_error']
    is_open.set()
    shown = up_to_date(base, room)
    assert (shown['waiting'], shown['conflicts'], shown['last_error']) == (0, [], None)

    assert lrs.taken() == [s['id'] for s in sent], 'each statement once, in the order the room stored them'
    taken = [seen for seen in lrs.requests if seen['status'] == 200]
    assert [len(seen['statements']) for seen in taken] == [100, 100, 50]
    assert [s for seen in taken for s in seen['statements']] == [as_forwarded(s, room.token) for s in sent], (
        'forwarded as received, timestamp included, the learner key replaced'
    )
    for seen in lrs.requests:
        assert seen['path'] == '/xAPI/statements'
        assert seen['headers']['X-Experience-API-Version'] == '1.0.3'
        assert seen['headers']['Content-Type'] == 'application/json'
        assert seen['headers']['Authorization'] == basic(*AUTH)
    with sqlite3.connect(room.path) as db:
        assert db.execute('SELECT lrs, status, COUNT(*) FROM forwarded GROUP BY lrs, status').fetchall() == [
            (lrs.url, 200, 250)
        ]


def test_the_room_answers_learners_at_once_while_the_lrs_holds_its_request(rooms, lrs, tmp_path):
    lrs.answer = lambda batch: lrs.release.wait() and (200, [s['id'] for s in batch])
    base, room = rooms(tmp_path / 'room', lrs.url)
    first = post_many(base, 1)
    eventually(lambda: lrs.requests, 'the forwarder to post')
    later = post_many(base, 20)  # each post answered 200 while the LRS has not answered
    assert not lrs.release.is_set() and len(lrs.requests) == 1
    assert forwarding(base, room.token) | {'conflicts': None} == {
        'state': 'sending',
        'to': lrs.url,
        'waiting': 21,
        'conflicts': None,
        'last_error': None,
    }
    lrs.release.set()
    up_to_date(base, room)
    assert lrs.taken() == [s['id'] for s in first + later]


def refusing(ids, status, detail):
    """An LRS that refuses a whole batch when it holds one of `ids`, as Ralph does."""
    return lambda batch: (
        (status, {'detail': detail}) if any(s['id'] in ids for s in batch) else (200, [s['id'] for s in batch])
    )


def test_a_conflict_is_set_aside_never_retried_and_the_rest_of_its_batch_delivered(rooms, lrs, tmp_path):
    base, room = rooms(tmp_path / 'room', lrs.url)
    lrs.answer = lambda batch: (503, None)
    sent = post_many(base, 10)
    conflict = sent[6]
    detail = f"Differing statements already exist with the same ID: {conflict['id']}"
    eventually(lambda: lrs.requests, 'a first attempt')
    lrs.answer = refusing({conflict['id']}, 409, detail)
    shown = up_to_date(base, room)
    assert lrs.taken() == [s['id'] for s in sent if s is not conflict]
    assert shown['waiting'] == 0
    assert shown['conflicts'] == [
        {
            'id': conflict['id'],
            'status': 409,
            'error': detail,
            'at': shown['conflicts'][0]['at'],
            'name': 'Learner 1',
            'exercise': 'mul',
        }
    ]

    def tries():
        return sum(
            any(s['id'] == conflict['id'] for s in seen['statements']) for seen in lrs.requests if seen['status'] != 503
        )

    assert tries() == 4, 'split in halves until it is alone: 10, 5, 2, 1'
    more = post_many(base, 3)
    eventually(lambda: lrs.taken()[-3:] == [s['id'] for s in more], 'the next statements')
    assert tries() == 4, 'a conflict is never sent again'
    assert up_to_date(base, room)['conflicts'][0]['id'] == conflict['id']


def test_only_what_the_room_checked_leaves_it_and_never_the_learner_key(rooms, lrs, tmp_path):
    """A page may put anything in a statement: the LRS gets the checked fields, a canonical id, a valid
    timestamp, and a pseudonym for the learner key (which lets a page read its learner's feedback)."""
    base, room = rooms(tmp_path / 'room', lrs.url)
    odd = statement(base)
    canonical_id = odd['id']
    odd.update(
        id=f"urn:uuid:{canonical_id.upper()}",
        timestamp='yesterday',
        authority={'mbox': 'mailto:head@school'},
        context={'platform': 'forged'},
    )
    odd['object']['definition'] = {'name': {'en-US': 'Forged title'}}
    odd['result']['score'] = {'raw': 1, 'max': 2, 'scaled': 'lots'}
    post(base, odd)
    up_to_date(base, room)
    (forwarded,) = lrs.requests[-1]['statements']
    with sqlite3.connect(tmp_path / 'room' / 'classroom.sqlite') as db:
        stored = db.execute('SELECT stored FROM statements').fetchone()[0]
    assert forwarded == as_forwarded(
        {
            **statement(base),
            'id': canonical_id,
            'timestamp': stored,
            'result': {**odd['result'], 'score': {'raw': 1, 'max': 2}},
        },
        room.token,
    )
    assert 'key-ada' not in json.dumps([seen['statements'] for seen in lrs.requests])


def test_an_lrs_that_refuses_every_statement_gets_them_again_and_sets_none_aside(rooms, lrs, tmp_path):
    """A proxy or an LRS that answers 400 to everything (a wrong port, a small body limit) is no reason to
    give up the record: nothing is set aside, the board says why, and all go once it takes them."""
    lrs.answer = lambda batch: (400, {'detail': 'The plain HTTP request was sent to HTTPS port'})
    base, room = rooms(tmp_path / 'room', lrs.url)
    sent = post_many(base, 6)
    shown = eventually(
        lambda: 'refused every statement' in ((f := forwarding(base, room.token))['last_error'] or '') and f,
        'the refusal on the board',
    )
    assert (shown['state'], shown['waiting'], shown['conflicts']) == ('waiting', 6, [])
    # Mended between two passes, from the next whole batch on (mended in the middle of one: the next test).
    mended = []

    def from_the_next_whole_batch(batch):
        mended.append(any(mended) or len(batch) == 6)
        return (
            (200, [s['id'] for s in batch])
            if mended[-1]
            else (400, {'detail': 'The plain HTTP request was sent to HTTPS port'})
        )

    lrs.answer = from_the_next_whole_batch
    up_to_date(base, room)
    assert lrs.taken() == [s['id'] for s in sent]


def test_an_lrs_that_begins_taking_statements_while_a_batch_is_split_sets_none_aside(rooms, lrs, tmp_path):
    """Refused whole, the batch is split; the LRS is mended part way (its first three answers are 400): the
    statements refused before are not the bad ones, so each is sent alone again and taken."""
    base, room = rooms(tmp_path / 'room', lrs.url)
    lrs.answer = lambda batch: (503, None)
    sent = post_many(base, 6)
    eventually(lambda: lrs.requests, 'a first attempt')
    answers = []

    def mended_after_three(batch):
        answers.append(len(batch))
        return (400, {'detail': 'too large'}) if len(answers) <= 3 else (200, [s['id'] for s in batch])

    lrs.answer = mended_after_three
    shown = up_to_date(base, room)
    assert shown['conflicts'] == []
    assert answers[:3] == [6, 3, 1], answers  # the whole batch, its first half, that half's first statement
    # Each goes once; the one refused before the LRS was mended goes after those sent since.
    assert sorted(lrs.taken()) == sorted(s['id'] for s in sent)


@pytest.mark.parametrize('status', [400, 413, 422])
def test_a_statement_the_lrs_refuses_is_set_aside_with_its_message_and_the_rest_delivered(rooms, lrs, tmp_path, status):
    base, room = rooms(tmp_path / 'room', lrs.url)
    lrs.answer = lambda batch: (503, None)
    sent = post_many(base, 12)
    eventually(lambda: lrs.requests, 'a first attempt')
    offenders = {sent[0]['id'], sent[9]['id']}
    lrs.answer = refusing(offenders, status, f'<b>refused</b> with {status}')
    shown = up_to_date(base, room)
    assert lrs.taken() == [s['id'] for s in sent if s['id'] not in offenders]
    assert {c['id'] for c in shown['conflicts']} == offenders
    assert {(c['status'], c['error']) for c in shown['conflicts']} == {(status, f'<b>refused</b> with {status}')}


def outage(kind, lrs):
    """An LRS that fails this way for its first three attempts, then takes everything."""
    failed = []

    def answer(batch):
        if len(failed) < 3:
            failed.append(kind)
            if kind == 'timeout':
                time.sleep(1)  # past the forwarder's timeout: it may have stored them, as a real one may
                return 200, [s['id'] for s in batch]
            # A redirect to where a GET answers 200 and a list, as a login page might: a client that follows it
            # would take that for the LRS's answer.
            scripted = {
                'redirect': (302, None, {'Location': '/xAPI/statements'}),
                'not xAPI': (200, {'welcome': 'to the school'}),
            }
            return scripted.get(kind, (kind, {'detail': 'busy'}))
        return 200, [s['id'] for s in batch]

    return answer


@pytest.mark.parametrize('kind', ['refused', 'timeout', 429, 500, 502, 503, 'redirect', 'not xAPI'])
def test_an_lrs_that_is_away_or_busy_is_retried_with_backoff_and_nothing_is_dropped(rooms, tmp_path, kind):
    lrs = RecordingLRS(port=free_port())
    backoff = CountingBackoff(hold_at=3)  # the fourth attempt, the first that can succeed, waits for the test
    try:
        if kind != 'refused':
            lrs.start()
            lrs.answer = outage(kind, lrs)
        base, room = rooms(tmp_path / 'room', lrs.url, backoff=backoff, timeout=0.3)
        sent = post_many(base, 30)
        shown = eventually(lambda: len(backoff.asked) >= 3 and forwarding(base, room.token), 'three failed attempts')
        assert shown['state'] == 'waiting' and shown['waiting'] == 30
        expected = {
            'refused': 'no answer from',
            'timeout': 'no answer from',
            'redirect': 'answered 302',
            'not xAPI': 'not an xAPI list',
        }.get(kind, f'the LRS answered {kind}: busy')
        assert expected in shown['last_error'], shown['last_error']
        if kind == 'refused':
            lrs.start()
        backoff.release()
        shown = up_to_date(base, room)
        assert shown['last_error'] is None and shown['conflicts'] == []
        delivered = [seen for seen in lrs.requests if seen['status'] == 200][-1:]  # the one whose answer arrived
        assert [s['id'] for s in delivered[0]['statements']] == [s['id'] for s in sent]
        assert [failures for failures, _ in backoff.asked[:3]] == [1, 2, 3], 'each failure waits longer'
    finally:
        backoff.release()
        lrs.stop()


def test_the_backoff_starts_within_5_s_doubles_to_at_most_60_s_with_jitter():
    def waits(draw):
        return [Backoff(random=lambda: draw).delay(failures) for failures in range(1, 12)]

    longest, shortest = waits(1.0), waits(0.0)
    assert longest[0] <= 5 and max(longest) == 60
    assert longest[:5] == [4, 8, 16, 32, 60] and longest == sorted(longest)
    assert shortest == [wait / 2 for wait in longest], 'jitter: each wait is drawn from the upper half of its step'
    drawn = {Backoff().delay(1) for _ in range(20)}
    assert len(drawn) > 1 and all(2 <= wait <= 4 for wait in drawn)


@pytest.mark.parametrize('status', [401, 403])
def test_refused_credentials_pause_forwarding_and_a_restart_with_the_right_file_resumes(rooms, lrs, tmp_path, status):
    lrs.answer = lambda batch: (
        (200, [s['id'] for s in batch])
        if lrs.requests[-1]['headers']['Authorization'] == basic(*AUTH)
        else (status, {'detail': 'Invalid authentication credentials'})
    )
    base, room = rooms(tmp_path / 'room', lrs.url, password='a wrong one')
    sent = post_many(base, 5)
    shown = eventually(
        lambda: (f := forwarding(base, room.token))['state'] == 'refused' and f, 'the credentials refused'
    )
    assert 'refused the credentials from the test' in shown['last_error'] and str(status) in shown['last_error']
    assert 'wrong' not in json.dumps(shown)
    sent += post_many(base, 5)
    time.sleep(0.5)  # time for a forwarder that did not pause to try again (its backoff here is 0.1 s at most)
    room.forwarder.stop()
    assert len(lrs.requests) == 1, 'paused: nothing sent after the refusal'
    assert forwarding(base, room.token)['waiting'] == 10

    base, room = rooms(tmp_path / 'room', lrs.url)  # the restart, with the right credentials
    up_to_date(base, room)
    assert lrs.taken() == [s['id'] for s in sent]


def test_an_answer_the_room_could_not_record_is_sent_again_and_a_failure_of_its_own_does_not_stop_it(
    rooms, lrs, tmp_path, monkeypatch
):
    base, room = rooms(tmp_path / 'room', lrs.url)
    lrs.answer = lambda batch: (503, None)
    sent = post_many(base, 4)
    eventually(lambda: lrs.requests, 'a first attempt')
    write, failed, disk_full = room.write, [], threading.Event()

    def full_disk(sql, rows):
        if 'forwarded' in sql and disk_full.is_set():
            failed.append(sql)
            raise sqlite3.OperationalError('database or disk is full')
        return write(sql, rows)

    # The disk stays full until the board has said so: a failure that lasted one quick retry could be over
    # before a busy machine's request for the board was answered.
    disk_full.set()
    monkeypatch.setattr(room, 'write', full_disk)
    lrs.answer = lambda batch: (200, [s['id'] for s in batch])
    eventually(lambda: 'could not record' in (forwarding(base, room.token)['last_error'] or ''), 'the mark to fail')
    disk_full.clear()
    up_to_date(base, room)
    # Sent again after each answer the room could not record (an LRS answers a resend 204), and once recorded, no more.
    assert failed and lrs.taken() == [s['id'] for s in sent] * (len(failed) + 1)

    real_as_sent = forward.as_sent
    monkeypatch.setattr(forward, 'as_sent', lambda *args: 1 / 0)
    more = post_many(base, 2)
    eventually(
        lambda: 'the forwarder failed: ZeroDivisionError' in (forwarding(base, room.token)['last_error'] or ''),
        'the failure shown',
    )
    monkeypatch.setattr(forward, 'as_sent', real_as_sent)
    up_to_date(base, room)
    assert lrs.taken()[-2:] == [s['id'] for s in more]


OLD_SCHEMA = """
CREATE TABLE IF NOT EXISTS statements (
    id TEXT PRIMARY KEY, learner TEXT NOT NULL, name TEXT NOT NULL, verb TEXT NOT NULL, exercise TEXT NOT NULL,
    response TEXT, message TEXT, score_raw REAL, score_max REAL, stored TEXT NOT NULL, statement TEXT NOT NULL
);
CREATE INDEX IF NOT EXISTS statements_by_learner ON statements (learner, exercise, stored);
"""  # classroom.sqlite as rooms kept it before forwarding


def test_a_rooms_database_from_before_forwarding_opens_and_its_record_is_forwarded(rooms, lrs, tmp_path):
    folder = tmp_path / 'room'
    folder.mkdir()
    base = 'http://127.0.0.1:8000/'
    earlier = [statement(base, exercise=f'e{i}', timestamp=i != 1) for i in range(3)]
    with sqlite3.connect(folder / 'classroom.sqlite') as db:
        db.executescript(OLD_SCHEMA)
        db.executemany(
            'INSERT INTO statements VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)',
            [statements.row(s, '127.0.0.1:8000') for s in earlier],
        )
    plain = Classroom(folder)
    assert plain.progress()['forwarding'] == {
        'state': 'off',
        'to': None,
        'waiting': 0,
        'conflicts': [],
        'last_error': None,
    }
    assert sorted(plain.progress()['students'][0]['exercises']) == ['e0', 'e1', 'e2']

    _, room = rooms(folder, lrs.url)
    eventually(lambda: len(lrs.taken()) == 3, 'the earlier record forwarded')
    forwarded = lrs.requests[-1]['statements']
    assert forwarded[0] == as_forwarded(earlier[0], room.token) and forwarded[2] == as_forwarded(earlier[2], room.token)
    with sqlite3.connect(folder / 'classroom.sqlite') as db:
        stored = db.execute('SELECT stored FROM statements WHERE id = ?', (earlier[1]['id'],)).fetchone()[0]
    assert forwarded[1] == as_forwarded({**earlier[1], 'timestamp': stored}, room.token), (
        'one without a timestamp gets the time the room stored it'
    )


# The command line.


def serve_command(folder, port, *forward, env=None):
    """`backprop-playground serve --classroom folder ...` as installed (nothing built): (process, first lines)."""
    code = (
        "import sys; from backprop_playground import cli, paths; paths.in_checkout = lambda: False; "
        "cli.main(sys.argv[1:])"
    )
    process = subprocess.Popen(
        [sys.executable, '-c', code, 'serve', '--port', str(port), '--classroom', str(folder), *forward],
        cwd=ROOT,
        stdout=subprocess.PIPE,
        stderr=subprocess.STDOUT,
        text=True,
        env={**os.environ, 'PYTHONPATH': str(ROOT / 'py' / 'backprop-playground'), **(env or {})},
    )
    printed = []
    while not printed or not printed[-1].startswith(('forwarding:', 'backprop-playground:')):
        line = process.stdout.readline()
        assert line, f"serve ended: {printed}"
        printed.append(line.rstrip('\n'))
    return process, printed


@pytest.mark.parametrize('given', ['file', 'environment'])
def test_serve_reads_the_credentials_from_a_file_or_the_environment_and_says_where_statements_go(lrs, tmp_path, given):
    secret = tmp_path / 'lrs-credentials'
    secret.write_text(f"{AUTH[0]}:{AUTH[1]}\n")
    port = free_port()
    forward = ['--forward', lrs.url] + (['--forward-auth', str(secret)] if given == 'file' else [])
    env = {AUTH_VARIABLE: f"{AUTH[0]}:{AUTH[1]}"} if given == 'environment' else {AUTH_VARIABLE: ''}
    process, printed = serve_command(tmp_path / 'room', port, *forward, env=env)
    try:
        source = str(secret) if given == 'file' else AUTH_VARIABLE
        assert printed[-1] == (
            f"forwarding: every statement also goes to the LRS at {lrs.url}statements (credentials from "
            f"{source}); the teacher's board shows what waits"
        )
        assert not any(AUTH[1] in line for line in printed)
        base = f"http://127.0.0.1:{port}/"
        sent = post_many(base, 3)
        token = (tmp_path / 'room' / 'teacher-token').read_text().strip()
        eventually(lambda: forwarding(base, token)['state'] == 'up-to-date', 'up-to-date')
        assert lrs.taken() == [s['id'] for s in sent]
        assert {seen['headers']['Authorization'] for seen in lrs.requests} == {basic(*AUTH)}
        assert AUTH[1] not in call(base + 'classroom/progress', headers={'Authorization': f'Bearer {token}'})[1]
    finally:
        process.kill()
        process.wait()


@pytest.mark.parametrize(
    'arguments, credentials, says',
    [
        (['--forward', 'http://lrs.school:8100/xAPI/'], None, 'needs the LRS\'s user and password'),
        (
            ['--forward', 'http://room:secret-word@lrs.school/xAPI/', '--forward-auth', 'FILE'],
            'room:secret-word',
            'never in the address',
        ),
        (
            ['--forward', 'ftp://lrs.school/xAPI/', '--forward-auth', 'FILE'],
            'room:secret-word',
            "the LRS's xAPI address",
        ),
        (['--forward', 'http://lrs.school/xAPI/?x=1', '--forward-auth', 'FILE'], 'room:secret-word', 'no ?query'),
        (['--forward', 'http://lrs.school/xAPI/', '--forward-auth', 'FILE'], 'secret-word', 'one line, user:password'),
        (['--forward', 'http://lrs.school/xAPI/', '--forward-auth', 'MISSING'], None, 'could not be read'),
        (['--forward-auth', 'FILE'], 'room:secret-word', 'goes with --forward'),
        (
            ['--forward', 'http://lrs.school/xAPI/', '--forward-auth', 'FILE', '--no-classroom'],
            'room:secret-word',
            'needs --classroom',
        ),
    ],
)
def test_serve_refuses_forwarding_it_cannot_do_and_never_prints_the_password(
    tmp_path, monkeypatch, capsys, arguments, credentials, says
):
    monkeypatch.setattr(paths, 'in_checkout', lambda: False)
    monkeypatch.delenv(AUTH_VARIABLE, raising=False)
    secret = tmp_path / 'lrs-credentials'
    if credentials:
        secret.write_text(credentials)
    classroom = [] if '--no-classroom' in arguments else ['--classroom', str(tmp_path / 'room')]
    argv = [
        'serve',
        '--port',
        '0',
        *classroom,
        *[
            {'FILE': str(secret), 'MISSING': str(tmp_path / 'none')}.get(a, a)
            for a in arguments
            if a != '--no-classroom'
        ],
    ]
    with pytest.raises(SystemExit) as exited:
        cli.main(argv)
    assert says in str(exited.value.code) and 'secret-word' not in str(exited.value.code) + capsys.readouterr().out


# Against Ralph, a real LRS.


@pytest.fixture(scope='module')
def ralph_python():
    python, why = installed()  # installs it when missing
    if not python:
        # .ci/run installs Ralph first: there a missing Ralph is a failure, elsewhere a reason to skip.
        (pytest.fail if os.environ.get('CI') else pytest.skip)(why)
    return python


@pytest.fixture
def ralph(ralph_python, tmp_path):
    lrs = Ralph(ralph_python, tmp_path / 'ralph')
    yield lrs
    lrs.stop()


def test_ralph_answers_as_the_forwarder_expects(ralph):
    base, right = 'http://127.0.0.1:8000/', ralph.authorization()
    one, other = statement(base), statement(base)
    assert ralph.post([one], right) == (200, json.dumps([one['id']]))
    assert ralph.post([one], right)[0] == 204, 'the same id with the same content'
    assert ralph.post([other, one], right) == (200, json.dumps([other['id']])), 'new ones among known ones'
    differing, new = {**one, 'verb': {'id': VERB + 'passed'}}, statement(base)
    status, text = ralph.post([new, differing], right)
    assert status == 409 and one['id'] in json.loads(text)['detail']
    assert {s['id'] for s in ralph.statements()} == {one['id'], other['id']}, 'a 409 refuses the whole batch'
    assert ralph.post([new, new], right)[0] == 400, 'the same id twice in one batch'
    assert ralph.post([{'id': str(uuid.uuid4())}], right)[0] == 422
    assert ralph.post([new])[0] == 401 and ralph.post([new], ralph.authorization(password='wrong'))[0] == 401
    untimed = statement(base, timestamp=False)
    assert ralph.post([untimed], right)[0] == 200 and ralph.post([untimed], right)[0] == 409, (
        'without a timestamp, a resend differs (Ralph sets its own)'
    )


class Relay:
    """Between the room and Ralph, as a reverse proxy would be: passes each POST on with its headers and
    answers with Ralph's answer, keeping each (ids, status). With `hold` set it passes a POST on, then keeps
    Ralph's answer from the room until released: the room is killed in the middle of that batch."""

    def __init__(self, ralph, port=None):
        self.ralph, self.port, self.server = ralph, port or free_port(), None
        self.answers, self.hold, self.held, self.release = [], False, threading.Event(), threading.Event()
        self.url = f"http://127.0.0.1:{self.port}/xAPI/"

    def start(self):
        relay = self

        class Handler(http.server.BaseHTTPRequestHandler):
            def do_POST(self):
                body = self.rfile.read(int(self.headers['Content-Length']))
                ids = [s['id'] for s in json.loads(body)]
                headers = {
                    name: self.headers[name] for name in ('Authorization', 'Content-Type', 'X-Experience-API-Version')
                }
                request = urllib.request.Request(
                    relay.ralph.url + 'statements', data=body, headers=headers, method='POST'
                )
                try:
                    with urllib.request.urlopen(request, timeout=30) as response:
                        status, answer = response.status, response.read()
                except urllib.error.HTTPError as error:
                    status, answer = error.code, error.read()
                except OSError:
                    status, answer = 502, b'{"detail": "Ralph is away"}'
                relay.answers.append((ids, status))
                if relay.hold:
                    relay.held.set()
                    relay.release.wait()
                    return
                self.send_response(status)
                self.send_header('Content-Length', str(len(answer)))
                self.end_headers()
                self.wfile.write(answer)

            def log_message(self, *args):
                pass

        self.server = http.server.ThreadingHTTPServer(('127.0.0.1', self.port), Handler)
        self.server.daemon_threads = True
        in_a_thread(self.server)

    def stop(self):
        self.release.set()
        stop(self.server)


def kill(process):
    os.kill(process.pid, signal.SIGKILL)
    process.wait()


def test_every_statement_reaches_ralph_once_across_an_outage_and_a_kill_9_in_the_middle_of_a_batch(ralph, tmp_path):
    folder, port = tmp_path / 'room', free_port()
    relay = Relay(ralph)
    relay.start()
    process, base = room_in_a_process(folder, port, forward=(relay.url, USER, PASSWORD))
    token = (folder / 'teacher-token').read_text().strip()
    try:
        sent = post_many(base, 20)
        eventually(lambda: forwarding(base, token)['state'] == 'up-to-date', 'the first statements forwarded')

        ralph.stop(kill=True)  # the LRS away: first behind its proxy (502), then not even that (refused)
        during = post_many(base, 10) + post_many(base, 10, timestamp=False)  # each answered 200 at once
        eventually(lambda: 'answered 502' in (forwarding(base, token)['last_error'] or ''), 'the proxy to answer 502')
        relay.stop()
        shown = eventually(
            lambda: 'no answer from' in ((f := forwarding(base, token))['last_error'] or '') and f,
            'the LRS to be unreachable',
        )
        assert (shown['state'], shown['waiting']) == ('waiting', 20)

        ralph.start()  # the same port and folder
        relay = Relay(ralph, relay.port)
        relay.hold = True
        relay.start()
        eventually(relay.held.is_set, 'a batch to reach Ralph')
        kill(process)  # Ralph has the batch; the room never heard its answer
        assert relay.answers[-1] == ([s['id'] for s in during], 200)
        relay.hold = False
        relay.release.set()

        process, base = room_in_a_process(folder, port, forward=(relay.url, USER, PASSWORD))
        eventually(lambda: forwarding(base, token)['state'] == 'up-to-date', 'the held batch sent again')
        after = post_many(base, 15)
        shown = eventually(
            lambda: (f := forwarding(base, token))['state'] == 'up-to-date' and f, 'everything forwarded'
        )
        assert (shown['waiting'], shown['conflicts']) == (0, [])
        assert ([s['id'] for s in during], 204) in relay.answers, 'the resent batch: Ralph has it, the same'
    finally:
        kill(process)
        relay.stop()

    held = {s['id']: s for s in ralph.statements()}
    everything = sent + during + after
    assert len(ralph.statements()) == len(everything) == 55, 'none twice'
    assert set(held) == {s['id'] for s in everything}, 'none lost'
    for one in everything:
        assert (
            held[one['id']]['result'] == one['result'] and held[one['id']]['actor'] == as_forwarded(one, token)['actor']
        )
    with sqlite3.connect(folder / 'classroom.sqlite') as db:
        assert db.execute('SELECT status, COUNT(*) FROM forwarded GROUP BY status ORDER BY status').fetchall() == [
            (200, 35),
            (204, 20),
        ]


def test_a_conflict_with_ralph_is_set_aside_and_the_rest_of_the_batch_arrives(ralph, rooms, tmp_path):
    folder = tmp_path / 'room'
    plain = Classroom(folder)  # the room fills up before it forwards: all ten go in one batch
    server, base = serving(room=plain, directory=tmp_path)
    sent = post_many(base, 10)
    stop(server)
    theirs = {**sent[4], 'verb': {'id': VERB + 'passed'}}  # the same id, different content: already at the LRS
    assert ralph.post([theirs], ralph.authorization())[0] == 200

    base, room = rooms(folder, ralph.url, user=USER, password=PASSWORD)
    shown = up_to_date(base, room)
    assert [(c['id'], c['status']) for c in shown['conflicts']] == [(sent[4]['id'], 409)]
    assert 'Differing statements already exist' in shown['conflicts'][0]['error']
    held = {s['id']: s for s in ralph.statements()}
    assert set(held) == {s['id'] for s in sent} and held[sent[4]['id']]['verb'] == theirs['verb']


def test_ralph_refuses_wrong_credentials_and_a_restart_with_the_right_ones_sends_everything(ralph, tmp_path):
    folder = tmp_path / 'room'
    room = Classroom(folder, forward=Target(ralph.url, USER, 'not the password', 'the test'), backoff=Backoff(**FAST))
    server, base = serving(room=room, directory=tmp_path)
    try:
        sent = post_many(base, 7)
        shown = eventually(lambda: (f := forwarding(base, room.token))['state'] == 'refused' and f, 'refused')
        assert '401' in shown['last_error'] and shown['waiting'] == 7
    finally:
        room.forwarder.stop()
        stop(server)
    assert ralph.statements() == []
    room = Classroom(folder, forward=Target(ralph.url, USER, PASSWORD, 'the test'), backoff=Backoff(**FAST))
    try:
        eventually(lambda: room.progress()['forwarding']['state'] == 'up-to-date', 'up-to-date')
    finally:
        room.forwarder.stop()
    assert sorted(s['id'] for s in ralph.statements()) == sorted(s['id'] for s in sent)
