"""The issue's example of a value used twice (a, by e = a * b and by f = a + c), explained in CPython
(runtime/test_explain.py), in Chromium (pages/test_node_explain.py) and in the other engines
(engines/smoke_cases.py)."""

USED_TWICE = '''a = Value(2.0, label='a'); b = Value(-3.0, label='b'); c = Value(1.0, label='c')
e = a * b; e.label = 'e'
f = a + c; f.label = 'f'
g = Value(-2.0, label='g'); h = Value(4.0, label='h')
L = e * g + f * h; L.label = 'L'
L.backward()
draw_dot(L)
'''
# As Selenium types it: one line (the editor would indent a second).
USED_TWICE_ON_ONE_LINE = '; '.join(USED_TWICE.strip().splitlines())


def neuron_training(steps=100000, pause=0.005):
    """A neuron trained live (draw_dot(loss, live=True) at each step), `pause` seconds between steps."""
    return f'''import time
w = Value(-3.0, label='w'); b = Value(1.0, label='b')
for step in range({steps}):
    x = Value(2.0, label='x')
    out = (x * w + b).tanh(); out.label = 'out'
    loss = (out - 0.5) ** 2; loss.label = 'loss'
    w.grad = b.grad = 0.0
    loss.backward()
    w.data -= 0.05 * w.grad
    b.data -= 0.05 * b.grad
    draw_dot(loss, live=True)
    time.sleep({pause})
'''
