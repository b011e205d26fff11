"""Finite-difference checks of the .grad values already in a graph (how the page finds a wrong gradient).

The graph is replayed on plain floats from its `_op` strings (scalargrad.ops), so a learner's own Value class can be
checked too, as long as its ops are the usual ones. Children kept in a set lose what a tuple keeps:
`a + a` and `a * a` have one child left, and `a - b` or `a / b` their order; the replay puts back
whichever reading reproduces the recorded data. A node whose replay does not reproduce its data (an
op we do not know, an operand that was not recorded) cannot be recomputed, and so nothing below it
can be nudged: those nodes are reported as not checkable, the others are still checked.
"""

import math
from typing import NamedTuple

from .graph import children_of, trace
from .ops import close, evaluate, forward, reading


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
            found = reading(node, kids)  # from the nodes' data, which self.data holds as they are
            if found is None:
                self.unreplayable.append(i)
            else:
                self.rules[i] = (forward(getattr(node, '_op', '')), [self.position[id(k)] for k in found])

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
            f, args = self.rules[j]
            data[j] = evaluate(f, [data[a] for a in args])
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
        return Check(node, numeric, analytic, close(numeric, analytic, rel_tol, abs_tol))


def gradcheck(root, nodes=None, h=1e-6, rel_tol=1e-4, abs_tol=1e-5):
    """Compare each node's .grad with d root / d node by central differences. Default: the leaves."""
    replay = Replay(root)
    if nodes is None:
        nodes = [n for i, n in enumerate(replay.order) if i in replay.leaves]
    return [replay.check(node, h, rel_tol, abs_tol) for node in nodes]
