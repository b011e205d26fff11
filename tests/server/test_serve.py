"""The site's server (backprop_playground.server) without a browser or a site build, over a small folder
compressed as the build compresses dist/: headers, encodings, validators, proxies' requests."""

import gzip
import json
import os
import socket
import subprocess
import sys
import urllib.error
import urllib.request

import pytest

from backprop_playground.policy import CONTENT_SECURITY_POLICY, NOTEBOOK_POLICY
from backprop_playground.steps.compress import compress
from support import ROOT
from support.servers import serving, stop

WASM = bytes(range(256)) * 2000  # 512 KB that compress as a runtime's wasm does, well


@pytest.fixture(scope='module')
def served(tmp_path_factory):
    """(folder, URL at 127.0.0.1, URL of the same server without isolation)."""
    folder = tmp_path_factory.mktemp('served')
    (folder / 'index.html').write_text(
        '<!doctype html><meta charset="utf-8"><title>served</title>' + '<p>text</p>' * 500
    )
    (folder / 'notebook.html').write_text('<!doctype html><meta charset="utf-8"><title>notebook</title>')
    (folder / 'embed.js').write_text('export const x = 1;\n' * 2000)
    (folder / 'build.json').write_text(json.dumps({'wheels': []}))
    (folder / 'pyodide').mkdir()
    (folder / 'pyodide' / 'pyodide.asm.wasm').write_bytes(WASM)
    compress(folder)
    server, url = serving(directory=folder)
    plain, plain_url = serving(directory=folder, isolated=False)
    yield folder, url, plain_url
    stop(server)
    stop(plain)


def fetch(url, **headers):
    with urllib.request.urlopen(urllib.request.Request(url, headers=headers)) as response:
        return response.headers, response.read()


def unbrotli(data):
    """Python's standard library has no brotli; Node's zlib has (the build needs Node anyway)."""
    script = "process.stdout.write(require('zlib').brotliDecompressSync(require('fs').readFileSync(0)))"
    return subprocess.run(['node', '-e', script], input=data, capture_output=True, check=True).stdout


def test_serve_sends_isolation_headers_the_policy_and_gzip(served):
    folder, url, _ = served
    headers, body = fetch(url + 'pyodide/pyodide.asm.wasm', **{'Accept-Encoding': 'gzip'})
    assert headers['Content-Encoding'] == 'gzip'
    assert headers['Content-Type'] == 'application/wasm'
    assert headers['Cross-Origin-Opener-Policy'] == 'same-origin'
    assert headers['Cross-Origin-Embedder-Policy'] == 'require-corp'
    assert headers['Content-Security-Policy'] == CONTENT_SECURITY_POLICY
    assert len(body) < len(WASM) / 2
    headers, body = fetch(url + 'index.html')
    assert 'Content-Encoding' not in headers and body.startswith(b'<!doctype html>')
    assert fetch(url + 'notebook.html')[0]['Content-Security-Policy'] == NOTEBOOK_POLICY


def test_plain_host_mode_sends_no_isolation_headers(served):
    headers, _ = fetch(served[2] + 'index.html')
    assert 'Cross-Origin-Opener-Policy' not in headers and 'Content-Security-Policy' not in headers


def test_serve_lets_a_reload_revalidate_with_a_304(served):
    _, url, _ = served
    for encoding in ['gzip', 'identity']:
        headers, _ = fetch(url + 'pyodide/pyodide.asm.wasm', **{'Accept-Encoding': encoding})
        assert headers['ETag'] and headers['Last-Modified']
        for condition in [{'If-None-Match': headers['ETag']}, {'If-Modified-Since': headers['Last-Modified']}]:
            try:
                fetch(url + 'pyodide/pyodide.asm.wasm', **{'Accept-Encoding': encoding}, **condition)
                status = 200
            except urllib.error.HTTPError as error:
                status = error.code
            assert status == 304, condition
    headers, body = fetch(url, **{'If-None-Match': '"stale"'})
    assert body.startswith(b'<!doctype html>')


def test_serve_sends_brotli_or_gzip_as_the_browser_asks(served):
    folder, url, _ = served
    for name in ['embed.js', 'pyodide/pyodide.asm.wasm']:
        original = (folder / name).read_bytes()
        headers, body = fetch(url + name, **{'Accept-Encoding': 'gzip, deflate, br, zstd'})
        assert headers['Content-Encoding'] == 'br' and unbrotli(body) == original
        assert len(body) < len(gzip.compress(original, compresslevel=9))
        for accepted in ['gzip', 'br;q=0, gzip;q=0.8']:
            headers, body = fetch(url + name, **{'Accept-Encoding': accepted})
            assert headers['Content-Encoding'] == 'gzip' and gzip.decompress(body) == original, accepted
        headers, body = fetch(url + name, **{'Accept-Encoding': 'identity'})
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
    server, url = serving(directory=tmp_path)
    try:
        for accepted in ['gzip', 'gzip, br']:
            headers, body = fetch(url + 'sw.js', **{'Accept-Encoding': accepted})
            assert 'Content-Encoding' not in headers and body == b'new'
        headers, body = fetch(url + 'fresh.js', **{'Accept-Encoding': 'gzip'})
        assert headers['Content-Encoding'] == 'gzip' and gzip.decompress(body) == b'fresh'
        headers, body = fetch(url + 'fresh.js', **{'Accept-Encoding': 'gzip, br'})
        assert headers['Content-Encoding'] == 'br' and body == b'fresh brotli'
    finally:
        stop(server)


def test_compress_remakes_only_what_is_missing_or_older_than_its_file(tmp_path):
    (tmp_path / 'kept.js').write_text('kept')
    (tmp_path / 'changed.js').write_text('before')
    compress(tmp_path)
    made = {p.name: p.stat().st_mtime_ns for p in tmp_path.glob('*.*.*')}
    assert sorted(made) == ['changed.js.br', 'changed.js.gz', 'kept.js.br', 'kept.js.gz']
    (tmp_path / 'changed.js').write_text('after')
    later = max(made.values()) + 10**9  # file systems keep coarse times: a second later, to be sure
    os.utime(tmp_path / 'changed.js', ns=(later, later))
    compress(tmp_path)
    assert gzip.decompress((tmp_path / 'changed.js.gz').read_bytes()) == b'after'
    assert unbrotli((tmp_path / 'changed.js.br').read_bytes()) == b'after'
    assert unbrotli((tmp_path / 'kept.js.br').read_bytes()) == b'kept'
    assert [(tmp_path / name).stat().st_mtime_ns for name in ['kept.js.br', 'kept.js.gz']] == [
        made['kept.js.br'],
        made['kept.js.gz'],
    ]


def test_serve_allows_pages_of_other_sites_to_use_the_files_and_read_their_encoding(served):
    headers, _ = fetch(served[1] + 'embed.js')
    assert headers['Access-Control-Allow-Origin'] == '*'
    assert headers['Cross-Origin-Resource-Policy'] == 'cross-origin'
    assert headers['Access-Control-Expose-Headers'] == 'Content-Encoding'


def raw(url, request):
    port = int(url.rstrip('/').rsplit(':', 1)[1])
    with socket.create_connection(('127.0.0.1', port), timeout=10) as connection:
        connection.sendall(request.encode())
        answer = b''
        while chunk := connection.recv(65536):
            answer += chunk
    head, _, body = answer.partition(b'\r\n\r\n')
    return head.decode('latin-1'), body


def test_serve_takes_a_target_in_absolute_form_as_a_proxy_sends_it(served):
    _, url, _ = served
    port = url.rstrip('/').rsplit(':', 1)[1]
    for target in [f'http://classroom.lan:{port}/build.json?x=1', f'HTTP://classroom.lan:{port}/build.json']:
        head, body = raw(url, f"GET {target} HTTP/1.0\r\nHost: classroom.lan:{port}\r\n\r\n")
        assert head.startswith('HTTP/1.0 200') and json.loads(body) == {'wheels': []}, (target, head)


def test_an_absolute_form_target_never_makes_an_open_redirect(served):
    """The standard library turns a path's leading // into / for that reason (gh-87389); so must this."""
    _, url, _ = served
    head, _ = raw(url, "GET http://classroom.lan//evil.example/pyodide HTTP/1.0\r\nHost: classroom.lan\r\n\r\n")
    location = next(
        (line.split(':', 1)[1].strip() for line in head.split('\r\n') if line.lower().startswith('location:')), ''
    )
    assert not location.startswith('//'), head


# The policies as every earlier build wrote them (checked against build.py at c53ff7f, before the Python side
# was laid out anew): a page's <meta>, the server's header and the service worker's all come from these.
POLICY = (
    "default-src 'none'; script-src 'self' 'wasm-unsafe-eval'; worker-src 'self'; connect-src 'self'; "
    "img-src 'self' data:; style-src 'self' 'unsafe-inline'; base-uri 'self'; form-action 'none'; object-src 'none'"
)


def test_the_policies_are_byte_for_byte_what_they_were():
    assert CONTENT_SECURITY_POLICY == POLICY
    assert NOTEBOOK_POLICY == POLICY.replace("connect-src 'self'", 'connect-src *')


def test_serve_with_a_locale_gives_it_to_every_page_in_a_cookie_and_without_one_clears_an_earlier_one(served):
    folder = served[0]
    server, url = serving(directory=folder, locale='fr')
    try:
        for path in ('index.html', 'pyodide/pyodide.asm.wasm', 'missing.html'):
            try:
                headers = fetch(url + path)[0]
            except urllib.error.HTTPError as error:
                headers = error.headers
            assert headers['Set-Cookie'] == 'backprop-playground-room-locale=fr; Path=/; Max-Age=43200; SameSite=Lax'
    finally:
        stop(server)
    # Another serve on the same address, without --locale: a browser that still sends the cookie loses it
    headers = fetch(served[1] + 'index.html', Cookie='a=1; backprop-playground-room-locale=fr')[0]
    assert headers['Set-Cookie'] == 'backprop-playground-room-locale=; Path=/; Max-Age=0; SameSite=Lax'
    assert 'Set-Cookie' not in fetch(served[1] + 'index.html', Cookie='a=1')[0]
    assert 'Set-Cookie' not in fetch(served[1] + 'index.html')[0]


@pytest.mark.parametrize('given, says', [('FR', 'language: fr,'), ('de', "the site's languages are en, ")])
def test_serve_takes_a_locale_the_site_has_in_any_case_and_refuses_another_by_naming_them(given, says):
    code = (
        "import sys; from backprop_playground import cli, paths; paths.in_checkout = lambda: False; "
        "cli.main(sys.argv[1:])"
    )
    process = subprocess.Popen(
        [sys.executable, '-c', code, 'serve', '--port', '0', '--locale', given],
        stdout=subprocess.PIPE,
        stderr=subprocess.STDOUT,
        text=True,
        env={**os.environ, 'PYTHONPATH': str(ROOT / 'py' / 'backprop-playground')},
    )
    try:
        printed = [process.stdout.readline(), process.stdout.readline()]
        assert any(says in line for line in printed), printed
    finally:
        process.kill()
        process.wait()


def test_a_locale_that_is_not_a_language_tag_never_reaches_a_cookie(served):
    with pytest.raises(ValueError):
        serving(directory=served[0], locale='fr; Domain=example.org')
