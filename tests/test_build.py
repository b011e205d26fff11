"""build.py's output and its server, without a browser."""
import gzip
import hashlib
import json
import os
import re
import threading
import urllib.error
import urllib.request

from conftest import ROOT

import build


def test_dist_is_self_contained_with_relative_paths(site):
    # The public URLs (README, "Public URLs") at the root; the modules in the folders that web/ has.
    for name in ['index.html', 'article.html', 'course.html', 'embed.html', 'notebook.html', 'embed.js', 'sw.js',
                 'hosts/main.js', 'session/python-worker.js', 'cell/editor.bundle.js', 'output/plot.bundle.js',
                 'notebook/markdown.bundle.js', 'vendor/viz.js', 'build.json', 'pyodide/pyodide.mjs', 'pyodide/pyodide.asm.wasm', 'pyodide/python_stdlib.zip']:
        assert (site / name).is_file(), name
    html = (site / 'index.html').read_text()
    assert not re.search(r'(src|href)="(/|https?:)', html)
    info = json.loads((site / 'build.json').read_text())
    assert info['python'].startswith('3.14')
    for wheel in info['wheels']:
        assert (site / 'wheels' / wheel).is_file()


def test_shipped_lock_has_the_real_hash_of_the_micropip_wheel(site):
    lock = json.loads((site / 'pyodide' / 'pyodide-lock.json').read_text())
    micropip = lock['packages']['micropip']
    wheel = site / 'pyodide' / micropip['file_name']
    assert hashlib.sha256(wheel.read_bytes()).hexdigest() == micropip['sha256']


def fetch(url, **headers):
    with urllib.request.urlopen(urllib.request.Request(url, headers=headers)) as response:
        return response.headers, response.read()


def test_serve_sends_isolation_headers_and_gzip(site_url, site):
    headers, body = fetch(site_url + 'pyodide/pyodide.asm.wasm', **{'Accept-Encoding': 'gzip'})
    assert headers['Content-Encoding'] == 'gzip'
    assert headers['Content-Type'] == 'application/wasm'
    assert headers['Cross-Origin-Opener-Policy'] == 'same-origin'
    assert headers['Cross-Origin-Embedder-Policy'] == 'require-corp'
    assert len(body) < (site / 'pyodide' / 'pyodide.asm.wasm').stat().st_size / 2
    headers, body = fetch(site_url + 'index.html')
    assert 'Content-Encoding' not in headers and body.startswith(b'<!doctype html>')


def test_plain_host_mode_sends_no_isolation_headers(plain_site_url):
    headers, _ = fetch(plain_site_url + 'index.html')
    assert 'Cross-Origin-Opener-Policy' not in headers


def test_ci_runs_the_readme_test_command():
    ci = (ROOT / '.ci' / 'run').read_text()
    command = re.search(r'^# README test command:\n(.+)$', ci, re.M).group(1)
    assert f"\n{command}\n" in (ROOT / 'README.md').read_text()
    assert build.ROOT == ROOT


def test_serve_lets_a_reload_revalidate_with_a_304(site_url):
    for encoding in ['gzip', 'identity']:
        headers, _ = fetch(site_url + 'pyodide/pyodide.asm.wasm', **{'Accept-Encoding': encoding})
        assert headers['ETag'] and headers['Last-Modified']
        for condition in [{'If-None-Match': headers['ETag']}, {'If-Modified-Since': headers['Last-Modified']}]:
            try:
                fetch(site_url + 'pyodide/pyodide.asm.wasm', **{'Accept-Encoding': encoding}, **condition)
                status = 200
            except urllib.error.HTTPError as error:
                status = error.code
            assert status == 304, condition
    headers, body = fetch(site_url, **{'If-None-Match': '"stale"'})
    assert body.startswith(b'<!doctype html>')


def test_serve_never_sends_a_gz_older_than_its_file(tmp_path):
    """A file rewritten after its .gz (a deploy in progress) is sent as it is now, not as the old .gz."""
    (tmp_path / 'sw.js').write_text('new')
    (tmp_path / 'sw.js.gz').write_bytes(gzip.compress(b'old'))
    (tmp_path / 'fresh.js').write_text('fresh')
    (tmp_path / 'fresh.js.gz').write_bytes(gzip.compress(b'fresh'))
    os.utime(tmp_path / 'sw.js.gz', ns=(0, (tmp_path / 'sw.js').stat().st_mtime_ns - 1))
    server = build.make_server(port=0, directory=tmp_path)
    threading.Thread(target=server.serve_forever, daemon=True).start()
    url = f"http://127.0.0.1:{server.server_address[1]}/"
    try:
        headers, body = fetch(url + 'sw.js', **{'Accept-Encoding': 'gzip'})
        assert 'Content-Encoding' not in headers and body == b'new'
        headers, body = fetch(url + 'fresh.js', **{'Accept-Encoding': 'gzip'})
        assert headers['Content-Encoding'] == 'gzip' and gzip.decompress(body) == b'fresh'
    finally:
        server.shutdown()


def test_serve_allows_pages_of_other_sites_to_use_the_files(site_url):
    headers, _ = fetch(site_url + 'embed.js')
    assert headers['Access-Control-Allow-Origin'] == '*'
    assert headers['Cross-Origin-Resource-Policy'] == 'cross-origin'


def test_the_service_worker_precaches_every_file_with_its_integrity(site):
    sw = (site / 'sw.js').read_text()
    files = [p for p in site.rglob('*') if p.is_file() and p.suffix != '.gz' and p.name != 'sw.js']
    assert 'self.__WB_MANIFEST' not in sw
    for path in files:
        assert f'"url":"{path.relative_to(site).as_posix()}"' in sw, path
    assert sw.count('"integrity":"sha384-') == len(files)
