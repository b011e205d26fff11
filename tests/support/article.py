"""What each cell of the sample article (web/article.html) prints and draws, in page order: checked in
CPython (runtime/test_article.py) and in the browser (pages/test_embed.py)."""

# One entry per cell, in page order: substrings that the cell's printed stdout contains.
EXPECTED_OUTPUT = [
    ['Value(data=-1.0)'],  # 1. __add__
    ['Value(data=4.0)'],  # 2. __mul__: 2 * -3 + 10
    ['(Value(data=-6.0), Value(data=10.0))', '+'],  # 3. _prev and _op
    ['x.grad = -3.0', 'y.grad = 2.0', 'a.grad = 2.0'],  # 4. _backward by hand, a + a
    ['L = -8.0', 'a grad 6.0', 'b grad -4.0', 'c grad -2.0', 'f grad 4.0'],  # 5. backward()
    [
        'o = 0.7071',
        'n.grad = 0.5000',
        'x1.grad = -1.5000',
        'w1.grad = 1.0000',
        'x2.grad = 0.5000',
        'w2.grad = 0.0000',
    ],  # 6. the tanh neuron
]

# Cell index -> substrings of the text of the graphs that the cell draws (each within one record field,
# so that they also appear in the SVG's text). Cells not listed draw no graph.
EXPECTED_GRAPH_TEXT = {
    2: ['data 4.0000', 'data -6.0000', 'data 10.0000'],
    3: ['data 6.0000', 'grad 2.0000'],
    4: ['data -8.0000', 'grad 6.0000', 'grad -4.0000', 'grad -2.0000', 'grad 4.0000'],
    5: ['data 0.7071', 'grad 1.0000', 'grad 0.5000', 'grad -1.5000', 'tanh'],
}
