"""notebook.html end to end: a notebook the tests write is opened from a file and from a URL on another
origin, run cell by cell and all at once, saved again and validated with nbformat. Every non-local
request is blocked (conftest.py)."""

import json

import pytest
from playwright.sync_api import expect

from support import STARTUP_TIMEOUT_MS
from support.lazy import nbformat
from support.pages import assert_accessible_in_both_schemes, cells, message, open_notebook, press_run, run_all, run_cell

pytestmark = pytest.mark.usefixtures('site')

VALUE_CLASS = '''class Value:
    def __init__(self, data, _children=(), _op='', label=''):
        self.data = data
        self.grad = 0.0
        self._prev = set(_children)
        self._op = _op
        self.label = label

    def __add__(self, other):
        return Value(self.data + other.data, (self, other), '+')

    def __mul__(self, other):
        return Value(self.data * other.data, (self, other), '*')
'''
TINY_PNG = 'iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mNkYPhfDwAChwGA60e6kgAAAABJRU5ErkJggg=='
CODE = [
    VALUE_CLASS,
    "a = Value(2.0, label='a')\nb = Value(-3.0, label='b')\nd = a * b + Value(10.0, label='c')\nd.label = 'd'\ndraw_dot(d)",
    'd.data',
    'import numpy as np',
    'print("after numpy")\n1 / 0',
    'import asyncio\nawait asyncio.sleep(0.05)\nprint("awaited", d.data)',
]


def lines(text):
    return text.splitlines(keepends=True)


def written_notebook():
    """The notebook as Jupyter would save it, with saved outputs in two cells."""
    markdown = '# Micrograd notes\n\nA *Value* holds `data`.<b>Bold</b><script>window.hacked = 1</script>'
    cells = [{'cell_type': 'markdown', 'id': 'notes', 'metadata': {}, 'source': lines(markdown)}]
    for i, code in enumerate(CODE):
        cell = {
            'cell_type': 'code',
            'id': f'code-{i}',
            'metadata': {},
            'execution_count': None,
            'outputs': [],
            'source': lines(code),
        }
        if i == 1:
            cell['outputs'] = [
                {
                    'output_type': 'display_data',
                    'metadata': {},
                    'data': {'image/png': TINY_PNG, 'text/plain': ['<graph>']},
                }
            ]
        if i == 2:
            cell['outputs'] = [
                {
                    'output_type': 'execute_result',
                    'execution_count': 3,
                    'metadata': {},
                    'data': {'text/plain': ["'saved long ago'"]},
                }
            ]
        cells.append(cell)
    notebook = {
        'nbformat': 4,
        'nbformat_minor': 5,
        'cells': cells,
        'metadata': {'kernelspec': {'name': 'python3', 'display_name': 'Python 3', 'language': 'python'}},
    }
    nbformat.validate(nbformat.from_dict(notebook))  # the test's own notebook is a valid one
    return json.dumps(notebook, indent=1)


def test_a_notebook_opens_from_a_file_runs_all_and_saves_what_it_showed(page, site_url, tmp_path):
    path = tmp_path / 'micrograd notes.ipynb'
    path.write_text(written_notebook())
    open_notebook(page, site_url, path, len(CODE))
    markdown = page.get_by_test_id('markdown-cell').first
    expect(markdown.locator('h1')).to_have_text('Micrograd notes')
    expect(markdown.locator('b')).to_have_text('Bold')
    assert page.evaluate('window.hacked') is None, "a notebook's script ran"
    found = cells(page)
    expect(found.nth(1).get_by_test_id('saved-output').locator('img')).to_be_visible()
    expect(found.nth(2).get_by_test_id('saved-output')).to_contain_text("'saved long ago'")

    run_all(page)
    expect(message(page)).to_contain_text('cells 4, 5 failed')
    expect(found.nth(1).locator('svg').first).to_be_visible()
    expect(found.nth(1).get_by_test_id('saved-output')).to_have_count(0)
    expect(found.nth(2).locator('pre.result')).to_have_text('4.0')
    expect(found.nth(3).get_by_test_id('output')).to_contain_text('no numpy')
    expect(found.nth(4).locator('pre.stdout')).to_have_text('after numpy\n')
    expect(found.nth(4).get_by_test_id('output')).to_contain_text('ZeroDivisionError')
    expect(found.nth(5).locator('pre.stdout')).to_have_text('awaited 4.0\n')
    assert_accessible_in_both_schemes(page, 'notebook.html after Run all')

    # Edited, then run again on its own: the saved notebook has the new source and its output.
    found.nth(2).locator('.cm-content').click()
    page.keyboard.press('ControlOrMeta+a')
    page.keyboard.type('d.data * 2')
    expect(press_run(found.nth(2)).locator('pre.result')).to_have_text('8.0')

    with page.expect_download() as download:
        page.get_by_test_id('download-notebook').click()
    assert download.value.suggested_filename == 'micrograd notes.ipynb'
    saved = nbformat.reads(open(download.value.path(), encoding='utf-8').read(), as_version=4)
    nbformat.validate(saved)
    assert [c.cell_type for c in saved.cells] == ['markdown'] + ['code'] * len(CODE)
    sources = [c.source for c in saved.cells[1:]]
    assert sources == CODE[:2] + ['d.data * 2'] + CODE[3:]
    outputs = [c.outputs for c in saved.cells[1:]]
    graph = outputs[1][0]
    assert graph.output_type == 'display_data' and '<svg' in graph.data['image/svg+xml']
    assert outputs[2] == [
        nbformat.from_dict(
            {
                'output_type': 'execute_result',
                'execution_count': saved.cells[3].execution_count,
                'metadata': {},
                'data': {'text/plain': '8.0'},
            }
        )
    ]
    assert outputs[3][0].output_type == 'error' and outputs[3][0].ename == 'ModuleNotFoundError'
    assert [o.output_type for o in outputs[4]] == ['stream', 'error'] and outputs[4][0].text == 'after numpy\n'
    assert outputs[4][1].ename == 'ZeroDivisionError'
    assert outputs[5][0].text == 'awaited 4.0\n'


def test_a_notebook_opens_from_a_url_on_another_origin(page, site_url, cors_origin):
    folder, url = cors_origin
    (folder / 'lecture.ipynb').write_text(written_notebook())
    page.goto(f"{site_url}notebook.html#url={url}lecture.ipynb")
    found = cells(page)
    expect(found).to_have_count(len(CODE), timeout=STARTUP_TIMEOUT_MS)
    run_cell(found.nth(0))
    expect(run_cell(found.nth(2)).locator('pre.result')).to_have_text('4.0')  # cell 2 ran first: 3 needs it
    expect(found.nth(1).locator('svg').first).to_be_visible()


def test_a_url_that_cannot_be_read_or_is_not_a_notebook_says_why(page, site_url, other_origin, cors_origin):
    folder, url = other_origin
    (folder / 'no-cors.ipynb').write_text(written_notebook())
    page.goto(f"{site_url}notebook.html#url={url}no-cors.ipynb")
    expect(message(page)).to_contain_text('CORS', timeout=STARTUP_TIMEOUT_MS)
    expect(cells(page)).to_have_count(0)
    folder, url = cors_origin
    (folder / 'page.ipynb').write_text('<!doctype html><p>Not found</p>')
    page.goto(f"{site_url}notebook.html#url={url}page.ipynb")
    expect(message(page)).to_contain_text('is not a Jupyter notebook', timeout=STARTUP_TIMEOUT_MS)
    page.goto(f"{site_url}notebook.html#url={url}missing.ipynb")
    expect(message(page)).to_contain_text('404', timeout=STARTUP_TIMEOUT_MS)


def test_shift_enter_runs_a_cell_and_moves_to_the_next(page, site_url, tmp_path):
    path = tmp_path / 'notes.ipynb'
    path.write_text(written_notebook())
    open_notebook(page, site_url, path, len(CODE))
    found = cells(page)
    found.nth(0).locator('.cm-content').click()
    page.keyboard.press('Shift+Enter')
    expect(found.nth(0).get_by_test_id('status')).to_have_attribute('data-state', 'ready', timeout=STARTUP_TIMEOUT_MS)
    expect(found.nth(0).locator('section.run')).to_have_count(1)
    expect(found.nth(1).locator('.cm-content')).to_be_focused()


def test_an_article_opens_as_a_notebook(page, site_url, context):
    page.goto(site_url + 'article.html')
    article_cells = cells(page)
    expect(article_cells.first).to_be_visible(timeout=STARTUP_TIMEOUT_MS)
    count = article_cells.count()
    with context.expect_page() as opened:
        article_cells.first.get_by_test_id('open-as-notebook').click()
    notebook = opened.value
    expect(cells(notebook)).to_have_count(count, timeout=STARTUP_TIMEOUT_MS)
    press_run(cells(notebook).first)  # ready again, not error: the article's first cell runs as a notebook's


def test_opening_a_notebook_during_run_all_stops_the_one_that_was_running(page, site_url, tmp_path):
    # Each slow cell would keep Python busy for a minute: the new notebook could not run if one went on.
    slow = tmp_path / 'slow.ipynb'
    slow.write_text(
        json.dumps(
            {
                'nbformat': 4,
                'nbformat_minor': 5,
                'metadata': {},
                'cells': [
                    {
                        'cell_type': 'code',
                        'id': f's{i}',
                        'metadata': {},
                        'execution_count': None,
                        'outputs': [],
                        'source': f'import time\nslow_{i} = {i}\nend = time.time() + 60\nwhile time.time() < end:\n    pass',
                    }
                    for i in range(3)
                ],
            }
        )
    )
    quick = tmp_path / 'quick.ipynb'
    quick.write_text(
        json.dumps(
            {
                'nbformat': 4,
                'nbformat_minor': 5,
                'metadata': {},
                'cells': [
                    {
                        'cell_type': 'code',
                        'id': 'q',
                        'metadata': {},
                        'execution_count': None,
                        'outputs': [],
                        'source': "print(sorted(name for name in globals() if name.startswith('slow_')))",
                    }
                ],
            }
        )
    )
    page.goto(site_url + 'notebook.html')
    with page.expect_file_chooser() as chooser:
        page.get_by_test_id('open-notebook').click()
    chooser.value.set_files(str(slow))
    expect(cells(page)).to_have_count(3, timeout=STARTUP_TIMEOUT_MS)
    page.get_by_test_id('run-all').click()
    expect(cells(page).first.get_by_test_id('status')).to_have_attribute(
        'data-state', 'running', timeout=STARTUP_TIMEOUT_MS
    )

    with page.expect_file_chooser() as chooser:
        page.get_by_test_id('open-notebook').click()
    chooser.value.set_files(str(quick))
    expect(cells(page)).to_have_count(1)
    page.wait_for_timeout(1000)  # the stopped Run all would have said so by now, over the new notebook's message
    expect(message(page)).to_contain_text('Opened quick.ipynb')
    expect(cells(page).first.locator('section.run')).to_have_count(0)
    page.get_by_test_id('run-all').click()
    expect(message(page)).to_contain_text('Ran all 1 cell.', timeout=30_000)  # a slow cell that went on takes 60 s
    expect(cells(page).first.locator('pre.stdout')).to_have_text('[]\n')
