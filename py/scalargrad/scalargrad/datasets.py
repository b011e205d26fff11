"""Toy data sets in pure Python, for the browser where scikit-learn does not exist."""

import math
import random
import types

# The points a learner drew or pasted in the playground for this run (its runtime sets and clears them),
# and the X that points() last returned, so that a chart can tell its data are those points.
given = types.SimpleNamespace(points=None, returned=None)


def make_moons(n=100, noise=0.1, seed=None):
    """Two interleaving half circles, as sklearn.datasets.make_moons: returns (X, y), y in {0, 1}."""
    rng = random.Random(seed)
    n_outer = n // 2
    n_inner = n - n_outer
    points = []
    for i in range(n_outer):
        t = math.pi * i / max(n_outer - 1, 1)
        points.append(([math.cos(t), math.sin(t)], 0))
    for i in range(n_inner):
        t = math.pi * i / max(n_inner - 1, 1)
        points.append(([1 - math.cos(t), 0.5 - math.sin(t)], 1))
    rng.shuffle(points)
    X = [[x + rng.gauss(0, noise), y + rng.gauss(0, noise)] for (x, y), _ in points]
    y = [label for _, label in points]
    return X, y


def points(n=100, noise=0.1, seed=None):
    """The learner's own points as (X, y), like make_moons: X a list of [x1, x2], y their labels (0 or 1).
    In the playground these are the points drawn on or pasted into a decision-boundary chart; when there
    are none (and outside the playground), make_moons(n, noise, seed)."""
    if given.points:
        X = [[float(x1), float(x2)] for x1, x2, _ in given.points]
        y = [int(label) for _, _, label in given.points]
    else:
        X, y = make_moons(n, noise, seed)
    given.returned = X
    return X, y
