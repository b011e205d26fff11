"""Where each number of a drawn graph comes from: the data behind web/output/node-explain.js.

`explanation(nodes, edges, names)` reads only the values' attributes (data, grad, _op and the children
the trace found): it calls none of the program's methods or closures, and replays nothing. Every list
is in the graph's order (index i is the DOT's `vi`; the output is last):

  names     what the formulas call each value: its label, its variable, or `vi`
  args      null for a leaf; else the operands' indices in the order the op used them, a value used
            twice listed twice (`a + a` gives [0, 0] even when a set kept one child)
  local     null for a leaf; else d value / d operand for each operand (null where it is not a number)
  why       {i: {"kind", "op"}} for a computed value whose arithmetic is not shown: "no-op" (children
            but no `_op`), "unknown-op" (an op scalargrad.ops does not know), "not-reproduced" (its op on
            its children's data does not give its data), "not-numbers" (data that are not numbers)
  verdicts  {i: {"kind", "uses"[, "times"]}} for each value whose grad is not the sum of what its uses
            send (local derivative times the user's grad): "missing" (the grad is what the uses not in
            `uses` send: those contributions never arrived, as `=` instead of `+=` does), "repeated"
            (`times` times the sum: grads not zeroed between backward passes), "wrong" (its one use
            sends another amount), "unexplained". `uses` index the value's uses in the order that
            `uses_of(args)` lists them: by user, then operand position.

Numbers that JSON cannot hold (nan, inf) are null.
"""

import math
import re

from scalargrad import ops

from .numbers import finite, plain

MAX_SUBSETS = 10  # uses: past this, only the likeliest ways a grad goes wrong are tried
IDENTIFIER = re.compile(r'[A-Za-z_][\w.]*')


def names_of(nodes, code_names=None, owner=None, args=None):
    """What the formulas call each value: an identifier-like label, else its variable, else the label in
    brackets, else, inside a neuron of scalargrad.nn (`owner`, groups.neuron_of; `args` as structure() gives
    them), its role there (`L1.n3.w2`, `L1.n3.b`), else `vi`."""
    code_names = code_names or {}
    roles = _roles(nodes, owner, args) if owner and args else {}
    out = []
    for i, n in enumerate(nodes):
        label = getattr(n, 'label', '')
        label = label if isinstance(label, str) else ''
        variables = code_names.get(id(n), [])
        squeezed = re.sub(r'\W', '', label)
        if label and IDENTIFIER.fullmatch(label):
            out.append(label)
        elif squeezed and squeezed in variables:
            out.append(squeezed)
        elif label:
            out.append(f"[{label}]")
        elif len(variables) == 1:
            out.append(variables[0])
        else:
            out.append(roles.get(i, f"v{i}"))
    return out


def _roles(nodes, owner, args):
    """{position: `L1.n3.w2` or `L1.n3.b`} for each neuron's leaves: a weight multiplies, the bias is added
    (weights numbered in the order the neuron's sum meets them)."""
    keys = [owner.get(id(n)) for n in nodes]
    roles, counts = {}, {}
    for i, n in enumerate(nodes):
        key = keys[i]
        op = getattr(n, '_op', '')
        if key is None or args[i] is None or op not in ('+', '*'):
            continue
        for j in args[i]:
            if j in roles or keys[j] != key or args[j] is not None:
                continue
            if op == '*':
                counts[key] = counts.get(key, 0) + 1
                roles[j] = f"L{key[0]}.n{key[1]}.w{counts[key]}"
            else:
                roles[j] = f"L{key[0]}.n{key[1]}.b"
    return roles


def explanation(nodes, edges, code_names=None, owner=None):
    """The `explain` field of a graph event (see the module docstring). `code_names` ({id: variables}) and
    `owner` (groups.neuron_of) name the values."""
    args, why = structure(nodes, edges)
    return {'names': names_of(nodes, code_names, owner, args), 'args': args, **numbers(nodes, args, why)}


def structure(nodes, edges):
    """(args, why): each value's operands in the op's order, and why some values' arithmetic is not shown."""
    position = {id(n): i for i, n in enumerate(nodes)}
    kids = [[] for _ in nodes]
    for child, parent in edges:
        kids[position[id(parent)]].append(child)
    data = [plain(getattr(n, 'data', None)) for n in nodes]
    args, why = [], {}
    for i, node in enumerate(nodes):
        if not kids[i]:
            args.append(None)
            continue
        reading, problem = _read(node, kids[i], position, data, data[i])
        args.append([position[id(k)] for k in reading])
        if problem:
            why[str(i)] = problem
    return args, why


def numbers(nodes, args, why):
    """{"local", "why", "verdicts"} for values whose operands (`args`) and unknowns (`why`) are known: all a
    live graph's update needs once its shape is drawn."""
    data = [plain(getattr(n, 'data', None)) for n in nodes]
    local = []
    for i, node in enumerate(nodes):
        if args[i] is None or str(i) in why:
            local.append(None)
            continue
        xs = [data[j] for j in args[i]]
        if data[i] is None or None in xs:
            local.append(None)
            continue
        try:
            local.append([finite(d) for d in ops.local(getattr(node, '_op', ''))(xs, data[i])])
        except (ArithmeticError, ValueError, TypeError):
            local.append([None] * len(xs))
    grads = [plain(getattr(n, 'grad', None)) for n in nodes]
    verdicts = {}
    for j, uses in enumerate(uses_of(args)):
        if j == len(nodes) - 1 or not uses or grads[j] is None:
            continue  # the output's grad is the seed
        terms = []
        for user, k in uses:
            d = local[user][k] if local[user] is not None else None
            if d is None or grads[user] is None:
                break
            terms.append(d * grads[user])
        else:
            verdict = diagnose(terms, grads[j])
            if verdict:
                verdicts[str(j)] = verdict
    return {'local': local, 'why': why, 'verdicts': verdicts}


def _read(node, kids, position, data, y):
    """(operands in the op's order, None or why its arithmetic is not shown)."""
    op = getattr(node, '_op', '')
    if not op:
        return kids, {'kind': 'no-op', 'op': ''}
    if ops.local(op) is None:
        return kids, {'kind': 'unknown-op', 'op': op if isinstance(op, str) else type(op).__name__}
    if y is None or any(data[position[id(k)]] is None for k in kids):
        return kids, {'kind': 'not-numbers', 'op': op}
    forward = ops.forward(op)
    for reading in ops.readings(node, kids):
        xs = [data[position[id(k)]] for k in reading]
        if len(xs) == _arity(op, xs) and ops.close(ops.evaluate(forward, xs), y, 1e-7, 1e-9):
            return reading, None
    return kids, {'kind': 'not-reproduced', 'op': op}


def _arity(op, xs):
    """How many operands `op` takes (any for + and *): a reading with another count is not this op."""
    if op in ('+', '*'):
        return len(xs)
    if op in ('-',):
        return len(xs) if len(xs) in (1, 2) else 2
    if op in ('/', '**', 'max'):
        return 2
    return 1


def uses_of(args):
    """For each value, its uses [(user, operand position)], by user then position."""
    uses = [[] for _ in args]
    for user, operands in enumerate(args):
        for k, j in enumerate(operands or ()):
            uses[j].append((user, k))
    return uses


def _same(a, b):
    return math.isclose(a, b, rel_tol=1e-6, abs_tol=1e-9)


def diagnose(terms, held):
    """None when `held` is the sum of `terms`; else how it differs (see the module docstring)."""
    total = math.fsum(terms)
    if _same(total, held) or not all(math.isfinite(t) for t in terms) or not math.isfinite(held):
        return None
    n = len(terms)
    kept = _kept_subset(terms, held)
    if kept is not None:
        return {'kind': 'missing', 'uses': [k for k in range(n) if k not in kept]}
    if total != 0:
        times = held / total
        if round(times) >= 2 and _same(times, round(times)):
            return {'kind': 'repeated', 'uses': [], 'times': round(times)}
    if n == 1:
        return {'kind': 'wrong', 'uses': [0]}
    return {'kind': 'unexplained', 'uses': []}


def _kept_subset(terms, held):
    """The largest proper subset of the uses whose terms add up to `held` (ties: the earliest uses kept,
    as `=` keeps the last contribution written, the user nearest the inputs), or None."""
    n = len(terms)
    if n <= MAX_SUBSETS:
        best = None
        for mask in range((1 << n) - 1):  # every subset but all of them
            kept = [k for k in range(n) if mask >> k & 1]
            if _same(math.fsum(terms[k] for k in kept), held) and (best is None or _better(kept, best)):
                best = kept
        return best
    if _same(held, 0.0):
        return []
    for k in range(n):  # one contribution left: `=` everywhere
        if _same(terms[k], held):
            return [k]
    total = math.fsum(terms)
    for k in range(n - 1, -1, -1):  # one contribution lost
        if _same(total - terms[k], held):
            return [m for m in range(n) if m != k]
    return None


def _better(kept, best):
    return len(kept) > len(best) or (len(kept) == len(best) and kept < best)
