"""Live training charts: `plot` and `plot_boundary`, in every playground namespace.

    plot(step=None, **series)     one point per call, for example plot(step=k, loss=total_loss, accuracy=acc):
                                  any names, each a Value (its .data) or a number; step defaults to the
                                  number of earlier calls (0, 1, 2, ...)
    plot_boundary(model, X, y)    the decision boundary of a 2-D classifier over its data: X a list of
                                  (x1, x2) points, y their labels (any two values, -1/+1 or 0/1...)

Both can be called on every step of a training loop: points leave in batches at most every 0.25 s,
the boundary at most once a second (the latest call wins; slower if computing it takes longer, so
that it never takes more than a fifth of the time), and what is left leaves when the program ends,
fails or is stopped. The events, through playground's emit:

  {"type": "chart", "kind": "series", "chart": "training", "points": [{"step": 0, "loss": 0.93, ...}, ...]}
      the points added since the last event; a value that is nan or inf is null
  {"type": "chart", "kind": "boundary", "chart": "boundary",
   "grid": {"x": [30 numbers], "y": [30 numbers], "score"?: [[30 numbers] for each y]},
   "points": [[x1, x2, label], ...], "from_points": bool, "model"?: {"sizes", "activation", "parameters"}}
      score[j][i] is the model's output at (x[i], y[j]): the boundary is where it crosses 0, as in
      micrograd's demo (the sign is the class). Labels -1, 0 and 1 are sent as given; other labels
      are numbered -1, 1, 2... in sorted order. `from_points`: X is what points() (playground_runtime.learner_points)
      returned (the learner's own points, or the moons in their place). `model`, for a scalargrad MLP:
      its layer sizes ([inputs, outputs of each layer]), activation and parameters' data in the order
      of model.parameters(), from which the page can forward one example (playground_runtime.example). An
      event with a `model` has no `score` (but for a model past PAGE_MAX_WIDTH or PAGE_MAX_PARAMETERS): the page
      computes it from those numbers (web/output/boundary-scores.js, in a millisecond; Python in the worker took
      20 ms of the learner's run for a 16-16-1 MLP).

A scalargrad MLP, Layer or Neuron as scalargrad makes it is evaluated on plain floats from its parameters, at the
data's points and, where the event has no `model`, on the grid (the same terms and activations, far faster than
900 passes with Values; math.sumprod adds a neuron's terms in one sum of extended precision, so a score may differ
from calling the model in its last bits). One a learner changed so that the floats would not compute what calling
it computes (a class of their own, a weight or bias set to a number, weights in a tuple, an activation the floats
lack, inputs other than two, a hidden layer of one neuron, which calling refuses) is called like any other model:
with [Value(x1), Value(x2)] (the program's own Value, if it defines one), or else (x1, x2).
"""

import math
import time
from itertools import repeat
from operator import add, mul

from scalargrad import engine, nn

from .learner_points import returned_by_points
from .numbers import json_number
from .words import _

SERIES_EVERY = 0.25  # seconds between two series events
BOUNDARY_EVERY = 1.0  # seconds between two boundary events, at least
BOUNDARY_SHARE = 0.2  # the most of the run's time that computing boundaries may take
GRID = 30
# The most that web/output/boundary-scores.js computes from a model's numbers: past either, Python sends the scores.
PAGE_MAX_WIDTH = 999  # neurons in a layer
PAGE_MAX_PARAMETERS = 100_000
MARGIN = 0.1  # of the data's range, on each side

# Each activation over a list of sums, one per point of the grid.
ACTIVATIONS = {
    'relu': lambda sums: [0 if a < 0 else a for a in sums],
    'tanh': lambda sums: list(map(math.tanh, sums)),
    'sigmoid': lambda sums: list(map(engine.sigmoid, sums)),
    'gelu': lambda sums: list(map(engine.gelu, sums)),
}


def _data(x):
    return x.data if hasattr(x, 'data') else x


class Charts:
    def __init__(self, send, value_class=lambda: engine.Value, clock=time.monotonic):
        self._send = send  # send(**event)
        self._value_class = value_class  # the Value to call a model with
        self._clock = clock
        self._calls = 0
        self._points = []
        self._series_next = 0.0
        self._boundary = None  # (model, X, y) of the latest call not sent yet
        self._boundary_next = 0.0

    def plot(self, step=None, **series):
        """Add a point to the live training chart: plot(step=k, loss=total_loss, accuracy=acc)."""
        if not series:
            raise TypeError(_("plot() needs at least one named series, for example plot(step=k, loss=loss)"))
        point = {'step': self._calls if step is None else _checked('step', step)}
        for name, value in series.items():
            point[name] = _checked(name, value)
        self._calls += 1
        self._points.append(point)
        now = self._clock()
        if now >= self._series_next:
            self._send_series(now)
        if self._boundary is not None and now >= self._boundary_next:
            self._send_boundary(*self._boundary)

    def plot_boundary(self, model, X, y):
        """Draw the decision boundary of a 2-D classifier `model` over the points X with labels y."""
        if len(X) != len(y) or not len(X):
            raise ValueError(
                _(
                    "plot_boundary needs as many labels as points and at least one point: {points} points, {labels} labels"
                ).format(points=len(X), labels=len(y))
            )
        if self._clock() >= self._boundary_next:
            self._send_boundary(model, X, y)
        else:
            self._boundary = (model, X, y)

    def flush(self):
        """Send what is still waiting: the program has ended."""
        if self._points:
            self._send_series(self._clock())
        if self._boundary is not None:
            try:
                self._send_boundary(*self._boundary)
            except Exception:  # the model no longer runs: the last boundary drawn stays
                self._boundary = None

    def _send_series(self, now):
        points, self._points = self._points, []
        self._series_next = now + SERIES_EVERY
        self._send(type='chart', kind='series', chart='training', points=points)

    def _send_boundary(self, model, X, y):
        self._boundary = None
        started = self._clock()
        event = boundary(model, X, y, self._value_class())
        took = self._clock() - started
        self._boundary_next = self._clock() + max(BOUNDARY_EVERY, took / BOUNDARY_SHARE)
        self._send(type='chart', kind='boundary', chart='boundary', **event)


def _checked(name, value):
    try:
        return json_number(_data(value), strict=True)
    except (TypeError, ValueError, OverflowError):
        raise TypeError(
            _("plot() takes numbers or Values: {name} is {value}").format(name=name, value=repr(value))
        ) from None


def boundary(model, X, y, value_class=engine.Value):
    """{"grid": {"x", "y", "score"?}, "points", "agree", "model"?}: the model's output over the data's range (for a
    model sent as numbers, the page computes it), the data, and how many points the model puts on their class's
    side (a score above 0 for a label above 0), which the chart's words say to a reader who cannot see it."""
    xs = [(float(_data(p[0])), float(_data(p[1]))) for p in X]
    grid = {'x': _axis([p[0] for p in xs]), 'y': _axis([p[1] for p in xs])}
    floats = _float_model(model)
    spec = mlp_spec(model, floats)
    by_the_page = spec is not None and _page_computes(spec)
    if floats:
        at_points = floats([a for a, _ in xs], [b for _, b in xs])
        if not by_the_page:
            flat = floats([a for b in grid['y'] for a in grid['x']], [b for b in grid['y'] for a in grid['x']])
            grid['score'] = [
                [json_number(v, strict=True) for v in flat[j * GRID : (j + 1) * GRID]] for j in range(GRID)
            ]
    else:
        f = _called_model(model, value_class, xs[0])
        grid['score'] = [[json_number(f(a, b), strict=True) for a in grid['x']] for b in grid['y']]
        at_points = [f(a, b) for a, b in xs]
    labels = _labels(list(y))
    points = [[json_number(a, strict=True), json_number(b, strict=True), label] for (a, b), label in zip(xs, labels)]
    event = {
        'grid': grid,
        'points': points,
        'agree': sum(math.isfinite(s) and (s > 0) == (label > 0) for s, label in zip(at_points, labels)),
        'from_points': returned_by_points(X),
    }
    if spec:
        event['model'] = spec
    return event


def _page_computes(spec):
    return max(spec['sizes']) <= PAGE_MAX_WIDTH and len(spec['parameters']) <= PAGE_MAX_PARAMETERS


def mlp_spec(model, floats=None):
    """A scalargrad MLP as numbers: {"sizes", "activation", "parameters"}; None for any other model, and for one
    that the MLP these numbers make again (example.py) would not compute as it does. `floats`: _float_model(model),
    when the caller has it already."""
    floats = _float_model(model) if floats is None else floats
    if type(model) is not nn.MLP or not model.layers or floats is None:
        return None
    last = len(model.layers) - 1
    if any(bool(n.nonlin) != (i < last) for i, layer in enumerate(model.layers) for n in layer.neurons):
        return None
    activations = {n.activation for layer in model.layers for n in layer.neurons}
    values = [p.data for p in model.parameters()]
    if len(activations) != 1 or not all(math.isfinite(v) for v in values):
        return None
    sizes = [len(model.layers[0].neurons[0].w)] + [len(layer.neurons) for layer in model.layers]
    return {'sizes': sizes, 'activation': activations.pop(), 'parameters': values}


def _axis(values):
    low, high = min(values), max(values)
    margin = MARGIN * (high - low) or 0.5
    low, high = low - margin, high + margin
    return [low + (high - low) * i / (GRID - 1) for i in range(GRID)]


def _labels(y):
    values = [_data(v) for v in y]
    if all(isinstance(v, (int, float)) and v in (-1, 0, 1) for v in values):
        return [int(v) for v in values]
    try:
        order = sorted(set(values))
    except TypeError:
        order = sorted(set(values), key=repr)
    rank = {v: (-1 if i == 0 else i) for i, v in enumerate(order)}
    return [rank[v] for v in values]


def _float_model(model):
    """scalargrad's MLP, Layer or Neuron as a function of two columns of floats (x1s, x2s), from its
    parameters' data: its output at every point; None where a learner changed it so that the floats would not
    compute what calling it does (then it is called with Values)."""
    if type(model) is nn.MLP:
        layers = model.layers
        if any(type(layer) is not nn.Layer for layer in layers):
            return None
    elif type(model) is nn.Layer:
        layers = [model]
    elif type(model) is nn.Neuron:
        layers = [type('OneNeuron', (), {'neurons': [model]})]
    else:
        return None  # not scalargrad's own class (a subclass may call its neurons its own way)
    plan, width = [], 2
    for depth, layer in enumerate(layers):
        if not layer.neurons or (len(layer.neurons) == 1 and depth < len(layers) - 1):
            return None  # a hidden layer of one neuron gives the next a bare Value, which calling it refuses
        neurons = []
        for n in layer.neurons:
            if type(n) is not nn.Neuron or type(n.w) is not list or len(n.w) != width:
                return None  # a neuron of the learner's class, weights not in a list, or not two inputs
            if not all(type(p) is nn.Parameter and type(p.data) in (int, float) for p in n.parameters()):
                return None  # a weight or bias set to a number (the neuron adds it with the operators), or odd data
            if n.nonlin and n.activation not in ACTIVATIONS:
                return None  # an activation set after the neuron was made (exp, log: Value has them)
            neurons.append(([w.data for w in n.w], n.b.data, ACTIVATIONS[n.activation] if n.nonlin else None))
        plan.append(neurons)
        width = len(neurons)

    def f(x1s, x2s):
        # A point's inputs times a neuron's weights in one call, for all points at once: math.sumprod does the
        # arithmetic in C (2.3x faster than a map per weight, measured in CPython 3.13 on a 16-16-1 MLP).
        rows = list(zip(x1s, x2s))
        for neurons in plan:
            outputs = []
            for ws, b, activation in neurons:
                sums = list(map(add, repeat(b), map(_sumprod, repeat(ws), rows)))
                outputs.append(activation(sums) if activation else sums)
            rows = list(zip(*outputs))
        return [row[0] for row in rows]

    return f


# Python 3.12 has math.sumprod (Pyodide's Python has it); the tests' CPython may not. Both refuse lengths that differ.
_sumprod = getattr(math, 'sumprod', None) or (
    lambda ws, xs: sum(map(mul, ws, xs)) if len(ws) == len(xs) else _unequal()
)


def _unequal():
    raise ValueError('Inputs are not the same length')


def _called_model(model, value_class, first):
    """Any other model: called with Values, or else with a pair of floats, whichever works."""

    def with_values(a, b):
        return _score(model([value_class(a), value_class(b)]))

    def with_floats(a, b):
        return _score(model((a, b)))

    try:
        with_values(*first)
        return with_values
    except Exception as e:
        try:
            with_floats(*first)
            return with_floats
        except Exception:
            raise TypeError(
                _("plot_boundary could not run the model on the point {point}: {error}").format(
                    point=first, error=f"{type(e).__name__}: {e}"
                )
            ) from e


def _score(out):
    if isinstance(out, (list, tuple)):
        out = out[0]
    return float(_data(out))
