"""scalargrad: a small, fast scalar autograd engine in the style of micrograd."""

from .datasets import make_moons, points
from .engine import Value
from .gradcheck import gradcheck
from .graph import GraphTooLarge, draw_dot, to_dot, trace
from .nn import MLP, Layer, Module, Neuron

__version__ = '0.1.0'
__all__ = [
    'Value',
    'draw_dot',
    'to_dot',
    'trace',
    'GraphTooLarge',
    'gradcheck',
    'Module',
    'Neuron',
    'Layer',
    'MLP',
    'make_moons',
    'points',
]
