"""micrograd's nn module: Module, Neuron, Layer, MLP, with the same arguments and a choice of activation."""

import functools
import random

from .engine import Value

ACTIVATIONS = ('relu', 'tanh', 'sigmoid', 'gelu')


@functools.cache
def _neuron_labels(layer, width):
    return tuple(f"L{layer}.n{j + 1}" for j in range(width))


class Parameter(Value):
    """A weight or a bias: a Value of its own class, so that `w * x` is as quick as `x * w`.

    CPython asks whether the right operand's class overrides __rmul__ whenever that class derives from
    the left's, as an op's output (a private subclass of Value) does from a plain Value's class.
    """

    __slots__ = ()


class Module:
    def zero_grad(self):
        for p in self.parameters():
            p.grad = 0

    def parameters(self):
        return []


class Neuron(Module):
    def __init__(self, nin, nonlin=True, activation='relu'):
        if activation not in ACTIVATIONS:
            raise ValueError(f"activation must be one of {', '.join(ACTIVATIONS)}, not {activation!r}")
        self.w = [Parameter(random.uniform(-1, 1)) for _ in range(nin)]
        self.b = Parameter(0)
        self.nonlin = nonlin
        self.activation = activation

    def __call__(self, x):
        act = self.b  # b + w0*x0 + w1*x1 + ..., the same graph as micrograd's sum(..., self.b)
        if type(act) is not Parameter:  # a bias a learner replaced: the operators, as micrograd has them
            for wi, xi in zip(self.w, x):
                act = act + wi * xi
            return getattr(act, self.activation)() if self.nonlin else act
        for wi, xi in zip(self.w, x):
            # act + wi * xi, as method calls: an operator on a Python class calls its method from C, in an
            # interpreter loop of its own, where a method call stays in this one (5% of the demo's step in
            # Pyodide). act is a Value, whose methods never return NotImplemented, so this builds what the
            # operators build (short of an input whose class derives from Parameter with an __rmul__ of
            # its own). A weight replaced with a number returns NotImplemented, which Value.__add__ refuses
            # with a TypeError: that term is then added with the operators.
            try:
                act = act.__add__(wi.__mul__(xi))
                continue
            except TypeError:
                pass
            act = act + wi * xi
        return getattr(act, self.activation)() if self.nonlin else act

    def parameters(self):
        return self.w + [self.b]

    def __repr__(self):
        kind = {'relu': 'ReLU', 'tanh': 'Tanh', 'sigmoid': 'Sigmoid', 'gelu': 'GELU'}[self.activation]
        return f"{kind if self.nonlin else 'Linear'}Neuron({len(self.w)})"


class Layer(Module):
    def __init__(self, nin, nout, **kwargs):
        self.neurons = [Neuron(nin, **kwargs) for _ in range(nout)]

    def __call__(self, x):
        out = [n(x) for n in self.neurons]
        return out[0] if len(out) == 1 else out

    def parameters(self):
        return [p for n in self.neurons for p in n.parameters()]

    def __repr__(self):
        return f"Layer of [{', '.join(str(n) for n in self.neurons)}]"


class MLP(Module):
    def __init__(self, nin, nouts, activation='relu'):
        sz = [nin] + nouts
        self.layers = [
            Layer(sz[i], sz[i + 1], nonlin=i != len(nouts) - 1, activation=activation) for i in range(len(nouts))
        ]

    def __call__(self, x):
        for i, layer in enumerate(self.layers):
            x = layer(x)
            outputs = x if isinstance(x, list) else [x]
            # Names each neuron's output, so that a drawing can group the network by neuron and layer.
            for out, label in zip(outputs, _neuron_labels(i + 1, len(outputs))):
                if not out.label and out._a is not None:
                    out.label = label
        return x

    def parameters(self):
        return [p for layer in self.layers for p in layer.parameters()]

    def __repr__(self):
        return f"MLP of [{', '.join(str(layer) for layer in self.layers)}]"
