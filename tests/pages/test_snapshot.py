"""Python starts from the build's memory snapshot (backprop_playground/steps/snapshot.py), and boots as usual without it."""

import json
import os
import shutil

import pytest
from playwright.sync_api import expect

from backprop_playground.steps.snapshot import SNAPSHOT
from support.pages import open_playground, run, type_program
from support.servers import serving, stop

pytestmark = pytest.mark.usefixtures('site')

START = "performance.getEntriesByName('python-ready')[0].detail.start"

# random's draw shows the seed; getsource and graphviz (not imported in the snapshot) need the wheels' files,
# which the worker writes where build.json says (sitePackages): every file that each wheel's RECORD lists, with
# the bytes its sha256 says (importlib.metadata.files() leaves out a file that is not there).
PROBE = '''import random, inspect, graphviz, scalargrad.engine, sysconfig, importlib.metadata, os, csv, hashlib, base64
print(random.random())
print(inspect.getsource(scalargrad.engine.Value.backward).split('(')[0].strip())
print(graphviz.Digraph().source.split()[0])
print(os.path.samefile(sysconfig.get_path('purelib'), FOLDER))
records = [importlib.metadata.distribution(name).read_text('RECORD') for name in ('graphviz', 'scalargrad', 'playground-runtime')]
rows = [row for record in records for row in csv.reader(record.splitlines())]
read = lambda path: open(os.path.join(FOLDER, path), 'rb').read() if os.path.isfile(os.path.join(FOLDER, path)) else None
sha256 = lambda data: 'sha256=' + base64.urlsafe_b64encode(hashlib.sha256(data).digest()).rstrip(b'=').decode()
print(len(rows), [path for path, digest, *_ in rows if read(path) is None or (digest and sha256(read(path)) != digest)])
'''


def test_python_starts_from_the_snapshot_with_its_files_and_a_new_random_state(page, site, site_url):
    draws = []
    for _ in range(2):
        open_playground(page, site_url)
        assert page.evaluate(START) == 'snapshot'
        folder = json.loads((site / 'build.json').read_text())['sitePackages']['folder']
        type_program(page, PROBE.replace('FOLDER', repr(folder)))
        draw, source, graphviz, same_folder, files = run(page).locator('pre.stdout').inner_text().splitlines()
        assert (source, graphviz) == ('def backward', 'digraph')
        assert same_folder == 'True'
        count, missing = files.split(' ', 1)
        assert int(count) > 50 and missing == '[]', files
        draws.append(draw)
    assert draws[0] != draws[1], 'two visits drew the same numbers: random kept the snapshot\'s state'


# What a host may send for each piece of the snapshot that does not restore. The bytes come from a server (as
# from a host whose copy is broken), not through a Playwright route: a routed context keeps no HTTP cache, and
# a route sends its body through the driver (about 9 s of processor time for 31 MB here, before the runs of zeros were left out).
BROKEN = {
    'missing': None,  # a 404
    'not a snapshot': lambda data: b'not a snapshot\n' * 1000,
    'cut short': lambda data: data[: len(data) // 2],
    # every byte there, in the wrong order: the pieces add up, and Pyodide refuses to restore them
    'scrambled': lambda data: data[::-1],
}


def site_whose_snapshot_is(answer, site, folder):
    """A copy of the site (links to its files) whose snapshot pieces are as BROKEN[answer] makes them, with no
    compressed copies of them (the server would send those)."""
    shutil.copytree(site, folder, copy_function=os.symlink)
    pieces = json.loads((site / 'build.json').read_text())['snapshot']['files']
    assert pieces and all(piece.startswith(SNAPSHOT.removesuffix('.bin')) for piece in pieces)
    for piece in pieces:
        for copy in folder.glob(piece + '*'):
            copy.unlink()
        if BROKEN[answer]:
            (folder / piece).write_bytes(BROKEN[answer]((site / piece).read_bytes()))
    return folder


def site_with_snapshot(site, folder, pieces, extents):
    """A copy of the site (links to its files) whose build.json names `pieces` ({path: bytes}, written beside it)
    and `extents` as the snapshot's, with no compressed copies of them."""
    shutil.copytree(site, folder, copy_function=os.symlink)
    info = json.loads((site / 'build.json').read_text())
    for path in [
        *folder.glob('build.json*'),
        *(c for piece in info['snapshot']['files'] for c in folder.glob(piece + '*')),
    ]:
        path.unlink()
    for path, data in pieces.items():
        (folder / path).write_bytes(data)
    info['snapshot'] |= {'files': list(pieces), 'extents': extents}
    (folder / 'build.json').write_text(json.dumps(info))
    return folder


def starts_from(page, folder):
    """How Python started on the page served from `folder` ('snapshot' or 'boot'), once it ran a program."""
    server, url = serving(isolated=True, directory=folder)
    try:
        open_playground(page, url)
        type_program(page, 'print(Value(2.0) * 3)\n')
        expect(run(page).locator('pre.stdout')).to_have_text('Value(data=6.0, grad=0.0)\n')
        return page.evaluate(START)
    finally:
        stop(server)


def held_and_extents(site):
    snapshot = json.loads((site / 'build.json').read_text())['snapshot']
    return b''.join((site / piece).read_bytes() for piece in snapshot['files']), snapshot['extents'], snapshot['size']


def test_the_snapshot_restores_from_pieces_cut_anywhere(page, site, tmp_path):
    """The pieces hold the snapshot's extents end to end (runs of zeros left out); cut elsewhere, into three
    pieces whose boundaries fall inside extents, they put the same memory back."""
    held, extents, size = held_and_extents(site)
    assert len(held) < 0.6 * size, 'the pieces hold the runs of zeros'
    cuts = [0, extents[0][1] // 3, len(held) - 12345, len(held)]
    pieces = {f"pyodide/cut-{index}.bin": held[start:end] for index, (start, end) in enumerate(zip(cuts, cuts[1:]))}
    assert starts_from(page, site_with_snapshot(site, tmp_path / 'site', pieces, extents)) == 'snapshot'


def test_python_boots_as_usual_when_the_extents_are_not_whole_numbers(page, site, tmp_path):
    """Extents that add up to the pieces' bytes but cannot be the snapshot's (a broken build.json): the worker
    looped forever on an empty slice of a piece before it checked them. (Overlapping extents are refused too,
    but Pyodide refuses the memory they make anyway, so a test of them could not fail.)"""
    held, extents, _ = held_and_extents(site)
    assert len(extents) > 1
    halves = [[extents[0][0], extents[0][1] - 0.5], [extents[1][0], extents[1][1] + 0.5], *extents[2:]]
    folder = site_with_snapshot(site, tmp_path / 'site', {'pyodide/snapshot-1.bin': held}, halves)
    assert starts_from(page, folder) == 'boot'


@pytest.mark.parametrize('answer', BROKEN)
def test_python_boots_as_usual_when_the_snapshot_does_not_restore(page, site, tmp_path, answer):
    server, url = serving(isolated=True, directory=site_whose_snapshot_is(answer, site, tmp_path / 'site'))
    try:
        open_playground(page, url)
        assert page.evaluate(START) == 'boot'
        type_program(page, 'print(Value(2.0) * 3)\n')
        expect(run(page).locator('pre.stdout')).to_have_text('Value(data=6.0, grad=0.0)\n')
    finally:
        stop(server)
