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

import pytest

from backprop_playground import paths
from backprop_playground.build import build, made
from support import ROOT


def test_dist_is_self_contained_with_relative_paths(site):
    # The public URLs (README, "Public URLs") at the root; the modules in the folders that web/ has.
    for name in ['index.html', 'article.html', 'course.html', 'embed.html', 'notebook.html', 'embed.js', 'sw.js', 'teacher.html', 'room.html',
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


def test_ci_runs_the_readme_test_command():
    ci = (ROOT / '.ci' / 'run').read_text()
    command = re.search(r'^# README test command:\n(.+)$', ci, re.M).group(1)
    assert f"\n{command}\n" in (ROOT / 'README.md').read_text()
    assert paths.ROOT == ROOT


def test_the_service_worker_precaches_every_file_with_its_integrity(site):
    sw = (site / 'sw.js').read_text()
    # Not the packed runtime: a page under the service worker has its three files already.
    files = [p for p in site.rglob('*') if p.is_file() and p.suffix not in ('.gz', '.br', '.zst') and p.name != 'sw.js'
             and not p.relative_to(site).as_posix().startswith('docs/')]  # nor the documentation site (read online)
    assert '"url":"pyodide/runtime.zst"' not in sw
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
    rewritten = [path.relative_to(site).as_posix() for path, mtime in before.items()
                 if path.exists() and path.stat().st_mtime_ns != mtime]
    # Nothing else was written again: not the snapshot, and not sw.js, whose manifest is as it was.
    assert sorted(rewritten) == ['hosts/examples.js', 'hosts/examples.js.br', 'hosts/examples.js.gz']


def test_a_step_runs_again_only_when_what_it_read_changed(tmp_path, monkeypatch):
    monkeypatch.setattr(made, 'FOLDER', tmp_path / 'made')
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
    made.forget()
    assert step('--minify', '--debug') == b'main2lib2' and len(runs) == 6, 'build --full forgets every step'


def test_a_make_during_which_a_file_it_read_changed_is_not_kept(tmp_path, monkeypatch):
    monkeypatch.setattr(made, 'FOLDER', tmp_path / 'made')
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


def test_a_build_with_nothing_changed_runs_no_program_and_an_edit_reruns_only_the_steps_that_read_it(site, tmp_path):
    checkout = tmp_path / 'checkout'
    for folder in ['web', 'py']:
        shutil.copytree(ROOT / folder, checkout / folder, ignore=shutil.ignore_patterns('__pycache__'))
    for name in ['build.py', 'package.json', 'package-lock.json']:
        shutil.copy2(ROOT / name, checkout / name)
    (checkout / 'node_modules').symlink_to(ROOT / 'node_modules')
    shutil.copytree(site, checkout / 'dist', ignore=shutil.ignore_patterns('docs'))  # times kept: .br/.gz stay fresh
    # The snapshot and the packed runtime as kept (a Node program takes 15-20 s to make each), but not the
    # steps' records (made.py): the first build below makes them, from another folder than the checkout.
    shutil.copytree(paths.CACHE, checkout / '.cache', ignore=shutil.ignore_patterns(
        'made', '*.partial', '*.lock', 'test-builds', 'ralph-venv', 'pyodide-test-wheels'))

    def build_there():
        done = subprocess.run([sys.executable, checkout / 'build.py'], cwd=tmp_path, capture_output=True, text=True)
        assert done.returncode == 0, done.stdout + done.stderr
        return commands(done.stdout)

    assert len(build_there()) >= 7, 'pip twice, esbuild five times and Workbox: no step was made in this checkout'
    assert build_there() == [], 'nothing changed since the last build'

    editor = checkout / 'web' / 'cell' / 'editor.js'
    editor.write_text(editor.read_text() + '\nexport const edited = 1;\n')
    readme = checkout / 'py' / 'playground-runtime' / 'README.md'
    readme.write_text(readme.read_text() + '\nEdited.\n')
    sw = (checkout / 'dist' / 'sw.js').read_bytes()
    ran = build_there()

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
    assert build_there() == []
