"""The micrograd lecture's own notebooks (Andrej Karpathy's nn-zero-to-hero, MIT licence, copied unchanged
into tests/notebooks/ from commit 73c3fcc) opened in notebook.html as a learner would: Run all, then every
cell that needs only Python has run and every draw_dot has drawn. Every non-local request is blocked."""

import json
import re

import pytest
from playwright.sync_api import expect

from support import ROOT, STARTUP_TIMEOUT_MS
from support.pages import message

pytestmark = pytest.mark.usefixtures('site')

NOTEBOOKS = ROOT / 'tests' / 'notebooks'
# numpy, matplotlib and torch are not in this offline build: the cells that use them must fail, naming them.
NEEDS_A_PACKAGE = re.compile(r'\b(np|plt|torch|numpy|matplotlib)\b')


def code_cells(path):
    cells = json.loads(path.read_text(encoding='utf-8'))['cells']
    return [''.join(cell['source']) for cell in cells if cell['cell_type'] == 'code']


@pytest.mark.parametrize(
    'name', ['micrograd_lecture_first_half_roughly.ipynb', 'micrograd_lecture_second_half_roughly.ipynb']
)
def test_the_lecture_notebooks_run_all_that_needs_only_python_and_draw_every_graph(page, site_url, name):
    sources = code_cells(NOTEBOOKS / name)
    page.goto(site_url + 'notebook.html')
    with page.expect_file_chooser() as chooser:
        page.get_by_test_id('open-notebook').click()
    chooser.value.set_files(str(NOTEBOOKS / name))
    cells = page.get_by_test_id('cell')
    expect(cells).to_have_count(len(sources), timeout=STARTUP_TIMEOUT_MS)

    page.get_by_test_id('run-all').click()
    expect(message(page)).to_contain_text('Ran all', timeout=4 * STARTUP_TIMEOUT_MS)
    expected = [number for number, source in enumerate(sources, 1) if NEEDS_A_PACKAGE.search(source)]
    assert expected, 'the lecture imports numpy in its first cell'
    said = message(page).inner_text()
    failed = [int(n) for n in re.search(r'cells? ([\d, ]+) failed', said).group(1).split(', ')]
    assert failed == expected, said
    for number in expected:
        output = cells.nth(number - 1).get_by_test_id('output')
        expect(output).to_contain_text(re.compile(r'has no (numpy|matplotlib|torch)'))

    drawing = [
        number
        for number, source in enumerate(sources, 1)
        if re.search(r'^draw_dot\(\w+\)\Z', source.strip().rsplit('\n', 1)[-1])
    ]
    assert drawing, 'the lecture draws its graphs with draw_dot'
    for number in drawing:
        graph = cells.nth(number - 1).get_by_test_id('output').locator('svg g.node')
        expect(graph.first).to_be_visible()
        assert graph.count() >= 2, f'cell {number} drew {graph.count()} nodes'
