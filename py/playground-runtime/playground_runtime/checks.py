"""Checks for exercises: `run_checks(source, namespace, show_graph)` and the helpers a check uses.

A check is Python that runs after the learner's program, with the program's names (its `Value` is the
learner's class) and these helpers, which do not stay behind in the learner's namespace:

    expect(condition, message)                          fail with message unless condition
    expect_close(actual, expected, message, tol=1e-6)   fail unless two numbers agree
    expect_grad(node, expected, message='', root=None)  "a.grad is 1.0, expected 2.0: message"
    expect_grads(root, message='')                      every grad of root's graph, by finite differences
    checking(what)                                      names what an unexpected error interrupted
    _(text)                                             text in the page's language, where the site's
                                                        catalogue has it (the course's checks: course.html)

The first failure ends the checks. Its message is all the learner sees, so it talks about their code,
in plain words. A wrong grad also draws the learner's graph with the wrong grads marked. An error that
is not a failed check (their `__mul__` returned None, so `.data` raised) becomes a failed result too,
saying what was being checked and what went wrong, never a traceback.
"""

import math
from contextlib import contextmanager

from scalargrad.gradcheck import gradcheck
from scalargrad.graph import GraphTooLarge, draw_dot, is_node, trace

from .explain import explanation
from .names import CHECKS as FILENAME
from .names import EDITOR  # frames of the learner's own code
from .numbers import shown
from .teaching import grad_name, table
from .words import N_, _, ngettext

PASSED = N_("All checks passed.")

_show_graph = None  # the run in progress's, while run_checks runs


class CheckFailed(Exception):
    """What the expect_* helpers raise: its message is what the learner reads."""


def expect(condition, message):
    """Fail with `message` unless `condition` is true."""
    if not condition:
        raise CheckFailed(message)


def expect_close(actual, expected, message, tol=1e-6):
    """Fail unless `actual` is a number within `tol` (absolute or relative) of `expected`.

    In `message`, `{actual}` and `{expected}` are replaced by the two values, for example
    expect_close(out.data, 6.0, "`Value(2.0) * Value(3.0)` has data {actual}; 2.0 × 3.0 is {expected}").
    """
    if not _close(actual, expected, tol):
        raise CheckFailed(message.replace('{actual}', shown(actual)).replace('{expected}', shown(expected)))


def expect_grad(node, expected, message='', root=None):
    """Fail with "<label>.grad is 1.0, expected 2.0: <message>" unless node.grad is close to `expected`.

    With `root`, the failure also draws root's graph with this node marked (give nodes a `.label`).
    """
    actual = getattr(node, 'grad', None)
    if _close(actual, expected, 1e-6):
        return
    if root is not None:
        _draw(root, [(node, expected)])
    raise CheckFailed(_grad_text(node, actual, expected, message))


def expect_grads(root, message=''):
    """Fail unless every grad in root's graph matches d root / d node by finite differences.

    Uses scalargrad.gradcheck, which replays the graph from each node's `_op` (+, *, **, tanh, exp...)
    and works on the learner's own class. On failure it draws the graph with every wrong grad marked
    and names the wrong one nearest the output, where the mistake shows first.
    """
    nodes, _edges = trace(root)
    results = gradcheck(root, nodes=nodes)
    if any(r.ok is None for r in results):
        raise CheckFailed(
            _(
                "the grads of this graph could not be checked: recomputing it from each node's "
                "`_op` and `_prev` does not give the same data. Does every result record both "
                "operands and its operation?"
            )
        )
    wrong = [r for r in results if not r.ok]
    if not wrong:
        return
    _draw(root, [(r.node, r.numeric) for r in wrong])
    first = wrong[-1]  # results follow the topological order: the last is nearest the output
    others = len(wrong) - 1
    more = (
        ngettext(
            " ({count} more wrong grad marked in the graph)", " ({count} more wrong grads marked in the graph)", others
        ).format(count=others)
        if others
        else ''
    )
    raise CheckFailed(_grad_text(first.node, first.analytic, first.numeric, message, more))


@contextmanager
def checking(what):
    """`with checking("Value(2.0) * Value(3.0)"):` an error inside says "Checking `...`: it raised ..."."""
    try:
        yield
    except Exception as error:
        if not isinstance(error, CheckFailed) and not hasattr(error, '_checking'):
            try:
                error._checking = what
            except AttributeError:
                pass
        raise


HELPERS = {f.__name__: f for f in (CheckFailed, expect, expect_close, expect_grad, expect_grads, checking)} | {'_': _}


def run_checks(source, namespace, show_graph):
    """Run the check source in (a copy of) the learner's namespace; {"status": "passed" | "failed", "message"}."""
    global _show_graph
    try:
        code = compile(source, FILENAME, 'exec')
    except SyntaxError as e:
        return _failed(
            _(
                "This exercise's checks could not run (their line {line}: {error}). "
                "This is a mistake in the exercise, not in your code."
            ).format(line=e.lineno, error=e.msg)
        )
    scope = {**namespace, **HELPERS}
    _show_graph = show_graph
    try:
        exec(code, scope)
    except CheckFailed as e:
        return _failed(str(e))
    except Exception as e:  # not BaseException: KeyboardInterrupt is Stop, and must reach the playground
        return _failed(explain(e, source))
    finally:
        _show_graph = None
    return {'status': 'passed', 'message': _(PASSED)}


def _failed(message):
    return {'status': 'failed', 'message': message}


def explain(error, source, filename=FILENAME):
    """An unexpected error, in words: what was being checked, what was raised, where in their code.

    `source` is the checking code, compiled as `filename` (an nbgrader test cell is '<test>')."""
    stack = frames(error.__traceback__)
    if isinstance(error, AssertionError) and stack and stack[-1][0] == filename:
        return str(error) or _("A check failed: `{line}`.").format(line=_line(source, stack[-1][1]))  # its own assert
    what = getattr(error, '_checking', None)
    if what is None:
        lines = [line for name, line in stack if name == filename]
        what = _line(source, lines[-1]) if lines else None
    mine = [line for name, line in stack if name == EDITOR]
    where = _(" (line {line} of your code)").format(line=mine[-1]) if mine else ''
    if isinstance(error, AssertionError):
        raised = _("an `assert` in your code failed") + (f": {error}" if str(error) else '')
    else:
        raised = _("it raised {error}").format(error=type(error).__name__) + (f": {error}" if str(error) else '')
    return (_("Checking `{what}`: ").format(what=what) if what else '') + raised + where


def frames(tb):
    """(filename, line) of each frame of a traceback, outermost first."""
    stack = []
    while tb is not None:
        stack.append((tb.tb_frame.f_code.co_filename, tb.tb_lineno))
        tb = tb.tb_next
    return stack


def _line(source, number):
    lines = source.splitlines()
    return lines[number - 1].strip() if 0 < number <= len(lines) else ''


def _draw(root, marks):
    if _show_graph is None or not is_node(root):
        return
    try:
        dot = draw_dot(root, marks=marks)
    except GraphTooLarge:
        return
    label = getattr(root, 'label', '') or ''
    title = _("{label} (wrong grads marked)").format(label=label) if label else _("your values (wrong grads marked)")
    _show_graph(dot.source, dot.node_count, title, **_arithmetic(root))


def _arithmetic(root):
    """The table and the explanation of the marked graph, so that a wrong grad can be clicked for its sum."""
    try:
        nodes, edges = trace(root)
        return {'table': table(nodes, [f"v{i}" for i in range(len(nodes))]), 'explain': explanation(nodes, edges)}
    except Exception:  # a learner's class can be odd in many ways; the marked graph is still drawn
        return {}


def _grad_text(node, actual, expected, message, more=''):
    text = _("{grad} is {actual}, expected {expected}{more}").format(
        grad=grad_name(node), actual=shown(actual), expected=shown(expected), more=more
    )
    return f"{text}: {message}" if message else text


def _close(actual, expected, tol):
    if isinstance(actual, bool) or not isinstance(actual, (int, float)):
        return False
    return math.isclose(actual, expected, rel_tol=tol, abs_tol=tol)
