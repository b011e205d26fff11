"""Choose the example: the page forwards one point of a decision-boundary chart through the model that drew it.

The chart's event carries the model as numbers (charts.mlp_spec); clicking a point runs a program of the
page's own, `draw_dot(forward_example(JSON))`, in a fresh namespace: the same MLP rebuilt from those numbers,
the point forwarded alone and its output's backward pass, so that its graph shows each value's data and grad.
No code of the learner's runs: only numbers come from the chart.
"""

import json
import math

from scalargrad import nn
from scalargrad.engine import Value

from .words import _

MAX_PARAMETERS = 100_000


def forward_example(text):
    """The output Value of the MLP in `text` ({"sizes", "activation", "parameters", "point": [x1, x2],
    "label", "index"}) on its point, after backward(); prints what it is."""
    spec = json.loads(text)
    sizes, activation, parameters = spec['sizes'], spec['activation'], spec['parameters']
    x1, x2 = (float(v) for v in spec['point'])
    if (
        activation not in nn.ACTIVATIONS
        or len(sizes) < 2
        or sizes[0] != 2
        or not all(type(n) is int and 0 < n < 1000 for n in sizes)
    ):
        raise ValueError(_("choosing an example works for an MLP with 2 inputs"))
    model = nn.MLP(sizes[0], sizes[1:], activation=activation)
    weights = model.parameters()
    if (
        len(weights) != len(parameters)
        or len(parameters) > MAX_PARAMETERS
        or not all(type(v) in (int, float) and math.isfinite(v) for v in parameters)
    ):
        raise ValueError(_("the chart's model does not have the parameters its sizes say"))
    for p, value in zip(weights, parameters):
        p.data = float(value)
    out = model([Value(x1, label='x1'), Value(x2, label='x2')])
    out.backward()
    label = spec.get('label')
    print(
        _(
            "Example {number}: x = ({x1}, {x2}), label {label}. The model's score {score} says class {sign}. "
            "Its graph, forwarded alone, with the grads of its score:"
        ).format(
            number=int(spec.get('index', 0)) + 1,
            x1=f"{x1:.4f}",
            x2=f"{x2:.4f}",
            label=label,
            score=f"{out.data:.4f}",
            sign='+1' if out.data > 0 else '-1',
        )
    )
    return out
