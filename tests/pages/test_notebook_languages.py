"""notebook.html in the reader's language (issue 45): its own words (<code> and <strong> kept in a message),
what it says of a notebook it opened and ran (plurals by the language's rules), and the pseudo-locale walk; a
notebook's own Markdown and code are the author's and stay as they are."""

import json

import pytest
from playwright.sync_api import expect

from support import STARTUP_TIMEOUT_MS
from support.languages import unmarked
from support.pages import cells, message

pytestmark = pytest.mark.usefixtures('site')

NOTEBOOK = {
    'nbformat': 4,
    'nbformat_minor': 5,
    'metadata': {},
    'cells': [
        {'cell_type': 'markdown', 'metadata': {}, 'source': ['# My lecture\n', 'Some words of the author.']},
        {
            'cell_type': 'code',
            'metadata': {},
            'source': ['a = Value(2.0, label="a")\n', 'print(a.data)'],
            'outputs': [],
            'execution_count': None,
        },
        {'cell_type': 'code', 'metadata': {}, 'source': ['1 / 0'], 'outputs': [], 'execution_count': None},
    ],
}


def open_in(page, site_url, locale, tmp_path):
    path = tmp_path / 'lecture.ipynb'
    path.write_text(json.dumps(NOTEBOOK))
    page.goto(site_url + f'notebook.html?locale={locale}')
    expect(page.get_by_test_id('open-notebook')).to_be_enabled()
    return path


def choose(page, path):
    with page.expect_file_chooser() as chooser:
        page.get_by_test_id('open-notebook').click()
    chooser.value.set_files(str(path))
    expect(cells(page)).to_have_count(2, timeout=STARTUP_TIMEOUT_MS)


def test_the_notebook_page_in_french(page, site_url, tmp_path):
    path = open_in(page, site_url, 'fr', tmp_path)
    expect(page.locator('html')).to_have_attribute('lang', 'fr')
    expect(page.get_by_test_id('open-notebook')).to_have_text('Ouvrir un notebook…')
    hint = page.locator('.notebook-hint')
    expect(hint).to_contain_text('Ouvrez un notebook Jupyter (.ipynb)')
    expect(hint.locator('strong')).to_have_text('Ouvrir un notebook…')  # <strong> kept, in the translation's place
    expect(hint.locator('code')).to_have_text(['.ipynb', '.md', 'draw_dot', 'notebook.html#url=lecture.ipynb'])
    choose(page, path)
    expect(message(page)).to_contain_text('lecture.ipynb ouvert : 2 cellules de code, 1 cellule Markdown.')
    page.get_by_test_id('run-all').click()
    expect(message(page)).to_have_text(
        'Les 2 cellules ont été exécutées ; la cellule 2 a échoué (voir la sortie sous chacune). '
        'Les cellules après un échec ont été exécutées quand même, comme dans Jupyter.',
        timeout=STARTUP_TIMEOUT_MS,
    )
    expect(page.locator('header h1')).to_have_text('lecture')


def test_the_pseudo_locale_leaves_no_word_of_the_notebook_page_out(page, site_url, tmp_path):
    path = open_in(page, site_url, 'en-XA', tmp_path)
    assert unmarked(page) == []
    choose(page, path)
    page.get_by_test_id('run-all').click()
    expect(message(page)).to_contain_text('⟪', timeout=STARTUP_TIMEOUT_MS)
    expect(cells(page).last.get_by_test_id('status')).to_have_attribute('data-state', 'error')
    # The heading is the notebook's file name; the Markdown cells are the author's
    assert unmarked(page, authored='h1, .markdown-cell') == []
