"""The proxy that every request leaving this machine goes to: it records what the browser tried to fetch and
answers nothing. Chromium is launched with it as its proxy (conftest.browser_type_launch_args), WebKit and
Firefox through their own settings (tests/engines). A plain-HTTP request for the classroom's LAN name is relayed
to this machine, as a room's network would carry it (WebKit has no host-resolver setting).

Chromium's pages used to be kept on this machine by a Playwright route, but Playwright turns the HTTP cache off
while a context has any route: each navigation of a lent tab then read the runtime again (docs/development.md,
"Tests"). The proxy keeps the cache as a reader's browser has it, and refuses what a route never saw: the
requests of a page's workers (Playwright reports neither their requests nor routes them) and Chromium's own
calls to Google's services. `Attempts` counts the first as the page's and leaves out the second."""

import functools
import select
import socket
import socketserver
import threading
import time
from urllib.parse import urlsplit

from . import LAN_HOST, STARTUP_TIMEOUT_MS
from .servers import in_a_thread


class Refuse(socketserver.BaseRequestHandler):
    """Records the request line of what the browser tried to fetch and closes the connection without an answer;
    relays plain HTTP for the classroom's LAN name to this machine."""

    def handle(self):
        try:
            first = self.read_first_line()
            line = first.split(b'\r\n')[0].decode('latin-1')
            target = line.split(' ')[1] if line.count(' ') >= 2 else ''
            relayed = target.startswith(f'http://{LAN_HOST}:')
            if first and not relayed:
                # WebKit speaks TLS to the proxy for https, so its target is not readable here.
                self.server.attempts.append(line if line[:1].isalpha() else 'an https request')
        finally:
            with self.server.lock:
                self.server.reading -= 1  # counted from its accept (Guard.verify_request)
        if relayed:
            self.relay(int(target.split(':')[2].split('/')[0]), first)
        # else: nothing asked (a connection opened ahead of a request: Chromium's preconnect), or refused

    def read_first_line(self):
        """The connection's bytes up to its first line's end (b'' if it asked nothing)."""
        self.request.settimeout(5)
        first = b''
        try:
            while b'\r\n' not in first and len(first) < 8192:
                chunk = self.request.recv(8192)
                if not chunk:
                    break
                first += chunk
        except OSError:
            pass
        return first

    def relay(self, port, first):
        self.request.settimeout(STARTUP_TIMEOUT_MS / 1000)  # a browser may pause while a large file streams
        with socket.create_connection(('127.0.0.1', port), timeout=STARTUP_TIMEOUT_MS / 1000) as upstream:
            upstream.sendall(first)
            sockets = [self.request, upstream]
            while True:
                readable, _, _ = select.select(sockets, [], [], STARTUP_TIMEOUT_MS / 1000)
                if not readable:
                    return
                for source in readable:
                    data = source.recv(65536)
                    if not data:
                        return
                    (upstream if source is self.request else self.request).sendall(data)


class Guard(socketserver.ThreadingTCPServer):
    daemon_threads = True

    def __init__(self):
        super().__init__(('127.0.0.1', 0), Refuse)
        self.attempts = []
        self.lock = threading.Lock()
        self.reading = 0  # connections accepted whose first line is not recorded yet

    def verify_request(self, request, client_address):
        with self.lock:
            self.reading += 1
        return True

    def settle(self):
        """Returns once every connection opened before this call is recorded: a marker connection of its own,
        accepted after them (a listening socket accepts in order), is recorded and no line is still being read.
        The marker is not kept. For a test whose browser may still be retrying a host it asked for on purpose."""
        marker = 'CONNECT settled.invalid:443 HTTP/1.1'
        with socket.create_connection(self.server_address, timeout=5) as connection:
            connection.sendall(f'{marker}\r\n\r\n'.encode())
            deadline = time.monotonic() + STARTUP_TIMEOUT_MS / 1000
            while marker not in self.attempts or self.reading:
                assert time.monotonic() < deadline, f'the proxy did not record its own marker: {self.attempts}'
                time.sleep(0.01)
        self.attempts.remove(marker)


def start_guard():
    """A refusing proxy on a free port of 127.0.0.1, serving in a thread until servers.stop(); its `attempts`
    grow as requests come."""
    return in_a_thread(Guard())


@functools.cache
def chromium_guard():
    """The proxy of this process's Chromium, started on first use and kept for the process's life."""
    return start_guard()


def chromium_proxy_args():
    """Chromium's switches that send every request but this machine's to chromium_guard(): `<-loopback>` takes
    away Chromium's own bypass (loopback, and link-local addresses such as a cloud machine's metadata service),
    and the bypass names 127.0.0.1, localhost and the LAN name, which the tests map to this machine."""
    port = chromium_guard().server_address[1]
    return [
        f'--proxy-server=http://127.0.0.1:{port}',
        f'--proxy-bypass-list=<-loopback>;127.0.0.1;localhost;{LAN_HOST}',
    ]


# Chromium's own services (component updates, autofill, accounts, safe browsing), by host: it calls them by
# itself, headless and with --disable-background-networking too (seen here: accounts, content-autofill,
# update). A page's request to one is still seen by Playwright; a worker's is refused, not reported.
CHROMIUMS_OWN = {
    'accounts.google.com',
    'clients2.google.com',
    'clientservices.googleapis.com',
    'content-autofill.googleapis.com',
    'dl.google.com',
    'edgedl.me.gvt1.com',
    'optimizationguide-pa.googleapis.com',
    'redirector.gvt1.com',
    'safebrowsing.googleapis.com',
    'update.googleapis.com',
}


def host_of(line):
    """The host a request line that reached the proxy asked for ('CONNECT host:443 …', 'GET http://host/ …')."""
    parts = line.split(' ')
    if len(parts) < 2:
        return None
    if parts[0] == 'CONNECT':
        return parts[1].rsplit(':', 1)[0]
    return urlsplit(parts[1]).hostname


class Attempts:
    """What a test's pages tried to fetch beyond this machine since it was made or last cleared: the URLs that
    Playwright saw them ask for (`asked`, appended by support.block_the_network), and what reached the proxy
    from anywhere but Chromium's own services (a worker's requests; a page's too, said twice). The proxy is the
    process's: a test's line is its own because a worker runs one test at a time, and each lend clears. It
    compares to a list (`attempts == []`), iterates and prints as one."""

    def __init__(self):
        self.asked = []
        self.start = len(chromium_guard().attempts)

    def items(self):
        refused = chromium_guard().attempts[self.start :]
        return self.asked + [line for line in refused if host_of(line) not in CHROMIUMS_OWN]

    def __iter__(self):
        return iter(self.items())

    def __len__(self):
        return len(self.items())

    def __eq__(self, other):
        return self.items() == list(other)

    def __repr__(self):
        return repr(self.items())

    def clear(self):
        self.asked.clear()
        self.start = len(chromium_guard().attempts)
