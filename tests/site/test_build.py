"""The build's output (dist/), without a browser: what is in it, what the service worker keeps, and an
incremental build."""

import hashlib
import json
import os
import re
import shutil
import subprocess
import sys
import zipfile
from pathlib import Path

import pytest

from backprop_playground import paths
from backprop_playground.steps import build, compress, kept, made, packed, pyodide, snapshot, wheels
from backprop_playground.steps.output import Output
from support import ROOT, files_of


def test_dist_is_self_contained_with_relative_paths(site):
    # The public URLs (README, "Public URLs") at the root; the modules in the folders that web/ has.
    for name in [
        'index.html',
        'article.html',
        'course.html',
        'embed.html',
        'notebook.html',
        'embed.js',
        'sw.js',
        'teacher.html',
        'room.html',
        'hosts/main.js',
        'session/python-worker.js',
        'cell/editor.bundle.js',
        'output/plot.bundle.js',
        'notebook/markdown.bundle.js',
        'vendor/viz.js',
        'build.json',
        'pyodide/pyodide.mjs',
        'pyodide/pyodide.asm.wasm',
        'pyodide/python_stdlib.zip',
    ]:
        assert (site / name).is_file(), name
    html = (site / 'index.html').read_text()
    assert not re.search(r'(src|href)="(/|https?:)', html)
    info = json.loads((site / 'build.json').read_text())
    assert info['python'].startswith('3.14')
    for wheel in info['wheels']:
        assert (site / 'wheels' / wheel).is_file()


# A static import or re-export, minified or not: `import … from "x"`, `import "x"`, `export … from "x"`.
STATIC_IMPORT = re.compile(
    r'''(?:^|[;}\s])(?:import\s*(?:[\w*{$][^;()"']*?\bfrom\s*)?|export\s*[\w*{$][^;()"']*?\bfrom\s*)["']([^"']+)["']''',
    re.M,
)


def test_the_python_worker_is_one_file_that_imports_nothing_of_the_site(site):
    # Each level of a module worker's static imports is a round trip before Python's downloads can start.
    worker = (site / 'session' / 'python-worker.js').read_text()
    assert STATIC_IMPORT.findall(worker) == []
    assert 'Please pass the indexURL explicitly to loadPyodide' in worker  # Pyodide's loader, inside it


PAGE_SCRIPTS = {
    'index.html': ['hosts/playground-page.bundle.js'],
    'notebook.html': ['hosts/notebook-page.bundle.js'],
    'embed.html': ['hosts/embed-page.bundle.js'],
    'room.html': ['hosts/room-page.bundle.js'],
    'teacher.html': ['hosts/teacher-board.bundle.js'],
    'article.html': ['embed.js'],
    'course.html': ['hosts/course-page.bundle.js'],
}


def test_each_page_and_article_loads_its_modules_in_one_file(site):
    # Each level of a page's static imports is a round trip before it shows (on a CDN, or a host far away): an
    # article's were seven levels, notebook.html's about as many. DOMPurify stays a file of its own.
    for page, scripts in PAGE_SCRIPTS.items():
        assert re.findall(r'<script type="module" src="([^"]+)"', (site / page).read_text()) == scripts, page
    assert STATIC_IMPORT.findall((site / 'embed.js').read_text()) == ['./hosts/article-cells.bundle.js']
    bundles = {script for scripts in PAGE_SCRIPTS.values() for script in scripts if script.endswith('.bundle.js')}
    for bundle in bundles | {'hosts/article-cells.bundle.js'}:
        assert set(STATIC_IMPORT.findall((site / bundle).read_text())) <= {'../vendor/purify.es.mjs'}, bundle
    assert STATIC_IMPORT.findall(
        'a;import{x as y}from"../a.js";import"./b.js";export{z}from"./c.js";import("./d.js")'
    ) == [
        '../a.js',
        './b.js',
        './c.js',
    ]


PAGE = snapshot.PAGE
RUNS_OF_ZEROS = {
    'nothing': (b'', []),
    'no zeros': (b'x' * 10, [[0, 10]]),
    'zeros only': (bytes(PAGE * 100), []),
    'a run too short to leave out': (b'x' + bytes(PAGE * 64 - 1) + b'y', [[0, PAGE * 64 + 1]]),
    'a run left out': (b'x' * PAGE + bytes(PAGE * 64) + b'y' * 5, [[0, PAGE], [PAGE * 65, 5]]),
    'zeros at the start': (bytes(PAGE * 70) + b'x', [[PAGE * 70, 1]]),
    'zeros at the end, the last page short': (b'x' * PAGE + bytes(PAGE * 70 + 100), [[0, PAGE]]),
    'a short last page of data': (b'x' * PAGE + bytes(PAGE * 70) + b'z' * 100, [[0, PAGE], [PAGE * 71, 100]]),
}


@pytest.mark.parametrize('case', RUNS_OF_ZEROS)
def test_the_snapshots_pieces_leave_out_long_runs_of_zeros_and_nothing_else(case):
    data, expected = RUNS_OF_ZEROS[case]
    assert snapshot.extents(data) == expected
    whole = bytearray(len(data))
    for offset, length in expected:
        whole[offset : offset + length] = data[offset : offset + length]
    assert whole == data


@pytest.mark.parametrize(
    'entry, data, refused',
    [
        ('../escape.py', b'x = 1\n', 'outside site-packages'),
        ('/etc/escape.py', b'x = 1\n', 'outside site-packages'),
        ('pkg/data.bin', b'\xff\xfe\x00', 'not UTF-8 text'),
    ],
)
def test_site_packages_json_refuses_a_wheel_file_it_cannot_hold(tmp_path, entry, data, refused):
    (tmp_path / 'wheels').mkdir()
    with zipfile.ZipFile(tmp_path / 'wheels' / 'pkg-1.0-py3-none-any.whl', 'w') as wheel:
        wheel.writestr('pkg/__init__.py', '')
        wheel.writestr(entry, data)
    with pytest.raises(SystemExit, match=refused):
        wheels.write_site_packages(Output(tmp_path), ['pkg-1.0-py3-none-any.whl'], '3.14.2')
    assert not (tmp_path / wheels.SITE_PACKAGES).exists()


def test_site_packages_json_holds_every_file_of_the_wheels_as_they_are(site):
    info = json.loads((site / 'build.json').read_text())
    files = json.loads((site / info['sitePackages']['files']).read_text())
    unpacked = {}
    for name in info['wheels']:
        with zipfile.ZipFile(site / 'wheels' / name) as wheel:
            unpacked |= {entry: wheel.read(entry) for entry in wheel.namelist() if not entry.endswith('/')}
    assert len(unpacked) > 50
    assert {path: text.encode() for path, text in files.items()} == unpacked


def test_shipped_lock_has_the_real_hash_of_the_micropip_wheel(site):
    lock = json.loads((site / 'pyodide' / 'pyodide-lock.json').read_text())
    micropip = lock['packages']['micropip']
    wheel = site / 'pyodide' / micropip['file_name']
    assert hashlib.sha256(wheel.read_bytes()).hexdigest() == micropip['sha256']


def test_ci_runs_the_readme_test_command():
    ci = (ROOT / '.ci' / 'run').read_text()
    command = re.search(r'^# README test command:\n(.+)$', ci, re.M).group(1)
    assert f"\n{command}\n" in (ROOT / 'README.md').read_text()
    assert paths.ROOT == ROOT


def test_the_service_worker_precaches_every_file_with_its_integrity(site):
    sw = (site / 'sw.js').read_text()
    # Not the packed runtime: a page under the service worker has its three files already; nor the wheels,
    # which no page fetches (their files come in wheels/site-packages.json).
    files = [
        p
        for p in site.rglob('*')
        if p.is_file()
        and p.suffix not in ('.gz', '.br', '.zst')
        and not p.relative_to(site).match('wheels/*.whl')
        and p.name != 'sw.js'
        and not p.relative_to(site).as_posix().startswith('docs/')
    ]  # nor the documentation site (read online)
    assert '"url":"pyodide/runtime.zst"' not in sw
    assert re.findall(r'"url":"(wheels/[^"]*)"', sw) == ['wheels/site-packages.json']
    assert 'self.__WB_MANIFEST' not in sw
    for path in files:
        assert f'"url":"{path.relative_to(site).as_posix()}"' in sw, path
    assert sw.count('"integrity":"sha384-') == len(files)


@pytest.fixture
def site_copy(site):
    """A copy of dist/ (times kept) that a build builds into: the servers of other tests, perhaps in another
    pytest-xdist worker, keep sending dist/ as it is."""
    copied = paths.CACHE / 'test-builds' / f"dist-{os.getpid()}"
    shutil.rmtree(copied, ignore_errors=True)
    shutil.copytree(site, copied)
    yield copied
    shutil.rmtree(copied)


def test_a_second_build_rewrites_only_what_changed_and_deletes_what_no_source_makes(site_copy):
    site = site_copy
    stray, edited = site / 'hosts' / 'gone.js', site / 'hosts' / 'examples.js'
    stray.write_text('// a module whose source was deleted')
    edited.write_text('// stale bytes from an older build')
    before = {path: path.stat().st_mtime_ns for path in site.rglob('*') if path.is_file()}
    stray.with_name('gone.js.br').write_bytes(b'old')

    build(dist=site)

    assert not stray.exists() and not stray.with_name('gone.js.br').exists()
    assert edited.read_bytes() == (ROOT / 'web' / 'hosts' / 'examples.js').read_bytes()
    assert os.path.getmtime(f"{edited}.br") >= os.path.getmtime(edited), 'its brotli copy was made again'
    rewritten = [
        path.relative_to(site).as_posix()
        for path, mtime in before.items()
        if path.exists() and path.stat().st_mtime_ns != mtime
    ]
    # Nothing else was written again: not the snapshot, and not sw.js, whose manifest is as it was.
    assert sorted(rewritten) == ['hosts/examples.js', 'hosts/examples.js.br', 'hosts/examples.js.gz']


def test_a_step_runs_again_only_when_what_it_read_changed(tmp_path, monkeypatch):
    monkeypatch.setenv('BACKPROP_PLAYGROUND_CACHE', str(tmp_path / 'cache'))
    source, imported = tmp_path / 'main.js', tmp_path / 'lib.js'
    source.write_text('main')
    imported.write_text('lib')
    runs = []

    def make(target):
        runs.append(target)
        target.write_text(source.read_text() + imported.read_text())
        return [imported]  # what the program said it read, as esbuild's metafile does

    def step(*options):
        return made.made('bundle', [source, *options], make)

    assert step('--minify') == step('--minify') == b'mainlib' and len(runs) == 1
    imported.write_text('lib2')
    assert step('--minify') == b'mainlib2' and len(runs) == 2
    assert step('--minify', '--debug') == b'mainlib2' and len(runs) == 3, 'an option is an input too'
    source.write_text('main2')
    assert step('--minify', '--debug') == b'main2lib2' and len(runs) == 4
    imported.unlink()
    with pytest.raises(FileNotFoundError):
        step('--minify', '--debug')
    assert len(runs) == 5, 'a file it read is gone: it runs again (and here fails)'
    imported.write_text('lib2')
    assert step('--minify', '--debug') == b'main2lib2' and len(runs) == 5, 'the last make is still kept'
    imported.write_text('lib')
    source.write_text('main')
    assert step('--minify') == b'mainlib' and len(runs) == 5, 'and so are the makes before it'
    source.write_text('main2')
    imported.write_text('lib2')
    kept.forget()
    assert step('--minify', '--debug') == b'main2lib2' and len(runs) == 6, 'build --full forgets every step'


def test_a_make_during_which_a_file_it_read_changed_is_not_kept(tmp_path, monkeypatch):
    monkeypatch.setenv('BACKPROP_PLAYGROUND_CACHE', str(tmp_path / 'cache'))
    given, imported = tmp_path / 'main.js', tmp_path / 'lib.js'
    given.write_text('main')
    imported.write_text('lib')
    runs = []

    def make(target):
        runs.append(target)
        target.write_text(given.read_text() + imported.read_text())
        if len(runs) == 1:
            given.write_text('main, saved by an editor while the program ran')
        if len(runs) == 2:
            imported.write_text('lib, saved while the program ran')
        return [imported]

    assert made.made('bundle', [given], make) == b'mainlib'
    assert made.made('bundle', [given], make) == b'main, saved by an editor while the program ranlib'
    assert len(runs) == 2, 'a given file changed during the first make'
    made.made('bundle', [given], make)
    assert len(runs) == 3, 'a file it read was modified during the second'
    assert made.made('bundle', [given], make).endswith(b'lib, saved while the program ran')
    assert len(runs) == 3, 'the third make is kept'


def commands(output):
    """The programs a build ran: tools.run() prints each command as `$ ...` before running it."""
    return [line.removeprefix('$ ') for line in output.splitlines() if line.startswith('$ ')]


def test_a_build_with_nothing_changed_runs_no_program_and_an_edit_reruns_only_the_steps_that_read_it(
    site, tmp_path, monkeypatch
):
    """Two checkouts on one machine share its build cache: here a folder of the test's own
    ($BACKPROP_PLAYGROUND_CACHE), so that the first build below makes every step."""
    machine = tmp_path / 'machine'

    def checkout_at(folder):
        for part in ['web', 'py', 'locales']:
            shutil.copytree(ROOT / part, folder / part, ignore=shutil.ignore_patterns('__pycache__'))
        for name in ['build.py', 'package.json', 'package-lock.json']:
            shutil.copy2(ROOT / name, folder / name)
        (folder / 'node_modules').symlink_to(ROOT / 'node_modules')
        return folder

    checkout = checkout_at(tmp_path / 'checkout')
    shutil.copytree(site, checkout / 'dist', ignore=shutil.ignore_patterns('docs'))  # times kept: .br/.gz stay fresh
    # The snapshot and the packed runtime as this machine's builds keep them (a Node program takes 15-30 s to make
    # each) and PyPI's wheels (the network is not the tests'), but none of the steps' makes (made.py): the first
    # build below makes them, in another folder.
    for kind in [snapshot.KIND, packed.KIND, pyodide.KIND]:
        shutil.copytree(
            paths.build_cache() / kind, machine / 'build' / kind, ignore=shutil.ignore_patterns('*.partial')
        )

    def build_there(folder):
        done = subprocess.run(
            [sys.executable, folder / 'build.py'],
            cwd=tmp_path,
            capture_output=True,
            text=True,
            env={**os.environ, 'BACKPROP_PLAYGROUND_CACHE': str(machine)},
        )
        assert done.returncode == 0, done.stdout + done.stderr
        return commands(done.stdout)

    assert len(build_there(checkout)) >= 7, 'pip twice, esbuild six times and Workbox: no step was made in this cache'
    assert build_there(checkout) == [], 'nothing changed since the last build'

    # A fresh clone on the same machine runs no program: every step's output, the .br files included, is kept.
    monkeypatch.setenv('BACKPROP_PLAYGROUND_CACHE', str(machine))
    for path in (checkout / 'dist').rglob('*'):
        if Path(f"{path}.br").is_file():  # brotli did not run above: dist/ came with its .br files
            kept.keep(compress.KIND, compress.brotli_key(path), Path(f"{path}.br").read_bytes(), compress.MOST)
    clone = checkout_at(tmp_path / 'clone')
    assert build_there(clone) == []
    assert files_of(clone / 'dist') == files_of(checkout / 'dist')

    editor = checkout / 'web' / 'cell' / 'editor.js'
    editor.write_text(editor.read_text() + '\nexport const edited = 1;\n')
    readme = checkout / 'py' / 'playground-runtime' / 'README.md'
    readme.write_text(readme.read_text() + '\nEdited.\n')
    sw = (checkout / 'dist' / 'sw.js').read_bytes()
    ran = build_there(checkout)

    assert len(ran) == 4, ran
    assert 'pip wheel' in ran[0] and 'playground-runtime' in ran[0], 'the one wheel made from that folder'
    assert 'esbuild' in ran[1] and 'cell/editor.js' in ran[1], 'the one bundle that reads editor.js'
    assert 'workbox' in ran[2], "dist/ changed, so sw.js's manifest is written again"
    assert 'brotli' in ran[3]
    assert b'edited' in (checkout / 'dist' / 'cell' / 'editor.bundle.js').read_bytes()
    (wheel,) = (checkout / 'dist' / 'wheels').glob('playground_runtime-*.whl')
    with zipfile.ZipFile(wheel) as made_wheel:
        (metadata,) = [name for name in made_wheel.namelist() if name.endswith('.dist-info/METADATA')]
        assert 'Edited.' in made_wheel.read(metadata).decode()
    assert (checkout / 'dist' / 'sw.js').read_bytes() != sw
    assert build_there(checkout) == []


def test_a_kept_brotli_file_is_found_by_the_bytes_the_program_and_nodes_version(tmp_path, monkeypatch):
    monkeypatch.setenv('BACKPROP_PLAYGROUND_CACHE', str(tmp_path / 'cache'))
    source = tmp_path / 'a.js'
    source.write_text('let a = 1;\n' * 100)
    compress.compress(tmp_path)
    made_first = Path(f"{source}.br").read_bytes()
    Path(f"{source}.br").unlink()
    monkeypatch.setattr(compress.subprocess, 'Popen', None)  # brotli must not run: the cache has it
    compress.compress(tmp_path)
    assert Path(f"{source}.br").read_bytes() == made_first
    monkeypatch.undo()
    monkeypatch.setenv('BACKPROP_PLAYGROUND_CACHE', str(tmp_path / 'cache'))
    source.write_text('let a = 2;\n' * 100)
    assert not compress.from_cache(source, compress.brotli_key(source)), 'other bytes'
    source.write_text('let a = 1;\n' * 100)
    assert compress.from_cache(source, compress.brotli_key(source))
    monkeypatch.setattr(compress, 'node_version', lambda: 'v99.0.0\n')
    assert not compress.from_cache(source, compress.brotli_key(source)), "another Node's brotli"
    kept.forget()
    monkeypatch.undo()
    assert not (tmp_path / 'cache' / 'build').exists()
