# Backpropagation by hand through L = (a*b + c) * f, checked against finite differences.
inputs = dict(a=2.0, b=-3.0, c=10.0, f=-2.0)

def build(a, b, c, f):
    a = Value(a, label='a'); b = Value(b, label='b'); c = Value(c, label='c')
    e = a * b; e.label = 'e'
    d = e + c; d.label = 'd'
    f = Value(f, label='f')
    L = d * f; L.label = 'L'
    return a, b, c, d, e, f, L

a, b, c, d, e, f, L = build(**inputs)
draw_dot(L)  # the forward pass: every grad is still 0

# The chain rule, one step at a time, from the output back to the leaves.
L.grad = 1.0                 # dL/dL
d.grad = f.data              # L = d * f, so dL/dd = f
f.grad = d.data              # and dL/df = d
c.grad = d.grad * 1.0        # d = e + c: a plus node passes the gradient through
e.grad = d.grad * 1.0
a.grad = e.grad * b.data     # e = a * b, so de/da = b
b.grad = e.grad * a.data
draw_dot(L)

# Nudge each leaf by h and watch L move: the slope should match the grad written by hand.
h = 0.0001
leaves = dict(a=a, b=b, c=c, f=f)
for name, leaf in leaves.items():
    nudged = build(**{**inputs, name: inputs[name] + h})[-1]
    print(f"dL/d{name}: by hand {leaf.grad:8.4f}   numerically {(nudged.data - L.data) / h:8.4f}")
