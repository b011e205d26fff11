"""The room's record: learners' checked results as xAPI statements in DIR/classroom.sqlite (WAL,
synchronous=FULL: a statement answered 200 survives kill -9 and a power cut), and the teacher's token in
DIR/teacher-token (made once with `secrets`, so a restart keeps the link). One writer thread commits what
waits; reads have connections of their own. With `forward`, a second consumer sends the record on to the
school's Learning Record Store (forward.py), and records there what the LRS answered."""

import csv
import hmac
import io
import queue
import secrets
import sqlite3
import threading
import time
from collections import deque
from contextlib import closing
from pathlib import Path

from . import statements
from .coursework import Coursework, csv_safe
from .forward import OFF, Forwarder
from .presence import Presence
from .statements import Refused

MAX_STATEMENTS = 100  # per learner key ...
WINDOW_S = 10.0  # ... in this many seconds; more are refused with 429
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
-- Added with forwarding: a database from before it gains this table when it is opened, and its statements
-- are then forwarded like new ones.
CREATE TABLE IF NOT EXISTS forwarded (
    lrs TEXT NOT NULL,             -- the LRS's xAPI address (serve --forward): another LRS gets the whole record too
    id TEXT NOT NULL,              -- a statement's id
    status INTEGER NOT NULL,       -- the LRS's answer: 200 or 204 delivered; 400, 409, 413 or 422 set aside
    message TEXT,                  -- the LRS's reason, for one set aside
    at TEXT NOT NULL,              -- when the LRS answered (UTC, ISO 8601)
    PRIMARY KEY (lrs, id)
);
"""


class Classroom:
    def __init__(self, folder, mode='plain-http', forward=None, **forwarding):
        """`forward`: a forward.Target, the LRS this room forwards its record to; `forwarding` goes to the
        Forwarder (its backoff and timeout, for the tests)."""
        self.presence = Presence(mode)
        self.mode = mode
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
        self.pending = queue.Queue()  # (sql, rows, done, outcome) for write_forever
        self.stored = threading.Event()  # set after each commit: wakes the forwarder
        threading.Thread(target=self.write_forever, daemon=True).start()
        self.forwarder = Forwarder(self, forward, **forwarding) if forward else None
        self.coursework = Coursework(self.folder, self.connect)  # what the room hands out and collects

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
        if version != statements.XAPI_VERSION:
            raise Refused(400, f"X-Experience-API-Version must be {statements.XAPI_VERSION}")
        rows = [statements.row(statement, host) for statement in statements.parse(body)]
        for learner in {row[1] for row in rows}:
            self.count(learner, sum(row[1] == learner for row in rows))
        try:
            self.write('INSERT OR IGNORE INTO statements VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)', rows)
        except sqlite3.Error as error:
            raise Refused(503, f"the classroom could not store it ({error}): it will be sent again") from None
        return [row[0] for row in rows]

    def write(self, sql, rows):
        """Runs `sql` for each row on the writer thread, committed when this returns. Raises sqlite3.Error."""
        done, outcome = threading.Event(), {}
        self.pending.put((sql, rows, done, outcome))
        done.wait()
        if 'error' in outcome:
            raise outcome['error']

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
                for sql, rows, _, _ in batch:
                    db.executemany(sql, rows)
                db.execute('COMMIT')
            except sqlite3.Error as error:  # a full disk, say: nothing of the batch is stored, each learner resends
                if db.in_transaction:
                    db.execute('ROLLBACK')
                for _, _, _, outcome in batch:
                    outcome['error'] = error
            for _, _, done, _ in batch:
                done.set()
            self.stored.set()

    def count(self, learner, new):
        now = time.monotonic()
        with self.recent_lock:
            if len(self.recent) > 10_000:  # keys that sent nothing lately: keep the table small
                self.recent = {
                    key: times for key, times in self.recent.items() if times and now - times[-1] <= WINDOW_S
                }
            times = self.recent.setdefault(learner, deque())
            while times and now - times[0] > WINDOW_S:
                times.popleft()
            if len(times) + new > MAX_STATEMENTS:
                raise Refused(
                    429, f"more than {MAX_STATEMENTS} statements in {WINDOW_S:g} s from one learner: wait, then resend"
                )
            times.extend([now] * new)

    def room(self):
        return self.presence.room()

    def progress(self):
        """{"room": room(), "students": [{"key", "name", "exercises": {ID: {"state", "attempts", "last_code",
        "last_message", "at"}}, "hand_ins": {ASSIGNMENT: at}, "browser": {"secure", …} or null}], "assignments":
        [what DIR/release/ hands out], "forwarding": {"state", "to", "waiting", "conflicts", "last_error"}
        (forward.py)}"""
        with closing(self.connect()) as db:
            rows = db.execute(
                'SELECT learner, name, verb, exercise, response, message, stored FROM statements ORDER BY stored, rowid'
            ).fetchall()
            forwarding = self.forwarder.status(db) if self.forwarder else {**OFF, 'conflicts': []}
        students = {}
        for learner, name, verb, exercise, response, message, stored in rows:
            student = students.setdefault(learner, {'key': learner, 'name': name, 'exercises': {}})
            student['name'] = name  # the latest: a learner may change it
            mine = student['exercises'].setdefault(exercise, {'state': 'not-started', 'attempts': 0})
            mine['attempts'] += 1
            if mine['state'] != 'passed':
                mine['state'] = 'passed' if verb == 'passed' else 'failed'
            mine.update(last_code=response, last_message=message, at=stored)
        for key, handed in self.coursework.hand_ins().items():
            student = students.setdefault(key, {'key': key, 'name': handed['name'], 'exercises': {}})
            student['hand_ins'] = handed['hand_ins']
        for student in students.values():
            student.setdefault('hand_ins', {})
            student['browser'] = self.presence.browser(student['key'])
        return {
            'room': self.room(),
            'students': sorted(students.values(), key=lambda s: (s['name'].casefold(), s['key'])),
            'assignments': [one['assignment'] for one in self.coursework.handouts()],
            'forwarding': forwarding,
        }

    def export_csv(self):
        out = io.StringIO()
        writer = csv.writer(out)
        writer.writerow(['learner_key', 'name', 'exercise', 'state', 'attempts', 'last_at'])
        for student in self.progress()['students']:
            for exercise, mine in sorted(student['exercises'].items()):
                writer.writerow(
                    [student['key'], csv_safe(student['name']), exercise, mine['state'], mine['attempts'], mine['at']]
                )
        return out.getvalue()
