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

# random's draw shows the seed; getsource and graphviz (not imported in the snapshot) need the wheels' files.
PROBE = '''import random, inspect, graphviz, scalargrad.engine
print(random.random())
print(inspect.getsource(scalargrad.engine.Value.backward).split('(')[0].strip())
print(graphviz.Digraph().source.split()[0])
'''


def test_python_starts_from_the_snapshot_with_its_files_and_a_new_random_state(page, site_url):
    draws = []
    for _ in range(2):
        open_playground(page, site_url)
        assert page.evaluate(START) == 'snapshot'
        type_program(page, PROBE)
        draw, source, graphviz = run(page).locator('pre.stdout').inner_text().splitlines()
        assert (source, graphviz) == ('def backward', 'digraph')
        draws.append(draw)
    assert draws[0] != draws[1], 'two visits drew the same numbers: random kept the snapshot\'s state'


# What a host may send for each piece of the snapshot that does not restore. The bytes come from a server (as
# from a host whose copy is broken), not through a Playwright route: a routed context keeps no HTTP cache, and
# a route sends its body through the driver (about 9 s of processor time for the 31 MB of two pieces here).
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
    assert len(pieces) > 1 and all(piece.startswith(SNAPSHOT.removesuffix('.bin')) for piece in pieces)
    for piece in pieces:
        for copy in folder.glob(piece + '*'):
            copy.unlink()
        if BROKEN[answer]:
            (folder / piece).write_bytes(BROKEN[answer]((site / piece).read_bytes()))
    return folder


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
