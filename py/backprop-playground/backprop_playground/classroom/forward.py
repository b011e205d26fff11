"""The room's record, forwarded to the school's Learning Record Store (xAPI 1.0.3, `serve --forward URL`),
exactly once and in order: a thread beside the store's writer reads, oldest first, the statements this LRS
has not yet taken, POSTs them in batches of at most 100 (each rebuilt from the fields the room checked, the
learner key replaced by a pseudonym: `as_sent`), and marks each one in the `forwarded`
table only after the LRS answered 200 or 204 for it. A kill -9 between the LRS's answer and the mark costs a
resend, which the LRS answers 204 (same id, same content): nothing is lost and nothing is stored twice.
Learners' requests never wait for it (docs/classroom.md, "Past one room")."""

import base64
import hashlib
import hmac
import json
import os
import random
import threading
import urllib.error
import urllib.request
import uuid
from contextlib import closing
from dataclasses import dataclass, field
from datetime import datetime, timezone
from http.client import HTTPException
from pathlib import Path
from urllib.parse import urlsplit

from .statements import MESSAGE, XAPI_VERSION

AUTH_VARIABLE = 'BACKPROP_PLAYGROUND_FORWARD_AUTH'  # user:password, when no --forward-auth FILE is given
BATCH = 100  # statements per POST
TIMEOUT_S = 30.0  # for one POST's answer
DELIVERED = (200, 204)
SET_ASIDE = (400, 409, 413, 422)  # this batch holds a statement the LRS will never take: split to find it
CREDENTIALS_REFUSED = (401, 403)
MAX_MESSAGE = 500  # characters of an LRS's answer kept as its reason
SHOWN_CONFLICTS = 100  # the newest statements set aside, on the board


@dataclass(frozen=True)
class Target:
    """Where statements go: the LRS's xAPI base URL (statements are POSTed to URL + 'statements'), and the
    Basic-auth credentials, which are never printed (repr leaves them out) nor shown on the board."""

    url: str
    user: str = field(repr=False)
    password: str = field(repr=False)
    credentials_from: str = ''  # where they were read: a file's path or the variable's name

    @property
    def statements(self):
        return self.url + 'statements'


def xapi_base(url):
    """The LRS's xAPI address as `--forward` gives it, ending in '/'. Raises ValueError with a message."""
    try:
        parts = urlsplit(url or '')
        parts.port  # noqa: B018 (a port that is not a number raises here)
    except ValueError:
        parts = None
    if not parts or parts.scheme not in ('http', 'https') or not parts.hostname:
        raise ValueError(f"--forward needs the LRS's xAPI address, such as http://lrs.school:8100/xAPI/ (not {url!r})")
    if parts.username or parts.password:
        raise ValueError(
            "--forward: put the LRS's user and password in a file (--forward-auth FILE) or in "
            f"{AUTH_VARIABLE}, never in the address"
        )
    if parts.query or parts.fragment:
        raise ValueError("--forward: the LRS's address takes no ?query or #fragment")
    path = parts.path.rstrip('/').removesuffix('/statements')  # the statements endpoint itself is fine too
    return f"{parts.scheme}://{parts.netloc}{path}/"


def target_of(url, auth_file=None, environ=os.environ):
    """The Target for `serve --forward URL [--forward-auth FILE]`. Raises ValueError with a message for the
    teacher."""
    base = xapi_base(url)
    if auth_file:
        try:
            line = Path(auth_file).read_text().strip()
        except (OSError, UnicodeDecodeError) as error:
            raise ValueError(f"--forward-auth: {auth_file} could not be read ({error.__class__.__name__})") from None
        source = str(auth_file)
    elif environ.get(AUTH_VARIABLE):
        line, source = environ[AUTH_VARIABLE].strip(), AUTH_VARIABLE
    else:
        raise ValueError(
            f"--forward needs the LRS's user and password: --forward-auth FILE (one line user:password) "
            f"or the environment variable {AUTH_VARIABLE}"
        )
    user, colon, password = line.partition(':')
    if not (colon and user and password) or '\n' in line:
        raise ValueError(f"the LRS's credentials in {source} must be one line, user:password")
    return Target(base, user, password, source)


class Backoff:
    """How long to wait before retrying after `failures` failed attempts in a row: exponential, from
    `first` to `cap` seconds, with jitter (each wait drawn from the upper half of its step), so that a
    school's rooms do not all retry at the same moment when their LRS comes back."""

    def __init__(self, first=4.0, cap=60.0, random=random.random):
        self.first, self.cap, self.random = first, cap, random

    def delay(self, failures):
        ceiling = min(self.cap, self.first * 2 ** (max(failures, 1) - 1))
        return ceiling * (0.5 + 0.5 * self.random())


class Retry(Exception):
    """The LRS did not take the batch this time (no connection, a timeout, 429, 5xx, an answer that is not
    xAPI's): nothing is marked, and the same statements are sent again after a backoff."""


class CredentialsRefused(Exception):
    """401 or 403: forwarding pauses until `serve` is restarted with credentials the LRS takes."""


class NoRedirects(urllib.request.HTTPRedirectHandler):
    # urllib would follow a 301/302 from a POST with a GET, whose 200 would look like a delivery.
    def redirect_request(self, *args, **kwargs):
        return None


OPENER = urllib.request.build_opener(NoRedirects)


class Forwarder:
    """The thread that forwards one classroom's record to one LRS (`classroom`: a store.Classroom).
    `backoff` and `timeout` are there for the tests, which must not wait a minute."""

    def __init__(self, classroom, target, backoff=None, timeout=TIMEOUT_S):
        self.classroom, self.target = classroom, target
        self.backoff, self.timeout = backoff or Backoff(), timeout
        self.authorization = 'Basic ' + base64.b64encode(f"{target.user}:{target.password}".encode()).decode()
        self.trouble = None  # None, or ('waiting' or 'refused', the last error)
        self.after = 0  # every statement up to this rowid is decided for this LRS
        self.stopping = threading.Event()
        self.thread = threading.Thread(target=self.forward_forever, daemon=True, name='forwarder')
        self.thread.start()

    def stop(self):
        self.stopping.set()
        self.classroom.stored.set()
        self.thread.join()

    def forward_forever(self):
        failures = 0
        with closing(self.classroom.connect()) as db:
            while not self.stopping.is_set():
                self.classroom.stored.clear()  # before reading: a statement stored after this wakes the wait below
                try:
                    batch = self.pending(db)
                    if not batch:
                        self.classroom.stored.wait(60)
                        continue
                    self.deliver(batch)
                except CredentialsRefused as error:
                    self.trouble = ('refused', str(error))
                    self.stopping.wait()
                    return
                except Exception as error:  # Retry, or the unforeseen: the thread must go on, and the board say why
                    failures += 1
                    self.trouble = (
                        'waiting',
                        str(error) if isinstance(error, Retry) else f"the forwarder failed: {error!r}",
                    )
                    self.stopping.wait(self.backoff.delay(failures))
                    continue
                failures, self.trouble = 0, None
                self.after = batch[-1][0]

    def pending(self, db):
        """The oldest statements not yet decided for this LRS: [(rowid, id, JSON to send)]."""
        rows = db.execute(
            'SELECT rowid, id, statement, stored FROM statements s WHERE rowid > ? AND NOT EXISTS '
            '(SELECT 1 FROM forwarded f WHERE f.lrs = ? AND f.id = s.id) ORDER BY rowid LIMIT ?',
            (self.after, self.target.url, BATCH),
        ).fetchall()
        return [
            (rowid, statement_id, as_sent(statement, stored, self.pseudonym))
            for rowid, statement_id, statement, stored in rows
        ]

    def pseudonym(self, key):
        """What the LRS gets for a learner key: the same for one learner in this room, and no use to anyone
        who reads it there (the key itself lets a page read its learner's feedback and hand in as them)."""
        return hmac.new(self.classroom.token.encode(), key.encode(), hashlib.sha256).hexdigest()[:32]

    def deliver(self, batch):
        """Posts the batch and marks what the LRS answered for. A batch refused whole because of one
        statement (409, or 400/413/422) is split in halves until that one is alone: it is set aside with
        the LRS's reason and the rest are delivered. A 400, 413 or 422 may also be the LRS (or a proxy before
        it) refusing everything: a statement is set aside for one only when another of the batch was taken.
        Raises Retry or CredentialsRefused."""
        refused = []
        taken = self.split(batch, refused)
        if taken:
            # The LRS may have begun taking statements during the split (a proxy or a body limit mended), which
            # made those before look bad: each is sent alone once more, and set aside only if refused again.
            # Such a one then arrives after those sent since: late, rather than never.
            again = [one for one in refused if one[1] == 409]
            for statement, status, _ in refused:
                if status != 409:
                    self.split([statement], again)
            refused = again
        conflicts = [one for one in refused if one[1] == 409]  # an id the LRS has with other content: this one alone
        self.mark_each(conflicts if not taken else refused)
        if refused and not taken and len(conflicts) < len(refused):
            status, reason = next((status, reason) for _, status, reason in refused if status != 409)
            raise Retry(f"the LRS refused every statement it was sent ({status}: {reason})")

    def mark_each(self, refused):
        for one, status, reason in refused:
            self.mark([one], status, reason)

    def split(self, batch, refused):
        """How many of the batch the LRS took, halving it around those it refused (added to `refused` as
        (statement, status, reason), not yet marked)."""
        status, reason = self.post(batch)
        if status in DELIVERED:
            self.mark(batch, status, None)
            return len(batch)
        if status in SET_ASIDE and len(batch) == 1:
            refused.append((batch[0], status, reason))
            return 0
        if status in SET_ASIDE:
            half = len(batch) // 2
            return self.split(batch[:half], refused) + self.split(batch[half:], refused)
        if status in CREDENTIALS_REFUSED:
            raise CredentialsRefused(
                f"the LRS refused the credentials from {self.target.credentials_from} ({status}: {reason})"
            )
        else:
            raise Retry(f"the LRS answered {status}: {reason}")

    def post(self, batch):
        """(status, the LRS's reason) for one POST of the batch. Raises Retry when no usable answer came."""
        body = ('[' + ','.join(sent for _, _, sent in batch) + ']').encode()
        request = urllib.request.Request(
            self.target.statements,
            data=body,
            method='POST',
            headers={
                'Content-Type': 'application/json',
                'X-Experience-API-Version': XAPI_VERSION,
                'Authorization': self.authorization,
            },
        )
        try:
            with OPENER.open(request, timeout=self.timeout) as response:
                status, answer = response.status, response.read()
        except urllib.error.HTTPError as error:
            with error:
                try:
                    return error.code, reason_of(error.read())
                except (OSError, HTTPException):  # the answer's status came, its body did not
                    return error.code, '(no reason given)'
        except (OSError, HTTPException) as error:  # refused, reset, timed out, a name that does not resolve
            raise Retry(f"no answer from {self.target.statements} ({describe(error)})") from None
        if status == 200 and not ids_of(answer, {statement_id for _, statement_id, _ in batch}):
            raise Retry(
                f"the answer from {self.target.statements} is not an xAPI list of the statements' ids: "
                "is --forward the LRS's xAPI address?"
            )
        return status, None

    def mark(self, batch, status, reason):
        at = datetime.now(timezone.utc).isoformat(timespec='milliseconds')
        try:
            self.classroom.write(
                'INSERT OR IGNORE INTO forwarded VALUES (?, ?, ?, ?, ?)',
                [(self.target.url, statement_id, status, reason, at) for _, statement_id, _ in batch],
            )
        except Exception as error:  # the room's disk: the LRS has them, and answers a resend 204
            raise Retry(f"the room's database could not record the LRS's answer ({error})") from None

    def status(self, db):
        """{"state", "to", "waiting", "conflicts", "last_error"} for the board (classroom/progress)."""
        waiting = db.execute(
            'SELECT (SELECT COUNT(*) FROM statements) - (SELECT COUNT(*) FROM forwarded WHERE lrs = ?)',
            (self.target.url,),
        ).fetchone()[0]
        conflicts = db.execute(
            'SELECT f.id, f.status, f.message, f.at, s.name, s.exercise FROM forwarded f JOIN statements s ON s.id = f.id '
            'WHERE f.lrs = ? AND f.status NOT IN (200, 204) ORDER BY f.rowid DESC LIMIT ?',
            (self.target.url, SHOWN_CONFLICTS),
        ).fetchall()
        trouble, last_error = self.trouble or (None, None)
        state = trouble or ('sending' if waiting else 'up-to-date')
        return {
            'state': state,
            'to': self.target.url,
            'waiting': waiting,
            'last_error': last_error,
            'conflicts': [
                {'id': statement_id, 'status': status, 'error': message, 'at': at, 'name': name, 'exercise': exercise}
                for statement_id, status, message, at, name, exercise in conflicts
            ],
        }


OFF = {'state': 'off', 'to': None, 'waiting': 0, 'conflicts': [], 'last_error': None}


def as_sent(statement, stored, pseudonym):
    """The statement the LRS gets, rebuilt from the fields the room checked (statements.row): nothing else a
    page put in it (an `authority`, a `context`, an activity's `definition`) leaves the room, its id is in
    canonical form, and its learner key is `pseudonym(key)`. An LRS compares a resent statement's content
    with what it has, `timestamp` included, and sets its own when there is none: a statement without a valid
    one (from an API client; the pages set it) is given the time the room stored it, so that a resend is the
    same statement."""
    given = json.loads(statement)
    actor, verb, result = given['actor'], given['verb']['id'], given.get('result') or {}
    sent = {
        'id': str(uuid.UUID(given['id'])),
        'actor': {
            'objectType': 'Agent',
            'name': actor['name'],
            'account': {'homePage': actor['account']['homePage'], 'name': pseudonym(actor['account']['name'])},
        },
        'verb': {'id': verb, 'display': {'en-US': verb.rsplit('/', 1)[-1]}},
        'object': {'objectType': 'Activity', 'id': given['object']['id']},
    }
    kept = {}
    if isinstance(result.get('success'), bool):
        kept['success'] = result['success']
    if isinstance(result.get('response'), str):
        kept['response'] = result['response']
    score = {
        name: value
        for name, value in (result.get('score') or {}).items()
        if name in ('raw', 'max') and isinstance(value, (int, float)) and not isinstance(value, bool)
    }
    if score:
        kept['score'] = score
    extensions = result.get('extensions')
    message = extensions.get(MESSAGE) if isinstance(extensions, dict) else None
    if isinstance(message, str):
        kept['extensions'] = {MESSAGE: message}
    if kept:
        sent['result'] = kept
    sent['timestamp'] = given['timestamp'] if is_timestamp(given.get('timestamp')) else stored
    return json.dumps(sent)


def is_timestamp(value):
    """An ISO 8601 date and time with its zone, as xAPI requires."""
    if not isinstance(value, str) or 'T' not in value:
        return False
    try:
        return datetime.fromisoformat(value.replace('Z', '+00:00')).tzinfo is not None
    except ValueError:
        return False


def ids_of(answer, sent):
    """Whether a 200's body is xAPI's answer to this POST: a list of ids, each one of those sent (an LRS lists
    only those new to it)."""
    try:
        ids = json.loads(answer)
    except (ValueError, UnicodeDecodeError):
        return False
    return isinstance(ids, list) and all(canonical(one) in sent for one in ids)


def canonical(statement_id):
    try:
        return str(uuid.UUID(statement_id))
    except (ValueError, TypeError, AttributeError):
        return None


def reason_of(answer):
    """An LRS's reason for its answer, as text to show: its JSON's `detail` or `message`, or the body."""
    text = answer.decode('utf-8', 'replace')
    try:
        data = json.loads(text)
    except ValueError:
        data = None
    if isinstance(data, dict):
        for key in ('detail', 'message', 'error'):
            if data.get(key):
                text = data[key] if isinstance(data[key], str) else json.dumps(data[key])
                break
    return ' '.join(text.split())[:MAX_MESSAGE] or '(no reason given)'


def describe(error):
    reason = getattr(error, 'reason', None)
    return str(reason or error) or error.__class__.__name__
