# When a value is used twice, both uses send gradient back to it: grads must add up (+=).

a = Value(3.0, label='a')
b = a + a; b.label = 'b'
b.backward()
print("b = a + a, so db/da should be 2:", a.grad)
draw_dot(b)

# The same with two paths that meet again: d = (a*b) + (a+b).
a = Value(-2.0, label='a')
b = Value(3.0, label='b')
e = a * b; e.label = 'e'
f = a + b; f.label = 'f'
g = e * f; g.label = 'g'
g.backward()
print("dg/da =", a.grad, " dg/db =", b.grad)
draw_dot(g)
