"""Fixtures of the other engines' tests: the refusing proxy, and a classroom reached by its LAN name."""

import socketserver

import pytest

from backprop_playground.classroom import Classroom
from support import LAN_HOST
from support.drivers import Refuse
from support.servers import in_a_thread, serving, stop


@pytest.fixture(scope='session')
def guard():
    server = socketserver.ThreadingTCPServer(('127.0.0.1', 0), Refuse)
    server.daemon_threads = True
    server.attempts = []
    in_a_thread(server)
    yield server
    server.shutdown()
    server.server_close()


@pytest.fixture
def lan_room(tmp_path, site):
    """A classroom server, reached by the room's LAN name: (Classroom, URL)."""
    room = Classroom(tmp_path / 'room')
    server, url = serving(room=room)
    yield room, url.replace('127.0.0.1', LAN_HOST)
    stop(server)
