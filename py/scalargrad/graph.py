"""Computation graphs as DOT text, for any object that looks like a Value.

A node is anything with `data` and children in `_prev` (micrograd) or `children` (some tutorials);
`grad`, `_op` and `label` are optional. Drawing itself is the page's job: this only writes DOT.

`marks` ({node: expected grad}, or (node, expected) pairs for objects that cannot be dict keys) flags
nodes whose grad is wrong: their record shows `grad 1.0000 ≠ 2.0000 expected`, in red, with the
Graphviz class `wrong-grad` (viz.js writes it into the SVG as `<g class="node wrong-grad">`).
"""

MAX_NODES = 2000


class GraphTooLarge(ValueError):
    def __init__(self, count, limit):
        super().__init__(
            f"this graph has {count:,} values, more than the {limit:,} that can be drawn; "
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
    return (str(getattr(node, 'label', '')), str(getattr(node, '_op', '')), repr(node.data), repr(getattr(node, 'grad', None)))


def trace(root):
    """All nodes below root (children before parents) and edges (child, parent), one per use."""
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


def _record_field(text):
    escaped = _visible(text).replace('\\', '\\\\')
    for ch in '{}|<>"':
        escaped = escaped.replace(ch, '\\' + ch)
    return escaped


WRONG_GRAD_STYLE = 'color="#c62828" fontcolor="#b71c1c" fillcolor="#fdecea" style=filled penwidth=2'


def to_dot(root, rankdir='LR', max_nodes=MAX_NODES, marks=None):
    return _dot_source(*_limited_trace(root, max_nodes), rankdir, marks)


def _limited_trace(root, max_nodes):
    nodes, edges = trace(root)
    if max_nodes is not None and len(nodes) > max_nodes:
        raise GraphTooLarge(len(nodes), max_nodes)
    return nodes, edges


def _marks_by_id(marks):
    pairs = marks.items() if hasattr(marks, 'items') else (marks or ())
    return {id(node): expected for node, expected in pairs}


def _dot_source(nodes, edges, rankdir, marks=None):
    names = {id(n): f"v{i}" for i, n in enumerate(nodes)}
    expected = _marks_by_id(marks)
    lines = [
        'digraph {',
        f'  graph [rankdir={_dot_name(rankdir)} ranksep=0.3 nodesep=0.2]',
        '  node [fontname="Helvetica" fontsize=12]',
    ]
    root = nodes[-1] if nodes else None
    for n in nodes:
        name = names[id(n)]
        fields = [getattr(n, 'label', ''), f"data {format_number(n.data)}"]
        marked = id(n) in expected
        if marked:
            grad = format_number(getattr(n, 'grad', None))
            fields.append(f"grad {grad} ≠ {format_number(expected[id(n)])} expected")
        elif hasattr(n, 'grad'):
            fields.append(f"grad {format_number(n.grad)}")
        label = ' | '.join(_record_field(f) for f in fields)
        if marked:
            classes = 'root wrong-grad' if n is root else 'wrong-grad'
            css = f' class="{classes}" {WRONG_GRAD_STYLE}'
        else:
            css = ' class=root' if n is root else ''  # the page starts its view on the output
        lines.append(f'  {name} [label="{{ {label} }}" shape=record{css}]')
        op = getattr(n, '_op', '')
        if op:
            lines.append(f'  {name}_op [label="{_dot_string(op)}" shape=circle]')
            lines.append(f'  {name}_op -> {name}')
    for child, parent in edges:
        target = names[id(parent)] + ('_op' if getattr(parent, '_op', '') else '')
        lines.append(f'  {names[id(child)]} -> {target}')
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


def draw_dot(root, rankdir='LR', format='svg', max_nodes=MAX_NODES, marks=None):
    nodes, edges = _limited_trace(root, max_nodes)
    return Dot(_dot_source(nodes, edges, rankdir, marks), len(nodes), str(getattr(root, 'label', '') or ''))
