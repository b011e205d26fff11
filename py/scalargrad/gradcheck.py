"""Finite-difference checks of the .grad values already in a graph (how the page finds a wrong gradient).

The graph is replayed from its `_op` strings, so a learner's own Value class can be checked too,
as long as its ops are the usual ones. A node whose replay does not reproduce its data (an op we
do not know, or a set of children that lost a duplicate) is reported as not checkable.
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


FORWARD = {
    '+': sum,
    '*': _product,
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


def _forward_of(op):
    if op in FORWARD:
        return FORWARD[op]
    if op.startswith('**'):
        try:
            k = float(op[2:])
        except ValueError:
            return None
        return lambda xs: engine.power(xs[0], k)
    return None


class Check(NamedTuple):
    node: object
    numeric: float   # nan where the node could not be checked
    analytic: float
    ok: object       # True, False, or None (not checkable)


def gradcheck(root, nodes=None, h=1e-6, rel_tol=1e-4, abs_tol=1e-5):
    """Compare each node's .grad with d root / d node by central differences. Default: the leaves."""
    order, _ = trace(root)
    children = {id(n): children_of(n) for n in order}
    if nodes is None:
        nodes = [n for n in order if not children[id(n)]]

    def replay(start):
        """Recompute every node after position `start` from its children; False if one is unknown."""
        for node in order[start + 1:]:
            kids = children[id(node)]
            if kids:
                forward = _forward_of(getattr(node, '_op', ''))
                if forward is None:
                    return False
                node.data = forward([k.data for k in kids])
        return True

    saved = [n.data for n in order]
    replayable = replay(-1) and all(_close(n.data, d, 1e-9, 1e-12) for n, d in zip(order, saved))
    for n, d in zip(order, saved):
        n.data = d

    position = {id(n): i for i, n in enumerate(order)}
    results = []
    for node in nodes:
        analytic = getattr(node, 'grad', math.nan)
        if not replayable:
            results.append(Check(node, math.nan, analytic, None))
            continue
        i = position[id(node)]
        base = saved[i]
        node.data = base + h
        replay(i)
        up = root.data
        node.data = base - h
        replay(i)
        down = root.data
        node.data = base
        for n, d in zip(order, saved):
            n.data = d
        numeric = (up - down) / (2 * h)
        results.append(Check(node, numeric, analytic, _close(numeric, analytic, rel_tol, abs_tol)))
    return results


def _close(a, b, rel_tol, abs_tol):
    if isinstance(a, float) and isinstance(b, float) and math.isnan(a) and math.isnan(b):
        return True
    try:
        return math.isclose(a, b, rel_tol=rel_tol, abs_tol=abs_tol)
    except TypeError:
        return False
