"""The build's output (dist/), without a browser: what is in it, what the service worker keeps, and an
incremental build."""
import hashlib
import json
import os
import re
import shutil

import pytest

from backprop_playground import paths
from backprop_playground.build import build
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
