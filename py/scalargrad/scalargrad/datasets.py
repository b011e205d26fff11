"""Toy data sets in pure Python, for the browser where scikit-learn does not exist."""

import math
import random


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
    """The learner's own points as (X, y), like make_moons. Here these are make_moons(n, noise, seed); the
    playground puts its own points() in this one's place, which returns the points a learner drew on or
    pasted into a decision-boundary chart, and the moons when there are none."""
    return make_moons(n, noise, seed)
