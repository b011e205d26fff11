"""nbgrader assignments in notebook.html, end to end: nbgrader makes the release, a learner answers in the
page, and `nbgrader autograde` scores the page's downloads as the page scored them."""

import json

import pytest
from playwright.sync_api import expect

import support.assignment as assignment
from support.assignment import autograde
from support.pages import cells, download_notebook, open_notebook, run_all, set_code

pytestmark = pytest.mark.usefixtures('site')


def score(page):
    box = page.get_by_test_id('assignment-score')
    return box.get_attribute('data-points'), box.get_attribute('data-max-points'), box.text_content()


def results(page):
    return [(r.get_attribute('data-state'), r.text_content()) for r in page.get_by_test_id('test-result').all()]


def test_a_release_checks_itself_with_points_and_autograde_gives_the_pages_scores(page, site_url, nbgrader_course):
    release = nbgrader_course / 'release' / 'ps1' / 'assignment.ipynb'
    open_notebook(page, site_url, release, 4)
    found = cells(page)
    answer, test_mul, test_tanh, graph = (found.nth(i) for i in range(4))
    assert [found.nth(i).get_attribute('data-grade-id') for i in range(4)] == ['value', 'test_mul', 'test_tanh', None]
    for locked in (test_mul, test_tanh):
        expect(locked.locator('.cm-content')).to_have_attribute('contenteditable', 'false')
        before = locked.locator('.cm-content').text_content()
        locked.locator('.cm-content').click()
        page.keyboard.type('oops')
        assert locked.locator('.cm-content').text_content() == before, 'a locked cell took typing'
    expect(answer.locator('.cm-content')).to_have_attribute('contenteditable', 'true')
    expect(page.get_by_test_id('assignment-score')).to_have_text('0 / 5 points')

    # Untouched: nbgrader's stub raises, and every test says where.
    run_all(page)
    assert score(page) == ('0', '5', '0 / 5 points')
    (mul_state, mul_text), (tanh_state, tanh_text) = results(page)
    assert (mul_state, tanh_state) == ('failed', 'failed')
    assert mul_text.startswith('0 / 2 points') and 'Checking c = a * b: it raised NotImplementedError' in mul_text
    download_notebook(page, nbgrader_course / 'submitted' / 'untouched' / 'ps1' / 'assignment.ipynb')

    # A wrong tanh: the __mul__ test's points only, and the failed assertion's own words.
    set_code(answer, assignment.WRONG_TANH)
    run_all(page)
    assert score(page) == ('2', '5', '2 / 5 points')
    assert results(page) == [
        ('passed', "2 / 2 points ✓ This cell's tests passed."),
        ('failed', '0 / 3 points ✗ the grad of tanh at 0.8814 should be about 0.5'),
    ]
    download_notebook(page, nbgrader_course / 'submitted' / 'wrong_tanh' / 'ps1' / 'assignment.ipynb')

    # Right: full points, and the graph cell draws the learner's own Value.
    set_code(answer, assignment.RIGHT)
    run_all(page)
    assert score(page) == ('5', '5', '5 / 5 points')
    assert [state for state, _ in results(page)] == ['passed', 'passed']
    expect(graph.locator('svg g.node').first).to_be_visible()
    saved = download_notebook(page, nbgrader_course / 'submitted' / 'right' / 'ps1' / 'assignment.ipynb')
    assert ''.join(saved['cells'][1]['source']) == assignment.RIGHT

    # autograde restores the hidden x * x test: all three answers pass it or fail before it, so it agrees.
    assert autograde(nbgrader_course) == {'untouched': 0.0, 'wrong_tanh': 2.0, 'right': 5.0}


def shown_text(page):
    """Everything the page shows, in its shadow roots too, and every editor's whole text."""
    return page.evaluate("""() => {
      const texts = [document.body.textContent];
      const walk = (root) => root.querySelectorAll('*').forEach((node) => {
        if (node.shadowRoot) { texts.push(node.shadowRoot.textContent); walk(node.shadowRoot); }
      });
      walk(document);
      for (const host of document.querySelectorAll('[data-testid=cell]')) texts.push(host.cell.getText());
      return texts.join('\\n');
    }""")


def test_a_source_notebook_opens_as_the_student_version_and_its_hidden_tests_count(page, site_url, nbgrader_course):
    open_notebook(page, site_url, nbgrader_course / 'source' / 'ps1' / 'assignment.ipynb', 4)
    answer, test_mul = cells(page).nth(0), cells(page).nth(1)
    text = shown_text(page)
    for secret in ['BEGIN SOLUTION', '(1 - t**2)', 'other.data * out.grad', 'HIDDEN TESTS', 'x * x', '2 * x.data']:
        assert secret not in text, f'the page shows {secret!r}'
    assert (
        answer.evaluate('(host) => host.cell.getText()').count(
            '        # YOUR CODE HERE\n        raise NotImplementedError()'
        )
        == 2
    )
    assert test_mul.evaluate('(host) => host.cell.getText()') == assignment.TEST_MUL.rstrip('\n')

    # `=` instead of `+=` passes the visible a * b test and fails the hidden x * x one.
    set_code(answer, assignment.ASSIGNING_MUL)
    run_all(page)
    assert score(page) == ('3', '5', '3 / 5 points')
    assert results(page)[0] == ('failed', '0 / 2 points ✗ A hidden test of this cell failed. Its code is not shown.')
    assert 'x * x' not in shown_text(page)
    # After a failed try, the answer's solution is offered, as in the exercises.
    answer.get_by_test_id('solution').click()
    expect(answer.locator('.solution')).to_contain_text('self.grad += other.data * out.grad')

    # The download is the student version: nbgrader's autograde restores the hidden test and agrees.
    saved = download_notebook(page, nbgrader_course / 'submitted' / 'from_source' / 'ps1' / 'assignment.ipynb')
    assert ''.join(saved['cells'][1]['source']) == assignment.ASSIGNING_MUL
    assert ''.join(saved['cells'][2]['source']) == assignment.TEST_MUL.rstrip('\n')
    assert 'SOLUTION' not in json.dumps(saved) and 'HIDDEN' not in json.dumps(saved)
    # nbgrader's metadata as generate_assignment writes it: Jupyter keeps the tests locked too.
    release = json.loads((nbgrader_course / 'release' / 'ps1' / 'assignment.ipynb').read_text())
    for mine, theirs in zip(saved['cells'], release['cells']):
        theirs['metadata'].get('nbgrader', {}).pop('checksum', None)
        assert (mine['id'], mine['metadata']) == (theirs['id'], theirs['metadata'])
    assert autograde(nbgrader_course, 'from_source')['from_source'] == 3.0
