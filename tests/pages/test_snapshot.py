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
# which the worker writes where build.json says (sitePackages), every file that each wheel's RECORD lists
# (importlib.metadata.files() leaves out a file that is not there).
PROBE = '''import random, inspect, graphviz, scalargrad.engine, sysconfig, importlib.metadata, os, csv
print(random.random())
print(inspect.getsource(scalargrad.engine.Value.backward).split('(')[0].strip())
print(graphviz.Digraph().source.split()[0])
print(os.path.samefile(sysconfig.get_path('purelib'), FOLDER))
records = [importlib.metadata.distribution(name).read_text('RECORD') for name in ('graphviz', 'scalargrad', 'playground-runtime')]
files = [row[0] for record in records for row in csv.reader(record.splitlines())]
print(len(files), [path for path in files if not os.path.isfile(os.path.join(FOLDER, path))])
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
# a route sends its body through the driver (about 9 s of processor time for 31 MB here).
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


def test_the_snapshot_restores_from_pieces_cut_anywhere(page, site, tmp_path):
    """The pieces hold the snapshot's extents end to end (runs of zeros left out); cut elsewhere, into three
    pieces whose boundaries fall inside extents, they put the same memory back."""
    folder = tmp_path / 'site'
    shutil.copytree(site, folder, copy_function=os.symlink)
    info = json.loads((site / 'build.json').read_text())
    held = b''.join((site / piece).read_bytes() for piece in info['snapshot']['files'])
    assert len(held) < 0.6 * info['snapshot']['size'], 'the pieces hold the runs of zeros'
    for path in [
        *folder.glob('build.json*'),
        *(c for piece in info['snapshot']['files'] for c in folder.glob(piece + '*')),
    ]:
        path.unlink()
    cuts = [0, info['snapshot']['extents'][0][1] // 3, len(held) - 12345, len(held)]
    info['snapshot']['files'] = [f"pyodide/cut-{index}.bin" for index in range(3)]
    for name, start, end in zip(info['snapshot']['files'], cuts, cuts[1:]):
        (folder / name).write_bytes(held[start:end])
    (folder / 'build.json').write_text(json.dumps(info))
    server, url = serving(isolated=True, directory=folder)
    try:
        open_playground(page, url)
        assert page.evaluate(START) == 'snapshot'
        type_program(page, 'print(Value(2.0) * 3)\n')
        expect(run(page).locator('pre.stdout')).to_have_text('Value(data=6.0, grad=0.0)\n')
    finally:
        stop(server)


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
