"""What the page's worker calls to run a learner's program: `run(source, emit, env=None, checks=None, test=None,
points=None)`.

With `env=None` every run gets a fresh namespace. A named env keeps its namespace across runs, like
a notebook's cells sharing one kernel, until `reset(env)`. With `checks` (Python source), the checks run
in the program's namespace after it ends without error, and the result carries their verdict. With `test`
(JSON: {"hidden": [line, ...]}), the source is an nbgrader test cell: it runs whole, hidden tests included,
and the result carries its verdict as nbgrader's autograde would give it (TestCell). With `points` (JSON:
[[x1, x2, label], ...]), scalargrad.datasets.points() returns them during the run.

Output leaves through `emit(json_text)` as flat events, in the order the program made them:
  {"type": "stdout" | "stderr" | "result" | "notice", "text": ...}
  {"type": "graph", "dot": ..., "nodes": n, "title": ...}      one per draw_dot(...) call
  {"type": "graph-teaching", "table": ..., ...}   right after the graph event of a graph that draw_dot draws
      value by value (not a graphviz Digraph, a displayed Dot or a network drawn by neuron only): its
      "table", and when they apply "explain", "steps", "check" and "groups" (playground_runtime.teaching
      says what each holds), sent after the drawing so that they never delay it. A network of more than
      OPEN_GROUPED values opens by neuron: its graph event has "groups" and "view": "neuron", `dot` is
      that view and groups.full the whole graph.
  {"type": "graph", "dot": ..., "nodes": n, "title": ..., "grouped_only": true, "groups": {...}, "view": "neuron"}
      a network of more than MAX_NODES values: `dot` is the view by neuron, `nodes` the true count
  {"type": "graph-too-large", "text": ..., "nodes": n | null, "limit": m}
      nodes is null past graph.TRACE_LIMIT values, where tracing stops counting
  {"type": "chart", "kind": "series" | "boundary", "chart": ..., ...}   from plot() and plot_boundary():
      playground_runtime.charts says what each holds
  {"type": "graph-update", "live": n, ...}   draw_dot(root, live=True) in a loop: playground_runtime.live says
      what it holds; such graphs also have "live" and "shape" (and, drawn at the end of the run, "final")
Numbers that JSON cannot hold (nan, inf) are sent as null.
run() returns a JSON object: {"status": "ok"} | {"status": "interrupted"} |
  {"status": "error", "error": {"type", "message", "traceback", "line", "column"}};
  with checks, an "ok" result also has "check": {"status": "passed" | "failed", "message": ...};
  with test, an "ok" or "error" result has it too.
"""

import ast
import builtins
import contextlib
import inspect
import json
import linecache
import math
import random
import signal
import sys
import traceback
import types

from scalargrad import datasets, engine, nn
from scalargrad.datasets import make_moons, points
from scalargrad.graph import MAX_NODES, TRACE_LIMIT, Dot, GraphTooLarge, dot_source, is_node, trace

from . import isolation, teaching
from .charts import Charts
from .checks import explain, frames, run_checks
from .live import LiveGraphs
from .names import EDITOR as FILENAME
from .names import (
    TEST as TEST_FILENAME,  # an nbgrader test cell: explain() quotes its lines, and calls EDITOR's the learner's
)

OPEN_GROUPED = 300  # values: a network bigger than this opens grouped by neuron, the full graph a click away
DISPLAY = '__playground_display__'
NOTEBOOK_PREFIXES = ('%', '!')
AVAILABLE = (
    "the Python standard library, scalargrad (also importable as micrograd), graphviz and micropip "
    "are available; the playground installs nothing from the internet"
)
# What to use instead of a package that this offline build does not have.
INSTEAD = {
    'numpy': "use lists and the math module, or a Value for each number",
    'matplotlib': "plot(step=k, loss=loss.data) draws a live chart, and plot_boundary(model, X, y) a decision boundary",
    'torch': (
        "to cross-check gradients as the tutorials do with PyTorch, call gradcheck(root) "
        "(from scalargrad.gradcheck import gradcheck) or press the graph's Check gradients button"
    ),
    'sklearn': "make_moons(n_samples=100, noise=0.1) is built in, as in micrograd's demo",
    'pandas': "use lists and dicts",
}
# The names that notebooks give these packages: `np` undefined means `import numpy as np` failed earlier.
ALIASES = {
    'np': ('numpy', 'import numpy as np'),
    'plt': ('matplotlib', 'import matplotlib.pyplot as plt'),
    'torch': ('torch', 'import torch'),
    'pd': ('pandas', 'import pandas as pd'),
}


class Output:
    """Sends printed text line by line (so it shows while a loop runs), every other event at once."""

    MAX_TEXT = 1_000_000  # characters per run; more would only freeze the page

    def __init__(self, emit):
        self._emit = emit
        self._stream = None
        self._parts = []
        self._sent = 0
        self.wrote_stderr = False  # nbgrader fails a test cell that writes there

    def text(self, stream, text):
        self.wrote_stderr = self.wrote_stderr or (stream == 'stderr' and text != '')
        if self._sent > self.MAX_TEXT:
            return
        if stream != self._stream:
            self.flush()
            self._stream = stream
        self._parts.append(text)
        if '\n' in text:
            self.flush()

    def flush(self):
        if self._parts:
            text = ''.join(self._parts)
            self._parts = []
            self._sent += len(text)
            self._emit(json.dumps({'type': self._stream, 'text': text}))
            if self._sent > self.MAX_TEXT:
                self._emit(
                    json.dumps(
                        {
                            'type': 'notice',
                            'text': f"Output stopped after {self.MAX_TEXT:,} characters; "
                            "the program goes on without showing more.",
                        }
                    )
                )

    def event(self, **event):
        self.flush()
        try:
            text = json.dumps(event, allow_nan=False)
        except ValueError:  # a nan or inf got through: JSON has no such numbers
            text = json.dumps(_finite(event))
        self._emit(text)


def _finite(x):
    if isinstance(x, float):
        return x if math.isfinite(x) else None
    if isinstance(x, dict):
        return {k: _finite(v) for k, v in x.items()}
    if isinstance(x, (list, tuple)):
        return [_finite(v) for v in x]
    return x


class Stream:
    def __init__(self, output, name):
        self._output = output
        self._name = name

    def write(self, text):
        self._output.text(self._name, str(text))
        return len(text)

    def flush(self):
        pass

    def isatty(self):
        return False


class Env:
    """A namespace that outlives one run. Its draw_dot and display hook go to the run in progress."""

    def __init__(self):
        self.runner = None
        self.namespace = {
            '__name__': '__main__',
            '__builtins__': builtins,
            DISPLAY: self.display,
            'Value': engine.Value,
            'draw_dot': self.draw_dot,
            'trace': trace,
            'Module': nn.Module,
            'Neuron': nn.Neuron,
            'Layer': nn.Layer,
            'MLP': nn.MLP,
            'make_moons': make_moons,
            'points': points,
            'math': math,
            'random': random,
            'input': _no_input,
            'plot': self.plot,
            'plot_boundary': self.plot_boundary,
            'display': display,
        }

    def draw_dot(self, root, rankdir='LR', format='svg', live=False):
        """draw_dot as the tutorials use it, and the graph appears in the output at once. With live=True,
        inside a training loop, the graph drawn from this line updates in place as the values change."""
        if live:
            return self.runner.draw_live(root, rankdir, sys._getframe(1))
        return self.runner.draw_dot(root, rankdir, format)

    def plot(self, step=None, **series):
        """Add a point to the live training chart: plot(step=k, loss=total_loss, accuracy=acc)."""
        self.runner.charts.plot(step, **series)

    def plot_boundary(self, model, X, y):
        """Draw the decision boundary of a 2-D classifier over the points X with labels y, live."""
        self.runner.charts.plot_boundary(model, X, y)

    def display(self, value, is_last):
        self.runner.display(value, is_last)


ENVS = {}


def reset(env):
    """Forget a named env's namespace: its next run starts afresh."""
    ENVS.pop(env, None)


def watch(report):
    """In the page's worker: caps the recursion limit and starts noticing runs that reach outside their
    namespace (playground_runtime.isolation). Returns changes(): after a run, why the next needs a fresh Python."""
    sys.setrecursionlimit = _capped_recursion_limit
    install_notebook_modules()
    return isolation.install(report)


def restored():
    """Called once Python is restored from the build's memory snapshot, which holds random's state:
    without a new seed, every visit would draw the same numbers (MLP weights included)."""
    random.seed()


class Runner:
    def __init__(self, output, namespace=None):
        self.output = output
        self.namespace = {} if namespace is None else namespace
        self.charts = Charts(output.event, value_class=self._value_class)
        self.live = LiveGraphs(self._draw, output.event)
        self._shown = {}  # id -> object, kept alive so that ids stay unique during the run

    def _value_class(self):
        value = self.namespace.get('Value')
        return value if isinstance(value, type) else engine.Value

    def draw_dot(self, root, rankdir='LR', format='svg'):
        dot = self._draw(root, rankdir)
        if dot is not None:
            self._shown[id(dot)] = dot
        return dot

    def draw_live(self, root, rankdir, caller):
        """draw_dot(root, live=True), called from the frame `caller`: see playground_runtime.live."""
        self.live.draw(root, rankdir, (caller.f_code.co_filename, caller.f_lineno))

    def _draw(self, root, rankdir='LR', light=False, traced=None, **fields):
        """Sends a graph event and returns its Dot; None if it was too large. A live graph's drawing (`fields`)
        carries its teaching fields, and `light` leaves out those that cost most (steps, check); any other
        drawing goes first and its teaching fields follow in a graph-teaching event, so that they never
        delay it. `traced`: (nodes, edges) if already traced."""
        try:
            nodes, edges = traced or trace(root, limit=TRACE_LIMIT)
        except GraphTooLarge:
            return self._too_large(GraphTooLarge(None, MAX_NODES))
        title = str(getattr(root, 'label', '') or '')
        if len(nodes) > MAX_NODES:
            views = teaching.grouped_only(nodes, edges, rankdir)
            if views is None:
                return self._too_large(GraphTooLarge(len(nodes), MAX_NODES))
            dot = Dot(views['neuron']['dot'], len(nodes), title)
            self.show_graph(dot.source, dot.node_count, title, grouped_only=True, groups=views, view='neuron', **fields)
            return dot
        dot = Dot(dot_source(nodes, edges, rankdir), len(nodes), title)
        teach = lambda wanted: teaching.extras(root, nodes, edges, rankdir, self._code_names(nodes), wanted)
        if fields or light:
            self._show_opened(dot, teach(teaching.LIGHT if light else teaching.FIELDS), **fields)
            return dot
        # A network that opens by neuron needs its groups to be drawn; every other field can follow.
        opens_grouped = len(nodes) > OPEN_GROUPED
        self._show_opened(dot, teach(('groups',)) if opens_grouped else {})
        rest = [field for field in teaching.FIELDS if not (opens_grouped and field == 'groups')]
        self.output.event(type='graph-teaching', **teach(rest))
        return dot

    def _show_opened(self, dot, extras, **fields):
        """Sends the graph event of `dot` with `extras`: a network of more than OPEN_GROUPED values opens by
        neuron, with the whole graph in groups.full."""
        shown = dot.source
        if 'groups' in extras and dot.node_count > OPEN_GROUPED:
            extras['groups']['full'] = {'dot': dot.source, 'nodes': dot.node_count}
            shown, extras['view'] = extras['groups']['neuron']['dot'], 'neuron'
        self.show_graph(shown, dot.node_count, dot.title, **extras, **fields)

    def _too_large(self, error):
        self.show_too_large(str(error), error.count, error.limit)
        return None

    def _code_names(self, nodes):
        """{id(value): names of the program's variables that hold it}, for the backward narration."""
        ids = {id(n) for n in nodes}
        names = {}
        for name, value in list(self.namespace.items()):
            if id(value) in ids and not name.startswith('__'):
                names.setdefault(id(value), []).append(name)
        return names

    def show_graph(self, source, nodes, title, **extra):
        self.output.event(type='graph', dot=source, nodes=nodes, title=title, **extra)

    def show_too_large(self, text, nodes, limit):
        self.output.event(type='graph-too-large', text=text, nodes=nodes, limit=limit)

    def display(self, value, is_last, explicit=False):
        """A top-level expression statement: graphs always show, other values only when last (or when
        `explicit`, from display(): None too)."""
        if id(value) in self._shown:
            return
        if isinstance(value, Dot):
            self.show_graph(value.source, value.node_count, value.title)
        elif _is_graphviz(value):
            self._show_graphviz(value)
        elif not is_last or (value is None and not explicit):
            return
        elif is_node(value):
            self.draw_dot(value)
        else:
            self.output.event(type='result', text=repr(value))

    def _show_graphviz(self, graph):
        count = sum(1 for line in graph.body if '[' in line and '->' not in line and ' -- ' not in line)
        limit = 2 * MAX_NODES  # a value is a record node plus an op node
        if count > limit:
            self.show_too_large(
                f"this graph has {count:,} nodes, more than the {limit:,} that can be drawn", count, limit
            )
        else:
            self.show_graph(graph.source, count, getattr(graph, 'name', None) or '')


def _is_graphviz(value):
    return type(value).__module__.split('.')[0] == 'graphviz' and isinstance(getattr(value, 'source', None), str)


def _no_input(prompt=''):
    raise RuntimeError("input() is not available in the playground: write the value into the code instead")


# The run in progress, for IPython.display.display (an object's attribute: a module global that changed
# with every run would look, to playground_runtime.isolation, like a run changing this module).
_active = types.SimpleNamespace(runner=None)


def display(*values):
    """Jupyter's display(): each value shows in place, a Value or a graph as a graph."""
    runner = _active.runner
    if runner is None:
        raise RuntimeError("display() shows values only while a program runs")
    for value in values:
        runner.display(value, is_last=True, explicit=True)


def install_notebook_modules():
    """`from micrograd.engine import Value` gets scalargrad's, `from IPython.display import display` ours."""
    install_micrograd_alias()
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


def skip_notebook_commands(source):
    """Blank out lines like `%matplotlib inline` or `!pip install`; return the new source and what went."""
    lines, skipped = source.split('\n'), []
    for i, line in enumerate(lines):
        stripped = line.lstrip()
        if stripped.startswith(NOTEBOOK_PREFIXES):
            skipped.append((i + 1, stripped))
            lines[i] = line[: len(line) - len(stripped)] + 'pass'
    return '\n'.join(lines), skipped


def parse(source, filename=FILENAME):
    """The program's AST with every top-level expression statement passed to the display hook."""
    try:
        tree = ast.parse(source, filename)
        skipped = []
    except SyntaxError:
        # A line starting with % or ! is only a notebook command if the program does not parse with it.
        patched, skipped = skip_notebook_commands(source)
        if not skipped:
            raise
        tree = ast.parse(patched, filename)  # an error now is the program's own, past the magics
    body = tree.body
    for i, stmt in enumerate(body):
        if isinstance(stmt, ast.Expr):
            # Each new node is given its place here: ast.fix_missing_locations walks the whole tree, which took
            # a third of a small program's run in CPython.
            where = stmt.value
            hook, last = ast.Name(DISPLAY, ast.Load()), ast.Constant(i == len(body) - 1)
            call = ast.Call(ast.copy_location(hook, where), [where, ast.copy_location(last, where)], [])
            body[i] = ast.copy_location(ast.Expr(ast.copy_location(call, where)), stmt)
    return tree, skipped


RECURSION_LIMIT = sys.getrecursionlimit()
# Deeper than this, Pyodide takes tens of seconds to raise RecursionError and then crashes freeing it.
MAX_RECURSION_LIMIT = 100_000


_set_recursion_limit = sys.setrecursionlimit


def _capped_recursion_limit(limit):
    if isinstance(limit, int) and limit > MAX_RECURSION_LIMIT:
        print(
            f"The playground allows at most {MAX_RECURSION_LIMIT:,} nested calls: the recursion limit is "
            f"{MAX_RECURSION_LIMIT:,}, not {limit:,}.",
            file=sys.stderr,
        )
        limit = MAX_RECURSION_LIMIT
    _set_recursion_limit(limit)


# It stands in for sys.setrecursionlimit, under that name: playground_runtime.isolation then sees it as published
# there, and reports a change to it (its __code__ or __defaults__).
_capped_recursion_limit.__module__, _capped_recursion_limit.__name__ = 'sys', 'setrecursionlimit'
_capped_recursion_limit.__qualname__ = 'setrecursionlimit'


class TestCell:
    """An nbgrader test cell, scored as `nbgrader autograde` scores it (its `determine_grade`): full points
    unless the cell raises or writes to stderr. Its hidden tests run with it, but no message, traceback or
    line number shows their code."""

    def __init__(self, source, hidden):
        self.hidden = set(hidden)
        self.shown = '\n'.join('' if i in self.hidden else line for i, line in enumerate(source.split('\n'), 1))

    def visible_line(self, line):
        """A line of the whole source as a line of what the page shows (None inside hidden tests)."""
        if line is None or line in self.hidden:
            return None
        return line - sum(1 for hidden in self.hidden if hidden < line)

    def verdict(self, error=None, wrote_stderr=False):
        if error is None and wrote_stderr:
            return {
                'status': 'failed',
                'message': "This cell wrote to stderr (see below). nbgrader scores a test "
                "cell that does as failed, even when its asserts pass.",
            }
        if error is None:
            return {'status': 'passed', 'message': "This cell's tests passed."}
        lines = [line for name, line in frames(error.__traceback__) if name == TEST_FILENAME]
        if lines and lines[-1] in self.hidden:
            raised = '' if isinstance(error, AssertionError) else f" ({type(error).__name__}: {error})"
            return {'status': 'failed', 'message': f"A hidden test of this cell failed{raised}. Its code is not shown."}
        stub = (
            " The answer still has nbgrader's `raise NotImplementedError()`: write your code in its place."
            if isinstance(error, NotImplementedError)
            else ''
        )
        return {'status': 'failed', 'message': explain(error, self.shown, TEST_FILENAME) + stub}

    def redact(self, error):
        """The page's error report of this cell, with hidden tests' lines left out."""
        if error.get('line') in self.hidden:
            error.update(message='a hidden test of this cell failed', traceback='')
        error['line'] = self.visible_line(error.get('line'))


MAX_POINTS = 10_000  # a learner's own points, per run


def given_points(text):
    """The run request's points (JSON: [[x1, x2, label], ...], label 0 or 1) as a list of tuples; None when
    there are none; ValueError when they are not that."""
    if text is None:
        return None
    found = json.loads(text)
    if not isinstance(found, list) or len(found) > MAX_POINTS:
        raise ValueError("not a list of at most 10,000 points")
    checked = []
    for point in found:
        if not (
            isinstance(point, list)
            and len(point) == 3
            and point[2] in (0, 1)
            and type(point[2]) is int
            and all(type(v) in (int, float) and math.isfinite(v) for v in point[:2])
        ):
            raise ValueError(f"{point!r} is not [x1, x2, label] with label 0 or 1")
        checked.append((float(point[0]), float(point[1]), point[2]))
    return checked or None


def run(source, emit, env=None, checks=None, test=None, points=None):
    """The JSON result; for a program with top-level `await`, a coroutine that returns it. `points` (JSON
    text) are the learner's own, which scalargrad.datasets.points() returns during this run."""
    try:
        return _begin(source, emit, env, checks, test, points)
    except KeyboardInterrupt:  # Stop, pressed as the run began (or as it ended)
        return json.dumps({'status': 'interrupted'})


def _begin(source, emit, env, checks, test, points):
    install_notebook_modules()
    sys.setrecursionlimit(RECURSION_LIMIT)  # what an earlier run set is not this run's
    if env is None:
        random.seed()  # nor is its random.seed()
    output = Output(emit)
    test = None if test is None else TestCell(source, json.loads(test).get('hidden', []))
    filename = FILENAME if test is None else TEST_FILENAME
    shown = source if test is None else test.shown
    linecache.cache[filename] = (len(shown), None, shown.splitlines(True), filename)
    try:
        tree, skipped = parse(source, filename)
        code = compile(tree, filename, 'exec', flags=ast.PyCF_ALLOW_TOP_LEVEL_AWAIT)
    except SyntaxError as e:
        error = _syntax_error(e)
        result = {'status': 'error', 'error': error}
        if test is not None:
            result['check'] = {'status': 'failed', 'message': f"This cell is not valid Python: {error['message']}."}
            test.redact(error)
        return json.dumps(result)
    for line, text in skipped:
        output.event(type='notice', text=f"Line {line}: skipped {text!r}, a notebook command, not Python.")
    try:
        datasets.given.points = given_points(points)
    except ValueError as e:
        datasets.given.points = None
        output.event(
            type='notice', text=f"The points sent with this run were left out ({e}): points() gives the moons."
        )

    space = Env() if env is None else ENVS.setdefault(env, Env())
    space.runner = Runner(output, space.namespace)
    job = _execute(code, space, checks, test)
    if code.co_flags & inspect.CO_COROUTINE:
        return job
    try:
        job.send(None)  # without `await` it never suspends
    except StopIteration as finished:
        return finished.value
    raise RuntimeError("a program without await suspended")


async def _execute(code, space, checks, test):
    """Runs the compiled program in its namespace, one code path with or without top-level await."""
    runner, output = space.runner, space.runner.output
    saved = sys.stdout, sys.stderr
    sys.stdout, sys.stderr = Stream(output, 'stdout'), Stream(output, 'stderr')
    _active.runner = runner
    try:
        outcome = eval(code, space.namespace)
        if inspect.iscoroutine(outcome):
            await outcome
        result = {'status': 'ok'}
        if checks is not None:
            result['check'] = run_checks(checks, space.namespace, runner.show_graph)
        if test is not None:
            output.flush()
            result['check'] = test.verdict(wrote_stderr=output.wrote_stderr)
    except KeyboardInterrupt:
        result = {'status': 'interrupted'}
    except BaseException as e:  # SystemExit too: the page keeps running whatever the program does
        result = {'status': 'error', 'error': _runtime_error(e, code.co_filename)}
        if test is not None:
            result['check'] = test.verdict(e)
            test.redact(result['error'])
        _release_traceback(e)
        if isinstance(e, MemoryError):
            # What the program held may stay in reference cycles: a fresh Python gives all of it back.
            result['fresh'] = 'ran out of memory'
    finally:
        # Stop keeps the charts and graphs so far: drawing them (a boundary through a slow model may take
        # seconds) is not interrupted by the page's Stop, which it repeats while the run goes on.
        with _stop_ignored():
            for finish in (runner.charts.flush, runner.live.finish):
                try:
                    finish()
                except Exception:  # a model that fails now: the run is over anyway
                    pass
            sys.stdout, sys.stderr = saved
            _active.runner = None
            datasets.given.points = datasets.given.returned = None  # the next run's are its own
            output.flush()
    return json.dumps(result)


@contextlib.contextmanager
def _stop_ignored():
    try:
        previous = signal.signal(signal.SIGINT, signal.SIG_IGN)
    except ValueError:  # not Python's main thread, which no signal reaches anyway
        yield
        return
    try:
        yield
    finally:
        signal.signal(signal.SIGINT, signal.default_int_handler if previous is None else previous)


def _missing_module(error, message):
    package = (error.name or '').split('.')[0]
    if package in INSTEAD:
        return (
            f"{message}: this playground has no {package}, and it runs offline, so it cannot install it. "
            f"Instead, {INSTEAD[package]}. Also here: {AVAILABLE}."
        )
    return f"{message}. In this playground {AVAILABLE}."


def _syntax_error(e):
    return {
        'type': type(e).__name__,
        'message': f"{e.msg} (line {e.lineno}, column {e.offset})",
        'traceback': ''.join(traceback.format_exception_only(type(e), e)),
        'line': e.lineno,
        'column': e.offset,
    }


def _release_traceback(error):
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


def _runtime_error(e, filename=FILENAME):
    tb = e.__traceback__
    while tb is not None and tb.tb_frame.f_code.co_filename != filename:
        tb = tb.tb_next  # drop the playground's own frames above the learner's code
    # A RecursionError's 100,000 identical frames take a minute to read; the first 200 show the loop.
    report = traceback.TracebackException(type(e), e, tb, limit=200 if isinstance(e, RecursionError) else None)
    # and the playground's frames between the learner's (its display hook calling their __repr__)
    report.stack = traceback.StackSummary.from_list([f for f in report.stack if f.filename != __file__])
    lines = [frame.lineno for frame in report.stack if frame.filename == filename]
    message = str(e)
    if isinstance(e, ModuleNotFoundError):
        message = _missing_module(e, message)
    elif type(e) is NameError and type(e.name) is str and e.name in ALIASES:
        package, statement = ALIASES[e.name]
        message = (
            f"{message}; it would come from `{statement}`, and this playground has no {package} "
            f"(it runs offline, so it cannot install it). Instead, {INSTEAD[package]}."
        )
    return {
        'type': type(e).__name__,
        'message': message,
        'traceback': ''.join(report.format()),
        'line': lines[-1] if lines else None,
        'column': None,
    }
