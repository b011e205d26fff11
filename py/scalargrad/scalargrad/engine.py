"""A scalar autograd engine with micrograd's shape, minus its reference cycles and recursion."""

import itertools
import math
from functools import partial

# Each op's local backward rule is a module-level function of the output node, stored
# on the node in `_rule`. A closure per node (micrograd's way) makes out -> closure -> out
# cycles, and chasing those cycles is most of micrograd's run time under the default GC.


def _add_backward(out):
    a, b = out._a, out._b
    a.grad += out.grad
    b.grad += out.grad


def _mul_backward(out):
    a, b = out._a, out._b
    a.grad += b.data * out.grad
    b.grad += a.data * out.grad


def _pow_number_backward(k, out):
    a = out._a
    if k != 0:  # torch's convention: x ** 0 has gradient 0 everywhere, even at x = 0
        a.grad += k * power(a.data, k - 1) * out.grad


def _pow_value_backward(out):
    a, b = out._a, out._b
    a.grad += b.data * power(a.data, b.data - 1) * out.grad
    if a.data != 0 or b.data < 0:  # torch's convention: no gradient to b where a = 0
        b.grad += out.data * log(a.data) * out.grad


def _tanh_backward(out):
    a = out._a
    a.grad += (1 - out.data * out.data) * out.grad


def _exp_backward(out):
    a = out._a
    a.grad += out.data * out.grad


def _log_backward(out):
    a = out._a
    a.grad += power(a.data, -1) * out.grad


def _relu_backward(out):
    a = out._a
    a.grad += (out.data > 0) * out.grad


def _sigmoid_backward(out):
    a = out._a
    a.grad += out.data * (1 - out.data) * out.grad


def _gelu_backward(out):
    a = out._a
    x = a.data
    a.grad += (normal_cdf(x) + x * math.exp(-0.5 * x * x) / _SQRT_2PI) * out.grad


def _max_backward(out):
    a, b = out._a, out._b
    if a.data >= b.data:
        a.grad += out.grad
    else:
        b.grad += out.grad


# Plain float functions that follow torch where the real math is undefined: nan or inf, not an exception.

_SQRT_2PI = math.sqrt(2 * math.pi)


def power(a, k):
    try:
        result = a**k
    except ZeroDivisionError:  # 0 ** negative
        return math.copysign(math.inf, a) if float(k).is_integer() and k % 2 else math.inf
    except OverflowError:
        return math.inf
    return math.nan if isinstance(result, complex) else result


def log(a):
    if a == 0:
        return -math.inf
    return math.log(a) if a > 0 else math.nan


def exp(a):
    try:
        return math.exp(a)
    except OverflowError:
        return math.inf


def sigmoid(a):
    if a >= 0:
        return 1 / (1 + math.exp(-a))
    e = math.exp(a)
    return e / (1 + e)


def normal_cdf(a):
    return 0.5 * (1 + math.erf(a / math.sqrt(2)))


def gelu(a):
    return a * normal_cdf(a)


def _noop():
    pass


# Freeing a long chain frees each node from inside its parent's free: one C frame per level.
# Pyodide's stack gives out after a few thousand levels (a fatal error, not an exception).
# So no path below a node runs longer than _RELEASE_EVERY values without a releasing node: one
# whose __del__ hands its children to a queue that the outermost release empties in a loop.
# Only those few nodes pay for a __del__ call; the others are freed by CPython alone.
_RELEASE_EVERY = 100
_release_queue = []
_releasing = False

_walks = itertools.count()  # each walk over a graph (_walk) marks the nodes it reaches with a number of its own


class Value:
    """A scalar that remembers how it was computed, so that backward() can fill in .grad."""

    __slots__ = ('data', 'grad', '_a', '_b', '_rest', '_op', 'label', '_rule', '_visit', '_unreleased')

    def __init__(self, data, _children=(), _op='', label=''):
        self.data = data
        self.grad = 0.0
        self._prev = _children
        self._op = _op
        self.label = label
        self._rule = None
        self._visit = None
        unreleased = 0  # values since the last releasing one, on the longest path down from here
        for child in self._prev:
            if child._unreleased >= unreleased:
                unreleased = child._unreleased + 1
        if unreleased < _RELEASE_EVERY:
            self._unreleased = unreleased
        else:
            self._unreleased = 0
            self.__class__ = _with_release(type(self))

    # The children live in two slots (and a tuple past two), not in a tuple per value: a tuple is one
    # more object for the garbage collector to track, which costs more than the rest of making a value.
    @property
    def _prev(self):
        a = self._a
        if a is None:
            return ()
        b = self._b
        return (a,) if b is None else (a, b) + self._rest

    @_prev.setter
    def _prev(self, children):
        children = tuple(children)
        self._a = children[0] if children else None
        self._b = children[1] if len(children) > 1 else None
        self._rest = children[2:]

    @property
    def _backward(self):
        return _noop if self._rule is None else partial(self._rule, self)

    @_backward.setter
    def _backward(self, fn):
        # A learner extending Value the micrograd way assigns a closure of no arguments.
        self._rule = lambda out: fn()

    @staticmethod
    def _coerce(other):
        return other if isinstance(other, Value) else Value(other)

    def __add__(self, other):
        other = other if isinstance(other, Value) else Value(other)
        return _Node(self.data + other.data, '+', _add_backward, self, other)

    def __mul__(self, other):
        other = other if isinstance(other, Value) else Value(other)
        return _Node(self.data * other.data, '*', _mul_backward, self, other)

    def __pow__(self, other):
        if isinstance(other, Value):
            return _Node(power(self.data, other.data), '**', _pow_value_backward, self, other)
        assert isinstance(other, (int, float)), "only int/float powers or Value powers"
        return _Node(power(self.data, other), f'**{other}', partial(_pow_number_backward, other), self)

    def _unary(self, data, op, rule):
        return _Node(data, op, rule, self)

    def tanh(self):
        return self._unary(math.tanh(self.data), 'tanh', _tanh_backward)

    def exp(self):
        return self._unary(exp(self.data), 'exp', _exp_backward)

    def log(self):
        return self._unary(log(self.data), 'log', _log_backward)

    def relu(self):
        return self._unary(0 if self.data < 0 else self.data, 'ReLU', _relu_backward)

    def sigmoid(self):
        return self._unary(sigmoid(self.data), 'sigmoid', _sigmoid_backward)

    def gelu(self):
        return self._unary(gelu(self.data), 'gelu', _gelu_backward)

    def max(self, other):
        other = self._coerce(other)
        return _Node(max(self.data, other.data), 'max', _max_backward, self, other)

    def __neg__(self):
        return self * -1

    def __radd__(self, other):
        return self + other

    def __sub__(self, other):
        return self + (-other)

    def __rsub__(self, other):
        return other + (-self)

    def __rmul__(self, other):
        return self * other

    def __truediv__(self, other):
        return self * (other**-1 if isinstance(other, Value) else power(other, -1))

    def __rtruediv__(self, other):
        return other * self**-1

    def __rpow__(self, other):
        return Value(other) ** self

    # Ordering compares data; == stays identity so that `node in visited_list` works as in the tutorials.
    def __lt__(self, other):
        return self.data < _data(other)

    def __le__(self, other):
        return self.data <= _data(other)

    def __gt__(self, other):
        return self.data > _data(other)

    def __ge__(self, other):
        return self.data >= _data(other)

    def __float__(self):
        return float(self.data)

    def topological_order(self):
        """Every node below self, children before parents, without recursion."""
        return self._walk(reset=False)

    def _walk(self, reset):
        # Marking a node with the walk's number is quicker than a set of 60,000 nodes in Pyodide.
        # A parent returned to rescans its few children for one not yet visited, which allocates nothing.
        walk = next(_walks)
        self._visit = walk
        order, parents = [], []
        node = self
        while True:
            # child: the first of node's children not yet visited, or None
            child = node._a
            if child is not None and child._visit is walk:
                child = node._b
                if child is not None and child._visit is walk:
                    for child in node._rest:
                        if child._visit is not walk:
                            break
                    else:
                        child = None
            if child is not None:
                child._visit = walk
                parents.append(node)
                node = child
                continue
            if reset and node._a is not None:
                node.grad = 0.0
            order.append(node)
            if not parents:
                return order
            node = parents.pop()

    def backward(self):
        # Like PyTorch: leaves accumulate across calls, inner nodes hold this call's gradient.
        order = self._walk(reset=True)
        self.grad = 1.0
        for node in reversed(order):
            rule = node._rule
            # The two rules of nine values in ten, written out: a call per value costs as much as the rule.
            if rule is _add_backward:
                grad = node.grad
                node._a.grad += grad
                node._b.grad += grad
            elif rule is _mul_backward:
                a, b, grad = node._a, node._b, node.grad
                a.grad += b.data * grad
                b.grad += a.data * grad
            elif rule is not None:
                rule(node)

    def zero_grad(self):
        for node in self.topological_order():
            node.grad = 0.0

    def __repr__(self):
        return f"Value(data={self.data}, grad={self.grad})"


def _data(x):
    return x.data if isinstance(x, Value) else x


class _Node(Value):
    """What Value's ops return: a Value made in one short call, its children and backward rule known."""

    __slots__ = ()

    def __init__(self, data, op, rule, a, b=None):
        self.data = data
        self.grad = 0.0
        self._op = op
        self.label = ''
        self._rule = rule
        self._visit = None
        self._a = a
        self._b = b
        self._rest = ()
        if b is None:
            unreleased = a._unreleased + 1
        else:
            unreleased = (a._unreleased if a._unreleased > b._unreleased else b._unreleased) + 1
        if unreleased < _RELEASE_EVERY:
            self._unreleased = unreleased
        else:
            self._unreleased = 0
            self.__class__ = _ReleasingNode


def _release(self, queue=_release_queue):  # the queue bound here: at exit, module globals may be gone first
    global _releasing
    if getattr(self, '_a', None) is None:  # a leaf, or __init__ was interrupted (Stop)
        return
    queue.append((self._a, self._b, self._rest))  # the queue holds the only references to them now
    self._a = self._b = None
    self._rest = ()
    if _releasing:
        return
    _releasing = True
    try:
        while queue:
            queue.pop()
    finally:
        _releasing = False


_releasing_classes = {}


def _with_release(cls):
    """cls with _release as __del__, under the same name and with the same layout, so a node can switch to it."""
    if cls not in _releasing_classes:
        _releasing_classes[cls] = type(
            cls.__name__,
            (cls,),
            {'__slots__': (), '__del__': _release, '__module__': cls.__module__, '__qualname__': cls.__qualname__},
        )
    return _releasing_classes[cls]


_Node.__name__ = _Node.__qualname__ = 'Value'  # learners see their values as Values, in messages too
_ReleasingNode = _with_release(_Node)
