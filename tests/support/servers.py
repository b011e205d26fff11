"""Servers the tests start: the site as `serve` sends it, plain static origins (a blog's, a host that sends
CORS headers), a classroom's laptop that can be stopped and started again on the same port, and a stub
Learning Record Store that records what a room forwards to it."""

import functools
import http.server
import json
import os
import subprocess
import sys
import threading
import time

from playwright.sync_api import expect

from backprop_playground.classroom import Classroom
from backprop_playground.server import make_server

from . import ROOT, STARTUP_TIMEOUT_MS
from .http_calls import call

# How often a server's loop looks whether it was asked to stop: socketserver's default, 0.5 s, made each stop()
# wait 0.25 s on average with nothing else to do (about 100 servers a run).
STOP_POLL_S = 0.02


def in_a_thread(server):
    """Runs `server` (a socketserver) in a daemon thread until stop(server); returns it."""
    threading.Thread(target=server.serve_forever, kwargs={'poll_interval': STOP_POLL_S}, daemon=True).start()
    return server


def serving(**options):
    """backprop_playground's server on a free port, in a thread: (server, its URL at 127.0.0.1)."""
    server = in_a_thread(make_server(port=0, **options))
    return server, f"http://127.0.0.1:{server.server_address[1]}/"


def stop(server):
    server.shutdown()
    server.server_close()


def room_in_a_process(folder, port, site=None, forward=None):
    """The room's server in a process of its own, as `serve --classroom DIR` runs it, that a test can kill
    with -9: (process, base URL). `site` is what it serves beside the API (the room's folder if None);
    `forward` is (LRS URL, user, password), retried within half a second."""
    room = f"Classroom({str(folder)!r})"
    if forward:
        room = (
            f"Classroom({str(folder)!r}, forward=forward.Target(*{tuple(forward)!r}, 'the test'), "
            "backoff=forward.Backoff(first=0.1, cap=0.5))"
        )
    code = (
        "from backprop_playground.classroom import Classroom, forward; from backprop_playground.server import make_server; "
        f"make_server(port={port}, directory={str(site or folder)!r}, room={room}).serve_forever()"
    )
    process = subprocess.Popen(
        [sys.executable, '-c', code],
        cwd=ROOT,
        env={**os.environ, 'PYTHONPATH': str(ROOT / 'py' / 'backprop-playground')},
    )
    base = f"http://127.0.0.1:{port}/"
    deadline = time.monotonic() + 60
    while True:
        try:
            if call(base + 'classroom/config.json')[0] == 200:
                return process, base
        except OSError:
            pass
        if process.poll() is not None or time.monotonic() > deadline:
            process.kill()
            raise AssertionError(f'the classroom server did not start (exit code {process.poll()})')
        time.sleep(0.1)


def static_origin(folder, cors=False):
    """A plain static server for `folder` on another port: another origin. (server, URL)"""

    class Handler(http.server.SimpleHTTPRequestHandler):
        def end_headers(self):
            if cors:
                self.send_header('Access-Control-Allow-Origin', '*')
            super().end_headers()

        def log_message(self, *args):
            pass

    server = http.server.ThreadingHTTPServer(('127.0.0.1', 0), functools.partial(Handler, directory=str(folder)))
    in_a_thread(server)
    return server, f"http://127.0.0.1:{server.server_address[1]}/"


class RoomServer:
    """The site and a classroom, on one port that outlives a stop and a start, as a laptop's would; `url`
    reaches it by `host`."""

    def __init__(self, folder, host='127.0.0.1', locale=None, **classroom):
        self.options = classroom
        self.locale = locale  # serve --locale; a test may change it before a start()
        self.room = Classroom(folder, **classroom)
        self.port = 0
        self.start()
        self.host = f"{host}:{self.port}"
        self.url = f"http://{self.host}/"

    def start(self):
        self.server = make_server(port=self.port, room=Classroom(self.room.folder, **self.options), locale=self.locale)
        self.port = self.server.server_address[1]
        in_a_thread(self.server)

    def stop(self):
        stop(self.server)


NAME = 'Ada <b>Lovelace</b>'  # a name with HTML in it shows as text


def join(page, url, page_name='course.html'):
    """Opens a page of the room and joins the class as NAME."""
    page.goto(url + page_name)
    dialog = page.get_by_test_id('classroom-join')
    expect(dialog).to_be_visible(timeout=STARTUP_TIMEOUT_MS)
    dialog.get_by_test_id('student-name').fill(NAME)
    dialog.get_by_test_id('join').click()
    expect(dialog).to_have_count(0)
    expect(page.get_by_test_id('classroom-badge')).to_have_text(f"In class as {NAME} · Change · Room's work")


def board_cell(board, exercise_id):
    """NAME's cell for an exercise on the teacher's board."""
    return (
        board.get_by_test_id('student-row')
        .and_(board.locator(f'[data-student="{NAME}"]'))
        .locator(f'td[data-exercise="{exercise_id}"]')
    )


class RecordingLRS:
    """A stub xAPI Learning Record Store on 127.0.0.1 that records every request (its headers and statements)
    and answers as a test scripts it: `answer(statements)` returns (status, JSON body or None[, headers]); it
    may also sleep, or wait for `release`. By default it takes everything (200 and the ids); a GET answers
    200 and an empty list. `start()` may come later than the forwarder's first attempts (until then `port`
    refuses connections), and `stop()` closes the port."""

    def __init__(self, port=0):
        self.requests = []  # {'path', 'headers' (case-insensitive), 'statements', 'status'} in the order they came
        self.answer = lambda statements: (200, [statement['id'] for statement in statements])
        self.release = threading.Event()  # for an `answer` that holds the request until the test lets it go
        self.lock = threading.Lock()
        self.port, self.server = port, None

    @property
    def url(self):
        return f"http://127.0.0.1:{self.port}/xAPI/"

    def start(self):
        lrs = self

        class Handler(http.server.BaseHTTPRequestHandler):
            def do_POST(self):
                statements = json.loads(self.rfile.read(int(self.headers.get('Content-Length') or 0)))
                seen = {'path': self.path, 'headers': self.headers, 'statements': statements, 'status': None}
                with lrs.lock:
                    lrs.requests.append(seen)
                status, body, *headers = lrs.answer(statements)
                seen['status'] = status
                self.answer(status, body, *headers)

            def do_GET(self):
                self.answer(200, [])

            def answer(self, status, body, headers=None):
                data = json.dumps(body).encode() if body is not None else b''
                self.send_response(status)
                for name, value in (headers or {}).items():
                    self.send_header(name, value)
                if data:
                    self.send_header('Content-Type', 'application/json')
                self.send_header('Content-Length', str(len(data)))
                self.end_headers()
                self.wfile.write(data)

            def log_message(self, *args):
                pass

        self.server = http.server.ThreadingHTTPServer(('127.0.0.1', self.port), Handler)
        self.server.daemon_threads = True
        self.port = self.server.server_address[1]
        in_a_thread(self.server)
        return self

    def stop(self):
        self.release.set()
        if self.server:
            stop(self.server)
            self.server = None

    def taken(self):
        """The ids of the statements in each request answered 200 or 204, in the order they came."""
        with self.lock:
            return [s['id'] for seen in self.requests if seen['status'] in (200, 204) for s in seen['statements']]
