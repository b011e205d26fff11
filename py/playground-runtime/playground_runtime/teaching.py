"""What the page's teaching views need, computed when a graph is drawn (README: "Teaching views").

`extras(root, nodes, edges)` gives the teaching fields of a graph (playground_runtime.runner sends them
after its graph event, in a graph-teaching event, or with a live graph's drawings); ids are the
DOT's (`vN`, graph.py), numbers that JSON cannot hold (nan, inf, not a number) are null:

  table   [{"id": "v0", "label", "op", "data", "grad"}, ...]: every value, inputs first, the output
          last (a topological order: the forward stepper's); grad null when the value has none
  steps   {"start": {"v0": grad, ...}, "steps": [{"id", "text", "grads": {"v0": grad, ...}, "error"?}]}:
          the backward pass replayed with the graph's own `_backward` closures, so that a learner's
          bug shows as their code makes it. Every grad is set to 0, the output's to 1 (`start`), then
          each computed value's `_backward()` runs, output first (`grads`: only the grads it
          changed); the grads and data are put back afterwards. Only when every value has a callable
          `_backward` and there are at most MAX_STEPS values.
  check   {"checked": n, "wrong": [{"id", "label", "grad", "expected"}], "dot": DOT | null, "reason": str | null}:
          every value's grad, as drawn, against d output / d value by central differences
          (scalargrad.gradcheck); `wrong` nearest the output first, where a mistake shows first;
          `dot` the graph with those marked; `reason` why some or all grads were not checked (no
          backward pass yet: nothing is compared); "hint", when a wrong value is used more than once,
          asks whether `_backward` adds with `+=`. At most MAX_CHECK values; absent without grads.
  explain {"names", "args", "local", "why", "verdicts"}: where each value's data and grad come from,
          read from the values as they are (playground_runtime.explain says what each holds).
  groups  {"neuron": {"dot", "nodes", "members", "outputs", "weights"}, "layer": {"dot", "nodes", "members",
          "outputs"}}: a network of scalargrad.nn drawn one box per neuron or per layer (`nodes`: how many
          boxes and records are drawn); `members` {box: [positions of the values it holds]}, `outputs`
          {box: position of its one output}, `weights` {edge id (`SOURCE__BOX`): position of the weight
          that edge carries into the box}. No members, outputs or weights past MAX_NODES values.
"""

import re
import sys

from scalargrad import ops
from scalargrad.gradcheck import Replay
from scalargrad.graph import children_of, dot_source

from .explain import explanation
from .groups import groups, neuron_of
from .numbers import json_number as number
from .numbers import shown
from .words import _, ngettext

MAX_STEPS = 500
MAX_CHECK = 300


FIELDS = ('table', 'explain', 'steps', 'check', 'groups')
LIGHT = ('table', 'explain', 'groups')  # without steps and check, which cost most: a live graph's drawings


def extras(root, nodes, edges, rankdir='LR', code_names=None, fields=FIELDS):
    """The teaching `fields` of a graph event for a traced graph (see the module docstring)."""
    names = [f"v{i}" for i in range(len(nodes))]
    out = {}
    try:
        owner = neuron_of(nodes, edges) if {'explain', 'groups'} & set(fields) else {}
    except Exception:
        owner = {}
    for field, make in [
        ('table', lambda: table(nodes, names)),
        ('explain', lambda: explanation(nodes, edges, code_names, owner)),
        ('steps', lambda: backward_steps(nodes, names, code_names or {})),
        ('check', lambda: grad_check(root, nodes, edges, names, rankdir)),
        ('groups', lambda: groups(nodes, edges, rankdir, owner)),
    ]:
        if field not in fields:
            continue
        try:
            value = make()
        except Exception:  # a learner's class can be odd in many ways; the graph is still drawn
            value = None
        if value is not None:
            out[field] = value
    return out


def table(nodes, names):
    return [
        {
            'id': name,
            'label': _text(getattr(n, 'label', '')),
            'op': _text(getattr(n, '_op', '')),
            'data': number(getattr(n, 'data', None)),
            'grad': number(n.grad) if hasattr(n, 'grad') else None,
        }
        for n, name in zip(nodes, names)
    ]


def _text(x):
    return '' if x is None else str(x)


class _Silent:
    def write(self, text):
        return len(text)

    def flush(self):
        pass


_MISSING = object()


def backward_steps(nodes, names, code_names):
    if not nodes or len(nodes) > MAX_STEPS or not all(callable(getattr(n, '_backward', None)) for n in nodes):
        return None
    saved_grads = [getattr(n, 'grad', _MISSING) for n in nodes]
    saved_data = [n.data for n in nodes]
    saved_streams = sys.stdout, sys.stderr
    sys.stdout = sys.stderr = _Silent()  # what the closures print is not the program's output
    try:
        for n in nodes:
            n.grad = 0.0
        nodes[-1].grad = 1.0
        grads = [n.grad for n in nodes]
        start = {name: number(g) for name, g in zip(names, grads)}
        steps = []
        for i in range(len(nodes) - 1, -1, -1):
            node = nodes[i]
            kids = children_of(node)
            if not kids:
                continue  # a leaf's _backward has nothing to pass on
            error = None
            try:
                node._backward()
            except Exception as e:
                error = f"{type(e).__name__}: {e}" if str(e) else type(e).__name__
            now = [n.grad for n in nodes]
            changed = [j for j, (old, new) in enumerate(zip(grads, now)) if not _same(old, new)]
            step = {
                'id': names[i],
                'text': _narrate(node, kids, nodes, changed, grads, now, code_names),
                'grads': {names[j]: number(now[j]) for j in changed},
            }
            if error is not None:
                step['error'] = error
            steps.append(step)
            grads = now
        return {'start': start, 'steps': steps}
    finally:
        sys.stdout, sys.stderr = saved_streams
        for n, grad, data in zip(nodes, saved_grads, saved_data):
            if grad is _MISSING:
                try:
                    del n.grad
                except AttributeError:
                    pass
            else:
                n.grad = grad
            n.data = data


def _same(a, b):
    return a is b or bool(a == b) or (a != a and b != b)  # nan stays nan


def _name(node):
    label = getattr(node, 'label', '')
    if label not in ('', None):
        return str(label)
    return _("the value with data {data}").format(data=shown(getattr(node, 'data', None)))


def grad_name(node):
    """How a text names a value's grad (the checks' too): `x.grad` by its label, else one message by its data
    (not "the grad of" before _name's text: Spanish joins "de el" into "del")."""
    label = getattr(node, 'label', '')
    if label not in ('', None):
        return f"{label}.grad"
    return _("the grad of the value with data {data}").format(data=shown(getattr(node, 'data', None)))


def _callee(node, code_names):
    """How the learner's code would name this node: `o`, `x1w1x2w2` (its variable, when it has one)."""
    label = getattr(node, 'label', '')
    label = label if isinstance(label, str) else ''
    variables = code_names.get(id(node), [])
    squeezed = re.sub(r'\W', '', label)
    for wanted in (label, squeezed):
        if wanted and wanted in variables:
            return wanted
    if label.isidentifier():
        return label
    if len(variables) == 1:
        return variables[0]
    return None


def _narrate(node, kids, nodes, changed, before, after, code_names):
    """ "`o._backward()`: tanh sends 0.5 to n", from what the closure really changed."""
    callee = _callee(node, code_names)
    call = f"`{callee}._backward()`" if callee else _("`_backward()` of {name}").format(name=_name(node))
    if not changed:
        return _("{call}: nothing changes").format(call=call)
    position = {id(n): j for j, n in enumerate(nodes)}
    uses = {}
    for k in ops.operands(node, kids):
        uses[id(k)] = uses.get(id(k), 0) + 1
    parts, shown_ids = [], set()
    for k in kids:
        if id(k) in shown_ids:
            continue
        shown_ids.add(id(k))
        j = position[id(k)]
        count = uses.get(id(k), 1)
        repeat = (
            _(' (used twice)') if count == 2 else _(' (used {count} times)').format(count=count) if count > 2 else ''
        )
        parts.append(_("{change} to {name}").format(change=shown(_change(before[j], after[j])), name=_name(k)) + repeat)
    op = getattr(node, '_op', '')
    sends = _joined(parts)
    text = (
        _("{call}: {op} sends {sends}").format(call=call, op=op, sends=sends)
        if op
        else _("{call}: sends {sends}").format(call=call, sends=sends)
    )
    others = [j for j in changed if id(nodes[j]) not in shown_ids]
    if others:
        sets = [_("{grad} to {value}").format(grad=grad_name(nodes[j]), value=shown(after[j])) for j in others]
        text += _("; it also sets {values}").format(values=_joined(sets))
    return text


def _change(old, new):
    try:
        return new - old
    except Exception:
        return new


def _joined(parts):
    return parts[0] if len(parts) == 1 else _("{some} and {last}").format(some=', '.join(parts[:-1]), last=parts[-1])


def grad_check(root, nodes, edges, names, rankdir):
    if len(nodes) > MAX_CHECK or not any(hasattr(n, 'grad') for n in nodes):
        return None
    result = {'checked': 0, 'wrong': [], 'dot': None, 'reason': None}
    root_grad = getattr(root, 'grad', None)
    if number(root_grad) in (None, 0):
        result['reason'] = _(
            "{grad} is {value}: no backward pass has run on this graph "
            "yet, so there are no grads to check. Call backward() on it (or set its grad to "
            "1.0 and call each _backward()) before drawing it."
        ).format(grad=grad_name(root), value=shown(root_grad))
        return result
    replay = Replay(root, order=nodes)
    checks = [replay.check(n) for n in nodes if hasattr(n, 'grad')]
    checked = [c for c in checks if c.ok is not None]
    result['checked'] = len(checked)
    position = {id(n): i for i, n in enumerate(nodes)}
    wrong = [c for c in reversed(checked) if not c.ok]
    result['wrong'] = [
        {
            'id': names[position[id(c.node)]],
            'label': _text(getattr(c.node, 'label', '')),
            'grad': number(c.analytic),
            'expected': number(c.numeric),
        }
        for c in wrong
    ]
    if wrong:
        result['dot'] = dot_source(nodes, edges, rankdir, marks=[(c.node, c.numeric) for c in wrong])
        hint = _reused_hint([c.node for c in wrong], nodes)
        if hint:
            result['hint'] = hint
    if len(checked) < len(checks):
        result['reason'] = _why_unchecked(len(checks) - len(checked), len(checks), replay)
    return result


def _reused_hint(wrong_nodes, nodes):
    """The classic bug: a value used more than once whose grad kept one use's share (`=` for `+=`)."""
    uses = {}
    for n in nodes:
        for k in ops.operands(n):
            uses[id(k)] = uses.get(id(k), 0) + 1
    for node in wrong_nodes:
        count = uses.get(id(node), 0)
        if count > 1:
            return _(
                "{name} is used {count} times, so its grad is the sum of what each use sends: "
                "does every `_backward` add with `+=`? An `=` keeps only the last share."
            ).format(name=_name(node), count=count)
    return None


def _why_unchecked(count, total, replay):
    some = (
        _("{count} of the {total} grads were not checked").format(count=count, total=total)
        if count < total
        else _("No grad could be checked")
    )
    if not replay.unreplayable:
        return _("{some}: their data are not plain numbers.").format(some=some)
    node = replay.order[replay.unreplayable[-1]]  # nearest the output: it hides the most
    name, op = _name(node), getattr(node, '_op', '')
    if not op:
        why = _("{name} has no `_op`, so it cannot be recomputed from its inputs").format(name=name)
    elif _known(op):
        why = _(
            "recomputing {name} with {op} from its inputs does not give its data (does it record "
            "every input in `_prev`?)"
        ).format(name=name, op=repr(op))
    else:
        why = _("{name} has the op {op}, which the check cannot recompute").format(name=name, op=repr(op))
    more = len(replay.unreplayable) - 1
    also = (
        ngettext(" ({count} more value like it)", " ({count} more values like it)", more).format(count=more)
        if more
        else ''
    )
    return _("{some}: {why}{also}, so nothing it is computed from can be nudged.").format(some=some, why=why, also=also)


def _known(op):
    return ops.forward(op) is not None
