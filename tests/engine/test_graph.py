import os
import subprocess
import sys

import pytest

from scalargrad import GraphTooLarge, Value, draw_dot, to_dot, trace
from support.learners import ChildrenValue, SetValue


def test_trace_is_ordered_and_keeps_every_use():
    a, b = Value(2.0, label='a'), Value(3.0, label='b')
    c = a * b
    d = c + a
    nodes, edges = trace(d)
    assert nodes == [a, b, c, d]
    assert edges == [(c, d), (a, c), (b, c), (a, d)]
    nodes, edges = trace(a + a)
    assert len(nodes) == 2 and len(edges) == 2


def test_trace_of_a_deep_chain_does_not_recurse():
    x = Value(1.0)
    for _ in range(20_000):
        x = x + 1
    nodes, _ = trace(x)
    assert len(nodes) == 40_001


def test_dot_draws_the_tutorial_picture():
    a = Value(2.0, label='a')
    b = Value(-3.0, label='b')
    e = a * b
    e.label = 'e'
    e.backward()
    dot = to_dot(e)
    assert dot.startswith('digraph {')
    assert 'rankdir=LR' in dot
    assert '  v0 [label="{ a | data 2.0000 | grad -3.0000 }" shape=record id="v0"]\n' in dot
    assert '  v2 [label="{ e | data -6.0000 | grad 1.0000 }" shape=record class=root id="v2"]\n' in dot
    assert dot.count('class=root') == 1
    assert '  v2_op [label="*" shape=circle id="v2_op"]\n' in dot
    assert '  v2_op -> v2 [class="into-v2"]\n' in dot
    assert '  v0 -> v2_op [class="into-v2"]\n' in dot and '  v1 -> v2_op [class="into-v2"]\n' in dot


def test_learner_class_with_prev_set_is_drawn():
    x = SetValue(2.0, label='x')
    w = SetValue(-3.0, label='w')
    y = x * w
    y.label = 'y'
    dot = draw_dot(y).source
    assert '{ x | data 2.0000 | grad 0.0000 }' in dot
    assert '{ y | data -6.0000 | grad 0.0000 }' in dot
    assert dot.count('-> v2_op') == 2


def test_learner_class_with_children_is_drawn():
    z = ChildrenValue(1.0) + ChildrenValue(2.5)
    dot = to_dot(z)
    assert '{  | data 3.5000 }' in dot
    assert dot.count('shape=record') == 3
    assert dot.count(' -> v2') == 2  # no op: children point at the node itself


@pytest.mark.parametrize(
    'label,expected',
    [
        ('{a|b}', r'\{a\|b\}'),
        ('<x>', r'\<x\>'),
        ('say "hi"', r'say \"hi\"'),
        ('back\\slash', r'back\\slash'),  # Graphviz reads \\ in a label as one backslash
        ('line\nbreak', r'line\\nbreak'),
        ('bell\x07', r'bell\\x07'),
    ],
)
def test_hostile_labels_come_out_literally(label, expected):
    v = Value(1.0, label=label)
    dot = to_dot(v)
    assert f'{{ {expected} | data 1.0000' in dot
    assert '\n' not in dot.split('label="')[1].split('" shape')[0]


def test_hostile_op_is_escaped():
    v = Value(1.0, (Value(2.0),), _op='"];evil[')
    dot = to_dot(v)
    assert 'label="\\"];evil[" shape=circle' in dot


def test_non_numeric_data_is_shown_as_text():
    class Odd:
        data = 'n/a'
        _prev = ()

    assert '{  | data n/a }' in to_dot(Odd())


def test_graph_over_the_limit_says_count_and_limit():
    x = Value(0.0)
    for _ in range(30):
        x = x + 1
    with pytest.raises(GraphTooLarge, match='61 values, more than the 50'):
        draw_dot(x, max_nodes=50)
    assert draw_dot(x, max_nodes=61).node_count == 61


def test_draw_dot_returns_an_object_with_source():
    v = Value(1.0, label='out') * 2
    g = draw_dot(v)
    assert g.source == to_dot(v)
    assert g.node_count == 3
    assert 'graph of 3 values' in repr(g)


DOT_OF_A_SET_GRAPH = '''
import sys
sys.path.insert(0, {py!r})
sys.path.insert(0, {tests!r})
from support.learners import SetValue
from scalargrad import to_dot
leaves = [SetValue(float(i), label=f'x{{i}}') for i in range(12)]
junk = [SetValue(0.0) for _ in range({junk})]  # shifts memory addresses between runs
total = leaves[0]
for leaf in leaves[1:]:
    total = total * leaf + leaves[0]
print(to_dot(total))
'''


@pytest.mark.skipif(sys.platform == 'emscripten', reason='no subprocesses in Pyodide')
def test_dot_text_is_the_same_in_every_process():
    here = os.path.dirname(__file__)
    outputs = set()
    for seed, junk in [('0', 0), ('1', 7), ('12345', 100)]:
        code = DOT_OF_A_SET_GRAPH.format(
            py=os.path.join(here, '..', '..', 'py', 'scalargrad'), tests=os.path.dirname(here), junk=junk
        )
        env = dict(os.environ, PYTHONHASHSEED=seed)
        outputs.add(
            subprocess.run([sys.executable, '-c', code], env=env, capture_output=True, text=True, check=True).stdout
        )
    assert len(outputs) == 1


def test_no_marks_leave_the_picture_as_it_was():
    a = Value(2.0, label='a')
    out = a * a
    out.label = 'out'
    out.backward()
    assert to_dot(out, marks={}) == to_dot(out, marks=None) == to_dot(out) == draw_dot(out, marks=[]).source


def test_a_marked_node_shows_its_grad_and_the_expected_one_and_is_classed():
    a = Value(3.0, label='a')
    b = a * a
    b.label = 'b'
    b.grad, a.grad = 1.0, 3.0  # `=` instead of `+=`: one of the two uses lost
    dot = to_dot(b, marks={a: 6.0})
    assert (
        '  v0 [label="{ a | data 3.0000 | grad 3.0000 ≠ 6.0000 expected }" shape=record class="wrong-grad" '
        'color="#c62828" fontcolor="#b71c1c" fillcolor="#fdecea" style=filled penwidth=2 id="v0"]'
    ) in dot
    assert '  v1 [label="{ b | data 9.0000 | grad 1.0000 }" shape=record class=root id="v1"]' in dot
    assert draw_dot(b, marks={a: 6.0}).source == dot


def test_a_marked_output_keeps_its_root_class():
    out = Value(1.0, label='out') * 2
    out.label = 'out'
    dot = to_dot(out, marks={out: 1.0})
    assert 'grad 0.0000 ≠ 1.0000 expected }" shape=record class="root wrong-grad"' in dot
    assert 'class=root' not in dot


def test_marks_can_be_pairs_for_objects_that_are_not_hashable():
    class Unhashable:
        __hash__ = None  # a class with __eq__ and no __hash__, as tutorials sometimes write

        def __init__(self, data, children=(), label=''):
            self.data, self.grad, self._prev, self.label = data, 0.0, list(children), label

    x = Unhashable(2.0, label='x')
    y = Unhashable(4.0, (x,), label='y')
    dot = to_dot(y, marks=[(x, 2.0)])
    assert '{ x | data 2.0000 | grad 0.0000 ≠ 2.0000 expected }' in dot and dot.count('wrong-grad') == 1


def test_marked_labels_are_escaped_too():
    v = Value(1.0, label='{a|b}')
    assert r'{ \{a\|b\} | data 1.0000 | grad 0.0000 ≠ -1.5000 expected }' in to_dot(v, marks={v: -1.5})
