import gc
import math
import sys

import pytest

from scalargrad import MLP, Value, engine
from scalargrad.nn import Layer, Neuron

UNARY = {
    'tanh': (lambda v: v.tanh(), [-2.0, -0.3, 0.0, 0.7, 3.0]),
    'exp': (lambda v: v.exp(), [-2.0, 0.0, 1.5]),
    'log': (lambda v: v.log(), [0.1, 1.0, 4.0]),
    'relu': (lambda v: v.relu(), [-1.5, 0.5, 2.0]),
    'sigmoid': (lambda v: v.sigmoid(), [-30.0, -1.0, 0.0, 2.0]),
    'gelu': (lambda v: v.gelu(), [-2.0, -0.5, 0.0, 0.5, 3.0]),
    'neg': (lambda v: -v, [-1.0, 0.0, 2.0]),
    'square': (lambda v: v**2, [-3.0, 0.0, 1.5]),
    'cube': (lambda v: v**3, [-2.0, 0.0, 1.5]),
    'sqrt': (lambda v: v**0.5, [0.25, 4.0]),
    'reciprocal': (lambda v: v**-1, [-2.0, 0.5, 3.0]),
    'add number': (lambda v: v + 3, [-1.0, 0.0]),
    'radd': (lambda v: 3 + v, [-1.0, 0.0]),
    'rsub': (lambda v: 1 - v, [-1.0, 2.0]),
    'sub number': (lambda v: v - 1, [-1.0, 2.0]),
    'rmul': (lambda v: 2 * v, [-1.0, 2.0]),
    'div number': (lambda v: v / 2, [-1.0, 2.0]),
    'rdiv': (lambda v: 10.0 / v, [-2.0, 0.5]),
    'rpow': (lambda v: 2**v, [-1.0, 0.0, 1.5]),
}
UNARY_CASES = [(name, x) for name, (_, xs) in UNARY.items() for x in xs]

BINARY = {
    'add': lambda a, b: a + b,
    'sub': lambda a, b: a - b,
    'mul': lambda a, b: a * b,
    'div': lambda a, b: a / b,
    'pow': lambda a, b: a**b,
    'max': lambda a, b: a.max(b),
    'mixed': lambda a, b: (a * b + a.tanh()) / (b**2 + 1),
}
BINARY_INPUTS = [(1.5, 2.0), (0.5, -1.5), (2.0, 0.0), (3.0, 0.5)]


def numeric_derivative(f, xs, i, h=1e-6):
    up, down = list(xs), list(xs)
    up[i] += h
    down[i] -= h
    return (f(*[Value(x) for x in up]).data - f(*[Value(x) for x in down]).data) / (2 * h)


@pytest.mark.parametrize('name,x', UNARY_CASES)
def test_unary_gradient_matches_finite_differences(name, x):
    f = UNARY[name][0]
    v = Value(x)
    f(v).backward()
    assert v.grad == pytest.approx(numeric_derivative(f, [x], 0), rel=1e-5, abs=1e-6)


@pytest.mark.parametrize('name', BINARY)
@pytest.mark.parametrize('a,b', BINARY_INPUTS)
def test_binary_gradient_matches_finite_differences(name, a, b):
    f = BINARY[name]
    if name == 'div' and b == 0.0:
        pytest.skip('division by zero')
    va, vb = Value(a), Value(b)
    f(va, vb).backward()
    assert va.grad == pytest.approx(numeric_derivative(f, [a, b], 0), rel=1e-5, abs=1e-6)
    assert vb.grad == pytest.approx(numeric_derivative(f, [a, b], 1), rel=1e-5, abs=1e-6)


def test_hand_derived_gradients():
    x = Value(3.0)
    (x * x * x).backward()  # d/dx x^3 = 3x^2
    assert x.grad == 27.0
    y = Value(0.5)
    y.tanh().backward()
    assert y.grad == pytest.approx(1 - math.tanh(0.5) ** 2)
    z = Value(0.0)
    z.gelu().backward()
    assert z.grad == 0.5  # Phi(0) + 0 * phi(0)


def test_micrograd_readme_example():
    a = Value(-4.0)
    b = Value(2.0)
    c = a + b
    d = a * b + b**3
    c += c + 1
    c += 1 + c + (-a)
    d += d * 2 + (b + a).relu()
    d += 3 * d + (b - a).relu()
    e = c - d
    f = e**2
    g = f / 2.0
    g += 10.0 / f
    assert f"{g.data:.4f}" == "24.7041"
    g.backward()
    assert f"{a.grad:.4f}" == "138.8338"
    assert f"{b.grad:.4f}" == "645.5773"


def tutorial_neuron():
    x1 = Value(2.0, label='x1')
    x2 = Value(0.0, label='x2')
    w1 = Value(-3.0, label='w1')
    w2 = Value(1.0, label='w2')
    b = Value(6.8813735870195432, label='b')
    x1w1 = x1 * w1
    x1w1.label = 'x1*w1'
    x2w2 = x2 * w2
    x2w2.label = 'x2*w2'
    x1w1x2w2 = x1w1 + x2w2
    x1w1x2w2.label = 'x1*w1 + x2*w2'
    n = x1w1x2w2 + b
    n.label = 'n'
    o = n.tanh()
    o.label = 'o'
    return dict(x1=x1, x2=x2, w1=w1, w2=w2, b=b, x1w1=x1w1, x2w2=x2w2, x1w1x2w2=x1w1x2w2, n=n, o=o)


def assert_neuron_gradients(v):
    assert f"{v['o'].data:.4f}" == "0.7071"
    assert v['x1'].grad == pytest.approx(-1.5)
    assert v['w1'].grad == pytest.approx(1.0)
    assert v['x2'].grad == pytest.approx(0.5)
    assert v['w2'].grad == pytest.approx(0.0)
    assert v['n'].grad == pytest.approx(0.5)


def test_tutorial_neuron_backward():
    v = tutorial_neuron()
    v['o'].backward()
    assert_neuron_gradients(v)


def test_tutorial_neuron_by_hand_in_reverse_topological_order():
    v = tutorial_neuron()
    v['o'].grad = 1.0
    for name in ['o', 'n', 'b', 'x1w1x2w2', 'x2w2', 'x1w1']:
        v[name]._backward()
    assert_neuron_gradients(v)


def test_a_plus_a_counts_both_uses():
    a = Value(3.0)
    b = a + a
    assert b._prev == (a, a)
    b.backward()
    assert a.grad == 2.0


def test_prev_is_an_ordered_tuple_of_any_number_of_children_and_can_be_assigned():
    a, b, c = Value(1.0), Value(2.0), Value(3.0)
    assert a._prev == () and a.tanh()._prev == (a,) and (b * a)._prev == (b, a)
    total = Value(6.0, [a, b, c], 'sum')  # a learner's op with three operands
    total._backward = lambda: [setattr(x, 'grad', x.grad + total.grad) for x in (a, b, c)]
    assert total._prev == (a, b, c)
    assert total.topological_order() == [a, b, c, total]
    total.backward()
    assert (a.grad, b.grad, c.grad) == (1.0, 1.0, 1.0)
    total._prev = {c}
    assert total._prev == (c,) and total.topological_order() == [c, total]


def test_backward_twice_accumulates_on_leaves_like_pytorch():
    a, b = Value(2.0), Value(-3.0)
    out = (a * b + a).tanh() * b
    out.backward()
    first = (a.grad, b.grad)
    out.backward()
    assert a.grad == pytest.approx(2 * first[0])
    assert b.grad == pytest.approx(2 * first[1])
    out.zero_grad()
    assert a.grad == b.grad == out.grad == 0.0


@pytest.mark.parametrize('depth', [1_000, 100_000])
def test_deep_chain_has_no_recursion_limit(depth):
    x = Value(1.0)
    y = x
    for _ in range(depth):
        y = y * 1.0 + 0.0
    y.backward()
    assert x.grad == 1.0
    assert len(y.topological_order()) == 4 * depth + 1  # per step: a 1.0 leaf, *, a 0.0 leaf, +


def test_freeing_a_deep_chain_does_not_recurse():
    # CPython frees a chain node by node from inside each parent's free; in Pyodide that used to
    # exhaust the stack after a few thousand levels and kill the interpreter.
    y = Value(1.0)
    for _ in range(200_000):
        y = y + 1
    del y
    assert (Value(2.0) * 3).data == 6.0


def test_freeing_a_chain_never_nests_more_than_one_release(monkeypatch):
    depth = deepest = 0

    def counting_release(self):
        nonlocal depth, deepest
        depth += 1
        deepest = max(deepest, depth)
        try:
            engine._release(self)
        finally:
            depth -= 1

    for releasing_class in (engine._ReleasingNode, engine._with_release(Value)):
        monkeypatch.setattr(releasing_class, '__del__', counting_release)
    y = Value(1.0)
    for _ in range(5_000):
        y = y * 1.0
    del y
    assert deepest <= 2  # 1 in CPython, whose own trashcan unnests deallocations past 50 levels


class Learner(Value):
    """A learner's subclass with an op of its own, written the micrograd way (a closure for _backward)."""

    def cube(self):
        out = Learner(self.data**3, (self,), 'cube')

        def _backward():
            self.grad += 3 * self.data**2 * out.grad

        out._backward = _backward
        return out


def chain(shape, n):
    x = Learner(1.0) if shape.startswith('learner') else Value(1.0)
    for i in range(n):
        if shape == 'mul_add':
            x = x * 1.0 + i
        elif shape == 'add':
            x = x + 1.0
        elif shape == 'add_right':
            x = 1.0 + x if i % 2 else Value(1.0) + x
        elif shape == 'tanh':
            x = x.tanh()
        elif shape == 'square':
            x = x**2
        elif shape == 'learner_cube':
            x = x.cube()
        elif shape == 'learner_mixed':
            half = x * 0.5  # a Value made by an op, then wrapped by hand into the learner's class
            x = Learner(half.data, (half,), 'wrap').cube() if i % 3 else Learner(x.data, (x, half), 'pair')
    return x


def values_alive():
    gc.collect()
    return sum(isinstance(o, Value) for o in gc.get_objects())


CHAIN_SHAPES = ['mul_add', 'add', 'add_right', 'tanh', 'square', 'learner_cube', 'learner_mixed']


@pytest.mark.parametrize('shape', CHAIN_SHAPES)
def test_every_path_meets_a_releasing_node_within_release_every(shape):
    # Only releasing nodes have a __del__; between two of them CPython frees one nested level per value.
    x = chain(shape, 1_000)
    run = {}
    for node in x.topological_order():
        releasing = type(node).__del__ is engine._release if hasattr(type(node), '__del__') else False
        below = max((run[id(c)] for c in node._prev), default=0)
        run[id(node)] = 0 if releasing else below + 1
        assert run[id(node)] <= engine._RELEASE_EVERY
        assert isinstance(node, Value) and type(node).__name__ in ('Value', 'Learner')
    assert 0 < sum(hasattr(type(n), '__del__') for n in x.topological_order()) < len(run) / 10


@pytest.mark.parametrize('shape', CHAIN_SHAPES)
def test_freeing_deep_chains_of_every_shape(shape, monkeypatch):
    problems = []
    monkeypatch.setattr(sys, 'unraisablehook', problems.append)
    alive = values_alive()
    x = chain(shape, 100_000)
    del x  # values_alive() collects: the learner's closures make cycles, which only the collector frees
    assert problems == []
    assert values_alive() == alive and engine._release_queue == []
    assert (Value(2.0) * 3).data == 6.0


def test_releasing_nodes_look_like_any_other_value():
    x = chain('add', 1_000)
    releasing = [n for n in x.topological_order() if hasattr(type(n), '__del__')]
    assert releasing and all(repr(n).startswith('Value(data=') for n in releasing)
    assert {n._op for n in releasing} == {'+'}
    assert type(x).__name__ == 'Value' and not hasattr(Value, '__del__')


def test_undefined_math_gives_nan_or_inf_not_an_exception():
    assert math.isnan((Value(-8.0) ** (1 / 3)).data)
    assert math.isnan((Value(-2.0) ** Value(0.5)).data)
    assert (Value(0.0) ** -1).data == math.inf
    assert (Value(1.0) / 0).data == math.inf
    assert Value(0.0).log().data == -math.inf
    assert math.isnan(Value(-1.0).log().data)
    assert Value(1000.0).exp().data == math.inf
    t = Value(1000.0).tanh()
    assert t.data == 1.0
    t.backward()
    assert Value(-1000.0).sigmoid().data == 0.0
    z = Value(0.0)
    (z**0).backward()
    assert z.grad == 0.0


def test_comparisons_compare_data_and_equality_stays_identity():
    a, b = Value(1.0), Value(1.0)
    assert a < 2 and a <= b and b >= a and Value(3) > a and not (a > b)
    assert a != b and a == a
    assert len({a, b}) == 2
    visited = [a]
    assert b not in visited


def test_backward_gives_the_grads_of_each_backward_called_by_hand():
    # backward() runs the add and mul rules written out; calling each _backward() runs the rule functions.
    def graph():
        a, b, c = Value(0.5), Value(-1.5), Value(2.0)
        d = a * b + c * a
        e = (d * d + b).tanh() * (c**2 - a / b) + d.relu() + (a + a) * (b * b)
        return [a, b, c, d], e

    watched, out = graph()
    by_hand, root = graph()
    for _ in range(2):  # the second time, the leaves add to the grads they already hold
        out.backward()
        order = root.topological_order()
        for node in order:
            if node._prev:
                node.grad = 0.0
        root.grad = 1.0
        for node in reversed(order):
            node._backward()
    assert [v.grad for v in watched] == [v.grad for v in by_hand]
    assert all(v.grad != 0 for v in watched)


def test_learner_assigned_backward_closure_is_used():
    x = Learner(2.0)
    x.cube().backward()
    assert x.grad == 12.0


def test_mlp_matches_micrograd_shape():
    model = MLP(2, [16, 16, 1])
    assert len(model.parameters()) == 337
    out = model([Value(1.0), Value(-2.0)])
    assert isinstance(out, Value)
    out.backward()
    assert any(p.grad != 0 for p in model.parameters())
    model.zero_grad()
    assert all(p.grad == 0 for p in model.parameters())
    assert repr(model).startswith('MLP of [Layer of [ReLUNeuron(2)')


def test_mlp_parameters_are_values_of_a_class_that_op_outputs_do_not_derive_from():
    # CPython looks for an overriding __rmul__ when the right operand's class derives from the left's:
    # weights of their own class keep every w * x of a network off that slower path.
    model = MLP(2, [3, 1])
    x = Value(1.0) * 2
    for p in model.parameters():
        assert isinstance(p, Value) and repr(p).startswith('Value(data=')
        assert not issubclass(type(x), type(p)) and not issubclass(type(p * x), type(p))


def test_a_neuron_builds_the_graph_micrograds_sum_builds():
    n = Neuron(3)
    x = [Value(1.5), 2.0, Value(-1.0)]
    got = n(x)
    want = sum((wi * xi for wi, xi in zip(n.w, x)), n.b).relu()

    def shape(root):  # each value's op, data and children, as positions in the order, leaves by identity
        order = root.topological_order()
        where = {id(v): i for i, v in enumerate(order)}
        return [(v._op, v.data, [where[id(c)] for c in v._prev] if v._prev else id(v)) for v in order]

    leaves = {id(v) for v in n.parameters() + x if isinstance(v, Value)}
    assert {s[2] for s in shape(got) if not isinstance(s[2], list)} >= leaves
    assert [(op, data, kids if isinstance(kids, list) else kids in leaves) for op, data, kids in shape(got)] == [
        (op, data, kids if isinstance(kids, list) else kids in leaves) for op, data, kids in shape(want)
    ]


def test_a_neuron_whose_weights_or_bias_are_replaced_with_numbers_computes_as_the_operators_do():
    x = [Value(1.0), 2.0, Value(3.0)]
    n = Neuron(3, nonlin=False)
    n.w = [0.5, -0.25, 1.0]
    assert n(x).data == sum((wi * xi for wi, xi in zip(n.w, x)), n.b).data == 3.0
    n = Neuron(3, nonlin=False)
    n.b = 0.0
    assert n(x).data == pytest.approx(sum(wi.data * xi for wi, xi in zip(n.w, [1.0, 2.0, 3.0])))
    n = Neuron(1, nonlin=False)
    n.b = 0
    out = n([2.0])
    assert isinstance(out, Value) and out.data == 2.0 * n.w[0].data
    with pytest.raises(TypeError, match="can't multiply sequence") as raised:
        Neuron(2)([Value(1.0), 'a'])
    assert raised.value.__context__ is None  # the operators' own error, not one raised while handling another


@pytest.mark.parametrize('activation', ['tanh', 'sigmoid', 'gelu'])
def test_activation_choice(activation):
    n = Neuron(3, activation=activation)
    out = n([1.0, 2.0, -1.0])
    assert out._op == activation


def test_mlp_runs_and_names_the_layers_it_has_when_called():
    model = MLP(2, [3, 2])
    model.layers[0] = Layer(2, 4)
    model.layers[1] = Layer(4, 2)
    model.layers.append(Layer(2, 1, nonlin=False))
    out = model([Value(1.0), Value(-2.0)])
    assert isinstance(out, Value) and out.label == 'L3.n1'
    assert sorted({n.label for n in out.topological_order() if n.label}) == [
        'L1.n1',
        'L1.n2',
        'L1.n3',
        'L1.n4',
        'L2.n1',
        'L2.n2',
        'L3.n1',
    ]


def test_unknown_activation_is_a_clear_error():
    with pytest.raises(ValueError, match='activation must be one of'):
        MLP(2, [3, 1], activation='softmax')


@pytest.mark.skipif(sys.platform == 'emscripten', reason='no PyTorch in Pyodide')
def test_cross_check_against_pytorch():
    torch = pytest.importorskip('torch')
    x = torch.tensor([-4.0], dtype=torch.double, requires_grad=True)
    y = torch.tensor([2.0], dtype=torch.double, requires_grad=True)
    z = ((x * y).tanh() + (x / y) ** 2 + torch.nn.functional.gelu(y) + x.sigmoid()).relu()
    z = z + y ** (x / 8) + (y * 3).log() + (x / 4).exp() - 2 / y + torch.maximum(x, -y)
    z.backward()
    a, b = Value(-4.0), Value(2.0)
    c = ((a * b).tanh() + (a / b) ** 2 + b.gelu() + a.sigmoid()).relu()
    c = c + b ** (a / 8) + (b * 3).log() + (a / 4).exp() - 2 / b + a.max(-b)
    c.backward()
    assert c.data == pytest.approx(z.item())
    assert a.grad == pytest.approx(x.grad.item())
    assert b.grad == pytest.approx(y.grad.item())
