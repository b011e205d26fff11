"""The classroom's HTTP API, as a table of routes that the site's server answers from (server/static.py):

GET  classroom/config.json          200 {"xapi", "version", "mode", "forwarding"}: the page joins the room
POST classroom/xapi/statements      one statement or a list (X-Experience-API-Version: 1.0.3) -> 200 [ids]
POST classroom/presence             {"key", "browser": {"secure", "isolated", "interrupt", "offline"}} -> 204:
                                    every 5 s from a joined page; it learns whether the server answers
GET  classroom/handouts             what DIR/release/ hands out, and (X-Learner-Key) that learner's hand-ins
                                    and feedback
GET  classroom/release/A/FILE       a file handed out
POST classroom/hand-in              {key, name, assignment, file, notebook} -> 200 {student, at}
GET  classroom/feedback/A/NAME      (X-Learner-Key) that learner's feedback from nbgrader, to them alone
GET  classroom/progress             (Authorization: Bearer TOKEN) each learner's state per exercise, hand-ins
GET  classroom/export.csv           (the same token) one row per learner and exercise
GET  classroom/hand-ins/A.zip       (the same token) every hand-in of an assignment, in nbgrader's layout
"""

import json
import mimetypes
import socket
import sys
import time
import traceback
from urllib.parse import unquote

from .coursework import MAX_NOTEBOOK
from .statements import N_, XAPI_VERSION, Refused

MAX_BODY = 256 * 1024
MAX_PRESENCE_BODY = 2048
# A refused body is read and dropped, up to this much and this long, before the connection closes.
DISCARD_BYTES = 64 * 1024 * 1024
DISCARD_S = 10.0
HAND_IN_WAIT_S = 30.0  # how long a hand-in waits for its turn (coursework.WRITING_AT_ONCE) before a 503
# Files from the teacher's folder (handed out, feedback), opened directly, run nothing.
FROM_THE_ROOM = {'Content-Security-Policy': 'sandbox', 'X-Content-Type-Options': 'nosniff'}


def routes(classroom):
    """(method, path) -> function(handler), for one classroom; a path ending in / takes every path below it."""
    coursework = classroom.coursework

    def config(handler):
        reply(
            handler,
            200,
            {
                'xapi': 'classroom/xapi/statements',
                'version': XAPI_VERSION,
                'mode': classroom.mode,
                'forwarding': classroom.forwarder is not None,
            },
        )

    def statements(handler):
        body = read_body(handler, MAX_BODY)
        reply(
            handler,
            200,
            classroom.store(body, handler.headers.get('X-Experience-API-Version'), handler.headers.get('Host', '')),
        )

    def presence(handler):
        classroom.presence.seen(read_body(handler, MAX_PRESENCE_BODY))
        reply(handler, 204, None)

    def handouts(handler):
        reply(
            handler,
            200,
            {'handouts': coursework.handouts(), 'mine': coursework.of_learner(handler.headers.get('X-Learner-Key'))},
        )

    def release(handler):
        assignment, *path = names_after(handler, '/classroom/release/')
        found = coursework.release_file(assignment, '/'.join(path))
        reply(handler, 200, found.read_bytes(), content_type(found.name), FROM_THE_ROOM)

    def hand_in(handler):
        # A few at a time: each may hold 20 MB while it is read, parsed and written. The page sends it again.
        if not coursework.turns.acquire(timeout=HAND_IN_WAIT_S):
            handler.unread = max(0, declared_length(handler))
            raise Refused(503, N_("the room is busy with other hand-ins: yours is sent again in a moment"))
        try:
            reply(handler, 200, coursework.hand_in(read_body(handler, MAX_NOTEBOOK)))
        finally:
            coursework.turns.release()

    def feedback(handler):
        names = names_after(handler, '/classroom/feedback/')
        if len(names) != 2:
            raise Refused(404, "no feedback for you here")
        found = coursework.feedback_file(handler.headers.get('X-Learner-Key'), *names)
        reply(
            handler, 200, found.read_bytes(), 'text/html; charset=utf-8', {**FROM_THE_ROOM, 'Cache-Control': 'no-store'}
        )

    def progress(handler):
        authorize(handler)
        reply(handler, 200, classroom.progress())

    def export(handler):
        authorize(handler)
        reply(handler, 200, classroom.export_csv(), 'text/csv; charset=utf-8')

    def hand_ins(handler):
        authorize(handler)
        names = names_after(handler, '/classroom/hand-ins/')
        if len(names) != 1 or not names[0].endswith('.zip'):
            raise Refused(404, "ask for classroom/hand-ins/ASSIGNMENT.zip")
        assignment = names[0].removesuffix('.zip')
        archive = coursework.zip(assignment)
        reply(handler, 200, archive, 'application/zip', {'Content-Disposition': f'attachment; filename="{names[0]}"'})

    def authorize(handler):
        if not classroom.authorized(handler.headers.get('Authorization')):
            raise Refused(401, "the teacher's token is missing or wrong")

    table = {
        ('GET', '/classroom/config.json'): config,
        ('POST', '/classroom/xapi/statements'): statements,
        ('POST', '/classroom/presence'): presence,
        ('GET', '/classroom/handouts'): handouts,
        ('GET', '/classroom/release/'): release,
        ('POST', '/classroom/hand-in'): hand_in,
        ('GET', '/classroom/feedback/'): feedback,
        ('GET', '/classroom/progress'): progress,
        ('GET', '/classroom/export.csv'): export,
        ('GET', '/classroom/hand-ins/'): hand_ins,
    }
    return {route: answering_refusals(handle) for route, handle in table.items()}


def names_after(handler, prefix):
    """The percent-decoded names of the path below `prefix` (coursework.py refuses any that is not a plain name)."""
    try:
        return [unquote(part, errors='strict') for part in handler.path.split('?')[0].removeprefix(prefix).split('/')]
    except UnicodeDecodeError:
        raise Refused(404, "no such file") from None


def content_type(name):
    if name.endswith('.ipynb'):
        return 'application/x-ipynb+json'
    if name.endswith(('.md', '.markdown')):
        return 'text/markdown; charset=utf-8'
    guessed = mimetypes.guess_type(name)[0] or 'application/octet-stream'
    return f'{guessed}; charset=utf-8' if guessed.startswith('text/') else guessed


def answering_refusals(handle):
    """A route whose Refused becomes a JSON answer with its status (and anything else a 500)."""

    def route(handler):
        try:
            handle(handler)
        except Refused as refused:
            unread = getattr(handler, 'unread', 0)  # a body refused before it was read
            reply(handler, refused.status, refused.answer(), headers={'Connection': 'close'} if unread else None)
            if unread:
                discard_body(handler)
        except Exception as error:  # a bug: the learner gets an answer, the teacher's terminal the traceback
            print(traceback.format_exc(), file=sys.stderr, flush=True)
            reply(
                handler,
                500,
                Refused(
                    500, N_("the classroom failed ({error}): tell the teacher"), error=type(error).__name__
                ).answer(),
                headers={'Connection': 'close'},
            )

    return route


def discard_body(handler):
    """After a 413 answered before its body was read: close the sending half and read the rest of the body
    (up to DISCARD_BYTES, for DISCARD_S), then close, as RFC 9112 §9.6 advises. Closing at once would reset
    the connection under a client still sending, which then never reads the answer."""
    handler.close_connection = True
    remaining = min(getattr(handler, 'unread', 0), DISCARD_BYTES)
    deadline = time.monotonic() + DISCARD_S
    try:
        handler.wfile.flush()
        handler.connection.shutdown(socket.SHUT_WR)
        while remaining > 0 and time.monotonic() < deadline:
            handler.connection.settimeout(max(0.1, deadline - time.monotonic()))
            chunk = handler.rfile.read1(min(remaining, 1 << 16))
            if not chunk:
                break
            remaining -= len(chunk)
    except OSError:
        pass  # the client went: nothing more to read


def declared_length(handler):
    try:
        return int(handler.headers.get('Content-Length') or 0)
    except ValueError:
        return -1


def read_body(handler, limit):
    length = declared_length(handler)
    if length < 0:
        raise Refused(400, N_("a bad Content-Length"))
    if length > limit:
        handler.unread = length
        raise Refused(413, N_("a request may carry at most {size}"), size=size(limit))
    return handler.rfile.read(length)


def size(limit):
    return f"{limit // (1024 * 1024)} MB" if limit >= 1024 * 1024 else f"{limit // 1024} KB"


def reply(handler, status, body, content_type='application/json', headers=None):
    """A JSON answer (or text, or bytes, of `content_type`); a body of None is a 204, which has no content
    and no length."""
    handler.send_response(status)
    handler.send_header('X-Experience-API-Version', XAPI_VERSION)
    for name, value in (headers or {}).items():
        handler.send_header(name, value)
    if body is None:
        handler.end_headers()
        return
    data = body if isinstance(body, bytes) else (body if isinstance(body, str) else json.dumps(body)).encode()
    handler.send_header('Content-Type', content_type)
    handler.send_header('Content-Length', str(len(data)))
    handler.end_headers()
    handler.wfile.write(data)
