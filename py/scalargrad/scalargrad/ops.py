"""The ops that a graph's `_op` strings name, on plain floats: each op's forward and its local derivatives.

  forward(op)   f(xs) -> the op's output from its operands' data, or None for an op not known here
  local(op)     f(xs, y) -> [d y / d x_i] from the operands' data and the output's, or None
  operands(node, kids=None)   the operands as the op used them (`a + a` gives [a, a] even when a set
                kept one child), the children as they are when no reading reproduces the node's data
  reading(node, kids)         the same, or None when no reading reproduces it
  readings(node, kids)        the operand lists the node may have been computed from, the likeliest first
  evaluate(f, xs)             f(xs), or nan where the arithmetic fails
  close(a, b, rel_tol, abs_tol)   math.isclose that takes two nans as equal and anything else as unequal

An op is one of FORWARD's keys, or `**k` for a constant power k (micrograd's label for `x ** k`).
Gradient checks (scalargrad.gradcheck) replay a graph with these; the playground's explanations of a
drawn graph read them too.
"""

import math

from . import engine
from .graph import children_of


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
# d out / d operand i, from the operands' data xs and the output's data y.
LOCAL = {
    '+': lambda xs, y: [1.0] * len(xs),
    '*': lambda xs, y: [math.prod(xs[:i] + xs[i + 1 :]) for i in range(len(xs))],
    '-': lambda xs, y: [1.0, -1.0] if len(xs) == 2 else [-1.0],
    'neg': lambda xs, y: [-1.0],
    '/': lambda xs, y: [engine.power(xs[1], -1), -xs[0] * engine.power(xs[1], -2)],
    '**': lambda xs, y: [xs[1] * engine.power(xs[0], xs[1] - 1), y * engine.log(xs[0])],
    'tanh': lambda xs, y: [1 - y * y],
    'exp': lambda xs, y: [y],
    'log': lambda xs, y: [engine.power(xs[0], -1)],
    'relu': lambda xs, y: [1.0 if y > 0 else 0.0],
    'ReLU': lambda xs, y: [1.0 if y > 0 else 0.0],
    'sigmoid': lambda xs, y: [y * (1 - y)],
    'gelu': lambda xs, y: [engine.normal_cdf(xs[0]) + xs[0] * math.exp(-0.5 * xs[0] ** 2) / math.sqrt(2 * math.pi)],
    'max': lambda xs, y: [1.0, 0.0] if xs[0] >= xs[1] else [0.0, 1.0],
}
COMMUTATIVE = {'+', '*', 'max'}


def _constant_power(op):
    """k for an op `**k`, else None."""
    if not (isinstance(op, str) and op.startswith('**')):
        return None
    try:
        return float(op[2:])
    except ValueError:
        return None


def forward(op):
    if not isinstance(op, str):
        return None
    if op in FORWARD:
        return FORWARD[op]
    k = _constant_power(op)
    return None if k is None else (lambda xs: engine.power(xs[0], k))


def local(op):
    if not isinstance(op, str):
        return None
    if op in LOCAL:
        return LOCAL[op]
    k = _constant_power(op)
    return None if k is None else (lambda xs, y: [0.0 if k == 0 else k * engine.power(xs[0], k - 1)])


def _unordered(node):
    children = getattr(node, '_prev', None)
    if children is None:
        children = getattr(node, 'children', ())
    return isinstance(children, (set, frozenset))


def readings(node, kids):
    op = getattr(node, '_op', '')
    if len(kids) == 1 and op in ('+', '*'):
        return [kids * 2, kids]  # a set made `a + a` one child; `+` of one operand is not a thing
    found = [kids]
    if len(kids) == 1 and op == '-':
        found.append(kids * 2)  # `-a`, or `a - a` from a set
    if len(kids) == 2 and op not in COMMUTATIVE and _unordered(node):
        found.append(kids[::-1])
    return found


def evaluate(f, xs):
    try:
        return f(xs)
    except (ArithmeticError, TypeError, ValueError, IndexError):
        return math.nan


def reading(node, kids):
    f = forward(getattr(node, '_op', ''))
    if f is None:
        return None
    for candidate in readings(node, kids):
        if close(evaluate(f, [k.data for k in candidate]), node.data, 1e-7, 1e-9):
            return candidate
    return None


def operands(node, kids=None):
    kids = children_of(node) if kids is None else list(kids)
    return (kids and reading(node, kids)) or kids


def close(a, b, rel_tol, abs_tol):
    if isinstance(a, float) and isinstance(b, float) and math.isnan(a) and math.isnan(b):
        return True
    try:
        return math.isclose(a, b, rel_tol=rel_tol, abs_tol=abs_tol)
    except TypeError:
        return False
