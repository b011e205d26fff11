"""Computation graphs as DOT text, for any object that looks like a Value.

A node is anything with `data` and children in `_prev` (micrograd) or `children` (some tutorials);
`grad`, `_op` and `label` are optional. Drawing itself is the page's job: this only writes DOT.

Every value is a record with the id `vN` (N: its place in `trace` order), its op a circle `vN_op`;
the edges that a value's `_backward` writes along (op -> value, and each child -> op) have the class
`into-vN`. The output has the class `root`. viz.js keeps these in the SVG: `<g id="v3" class="node">`,
`<g id="edge2" class="edge into-v3">`.

`marks` ({node: expected grad}, or (node, expected) pairs for objects that cannot be dict keys) flags
nodes whose grad is wrong: their record shows `grad 1.0000 ≠ 2.0000 expected`, in red, with the
Graphviz class `wrong-grad` (viz.js writes it into the SVG as `<g class="node wrong-grad">`).

`header`, `value_lines` and `record_field` are the parts that another view of a graph writes with (the
playground's grouping of a network by neuron, playground_runtime.groups).
"""

MAX_NODES = 2000
TRACE_LIMIT = 50_000  # values traced before a graph is refused without even counting it


class GraphTooLarge(ValueError):
    """`count` is None when the graph has more than TRACE_LIMIT values: it was not counted to the end."""

    def __init__(self, count, limit):
        size = f"{count:,} values" if count is not None else f"more than {TRACE_LIMIT:,} values"
        super().__init__(
            f"this graph has {size}, more than the {limit:,} that can be drawn; "
            f"draw a smaller part of it, for example one neuron's output"
        )
        self.count = count
        self.limit = limit


def is_node(obj):
    return hasattr(obj, 'data') and (hasattr(obj, '_prev') or hasattr(obj, 'children'))


def children_of(node):
    children = getattr(node, '_prev', None)
    if children is None:
        children = getattr(node, 'children', ())
    if isinstance(children, (set, frozenset)):
        # A set's order follows memory addresses; sort so that every run draws the same picture.
        children = sorted(children, key=_stable_key)
    return [c for c in children if is_node(c)]


def _stable_key(node):
    return (
        str(getattr(node, 'label', '')),
        str(getattr(node, '_op', '')),
        repr(node.data),
        repr(getattr(node, 'grad', None)),
    )


class _TooMany(Exception):
    pass


def trace(root, limit=None):
    """All nodes below root (children before parents) and edges (child, parent), one per use.

    With `limit`, stop and raise GraphTooLarge(None, limit) as soon as more nodes than that are found.
    """
    try:
        return _trace(root, limit)
    except _TooMany:
        raise GraphTooLarge(None, limit) from None


def _trace(root, limit):
    nodes, edges, seen = [], [], {id(root)}
    stack = [(root, None)]
    while stack:
        node, children = stack[-1]
        if children is None:
            children = iter(children_of(node))
            stack[-1] = (node, children)
        for child in children:
            edges.append((child, node))
            if id(child) not in seen:
                seen.add(id(child))
                if limit is not None and len(seen) > limit:
                    raise _TooMany
                stack.append((child, None))
                break
        else:
            stack.pop()
            nodes.append(node)
    return nodes, edges


def format_number(x):
    try:
        return f"{x:.4f}"
    except (TypeError, ValueError):
        return str(x)


def _visible(text):
    """Control characters shown as their escapes, so a label never breaks a line or the SVG."""
    return ''.join(repr(ch)[1:-1] if ord(ch) < 32 or ord(ch) == 127 else ch for ch in str(text))


def _dot_string(text):
    # In Graphviz labels a backslash starts an escape (\n, \l, \N): double it to show it as is.
    return _visible(text).replace('\\', '\\\\').replace('"', '\\"')


def record_field(text):
    escaped = _visible(text).replace('\\', '\\\\')
    for ch in '{}|<>"':
        escaped = escaped.replace(ch, '\\' + ch)
    return escaped


WRONG_GRAD_STYLE = 'color="#c62828" fontcolor="#b71c1c" fillcolor="#fdecea" style=filled penwidth=2'


def to_dot(root, rankdir='LR', max_nodes=MAX_NODES, marks=None):
    return dot_source(*_limited_trace(root, max_nodes), rankdir, marks)


def _limited_trace(root, max_nodes):
    """trace(root), or GraphTooLarge past max_nodes (counted up to TRACE_LIMIT, so that it stays cheap)."""
    if max_nodes is None:
        return trace(root)
    try:
        nodes, edges = trace(root, limit=max(max_nodes, TRACE_LIMIT))
    except GraphTooLarge:
        raise GraphTooLarge(None, max_nodes) from None
    if len(nodes) > max_nodes:
        raise GraphTooLarge(len(nodes), max_nodes)
    return nodes, edges


def _marks_by_id(marks):
    pairs = marks.items() if hasattr(marks, 'items') else (marks or ())
    return {id(node): expected for node, expected in pairs}


def header(rankdir):
    return [
        'digraph {',
        f'  graph [rankdir={_dot_name(rankdir)} ranksep=0.3 nodesep=0.2]',
        '  node [fontname="Helvetica" fontsize=12]',
    ]


def value_lines(n, name, is_root, expected=None):
    """A value's record, its op circle and the op -> value edge."""
    fields = [getattr(n, 'label', ''), f"data {format_number(n.data)}"]
    marked = expected is not None
    if marked:
        grad = format_number(getattr(n, 'grad', None))
        fields.append(f"grad {grad} ≠ {format_number(expected)} expected")
    elif hasattr(n, 'grad'):
        fields.append(f"grad {format_number(n.grad)}")
    label = ' | '.join(record_field(f) for f in fields)
    if marked:
        classes = 'root wrong-grad' if is_root else 'wrong-grad'
        css = f' class="{classes}" {WRONG_GRAD_STYLE}'
    else:
        css = ' class=root' if is_root else ''  # the page starts its view on the output
    lines = [f'  {name} [label="{{ {label} }}" shape=record{css} id="{name}"]']
    op = getattr(n, '_op', '')
    if op:
        lines.append(f'  {name}_op [label="{_dot_string(op)}" shape=circle id="{name}_op"]')
        lines.append(f'  {name}_op -> {name} [class="into-{name}"]')
    return lines


def dot_source(nodes, edges, rankdir='LR', marks=None):
    """The DOT text of a graph already traced: `nodes, edges = trace(root)`."""
    names = {id(n): f"v{i}" for i, n in enumerate(nodes)}
    expected = _marks_by_id(marks)
    lines = header(rankdir)
    root = nodes[-1] if nodes else None
    for n in nodes:
        lines += value_lines(n, names[id(n)], n is root, expected.get(id(n)))
    for child, parent in edges:
        name = names[id(parent)]
        target = name + ('_op' if getattr(parent, '_op', '') else '')
        lines.append(f'  {names[id(child)]} -> {target} [class="into-{name}"]')
    lines.append('}')
    return '\n'.join(lines) + '\n'


def _dot_name(word):
    word = str(word)
    return word if word.isalnum() else '"' + _dot_string(word) + '"'


class Dot:
    """What draw_dot returns: the DOT text in .source, like a graphviz.Digraph."""

    def __init__(self, source, node_count, title=''):
        self.source = source
        self.node_count = node_count
        self.title = title

    def __repr__(self):
        return f"<graph of {self.node_count} values>"


def draw_dot(root, rankdir='LR', format='svg', max_nodes=MAX_NODES, marks=None, live=False):
    # live=True is the playground's (its drawing updates in place): here each call draws, so that such a
    # program runs unchanged outside the page.
    nodes, edges = _limited_trace(root, max_nodes)
    return Dot(dot_source(nodes, edges, rankdir, marks), len(nodes), str(getattr(root, 'label', '') or ''))
