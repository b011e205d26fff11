"""Click a value, see its arithmetic (web/output/node-explain.js): forward from its operands, backward as the sum
over its uses, the `=` bug named, the seed, an op it does not know; with the keyboard; in grouped views, article
cells, exercises and notebooks."""

import re

import pytest
from playwright.sync_api import expect

from support.course import mutate
from support.explain import USED_TWICE
from support.learners import A_PLUS_A, SEED_VALUE
from support.pages import cells, check, exercise, load_example, press_run, run, set_code, type_program

pytestmark = pytest.mark.usefixtures('site')


def value(graph, label):
    """The record of the value labelled `label` (its first field is the label)."""
    return graph.locator('g.node').filter(has=graph.page.locator('text', has_text=re.compile(f'^{re.escape(label)}$')))


def explain(section, label):
    value(section.locator('svg').first, label).click()
    panel = section.get_by_test_id('node-explain')
    expect(panel).to_be_visible()
    return panel


def test_a_value_used_twice_shows_its_forward_arithmetic_and_the_sum_over_its_uses(playground):
    type_program(playground, USED_TWICE)
    section = run(playground)
    panel = explain(section, 'e')
    expect(panel.locator('.explain-forward')).to_have_text('e.data = a.data × b.data = 2.0000 × -3.0000 = -6.0000')
    panel = explain(section, 'a')
    expect(panel.locator('.explain-forward')).to_contain_text('a is an input: its data, 2.0000, was given')
    expect(panel.locator('.explain-sum')).to_have_text(
        'a.grad = ∂e/∂a · e.grad + ∂f/∂a · f.grad = (-3.0000)(-2.0000) + (1)(4.0000) = 10.0000'
    )
    terms = panel.get_by_test_id('grad-term')
    expect(terms).to_have_count(2)
    expect(terms.first).to_contain_text('∂e/∂a · e.grad = (-3.0000)(-2.0000) = 6.0000')
    expect(terms.first).to_contain_text('e = a × b, so ∂e/∂a = b.data = -3.0000')
    expect(terms.nth(1)).to_contain_text('∂f/∂a · f.grad = (1)(4.0000) = 4.0000')
    for term in terms.all():
        expect(term).to_have_attribute('data-state', 'ok')
    expect(panel.locator('.explain-verdict')).to_have_count(0)
    expect(section.locator('svg g.explained')).to_contain_text('a')  # the value it explains is marked
    panel.get_by_role('button', name='Explain f').click()  # its users are a click away
    expect(panel.locator('.explain-forward')).to_have_text('f.data = a.data + c.data = 2.0000 + 1.0000 = 3.0000')


def test_the_seed_class_that_assigns_with_equals_names_the_missing_use_of_a(playground):
    type_program(playground, A_PLUS_A)
    section = run(playground)
    panel = explain(section, 'a')
    expect(panel).to_have_attribute('data-state', 'mismatch')
    expect(panel.locator('.explain-sum')).to_contain_text(
        '= (1)(1.0000) + (1)(1.0000) = 2.0000, but a.grad holds 1.0000'
    )
    terms = panel.get_by_test_id('grad-term')
    expect(terms).to_have_count(2)
    expect(terms.nth(0)).to_have_attribute('data-state', 'ok')
    expect(terms.nth(1)).to_have_attribute('data-state', 'mismatch')
    verdict = panel.locator('.explain-verdict')
    expect(verdict).to_have_attribute('data-state', 'mismatch')
    expect(verdict).to_contain_text(
        'a.grad holds 1.0000, but its 2 uses add up to 2.0000: the contribution of its 2nd use (b, as its 2nd operand'
    )
    expect(verdict).to_contain_text('is missing')
    expect(verdict).to_contain_text('+=')

    # The same program with += explains the same sum and finds nothing missing.
    type_program(
        playground,
        A_PLUS_A.replace('self.grad = out.grad', 'self.grad += out.grad').replace(
            'other.grad = out.grad', 'other.grad += out.grad'
        ),
    )
    section = run(playground)
    panel = explain(section, 'a')
    expect(panel.locator('.explain-sum')).to_have_text(
        'a.grad = ∂b/∂a (1st operand) · b.grad + ∂b/∂a (2nd operand) · b.grad = (1)(1.0000) + (1)(1.0000) = 2.0000'
    )
    expect(panel.get_by_test_id('grad-term').and_(panel.locator('[data-state="mismatch"]'))).to_have_count(0)
    expect(panel).to_have_attribute('data-state', 'ok')


def test_the_output_shows_its_seed_and_an_op_it_does_not_know_is_said(playground):
    load_example(playground, 'neuron.py')
    section = run(playground)
    panel = explain(section, 'o')
    [seed] = panel.get_by_test_id('grad-term').all()
    expect(seed).to_have_attribute('data-kind', 'seed')
    expect(seed).to_contain_text('o.grad = 1.0000: the seed')
    expect(panel.locator('.explain-forward')).to_have_text('o.data = tanh(n.data) = tanh(0.8814) = 0.7071')
    panel = explain(section, 'n')
    expect(panel.get_by_test_id('grad-term')).to_contain_text('o = tanh(n), so ∂o/∂n = 1 − o.data² = 0.5000')

    type_program(
        playground,
        SEED_VALUE
        + '''
a = Value(4.0, label='a')
s = Value(a.data ** 0.5, (a,), 'sqrt'); s.label = 's'
s.grad = 1.0
a.grad = 0.25
draw_dot(s)
''',
    )
    section = run(playground)
    panel = explain(section, 's')
    expect(panel.locator('.explain-forward')).to_contain_text(
        's was made by the op "sqrt", which this explanation does not know'
    )
    panel = explain(section, 'a')
    expect(panel.get_by_test_id('grad-term')).to_have_attribute('data-state', 'unknown')
    expect(panel.locator('.explain-sum')).to_contain_text('the sum is not shown')


def test_the_keyboard_moves_between_values_opens_one_and_escape_gives_the_focus_back(playground):
    type_program(playground, USED_TWICE)
    section = run(playground)
    graph = section.locator('svg').first
    output = graph.locator('g.node.root')
    expect(output).to_have_attribute('tabindex', '0')  # the graph is one tab stop, on its output
    expect(graph.locator('g.node[tabindex="0"]')).to_have_count(1)
    expect(graph.get_by_role('button', name=re.compile('^L data 24.0000 grad 1.0000'))).to_have_count(
        1
    )  # a value reads as text
    output.focus()
    playwright = section.page
    for _ in range(2):
        playwright.keyboard.press('ArrowLeft')
    focused = playwright.evaluate('document.activeElement.id')
    playwright.keyboard.press('Enter')
    panel = section.get_by_test_id('node-explain')
    expect(panel).to_be_visible()
    expect(panel.locator('.explain-title')).to_be_focused()  # a screen reader reads it from there
    playwright.keyboard.press('Escape')
    expect(panel).to_be_hidden()
    assert playwright.evaluate('document.activeElement.id') == focused
    expect(playwright.get_by_test_id('status')).to_have_attribute(
        'data-state', 'ready'
    )  # Escape closed, stopped nothing


def test_a_neuron_opens_to_its_values_and_each_to_its_arithmetic(playground):
    load_example(playground, 'moons-mlp.py')
    section = run(playground)
    card = section.locator('figure.graph-card')
    card.locator('svg g.node#L1_n3').click()
    panel = card.get_by_test_id('node-explain')
    expect(panel.locator('.explain-title')).to_have_text('layer 1 · neuron 3')
    members = panel.locator('.explain-members button')
    expect(members).to_have_count(8)
    expect(members.first).to_contain_text('L1.n3.b')
    panel.get_by_role('button', name=re.compile('^Explain L1.n3.w1 ')).click()
    expect(panel.locator('.explain-title')).to_contain_text('L1.n3.w1')
    expect(panel.get_by_test_id('grad-term')).to_contain_text('x1')
    panel.get_by_role('button', name='Back to layer 1 · neuron 3').click()
    expect(members).to_have_count(8)


def test_in_an_article_cell(page, site_url):
    page.goto(site_url + 'article.html')
    section = press_run(cells(page).nth(3))  # b = a + a with the article's own class, whose _backward adds
    panel = explain(section, 'a')
    expect(panel.locator('.explain-sum')).to_have_text(
        'a.grad = ∂b/∂a (1st operand) · b.grad + ∂b/∂a (2nd operand) · b.grad = (1)(1.0000) + (1)(1.0000) = 2.0000'
    )
    expect(panel.get_by_test_id('grad-term')).to_have_count(2)


def test_in_a_failed_exercise_the_marked_grad_says_what_is_missing(course_page):
    box = exercise(course_page, 'mul-backward')
    plus = 'self.grad += other.data * out.grad\n            other.grad += self.data * out.grad'
    set_code(box, mutate('mul-backward', plus, plus.replace('+=', '=')))
    check(box, 'failed')
    output = box.get_by_test_id('output')
    output.locator('svg g.wrong-grad').first.click()
    panel = output.get_by_test_id('node-explain')
    expect(panel).to_have_attribute('data-state', 'mismatch')
    expect(panel.locator('.explain-verdict')).to_contain_text('+=')


HOSTILE = '<img src=x onerror="window.hacked=1"><b>bold</b>'


def test_a_hostile_label_shows_as_text_in_the_explanation_and_the_quiz(playground):
    type_program(
        playground, f"x = Value(2.0, label={HOSTILE!r})\ny = x * x; y.label = 'y'\ny.backward()\ndraw_dot(y)\n"
    )
    section = run(playground)
    panel = explain(section, HOSTILE)
    expect(panel.locator('.explain-title')).to_have_text(f'[{HOSTILE}] (label “{HOSTILE}”)')
    expect(panel.locator('.explain-sum')).to_contain_text(f'[{HOSTILE}].grad = ∂y/∂[{HOSTILE}] (1st operand) · y.grad')
    section.get_by_test_id('quiz').click()
    expect(section.get_by_test_id('quiz-panel').locator('.quiz-name')).to_have_text(f'[{HOSTILE}].grad =')
    expect(section.locator('img, .explain-body b, .quiz b')).to_have_count(0)
    assert playground.evaluate('window.hacked') is None


# A program can reach the runtime that computes the explanation (and the engine's op table it reads) and change
# them for its own run.
FORGERIES = {
    'a verdict': "ex.diagnose = lambda terms, held: {'kind': 'missing', 'uses': [0]}",
    'a local derivative': "import scalargrad.ops as ops\nops.LOCAL['*'] = lambda xs, y: [99.0] * len(xs)",
}


@pytest.mark.parametrize('forgery', FORGERIES.values(), ids=FORGERIES.keys())
def test_an_explanation_that_the_values_do_not_give_is_not_shown(playground, forgery):
    honest = "a = Value(2.0, label='a'); b = Value(-3.0, label='b')\nc = a * b + a; c.label = 'c'\nc.backward()\ndraw_dot(c)\n"
    type_program(playground, honest)
    expect(explain(run(playground), 'a').locator('.explain-sum')).to_contain_text('= -2.0000')  # -3 + 1
    type_program(playground, f"import playground_runtime.explain as ex\n{forgery}\n{honest}")
    section = run(playground)
    graph = section.locator('svg').first
    expect(graph.locator('g.node.root')).to_contain_text('grad 1.0000')  # the graph is drawn, its tools too
    value(graph, 'a').click()
    expect(section.get_by_test_id('node-explain')).to_have_count(0)  # but no explanation, and no quiz on it
    expect(section.get_by_test_id('quiz')).to_have_count(0)
    expect(section.get_by_role('button', name=re.compile('^Step through backward'))).to_be_visible()
