"""Predict, then reveal (web/output/quiz.js): Quiz me hides the grads of the inputs (or the data, or the values
picked), Check marks each prediction right or wrong to 4 significant digits and shows the arithmetic of the
wrong ones; authors start a cell or an exercise in quiz mode (data-quiz, `# quiz`, `# exercise: ID quiz`)."""

import re

import pytest
from playwright.sync_api import expect

from support.pages import article, cells, load_example, open_notebook, press_run, run, run_cell

pytestmark = pytest.mark.usefixtures('site')

NEURON_GRADS = {'x1': '-1.5', 'w1': '1', 'x2': '0.5', 'w2': '0', 'b': '0.5'}  # the tutorial's


def value(graph, label):
    return graph.locator('g.node').filter(has=graph.page.locator('text', has_text=re.compile(f'^{re.escape(label)}$')))


def predictions(section):
    """{name: its input} of the open quiz, from the label before each input (`x1.grad =`)."""
    items = section.get_by_test_id('quiz-panel').locator('.quiz-item')
    return {
        item.locator('.quiz-name').text_content().split('.')[0]: item.get_by_test_id('prediction')
        for item in items.all()
    }


def test_quiz_me_hides_the_inputs_grads_and_check_marks_each_prediction(playground):
    load_example(playground, 'neuron.py')
    section = run(playground)
    graph = section.locator('svg').first
    section.get_by_test_id('quiz').click()
    inputs = predictions(section)
    assert sorted(inputs) == sorted(NEURON_GRADS)
    for label in NEURON_GRADS:
        expect(value(graph, label)).to_contain_text('grad ?')
    expect(value(graph, 'n')).to_contain_text('grad 0.5000')  # only the quizzed values are hidden
    expect(
        section.get_by_role('button', name=re.compile('^Show the nodes as a table'))
    ).to_be_disabled()  # it would tell
    for label, grad in NEURON_GRADS.items():
        inputs[label].fill(grad)
    inputs['w1'].fill('-1')  # one wrong
    section.get_by_test_id('quiz-check').click()
    for label, field in inputs.items():
        expect(field).to_have_attribute('data-state', 'wrong' if label == 'w1' else 'right')
        expect(value(graph, label)).not_to_contain_text('grad ?')  # revealed
    wrong = section.locator('.quiz-item[data-state="wrong"]')
    expect(wrong).to_have_count(1)
    expect(wrong.locator('.quiz-answer')).to_have_text('✗ not quite: it is 1.0000')
    # A screen reader says each input's mark with it: the input is described by its answer.
    expect(inputs['w1']).to_have_accessible_description('✗ not quite: it is 1.0000')
    expect(inputs['x1']).to_have_accessible_description('✓ right: -1.5000')
    expect(section.get_by_role('status').filter(has_text='4 of 5 right')).to_have_count(1)  # said once, politely
    expect(wrong.locator('.explain-sum')).to_have_text('w1.grad = ∂x1w1/∂w1 · x1w1.grad = (2.0000)(0.5000) = 1.0000')
    expect(wrong.get_by_test_id('grad-term')).to_have_count(1)
    expect(section.locator('.quiz-item[data-state="right"] .explain-body')).to_have_count(0)  # only the wrong ones
    expect(section.locator('.quiz-score')).to_have_text(
        '4 of 5 right. The arithmetic of each wrong one is shown under it.'
    )
    section.get_by_role('button', name=re.compile('^Close quiz')).click()
    expect(section.get_by_test_id('quiz-panel')).to_be_hidden()
    expect(section.get_by_role('button', name=re.compile('^Show the nodes as a table'))).to_be_enabled()


def test_data_to_4_significant_digits_and_values_picked_in_the_graph(playground):
    load_example(playground, 'neuron.py')
    section = run(playground)
    graph = section.locator('svg').first
    section.get_by_test_id('quiz').click()
    panel = section.get_by_test_id('quiz-panel')
    panel.get_by_test_id('quiz-field').select_option('data')
    panel.get_by_test_id('quiz-which').select_option('picked')
    expect(panel.get_by_test_id('prediction')).to_have_count(0)
    value(graph, 'o').click()  # picking, not explaining, while the quiz picks
    value(graph, 'n').click()
    value(graph, 'x1').click()
    value(graph, 'x1').click()  # again: out
    expect(section.get_by_test_id('node-explain')).to_be_hidden()
    inputs = predictions(section)
    assert list(inputs) == ['o', 'n']
    expect(value(graph, 'o')).to_contain_text('data ?')
    inputs['o'].fill('0.7071')  # 0.70710678...: right to 4 significant digits
    inputs['n'].fill('0.881')  # 0.88137...: 0.8810 is not 0.8814
    section.get_by_test_id('quiz-check').click()
    expect(inputs['o']).to_have_attribute('data-state', 'right')
    expect(inputs['n']).to_have_attribute('data-state', 'wrong')
    expect(section.locator('.quiz-item[data-state="wrong"] .explain-forward')).to_have_text(
        'n.data = x1w1x2w2.data + b.data = -6.0000 + 6.8814 = 0.8814'
    )
    panel.get_by_role('button', name=re.compile('^Try again')).click()
    expect(inputs['n']).to_have_attribute('data-state', 'pending')
    expect(value(graph, 'n')).to_contain_text('data ?')


ARTICLE = '''<h1>Quiz</h1>
<pre data-playground data-quiz>a = Value(2.0, label='a'); b = Value(-3.0, label='b')
c = a * b; c.label = 'c'
c.backward()
draw_dot(c)</pre>
<pre data-playground data-quiz="data">d = Value(1.5, label='d'); e = d * d; e.label = 'e'
e.backward()
draw_dot(e)</pre>
<pre><code class="language-python"># quiz: grad: c
c2 = Value(4.0, label='c2'); c = c2 * 2; c.label = 'c'
c.backward()
draw_dot(c)</code></pre>
<script type="module" src="{site}embed.js?lang=python"></script>'''


def test_an_author_starts_cells_in_quiz_mode(page, site_url, other_origin):
    page.goto(article(other_origin, 'quiz.html', ARTICLE.replace('{site}', site_url)))
    expect(cells(page)).to_have_count(3)
    first = press_run(cells(page).nth(0))
    expect(first.get_by_test_id('quiz-panel')).to_be_visible()
    assert sorted(predictions(first)) == ['a', 'b']
    expect(first.locator('svg').first).to_contain_text('grad ?')
    second = press_run(cells(page).nth(1))
    assert list(predictions(second)) == ['e']
    expect(second.get_by_test_id('quiz-panel').get_by_test_id('quiz-field')).to_have_value('data')
    third = press_run(cells(page).nth(2))
    assert list(predictions(third)) == ['c']  # the labels the marker names, its grad
    expect(cells(page).nth(2).locator('.cm-content')).not_to_contain_text('# quiz')  # the marker is not code


def test_an_exercise_marked_quiz_opens_its_graphs_in_quiz_mode(page, site_url, other_origin):
    lesson = '''<pre><code class="language-python"># exercise: twice quiz
a = Value(3.0, label='a')
b = a + a; b.label = 'b'
b.backward()
draw_dot(b)</code></pre>
<pre><code class="language-python"># checks: twice
expect(b.data == 6.0, "b should be 6")</code></pre>
<script type="module" src="{site}embed.js?lang=python"></script>'''.replace('{site}', site_url)
    page.goto(article(other_origin, 'quiz-exercise.html', lesson))
    box = page.get_by_test_id('exercise')
    box.get_by_test_id('run').click()
    expect(box.get_by_test_id('result')).to_have_attribute('data-state', 'passed', timeout=90_000)
    inputs = predictions(box)
    assert list(inputs) == ['a']
    inputs['a'].fill('2')
    box.get_by_test_id('quiz-check').click()
    expect(inputs['a']).to_have_attribute('data-state', 'right')


def test_a_lessons_quiz_cell_in_a_notebook(page, site_url, tmp_path):
    lesson = tmp_path / 'quiz-lesson.md'
    lesson.write_text(
        "# A quiz\n\n```python\n# quiz\nx = Value(2.0, label='x')\ny = x * x; y.label = 'y'\ny.backward()\ndraw_dot(y)\n```\n"
    )
    open_notebook(page, site_url, lesson, 1)
    cell = cells(page).first
    section = run_cell(cell)
    inputs = predictions(section)
    assert list(inputs) == ['x']
    inputs['x'].fill('3')
    section.get_by_test_id('quiz-check').click()
    expect(inputs['x']).to_have_attribute('data-state', 'wrong')
    expect(section.locator('.quiz-item .explain-sum')).to_contain_text('= (2.0000)(1.0000) + (2.0000)(1.0000) = 4.0000')
