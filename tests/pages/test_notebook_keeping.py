"""notebook.html keeps notebooks whole: a download gives back the file as it came (ids, metadata,
attachments, raw and unknown cells, their order), with only what ran or was edited here changed; and the
learner's work survives a reload, a second visit and blocked storage."""

import copy
import json

import pytest
from playwright.sync_api import expect

from support import ROOT, STARTUP_TIMEOUT_MS
from support.lazy import nbformat
from support.pages import cells, download_notebook, message, open_notebook, press_run, saved, set_code

pytestmark = pytest.mark.usefixtures('site')
NOTEBOOKS = ROOT / 'tests' / 'notebooks'
TINY_PNG = 'iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mNkYPhfDwAChwGA60e6kgAAAABJRU5ErkJggg=='


def crafted_notebook():
    """What Jupyter users put in notebooks and a rebuilt notebook would drop."""
    cells = [
        {
            'cell_type': 'markdown',
            'id': 'figure',
            'metadata': {'tags': ['intro'], 'slideshow': {'slide_type': 'slide'}},
            'source': ['A picture: ![dot](attachment:dot.png)\n', 'and text.'],
            'attachments': {'dot.png': {'image/png': TINY_PNG}},
        },
        {'cell_type': 'raw', 'id': 'latex', 'metadata': {'format': 'text/latex'}, 'source': '\\section{Raw}'},
        {
            'cell_type': 'code',
            'id': 'hidden-input',
            'execution_count': 7,
            'metadata': {'jupyter': {'source_hidden': True}, 'tags': ['setup'], 'scrolled': True},
            'source': 'x = 21\nprint(x * 2)',
            'outputs': [{'output_type': 'stream', 'name': 'stdout', 'text': ['42\n']}],
        },
        {
            'cell_type': 'code',
            'id': 'edit-me',
            'execution_count': None,
            'metadata': {'collapsed': False},
            'source': ['y = 1\n', 'y'],
            'outputs': [],
        },
        {
            'cell_type': 'code',
            'id': 'untouched',
            'execution_count': 3,
            'metadata': {},
            'source': ['"saved long ago"'],
            'outputs': [
                {
                    'output_type': 'execute_result',
                    'execution_count': 3,
                    'metadata': {},
                    'data': {'text/plain': ["'saved long ago'"]},
                }
            ],
        },
    ]
    notebook = {
        'nbformat': 4,
        'nbformat_minor': 5,
        'cells': cells,
        'metadata': {
            'kernelspec': {'name': 'python3', 'display_name': 'Python 3 (ipykernel)', 'language': 'python'},
            'language_info': {'name': 'python', 'version': '3.12.1'},
            'authors': [{'name': 'A. Teacher'}],
            'celltoolbar': 'Tags',
        },
    }
    nbformat.validate(nbformat.from_dict(notebook))
    return notebook


def code_count(notebook):
    return sum(cell['cell_type'] == 'code' for cell in notebook['cells'])


@pytest.mark.parametrize(
    'name',
    [
        'micrograd_lecture_first_half_roughly.ipynb',
        'micrograd_lecture_second_half_roughly.ipynb',
        'crafted.ipynb',
        'release.ipynb',
    ],
)
def test_a_notebook_downloaded_unrun_is_the_file_it_came_from(page, site_url, tmp_path, name, request):
    if name == 'crafted.ipynb':
        original = crafted_notebook()
    elif name == 'release.ipynb':  # made by nbgrader generate_assignment: checksums, locks, ids
        original = json.loads(request.getfixturevalue('nbgrader_release').read_text())
    else:
        original = json.loads((NOTEBOOKS / name).read_text(encoding='utf-8'))
    path = tmp_path / name
    path.write_text(json.dumps(original, indent=1))
    open_notebook(page, site_url, path, code_count(original))
    if name == 'crafted.ipynb':  # the attachment is drawn, from the notebook itself
        expect(page.get_by_role('img', name='dot')).to_have_js_property('naturalWidth', 1)
    assert download_notebook(page, tmp_path / 'downloaded.ipynb') == original


def test_only_what_ran_or_was_edited_changes_in_the_download(page, site_url, tmp_path):
    original = crafted_notebook()
    path = tmp_path / 'crafted.ipynb'
    path.write_text(json.dumps(original))
    open_notebook(page, site_url, path, 3)
    found = cells(page)
    set_code(found.nth(1), 'y = 2\ny * 10')
    expect(press_run(found.nth(1)).locator('pre.result')).to_have_text('20')

    got = download_notebook(page, tmp_path / 'downloaded.ipynb')
    expected = copy.deepcopy(original)
    earlier = expected['cells'][2]  # it ran first, because the edited cell comes after it
    earlier['execution_count'] = 1
    earlier['outputs'] = [{'output_type': 'stream', 'name': 'stdout', 'text': ['42\n']}]
    edited = expected['cells'][3]
    edited['source'] = ['y = 2\n', 'y * 10']
    edited['execution_count'] = 2
    edited['outputs'] = [
        {'output_type': 'execute_result', 'execution_count': 2, 'metadata': {}, 'data': {'text/plain': ['20']}}
    ]
    assert got == expected
    nbformat.validate(nbformat.from_dict(got))


def test_work_survives_a_reload_and_a_second_visit_and_the_page_lists_it(page, site_url, tmp_path, context):
    path = tmp_path / 'crafted.ipynb'
    path.write_text(json.dumps(crafted_notebook()))
    open_notebook(page, site_url, path, 3)
    found = cells(page)
    set_code(found.nth(1), 'y = 5\ny * 3')
    expect(press_run(found.nth(1)).locator('pre.result')).to_have_text('15')
    set_code(found.nth(2), 'print("typed, never run")')
    saved(page)

    page.reload()
    expect(cells(page)).to_have_count(3, timeout=STARTUP_TIMEOUT_MS)
    expect(message(page)).to_contain_text('Your work on crafted.ipynb is back')
    expect(cells(page).nth(1).locator('.cm-content')).to_have_text('y = 5y * 3')
    expect(cells(page).nth(1).get_by_test_id('saved-output')).to_contain_text('15')
    expect(cells(page).nth(2).locator('.cm-content')).to_have_text('print("typed, never run")')
    expect(page.get_by_test_id('revert-notebook')).to_be_visible()

    later = context.new_page()  # a second visit, another day: the same browser's storage
    later.goto(site_url + 'notebook.html')
    expect(cells(later).nth(2).locator('.cm-content')).to_have_text(
        'print("typed, never run")', timeout=STARTUP_TIMEOUT_MS
    )
    expect(later.get_by_test_id('recent-notebooks').get_by_test_id('recent-notebook')).to_have_text(['crafted.ipynb'])
    # Opening the same file again brings the work back too, not the file's empty cells.
    open_notebook(later, site_url, path, 3)
    expect(cells(later).nth(2).locator('.cm-content')).to_have_text('print("typed, never run")')
    later.close()


def test_a_notebook_by_url_comes_back_with_edits_and_reverts_to_the_original(page, site_url, cors_origin):
    folder, url = cors_origin
    (folder / 'lesson.ipynb').write_text(json.dumps(crafted_notebook()))
    page.goto(f"{site_url}notebook.html#url={url}lesson.ipynb")
    expect(cells(page)).to_have_count(3, timeout=STARTUP_TIMEOUT_MS)
    expect(page.get_by_test_id('revert-notebook')).to_be_hidden()
    set_code(cells(page).nth(1), 'y = "mine"')
    saved(page)

    page.reload()
    expect(cells(page).nth(1).locator('.cm-content')).to_have_text('y = "mine"', timeout=STARTUP_TIMEOUT_MS)
    revert = page.get_by_test_id('revert-notebook')
    revert.click()
    expect(revert).to_have_text('Click again to discard your changes')
    expect(cells(page).nth(1).locator('.cm-content')).to_have_text('y = "mine"')
    revert.click()
    expect(cells(page).nth(1).locator('.cm-content')).to_have_text('y = 1y')
    expect(revert).to_be_hidden()
    saved(page)
    page.reload()
    expect(cells(page).nth(1).locator('.cm-content')).to_have_text('y = 1y', timeout=STARTUP_TIMEOUT_MS)


def test_blocked_storage_says_so_and_the_notebook_stays_open(page, site_url, tmp_path):
    page.add_init_script(
        "Object.defineProperty(window, 'indexedDB', { get() { "
        "throw new DOMException('The user denied permission to access the database.', 'SecurityError'); } });"
    )
    path = tmp_path / 'crafted.ipynb'
    path.write_text(json.dumps(crafted_notebook()))
    page.goto(site_url + 'notebook.html')
    status = page.get_by_test_id('storage-status')
    expect(status).to_contain_text('not kept in this browser', timeout=STARTUP_TIMEOUT_MS)
    with page.expect_file_chooser() as chooser:
        page.get_by_test_id('open-notebook').click()
    chooser.value.set_files(str(path))
    expect(cells(page)).to_have_count(3, timeout=STARTUP_TIMEOUT_MS)
    expect(status).to_contain_text('is not being kept in this browser')
    expect(status).to_have_attribute('data-kind', 'error')
    set_code(cells(page).nth(1), 'y = 6\ny * 7')
    expect(press_run(cells(page).nth(1)).locator('pre.result')).to_have_text('42')
    expect(status).to_contain_text('use Download .ipynb to keep a copy')
