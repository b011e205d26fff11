"""`serve`: the built site over HTTP or HTTPS from one laptop (static.py), with the classroom's API mounted
from its routes table when a room is kept (classroom/api.py; classroom/network.py says what learners'
browsers can do in each of the room's modes)."""

import functools
import http.server
import ssl
import sys
import threading
from collections import Counter
from pathlib import Path

from ..paths import served_site
from .static import ENCODINGS, Handler, locale_cookie


def site_locales(directory=None):
    """The languages the site's pages can show: English and each catalogue the build wrote (locales/*.json)."""
    return ['en', *sorted(path.stem for path in (Path(directory or served_site()) / 'locales').glob('*.json'))]


class Server(http.server.ThreadingHTTPServer):
    # A room's 60 learners connect at once: the default backlog of 5 had the kernel reset connections.
    request_queue_size = 256

    def __init__(self, *args, **kwargs):
        super().__init__(*args, **kwargs)
        self.sent = Counter()  # body bytes sent, by path: bench/ counts a first visit with it
        self.times = Counter()  # and how many times each was sent
        self.counting = threading.Lock()

    def count(self, path, size):
        with self.counting:
            self.sent[path] += size
            self.times[path] += 1

    def handle_error(self, request, client_address):
        # A device that does not trust the certificate, or a browser that left mid-answer: nothing to print.
        error = sys.exc_info()[1]
        if isinstance(error, (ssl.SSLError, ConnectionError, TimeoutError)):
            return
        super().handle_error(request, client_address)


def make_server(
    host='127.0.0.1', port=8000, isolated=True, directory=None, room=None, tls=None, encodings=ENCODINGS, locale=None
):
    """The site's server for `directory` (the installed or built site by default). `room`: a
    classroom.Classroom whose API it answers. `tls`: (certificate file, key file), PEM, for HTTPS. `locale`:
    the language its pages open in, unless the address or the reader chooses another (one of site_locales)."""
    from ..classroom.api import routes  # the classroom's API, only where a room is kept

    if locale:
        locale_cookie(locale, '')  # refuses what is not a locale before the server starts
    attributes = {
        'isolated': isolated,
        'encodings': encodings,
        'routes': routes(room) if room else {},
        'locale': locale,
    }
    handler = type('SiteHandler', (Handler,), attributes)
    server = Server((host, port), functools.partial(handler, directory=str(directory or served_site())))
    if tls:
        context = ssl.create_default_context(ssl.Purpose.CLIENT_AUTH)
        # A key with a passphrase would make `serve` wait at a prompt: refuse it with a message instead.
        context.load_cert_chain(*tls, password=lambda: b'')
        # The handshake happens on the request's own thread, not in accept(): a client that stalls it holds
        # up no one else.
        server.socket = context.wrap_socket(server.socket, server_side=True, do_handshake_on_connect=False)
    return server
