"""Learners' own Value classes, as the tutorials (../shared/seeds) write them: the engine's tools must draw,
check and explain these too, not only scalargrad's."""


class SetValue:
    """A learner's own class, as the tutorials write it: children in a set, a closure per op."""

    def __init__(self, data, _children=(), _op='', label=''):
        self.data = data
        self.grad = 0.0
        self._backward = lambda: None
        self._prev = set(_children)
        self._op = _op
        self.label = label

    def __add__(self, other):
        return SetValue(self.data + other.data, (self, other), '+')

    def __mul__(self, other):
        return SetValue(self.data * other.data, (self, other), '*')


class ChildrenValue:
    """The other convention in the seeds: `children`, no grad, no label."""

    def __init__(self, data, children={}):
        self.data = data
        self.children = children

    def __add__(self, other):
        return ChildrenValue(self.data + other.data, children={self, other})


# Seed 000's class as the tutorial writes it: children in a set, `_backward` assigns with `=`.
SEED_VALUE = '''
class Value:
    def __init__(self, data, _children=(), _op='', label=''):
        self.data = data
        self.grad = 0.0
        self._backward = lambda: None
        self._prev = set(_children)
        self._op = _op
        self.label = label

    def __repr__(self):
        return f"Value(data={self.data})"

    def __add__(self, other):
        out = Value(self.data + other.data, (self, other), '+')
        def _backward():
            self.grad = out.grad * 1.0
            other.grad = out.grad * 1.0
        out._backward = _backward
        return out

    def __mul__(self, other):
        out = Value(self.data * other.data, (self, other), '*')
        def _backward():
            self.grad = out.grad * other.data
            other.grad = out.grad * self.data
        out._backward = _backward
        return out
'''
A_PLUS_A = (
    SEED_VALUE
    + '''
a = Value(3.0, label='a')
b = a + a; b.label = 'b'
b.grad = 1.0
b._backward()
draw_dot(b)
'''
)
