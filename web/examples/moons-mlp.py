# micrograd's demo: a small MLP learns to separate two interleaving half-moons.
random.seed(1337)
X, y = points(60, noise=0.1, seed=1337)      # your own points, if you drew some on the chart; else the moons
y = [2 * label - 1 for label in y]          # labels -1 and +1 for the hinge loss

model = MLP(2, [16, 16, 1])                 # 2 inputs, two hidden layers of 16, 1 output
print(model)
print("parameters:", len(model.parameters()))

def loss():
    scores = [model([Value(a), Value(b)]) for a, b in X]
    losses = [(1 + -yi * si).relu() for yi, si in zip(y, scores)]       # SVM "max-margin" loss
    data_loss = sum(losses) * (1.0 / len(losses))
    reg_loss = 1e-4 * sum(p * p for p in model.parameters())            # L2 regularization
    accuracy = sum((yi > 0) == (si.data > 0) for yi, si in zip(y, scores)) / len(y)
    return data_loss + reg_loss, accuracy

steps = 15
for k in range(steps):
    total_loss, accuracy = loss()
    model.zero_grad()
    total_loss.backward()
    learning_rate = 1.0 - 0.9 * k / steps
    for p in model.parameters():
        p.data -= learning_rate * p.grad
    print(f"step {k:2d}  loss {total_loss.data:.4f}  accuracy {accuracy:.0%}")
    plot(step=k, loss=total_loss, accuracy=accuracy)   # live chart: loss and accuracy
    plot_boundary(model, X, y)                          # live chart: what the model says where

# The whole network on one point: about a thousand values, so it opens grouped by neuron.
out = model([Value(X[0][0], label='x1'), Value(X[0][1], label='x2')])
out.backward()
draw_dot(out)
