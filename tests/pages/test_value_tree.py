"""The graph as a tree a screen reader walks (issue 46, web/output/value-tree.js): read through Chromium's
accessibility tree (Playwright's aria snapshots) and driven by the keyboard alone, on the shared playground."""

import re
import time

import pytest
from playwright.sync_api import expect

from support.explain import USED_TWICE, neuron_training
from support.pages import assert_accessible_in_both_schemes, load_example, run, type_program

pytestmark = pytest.mark.usefixtures('site')

X1 = 'x1 · data 2.0000 · grad -1.5000 · an input · used by x1*w1'

# The neuron's tree once the keyboard has walked from o down to x1: each value's label, data and grad, how it
# was made, and its user; the inputs of a value follow it, a level deeper (ARIA's tree as one list, with levels).
WALKED_TO_X1 = f"""
- 'tree "The values of the graph, from o: each opens to its inputs"':
  - treeitem "o · data 0.7071 · grad 1.0000 · o = tanh(n)" [expanded] [level=1]
  - treeitem "n · data 0.8814 · grad 0.5000 · n = (x1*w1 + x2*w2) + b · used by o" [expanded] [level=2]
  - treeitem "x1*w1 + x2*w2 · data -6.0000 · grad 0.5000 · x1*w1 + x2*w2 = x1*w1 + x2*w2 · used by n" [expanded] [level=3]
  - treeitem "x1*w1 · data -6.0000 · grad 0.5000 · x1*w1 = x1 × w1 · used by x1*w1 + x2*w2" [expanded] [level=4]
  - treeitem "{X1}" [level=5]
  - treeitem "w1 · data -3.0000 · grad 1.0000 · an input · used by x1*w1" [level=5]
  - treeitem "x2*w2 · data 0.0000 · grad 0.5000 · x2*w2 = x2 × w2 · used by x1*w1 + x2*w2" [level=4]
  - treeitem "b · data 6.8814 · grad 0.5000 · an input · used by n" [level=3]
"""


def focused_name(page):
    """The focused tree item's name: its own words (its mark, ▸ or ▾, is hidden from assistive technology)."""
    return page.evaluate("document.activeElement.querySelector('.value-name')?.textContent")


def test_after_a_run_of_the_neuron_the_keyboard_walks_from_o_to_x1_opens_its_arithmetic_and_comes_back(playground):
    load_example(playground, 'neuron.py')
    section = run(playground)
    card = section.locator('figure.graph-card')
    tree = card.get_by_role('tree')
    expect(tree).to_match_aria_snapshot(
        '- \'tree "The values of the graph, from o: each opens to its inputs"\':\n'
        '  - treeitem "o · data 0.7071 · grad 1.0000 · o = tanh(n)" [level=1]'
    )
    expect(card).to_have_accessible_name('Graph of o · 10 values')  # not its tools' names too
    # The drawing reads as a group of its values' buttons, not as an image whose children may be skipped
    drawing = card.get_by_role('group', name='The drawing of the graph', exact=True)
    expect(drawing.get_by_role('button', name='x1 data 2.0000 grad -1.5000')).to_have_count(1)
    card.locator('svg g.node.root').focus()  # the drawing's own tab stop; the tree is the next one
    playground.keyboard.press('Tab')
    assert focused_name(playground) == 'o · data 0.7071 · grad 1.0000 · o = tanh(n)'
    expect(card.locator('svg g.node.walked')).to_have_class(
        re.compile(r'\broot\b')
    )  # a sighted keyboard user sees where
    for _ in range(4):
        playground.keyboard.press('ArrowRight')  # open a value, then go to its first input
        playground.keyboard.press('ArrowRight')
    assert focused_name(playground) == X1
    expect(tree).to_match_aria_snapshot(WALKED_TO_X1)
    walked = card.locator('svg g.node.walked')
    expect(walked).to_have_count(1)
    expect(walked).to_contain_text('x1data 2.0000grad -1.5000')
    assert_accessible_in_both_schemes(playground, 'the main page with the tree of values open')

    playground.keyboard.press('Enter')
    panel = card.get_by_test_id('node-explain')
    expect(panel).to_be_visible()
    expect(panel.locator('.explain-title')).to_be_focused()
    expect(panel).to_contain_text('x1 is an input')
    playground.keyboard.press('Escape')
    expect(panel).to_be_hidden()
    expect(card.get_by_role('treeitem', name=X1, exact=True)).to_be_focused()

    playground.keyboard.press('ArrowLeft')  # back to its user
    assert focused_name(playground).startswith('x1*w1 · ')
    playground.keyboard.press('ArrowLeft')  # and that closes it
    expect(card.get_by_role('treeitem', name=X1, exact=True)).to_be_hidden()
    playground.keyboard.press('ArrowDown')
    assert focused_name(playground).startswith('x2*w2 · ')
    playground.keyboard.press('End')
    assert focused_name(playground).startswith('b · ')
    playground.keyboard.press('Home')
    assert focused_name(playground).startswith('o · ')
    expect(card.locator('[role="treeitem"][tabindex="0"]')).to_have_count(1)  # one tab stop

    card.get_by_test_id('quiz').click()  # the tree would say what the quiz hides
    expect(tree).to_be_hidden()


def test_a_value_used_twice_says_so_and_a_click_on_its_box_brings_the_tree_there(playground):
    type_program(playground, USED_TWICE)
    section = run(playground)
    card = section.locator('figure.graph-card')
    a = card.locator('svg g.node').filter(has=playground.locator('text', has_text=re.compile('^a$')))
    a.click()
    expect(card.get_by_test_id('node-explain')).to_be_visible()
    item = card.locator('[role="treeitem"][tabindex="0"]')
    expect(item).to_have_accessible_name('a · data 2.0000 · grad 10.0000 · an input · used 2 times, by e, f')
    expect(item).to_have_attribute('aria-level', '4')  # L, then e*g, then e: the first way from L to a
    item.focus()
    expect(card.locator('svg g.node.walked text').first).to_have_text('a')


LIVE = neuron_training(steps=150, pause=0.02)


def test_a_live_graph_s_last_drawing_keeps_the_tree_where_the_keyboard_was(playground):
    type_program(playground, LIVE)
    playground.get_by_test_id('run').click()
    card = playground.get_by_test_id('output').locator('figure.graph-card')
    expect(card.get_by_role('tree')).to_have_count(1, timeout=10_000)
    expect(playground.get_by_test_id('status')).to_have_attribute('data-state', 'running')
    card.locator('[role="treeitem"][tabindex="0"]').focus()
    playground.keyboard.press('ArrowRight')
    playground.keyboard.press('ArrowRight')  # loss's input: out - 0.5
    walked = card.locator('[role="treeitem"][tabindex="0"]')
    expect(walked).to_have_attribute('aria-level', '2')
    expect(playground.get_by_test_id('status')).to_have_attribute('data-state', 'ready', timeout=30_000)
    item = card.locator('[role="treeitem"][tabindex="0"]')  # in the tree of the last drawing
    expect(item).to_have_attribute('aria-level', '2')
    expect(item).to_be_focused()
    expect(card.locator('[role="treeitem"]')).to_have_count(2)  # loss, open, and its one input (out - 0.5)


# Records in the page each new name the card's tree items get: when (performance.now()), and whether the item
# had the focus, which is the name a screen reader speaks as it changes (an item's name is its .value-name).
RECORD_RENAMES = """(card) => {
  const renames = [];
  const observer = new MutationObserver((records) => {
    for (const record of records) {
      if (!record.target.matches('.value-name')) continue;
      const li = record.target.closest('[role="treeitem"]');
      renames.push({at: performance.now(), focused: li === document.activeElement});
    }
  });
  observer.observe(card, {subtree: true, childList: true});
  window.treeRenames = {renames, stop: () => { observer.disconnect(); delete window.treeRenames; }};
}"""


def renames(page, since=0, focused=True):
    return page.evaluate(
        '([since, focused]) => window.treeRenames.renames.filter((r) => r.at > since && r.focused === focused)',
        [since, focused],
    )


def test_a_live_graph_renames_the_focused_value_at_most_once_a_second_and_not_while_a_key_is_down(playground):
    type_program(playground, neuron_training(pause=0.02))
    playground.get_by_test_id('run').click()
    card = playground.get_by_test_id('output').locator('figure.graph-card')
    expect(card.get_by_role('tree')).to_have_count(1, timeout=10_000)
    card.locator('[role="treeitem"][tabindex="0"]').focus()  # loss
    playground.keyboard.press('ArrowRight')  # loss opens: its input, out - 0.5, shows under it
    card.evaluate(RECORD_RENAMES)
    playground.wait_for_timeout(3500)
    focused = renames(playground)
    assert len(focused) >= 2, focused  # it follows the numbers
    gaps = [later['at'] - earlier['at'] for earlier, later in zip(focused, focused[1:])]
    assert min(gaps) >= 990, gaps
    assert len(renames(playground, focused=False)) > len(focused)  # the item not focused follows each update

    playground.keyboard.down('Shift')
    held = playground.evaluate('performance.now()')
    playground.wait_for_timeout(2000)
    assert renames(playground, since=held) == []
    assert len(renames(playground, since=held, focused=False)) >= 2  # the numbers went on changing
    let_go = playground.evaluate('performance.now()')
    playground.keyboard.up('Shift')
    deadline = time.monotonic() + 5
    while not renames(playground, since=let_go) and time.monotonic() < deadline:
        playground.wait_for_timeout(50)
    assert renames(playground, since=let_go), 'the focused item caught up once the key was up'

    playground.evaluate('window.treeRenames.stop()')
    playground.get_by_test_id('stop').click()
    expect(playground.get_by_test_id('status')).to_have_attribute('data-state', 'ready', timeout=30_000)


GROUPED = """import random
random.seed(1)
from scalargrad.nn import MLP
model = MLP(2, [2, 1])
out = model([Value(1.0, label='x0'), Value(-1.0, label='x1')])
loss = (out - 1.0) ** 2; loss.label = 'loss'
loss.backward()
draw_dot(loss)
"""

# The boxes, then what the view draws on its own (the inputs, the loss and its parts), in the drawing's order.
BY_NEURON = """
- 'tree "The graph by its boxes: each opens to the values it holds"':
  - treeitem "layer 2 · neuron 1 · 7 values · its output L2.n1 · data -0.1028 · grad -2.2056" [level=1]
  - treeitem "layer 1 · neuron 1 · 8 values · its output L1.n1 · data 0.0000 · grad 0.0201" [level=1]
  - treeitem "layer 1 · neuron 2 · 8 values · its output L1.n2 · data 1.0174 · grad 0.2228" [level=1]
  - treeitem "x0 · data 1.0000 · grad 0.1175 · an input · used 2 times, by v5, v17" [level=1]
  - treeitem "x1 · data -1.0000 · grad -0.1091 · an input · used 2 times, by v9, v20" [level=1]
  - treeitem "v25 · data -1.0000 · grad -2.2056 · an input · used by v26" [level=1]
  - treeitem "v26 · data -1.1028 · grad -2.2056 · v26 = L2.n1 + v25 · used by loss" [level=1]
  - treeitem "loss · data 1.2161 · grad 1.0000 · loss = v26 ** 2" [level=1]
"""


def test_a_grouped_view_s_tree_starts_at_its_neurons_and_each_opens_to_its_values(playground):
    type_program(playground, GROUPED)
    card = run(playground).locator('figure.graph-card')
    card.get_by_role('button', name='By neuron').click()
    tree = card.get_by_role('tree')
    expect(tree).to_match_aria_snapshot(BY_NEURON)  # in the drawing's order
    card.locator('[role="treeitem"][tabindex="0"]').focus()
    walked = card.locator('svg g.node.walked')
    expect(walked).to_have_count(1)
    expect(walked).to_contain_text('layer 2 · neuron 1')
    playground.keyboard.press('ArrowRight')  # the neuron opens to its values
    expect(card.locator('[role="treeitem"][aria-level="2"]')).to_have_count(7)
    playground.keyboard.press('ArrowRight')
    assert focused_name(playground) == 'L2.n1.b · data 0.0000 · grad -2.2056 · an input · used by v13'
    expect(walked).to_contain_text('layer 2 · neuron 1')  # the box that holds it
    playground.keyboard.press('Enter')
    panel = card.get_by_test_id('node-explain')
    expect(panel).to_contain_text('L2.n1.b is an input')
    playground.keyboard.press('Escape')
    expect(card.get_by_role('treeitem', name=re.compile('^L2.n1.b · '))).to_be_focused()
    playground.keyboard.press('ArrowLeft')  # back to its neuron
    playground.keyboard.press('Enter')
    expect(panel).to_contain_text('7 values, inputs first')

    playground.keyboard.press('Escape')
    # Picked in the drawing (by its keys: the drawing is wider than the view), the loss is where the tree goes
    card.locator('svg g.node').filter(has=playground.locator('text', has_text=re.compile('^loss$'))).focus()
    playground.keyboard.press('Enter')
    expect(card.locator('[role="treeitem"][tabindex="0"]')).to_have_accessible_name(re.compile('^loss · '))

    card.get_by_role('button', name='Full graph').click()
    expect(tree).to_match_aria_snapshot(
        '- \'tree "The values of the graph, from loss: each opens to its inputs"\':\n'
        '  - treeitem "loss · data 1.2161 · grad 1.0000 · loss = v26 ** 2" [level=1]'
    )
