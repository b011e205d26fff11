import math

import pytest

from scalargrad import Value, gradcheck, make_moons
from support.learners import SetValue


def test_correct_gradients_agree():
    a, b = Value(1.5, label='a'), Value(-0.5, label='b')
    out = ((a * b).tanh() + a**2 + b.exp() + (a - b).relu() + a.max(b) + (a / 3).sigmoid() + b.gelu()) * 2
    out.backward()
    checks = gradcheck(out)
    assert [c.node for c in checks if c.node.label] == [a, b]  # the other leaves are constants
    assert all(c.ok for c in checks)
    assert checks[0].numeric == pytest.approx(a.grad, rel=1e-5)


def test_a_wrong_gradient_is_flagged():
    a, b = Value(2.0), Value(3.0)
    out = a * b + a
    out.backward()
    a.grad = 3.0  # the '=' instead of '+=' mistake: only the last contribution kept
    checks = {id(c.node): c for c in gradcheck(out)}
    assert checks[id(a)].ok is False
    assert checks[id(a)].numeric == pytest.approx(4.0)
    assert checks[id(b)].ok is True


def test_inner_nodes_can_be_checked():
    a = Value(2.0)
    h = a * 3
    out = h.tanh()
    out.backward()
    (check,) = gradcheck(out, nodes=[h])
    assert check.ok and check.numeric == pytest.approx(1 - math.tanh(6.0) ** 2)


def test_learner_class_with_overwriting_backward_is_flagged():
    """Seed 000's class: `self.grad = ...` instead of `+=`, wrong once a value is used twice."""

    class Learner(SetValue):
        def __add__(self, other):
            out = Learner(self.data + other.data, (self, other), '+')

            def _backward():
                self.grad = out.grad
                other.grad = out.grad

            out._backward = _backward
            return out

        def __mul__(self, other):
            out = Learner(self.data * other.data, (self, other), '*')

            def _backward():
                self.grad = other.data * out.grad
                other.grad = self.data * out.grad

            out._backward = _backward
            return out

    a, b = Learner(2.0, label='a'), Learner(3.0, label='b')
    d = a * b
    out = d + a
    out.grad = 1.0
    for node in (out, d):
        node._backward()
    by_label = {c.node.label: c for c in gradcheck(out)}
    assert by_label['a'].ok is False and by_label['a'].numeric == pytest.approx(4.0)
    assert by_label['b'].ok is True


def test_unknown_op_is_not_checkable():
    a = Value(2.0)
    out = Value(a.data**3, (a,), 'cube')
    (check,) = gradcheck(out)
    assert check.ok is None and math.isnan(check.numeric)
    assert a.data == 2.0


def test_gradcheck_leaves_data_as_it_was():
    a, b = Value(0.3), Value(0.7)
    out = (a * b).tanh() + b
    before = [n.data for n in out.topological_order()]
    gradcheck(out)
    assert [n.data for n in out.topological_order()] == before


def test_make_moons_is_reproducible_and_balanced():
    X, y = make_moons(100, noise=0.1, seed=7)
    assert len(X) == 100 and sum(y) == 50
    assert make_moons(100, noise=0.1, seed=7) == (X, y)
    assert make_moons(100, noise=0.1, seed=8) != (X, y)
    X0, _ = make_moons(10, noise=0.0, seed=1)
    assert all(-1.01 <= x <= 2.01 and -0.51 <= v <= 1.01 for x, v in X0)
