"""micrograd's demo workload with scalargrad and with micrograd 0.1.0, side by side in one process.

MLP(2, [16, 16, 1]) on 100 moons points, SVM hinge loss + 1e-4 L2, one forward + backward + update
per step, the garbage collector left on. Both start from the same weights and see the same data.

    pip install micrograd==0.1.0 && python bench/engine_vs_micrograd.py [--steps N]
"""

import argparse
import gc
import math
import os
import random
import statistics
import sys
import time
import tracemalloc

sys.path.insert(0, os.path.join(os.path.dirname(__file__), '..', 'py', 'scalargrad'))  # this checkout's

import micrograd.engine
import micrograd.nn

import scalargrad
import scalargrad.nn


def loss_of(model, X, y, Value):
    scores = [model([Value(a), Value(b)]) for a, b in X]
    losses = [(1 + -yi * si).relu() for yi, si in zip(y, scores)]
    data_loss = sum(losses) * (1.0 / len(losses))
    reg_loss = 1e-4 * sum(p * p for p in model.parameters())
    return data_loss + reg_loss


def step(model, X, y, Value, k, steps):
    loss = loss_of(model, X, y, Value)
    model.zero_grad()
    loss.backward()
    learning_rate = 1.0 - 0.9 * k / steps
    for p in model.parameters():
        p.data -= learning_rate * p.grad
    return loss.data


def run(name, model, X, y, Value, steps):
    gc.collect()
    assert gc.isenabled()
    times, losses = [], []
    for k in range(steps):
        start = time.perf_counter()
        losses.append(step(model, X, y, Value, k, steps))
        times.append(time.perf_counter() - start)
    gc.collect()
    tracemalloc.start()
    loss_of(model, X, y, Value).backward()
    peak = tracemalloc.get_traced_memory()[1]
    tracemalloc.stop()
    return {'name': name, 'ms': 1000 * statistics.median(times), 'losses': losses, 'peak_mb': peak / 2**20}


def main():
    parser = argparse.ArgumentParser()
    parser.add_argument('--steps', type=int, default=5)
    args = parser.parse_args()

    X, labels = scalargrad.make_moons(100, noise=0.1, seed=1337)
    y = [2 * label - 1 for label in labels]
    random.seed(1337)
    reference = micrograd.nn.MLP(2, [16, 16, 1])
    ours = scalargrad.nn.MLP(2, [16, 16, 1])
    for p, q in zip(reference.parameters(), ours.parameters(), strict=True):
        q.data = p.data

    results = [
        run('micrograd 0.1.0', reference, X, y, micrograd.engine.Value, args.steps),
        run(f'scalargrad {scalargrad.__version__}', ours, X, y, scalargrad.Value, args.steps),
    ]
    for a, b in zip(results[0]['losses'], results[1]['losses']):
        assert math.isclose(a, b, rel_tol=1e-9), f"losses differ: {a} vs {b}"

    print(
        f"Python {sys.version.split()[0]}, {args.steps} steps, GC on, same data and weights; "
        f"final loss {results[1]['losses'][-1]:.6f} (equal in both)"
    )
    for r in results:
        print(f"  {r['name']:<18} {r['ms']:8.1f} ms/step   peak {r['peak_mb']:7.1f} MB for one forward+backward")
    print(
        f"  speed-up: {results[0]['ms'] / results[1]['ms']:.1f}x   memory: {results[0]['peak_mb'] / results[1]['peak_mb']:.1f}x less"
    )


if __name__ == '__main__':
    main()
