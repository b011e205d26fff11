"""A network's graph grouped by neuron or by layer: the page's view of a scalargrad.nn model too large to read
value by value.

scalargrad.nn's MLP labels each neuron's output `L<layer>.n<neuron>`: a box holds that output and every
value only it uses (weights, bias, products, sums, activation). `groups(nodes, edges)` gives both views
(playground_runtime.teaching says what the page receives); `grouped_only` is for a network past
graph.MAX_NODES values, drawn by neuron alone.
"""

import re

from scalargrad.graph import MAX_NODES, children_of, format_number, header, record_field, value_lines

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
    lines = header(rankdir)
    drawn = set()
    for n in nodes:
        name = unit[id(n)]
        if name in drawn:
            continue
        drawn.add(name)
        if name not in boxes:
            lines += value_lines(n, name, n is root)
            continue
        title, count, outputs = boxes[name]
        fields = [title, f"{count:,} value{'s' if count != 1 else ''}"]
        if len(outputs) == 1:
            fields.append(f"data {format_number(outputs[0].data)}")
            if hasattr(outputs[0], 'grad'):
                fields.append(f"grad {format_number(outputs[0].grad)}")
        else:
            fields.append(f"{len(outputs):,} outputs")
        label = ' | '.join(record_field(f) for f in fields)
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


def groups(nodes, edges, rankdir='LR', owner=None):
    owner = neuron_of(nodes, edges) if owner is None else owner
    if not owner:
        return None
    views = {}
    for by in ('neuron', 'layer'):
        dot, count = grouped_dot(nodes, edges, owner, by, rankdir)
        views[by] = {'dot': dot, 'nodes': count}
        if len(nodes) <= MAX_NODES:  # what a box holds, for the explanation and live updates
            views[by].update(boxes(nodes, owner, by))
    views['neuron']['weights'] = box_weights(nodes, edges, owner) if len(nodes) <= MAX_NODES else {}
    return views


def boxes(nodes, owner, by):
    """{"members": {box: [positions of its values]}, "outputs": {box: position of its one output}}."""
    members, outputs = {}, {}
    for i, n in enumerate(nodes):
        key = owner.get(id(n))
        if key is None:
            continue
        box = box_of(*key, by)
        members.setdefault(box, []).append(i)
        label = getattr(n, 'label', '')
        if isinstance(label, str) and NEURON_LABEL.fullmatch(label):
            outputs.setdefault(box, []).append(i)
    return {'members': members, 'outputs': {box: found[0] for box, found in outputs.items() if len(found) == 1}}


def grouped_only(nodes, edges, rankdir='LR'):
    """For a network too big to draw value by value: its groups, if the neuron view is small enough."""
    owner = neuron_of(nodes, edges)
    if not owner:
        return None
    views = groups(nodes, edges, rankdir, owner)
    return views if views['neuron']['nodes'] <= MAX_NODES else None
