"""A learner's error as the page shows it: {"type", "message", "traceback", "line", "column"}, with the runtime's
own frames left out and, for a package this offline build lacks, what to use instead."""

import os
import traceback

from .names import EDITOR as FILENAME
from .words import N_, _

# The files whose frames stand between a learner's own or end at a learner's call (the namespace's draw_dot,
# plot and display hook, the drawing that calls a learner's __repr__, sys.stdout's write, the stand-ins): left
# out of a learner's traceback, as runner.py's were when it held them all. A frame of the runtime's other
# modules (a learner calling playground_runtime.example, say) shows.
TRIMMED = frozenset(
    os.path.join(os.path.dirname(__file__), name)
    for name in ('runner.py', 'events.py', 'namespaces.py', 'drawing.py', 'stand_ins.py')
)
AVAILABLE = N_(
    "the Python standard library, scalargrad (also importable as micrograd), graphviz and micropip "
    "are available; the playground installs nothing from the internet"
)
# What to use instead of a package that this offline build does not have.
INSTEAD = {
    'numpy': N_("use lists and the math module, or a Value for each number"),
    'matplotlib': N_(
        "plot(step=k, loss=loss.data) draws a live chart, and plot_boundary(model, X, y) a decision boundary"
    ),
    'torch': N_(
        "to cross-check gradients as the tutorials do with PyTorch, call gradcheck(root) "
        "(from scalargrad.gradcheck import gradcheck) or press the graph's Check gradients button"
    ),
    'sklearn': N_("make_moons(n_samples=100, noise=0.1) is built in, as in micrograd's demo"),
    'pandas': N_("use lists and dicts"),
}
# The names that notebooks give these packages: `np` undefined means `import numpy as np` failed earlier.
ALIASES = {
    'np': ('numpy', 'import numpy as np'),
    'plt': ('matplotlib', 'import matplotlib.pyplot as plt'),
    'torch': ('torch', 'import torch'),
    'pd': ('pandas', 'import pandas as pd'),
}


def _missing_module(error, message):
    package = (error.name or '').split('.')[0]
    if package in INSTEAD:
        return _(
            "{message}: this playground has no {package}, and it runs offline, so it cannot install it. "
            "Instead, {instead}. Also here: {available}."
        ).format(message=message, package=package, instead=_(INSTEAD[package]), available=_(AVAILABLE))
    return _("{message}. In this playground {available}.").format(message=message, available=_(AVAILABLE))


def syntax_error(e):
    return {
        'type': type(e).__name__,
        'message': _("{message} (line {line}, column {column})").format(message=e.msg, line=e.lineno, column=e.offset),
        'traceback': ''.join(traceback.format_exception_only(type(e), e)),
        'line': e.lineno,
        'column': e.offset,
    }


def release_traceback(error):
    """Unlink a traceback from its end: freeing a RecursionError's 100,000 levels one inside the other
    would overflow Pyodide's stack (a fatal error)."""
    seen = set()
    while error is not None and id(error) not in seen:
        seen.add(id(error))
        chain, tb = [], error.__traceback__
        while tb is not None:
            chain.append(tb)
            tb = tb.tb_next
        for tb in reversed(chain):
            tb.tb_next = None
        error = error.__context__


def runtime_error(e, filename=FILENAME):
    tb = e.__traceback__
    while tb is not None and tb.tb_frame.f_code.co_filename != filename:
        tb = tb.tb_next  # drop the playground's own frames above the learner's code
    # A RecursionError's 100,000 identical frames take a minute to read; the first 200 show the loop.
    report = traceback.TracebackException(type(e), e, tb, limit=200 if isinstance(e, RecursionError) else None)
    # and the runtime's frames between the learner's (its display hook calling their __repr__)
    report.stack = traceback.StackSummary.from_list([f for f in report.stack if f.filename not in TRIMMED])
    lines = [frame.lineno for frame in report.stack if frame.filename == filename]
    message = str(e)
    if isinstance(e, ModuleNotFoundError):
        message = _missing_module(e, message)
    elif type(e) is NameError and type(e.name) is str and e.name in ALIASES:
        package, statement = ALIASES[e.name]
        message = _(
            "{message}; it would come from `{statement}`, and this playground has no {package} "
            "(it runs offline, so it cannot install it). Instead, {instead}."
        ).format(message=message, statement=statement, package=package, instead=_(INSTEAD[package]))
    return {
        'type': type(e).__name__,
        'message': message,
        'traceback': ''.join(report.format()),
        'line': lines[-1] if lines else None,
        'column': None,
    }
