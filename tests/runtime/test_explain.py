"""The data behind a node's explanation (playground_runtime.explain), in CPython: operands in the op's order,
local derivatives, and what is wrong with a grad that is not the sum of its uses' contributions."""

import json
import math
import textwrap

import pytest

from playground_runtime import runner as playground
from playground_runtime.explain import MAX_SUBSETS, diagnose, explanation, uses_of
from scalargrad import MLP, Value
from scalargrad.graph import trace
from support.events import drawn_graphs
from support.explain import USED_TWICE
from support.learners import A_PLUS_A, SEED_VALUE, ChildrenValue


def graph_of(source):
    events = []
    result = json.loads(playground.run(textwrap.dedent(source), lambda text: events.append(json.loads(text))))
    assert result == {'status': 'ok'}, result
    [graph] = drawn_graphs(events)
    return graph


def by_name(explain, name):
    return explain['names'].index(name)


def test_a_value_used_twice_lists_both_uses_with_their_local_derivatives():
    explain = graph_of(USED_TWICE)['explain']
    a, b, e, f = (by_name(explain, n) for n in 'abef')
    assert explain['args'][e] == [a, b] and explain['local'][e] == [-3.0, 2.0]
    assert explain['args'][f][0] == a and explain['local'][f] == [1.0, 1.0]
    assert uses_of(explain['args'])[a] == sorted([(e, 0), (f, 0)])
    assert explain['args'][a] is None and explain['local'][a] is None  # a leaf
    assert explain['verdicts'] == {} and explain['why'] == {}


def test_the_seed_class_that_assigns_with_equals_misses_the_second_use_of_a():
    explain = graph_of(A_PLUS_A)['explain']
    assert explain['names'] == ['a', 'b']
    assert explain['args'] == [None, [0, 0]]  # the set kept one child; the op used it twice
    assert explain['local'] == [None, [1.0, 1.0]]
    assert explain['verdicts'] == {'0': {'kind': 'missing', 'uses': [1]}}
    fixed = graph_of(
        A_PLUS_A.replace('self.grad = out.grad * 1.0', 'self.grad += out.grad * 1.0').replace(
            'other.grad = out.grad * 1.0', 'other.grad += out.grad * 1.0'
        )
    )['explain']
    assert fixed['verdicts'] == {}


def test_the_built_in_value_gives_no_verdicts_and_every_local_derivative_is_the_ops_own():
    explain = graph_of('''
x = Value(0.7, label='x'); y = Value(-1.3, label='y')
parts = [x + y, x * y, x - y, x / y, x ** 3, x ** y, (x * 2).exp(), x.log(), y.tanh(), x.relu(), y.relu(),
         y.sigmoid(), y.gelu(), x.max(y), -x]
out = parts[0]
for p in parts[1:]:
    out = out + p
out.label = 'out'
out.backward()
draw_dot(out)
''')['explain']
    assert explain['verdicts'] == {} and explain['why'] == {}
    assert len(explain['names']) > 30
    # Every local derivative agrees with a central difference of the op itself, computed here from scratch.
    nodes, edges = trace(_rebuild())
    ours = explanation(nodes, edges)
    for i, node in enumerate(nodes):
        if ours['args'][i] is None:
            continue
        xs = [nodes[j].data for j in ours['args'][i]]
        for k in range(len(xs)):
            assert ours['local'][i][k] == pytest.approx(_numeric(node._op, xs, k), rel=1e-4, abs=1e-6), (node._op, k)


def _rebuild():
    x, y = Value(0.7), Value(-1.3)
    parts = [
        x + y,
        x * y,
        x - y,
        x / y,
        x**3,
        x**y,
        (x * 2).exp(),
        x.log(),
        y.tanh(),
        x.relu(),
        y.relu(),
        y.sigmoid(),
        y.gelu(),
        x.max(y),
        -x,
    ]
    out = parts[0]
    for p in parts[1:]:
        out = out + p
    return out


def _numeric(op, xs, k, h=1e-6):
    from scalargrad.ops import forward as forward_of

    forward = forward_of(op)
    up, down = list(xs), list(xs)
    up[k] += h
    down[k] -= h
    return (forward(up) - forward(down)) / (2 * h)


def test_a_learners_class_with_ops_in_a_set_is_read_in_the_ops_order():
    explain = graph_of(
        SEED_VALUE
        + '''
a = Value(2.0, label='a'); b = Value(-3.0, label='b')
e = a * b; e.label = 'e'
e.grad = 1.0
e._backward()
draw_dot(e)
'''
    )['explain']
    a, b, e = (by_name(explain, n) for n in 'abe')
    assert explain['local'][e][explain['args'][e].index(a)] == -3.0  # d(a*b)/da is b, whatever the set's order
    assert explain['local'][e][explain['args'][e].index(b)] == 2.0
    assert explain['verdicts'] == {}


def test_an_op_it_does_not_know_is_said_and_nothing_below_it_is_judged():
    explain = graph_of(
        SEED_VALUE
        + '''
a = Value(2.0, label='a')
s = Value(a.data ** 0.5, (a,), 'sqrt'); s.label = 's'
s.grad = 1.0
a.grad = 123.0
draw_dot(s)
'''
    )['explain']
    assert explain['why'] == {'1': {'kind': 'unknown-op', 'op': 'sqrt'}}
    assert explain['local'][1] is None and explain['verdicts'] == {}


def test_children_without_an_op_and_data_that_do_not_match_are_said():
    two = ChildrenValue(1.0) + ChildrenValue(2.0)
    nodes, edges = trace(two)
    assert explanation(nodes, edges)['why'] == {'2': {'kind': 'no-op', 'op': ''}}
    graph = graph_of('a = Value(2.0, label="a")\nb = a * 3; b.label = "b"\nb.data = 7.0\ndraw_dot(b)\n')
    assert graph['explain']['why'] == {'2': {'kind': 'not-reproduced', 'op': '*'}}


def test_the_explanation_calls_nothing_of_the_learners_class():
    calls = []

    class Watched:
        def __init__(self, data, children=(), op=''):
            self.data, self._prev, self._op, self.grad, self.label = data, tuple(children), op, 0.0, ''
            self._backward = lambda: calls.append('_backward')

        def __mul__(self, other):
            return Watched(self.data * other.data, (self, other), '*')

        def __getattr__(self, name):  # only for attributes it does not have
            calls.append(name)
            raise AttributeError(name)

    for method in ('__float__', '__eq__', '__hash__', '__repr__', '__bool__', '__add__', '__lt__', '__gt__'):
        setattr(Watched, method, lambda self, *args, name=method: calls.append(name) or NotImplemented)
    a, b = Watched(2.0), Watched(3.0)
    out = a * b
    out.grad, a.grad, b.grad = 1.0, 3.0, 2.0
    nodes, edges = trace(out)
    calls.clear()
    found = explanation(nodes, edges)
    assert calls == []
    assert found['local'][2] == [3.0, 2.0] and found['verdicts'] == {}


def test_names_prefer_an_identifier_label_then_the_variable_then_the_label_in_brackets():
    graph = graph_of('''
x1 = Value(2.0, label='x1'); w1 = Value(-3.0, label='w1')
x1w1 = x1 * w1; x1w1.label = 'x1*w1'
odd = x1w1 + 1; odd.label = 'not a name'
anon = odd * 2
draw_dot(anon)
''')
    names = graph['explain']['names']
    assert names[:3] == ['x1', 'w1', 'x1w1'] and '[not a name]' in names and names[-1] == 'anon'
    assert any(n.startswith('v') and n[1:].isdigit() for n in names)  # the constants have neither


@pytest.mark.parametrize(
    'terms, held, expected',
    [
        ([1.0, 1.0], 1.0, {'kind': 'missing', 'uses': [1]}),  # `=` for `+=`: the last use kept
        ([6.0, 4.0], 4.0, {'kind': 'missing', 'uses': [0]}),
        ([6.0, 4.0], 0.0, {'kind': 'missing', 'uses': [0, 1]}),  # nothing arrived
        ([6.0, 4.0], 20.0, {'kind': 'repeated', 'uses': [], 'times': 2}),  # two backward passes added up
        ([6.0], 5.0, {'kind': 'wrong', 'uses': [0]}),
        ([6.0, 4.0], 7.0, {'kind': 'unexplained', 'uses': []}),
        ([6.0, 4.0], 10.0 + 1e-12, None),
        ([0.1] * 60, 0.1, {'kind': 'missing', 'uses': list(range(1, 60))}),  # past MAX_SUBSETS: `=` everywhere
        ([0.1] * 59 + [0.5], 5.9, {'kind': 'missing', 'uses': [59]}),  # past MAX_SUBSETS: one lost
    ],
)
def test_a_grad_that_is_not_the_sum_of_its_uses_is_diagnosed(terms, held, expected):
    assert diagnose(terms, held) == expected


def test_subsets_are_searched_only_for_a_few_uses():
    assert MAX_SUBSETS <= 12  # 2 ** n subsets per wrong grad
    assert diagnose([1.0, 2.0, 4.0, 8.0, 16.0], 1.0 + 4.0 + 16.0) == {'kind': 'missing', 'uses': [1, 3]}


def test_a_network_graph_carries_its_boxes_members_outputs_and_weights():
    graph = graph_of(
        'random.seed(1)\nmodel = MLP(2, [3, 1])\nout = model([Value(0.5), Value(-1.0)])\n'
        'out.backward()\ndraw_dot(out)\n'
    )
    neuron = graph['groups']['neuron']
    assert sorted(neuron['members']) == ['L1_n1', 'L1_n2', 'L1_n3', 'L2_n1']
    table = graph['table']
    for box, output in neuron['outputs'].items():
        assert table[output]['label'] == box.replace('_', '.') and output in neuron['members'][box]
    for edge, weight in neuron['weights'].items():
        source, box = edge.split('__')
        assert weight in neuron['members'][box] and table[weight]['op'] == ''
        assert f'[id="{edge}" class="into-box"]' in neuron['dot']
    assert len(neuron['weights']) == 3 * 2 + 3  # every weight of this MLP, one per edge into a box
    assert math.isclose(
        sum(abs(table[w]['data']) for w in neuron['weights'].values()),
        sum(abs(p.data) for n in _same_model() for p in n.w),
    )


def _same_model():
    import random

    random.seed(1)
    model = MLP(2, [3, 1])
    return [n for layer in model.layers for n in layer.neurons]


def test_a_neurons_weights_and_bias_are_named_by_their_role():
    graph = graph_of(
        'random.seed(1)\nmodel = MLP(2, [2, 1])\nout = model([Value(0.5, label="x1"), Value(-1.0, label="x2")])\n'
        'out.backward()\ndraw_dot(out)\n'
    )
    names = graph['explain']['names']
    for box in ('L1.n1', 'L1.n2'):
        assert {f'{box}.b', f'{box}.w1', f'{box}.w2'} <= set(names)
    assert {'L2.n1.b', 'L2.n1.w1', 'L2.n1.w2', 'x1', 'x2', 'L1.n1', 'L2.n1'} <= set(names)
    w1 = names.index('L1.n1.w1')
    product = next(i for i, args in enumerate(graph['explain']['args']) if args and w1 in args)
    assert names[graph['explain']['args'][product][1 - graph['explain']['args'][product].index(w1)]] == 'x1'
