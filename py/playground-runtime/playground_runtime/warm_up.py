"""The programs the page's Python runs unseen once it is ready, before a reader's first Run
(web/session/python-worker.js), each in a namespace of its own with the after-run check of any run.

FIRST runs in the task that says Python is ready: what a restored Python does for the first time (the browser
compiles the interpreter's code as it is first reached) is paid before the reader can press Run, and its events
go to the page, which rehearses drawing them unseen (web/output/output-list.js).

AGAIN runs a few times after it, a few hundred milliseconds apart, while no run has come. The browser compiles
the interpreter's hottest WebAssembly again, optimized for the calls it has seen; a run that calls what it has
not (another type's method, a learner's own class, a format) sends it back to the first tier and into a new
compile. Traced in Chromium, the interpreter's largest function (79 kB) was compiled again on each of a reader's
first two Runs, which took half as long again as the later ones, and the optimizing compiles (0.2 s each) ran
beside them. AGAIN calls what a tutorial's programs call, often enough and far enough apart for those
recompiles to happen while the page is idle.
"""

FIRST = """\
a = Value(2.0, label='a')
b = Value(-3.0, label='b')
c = (a * b + a).tanh(); c.label = 'c'
c.backward()
print(f"{c.data:.4f} {a.grad:.4f}")
draw_dot(c)
"""

AGAIN = """\
import math


class V:
    def __init__(self, data, _children=(), _op=''):
        self.data = data
        self.grad = 0.0
        self._backward = lambda: None
        self._prev = set(_children)
        self._op = _op

    def __add__(self, other):
        other = other if isinstance(other, V) else V(other)
        out = V(self.data + other.data, (self, other), '+')

        def _backward():
            self.grad += out.grad
            other.grad += out.grad

        out._backward = _backward
        return out

    def __mul__(self, other):
        other = other if isinstance(other, V) else V(other)
        out = V(self.data * other.data, (self, other), '*')

        def _backward():
            self.grad += other.data * out.grad
            other.grad += self.data * out.grad

        out._backward = _backward
        return out

    def __repr__(self):
        return f"V(data={self.data}, grad={self.grad})"


own = V(2.0) * V(-3.0) + 1
own.grad = 1.0
own._backward()
xs = [Value(i / 10, label=f'x{i}') for i in range(6)]
ws = [Value(-0.5 + i / 7, label=f'w{i}') for i in range(6)]
n = sum((x * w for x, w in zip(xs, ws)), Value(0.1, label='b'))
o = n.tanh() + n.exp() * 0.01 + (n ** 2) / 3 - n.relu() - 1
o.backward()
grads = {v.label: round(v.grad, 4) for v in xs}
print(repr(own), max(grads.values()), sorted(grads)[:2], f"{o.data:.3f} {math.sqrt(abs(o.data)):.2f}")
for step in range(3):
    for w in ws:
        w.grad = 0.0
    loss = sum(((x * w) + -0.2) ** 2 for x, w in zip(xs, ws))
    loss.backward()
    for w in ws:
        w.data -= 0.05 * w.grad
draw_dot(o)
"""
