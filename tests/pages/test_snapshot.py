"""Python starts from the build's memory snapshot (backprop_playground/build/snapshot.py), and boots as usual without it."""

import json

import pytest
from playwright.sync_api import expect

from backprop_playground.build.snapshot import SNAPSHOT
from support.pages import open_playground, run, type_program

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


@pytest.mark.parametrize('answer', ['missing', 'not a snapshot', 'cut short', 'scrambled'])
def test_python_boots_as_usual_when_the_snapshot_does_not_restore(page, context, site, site_url, answer):
    pieces = json.loads((site / 'build.json').read_text())['snapshot']['files']
    assert len(pieces) > 1 and all(piece.startswith(SNAPSHOT.removesuffix('.bin')) for piece in pieces)

    def route(route):
        piece = route.request.url.split('/pyodide/')[-1]
        if answer == 'missing':
            route.fulfill(status=404, body='')
        elif answer == 'not a snapshot':
            route.fulfill(status=200, body=b'not a snapshot\n' * 1000)
        elif answer == 'cut short':
            data = (site / 'pyodide' / piece).read_bytes()
            route.fulfill(status=200, body=data[: len(data) // 2])
        else:  # every byte there, in the wrong order: the pieces add up, and Pyodide refuses to restore them
            route.fulfill(status=200, body=(site / 'pyodide' / piece).read_bytes()[::-1])

    context.route('**/pyodide/snapshot-*.bin', route)  # runs before conftest's route, which was added first
    open_playground(page, site_url)
    assert page.evaluate(START) == 'boot'
    type_program(page, 'print(Value(2.0) * 3)\n')
    expect(run(page).locator('pre.stdout')).to_have_text('Value(data=6.0, grad=0.0)\n')
