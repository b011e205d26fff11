"""The room's coursework in nbgrader's own course layout, in the room's folder DIR:

    DIR/release/ASSIGNMENT/FILE…           what the teacher hands out (nbgrader generate_assignment writes it)
    DIR/submitted/STUDENT/ASSIGNMENT/      each learner's hand-in: FILE.ipynb and timestamp.txt, what
                                           `nbgrader autograde ASSIGNMENT` reads with no step in between
    DIR/feedback/STUDENT/ASSIGNMENT/*.html what `nbgrader generate_feedback ASSIGNMENT` writes: shown to that
                                           learner alone
    DIR/students.csv                       the learners, as `nbgrader db student import` reads them
    DIR/previous/STUDENT/ASSIGNMENT/TIME/  a hand-in that a later one replaced, kept aside
    DIR/.incoming/                         hand-ins being written: nothing nbgrader reads (what a crash
                                           left there goes at a later start)

Nothing else of DIR is ever served. A hand-in is written beside, synced and renamed into place before it is
acknowledged: a kill -9 leaves every acknowledged hand-in whole and no partial file where nbgrader looks.
"""

import csv
import hmac
import io
import itertools
import json
import os
import re
import shutil
import sqlite3
import threading
import time
import unicodedata
import uuid
import zipfile
from collections import deque
from contextlib import closing
from datetime import datetime, timezone
from pathlib import Path

from .notebook_shape import notebook_problem
from .statements import N_, Refused, text

MAX_NOTEBOOK = 20 * 1024 * 1024
MAX_HAND_INS = 10  # per learner ...
HAND_IN_WINDOW_S = 60.0  # ... in this many seconds; more are refused with 429
FREE_SPACE_FLOOR = 200 * 1024 * 1024  # below this much free space hand-ins wait (507): the record needs room too
WRITING_AT_ONCE = 4  # hand-ins read and stored at once; more wait their turn, then are asked to come again (503)
# A hand-in is written in well under a second: a partial file older than this was left by a crash. (Younger
# ones may be another room server's on the same folder, writing now.)
STALE_PARTIAL_S = 600
# Folders where a student id may already mean someone: a new learner is never given one of them.
STUDENT_FOLDERS = ('submitted', 'autograded', 'feedback', 'previous')
BAD_NAME = re.compile(r'[/\\\x00]|^\.\.?$|\.\.')
SCHEMA = """
CREATE TABLE IF NOT EXISTS learners (
    key TEXT PRIMARY KEY,          -- the browser's random learner key
    student TEXT NOT NULL UNIQUE,  -- the folder of their hand-ins: nbgrader's student id
    name TEXT NOT NULL             -- as they typed it, at their last hand-in
);
"""


class Coursework:
    def __init__(self, folder, connect):
        self.folder = Path(folder)
        self.connect = connect  # the room's database (store.py), for the learners' student ids
        with closing(connect()) as db:
            db.executescript(SCHEMA)
        self.lock = threading.Lock()  # for the learners' ids and students.csv, and the counts below
        self.writing = {}  # student id -> the lock of their folder: one learner's hand-ins are written in turn
        self.recent = {}
        self.turns = threading.BoundedSemaphore(WRITING_AT_ONCE)
        self.clear_stale_partials()

    def clear_stale_partials(self):
        """Deletes what a crash left half-written in DIR/.incoming/ (never anything nbgrader reads)."""
        incoming = self.folder / '.incoming'
        for partial in incoming.glob('*.partial') if incoming.is_dir() else []:
            try:
                if time.time() - partial.stat().st_mtime > STALE_PARTIAL_S:
                    partial.unlink()
            except OSError:  # gone already, or not ours to delete: it stays, as before
                pass

    # What is handed out.

    def handouts(self):
        """[{"assignment", "files": [relative paths]}] for each folder of DIR/release/, in name order."""
        release = self.folder / 'release'
        found = []
        for assignment in sorted(release.iterdir() if release.is_dir() else []):
            if not assignment.is_dir() or assignment.name.startswith('.'):
                continue
            files = sorted(
                path.relative_to(assignment).as_posix()
                for path in assignment.rglob('*')
                if path.is_file() and not any(part.startswith('.') for part in path.relative_to(assignment).parts)
            )
            found.append({'assignment': assignment.name, 'files': files})
        return found

    def release_file(self, assignment, file):
        """The path of a handed-out file; Refused(404) for anything else, whatever the name tries."""
        release = (self.folder / 'release').resolve()
        parts = [assignment, *file.split('/')]
        if not file or any(
            not safe(part) or part.startswith('.') for part in parts
        ):  # .ipynb_checkpoints: not handed out
            raise Refused(404, "no such file is handed out")
        path = (release / assignment / file).resolve()
        if not path.is_relative_to(release / assignment) or not path.is_file():
            raise Refused(404, "no such file is handed out")
        return path

    # Hand-ins.

    def hand_in(self, body):
        """Stores a hand-in ({key, name, assignment, file, notebook}); returns {student, at}. Raises Refused."""
        try:
            data = json.loads(body)
        except (ValueError, UnicodeDecodeError, RecursionError):
            raise Refused(400, N_("the body is not JSON")) from None
        if not isinstance(data, dict):
            raise Refused(400, N_("a hand-in is a JSON object: {key, name, assignment, file, notebook}"))
        key, name, assignment, file, notebook = (
            data.get(field) for field in ('key', 'name', 'assignment', 'file', 'notebook')
        )
        if not (text(key, 100) and text(name, 100)):
            raise Refused(400, N_("a hand-in needs the learner's `key` and `name` (up to 100 characters)"))
        for value, refusal in [
            (assignment, N_("the assignment must be a name without /, \\, .. or NUL")),
            (file, N_("the file must be a name without /, \\, .. or NUL")),
        ]:
            if not isinstance(value, str) or not safe(value):
                raise Refused(400, refusal)
        handed_out = {(one['assignment'], path) for one in self.handouts() for path in one['files']}
        if (assignment, file) not in handed_out:
            raise Refused(
                400, N_("{assignment}/{file} was not handed out in this room"), assignment=assignment, file=file
            )
        if not file.endswith(('.ipynb', '.md', '.markdown')):
            raise Refused(400, N_("{file} is not a notebook or a lesson: only those are handed in"), file=file)
        problem = notebook_problem(notebook)
        if problem:
            raise Refused(400, N_("not a valid Jupyter notebook (nbformat 4): {problem}"), problem=problem)
        self.count(key)
        data = json.dumps(notebook, indent=1).encode() + b'\n'
        if shutil.disk_usage(self.folder).free < len(data) + FREE_SPACE_FLOOR:
            raise Refused(
                507, N_("the teacher's laptop is nearly out of disk space: your work waits here and is sent again")
            )
        try:
            with self.lock:
                student, new = self.student(key, name)
                if new or student not in self.listed():
                    self.write_students()
                folder_lock = self.writing.setdefault(student, threading.Lock())
            with folder_lock:
                at = datetime.now(timezone.utc)
                stem = file.rsplit('.', 1)[0]
                self.write(
                    self.folder / 'submitted' / student / assignment, f"{stem}.ipynb", data, at, student, assignment
                )
        except (OSError, sqlite3.Error) as error:  # a full disk, a folder made read-only: the page sends it again
            raise Refused(
                503, N_("the classroom could not store it ({error}): it will be sent again"), error=error
            ) from None
        return {'student': student, 'at': at.isoformat(timespec='seconds')}

    def count(self, key):
        now = time.monotonic()
        with self.lock:
            times = self.recent.setdefault(key, deque())
            while times and now - times[0] > HAND_IN_WINDOW_S:
                times.popleft()
            if len(self.recent) > 10_000:  # keys are free to make: forget those quiet for a minute
                for quiet in [k for k, seen in self.recent.items() if not seen or now - seen[-1] > HAND_IN_WINDOW_S]:
                    del self.recent[quiet]
                times = self.recent.setdefault(key, times)
            if len(times) >= MAX_HAND_INS:
                raise Refused(
                    429,
                    N_("more than {count} hand-ins in a minute from one learner: wait, then hand in again"),
                    count=MAX_HAND_INS,
                )
            times.append(now)

    def student(self, key, name):
        """(the learner's student id, whether students.csv changes): the id is made once from their name,
        folder-safe, and is never another learner's."""
        with closing(self.connect()) as db:
            row = db.execute('SELECT student, name FROM learners WHERE key = ?', (key,)).fetchone()
            if row:
                if row[1] != name:
                    db.execute('UPDATE learners SET name = ? WHERE key = ?', (name, key))
                return row[0], row[1] != name
            base = folder_safe(name)
            taken = {student for (student,) in db.execute('SELECT student FROM learners')}
            student = next(
                candidate
                for candidate in (base if n == 1 else f"{base}_{n}" for n in itertools.count(1))
                if candidate not in taken
                and not any((self.folder / where / candidate).exists() for where in STUDENT_FOLDERS)
            )
            db.execute('INSERT INTO learners VALUES (?, ?, ?)', (key, student, name))
            return student, True

    def write(self, target, name, data, at, student, assignment):
        """The notebook and nbgrader's timestamp.txt into `target`, each written beside, synced and renamed
        over the one before: a copy of a hand-in already there is kept in DIR/previous/ first, and at every
        moment the folder holds whole files."""
        incoming = self.folder / '.incoming'
        make_folder(incoming)
        partial = incoming / f"{uuid.uuid4()}.partial"
        stamp = incoming / f"{uuid.uuid4()}.partial"
        durable_write(partial, data)
        durable_write(stamp, at.strftime('%Y-%m-%d %H:%M:%S.%f UTC').encode())
        make_folder(target)
        if (target / name).exists():
            kept = self.folder / 'previous' / student / assignment / at.strftime('%Y%m%dT%H%M%S%fZ')
            make_folder(kept)
            for old in [target / name, target / 'timestamp.txt']:
                if old.exists():
                    keep_aside(old, kept / old.name)
            sync_folder(kept)
        os.replace(partial, target / name)
        os.replace(stamp, target / 'timestamp.txt')
        sync_folder(target)

    def write_students(self):
        with closing(self.connect()) as db:
            rows = db.execute('SELECT student, name FROM learners ORDER BY student').fetchall()
        out = io.StringIO()
        writer = csv.writer(out)
        writer.writerow(['id', 'first_name', 'last_name', 'email'])
        for student, name in rows:
            first, _, last = name.strip().rpartition(' ')
            writer.writerow([student, csv_safe(first or last), csv_safe(last if first else ''), ''])
        make_folder(self.folder / '.incoming')
        partial = self.folder / '.incoming' / 'students.csv.partial'
        durable_write(partial, out.getvalue().encode())
        os.replace(partial, self.folder / 'students.csv')
        sync_folder(self.folder)

    def listed(self):
        """The student ids in students.csv (a learner whose row was stored but whose line was not, after a
        full disk or a crash, gets it at their next hand-in)."""
        try:
            with open(self.folder / 'students.csv', newline='') as listing:
                return {row[0] for row in csv.reader(listing) if row}
        except OSError:
            return set()

    # What each learner sees of their own work.

    def of_learner(self, key):
        """{"student", "handed_in": {"A/F": at}, "feedback": {"A/F": feedback file name}} for one learner key."""
        student = self.student_of(key)
        mine = {'student': student, 'handed_in': {}, 'feedback': {}}
        if student is None:
            return mine
        for one in self.handouts():
            for file in one['files']:
                stem = file.rsplit('.', 1)[0]
                submitted = self.folder / 'submitted' / student / one['assignment']
                if (submitted / f"{stem}.ipynb").is_file():
                    mine['handed_in'][f"{one['assignment']}/{file}"] = stamp_of(submitted / 'timestamp.txt')
                if (self.folder / 'feedback' / student / one['assignment'] / f"{stem}.html").is_file():
                    mine['feedback'][f"{one['assignment']}/{file}"] = f"{stem}.html"
        return mine

    def student_of(self, key):
        if not key:
            return None
        with closing(self.connect()) as db:
            rows = db.execute('SELECT key, student FROM learners').fetchall()
        # Compared in constant time: a key is what lets a learner read their feedback.
        found = [student for stored, student in rows if hmac.compare_digest(stored.encode(), key.encode())]
        return found[0] if found else None

    def feedback_file(self, key, assignment, name):
        student = self.student_of(key)
        if student is None or not safe(assignment) or not safe(name) or not name.endswith('.html'):
            raise Refused(404, "no feedback for you here")
        path = self.folder / 'feedback' / student / assignment / name
        if not path.is_file():
            raise Refused(404, "no feedback for you here")
        return path

    # The teacher's view.

    def hand_ins(self):
        """{learner key: {"name", "student", "hand_ins": {assignment: when handed in}}}, for the board."""
        with closing(self.connect()) as db:
            learners = db.execute('SELECT key, student, name FROM learners').fetchall()
        return {
            key: {
                'name': name,
                'student': student,
                'hand_ins': {
                    stamp.parent.name: stamp_of(stamp)
                    for stamp in sorted((self.folder / 'submitted' / student).glob('*/timestamp.txt'))
                },
            }
            for key, student, name in learners
        }

    def zip(self, assignment):
        """Every hand-in of an assignment in nbgrader's layout (submitted/STUDENT/ASSIGNMENT/…), as zip bytes."""
        if not safe(assignment):
            raise Refused(404, "no such assignment")
        out = io.BytesIO()
        with zipfile.ZipFile(out, 'w', zipfile.ZIP_DEFLATED) as archive:
            for path in sorted((self.folder / 'submitted').glob(f"*/{assignment}/*")):
                if path.is_file():
                    archive.write(path, path.relative_to(self.folder).as_posix())
        return out.getvalue()


def safe(name):
    return isinstance(name, str) and 0 < len(name) <= 200 and not BAD_NAME.search(name)


def folder_safe(name):
    """A name as a folder and an nbgrader id: ASCII letters, digits and underscores (Zoë Ng: zoe_ng)."""
    plain = unicodedata.normalize('NFKD', name).encode('ascii', 'ignore').decode().lower()
    return re.sub(r'[^a-z0-9]+', '_', plain).strip('_')[:40] or 'learner'


def csv_safe(value):
    """A name a spreadsheet shows as text: one that starts with =, +, - or @ would be run as a formula."""
    return f"'{value}" if value[:1] in ('=', '+', '-', '@') else value


def stamp_of(path):
    """A timestamp.txt's time in ISO 8601 (what browsers parse), or its text if it is not in nbgrader's format."""
    try:
        stamp = path.read_text().strip()
    except OSError:
        return None
    try:
        return (
            datetime.strptime(stamp, '%Y-%m-%d %H:%M:%S.%f UTC')
            .replace(tzinfo=timezone.utc)
            .isoformat(timespec='seconds')
        )
    except ValueError:
        return stamp


def make_folder(folder):
    """`folder` and any missing parents, each new one synced into its parent: an acknowledged hand-in's
    folders survive a power cut as its files do."""
    missing = []
    while not folder.exists():
        missing.append(folder)
        folder = folder.parent
    for new in reversed(missing):
        new.mkdir(exist_ok=True)
        sync_folder(new.parent)


def keep_aside(path, copy):
    """A second name for the file (a copy where the file system has no hard links: FAT on a USB stick)."""
    try:
        os.link(path, copy)
    except OSError:
        durable_write(copy, path.read_bytes())


def durable_write(path, data):
    with open(path, 'wb') as out:
        out.write(data)
        out.flush()
        os.fsync(out.fileno())


def sync_folder(folder):
    """The renames into `folder` on disk too (POSIX: a folder's entries are synced through the folder)."""
    if hasattr(os, 'O_DIRECTORY'):
        descriptor = os.open(folder, os.O_RDONLY | os.O_DIRECTORY)
        try:
            os.fsync(descriptor)
        finally:
            os.close(descriptor)
