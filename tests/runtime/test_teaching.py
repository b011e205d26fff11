"""The data behind the teaching views, in CPython: table, backward steps, gradient check, groups, charts."""

import json
import math
import shutil
import subprocess
import textwrap

import pytest

from backprop_playground.paths import ROOT
from playground_runtime import charts
from playground_runtime import runner as playground
from playground_runtime.charts import SERIES_EVERY, Charts, boundary
from scalargrad import MLP, Value
from scalargrad.gradcheck import Replay
from scalargrad.ops import operands
from support.events import drawn_graphs
from support.learners import A_PLUS_A, SEED_VALUE

NEURON = '''
x1 = Value(2.0, label='x1'); x2 = Value(0.0, label='x2')
w1 = Value(-3.0, label='w1'); w2 = Value(1.0, label='w2')
b = Value(6.8813735870195432, label='b')
x1w1 = x1 * w1; x1w1.label = 'x1*w1'
x2w2 = x2 * w2; x2w2.label = 'x2*w2'
x1w1x2w2 = x1w1 + x2w2; x1w1x2w2.label = 'x1*w1 + x2*w2'
n = x1w1x2w2 + b; n.label = 'n'
o = n.tanh(); o.label = 'o'
o.backward()
draw_dot(o)
'''
TUTORIAL_GRADS = {'x1': -1.5, 'w1': 1.0, 'x2': 0.5, 'w2': 0.0, 'b': 0.5, 'n': 0.5, 'o': 1.0}


def run(source):
    events = []
    result = json.loads(playground.run(textwrap.dedent(source), lambda text: events.append(json.loads(text))))
    return result, events


def graph_of(source):
    result, events = run(source)
    assert result == {'status': 'ok'}, result
    [graph] = drawn_graphs(events)
    return graph


def ids_by_label(graph):
    return {row['label']: row['id'] for row in graph['table']}


def grads_after(steps, k):
    grads = dict(steps['start'])
    for step in steps['steps'][:k]:
        grads.update(step['grads'])
    return grads


def test_the_table_lists_every_value_inputs_first_as_the_graph_draws_it():
    graph = graph_of(NEURON)
    table = graph['table']
    assert len(table) == 10 and table[-1]['label'] == 'o'
    seen = set()
    for row in table:
        assert f'  {row["id"]} [label="{{ {row["label"]} | data {row["data"]:.4f}' in graph['dot']
        for line in graph['dot'].splitlines():  # every edge into this value comes from one already listed
            if line.endswith(f'[class="into-{row["id"]}"]') and '_op ->' not in line:
                assert line.split()[0] in seen, (line, row)
        seen.add(row['id'])
    assert {row['label']: row['grad'] for row in table}['x1'] == pytest.approx(-1.5)


def test_stepping_backward_replays_the_tutorial_and_puts_the_grads_back():
    graph = graph_of(NEURON + '\nprint(x1.grad, n.grad, o.data)\n')
    steps, ids = graph['steps'], ids_by_label(graph)
    assert steps['start'][ids['o']] == 1.0
    assert all(grad == 0.0 for name, grad in steps['start'].items() if name != ids['o'])
    first = steps['steps'][0]
    assert first['id'] == ids['o']
    assert first['text'] == '`o._backward()`: tanh sends 0.5 to n'
    assert first['grads'] == {ids['n']: pytest.approx(0.5)}
    assert steps['steps'][1]['text'].startswith('`n._backward()`: + sends 0.5 to x1*w1 + x2*w2 and 0.5 to b')
    final = grads_after(steps, len(steps['steps']))
    for label, grad in TUTORIAL_GRADS.items():
        assert final[ids[label]] == pytest.approx(grad, abs=1e-4), label
    assert len(steps['steps']) == 5  # one per computed value, leaves have nothing to pass on


def test_the_replay_leaves_the_programs_values_and_output_alone():
    show = "print(x1.grad, w1.grad, n.grad, o.grad, o.data)\n"
    before_backward = NEURON.replace('o.backward()', '')  # grads 0: the replay's would differ
    drawn = run(before_backward + show)[1]
    not_drawn = run(before_backward.replace('draw_dot(o)', '') + show)[1]
    printed = [[e['text'] for e in events if e['type'] == 'stdout'] for events in (drawn, not_drawn)]
    assert printed[0] == printed[1] and len(printed[0]) == 1


def test_the_stepper_shows_the_learners_bug_as_their_code_makes_it():
    graph = graph_of(A_PLUS_A)
    ids = ids_by_label(graph)
    [step] = graph['steps']['steps']
    assert step['grads'] == {ids['a']: 1.0}  # `=` twice: 1.0, where += would give 2.0
    assert step['text'] == '`b._backward()`: + sends 1.0 to a (used twice)'


def test_a_backward_that_raises_or_prints_is_replayed_quietly():
    graph = graph_of(
        SEED_VALUE
        + '''
a = Value(3.0, label='a')
c = a + Value(1.0, label='one'); c.label = 'c'
def noisy():
    print('inside _backward')
    raise ZeroDivisionError('no')
c._backward = noisy
draw_dot(c)
'''
    )
    [step] = graph['steps']['steps']
    assert step['error'] == 'ZeroDivisionError: no'
    assert step['text'].endswith('nothing changes')
    _, events = run(A_PLUS_A.replace("b._backward()", "b._backward = lambda: print('loud')"))
    assert [e for e in events if e['type'] == 'stdout'] == []


def test_the_check_flags_a_for_the_seed_class_and_nothing_for_the_built_in_value():
    check = graph_of(A_PLUS_A)['check']
    [wrong] = check['wrong']
    assert (wrong['label'], wrong['grad'], wrong['expected']) == ('a', 1.0, pytest.approx(2.0))
    assert 'grad 1.0000 ≠ 2.0000 expected' in check['dot'] and 'wrong-grad' in check['dot']
    assert check['reason'] is None
    assert check['hint'].startswith('a is used 2 times') and '`+=`' in check['hint']
    check = graph_of("a = Value(3.0, label='a')\nb = a + a; b.label = 'b'\nb.backward()\ndraw_dot(b)\n")['check']
    assert check == {'checked': 2, 'wrong': [], 'dot': None, 'reason': None}


def test_the_check_says_why_before_any_backward_pass():
    check = graph_of("a = Value(3.0, label='a')\nb = a * a; b.label = 'b'\ndraw_dot(b)\n")['check']
    assert check['wrong'] == [] and check['checked'] == 0
    assert 'no backward pass has run' in check['reason']


def test_groups_draw_one_box_per_neuron_and_per_layer():
    graph = graph_of(
        "model = MLP(2, [4, 4, 1])\nout = model([Value(0.5), Value(-1.0)])\nout.backward()\ndraw_dot(out)\n"
    )
    neuron, layer = graph['groups']['neuron']['dot'], graph['groups']['layer']['dot']
    boxes = [line for line in neuron.splitlines() if 'shape=Mrecord' in line]
    assert len(boxes) == 9 and 'layer 2 · neuron 4' in neuron
    assert len([line for line in layer.splitlines() if 'shape=Mrecord' in line]) == 3
    assert graph['title'] == 'L3.n1' and 'view' not in graph  # small enough to open value by value


def test_mlp_names_neuron_outputs_but_keeps_a_label_the_learner_gave():
    model = MLP(2, [3, 1])
    first = model.layers[0].neurons[0]
    outputs = model.layers[0]([Value(1.0), Value(2.0)])
    outputs[0].label = 'mine'
    assert model([Value(1.0), Value(2.0)]).label == 'L2.n1'
    assert first([Value(1.0), Value(2.0)]).label == ''  # a neuron alone is not inside an MLP


def test_a_network_too_big_to_draw_opens_grouped_and_a_chain_that_big_is_refused():
    graph = graph_of('''
model = MLP(2, [16, 16, 1])
loss = sum(model([Value(x), Value(-x)]) for x in (0.1, 0.2, 0.3))
draw_dot(loss)
''')
    assert graph['grouped_only'] is True and graph['view'] == 'neuron' and graph['nodes'] > 2000
    assert graph['dot'] == graph['groups']['neuron']['dot']
    _, events = run("x = Value(1.0)\nfor _ in range(2001):\n    x = x + 1\ndraw_dot(x)\n")
    [too_large] = [e for e in events if e['type'].startswith('graph')]
    assert too_large['type'] == 'graph-too-large' and too_large['nodes'] == 4003


def test_a_network_of_hundreds_of_values_opens_by_neuron_with_the_full_graph_a_click_away():
    graph = graph_of("model = MLP(2, [16, 16, 1])\nout = model([Value(0.5), Value(-1.0)])\ndraw_dot(out)\n")
    assert graph['view'] == 'neuron' and graph['dot'] == graph['groups']['neuron']['dot']
    assert graph['groups']['full']['nodes'] == graph['nodes'] == 979
    assert graph['groups']['full']['dot'].count('shape=record') == 979


@pytest.mark.parametrize(
    'source, opened, taught',
    [
        (NEURON, set(), {'table', 'explain', 'steps', 'check'}),
        # 979 values: too many to step through or to check, and it opens by neuron
        (
            "model = MLP(2, [16, 16, 1])\nout = model([Value(0.5), Value(-1.0)])\ndraw_dot(out)\n",
            {'groups', 'view'},
            {'table', 'explain'},
        ),
    ],
)
def test_a_graph_is_sent_before_its_teaching_fields_which_follow_it_at_once(source, opened, taught):
    # What only a later click needs (the table, the explanations, the steppers, the check) must not delay
    # the drawing: the page lays the graph out while Python computes them. A network that opens by neuron
    # needs its groups to be drawn.
    result, events = run(source)
    assert result == {'status': 'ok'}, result
    kinds = [e['type'] for e in events]
    assert kinds[-2:] == ['graph', 'graph-teaching']
    graph, fields = events[-2:]
    assert set(graph) - {'type', 'dot', 'nodes', 'title'} == opened
    assert set(fields) - {'type'} == taught


class Clock:
    def __init__(self):
        self.now = 0.0

    def __call__(self):
        return self.now


def test_plot_sends_points_in_batches_and_the_rest_at_the_end():
    sent, clock = [], Clock()
    charts = Charts(lambda **event: sent.append(event), clock=clock)
    charts.plot(loss=Value(0.5))
    assert sent[-1]['points'] == [{'step': 0, 'loss': 0.5}]
    charts.plot(loss=0.4, accuracy=0.9)
    charts.plot(step=10, loss=0.3)
    assert len(sent) == 1
    clock.now = SERIES_EVERY
    charts.plot(loss=0.2)
    assert [p['step'] for p in sent[-1]['points']] == [1, 10, 3]
    charts.plot(loss=0.1)
    charts.flush()
    assert sent[-1]['points'] == [{'step': 4, 'loss': 0.1}]
    with pytest.raises(TypeError, match='at least one named series'):
        charts.plot(step=1)
    with pytest.raises(TypeError, match='loss is'):
        charts.plot(loss='low')


def test_charts_through_a_run_turn_nan_into_null_and_survive_an_interrupt():
    _, events = run("plot(loss=float('nan'))\nplot(loss=1.0)\nraise KeyboardInterrupt\n")
    points = [p for e in events if e['type'] == 'chart' for p in e['points']]
    assert points == [{'step': 0, 'loss': None}, {'step': 1, 'loss': 1.0}]


def scores_on_the_page(*events):
    """Each boundary event's grid scores as the page draws them: its own, or for one that carries its model,
    those web/output/boundary-scores.js computes from the model's numbers (None: it refuses them)."""
    missing = [e for e in events if 'score' not in e['grid']]
    node = shutil.which('node')
    assert node or not missing, 'Node.js is needed (the build needs it too)'
    done = (
        subprocess.run(
            [node, str(ROOT / 'tests' / 'runtime' / 'boundary_scores.mjs')],
            input=json.dumps(missing),
            capture_output=True,
            text=True,
            check=False,
        )
        if missing
        else None
    )
    assert done is None or done.returncode == 0, done.stderr
    computed = iter(json.loads(done.stdout) if done else [])
    return [e['grid']['score'] if 'score' in e['grid'] else next(computed) for e in events]


def with_biases(model):
    """The model with a bias of its own on each neuron (a new one's are 0, which would hide where they are added)."""
    for k, p in enumerate(model.parameters()):
        p.data += 0.2 * math.sin(k)
    return model


@pytest.mark.parametrize('activation', ['relu', 'tanh', 'sigmoid', 'gelu'])
def test_the_boundary_fast_path_agrees_with_calling_the_model(activation):
    model = with_biases(MLP(2, [8, 8, 1], activation=activation))
    X = [(-1.0, 0.5), (2.0, -0.5), (0.5, 0.0)]
    event = boundary(model, X, [0, 1, 1])
    grid = event['grid']
    assert 'score' not in grid and event['model']['activation'] == activation  # the page computes the grid
    [score] = scores_on_the_page(event)
    floats = charts._float_model(model)
    assert len(grid['x']) == len(grid['y']) == 30 and all(len(row) == 30 for row in score)
    # JavaScript has no erf: the page's gelu takes one good to 1.2e-7 (boundary-scores.js)
    page_error = 1e-6 if activation == 'gelu' else 1e-9
    for i, j in [(0, 0), (7, 21), (29, 29)]:
        called = model([Value(grid['x'][i]), Value(grid['y'][j])]).data
        assert score[j][i] == pytest.approx(called, abs=page_error)
        assert floats([grid['x'][i]], [grid['y'][j]])[0] == pytest.approx(called, abs=1e-9)
    assert [p[2] for p in event['points']] == [0, 1, 1]
    sides = [model([Value(a), Value(b)]).data > 0 for a, b in X]
    assert event['agree'] == sum(side == (label > 0) for side, label in zip(sides, [0, 1, 1]))
    assert grid['x'][0] < -1.0 and grid['x'][-1] > 2.0
    with pytest.raises(ValueError, match='3 points, 2 labels'):
        Charts(lambda **e: None).plot_boundary(model, X, [0, 1])


def test_the_page_computes_no_scores_from_numbers_that_do_not_make_the_mlp():
    event = boundary(MLP(2, [3, 1]), [(0.0, 1.0), (1.0, 0.0)], [0, 1])
    spec = event['model']
    bad = [
        {**spec, 'parameters': spec['parameters'][:-1]},  # one short of what its sizes need
        {**spec, 'activation': 'exp'},
        {**spec, 'sizes': [3, 3, 1]},  # the grid has two inputs
        {**spec, 'parameters': [*spec['parameters'][:-1], 'x']},
    ]
    assert scores_on_the_page(*({**event, 'model': model} for model in bad)) == [None] * len(bad)
    # A run's event could ask for any grid: the page's thread, which Stop cannot reach, refuses a costly one.
    grids = [{'x': [0.0] * 3000, 'y': [0.0] * 3000}, {**event['grid'], 'x': ['0', *event['grid']['x'][1:]]}]
    assert scores_on_the_page(*({**event, 'grid': grid} for grid in grids)) == [None, None]
    [score] = scores_on_the_page(event)
    assert len(score) == 30 and all(isinstance(v, (int, float)) for row in score for v in row)


class Doubled(MLP):
    """A learner's MLP that calls its layers its own way."""

    def __call__(self, x):
        return super().__call__(x) * 2


def mixed_activations():
    model = MLP(2, [4, 1])
    model.layers[0].neurons[1].activation = 'tanh'
    return model


def weight_set_to_a_number():
    model = MLP(2, [4, 1])
    model.layers[0].neurons[0].w[1] = 0.75
    return model


def activation_the_floats_lack():
    model = MLP(2, [4, 1], activation='tanh')
    model.layers[0].neurons[2].activation = 'exp'  # a hidden neuron's (the output neuron is linear)
    return model


# (how the learner made or changed the model, whether the floats' fast path takes it): each model the fast path
# refuses would be computed wrongly by it, or fail in it (the test fails with that guard of _float_model removed).
def weights_in_a_tuple():
    model = MLP(2, [4, 1])
    for layer in model.layers:
        for n in layer.neurons:
            n.w = tuple(n.w)  # calling it zips them as a list; parameters() cannot add them to [b]
    return model


MODELS = {
    'as made': (lambda: with_biases(MLP(2, [4, 4, 1])), True),
    'a layer whose neurons differ in activation': (mixed_activations, True),
    'three inputs': (lambda: MLP(3, [4, 1]), False),
    'a weight set to a number': (weight_set_to_a_number, False),
    'an activation the floats lack': (activation_the_floats_lack, False),
    "a subclass of the learner's": (lambda: Doubled(2, [4, 1]), False),
    'weights in a tuple': (weights_in_a_tuple, False),
}


@pytest.mark.parametrize('made', MODELS)
def test_the_boundary_of_a_changed_model_is_what_calling_it_gives(made):
    make, fast = MODELS[made]
    model = make()
    assert (charts._float_model(model) is not None) == fast
    event = boundary(model, [(-1.0, 0.5), (2.0, -0.5), (0.5, 0.0)], [0, 1, 1])
    grid, [score] = event['grid'], scores_on_the_page(event)
    for i, j in [(0, 0), (7, 21), (29, 29)]:
        called = model([Value(grid['x'][i]), Value(grid['y'][j])])
        assert score[j][i] == pytest.approx(called.data, abs=1e-9)
    # The page forwards an example through the MLP rebuilt from the chart's numbers: only from one it would
    # compute as this one does.
    assert (charts.mlp_spec(model) is not None) == (made == 'as made')


def test_a_model_past_what_the_page_computes_gets_its_scores_from_python():
    model = with_biases(MLP(2, [charts.PAGE_MAX_WIDTH + 1, 1]))
    event = boundary(model, [(-1.0, 0.5), (2.0, -0.5)], [0, 1])
    assert event['model']['sizes'] == [2, charts.PAGE_MAX_WIDTH + 1, 1]  # still there, for an example
    assert scores_on_the_page({**event, 'grid': {'x': event['grid']['x'], 'y': event['grid']['y']}}) == [None]
    grid = event['grid']
    called = model([Value(grid['x'][7]), Value(grid['y'][21])]).data
    assert grid['score'][21][7] == pytest.approx(called, abs=1e-9)


def test_a_model_that_cannot_be_called_gets_no_chart_from_the_floats():
    model = MLP(2, [1, 1])  # its hidden layer of one neuron gives the next layer a bare Value, as micrograd's
    assert charts._float_model(model) is None
    with pytest.raises(TypeError) as called:
        model([Value(0.5), Value(-0.5)])
    with pytest.raises(TypeError) as charted:
        boundary(model, [(-1.0, 0.5), (2.0, -0.5)], [0, 1])
    assert str(charted.value).endswith(f"TypeError: {called.value}")  # plot_boundary says which point failed


def test_the_boundary_of_a_learners_model_calls_it_with_their_values():
    _, events = run(
        SEED_VALUE
        + '''
def model(x):
    return x[0] + x[1]
plot_boundary(model, [(0.0, 1.0), (1.0, 2.0)], ['no', 'yes'])
'''
    )
    [chart] = [e for e in events if e['type'] == 'chart']
    assert chart['points'] == [[0.0, 1.0, -1], [1.0, 2.0, 1]]
    assert chart['agree'] == 1  # 'no' at 1.0 (above 0): on the other class's side; 'yes' at 3.0 on its own
    assert chart['grid']['score'][0][0] == pytest.approx(chart['grid']['x'][0] + chart['grid']['y'][0])


class SetNode:
    def __init__(self, data, children=(), op=''):
        self.data, self._prev, self._op, self.grad = data, set(children), op, 0.0


def test_a_set_that_lost_a_duplicate_or_an_order_is_replayed_as_computed():
    a, b = SetNode(3.0), SetNode(5.0)
    square = SetNode(9.0, (a, a), '*')
    assert operands(square) == [a, a]
    difference = SetNode(-2.0, (a, b), '-')
    replay = Replay(difference)
    assert replay.unreplayable == []
    difference.grad, a.grad, b.grad = 1.0, 1.0, -1.0
    assert all(check.ok for check in (replay.check(a), replay.check(b)))
    assert math.isclose(replay.check(b).numeric, -1.0, abs_tol=1e-6)
