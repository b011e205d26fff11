"""Teaching views end to end: step through backward, check gradients, live charts, grouped and text views."""

import re

import pytest
from playwright.sync_api import expect

from scalargrad import Value
from scalargrad.graph import format_number, trace
from support import wait_until
from support.learners import A_PLUS_A
from support.pages import load_example, run, type_program

pytestmark = pytest.mark.usefixtures('site')


def node(graph, label):
    """The record of the value labelled `label` (its first field is the label)."""
    return graph.locator('g.node').filter(has=graph.page.locator('text', has_text=re.compile(f'^{re.escape(label)}$')))


def test_stepping_the_neuron_gives_the_tutorials_grads_in_its_order(playground):
    load_example(playground, 'neuron.py')
    section = run(playground)
    graph = section.locator('svg').first
    section.get_by_role('button', name=re.compile('^Step through backward')).click()
    narration = section.locator('.graph-narration')
    expect(narration).to_contain_text('o.grad = 1.0')
    expect(node(graph, 'n')).to_contain_text('grad 0.0000')
    expect(node(graph, 'x1')).to_contain_text('grad 0.0000')
    step = section.get_by_role('button', name='Step', exact=True)
    step.click()
    expect(narration).to_contain_text('o._backward(): tanh sends 0.5 to n')
    expect(narration.locator('code').first).to_have_text('o._backward()')
    expect(node(graph, 'n')).to_contain_text('grad 0.5000')
    expect(graph.locator('g.step-current')).to_contain_text('o')
    seen = []
    while step.is_enabled():
        step.click()
        seen.append(narration.text_content())
    assert seen[0].startswith('Step 2: n._backward()')
    expected = {
        'x1': '-1.5000',
        'w1': '1.0000',
        'x2': '0.5000',
        'w2': '0.0000',
        'b': '0.5000',
        'n': '0.5000',
        'o': '1.0000',
    }
    for label, grad in expected.items():
        expect(node(graph, label)).to_contain_text(f'grad {grad}')
    section.get_by_role('button', name='Step back').click()
    section.get_by_role('button', name='Step back').click()
    expect(node(graph, 'x1')).to_contain_text('grad 0.0000')  # x1*w1's step, the last but one, is undone
    section.get_by_role('button', name='Reset the steps').click()
    expect(node(graph, 'n')).to_contain_text('grad 0.0000')
    section.get_by_role('button', name=re.compile('^Close the stepper')).click()
    expect(node(graph, 'x1')).to_contain_text('grad -1.5000')


def test_the_keyboard_steps_too(playground):
    load_example(playground, 'neuron.py')
    section = run(playground)
    section.get_by_role('button', name=re.compile('^Step through backward')).click()
    playground.keyboard.press('ArrowRight')
    expect(section.locator('.graph-narration')).to_contain_text('Step 1')
    playground.keyboard.press('ArrowLeft')
    expect(section.locator('.graph-narration')).to_contain_text('Start')


def test_the_gradient_check_flags_a_for_the_seed_class_and_nothing_for_the_built_in_value(playground):
    type_program(playground, A_PLUS_A)
    section = run(playground)
    section.get_by_role('button', name=re.compile('^Check gradients')).click()
    expect(section.locator('.graph-narration')).to_contain_text('a.grad is 1.0000, expected 2.0000')
    expect(section.locator('.graph-narration')).to_contain_text('a is used 2 times')
    marked = section.locator('svg g.wrong-grad')
    expect(marked).to_have_count(1)
    expect(marked).to_contain_text('a')

    type_program(playground, "a = Value(3.0, label='a')\nb = a + a; b.label = 'b'\nb.backward()\ndraw_dot(b)\n")
    section = run(playground)
    section.get_by_role('button', name=re.compile('^Check gradients')).click()
    expect(section.locator('.graph-narration')).to_contain_text('All 2 grads agree')
    expect(section.locator('svg g.wrong-grad')).to_have_count(0)


def test_on_a_narrow_screen_the_checked_graph_is_drawn_top_to_bottom_too(playground):
    size = playground.viewport_size
    playground.set_viewport_size({'width': 600, 'height': 900})
    type_program(playground, A_PLUS_A)
    section = run(playground)
    graph = section.locator('svg').first
    for drawing in ('first', 'checked'):
        expect(node(graph, 'b')).to_be_visible()
        a, b = node(graph, 'a').bounding_box(), node(graph, 'b').bounding_box()
        assert b['y'] > a['y'] + a['height'], f"the {drawing} drawing is not top to bottom: a {a}, b {b}"
        if drawing == 'first':
            section.get_by_role('button', name=re.compile('^Check gradients')).click()
            expect(section.locator('svg g.wrong-grad')).to_have_count(1)
    playground.set_viewport_size(size)  # the file's other tests share this page


def test_a_small_graph_too_wide_to_read_whole_stacks_its_records_and_one_that_fits_keeps_them_in_a_row(playground):
    # At this width the neuron, left to right with each record's fields in a row, would be drawn below a
    # readable scale: its records are stacked instead (a label above its data and grad). Two values fit.
    size = playground.viewport_size
    playground.set_viewport_size({'width': 1280, 'height': 800})
    for program, label, stacked in [
        ('neuron.py', 'o', True),
        ("a = Value(3.0, label='a')\nb = a * 2.0; b.label = 'b'\ndraw_dot(b)\n", 'b', False),
    ]:
        if stacked:
            load_example(playground, program)
        else:
            type_program(playground, program)
        graph = run(playground).locator('svg').first
        record = node(graph, label)
        expect(record).to_contain_text('data')
        name, data = record.locator('text').nth(0).bounding_box(), record.locator('text').nth(1).bounding_box()
        assert (data['y'] >= name['y'] + name['height']) == stacked, f"{program}: {name} then {data}"
    playground.set_viewport_size(size)


def test_after_the_window_narrows_a_graph_is_fitted_to_its_panel_as_it_is_now(playground):
    # A graph is fitted to its panel's width as it is when the graph is drawn: the neuron drawn wide keeps its
    # records' fields in a row, and drawn again at 1280 px (where it is stacked: the test above) is fitted to the
    # narrower panel, not to the width it had before (a width kept from the first graph would be).
    size = playground.viewport_size

    def stacked():
        load_example(playground, 'neuron.py')
        record = node(run(playground).locator('svg').first, 'o')
        expect(record).to_contain_text('data')
        name, data = record.locator('text').nth(0).bounding_box(), record.locator('text').nth(1).bounding_box()
        return data['y'] >= name['y'] + name['height']

    try:
        playground.set_viewport_size({'width': 2400, 'height': 900})
        assert not stacked()
        playground.set_viewport_size({'width': 1280, 'height': 800})
        assert stacked()
    finally:
        playground.set_viewport_size(size)  # the file's other tests share this page


def test_charts_get_points_while_training_runs_and_keep_them_after_stop(playground):
    type_program(
        playground,
        '''import time
for k in range(100000):
    plot(step=k, loss=1 / (k + 1), accuracy=min(1, k / 50))
    time.sleep(0.01)
''',
    )
    playground.get_by_test_id('run').click()
    chart = playground.get_by_test_id('output').get_by_test_id('chart')
    expect(chart).to_have_count(1)
    expect(chart.locator('svg').first).to_be_visible()
    wait_until(playground, "Number(document.querySelector('[data-testid=chart]').dataset.points) > 20")
    assert playground.get_by_test_id('status').get_attribute('data-state') == 'running'
    playground.get_by_test_id('stop').click()
    expect(playground.get_by_test_id('status')).to_have_attribute('data-state', 'ready')
    points = int(chart.get_attribute('data-points'))
    assert points > 20
    expect(chart.locator('svg')).to_have_count(2)  # loss and accuracy, kept after Stop


def test_the_moons_example_draws_both_charts_and_a_grouped_network(playground):
    load_example(playground, 'moons-mlp.py')
    section = run(playground)
    charts = section.get_by_test_id('chart')
    expect(charts).to_have_count(2)
    expect(section.locator('[data-chart=boundary] svg')).to_be_visible()
    grouped = section.locator('figure.graph-card').filter(has=playground.get_by_role('button', name='By neuron'))
    expect(grouped).to_have_count(1)
    expect(grouped.get_by_role('button', name='By neuron')).to_have_attribute('aria-pressed', 'true')  # 979 values
    grouped.get_by_role('button', name='Full graph').click()
    expect(grouped.locator('svg g.node').nth(979)).to_be_attached(timeout=30_000)  # every value and op
    grouped.get_by_role('button', name='By neuron').click()
    expect(grouped.locator('svg')).to_contain_text('neuron')
    nodes = grouped.locator('svg g.node').count()
    assert 30 < nodes < 100, nodes
    for layer in (1, 2):  # top to bottom in their order, as the code numbers them
        boxes = grouped.locator(f'svg g.node[id^="L{layer}_n"]')
        expect(boxes).to_have_count(16)
        tops = {int(box.get_attribute('id').split('_n')[1]): box.bounding_box()['y'] for box in boxes.all()}
        assert sorted(tops, key=tops.get) == list(range(1, 17)), tops
    grouped.get_by_role('button', name='By layer').click()
    expect(grouped.locator('svg')).to_contain_text('layer 2')


def test_the_text_view_matches_the_graph(playground):
    load_example(playground, 'neuron.py')
    section = run(playground)
    section.get_by_role('button', name=re.compile('^Show the nodes as a table')).click()
    table = section.get_by_test_id('graph-table')
    rows = table.locator('tr').all_inner_texts()[1:]
    graph = section.locator('svg').first
    assert len(rows) == 10
    for row in rows:
        label, op, data, grad = row.split('\t')
        expect(node(graph, label)).to_contain_text(f'data {data}')
        expect(node(graph, label)).to_contain_text(f'grad {grad}')


def test_the_neuron_fits_its_panel_on_a_1400_px_window(playground):
    page, size = playground, playground.viewport_size
    page.set_viewport_size({'width': 1400, 'height': 900})
    try:
        load_example(page, 'neuron.py')
        section = run(page)
        view = section.locator('.graph-view').bounding_box()
        for label in ['o', 'x1', 'w2', 'b']:
            box = node(section.locator('svg').first, label).bounding_box()
            assert box['x'] >= view['x'] - 1 and box['x'] + box['width'] <= view['x'] + view['width'] + 1, label
            assert box['y'] >= view['y'] - 1 and box['y'] + box['height'] <= view['y'] + view['height'] + 1, label
    finally:
        page.set_viewport_size(size)  # the worker's other tests share this page


BIG_CHAIN = (
    "y = Value(1.0, label='y')\nfor i in range(999):\n    y = y * 1.0001\ny.label = 'out'\ny.backward()\ndraw_dot(y)\n"
)


def test_a_2000_value_graph_draws_every_value_and_its_teaching_tools_work(playground):
    """Issue 18's chain: laid out the quick way and with its text attributes said once, it is still whole."""
    space = {'Value': Value, 'draw_dot': lambda root: None}
    exec(BIG_CHAIN, space)  # the same program in CPython gives the values the page must draw
    y = space['y']
    nodes, _ = trace(y)
    expected = {
        f'v{i}': [n.label, f'data {format_number(n.data)}', f'grad {format_number(n.grad)}']
        for i, n in enumerate(nodes)
    }

    type_program(playground, BIG_CHAIN)
    section = run(playground)
    expect(section.locator('.graph-size')).to_have_text('1,999 values')
    graph = section.locator('svg').first
    drawn = graph.locator('g.node').evaluate_all(
        "gs => gs.map(g => [g.id, [...g.querySelectorAll('text')].map(t => t.textContent.trim())])"
    )
    records = {id_: texts for id_, texts in drawn if not id_.endswith('_op')}
    assert len(records) == 1999 and len(drawn) == 1999 + 999
    assert records == expected  # an empty field (no label) is drawn as a space
    # The font and anchor Graphviz wrote on every <text> now come from the graph's group.
    assert graph.locator('g.graph').first.get_attribute('font-size') == '12.00'
    assert graph.locator('text[font-size]').count() == 0
    style = graph.locator('g.node text').last.evaluate(
        "t => [getComputedStyle(t).fontSize, getComputedStyle(t).fontFamily, getComputedStyle(t).textAnchor]"
    )
    assert style[0] == '12px' and style[1].startswith('Helvetica') and style[2] == 'middle'

    section.get_by_role('button', name=re.compile('^Show the nodes as a table')).click()
    rows = section.get_by_test_id('graph-table').locator('tr')
    expect(rows).to_have_count(1 + 1999)
    expect(rows.last.locator('td')).to_have_text(['out', '*', format_number(y.data), '1.0000'])
    section.get_by_role('button', name=re.compile('^Step through forward')).click()
    section.get_by_role('button', name='Step', exact=True).click()
    expect(section.locator('.graph-narration')).to_contain_text('Step 1: a value = * of its inputs = 1.0001')


NETWORK = """random.seed(0)
model = MLP(3, [8, 8, 1])
xs = [[random.uniform(-1, 1) for _ in range(3)] for _ in range(20)]
loss = sum(((model(x) - 1.0) ** 2 for x in xs), Value(0.0))
loss.backward()
draw_dot(loss)
"""


def test_a_network_opens_grouped_drawn_as_its_by_neuron_button_draws_it(playground):
    """A 4,834-value network opens on its neuron view (98 boxes): laid out as that view, not as 4,834 values."""
    type_program(playground, NETWORK)
    section = run(playground)
    card = section.locator('figure.graph-card')
    expect(card.get_by_role('button', name='By neuron')).to_have_attribute('aria-pressed', 'true')
    drawing = card.locator('svg g.graph')  # its transform holds the layout's height
    opened = drawing.get_attribute('transform')
    card.get_by_role('button', name='By layer').click()
    expect(card.get_by_role('button', name='By layer')).to_have_attribute('aria-pressed', 'true')
    card.get_by_role('button', name='By neuron').click()
    expect(card.get_by_role('button', name='By neuron')).to_have_attribute('aria-pressed', 'true')
    expect(drawing).to_have_attribute('transform', opened)
