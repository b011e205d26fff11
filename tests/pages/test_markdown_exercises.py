"""Exercises written in Markdown: fenced blocks marked `# exercise: ID` (with `# checks:`, `# hint:` and
`# solution:` blocks) become exercises with `embed.js?lang=python` in what Markdown hosts write (Jekyll and
Rouge, Hugo and Chroma, MkDocs built for real), and a .md lesson opens in notebook.html as a notebook. Checks,
hints and solutions never show before their time; the course's chapter as a lesson gives the course's results.
Every non-local request is blocked (conftest.py)."""

import html

import pytest
from playwright.sync_api import expect

from support import ROOT, STARTUP_TIMEOUT_MS
from support.course import EXERCISES, IDS, STARTER_MESSAGES
from support.lazy import nbformat
from support.pages import article, cells, check, download_notebook, mkdocs_article, rouge, saved, set_code

pytestmark = pytest.mark.usefixtures('site')
LESSON = ROOT / 'web' / 'lessons' / 'build-the-engine.md'
# One exercise as an author writes it in Markdown: starter, checks, two hints, solution.
BLOCKS = [
    "# exercise: half\ndef half(x):\n    return x",
    "# checks: half\nexpect(half(4) == 2, \"half(4) should be 2, not {}\".format(half(4)))\nSECRET = 'in the checks'",
    "# hint: half\n# Divide by **two**, with `/`.",
    "# hint: half\n# `return x / 2`",
    "# solution: half\ndef half(x):\n    return x / 2",
]
SOLUTION = BLOCKS[-1].split('\n', 1)[1]
# Each of the lesson's hints as a reader sees it once revealed (its Markdown rendered: no backticks).
LESSON_HINTS = [
    block.split('\n', 1)[1].split('\n```')[0].removeprefix('# ').replace('`', '')
    for block in LESSON.read_text().split('```python\n')
    if block.startswith('# hint:')
]


def chroma(code):
    spans = ''.join(
        f'<span class="line"><span class="ln">{i}</span><span class="cl">{html.escape(line, quote=False)}\n</span></span>'
        for i, line in enumerate(code.split('\n'), 1)
    )
    return f'<div class="highlight"><pre tabindex="0" class="chroma"><code class="language-python" data-lang="python">{spans}</code></pre></div>\n'


def fail_hint_pass(page, box):
    """The learner's path through one exercise: fail, a hint, the solution offered, pass."""
    expect(box).to_be_visible(timeout=STARTUP_TIMEOUT_MS)
    expect(box.get_by_test_id('solution')).to_be_hidden()
    check(box, 'failed')
    expect(box.get_by_test_id('result')).to_contain_text('half(4) should be 2, not 4')
    box.get_by_test_id('hint').click()
    expect(box.locator('.hint').first.locator('strong')).to_have_text('two')  # the hint's Markdown, rendered
    expect(box.locator('.hint')).to_have_count(1)
    box.get_by_test_id('solution').click()
    box.get_by_role('button', name='Put it in the editor').click()
    check(box, 'passed')


@pytest.mark.parametrize('shape', [rouge, chroma], ids=['Jekyll and Rouge', 'Hugo and Chroma'])
def test_an_exercise_in_markdown_hosts_html_fails_hints_and_passes(page, site_url, other_origin, shape):
    url = article(
        other_origin,
        f'{shape.__name__}.html',
        '<h1>Halves</h1>'
        + ''.join(shape(block) for block in BLOCKS)
        + f'<script type="module" src="{site_url}embed.js?lang=python"></script>',
    )
    page.goto(url)
    box = page.get_by_test_id('exercise')
    expect(box).to_have_count(1, timeout=STARTUP_TIMEOUT_MS)
    expect(cells(page)).to_have_count(0)
    for secret in ['in the checks', 'Divide by', 'return x / 2', '# checks:', '# solution:']:
        assert secret not in page.locator('body').inner_text(), f"{secret!r} shows before its time"
    assert '# exercise: half' not in box.locator('.cm-content').inner_text()  # the marker is not in the editor
    fail_hint_pass(page, box)


def test_a_mkdocs_site_of_the_courses_chapter_gives_the_courses_results(page, site_url, other_origin, tmp_path):
    page.goto(mkdocs_article(other_origin, 'lesson-site', LESSON.read_text(), site_url, tmp_path, strict=True))
    the_course_gives_the_same_results(page)


def the_course_gives_the_same_results(page):
    boxes = page.get_by_test_id('exercise')
    expect(boxes).to_have_count(len(IDS), timeout=STARTUP_TIMEOUT_MS)
    shown = page.locator('body').inner_text()
    assert 'expect(' not in shown, 'a check shows before its time'
    for hint in LESSON_HINTS:
        assert hint not in shown, f'a hint shows before its time: {hint!r}'
    for i, exercise_id in enumerate(IDS):
        box = boxes.nth(i)
        expect(check(box, 'failed')).to_contain_text(STARTER_MESSAGES[exercise_id].replace('`', ''))
        set_code(box, EXERCISES[exercise_id]['solution'])
        expect(check(box, 'passed')).to_contain_text('All checks passed')


def test_the_solution_is_offered_after_the_tries_the_author_set(page, site_url, other_origin):
    blocks = [
        BLOCKS[0].replace('# exercise: half', '# exercise: half tries=2'),
        *BLOCKS[1:],
        *[block.replace('half', 'third') for block in BLOCKS],
    ]
    blocks[5] = '# exercise: third tries=never\ndef third(x):\n    return x'
    page.goto(
        article(
            other_origin,
            'tries.html',
            ''.join(rouge(block) for block in blocks)
            + f'<script type="module" src="{site_url}embed.js?lang=python"></script>',
        )
    )
    half, third = page.get_by_test_id('exercise').nth(0), page.get_by_test_id('exercise').nth(1)
    expect(half).to_have_attribute('data-tries-left', '2', timeout=STARTUP_TIMEOUT_MS)
    expect(half.get_by_test_id('tries-left')).to_have_text('The solution is offered after 2 more failed tries.')
    check(half, 'failed')
    expect(half).to_have_attribute('data-tries-left', '1')
    expect(half.get_by_test_id('solution')).to_be_hidden()
    check(half, 'failed')
    expect(half).to_have_attribute('data-tries-left', '0')
    expect(half.get_by_test_id('solution')).to_be_visible()
    page.reload()  # the tries are kept with the exercise's progress
    expect(page.get_by_test_id('exercise').first).to_have_attribute('data-tries-left', '0', timeout=STARTUP_TIMEOUT_MS)
    expect(page.get_by_test_id('exercise').first.get_by_test_id('solution')).to_be_visible()

    third = page.get_by_test_id('exercise').nth(1)
    expect(third).to_have_attribute('data-tries-left', 'never')
    for _ in range(3):
        check(third, 'failed')
    expect(third.get_by_test_id('solution')).to_be_hidden()


def test_a_page_wide_tries_and_the_html_form_agree(page, site_url, other_origin):
    body = (
        f'<pre data-playground data-exercise="half">{html.escape(BLOCKS[0].split(chr(10), 1)[1])}</pre>'
        f'<script type="text/x-python" data-checks="half">{BLOCKS[1].split(chr(10), 1)[1]}</script>'
        f'<script type="text/x-python" data-solution="half">{SOLUTION}</script>'
    )
    page.goto(
        article(
            other_origin, 'page-wide.html', body + f'<script type="module" src="{site_url}embed.js?tries=3"></script>'
        )
    )
    box = page.get_by_test_id('exercise')
    expect(box).to_have_attribute('data-tries-left', '3', timeout=STARTUP_TIMEOUT_MS)
    check(box, 'failed')
    expect(box).to_have_attribute('data-tries-left', '2')


KEPT_NOTEBOOKS = """async () => {
  const db = await new Promise((resolve, reject) => {
    const opening = indexedDB.open("backprop-playground", 1);
    opening.onsuccess = () => resolve(opening.result);
    opening.onerror = () => reject(opening.error);
  });
  const records = await new Promise((resolve, reject) => {
    const reading = db.transaction("notebooks").objectStore("notebooks").getAll();
    reading.onsuccess = () => resolve(reading.result);
    reading.onerror = () => reject(reading.error);
  });
  db.close();
  return JSON.stringify(records);
}"""


def test_a_lesson_opens_in_notebook_html_kept_and_downloaded_as_ipynb_and_md(page, site_url, tmp_path):
    page.goto(site_url + 'notebook.html#url=lessons/build-the-engine.md')
    the_course_gives_the_same_results(page)
    first = page.get_by_test_id('exercise').first
    saved(page)  # the runs' results are kept: nothing else is waiting to be saved
    set_code(first, EXERCISES['mul-returns-value']['solution'] + '\n# my own line')
    saved(page)
    assert '# my own line' in page.evaluate(KEPT_NOTEBOOKS), (
        'typing in an exercise is saved as it is typed, not only as the page goes'
    )
    page.reload()
    first = page.get_by_test_id('exercise').first
    expect(first.locator('.cm-content')).to_contain_text('# my own line', timeout=STARTUP_TIMEOUT_MS)
    expect(page.get_by_test_id('markdown-cell').first.locator('h1')).to_have_text('Build the engine')

    notebook = download_notebook(page, tmp_path / 'lesson.ipynb')
    nbformat.validate(nbformat.from_dict(notebook))
    marked = [cell for cell in notebook['cells'] if 'backprop_playground' in cell['metadata']]
    assert [
        cell['metadata']['backprop_playground']['marker']
        for cell in marked
        if 'exercise' in cell['metadata']['backprop_playground']
    ] == [f'# exercise: {id}' for id in IDS]
    # Sources as written below their markers (checks, a plain cell), or as the learner left them (the exercises).
    checks = next(cell for cell in marked if cell['metadata']['backprop_playground'].get('checks') == 'mul-backward')
    assert ''.join(checks['source']).strip() == EXERCISES['mul-backward']['checks'].strip()
    plain = [cell for cell in notebook['cells'] if cell['cell_type'] == 'code' and not cell['metadata']]
    assert [''.join(cell['source']) for cell in plain] == [
        "a = Value(3.0, label='a')\nb = a + a\nb.label = 'b'\nb.backward()\nb"
    ]
    edited = next(
        cell for cell in marked if cell['metadata']['backprop_playground'].get('exercise') == 'mul-returns-value'
    )
    assert ''.join(edited['source']) == EXERCISES['mul-returns-value']['solution'] + '\n# my own line'

    with page.expect_download() as downloading:
        page.get_by_test_id('download-markdown').click()
    markdown = downloading.value.path().read_text()
    expected = LESSON.read_text()
    for exercise_id in IDS:  # every exercise holds its solution now, the first with a line of the learner's own
        solution = EXERCISES[exercise_id]['solution'] + ('\n# my own line' if exercise_id == IDS[0] else '')
        expected = expected.replace(
            f"# exercise: {exercise_id}\n{EXERCISES[exercise_id]['starter']}\n",
            f"# exercise: {exercise_id}\n{solution}\n",
            1,
        )
    assert markdown == expected


def test_a_lesson_from_a_file_with_a_hostile_hint_shows_it_as_text(page, site_url, tmp_path):
    lesson = tmp_path / 'hostile.md'
    blocks = [
        *BLOCKS[:2],
        '# hint: half\n# <img src=x onerror="window.hacked = 1"> <script>window.hacked = 2</script> **bold**',
        BLOCKS[4],
    ]
    lesson.write_text('# Halves\n\n' + '\n\n'.join(f'```python\n{block}\n```' for block in blocks) + '\n')
    page.goto(site_url + 'notebook.html')
    with page.expect_file_chooser() as chooser:
        page.get_by_test_id('open-notebook').click()
    chooser.value.set_files(str(lesson))
    box = page.get_by_test_id('exercise')
    expect(box).to_have_count(1, timeout=STARTUP_TIMEOUT_MS)
    check(box, 'failed')
    box.get_by_test_id('hint').click()
    expect(box.locator('.hint strong')).to_have_text('bold')
    page.wait_for_timeout(300)
    assert page.evaluate('window.hacked') is None
    assert box.locator('.hint script').count() == 0 and box.locator('.hint img[onerror]').count() == 0
