"""Fixtures of the other engines' tests: the refusing proxy, and a classroom reached by its LAN name."""

import pytest

from backprop_playground.classroom import Classroom
from support import LAN_HOST
from support.guard import start_guard
from support.servers import serving, stop


@pytest.fixture(scope='session')
def guard():
    server = start_guard()
    yield server
    stop(server)


@pytest.fixture
def lan_room(tmp_path, site):
    """A classroom server, reached by the room's LAN name: (Classroom, URL)."""
    room = Classroom(tmp_path / 'room')
    server, url = serving(room=room)
    yield room, url.replace('127.0.0.1', LAN_HOST)
    stop(server)
