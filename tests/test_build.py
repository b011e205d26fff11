"""build.py's output and its server, without a browser."""
import gzip
import hashlib
import json
import os
import re
import shutil
import subprocess
import threading
import urllib.error
import urllib.request

import pytest
from conftest import ROOT

import build


def test_dist_is_self_contained_with_relative_paths(site):
    # The public URLs (README, "Public URLs") at the root; the modules in the folders that web/ has.
    for name in ['index.html', 'article.html', 'course.html', 'embed.html', 'notebook.html', 'embed.js', 'sw.js', 'teacher.html',
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


def unbrotli(data):
    """Python's standard library has no brotli; Node's zlib has (build.py needs Node anyway)."""
    script = "process.stdout.write(require('zlib').brotliDecompressSync(require('fs').readFileSync(0)))"
    return subprocess.run(['node', '-e', script], input=data, capture_output=True, check=True).stdout


def test_serve_sends_brotli_or_gzip_as_the_browser_asks(site_url, site):
    for name in ['embed.js', 'pyodide/pyodide.asm.wasm']:
        original = (site / name).read_bytes()
        headers, body = fetch(site_url + name, **{'Accept-Encoding': 'gzip, deflate, br, zstd'})
        assert headers['Content-Encoding'] == 'br' and unbrotli(body) == original
        assert len(body) < len(gzip.compress(original, compresslevel=9))
        for accepted in ['gzip', 'br;q=0, gzip;q=0.8']:
            headers, body = fetch(site_url + name, **{'Accept-Encoding': accepted})
            assert headers['Content-Encoding'] == 'gzip' and gzip.decompress(body) == original, accepted
        headers, body = fetch(site_url + name, **{'Accept-Encoding': 'identity'})
        assert 'Content-Encoding' not in headers and body == original


def test_serve_never_sends_a_compressed_copy_older_than_its_file(tmp_path):
    """A file rewritten after its .br and .gz (a deploy in progress) is sent as it is now, not as the old copies."""
    (tmp_path / 'sw.js').write_text('new')
    (tmp_path / 'sw.js.gz').write_bytes(gzip.compress(b'old'))
    (tmp_path / 'sw.js.br').write_bytes(b'old brotli')
    (tmp_path / 'fresh.js').write_text('fresh')
    (tmp_path / 'fresh.js.gz').write_bytes(gzip.compress(b'fresh'))
    (tmp_path / 'fresh.js.br').write_bytes(b'fresh brotli')
    for old in ['sw.js.gz', 'sw.js.br']:
        os.utime(tmp_path / old, ns=(0, (tmp_path / 'sw.js').stat().st_mtime_ns - 1))
    server = build.make_server(port=0, directory=tmp_path)
    threading.Thread(target=server.serve_forever, daemon=True).start()
    url = f"http://127.0.0.1:{server.server_address[1]}/"
    try:
        for accepted in ['gzip', 'gzip, br']:
            headers, body = fetch(url + 'sw.js', **{'Accept-Encoding': accepted})
            assert 'Content-Encoding' not in headers and body == b'new'
        headers, body = fetch(url + 'fresh.js', **{'Accept-Encoding': 'gzip'})
        assert headers['Content-Encoding'] == 'gzip' and gzip.decompress(body) == b'fresh'
        headers, body = fetch(url + 'fresh.js', **{'Accept-Encoding': 'gzip, br'})
        assert headers['Content-Encoding'] == 'br' and body == b'fresh brotli'
    finally:
        server.shutdown()
        server.server_close()


def test_compress_remakes_only_what_is_missing_or_older_than_its_file(tmp_path):
    (tmp_path / 'kept.js').write_text('kept')
    (tmp_path / 'changed.js').write_text('before')
    build.compress(tmp_path)
    made = {p.name: p.stat().st_mtime_ns for p in tmp_path.glob('*.*.*')}
    assert sorted(made) == ['changed.js.br', 'changed.js.gz', 'kept.js.br', 'kept.js.gz']
    (tmp_path / 'changed.js').write_text('after')
    later = max(made.values()) + 10**9  # file systems keep coarse times: a second later, to be sure
    os.utime(tmp_path / 'changed.js', ns=(later, later))
    build.compress(tmp_path)
    assert gzip.decompress((tmp_path / 'changed.js.gz').read_bytes()) == b'after'
    assert unbrotli((tmp_path / 'changed.js.br').read_bytes()) == b'after'
    assert unbrotli((tmp_path / 'kept.js.br').read_bytes()) == b'kept'
    assert [(tmp_path / name).stat().st_mtime_ns for name in ['kept.js.br', 'kept.js.gz']] == [made['kept.js.br'], made['kept.js.gz']]


def test_serve_allows_pages_of_other_sites_to_use_the_files(site_url):
    headers, _ = fetch(site_url + 'embed.js')
    assert headers['Access-Control-Allow-Origin'] == '*'
    assert headers['Cross-Origin-Resource-Policy'] == 'cross-origin'


def test_the_service_worker_precaches_every_file_with_its_integrity(site):
    sw = (site / 'sw.js').read_text()
    files = [p for p in site.rglob('*') if p.is_file() and p.suffix not in ('.gz', '.br') and p.name != 'sw.js']
    assert 'self.__WB_MANIFEST' not in sw
    for path in files:
        assert f'"url":"{path.relative_to(site).as_posix()}"' in sw, path
    assert sw.count('"integrity":"sha384-') == len(files)


@pytest.fixture
def site_copy(site, monkeypatch):
    """A copy of dist/ (times kept) that build.build() builds into: the servers of other tests, perhaps
    in another pytest-xdist worker, keep sending dist/ as it is."""
    copied = build.CACHE / 'test-builds' / f"dist-{os.getpid()}"
    shutil.rmtree(copied, ignore_errors=True)
    shutil.copytree(site, copied)
    monkeypatch.setattr(build, 'DIST', copied)
    yield copied
    shutil.rmtree(copied)


def test_a_second_build_rewrites_only_what_changed_and_deletes_what_no_source_makes(site_copy):
    site = site_copy
    stray, edited = site / 'hosts' / 'gone.js', site / 'hosts' / 'examples.js'
    stray.write_text('// a module whose source was deleted')
    edited.write_text('// stale bytes from an older build')
    before = {path: path.stat().st_mtime_ns for path in site.rglob('*') if path.is_file()}
    stray.with_name('gone.js.br').write_bytes(b'old')

    build.build()

    assert not stray.exists() and not stray.with_name('gone.js.br').exists()
    assert edited.read_bytes() == (ROOT / 'web' / 'hosts' / 'examples.js').read_bytes()
    assert os.path.getmtime(f"{edited}.br") >= os.path.getmtime(edited), 'its brotli copy was made again'
    rewritten = [path.relative_to(site).as_posix() for path, mtime in before.items()
                 if path.exists() and path.stat().st_mtime_ns != mtime]
    # Nothing else was written again: not the snapshot, and not sw.js, whose manifest is as it was.
    assert sorted(rewritten) == ['hosts/examples.js', 'hosts/examples.js.br', 'hosts/examples.js.gz']
