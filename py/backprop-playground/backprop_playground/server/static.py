"""The site's files as `serve` sends them: cross-origin isolation (so Stop can interrupt Python), the
Content-Security-Policy header, brotli or gzip as the browser asks, and validators so that a reload costs a
304. Requests for the routes table (the classroom's API) go to their handler instead."""

import http.server
import json
import re
from pathlib import Path
from urllib.parse import urlsplit

from ..policy import policy_for

ENCODINGS = [('br', '.br'), ('gzip', '.gz')]  # the first that a browser takes is sent
# The language `serve --locale` gives the pages it serves: a cookie, which a page reads before its catalogue
# (web/i18n/locale.js), below a locale in the address and the reader's own choice. A school day long: a page
# the service worker serves does not ask this server again.
LOCALE_COOKIE = 'backprop-playground-room-locale'
LOCALE_SECONDS = 12 * 60 * 60
LOCALE_TAG = re.compile(r'[A-Za-z]{2,3}(-[A-Za-z0-9]{2,8})?')  # nothing else reaches a Set-Cookie header


def locale_cookie(locale, cookies):
    """The Set-Cookie value for a response: the server's locale, or clearing one a browser still sends
    (an earlier serve's), or None."""
    if locale:
        if not LOCALE_TAG.fullmatch(locale):
            raise ValueError(f"not a locale: {locale!r}")
        return f"{LOCALE_COOKIE}={locale}; Path=/; Max-Age={LOCALE_SECONDS}; SameSite=Lax"
    sent = any(part.strip().startswith(f"{LOCALE_COOKIE}=") for part in (cookies or '').split(';'))
    return f"{LOCALE_COOKIE}=; Path=/; Max-Age=0; SameSite=Lax" if sent else None


def accepted_encodings(header):
    """The content codings an Accept-Encoding header allows (`br;q=0` refuses brotli)."""
    accepted = set()
    for part in header.split(','):
        name, _, params = part.strip().partition(';')
        quality = params.strip().removeprefix('q=') if params.strip().startswith('q=') else '1'
        try:
            if float(quality) > 0:
                accepted.add(name.strip().lower())
        except ValueError:
            pass
    return accepted


def under(path, routes):
    """The longest route that ends with / and that `path` is below, or None."""
    folders = [known for _, known in routes if known.endswith('/') and path.startswith(known) and path != known]
    return max(folders, key=len, default=None)


class Handler(http.server.SimpleHTTPRequestHandler):
    """Every file may also be used by pages of other sites (embed.js on a blog), as GitHub Pages allows.
    isolated=False sends neither isolation nor the CSP, like a host that sets no headers: there the pages'
    <meta> and the service worker bring the policy."""

    isolated = True
    encodings = ENCODINGS
    # A connection that sends nothing for this long is closed: a client that declares a body and sends none
    # does not keep a thread.
    timeout = 60
    routes = {}  # (method, path) -> function(handler): the classroom's API (classroom/api.py); a path that
    # ends with / answers every path under it
    locale = None  # serve --locale: the pages' language (LOCALE_COOKIE)

    def parse_request(self):
        if not super().parse_request():
            return False
        # RFC 9112, 3.2.2: a server must accept a target in absolute form (http://host/path), as proxies send
        # it. The path keeps one leading slash: `//host` would make the directory redirect an open redirect.
        if self.path[:8].lower().startswith(('http://', 'https://')):
            parts = urlsplit(self.path)
            self.path = '/' + parts.path.lstrip('/') + (f"?{parts.query}" if parts.query else '')
        return True

    def route(self):
        """Answers the request from the routes table; False if its path is not in it."""
        path = self.path.split('?')[0]
        handle = self.routes.get((self.command, path)) or self.routes.get((self.command, under(path, self.routes)))
        if handle:
            handle(self)
            return True
        if any(path == known or known == under(path, self.routes) for _, known in self.routes):
            body = json.dumps({'error': f"{path} does not take {self.command}"}).encode()
            self.send_response(405)
            self.send_header('Content-Type', 'application/json')
            self.send_header('Content-Length', str(len(body)))
            self.end_headers()
            self.wfile.write(body)
            return True
        return False

    def do_GET(self):
        if not self.route():
            super().do_GET()

    def do_POST(self):
        if not self.route():
            self.send_error(501, 'Unsupported method (POST)')

    def end_headers(self):
        self.send_header('Access-Control-Allow-Origin', '*')
        # A page on another site (embed.js) reads build.json's encoding to choose the packed runtime or not.
        self.send_header('Access-Control-Expose-Headers', 'Content-Encoding')
        self.send_header('Cross-Origin-Resource-Policy', 'cross-origin')
        if self.isolated:
            self.send_header('Cross-Origin-Opener-Policy', 'same-origin')
            self.send_header('Cross-Origin-Embedder-Policy', 'require-corp')
            # On every file: browsers apply it to documents and workers (python-worker.js, render-worker.js, sw.js).
            self.send_header('Content-Security-Policy', policy_for(self.path))
        self.send_header('Cache-Control', 'no-cache')
        cookie = locale_cookie(self.locale, getattr(self, 'headers', None) and self.headers.get('Cookie'))
        if cookie:
            self.send_header('Set-Cookie', cookie)
        super().end_headers()

    def send_head(self):
        """A file (its .br or .gz when the browser takes that encoding and the compressed copy is not older),
        with an ETag and Last-Modified: a reload costs a 304."""
        path = Path(self.translate_path(self.path))
        if path.is_dir() and self.path.split('?')[0].endswith('/'):
            path = path / 'index.html'
        if not path.is_file():
            return super().send_head()
        served, encoding, source = path, None, path.stat()
        accepted = accepted_encodings(self.headers.get('Accept-Encoding', ''))
        for name, suffix in self.encodings:
            compressed = Path(f"{path}{suffix}")
            # A compressed copy older than its file (rewritten since, e.g. mid-deploy) holds old bytes under the
            # file's new Last-Modified: a browser's update check would then get 304s for the new sw.js. Send the file.
            if name in accepted and compressed.is_file() and compressed.stat().st_mtime_ns >= source.st_mtime_ns:
                served, encoding = compressed, name
                break
        stat = served.stat()
        etag = f'"{stat.st_mtime_ns:x}-{stat.st_size:x}"'
        modified = self.date_time_string(int(source.st_mtime))
        unchanged = (
            self.headers.get('If-None-Match') == etag
            if 'If-None-Match' in self.headers
            else self.headers.get('If-Modified-Since') == modified
        )
        self.send_response(304 if unchanged else 200)
        self.send_header('ETag', etag)
        self.send_header('Last-Modified', modified)
        self.send_header('Vary', 'Accept-Encoding')
        if unchanged:
            self.end_headers()
            return None
        self.send_header('Content-Type', self.guess_type(str(path)))
        if encoding:
            self.send_header('Content-Encoding', encoding)
        self.send_header('Content-Length', str(stat.st_size))
        self.server.count(self.path.split('?')[0], stat.st_size)
        self.end_headers()
        return served.open('rb')

    def log_message(self, format, *args):
        pass
