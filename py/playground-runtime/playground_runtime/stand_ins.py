"""What the runtime puts in place of what a learner's program or notebook expects: IPython.display's display(),
micrograd's modules (scalargrad's), scalargrad.points() (the learner's own points) and a sys.setrecursionlimit
that refuses depths Pyodide cannot survive."""

import sys
import types

from scalargrad import engine, nn

from . import learner_points
from .words import _

# The run in progress, for IPython.display.display (an object's attribute: a module global that changed
# with every run would look, to playground_runtime.isolation, like a run changing this module).
active = types.SimpleNamespace(drawing=None)


def display(*values):
    """Jupyter's display(): each value shows in place, a Value or a graph as a graph."""
    drawing = active.drawing
    if drawing is None:
        raise RuntimeError(_("display() shows values only while a program runs"))
    for value in values:
        drawing.display(value, is_last=True, explicit=True)


def install():
    """`from micrograd.engine import Value` gets scalargrad's, `from IPython.display import display` ours, and
    scalargrad.points() the learner's points."""
    install_micrograd_alias()
    learner_points.install()
    if 'IPython' not in sys.modules:
        package = types.ModuleType('IPython', "the playground's stand-in for IPython: display() only")
        module = types.ModuleType('IPython.display', "the playground's stand-in for IPython.display")
        package.__path__ = []
        package.display, module.display = module, display
        sys.modules.update({'IPython': package, 'IPython.display': module})


def install_micrograd_alias():
    """`from micrograd.engine import Value` and `from micrograd.nn import MLP` get scalargrad's."""
    if 'micrograd' not in sys.modules:
        package = types.ModuleType('micrograd', 'scalargrad, standing in for micrograd')
        package.__path__ = []
        package.engine, package.nn = engine, nn
        sys.modules.update({'micrograd': package, 'micrograd.engine': engine, 'micrograd.nn': nn})


RECURSION_LIMIT = sys.getrecursionlimit()
# Deeper than this, Pyodide takes tens of seconds to raise RecursionError and then crashes freeing it.
MAX_RECURSION_LIMIT = 100_000


_set_recursion_limit = sys.setrecursionlimit


def cap_recursion(limit):
    if isinstance(limit, int) and limit > MAX_RECURSION_LIMIT:
        print(
            _("The playground allows at most {most} nested calls: the recursion limit is {most}, not {limit}.").format(
                most=f"{MAX_RECURSION_LIMIT:,}", limit=f"{limit:,}"
            ),
            file=sys.stderr,
        )
        limit = MAX_RECURSION_LIMIT
    _set_recursion_limit(limit)


# It stands in for sys.setrecursionlimit, under that name: playground_runtime.isolation then sees it as published
# there, and reports a change to it (its __code__ or __defaults__).
cap_recursion.__module__, cap_recursion.__name__ = 'sys', 'setrecursionlimit'
cap_recursion.__qualname__ = 'setrecursionlimit'
