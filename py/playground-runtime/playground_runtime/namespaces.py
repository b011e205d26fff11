"""The namespaces learners' programs run in. With no env, every run gets a fresh one; a named env keeps its
namespace across runs, as a notebook's cells share one kernel, until `reset(env)`."""

import builtins
import math
import random
import sys

from scalargrad import engine, nn
from scalargrad.datasets import make_moons
from scalargrad.graph import trace

from .learner_points import points
from .program import DISPLAY
from .stand_ins import display
from .words import _


class Env:
    """A namespace that outlives one run. Its draw_dot, plot and display hook go to the run in progress (its Drawing)."""

    def __init__(self):
        self.drawing = None
        self.namespace = {
            '__name__': '__main__',
            '__builtins__': builtins,
            DISPLAY: self.display,
            'Value': engine.Value,
            'draw_dot': self.draw_dot,
            'trace': trace,
            'Module': nn.Module,
            'Neuron': nn.Neuron,
            'Layer': nn.Layer,
            'MLP': nn.MLP,
            'make_moons': make_moons,
            'points': points,
            'math': math,
            'random': random,
            'input': _no_input,
            'plot': self.plot,
            'plot_boundary': self.plot_boundary,
            'display': display,
        }

    def draw_dot(self, root, rankdir='LR', format='svg', live=False):
        """draw_dot as the tutorials use it, and the graph appears in the output at once. With live=True,
        inside a training loop, the graph drawn from this line updates in place as the values change."""
        if live:
            return self.drawing.draw_live(root, rankdir, sys._getframe(1))
        return self.drawing.draw_dot(root, rankdir, format)

    def plot(self, step=None, **series):
        """Add a point to the live training chart: plot(step=k, loss=total_loss, accuracy=acc)."""
        self.drawing.charts.plot(step, **series)

    def plot_boundary(self, model, X, y):
        """Draw the decision boundary of a 2-D classifier over the points X with labels y, live."""
        self.drawing.charts.plot_boundary(model, X, y)

    def display(self, value, is_last):
        self.drawing.display(value, is_last)


ENVS = {}


def reset(env):
    """Forget a named env's namespace: its next run starts afresh."""
    ENVS.pop(env, None)


def _no_input(prompt=''):
    raise RuntimeError(_("input() is not available in the playground: write the value into the code instead"))
