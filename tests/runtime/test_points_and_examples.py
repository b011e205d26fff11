"""The learner's own data (points(), playground_runtime.learner_points, and the run's `points`), and choosing one example of a
decision-boundary chart (playground_runtime.example), in CPython."""

import json
import textwrap

import pytest

from playground_runtime import learner_points
from playground_runtime import runner as playground
from playground_runtime.charts import mlp_spec
from scalargrad import MLP, make_moons, points
from support.events import drawn_graphs

MINE = [[0.0, 0.0, 1], [1.0, 1.0, 0], [0.5, -0.25, 1]]


def run(source, points=None):
    events = []
    result = json.loads(
        playground.run(
            textwrap.dedent(source),
            lambda text: events.append(json.loads(text)),
            points=None if points is None else json.dumps(points),
        )
    )
    return result, events


def printed(events):
    return ''.join(e['text'] for e in events if e['type'] == 'stdout')


def test_points_are_the_moons_when_the_learner_made_none():
    assert points(40, noise=0.2, seed=3) == make_moons(40, noise=0.2, seed=3)
    result, events = run('X, y = points(10, seed=1)\nprint(X == make_moons(10, seed=1)[0], y)')
    assert result == {'status': 'ok'} and printed(events).startswith('True [')


def test_a_run_with_points_gets_them_as_lists_like_the_moons_helper_and_the_next_run_does_not():
    result, events = run('X, y = points()\nprint(X, y, type(X).__name__, type(y[0]).__name__)', MINE)
    assert result == {'status': 'ok'}
    assert printed(events) == '[[0.0, 0.0], [1.0, 1.0], [0.5, -0.25]] [1, 0, 1] list int\n'
    assert learner_points._run.points is None and learner_points._run.returned is None  # gone with the run
    _, events = run('X, y = points(6, seed=2)\nprint(len(X), sorted(set(y)))')
    assert printed(events) == '6 [0, 1]\n'


def test_points_imported_from_scalargrad_are_the_learners_and_the_engine_alone_gives_the_moons():
    """The runtime puts its points() in scalargrad's place; the engine's own keeps no learner's points."""
    program = """
        import scalargrad
        from scalargrad.datasets import points as from_datasets
        X, y = from_datasets()
        print(X == scalargrad.points()[0], y)
    """
    result, events = run(program, MINE)
    assert result == {'status': 'ok'} and printed(events) == 'True [1, 0, 1]\n'
    assert points.__module__ == 'scalargrad.datasets'  # the engine's, as imported before the runtime's install
    learner_points.take(json.dumps(MINE))
    try:
        assert points(7, seed=5) == make_moons(7, seed=5)  # while a run's points are kept
    finally:
        learner_points.forget()


@pytest.mark.parametrize(
    'bad', [[[0, 0, 2]], [[0, 'x', 1]], [[0, 0]], {'x': 1}, [[float('nan'), 0, 1]], [[0, 0, True]]]
)
def test_points_that_are_not_x_y_label_are_left_out_with_a_notice(bad):
    result, events = run('X, y = points(4, seed=0)\nprint(len(X))', bad)  # json.dumps writes nan as NaN
    assert result == {'status': 'ok'}
    assert printed(events) == '4\n'
    assert any(e['type'] == 'notice' and 'points() gives the moons' in e['text'] for e in events)


TRAIN = '''
random.seed(0)
X, y = points(20, noise=0.1, seed=4)
y = [2 * t - 1 for t in y]
model = MLP(2, [4, 4, 1])
for k in range(3):
    scores = [model([Value(a), Value(b)]) for a, b in X]
    loss = sum((1 + -yi * si).relu() for yi, si in zip(y, scores)) * (1.0 / len(X))
    model.zero_grad(); loss.backward()
    for p in model.parameters():
        p.data -= 0.1 * p.grad
plot_boundary(model, X, y)
print(model([Value(X[1][0]), Value(X[1][1])]).data)
'''


def test_the_boundary_chart_says_its_data_are_the_points_and_carries_the_model():
    result, events = run(TRAIN, MINE)
    [chart] = [e for e in events if e['type'] == 'chart']
    assert chart['from_points'] is True
    assert [p[2] for p in chart['points']] == [1, -1, 1]
    assert chart['model']['sizes'] == [2, 4, 4, 1] and chart['model']['activation'] == 'relu'
    assert len(chart['model']['parameters']) == len(MLP(2, [4, 4, 1]).parameters())
    _, events = run(TRAIN.replace('plot_boundary(model, X, y)', 'plot_boundary(model, [list(p) for p in X], y)'))
    assert [e for e in events if e['type'] == 'chart'][0]['from_points'] is False


def test_choosing_an_example_forwards_it_alone_through_the_same_model():
    result, events = run(TRAIN, MINE)
    [chart] = [e for e in events if e['type'] == 'chart']
    expected = float(printed(events))
    spec = {**chart['model'], 'point': MINE[1][:2], 'label': -1, 'index': 1}
    result, events = run(
        f"from playground_runtime.example import forward_example\ndraw_dot(forward_example({json.dumps(json.dumps(spec))}))"
    )
    assert result == {'status': 'ok'}, result
    assert printed(events).startswith('Example 2: x = (1.0000, 1.0000), label -1.')
    [graph] = drawn_graphs(events)
    table = graph['table']
    assert table[-1]['data'] == pytest.approx(expected) and table[-1]['grad'] == 1.0
    assert {'x1', 'x2'} <= {row['label'] for row in table}
    assert 'explain' in graph  # its arithmetic too


def test_only_an_mlp_is_sent_as_numbers_and_bad_numbers_are_refused():
    assert mlp_spec(MLP(2, [3, 1]).layers[0]) is None and mlp_spec(lambda x: x) is None
    spec = mlp_spec(MLP(2, [3, 1]))
    bad = {**spec, 'parameters': spec['parameters'][:-1], 'point': [0, 0]}
    result, _ = run(
        f"from playground_runtime.example import forward_example\nforward_example({json.dumps(json.dumps(bad))})"
    )
    assert result['status'] == 'error' and 'parameters' in result['error']['message']
