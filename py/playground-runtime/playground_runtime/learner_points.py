"""The points a learner drew on or pasted into a decision-boundary chart, which `points()` returns during a run.

A run request carries them (JSON: [[x1, x2, label], ...], label 0 or 1); `take(text)` checks them and keeps
them for that run, `forget()` ends it. Outside the playground `scalargrad.points()` is `make_moons()`; here
`install()` puts this module's `points()` in its place (as `scalargrad.points` and
`scalargrad.datasets.points`), as the runtime's IPython stands in for IPython. `returned_by_points(X)` tells
a chart that its data are the points that `points()` returned.
"""

import json
import math
import types

import scalargrad
from scalargrad import datasets

from .words import _

MAX_POINTS = 10_000  # a learner's own points, per run

# An object's attributes: a module global that changed with every run would look, to
# playground_runtime.isolation, like a run changing this module.
_run = types.SimpleNamespace(points=None, returned=None)


def checked(text):
    """The run request's points as a list of tuples; None when there are none; ValueError when they are not
    that."""
    if text is None:
        return None
    found = json.loads(text)
    if not isinstance(found, list) or len(found) > MAX_POINTS:
        raise ValueError(_("not a list of at most 10,000 points"))
    kept = []
    for point in found:
        if not (
            isinstance(point, list)
            and len(point) == 3
            and point[2] in (0, 1)
            and type(point[2]) is int
            and all(type(v) in (int, float) and math.isfinite(v) for v in point[:2])
        ):
            raise ValueError(_("{point} is not [x1, x2, label] with label 0 or 1").format(point=repr(point)))
        kept.append((float(point[0]), float(point[1]), point[2]))
    return kept or None


def take(text):
    """Keeps the run's points; ValueError (and none kept) when they are not points."""
    _run.points = _run.returned = None
    _run.points = checked(text)


def forget():
    _run.points = _run.returned = None


def points(n=100, noise=0.1, seed=None):
    """The learner's own points as (X, y), like make_moons: X a list of [x1, x2], y their labels (0 or 1).
    These are the points drawn on or pasted into a decision-boundary chart; when there are none,
    make_moons(n, noise, seed)."""
    if _run.points:
        X = [[float(x1), float(x2)] for x1, x2, _ in _run.points]
        y = [int(label) for _, _, label in _run.points]
    else:
        X, y = datasets.make_moons(n, noise, seed)
    _run.returned = X
    return X, y


def returned_by_points(X):
    return X is not None and X is _run.returned


def install():
    scalargrad.points = datasets.points = points
