#!/usr/bin/env python3
"""Assemble the static playground in dist/, and optionally serve it or pack it.

    python build.py                   build dist/ (installs the npm packages first if they are missing)
    python build.py --full            the same, from nothing: dist/ and the cached snapshot are made anew
    python build.py serve [--host H] [--port P]   build, then serve dist/ with COOP/COEP, brotli and gzip
    python build.py serve --classroom DIR          the same, and keep the room's results in DIR (classroom.py)
    python build.py zip               build, then write one zip of the site; its path is the last line

Every path in dist/ is relative: copy it to any static host or a USB stick.

A build writes only the files of dist/ whose bytes changed, and deletes what the sources no longer make:
an unchanged file keeps its .br and .gz (brotli at quality 11 takes a minute), and the memory snapshot is
reused from .cache/ while the runtime and the wheels it was made from are the same bytes.
"""
import argparse
import functools
import gzip
import hashlib
import html
import io
import http.server
import json
import os
import shutil
import subprocess
import sys
import zipfile
from pathlib import Path

try:
    import fcntl
except ImportError:  # Windows: builds are not locked against each other
    fcntl = None

import classroom

ROOT = Path(__file__).resolve().parent
DIST = ROOT / 'dist'
CACHE = ROOT / '.cache'
NODE_MODULES = ROOT / 'node_modules'
PYODIDE = NODE_MODULES / 'pyodide'
PYODIDE_FILES = ['pyodide.mjs', 'pyodide.asm.mjs', 'pyodide.asm.wasm']
STDLIB = 'python_stdlib.zip'  # rewritten uncompressed (stored_zip): the server's brotli then shrinks it whole
VIZ = NODE_MODULES / '@viz-js' / 'viz' / 'dist' / 'viz.js'
DOMPURIFY = NODE_MODULES / 'dompurify' / 'dist' / 'purify.es.mjs'  # graph-renderer.js cleans graphs with it
ESBUILD = NODE_MODULES / '.bin' / 'esbuild'
# Sources bundled by esbuild, not copied; each bundle is written beside its source's place in dist/.
EDITOR_SOURCE = 'cell/editor.js'  # with CodeMirror, into cell/editor.bundle.js
PLOT_SOURCE = 'output/plot.js'  # with Observable Plot, into output/plot.bundle.js, loaded with the first chart
MARKDOWN_SOURCE = 'notebook/markdown.js'  # with markdown-it, into notebook/markdown.bundle.js, for notebook.html only
SW_SOURCE = 'offline/sw.js'  # with Workbox, into sw.js at the root (a service worker's scope is its folder)
SW = 'sw.js'
BUNDLED = {EDITOR_SOURCE, PLOT_SOURCE, MARKDOWN_SOURCE, SW_SOURCE}
GRAPHVIZ = 'graphviz==0.21'
PYODIDE_PYTHON = '3.14'
COMPRESSIBLE = {'.html', '.css', '.js', '.mjs', '.json', '.wasm', '.svg', '.py', '.map', '.bin', '.zip'}
SNAPSHOT = 'pyodide/snapshot.bin'  # python-worker.js restores Python from it
# The one Content-Security-Policy: build() writes it into every page as a <meta>, sw.js gets it through
# esbuild's --define and adds it to documents and workers, serve sends it as a header (README.md says why
# each part is there). Workers need the header: a page's <meta> does not reach them.
CONTENT_SECURITY_POLICY = '; '.join([
    "default-src 'none'",
    "script-src 'self' 'wasm-unsafe-eval'",  # Pyodide and viz.js compile WebAssembly
    "worker-src 'self'",
    "connect-src 'self'",
    "img-src 'self' data:",  # the favicon is a data: URL
    "style-src 'self' 'unsafe-inline'",  # CodeMirror and Observable Plot insert <style> elements
    "base-uri 'self'",
    "form-action 'none'",
    "object-src 'none'",
])
# notebook.html alone may fetch from other hosts (`#url=` opens a notebook from any host that sends CORS
# headers). Its workers keep the policy above: a worker's comes from its own response.
NOTEBOOK_PAGE = 'notebook.html'
NOTEBOOK_POLICY = CONTENT_SECURITY_POLICY.replace("connect-src 'self'", "connect-src *")


def policy_for(path):
    """The Content-Security-Policy of the file at `path` (a URL path or a file name)."""
    name = str(path).split('?')[0].rstrip('/').rsplit('/', 1)[-1]
    return NOTEBOOK_POLICY if name == NOTEBOOK_PAGE else CONTENT_SECURITY_POLICY


def csp_meta(policy):
    return f'<meta http-equiv="Content-Security-Policy" content="{html.escape(policy, quote=False)}">'  # a policy has no "


def run(*command, label=None, **kwargs):
    print('$', label or ' '.join(str(c) for c in command))
    subprocess.run([str(c) for c in command], check=True, cwd=ROOT, **kwargs)


def install_npm_packages():
    marker = NODE_MODULES / '.package-lock.json'
    lock = ROOT / 'package-lock.json'
    if marker.exists() and marker.stat().st_mtime >= max(lock.stat().st_mtime, (ROOT / 'package.json').stat().st_mtime):
        return
    if not shutil.which('npm'):
        sys.exit("build.py: npm was not found; install Node.js 18 or newer (it brings npm) and run this again")
    run('npm', 'ci' if lock.exists() else 'install', '--no-audit', '--no-fund')


def download_wheel(requirement):
    """A pure-Python wheel from PyPI for Pyodide's Python, cached in .cache/wheels."""
    folder = CACHE / 'wheels'
    name, version = requirement.split('==')
    pattern = f"{name.replace('-', '_')}-{version}-*.whl"
    found = sorted(folder.glob(pattern))
    if not found:
        run(sys.executable, '-m', 'pip', 'download', '--quiet', '--no-deps', '--only-binary=:all:',
            '--python-version', PYODIDE_PYTHON, '--dest', folder, requirement)
        found = sorted(folder.glob(pattern))
    if not found:
        sys.exit(f"build.py: pip did not leave a wheel for {requirement} in {folder}")
    return found[0]


def build_scalargrad_wheel(into):
    folder = CACHE / 'scalargrad-wheel'
    if folder.exists():
        shutil.rmtree(folder)
    run(sys.executable, '-m', 'pip', 'wheel', '--quiet', '--no-deps', '--wheel-dir', folder, ROOT)
    (wheel,) = folder.glob('scalargrad-*.whl')
    return copy(wheel, into / wheel.name)


written = set()  # the files of dist/ that this build made; build() deletes the others


def put(target, data):
    """`data` as the file `target`, rewritten only if its bytes differ: an unchanged file keeps its
    modification time, and so its .br and .gz. Returns whether it changed."""
    written.add(target)
    if target.is_file() and target.stat().st_size == len(data) and target.read_bytes() == data:
        return False
    target.parent.mkdir(parents=True, exist_ok=True)
    partial = Path(f"{target}.partial")
    partial.write_bytes(data)
    partial.replace(target)
    return True


def copy(source, target):
    if not source.exists():
        sys.exit(f"build.py: missing {source}")
    if put(target, source.read_bytes()):
        print(f"  {source.relative_to(ROOT)} -> {target.relative_to(ROOT)}")
    return target


def copy_page(source, target):
    """An HTML page with the policy's <meta> right after its charset, before anything it could govern."""
    charset = '<meta charset="utf-8">'
    page = source.read_text(encoding='utf-8')
    if page.count(charset) != 1:
        sys.exit(f"build.py: {source} needs exactly one {charset} (the CSP <meta> goes after it)")
    if put(target, page.replace(charset, f"{charset}\n  {csp_meta(policy_for(target.name))}").encode('utf-8')):
        print(f"  {source.relative_to(ROOT)} -> {target.relative_to(ROOT)} (with the CSP <meta>)")


def copy_pyodide():
    for name in PYODIDE_FILES:
        copy(PYODIDE / name, DIST / 'pyodide' / name)
    stored_zip(PYODIDE / STDLIB, DIST / 'pyodide' / STDLIB)
    lock = json.loads((PYODIDE / 'pyodide-lock.json').read_text())
    micropip = lock['packages']['micropip']
    wheel = copy(download_wheel(f"micropip=={micropip['version']}"), DIST / 'pyodide' / micropip['file_name'])
    # The npm package ships no wheels and PyPI's micropip wheel differs from the lock's hash;
    # with a wrong hash loadPackage fails silently, so the lock we ship carries the real one.
    micropip['sha256'] = hashlib.sha256(wheel.read_bytes()).hexdigest()
    put(DIST / 'pyodide' / 'pyodide-lock.json', json.dumps(lock).encode())
    return lock['info']['python'], micropip['file_name']


def stored_zip(source, target):
    """`source`, a zip, rewritten with its files stored, not deflated.

    Pyodide's standard library deflates each module on its own (2.5 MB that no server can shrink). Stored,
    it is 9.7 MB that brotli compresses whole to 1.6 MB and gzip to 2.2 MB (measured on Pyodide 314's zip),
    and imports need not inflate. The snapshot is made from this same file: zipimport keeps its offsets.
    """
    if not source.exists():
        sys.exit(f"build.py: missing {source}")
    data = io.BytesIO()
    with zipfile.ZipFile(source) as deflated, zipfile.ZipFile(data, 'w', zipfile.ZIP_STORED) as stored:
        for entry in deflated.infolist():
            stored.writestr(entry, deflated.read(entry), compress_type=zipfile.ZIP_STORED)
    if put(target, data.getvalue()):
        print(f"  {source.relative_to(ROOT)} -> {target.relative_to(ROOT)} (stored, {target.stat().st_size / 1e6:.1f} MB)")


def bundle_modules():
    for source in [EDITOR_SOURCE, PLOT_SOURCE, MARKDOWN_SOURCE]:
        bundle = Path(source).with_suffix('.bundle.js')
        made = CACHE / 'bundles' / bundle
        run(ESBUILD, ROOT / 'web' / source, '--bundle', '--format=esm', '--minify', '--log-level=warning',
            f"--outfile={made}")
        put(DIST / bundle, made.read_bytes())


def snapshot_key(wheels):
    """What the snapshot is made from: the runtime, the standard library, the wheels' files (not their
    METADATA, which holds README.md) and the script that makes it."""
    digest = hashlib.sha256(SNAPSHOT_SCRIPT.encode())
    for name in [*PYODIDE_FILES, STDLIB, 'pyodide-lock.json']:
        digest.update((DIST / 'pyodide' / name).read_bytes())
    for name in wheels:
        with zipfile.ZipFile(DIST / 'wheels' / name) as wheel:
            for entry in sorted(wheel.namelist()):
                if not entry.endswith(('.dist-info/METADATA', '.dist-info/RECORD')):
                    digest.update(entry.encode() + wheel.read(entry))
    return digest.hexdigest()[:16]


SNAPSHOT_SCRIPT = """
import { readFileSync, writeFileSync } from 'node:fs';
import { pathToFileURL } from 'node:url';
const [dist, snapshot, ...wheels] = process.argv.slice(1);
const { loadPyodide } = await import(pathToFileURL(`${dist}/pyodide/pyodide.mjs`).href);
const pyodide = await loadPyodide({ indexURL: `${dist}/pyodide/`, _makeSnapshot: true });
for (const name of wheels) pyodide.FS.writeFile(`/tmp/${name}`, readFileSync(`${dist}/wheels/${name}`));
// A snapshot may hold no JS objects, so the wheels are unpacked from Python, not with loadPackage.
pyodide.runPython(`
import os, sys, sysconfig, zipfile
for name in ${JSON.stringify(wheels)}:
    with zipfile.ZipFile('/tmp/' + name) as wheel:
        wheel.extractall(sysconfig.get_path('purelib'))
    os.remove('/tmp/' + name)
import scalargrad.playground
sys.path.remove('')  # loadPyodide puts it back on restore
os.environ.pop('_', None)  # this script's path on the build machine
`);
writeFileSync(`${dist}/${snapshot}`, pyodide.makeMemorySnapshot());
"""


def make_snapshot(wheels):
    """A Pyodide memory snapshot of Python with the wheels unpacked and scalargrad.playground imported.

    The worker restores it in under a second instead of booting Python (3 s or more). Pyodide's snapshot
    options are private: they fit only the exact runtime that made them, so a new one is made whenever the
    runtime or a wheel changes (snapshot_key), under Node with the runtime it ships, and the worker falls back to a plain boot if restoring fails.
    A snapshot holds memory, not files: the worker still unpacks the wheels after restoring it.
    """
    key = snapshot_key(wheels)
    cached = CACHE / 'snapshot' / f"{key}.bin"
    if not cached.is_file():
        run('node', '--input-type=module', '-e', SNAPSHOT_SCRIPT, DIST, SNAPSHOT, *wheels, label='node: Pyodide memory snapshot')
        cached.parent.mkdir(parents=True, exist_ok=True)
        for old in cached.parent.glob('*.bin'):
            old.unlink()
        shutil.copyfile(DIST / SNAPSHOT, cached)
    else:
        print(f"  {SNAPSHOT}: the runtime and the wheels are unchanged, so the snapshot is {cached.relative_to(ROOT)}")
    put(DIST / SNAPSHOT, cached.read_bytes())
    print(f"  {SNAPSHOT}: {(DIST / SNAPSHOT).stat().st_size / 1e6:.1f} MB")


def bundle_service_worker(dist=None):
    """sw.js with the manifest of everything in `dist` (run it again after changing a built file)."""
    dist = dist or DIST
    made = CACHE / 'bundles' / SW
    run(ESBUILD, ROOT / 'web' / SW_SOURCE, '--bundle', '--format=iife', '--minify', '--log-level=warning',
        '--define:process.env.NODE_ENV="production"', f"--define:CONTENT_SECURITY_POLICY={json.dumps(CONTENT_SECURITY_POLICY)}",
        f"--define:NOTEBOOK_CONTENT_SECURITY_POLICY={json.dumps(NOTEBOOK_POLICY)}",
        f"--outfile={made}")
    # workbox-build writes the manifest: every file of the build with a revision, plus the SHA-384
    # integrity that sw.js checks before it serves a cached copy.
    script = """
import { injectManifest } from 'workbox-build';
import { createHash } from 'node:crypto';
import { readFileSync } from 'node:fs';
const [dist, sw] = process.argv.slice(1);
const integrity = (entries) => ({ manifest: entries.map((entry) => ({ ...entry,
  integrity: 'sha384-' + createHash('sha384').update(readFileSync(`${dist}/${entry.url}`)).digest('base64') })) });
const { count, size, warnings } = await injectManifest({ swSrc: sw, swDest: sw, globDirectory: dist,
  globPatterns: ['**/*'], globIgnores: ['**/*.gz', '**/*.br', '**/*.partial', 'sw.js'], maximumFileSizeToCacheInBytes: 64 * 2 ** 20,
  manifestTransforms: [integrity] });
for (const warning of warnings) console.error(warning);
console.log(`  precache manifest: ${count} files, ${(size / 1e6).toFixed(1)} MB`);
"""
    run('node', '--input-type=module', '-e', script, dist, made, label='node: workbox-build injectManifest')
    put(dist / SW, made.read_bytes())


# Node's zlib has brotli; Python's standard library has not. Each .br is written beside its file, then renamed.
BROTLI_SCRIPT = """
import { readFileSync, renameSync, writeFileSync } from 'node:fs';
import { brotliCompressSync, constants } from 'node:zlib';
for (const path of process.argv.slice(1)) {
  const data = readFileSync(path);
  writeFileSync(`${path}.br.partial`, brotliCompressSync(data, { params: {
    [constants.BROTLI_PARAM_QUALITY]: 11, [constants.BROTLI_PARAM_LGWIN]: 24,
    [constants.BROTLI_PARAM_SIZE_HINT]: data.length } }));
  renameSync(`${path}.br.partial`, `${path}.br`);
}
"""


def compress(dist=None):
    """Write a .gz and a .br beside each text or wasm file, for serve and for hosts that can send them.

    Only where one is missing or older than its file: a copied build keeps its compressed files, and a
    file rewritten since the last build gets new ones.
    """
    dist = dist or DIST
    sources = [path for path in sorted(dist.rglob('*')) if path.suffix in COMPRESSIBLE and path.is_file()]

    def stale(path, suffix):
        compressed = Path(f"{path}{suffix}")
        return not compressed.is_file() or compressed.stat().st_mtime_ns < path.stat().st_mtime_ns

    brotli = [path for path in sources if stale(path, '.br')]
    # Brotli at quality 11 takes about a minute for the snapshot alone: Node compresses in one process per
    # core (the largest files spread over them) while Python writes the .gz files.
    processes = [subprocess.Popen(['node', '--input-type=module', '-e', BROTLI_SCRIPT, *map(str, group)], cwd=ROOT)
                 for group in spread(brotli, os.cpu_count() or 1) if group]
    if processes:
        print(f"$ node: brotli for {len(brotli)} files in {len(processes)} processes")
    try:
        for path in sources:
            if stale(path, '.gz'):
                # Written beside it, then renamed: serve never sends a half-written .gz.
                partial = Path(f"{path}.gz.partial")
                partial.write_bytes(gzip.compress(path.read_bytes(), compresslevel=9, mtime=0))
                partial.replace(f"{path}.gz")
        failed = [process.wait() for process in processes]
    finally:
        for process in processes:  # none is left writing into dist/ after an error here
            process.kill()
            process.wait()
        for partial in dist.rglob('*.partial'):
            partial.unlink()
    if any(failed):
        sys.exit("build.py: node could not write the .br files (see above)")


def spread(paths, count):
    """`paths` in `count` groups of about equal bytes, the largest first."""
    groups = [[] for _ in range(count)]
    sizes = [0] * count
    for path in sorted(paths, key=lambda p: p.stat().st_size, reverse=True):
        smallest = sizes.index(min(sizes))
        groups[smallest].append(path)
        sizes[smallest] += path.stat().st_size
    return groups


def build(full=False):
    # One build at a time in this checkout (pytest-xdist's workers each ask for one): the second finds the
    # first's work done and writes nothing.
    CACHE.mkdir(exist_ok=True)
    with open(CACHE / 'build.lock', 'w') as lock:
        if fcntl:
            fcntl.flock(lock, fcntl.LOCK_EX)
        build_unlocked(full)


def build_unlocked(full):
    install_npm_packages()
    if full:
        for folder in [DIST, CACHE / 'snapshot']:
            if folder.exists():
                shutil.rmtree(folder)
    written.clear()
    DIST.mkdir(exist_ok=True)
    for source in sorted((ROOT / 'web').rglob('*')):
        path = source.relative_to(ROOT / 'web')
        if source.is_file() and source.suffix == '.html':
            copy_page(source, DIST / path)
        elif source.is_file() and path.as_posix() not in BUNDLED:
            copy(source, DIST / path)
    python_version, micropip = copy_pyodide()
    copy(VIZ, DIST / 'vendor' / 'viz.js')
    copy(DOMPURIFY, DIST / 'vendor' / 'purify.es.mjs')
    graphviz = download_wheel(GRAPHVIZ)
    wheels = [copy(graphviz, DIST / 'wheels' / graphviz.name).name, build_scalargrad_wheel(DIST / 'wheels').name]
    make_snapshot(wheels)
    bundle_modules()
    info = {'python': python_version, 'micropip': micropip, 'wheels': wheels, 'snapshot': SNAPSHOT}
    put(DIST / 'build.json', json.dumps(info, indent=2).encode())
    delete_unmade(DIST)
    bundle_service_worker()
    compress()
    size = sum(p.stat().st_size for p in DIST.rglob('*') if p.suffix not in ('.gz', '.br'))
    print(f"built {DIST.relative_to(ROOT)}/: {size / 1e6:.1f} MB, Python {python_version}, wheels {', '.join(wheels)}")


def delete_unmade(dist):
    """Files that this build did not make (a source deleted or renamed since), with their .br and .gz."""
    for path in sorted(dist.rglob('*'), reverse=True):
        base = path.with_suffix('') if path.suffix in ('.br', '.gz') else path
        if path.is_file() and base not in written and base != dist / SW:
            path.unlink()
            print(f"  deleted {path.relative_to(ROOT)}")
        elif path.is_dir() and not any(path.iterdir()):
            path.rmdir()


def pack():
    """One zip of the built site, in a folder of its own: for a USB stick or a classroom server."""
    target = ROOT / 'backprop-playground.zip'
    with zipfile.ZipFile(target, 'w', zipfile.ZIP_DEFLATED) as archive:
        for path in sorted(DIST.rglob('*')):
            if path.is_file():
                archive.write(path, Path(target.stem) / path.relative_to(DIST))
    print(f"packed {DIST.relative_to(ROOT)}/ into {target.name}: {target.stat().st_size / 1e6:.1f} MB")
    return target


ENCODINGS = [('br', '.br'), ('gzip', '.gz')]  # the first that a browser takes is sent


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


class Handler(http.server.SimpleHTTPRequestHandler):
    """Static files with cross-origin isolation (so Stop can interrupt Python), the CSP header, brotli and gzip.

    Every file may also be used by pages of other sites (embed.js on a blog), as GitHub Pages allows.
    isolated=False sends neither isolation nor the CSP, like a host that sets no headers: there the
    pages' <meta> and the service worker bring the policy.
    """

    isolated = True
    encodings = ENCODINGS  # bench/first_visit.py serves without brotli beside it
    classroom = None  # a classroom.Classroom: its API answers under /classroom/

    def do_GET(self):
        if self.classroom is None or not classroom.handle(self, self.classroom):
            super().do_GET()

    def do_POST(self):
        if self.classroom is None or not classroom.handle(self, self.classroom):
            self.send_error(501, 'Unsupported method (POST)')

    def end_headers(self):
        self.send_header('Access-Control-Allow-Origin', '*')
        self.send_header('Cross-Origin-Resource-Policy', 'cross-origin')
        if self.isolated:
            self.send_header('Cross-Origin-Opener-Policy', 'same-origin')
            self.send_header('Cross-Origin-Embedder-Policy', 'require-corp')
            # On every file: browsers apply it to documents and workers (python-worker.js, render-worker.js, sw.js).
            self.send_header('Content-Security-Policy', policy_for(self.path))
        self.send_header('Cache-Control', 'no-cache')
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
        unchanged = (self.headers.get('If-None-Match') == etag if 'If-None-Match' in self.headers
                     else self.headers.get('If-Modified-Since') == modified)
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
        self.end_headers()
        return served.open('rb')

    def log_message(self, format, *args):
        pass


class Server(http.server.ThreadingHTTPServer):
    # A room's 60 learners connect at once: the default backlog of 5 had the kernel reset connections.
    request_queue_size = 256


def make_server(host='127.0.0.1', port=8000, isolated=True, directory=DIST, room=None):
    handler = type('SiteHandler', (Handler,), {'isolated': isolated, 'classroom': room})
    return Server((host, port), functools.partial(handler, directory=str(directory)))


def main():
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument('command', nargs='?', choices=['build', 'serve', 'zip'], default='build')
    parser.add_argument('--host', default='127.0.0.1', help='0.0.0.0 to serve a classroom network')
    parser.add_argument('--port', type=int, default=8000)
    parser.add_argument('--full', action='store_true', help='build dist/ and the snapshot from nothing')
    parser.add_argument('--classroom', metavar='DIR', type=Path,
                        help="keep the learners' results in DIR/classroom.sqlite and serve the teacher's board")
    args = parser.parse_args()
    build(full=args.full)
    if args.command == 'zip':
        print(pack())
    elif args.command == 'serve':
        room = classroom.Classroom(args.classroom) if args.classroom else None
        server = make_server(args.host, args.port, room=room)
        host = {'127.0.0.1': 'localhost', '0.0.0.0': classroom.lan_address()}.get(args.host, args.host)
        print(f"serving the playground at http://{host}:{args.port}/ (Ctrl+C to stop)", flush=True)
        if room:
            print(f"classroom: learners open http://{host}:{args.port}/course.html; the record is {room.path}")
            print(f"teacher: http://{host}:{args.port}/teacher.html#token={room.token}", flush=True)
        try:
            server.serve_forever()
        except KeyboardInterrupt:
            pass


if __name__ == '__main__':
    main()
