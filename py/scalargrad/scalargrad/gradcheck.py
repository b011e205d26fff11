"""Finite-difference checks of the .grad values already in a graph (how the page finds a wrong gradient).

The graph is replayed on plain floats from its `_op` strings, so a learner's own Value class can be
checked too, as long as its ops are the usual ones. Children kept in a set lose what a tuple keeps:
`a + a` and `a * a` have one child left, and `a - b` or `a / b` their order; the replay puts back
whichever reading reproduces the recorded data. A node whose replay does not reproduce its data (an
op we do not know, an operand that was not recorded) cannot be recomputed, and so nothing below it
can be nudged: those nodes are reported as not checkable, the others are still checked.
"""

import math
from typing import NamedTuple

from . import engine
from .graph import children_of, trace


def _product(xs):
    out = 1
    for x in xs:
        out *= x
    return out


def _divide(a, b):
    return a * engine.power(b, -1)


FORWARD = {
    '+': sum,
    '*': _product,
    '-': lambda xs: xs[0] - xs[1] if len(xs) == 2 else -xs[0],
    'neg': lambda xs: -xs[0],
    '/': lambda xs: _divide(xs[0], xs[1]),
    '**': lambda xs: engine.power(xs[0], xs[1]),
    'tanh': lambda xs: math.tanh(xs[0]),
    'exp': lambda xs: engine.exp(xs[0]),
    'log': lambda xs: engine.log(xs[0]),
    'ReLU': lambda xs: max(xs[0], 0),
    'relu': lambda xs: max(xs[0], 0),
    'sigmoid': lambda xs: engine.sigmoid(xs[0]),
    'gelu': lambda xs: engine.gelu(xs[0]),
    'max': max,
}
COMMUTATIVE = {'+', '*', 'max'}


def _forward_of(op):
    if not isinstance(op, str):
        return None
    if op in FORWARD:
        return FORWARD[op]
    if op.startswith('**'):
        try:
            k = float(op[2:])
        except ValueError:
            return None
        return lambda xs: engine.power(xs[0], k)
    return None


def _unordered(node):
    children = getattr(node, '_prev', None)
    if children is None:
        children = getattr(node, 'children', ())
    return isinstance(children, (set, frozenset))


def _readings(node, kids):
    """The operand lists that `node` may have been computed from, the likeliest first."""
    op = getattr(node, '_op', '')
    if len(kids) == 1 and op in ('+', '*'):
        return [kids * 2, kids]  # a set made `a + a` one child; `+` of one operand is not a thing
    readings = [kids]
    if len(kids) == 1 and op == '-':
        readings.append(kids * 2)  # `-a`, or `a - a` from a set
    if len(kids) == 2 and op not in COMMUTATIVE and _unordered(node):
        readings.append(kids[::-1])
    return readings


def _evaluate(forward, xs):
    try:
        return forward(xs)
    except (ArithmeticError, TypeError, ValueError, IndexError):
        return math.nan


def operands(node, kids=None):
    """node's operands as it was computed: `a + a` gives [a, a] even when a set kept one child."""
    kids = children_of(node) if kids is None else list(kids)
    forward = _forward_of(getattr(node, '_op', ''))
    if forward is None or not kids:
        return kids
    for reading in _readings(node, kids):
        if _close(_evaluate(forward, [k.data for k in reading]), node.data, 1e-7, 1e-9):
            return reading
    return kids


class Check(NamedTuple):
    node: object
    numeric: float  # nan where the node could not be checked
    analytic: float
    ok: object  # True, False, or None (not checkable)


class Replay:
    """A graph recomputed on plain floats, so that one node can be nudged without touching the others."""

    def __init__(self, root, order=None):
        self.root = root
        self.order = trace(root)[0] if order is None else order
        self.position = {id(n): i for i, n in enumerate(self.order)}
        self.data = [n.data for n in self.order]
        self.rules = {}  # position -> (forward, operand positions)
        self.unreplayable = []  # positions of computed nodes whose data the replay cannot reproduce
        self.parents = [[] for _ in self.order]
        self.leaves = set()
        for i, node in enumerate(self.order):
            kids = children_of(node)
            for k in kids:
                self.parents[self.position[id(k)]].append(i)
            if not kids:
                self.leaves.add(i)
                continue
            forward = _forward_of(getattr(node, '_op', ''))
            reading = None
            if forward is not None:
                for candidate in _readings(node, kids):
                    xs = [self.data[self.position[id(k)]] for k in candidate]
                    if _close(_evaluate(forward, xs), self.data[i], 1e-7, 1e-9):
                        reading = candidate
                        break
            if reading is None:
                self.unreplayable.append(i)
            else:
                self.rules[i] = (forward, [self.position[id(k)] for k in reading])

    def downstream(self, i):
        """Positions of every node computed from node i, in topological order."""
        seen, stack = set(), [i]
        while stack:
            for p in self.parents[stack.pop()]:
                if p not in seen:
                    seen.add(p)
                    stack.append(p)
        return sorted(seen)

    def root_with(self, i, value, downstream):
        data = self.data.copy()
        data[i] = value
        for j in downstream:
            forward, args = self.rules[j]
            data[j] = _evaluate(forward, [data[a] for a in args])
        return data[-1]

    def check(self, node, h=1e-6, rel_tol=1e-4, abs_tol=1e-5):
        analytic = getattr(node, 'grad', math.nan)
        i = self.position[id(node)]
        downstream = self.downstream(i)
        if any(j not in self.rules for j in downstream):
            return Check(node, math.nan, analytic, None)
        try:
            base = self.data[i]
            numeric = (self.root_with(i, base + h, downstream) - self.root_with(i, base - h, downstream)) / (2 * h)
        except (ArithmeticError, TypeError, ValueError):
            return Check(node, math.nan, analytic, None)
        return Check(node, numeric, analytic, _close(numeric, analytic, rel_tol, abs_tol))


def gradcheck(root, nodes=None, h=1e-6, rel_tol=1e-4, abs_tol=1e-5):
    """Compare each node's .grad with d root / d node by central differences. Default: the leaves."""
    replay = Replay(root)
    if nodes is None:
        nodes = [n for i, n in enumerate(replay.order) if i in replay.leaves]
    return [replay.check(node, h, rel_tol, abs_tol) for node in nodes]


def _close(a, b, rel_tol, abs_tol):
    if isinstance(a, float) and isinstance(b, float) and math.isnan(a) and math.isnan(b):
        return True
    try:
        return math.isclose(a, b, rel_tol=rel_tol, abs_tol=abs_tol)
    except TypeError:
        return False
