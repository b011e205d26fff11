"""A stand-in for jsDelivr, the CDN that articles load embed.js from, and the npm package it serves.

It behaves as jsDelivr's documentation and its real responses say (PLATFORM.md, "Measured for embedding from
anywhere"; jsdelivr/jsdelivr's README, "Restrictions"; a real response in jsdelivr/jsdelivr#18692):
- files of a package at /npm/NAME@VERSION/PATH, from the package as `npm install` unpacked it;
- HTML as text/plain (jsDelivr serves no pages), an extension it does not know as application/octet-stream;
- `x-content-type-options: nosniff`, `access-control-allow-origin: *`, `access-control-expose-headers: *`,
  `timing-allow-origin: *`, `cross-origin-resource-policy: cross-origin`, `vary: Accept-Encoding` and
  `cache-control: public, max-age=604800, s-maxage=43200` on every file; no COOP or COEP;
- brotli or gzip (as the browser asks) for text types only, not for binaries it does not know;
  `compress_wasm=True` is the variant that compresses application/wasm too;
- a 403 for any file over 20 MB.
"""

import gzip
import http.server
import json
import shutil
import subprocess
import sys
import threading
from collections import Counter
from pathlib import Path
from urllib.parse import unquote, urlsplit

import brotli

from backprop_playground.server.static import accepted_encodings

from . import ROOT
from .servers import in_a_thread

MAX_FILE = 20 * 10**6
TYPES = {
    '.js': 'application/javascript; charset=utf-8',
    '.mjs': 'application/javascript; charset=utf-8',
    '.css': 'text/css; charset=utf-8',
    '.json': 'application/json; charset=utf-8',
    '.map': 'application/json; charset=utf-8',
    '.html': 'text/plain; charset=utf-8',
    '.htm': 'text/plain; charset=utf-8',
    '.txt': 'text/plain; charset=utf-8',
    '.md': 'text/markdown; charset=utf-8',
    '.svg': 'image/svg+xml',
    '.png': 'image/png',
    '.wasm': 'application/wasm',
    '.zip': 'application/zip',
}
TEXT = ('application/javascript', 'text/', 'application/json', 'image/svg+xml')
HEADERS = {
    'X-Content-Type-Options': 'nosniff',
    'Access-Control-Allow-Origin': '*',
    'Access-Control-Expose-Headers': '*',
    'Timing-Allow-Origin': '*',
    'Cross-Origin-Resource-Policy': 'cross-origin',
    'Vary': 'Accept-Encoding',
    'Cache-Control': 'public, max-age=604800, s-maxage=43200',
}


def installed_package(folder):
    """`python build.py package`'s tarball (its path is the command's last line), installed by npm (offline) into
    `folder`: (the package's folder, its package.json)."""
    made = subprocess.run(
        [sys.executable, 'build.py', 'package'], cwd=ROOT, capture_output=True, text=True, timeout=900
    )
    assert made.returncode == 0, made.stdout[-3000:] + made.stderr[-3000:]
    tarball = Path(made.stdout.strip().splitlines()[-1])
    assert tarball.is_file() and tarball.suffix == '.tgz', made.stdout[-2000:]
    subprocess.run(
        [
            'npm',
            'install',
            '--offline',
            '--no-audit',
            '--no-fund',
            '--no-package-lock',
            '--prefix',
            str(folder),
            str(tarball),
        ],
        check=True,
        capture_output=True,
    )
    return installed(folder)


def installed(folder):
    """The package that installed_package() installed in `folder`: (its folder, its package.json)."""
    package = folder / 'node_modules' / 'backprop-playground'
    return package, json.loads((package / 'package.json').read_text())


class CDN:
    """The stand-in on 127.0.0.1: `packages` maps 'NAME@VERSION' to a folder. `sent` counts the bytes of each
    path's bodies, `refused` the paths it answered 403."""

    def __init__(self, packages, compress_wasm=False):
        self.packages = dict(packages)
        self.compress_wasm = compress_wasm
        self.sent, self.refused, self.lock = Counter(), [], threading.Lock()
        self.compressed = {}  # (file, encoding) -> bytes, as a CDN's edge keeps them
        cdn = self

        class Handler(http.server.BaseHTTPRequestHandler):
            def do_GET(self):
                cdn.answer(self, body=True)

            def do_HEAD(self):
                cdn.answer(self, body=False)

            def log_message(self, *args):
                pass

        self.server = http.server.ThreadingHTTPServer(('127.0.0.1', 0), Handler)
        self.server.daemon_threads = True
        in_a_thread(self.server)
        self.url = f"http://127.0.0.1:{self.server.server_address[1]}/"

    def package_url(self, name_at_version):
        return f"{self.url}npm/{name_at_version}/"

    def file_for(self, path):
        parts = unquote(urlsplit(path).path).split('/')
        if len(parts) < 4 or parts[1] != 'npm' or parts[2] not in self.packages or '..' in parts:
            return None
        return self.packages[parts[2]].joinpath(*parts[3:])

    def answer(self, handler, body):
        file = self.file_for(handler.path)
        if file is None or not file.is_file():
            return self.plain(handler, 404, b'Couldn\'t find the requested file.', body)
        if file.stat().st_size > MAX_FILE:
            with self.lock:
                self.refused.append(urlsplit(handler.path).path)
            return self.plain(handler, 403, b'Package size exceeded the configured limit of 20 MB.', body)
        kind = TYPES.get(file.suffix, 'application/octet-stream')
        data = file.read_bytes()
        accepted = accepted_encodings(handler.headers.get('Accept-Encoding', ''))
        encoding = None
        if kind.startswith(TEXT) or (self.compress_wasm and kind == 'application/wasm'):
            encoding = 'br' if 'br' in accepted else 'gzip' if 'gzip' in accepted else None
            if encoding and (file, encoding) not in self.compressed:
                self.compressed[file, encoding] = (
                    brotli.compress(data, quality=5)
                    if encoding == 'br'
                    else gzip.compress(data, compresslevel=6, mtime=0)
                )
            data = self.compressed[file, encoding] if encoding else data
        handler.send_response(200)
        handler.send_header('Content-Type', kind)
        if encoding:
            handler.send_header('Content-Encoding', encoding)
        handler.send_header('Content-Length', str(len(data)))
        for name, value in HEADERS.items():
            handler.send_header(name, value)
        handler.end_headers()
        if body:
            handler.wfile.write(data)
            with self.lock:
                self.sent[urlsplit(handler.path).path] += len(data)

    @staticmethod
    def plain(handler, status, text, body):
        handler.send_response(status)
        handler.send_header('Content-Type', 'text/plain; charset=utf-8')
        handler.send_header('Content-Length', str(len(text)))
        handler.send_header('Access-Control-Allow-Origin', '*')
        handler.end_headers()
        if body:
            handler.wfile.write(text)

    def stop(self):
        self.server.shutdown()
        self.server.server_close()


def second_version(installed, folder, version):
    """A copy of the installed package that says it is `version` (an article may load two versions)."""
    shutil.copytree(installed, folder, copy_function=lambda src, dst: Path(dst).hardlink_to(src))
    info = json.loads((folder / 'package.json').read_text())
    (folder / 'package.json').unlink()  # a hard link: write a file of its own
    (folder / 'package.json').write_text(json.dumps({**info, 'version': version}))
    return folder
