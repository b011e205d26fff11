# Gradient descent: minimise loss = ((w1 - 1)**2 + (w2 - 5)**2) * 0.5, whose minimum is w1=1, w2=5.

w1 = Value(2.0, label='w1')
w2 = Value(3.0, label='w2')
learning_rate = 0.5

for step in range(10):
    loss = ((w1 - 1)**2 + (w2 - 5)**2) * 0.5   # forward pass
    loss.label = 'loss'
    w1.grad = w2.grad = 0.0                     # forget the last step's gradients
    loss.backward()                             # backward pass
    if step == 0:
        draw_dot(loss)                          # the graph of the first step, with its gradients
    print(f"step {step}: loss = {loss.data:.4f}   w1 = {w1.data:.4f}   w2 = {w2.data:.4f}")
    w1.data -= learning_rate * w1.grad          # update
    w2.data -= learning_rate * w2.grad

print(f"w1 = {w1.data:.4f}, w2 = {w2.data:.4f}")
