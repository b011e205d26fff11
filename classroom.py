"""The classroom: learners' checked results, as xAPI 1.0.3 statements, kept in SQLite on the laptop that
serves the room, and the teacher's board's API. `python build.py serve --classroom DIR` mounts it:

    GET  classroom/config.json          200 {"xapi": "classroom/xapi/statements"}: the page joins the room
    POST classroom/xapi/statements      one statement or a list (X-Experience-API-Version: 1.0.3) -> 200 [ids]
    GET  classroom/progress             (Authorization: Bearer TOKEN) each learner's state per exercise
    GET  classroom/export.csv           (the same token) one row per learner and exercise

The record is DIR/classroom.sqlite (WAL, synchronous=FULL: a statement answered 200 survives kill -9 and
a power cut), the teacher's token DIR/teacher-token (made once with `secrets`, so a restart keeps the link).
"""
import csv
import hmac
import io
import queue
import json
import re
import secrets
import socket
import sqlite3
import threading
import time
import uuid
from collections import deque
from contextlib import closing
from datetime import datetime, timezone
from pathlib import Path
from urllib.parse import unquote, urlsplit

XAPI_VERSION = '1.0.3'
VERB_PREFIX = 'http://adlnet.gov/expapi/verbs/'
VERBS = {'attempted', 'passed', 'failed'}
MESSAGE = 'urn:backprop-playground:message'  # result.extensions: the check's message, for the board
MAX_BODY = 256 * 1024
MAX_STATEMENTS = 100  # per learner key ...
WINDOW_S = 10.0  # ... in this many seconds; more are refused with 429
OBJECT_FRAGMENT = re.compile(r'^(exercise|test)=([\w.:%-]{1,200})$')
ROUTES = {'/classroom/config.json', '/classroom/xapi/statements', '/classroom/progress', '/classroom/export.csv'}
SCHEMA = """
CREATE TABLE IF NOT EXISTS statements (
    id TEXT PRIMARY KEY,           -- made by the page: a resend is stored once
    learner TEXT NOT NULL,         -- actor.account.name, the browser's random learner key
    name TEXT NOT NULL,            -- actor.name, as the learner typed it
    verb TEXT NOT NULL,            -- attempted, passed or failed
    exercise TEXT NOT NULL,        -- the object's #exercise= or #test= id
    response TEXT,                 -- the learner's code
    message TEXT,
    score_raw REAL,
    score_max REAL,
    stored TEXT NOT NULL,          -- when this server stored it (UTC, ISO 8601)
    statement TEXT NOT NULL        -- the statement as received
);
CREATE INDEX IF NOT EXISTS statements_by_learner ON statements (learner, exercise, stored);
"""


class Refused(Exception):
    """A request the classroom does not take: its status and a message for the client."""

    def __init__(self, status, message):
        super().__init__(message)
        self.status = status


class Classroom:
    def __init__(self, folder):
        self.folder = Path(folder)
        self.folder.mkdir(parents=True, exist_ok=True)
        self.path = self.folder / 'classroom.sqlite'
        token = self.folder / 'teacher-token'
        if not token.is_file():
            token.touch(mode=0o600)
            token.write_text(secrets.token_urlsafe(24))
        self.token = token.read_text().strip()
        with closing(self.connect()) as db:
            db.execute('PRAGMA journal_mode=WAL')
            db.executescript(SCHEMA)
        self.recent = {}  # learner key -> deque of the times of their statements in the last WINDOW_S
        self.recent_lock = threading.Lock()
        self.pending = queue.Queue()  # (rows, done, outcome) for write_forever
        threading.Thread(target=self.write_forever, daemon=True).start()

    def connect(self):
        # One connection per request: the server answers each request on a thread of its own.
        db = sqlite3.connect(self.path, timeout=30, isolation_level=None)
        db.execute('PRAGMA synchronous=FULL')
        return db

    def authorized(self, header):
        given = header.removeprefix('Bearer ').strip() if header else ''
        return hmac.compare_digest(given.encode(), self.token.encode())

    def store(self, body, version, host):
        """Stores the statements of a POST body; returns their ids. Raises Refused, storing nothing."""
        if version != XAPI_VERSION:
            raise Refused(400, f"X-Experience-API-Version must be {XAPI_VERSION}")
        try:
            data = json.loads(body)
        except (ValueError, UnicodeDecodeError):
            raise Refused(400, "the body is not JSON") from None
        statements = data if isinstance(data, list) else [data]
        if not statements:
            raise Refused(400, "no statements")
        rows = [self.row(statement, host) for statement in statements]
        for learner in {row[1] for row in rows}:
            self.count(learner, sum(row[1] == learner for row in rows))
        done, outcome = threading.Event(), {}
        self.pending.put((rows, done, outcome))
        done.wait()
        if 'error' in outcome:
            raise Refused(503, f"the classroom could not store it ({outcome['error']}): it will be sent again")
        return [row[0] for row in rows]

    def write_forever(self):
        """The one writer: it commits every request that waits in one transaction, so one fsync answers
        many learners (60 posting 20 each at once, bench/classroom.py: p95 64 ms, against 0.53 s with a
        transaction per request, whose writers wait in SQLite's growing busy sleeps)."""
        db = self.connect()
        while True:
            batch = [self.pending.get()]
            while not self.pending.empty():
                batch.append(self.pending.get())
            try:
                db.execute('BEGIN IMMEDIATE')
                for rows, _, _ in batch:
                    db.executemany('INSERT OR IGNORE INTO statements VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)', rows)
                db.execute('COMMIT')
            except sqlite3.Error as error:  # a full disk, say: nothing of the batch is stored, each learner resends
                if db.in_transaction:
                    db.execute('ROLLBACK')
                for _, _, outcome in batch:
                    outcome['error'] = error
            for _, done, _ in batch:
                done.set()

    def count(self, learner, new):
        now = time.monotonic()
        with self.recent_lock:
            if len(self.recent) > 10_000:  # keys that sent nothing lately: keep the table small
                self.recent = {key: times for key, times in self.recent.items() if times and now - times[-1] <= WINDOW_S}
            times = self.recent.setdefault(learner, deque())
            while times and now - times[0] > WINDOW_S:
                times.popleft()
            if len(times) + new > MAX_STATEMENTS:
                raise Refused(429, f"more than {MAX_STATEMENTS} statements in {WINDOW_S:g} s from one learner: wait, then resend")
            times.extend([now] * new)

    def row(self, statement, host):
        if not isinstance(statement, dict):
            raise Refused(400, "a statement must be a JSON object")
        try:
            statement_id = str(uuid.UUID(statement.get('id', '')))
        except (ValueError, TypeError, AttributeError):
            raise Refused(400, "a statement needs an `id` that is a UUID") from None
        actor = statement.get('actor')
        account = actor.get('account') if isinstance(actor, dict) else None
        if not isinstance(account, dict) or actor.get('objectType', 'Agent') != 'Agent':
            raise Refused(400, "a statement needs an `actor`, an Agent with an `account`")
        learner, name = account.get('name'), actor.get('name')
        if not (text(learner, 100) and text(name, 100) and text(account.get('homePage'), 2000)):
            raise Refused(400, "the actor needs a `name` and an account with `homePage` and `name` (up to 100 characters)")
        verb = statement.get('verb')
        verb_id = verb.get('id') if isinstance(verb, dict) else None
        if not (isinstance(verb_id, str) and verb_id.startswith(VERB_PREFIX) and verb_id[len(VERB_PREFIX):] in VERBS):
            raise Refused(400, f"the verb must be {VERB_PREFIX} + attempted, passed or failed")
        target = statement.get('object')
        object_id = target.get('id') if isinstance(target, dict) else None
        parts = urlsplit(object_id) if isinstance(object_id, str) else None
        found = OBJECT_FRAGMENT.match(parts.fragment) if parts else None
        if not found or parts.netloc != host or parts.scheme not in ('http', 'https'):
            raise Refused(400, "the object must be a page of this classroom's site with #exercise=ID or #test=ID")
        result = statement.get('result', {})
        if not isinstance(result, dict):
            raise Refused(400, "`result` must be an object")
        response, score = result.get('response'), result.get('score', {})
        message = (result.get('extensions') or {}).get(MESSAGE) if isinstance(result.get('extensions'), dict) else None
        if response is not None and not isinstance(response, str) or not isinstance(score, dict) or \
                message is not None and not isinstance(message, str):
            raise Refused(400, "`result.response` and the message must be text, and `result.score` an object")
        raw, maximum = score.get('raw'), score.get('max')
        if any(value is not None and (isinstance(value, bool) or not isinstance(value, (int, float))) for value in (raw, maximum)):
            raise Refused(400, "`result.score.raw` and `.max` must be numbers")
        stored = datetime.now(timezone.utc).isoformat(timespec='milliseconds')
        return (statement_id, learner, name, verb_id[len(VERB_PREFIX):], unquote(found.group(2)), response, message, raw, maximum,
                stored, json.dumps(statement))

    def progress(self):
        """{"students": [{"key", "name", "exercises": {ID: {"state", "attempts", "last_code", "last_message", "at"}}}]}"""
        with closing(self.connect()) as db:
            rows = db.execute('SELECT learner, name, verb, exercise, response, message, stored FROM statements '
                              'ORDER BY stored, rowid').fetchall()
        students = {}
        for learner, name, verb, exercise, response, message, stored in rows:
            student = students.setdefault(learner, {'key': learner, 'name': name, 'exercises': {}})
            student['name'] = name  # the latest: a learner may change it
            mine = student['exercises'].setdefault(exercise, {'state': 'not-started', 'attempts': 0})
            mine['attempts'] += 1
            if mine['state'] != 'passed':
                mine['state'] = 'passed' if verb == 'passed' else 'failed'
            mine.update(last_code=response, last_message=message, at=stored)
        return {'students': sorted(students.values(), key=lambda s: (s['name'].casefold(), s['key']))}

    def export_csv(self):
        out = io.StringIO()
        writer = csv.writer(out)
        writer.writerow(['learner_key', 'name', 'exercise', 'state', 'attempts', 'last_at'])
        for student in self.progress()['students']:
            for exercise, mine in sorted(student['exercises'].items()):
                writer.writerow([student['key'], csv_safe(student['name']), exercise, mine['state'], mine['attempts'], mine['at']])
        return out.getvalue()


def lan_address():
    """This laptop's address on the room's network, as learners type it (its name's address, or its name)."""
    try:
        return socket.gethostbyname(socket.gethostname())
    except OSError:
        return socket.gethostname()


def text(value, limit):
    return isinstance(value, str) and 0 < len(value.strip()) and len(value) <= limit


def csv_safe(value):
    """A name a spreadsheet shows as text: one that starts with =, +, - or @ would be run as a formula."""
    return f"'{value}" if value[:1] in ('=', '+', '-', '@') else value


def handle(handler, classroom):
    """Answers a request under /classroom/ for build.py's Handler; False if the path is not the classroom's."""
    path = handler.path.split('?')[0]
    if path not in ROUTES:
        return False
    try:
        if handler.command == 'GET' and path == '/classroom/config.json':
            reply(handler, 200, {'xapi': 'classroom/xapi/statements', 'version': XAPI_VERSION})
        elif handler.command == 'POST' and path == '/classroom/xapi/statements':
            length = int(handler.headers.get('Content-Length') or 0)
            if length < 0:
                raise ValueError(length)
            if length > MAX_BODY:
                raise Refused(413, f"a request may carry at most {MAX_BODY // 1024} KB")
            body = handler.rfile.read(length)
            ids = classroom.store(body, handler.headers.get('X-Experience-API-Version'), handler.headers.get('Host', ''))
            reply(handler, 200, ids)
        elif handler.command == 'GET' and path in ('/classroom/progress', '/classroom/export.csv'):
            if not classroom.authorized(handler.headers.get('Authorization')):
                raise Refused(401, "the teacher's token is missing or wrong")
            if path.endswith('.csv'):
                reply(handler, 200, classroom.export_csv(), 'text/csv; charset=utf-8')
            else:
                reply(handler, 200, classroom.progress())
        else:
            raise Refused(405, f"{path} does not take {handler.command}")
    except Refused as refused:
        if refused.status == 413:
            handler.close_connection = True  # the body is not read
        reply(handler, refused.status, {'error': str(refused)})
    except ValueError:
        reply(handler, 400, {'error': 'a bad Content-Length'})
    return True


def reply(handler, status, body, content_type='application/json'):
    data = (body if isinstance(body, str) else json.dumps(body)).encode()
    handler.send_response(status)
    handler.send_header('Content-Type', content_type)
    handler.send_header('Content-Length', str(len(data)))
    handler.send_header('X-Experience-API-Version', XAPI_VERSION)
    handler.end_headers()
    handler.wfile.write(data)
