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

`grouped_dot` draws a network's graph with one box per neuron (or per layer) of scalargrad.nn, whose
MLP labels each neuron's output `L<layer>.n<neuron>`: a box holds that output and every value only it
uses (weights, bias, products, sums, activation).
"""

import re

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


def _record_field(text):
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


def _header(rankdir):
    return [
        'digraph {',
        f'  graph [rankdir={_dot_name(rankdir)} ranksep=0.3 nodesep=0.2]',
        '  node [fontname="Helvetica" fontsize=12]',
    ]


def _value_lines(n, name, is_root, expected=None):
    """A value's record, its op circle and the op -> value edge."""
    fields = [getattr(n, 'label', ''), f"data {format_number(n.data)}"]
    marked = expected is not None
    if marked:
        grad = format_number(getattr(n, 'grad', None))
        fields.append(f"grad {grad} ≠ {format_number(expected)} expected")
    elif hasattr(n, 'grad'):
        fields.append(f"grad {format_number(n.grad)}")
    label = ' | '.join(_record_field(f) for f in fields)
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
    lines = _header(rankdir)
    root = nodes[-1] if nodes else None
    for n in nodes:
        lines += _value_lines(n, names[id(n)], n is root, expected.get(id(n)))
    for child, parent in edges:
        name = names[id(parent)]
        target = name + ('_op' if getattr(parent, '_op', '') else '')
        lines.append(f'  {names[id(child)]} -> {target} [class="into-{name}"]')
    lines.append('}')
    return '\n'.join(lines) + '\n'


NEURON_LABEL = re.compile(r'L([0-9]+)\.n([0-9]+)')


def neuron_of(nodes, edges):
    """{id(value): (layer, neuron)} for the values inside a neuron of scalargrad.nn; {} if there are none.

    A neuron's output carries the label `L<layer>.n<neuron>` (MLP gives it); a value belongs to a
    neuron when every use of it is inside that neuron, so inputs shared by several neurons, and the
    loss computed from the outputs, belong to none. Forward passes over many points share labels, so
    one box holds a neuron's values for every point.
    """
    owner = {}
    for n in nodes:
        label = getattr(n, 'label', '')
        match = NEURON_LABEL.fullmatch(label) if isinstance(label, str) else None
        if match:
            owner[id(n)] = (int(match[1]), int(match[2]))
    if not owner:
        return owner
    uses = {}
    for child, parent in edges:
        uses.setdefault(id(child), []).append(id(parent))
    for n in reversed(nodes):  # parents before children, so that ownership flows down
        if id(n) in owner:
            continue
        users = uses.get(id(n))
        if users:
            first = owner.get(users[0])
            if first is not None and all(owner.get(u) == first for u in users):
                owner[id(n)] = first
    return owner


def grouped_dot(nodes, edges, owner, by='neuron', rankdir='LR'):
    """DOT with one box per neuron (by='neuron') or per layer (by='layer'); returns (source, boxes drawn).

    A box shows its name, how many values it holds and its output's data and grad (the count of
    outputs when it has several); values outside every neuron are drawn as in the full graph, with
    the same ids. Edges between boxes are merged: one per pair.
    """
    names = {id(n): f"v{i}" for i, n in enumerate(nodes)}
    unit = {}  # id(value) -> the name of the box or record that shows it
    boxes = {}  # box name -> [title, values, outputs], in order of first appearance
    for n in nodes:
        key = owner.get(id(n))
        if key is None:
            unit[id(n)] = names[id(n)]
            continue
        layer, neuron = key
        name, title = (
            box_of(layer, neuron, by),
            (f"layer {layer} · neuron {neuron}" if by == 'neuron' else f"layer {layer}"),
        )
        unit[id(n)] = name
        box = boxes.setdefault(name, [title, 0, []])
        box[1] += 1
        label = getattr(n, 'label', '')
        if isinstance(label, str) and NEURON_LABEL.fullmatch(label):
            box[2].append(n)
    root = nodes[-1] if nodes else None
    lines = _header(rankdir)
    drawn = set()
    for n in nodes:
        name = unit[id(n)]
        if name in drawn:
            continue
        drawn.add(name)
        if name not in boxes:
            lines += _value_lines(n, name, n is root)
            continue
        title, count, outputs = boxes[name]
        fields = [title, f"{count:,} value{'s' if count != 1 else ''}"]
        if len(outputs) == 1:
            fields.append(f"data {format_number(outputs[0].data)}")
            if hasattr(outputs[0], 'grad'):
                fields.append(f"grad {format_number(outputs[0].grad)}")
        else:
            fields.append(f"{len(outputs):,} outputs")
        label = ' | '.join(_record_field(f) for f in fields)
        css = ' class=root' if root is not None and unit[id(root)] == name else ''
        lines.append(
            f'  {name} [label="{{ {label} }}" shape=Mrecord style=filled fillcolor="#eef2ff"{css} id="{name}"]'
        )
    if by == 'neuron':  # each layer's neurons in one column, in their order (Graphviz may rotate them)
        layers = {}
        for layer, neuron in sorted(set(owner.values())):
            layers.setdefault(layer, []).append(f"L{layer}_n{neuron}")
        for column in layers.values():
            if len(column) > 1:
                lines.append(f"  {{ rank=same; {' -> '.join(column)} [style=invis] }}")
    seen_edges = set()
    for child, parent in edges:
        source, target = unit[id(child)], unit[id(parent)]
        if source == target:
            continue
        to_box = target in boxes
        if not to_box and getattr(parent, '_op', ''):
            target += '_op'
        if to_box or source in boxes:
            if (source, target) in seen_edges:
                continue
            seen_edges.add((source, target))
        css = f' [id="{source}__{target}" class="into-box"]' if to_box else f' [class="into-{unit[id(parent)]}"]'
        lines.append(f'  {source} -> {target}{css}')
    lines.append('}')
    return '\n'.join(lines) + '\n', len(drawn)


def box_of(layer, neuron, by):
    """The DOT name of the box that holds a neuron's values in grouped_dot's view `by`."""
    return f"L{layer}_n{neuron}" if by == 'neuron' else f"L{layer}"


def units(nodes, owner, by):
    """{id(value): the name of the box or record that shows it in grouped_dot's view `by`}."""
    out = {}
    for i, n in enumerate(nodes):
        key = owner.get(id(n))
        out[id(n)] = f"v{i}" if key is None else box_of(*key, by)
    return out


def box_weights(nodes, edges, owner, by='neuron'):
    """{edge id of grouped_dot (`SOURCE__BOX`): the position in `nodes` of the weight it carries}: an edge
    into a box whose product, inside the box, multiplies what comes along it by a leaf of that box."""
    unit = units(nodes, owner, by)
    position = {id(n): i for i, n in enumerate(nodes)}
    weights = {}
    for child, parent in edges:
        source, target = unit[id(child)], unit[id(parent)]
        if source == target or target.startswith('v') or getattr(parent, '_op', '') != '*':
            continue
        others = [k for k in children_of(parent) if k is not child]
        if len(others) == 1 and unit[id(others[0])] == target and not children_of(others[0]):
            weights.setdefault(f"{source}__{target}", position[id(others[0])])
    return weights


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
