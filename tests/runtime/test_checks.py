"""playground_runtime.checks: the helpers exercise checks use, and how run_checks reports what happens."""

import pytest

from playground_runtime.checks import CheckFailed, checking, expect, expect_close, expect_grad, expect_grads, run_checks
from scalargrad import Value
from support.learners import SetValue

PASSED = {'status': 'passed', 'message': 'All checks passed.'}


def failed(message):
    return {'status': 'failed', 'message': message}


def run(source, namespace=None, graphs=None):
    show = (lambda dot, nodes, title, **teaching: graphs.append((dot, nodes, title))) if graphs is not None else None
    return run_checks(source, {} if namespace is None else namespace, show)


def learners_code(source):
    """Functions compiled as the playground compiles the learner's program, so frames say '<editor>'."""
    namespace = {'__name__': '__main__'}
    exec(compile(source, '<editor>', 'exec'), namespace)
    return namespace


def test_checks_that_hold_pass():
    assert run("expect(x == 2, 'x should be 2')\nexpect_close(x / 3, 0.6666666, 'close enough')", {'x': 2}) == PASSED


def test_the_first_failed_check_is_the_message():
    assert run("expect(x == 3, 'x should be 3')\nexpect(False, 'never reached')", {'x': 2}) == failed('x should be 3')


def test_expect_close_shows_the_values_where_asked():
    with pytest.raises(CheckFailed, match=r'^data is 5\.0, expected 6\.0: multiply$'):
        expect_close(5.0, 6.0, 'data is {actual}, expected {expected}: multiply')
    with pytest.raises(CheckFailed, match="^got None$"):
        expect_close(None, 6.0, 'got {actual}')
    with pytest.raises(CheckFailed, match="^a Value with data 6.0 is not a number$"):
        expect_close(Value(6.0), 6.0, '{actual} is not a number')
    expect_close(6.0 + 1e-9, 6, 'close')
    expect_close(1e9 + 1, 1e9, 'relative tolerance')


def test_expect_grad_says_label_actual_expected_and_why():
    a = Value(3.0, label='a')
    a.grad = 3.0
    with pytest.raises(CheckFailed) as info:
        expect_grad(a, 6.0, 'is `+=` used?')
    assert str(info.value) == 'a.grad is 3.0, expected 6.0: is `+=` used?'
    with pytest.raises(CheckFailed, match=r'^the grad of the value with data 3\.0 is 3\.0, expected 6\.0$'):
        unlabelled = Value(3.0)
        unlabelled.grad = 3.0
        expect_grad(unlabelled, 6.0)
    expect_grad(a, 3.0 + 1e-9)


def test_numbers_are_shown_as_a_learner_writes_them():
    a = Value(1.0, label='a')
    a.grad = 5.999999999
    with pytest.raises(CheckFailed, match=r'^a\.grad is 6\.0, expected 0\.333333$'):
        expect_grad(a, 1 / 3)
    a.grad = None
    with pytest.raises(CheckFailed, match=r'^a\.grad is None, expected 2$'):
        expect_grad(a, 2)


def test_a_failed_grad_draws_the_graph_with_the_node_marked():
    graphs = []
    source = (
        "a = Value(3.0, label='a')\nb = a * a\nb.label = 'b'\nb.grad = 1.0\na.grad = 3.0\n"
        "expect_grad(a, 6.0, 'a is used twice', root=b)"
    )
    assert run(source, {'Value': Value}, graphs) == failed('a.grad is 3.0, expected 6.0: a is used twice')
    ((dot, nodes, title),) = graphs
    assert nodes == 2 and title == 'b (wrong grads marked)'
    assert 'v0 [label="{ a | data 3.0000 | grad 3.0000 ≠ 6.0000 expected }" shape=record class="wrong-grad"' in dot
    assert 'class=root' in dot and dot.count('wrong-grad') == 1


def test_expect_grads_passes_a_correct_graph_and_marks_every_wrong_grad():
    a, b = Value(2.0, label='a'), Value(-3.0, label='b')
    c = a * b
    c.label = 'c'
    out = c + a
    out.label = 'out'
    out.backward()
    expect_grads(out)
    a.grad, b.grad = 1.0, 0.0  # as if c's _backward never ran
    graphs = []
    result = run("expect_grads(out, 'output first?')", {'out': out}, graphs)
    assert result == failed('b.grad is 0.0, expected 2.0 (1 more wrong grad marked in the graph): output first?')
    ((dot, _, _),) = graphs
    marked = [line for line in dot.splitlines() if 'wrong-grad' in line]
    assert len(marked) == 2
    assert '{ a | data 2.0000 | grad 1.0000 ≠ -2.0000 expected }' in marked[0]


def test_expect_grads_works_on_a_learners_class_and_says_when_it_cannot_replay():
    a, b = SetValue(2.0, label='a'), SetValue(5.0, label='b')
    out = a * b
    out.grad, a.grad, b.grad = 1.0, 5.0, 2.0
    expect_grads(out)
    twice = a * a  # a set keeps one child; the replay reads it as a * a again
    twice.grad, a.grad = 1.0, 4.0
    expect_grads(twice)
    cube = SetValue(8.0, (a,), 'cube')  # an op the replay does not know
    with pytest.raises(CheckFailed, match='could not be checked'):
        expect_grads(cube)


def test_an_error_says_what_was_being_checked_and_never_shows_a_traceback():
    mine = learners_code(
        "class Value:\n    def __init__(self, data):\n        self.data = data\n\n"
        "    def __mul__(self, other):\n        return self.data * other.data\n"
    )
    source = "with checking('Value(2.0) * Value(3.0)'):\n    out = (Value(2.0) * Value(3.0)).data\n"
    assert run(source, mine) == failed(
        "Checking `Value(2.0) * Value(3.0)`: it raised AttributeError: 'float' object has no attribute 'data'"
    )


def test_without_checking_the_checks_line_says_what_was_checked_and_the_learners_line_where():
    mine = learners_code("def double(x):\n    return x * undefined\n")
    assert run("y = 1\nz = double(2)", mine) == failed(
        "Checking `z = double(2)`: it raised NameError: name 'undefined' is not defined (line 2 of your code)"
    )


def test_the_innermost_checking_names_the_error():
    source = "with checking('outer'):\n    with checking('inner'):\n        1 / 0\n"
    assert run(source) == failed("Checking `inner`: it raised ZeroDivisionError: division by zero")


def test_an_assert_in_the_checks_is_a_failed_check_and_one_in_the_learners_code_is_explained():
    assert run("assert 1 == 2, 'one is not two'") == failed('one is not two')
    assert run("x = 1\nassert x == 2") == failed('A check failed: `assert x == 2`.')
    mine = learners_code("def f():\n    assert False, 'my own'\n")
    assert run("with checking('f()'):\n    f()", mine) == failed(
        "Checking `f()`: an `assert` in your code failed: my own (line 2 of your code)"
    )


def test_helpers_do_not_stay_in_the_learners_namespace():
    namespace = {'x': 1, 'expect': 'the learner'}
    assert run("expect(x == 1, 'x')\ny = 2", namespace) == PASSED
    assert namespace == {'x': 1, 'expect': 'the learner'}


def test_stop_is_not_swallowed():
    with pytest.raises(KeyboardInterrupt):
        run("raise KeyboardInterrupt")


def test_a_syntax_error_in_the_checks_blames_the_exercise():
    result = run("expect(")
    assert result['status'] == 'failed' and 'mistake in the exercise, not in your code' in result['message']


def test_checking_leaves_failed_checks_alone():
    with pytest.raises(CheckFailed, match='^plain$'):
        with checking('something'):
            expect(False, 'plain')
