# A single neuron: o = tanh(x1*w1 + x2*w2 + b), as in micrograd's lecture.
# Run it (Ctrl+Enter), then read every node's data and grad in the graph.

x1 = Value(2.0, label='x1')
x2 = Value(0.0, label='x2')
w1 = Value(-3.0, label='w1')
w2 = Value(1.0, label='w2')
b = Value(6.8813735870195432, label='b')  # chosen so that the numbers come out nicely

x1w1 = x1 * w1; x1w1.label = 'x1*w1'
x2w2 = x2 * w2; x2w2.label = 'x2*w2'
x1w1x2w2 = x1w1 + x2w2; x1w1x2w2.label = 'x1*w1 + x2*w2'
n = x1w1x2w2 + b; n.label = 'n'
o = n.tanh(); o.label = 'o'

o.backward()  # fills in .grad on every node, from o back to the inputs

print(f"o = {o.data:.4f}")
print(f"do/dx1 = {x1.grad:.4f}   do/dw1 = {w1.grad:.4f}   do/dx2 = {x2.grad:.4f}   do/dw2 = {w2.grad:.4f}")
draw_dot(o)
