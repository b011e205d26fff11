"""The graph trains live (draw_dot(loss, live=True), web/output/live-graph.js): its data and grads change in place
while the program runs, the boxes do not move, Stop stops at once and keeps it; a network's view by neuron
updates too, its weights coloured by sign and size. (How often it updates is tested in CPython with a clock of
the test's own: tests/runtime/test_live.py.)"""

import re

import pytest
from playwright.sync_api import expect

from support import wait_until
from support.explain import neuron_training
from support.pages import run, type_program

pytestmark = pytest.mark.usefixtures('site')

NEURON_TRAINING = neuron_training()

NETWORK_TRAINING = '''import time
random.seed(0)
model = MLP(2, [4, 4, 1])
xs = [[random.uniform(-1, 1), random.uniform(-1, 1)] for _ in range(6)]
ys = [1.0 if a * b > 0 else -1.0 for a, b in xs]
for k in range(STEPS):
    loss = sum(((model(x) - y) ** 2 for x, y in zip(xs, ys)), Value(0.0)); loss.label = 'loss'
    model.zero_grad()
    loss.backward()
    for p in model.parameters():
        p.data -= 0.02 * p.grad
    draw_dot(loss, live=True)
    time.sleep(0.01)
'''


def texts(graph):
    return graph.evaluate("svg => [...svg.querySelectorAll('g.node text')].map((t) => t.textContent).join('|')")


def places(graph):
    """Where each value's box is drawn, in the drawing's own coordinates."""
    return graph.evaluate(
        "svg => Object.fromEntries([...svg.querySelectorAll('g.node')].map((g) => { const b = g.getBBox(); "
        "return [g.id, [b.x, b.y, b.width, b.height].map((v) => Math.round(v))]; }))"
    )


def stopped_by_an_interrupt(page):
    """After Stop: the run ended, its loop interrupted (a KeyboardInterrupt), and Python was not restarted. (These
    checks allowed 3 s instead, which a busy machine exceeded once in a full run of the suite.)"""
    expect(page.get_by_test_id('status')).to_have_attribute('data-state', 'ready')
    expect(page.get_by_test_id('output').locator('section.run').last.locator('.message.warning')).to_contain_text(
        'KeyboardInterrupt'
    )
    assert page.evaluate("performance.getEntriesByName('python-stop-restart').length") == 0


def test_the_drawn_graph_changes_in_place_while_it_trains_and_stop_stops_at_once(playground):
    type_program(playground, NEURON_TRAINING)
    playground.get_by_test_id('run').click()
    status = playground.get_by_test_id('status')
    output = playground.get_by_test_id('output')
    graph = output.locator('figure.graph-card svg').first
    expect(graph.locator('g.node.root')).to_contain_text('loss')
    first, where = texts(graph), places(graph)
    seen = {first}
    for _ in range(2):  # two later drawings' numbers, each different, while the program still runs
        wait_until(
            playground,
            f"""(() => {{ const svg = document.querySelector('[data-testid=output] figure.graph-card svg');
            const now = [...svg.querySelectorAll('g.node text')].map((t) => t.textContent).join('|');
            return !{sorted(seen)!r}.includes(now); }})()""",
        )
        seen.add(texts(graph))
    expect(status).to_have_attribute('data-state', 'running')
    assert places(graph) == where  # values changed, boxes did not move
    expect(output.locator('figure.graph-card')).to_have_count(1)
    playground.get_by_test_id('stop').click()
    stopped_by_an_interrupt(playground)
    section = output.locator('section.run').last
    expect(output.locator('figure.graph-card')).to_have_count(1)  # kept, drawn whole from the last call
    expect(section.get_by_role('button', name=re.compile('^Step through backward'))).to_be_visible()
    assert places(graph) == where


def test_a_networks_view_by_neuron_updates_with_its_weights_coloured(playground):
    type_program(playground, NETWORK_TRAINING.replace('STEPS', '100000'))
    playground.get_by_test_id('run').click()
    card = playground.get_by_test_id('output').locator('figure.graph-card')
    expect(card.get_by_role('button', name='By neuron')).to_have_attribute('aria-pressed', 'true')  # 494 values
    graph = card.locator('svg').first
    loss = graph.locator('g.node.root')
    expect(loss).to_contain_text('grad')
    expect(graph.locator('g.node#L2_n1')).to_contain_text('6 outputs')  # one per example: no one data to show
    weights = graph.locator('g.edge.weight')
    # every weight on an edge between neurons, one edge each (the inputs are plain numbers, drawn inside the first layer's boxes)
    expect(weights).to_have_count(4 * 4 + 4)
    signs = set(weights.evaluate_all("edges => edges.map((e) => e.dataset.sign)"))
    assert signs == {'positive', 'negative'}
    colours = set(weights.evaluate_all("edges => edges.map((e) => e.querySelector('path').getAttribute('stroke'))"))
    assert colours == {'#2563eb', '#dc2626'}
    widths = weights.evaluate_all(
        "edges => edges.map((e) => e.querySelector('path').getAttribute('stroke-width')).join(' ')"
    )
    assert len(set(widths.split())) > 5  # thicker the larger
    where, before = places(graph), loss.text_content()
    wait_until(
        playground,
        f"""(() => {{ const svg = document.querySelector('[data-testid=output] figure.graph-card svg');
        const widths = [...svg.querySelectorAll('g.edge.weight path')].map((p) => p.getAttribute('stroke-width')).join(' ');
        return svg.querySelector('g.node.root').textContent !== {before!r} && widths !== {widths!r}; }})()""",
    )
    expect(playground.get_by_test_id('status')).to_have_attribute('data-state', 'running')
    assert places(graph) == where  # the loss and the weights changed, the boxes did not move
    playground.get_by_test_id('stop').click()
    stopped_by_an_interrupt(playground)


def test_when_training_ends_the_graph_keeps_its_layout_and_gets_every_tool(playground):
    type_program(playground, NETWORK_TRAINING.replace('STEPS', '40'))
    section = run(playground)
    card = section.locator('figure.graph-card')
    expect(card).to_have_count(1)
    card.get_by_role('button', name='Full graph').click()
    expect(card.get_by_role('button', name='Full graph')).to_have_attribute('aria-pressed', 'true')
    # 494 values: the loss is drawn past the card's right edge, where a click cannot reach; Enter opens it as well.
    card.locator('svg g.node.root').press('Enter')
    panel = card.get_by_test_id('node-explain')
    expect(panel.locator('.explain-title')).to_contain_text('loss')
    expect(panel.get_by_test_id('grad-term')).to_have_attribute('data-kind', 'seed')
