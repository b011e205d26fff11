"""What the page's worker calls to run a learner's program: `run(source, emit, env=None, checks=None, test=None,
points=None)`.

With `env=None` every run gets a fresh namespace. A named env keeps its namespace across runs, like
a notebook's cells sharing one kernel, until `reset(env)`. With `checks` (Python source), the checks run
in the program's namespace after it ends without error, and the result carries their verdict. With `test`
(JSON: {"hidden": [line, ...]}), the source is an nbgrader test cell: it runs whole, hidden tests included,
and the result carries its verdict as nbgrader's autograde would give it (TestCell). With `points` (JSON:
[[x1, x2, label], ...]), points() returns them during the run (playground_runtime.learner_points).

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
import contextlib
import inspect
import json
import linecache
import random
import signal
import sys

from . import isolation, learner_points
from .checks import run_checks
from .drawing import Drawing
from .errors import release_traceback, runtime_error, syntax_error
from .events import Output, Stream
from .names import EDITOR as FILENAME
from .names import TEST as TEST_FILENAME
from .namespaces import ENVS, Env, reset
from .nbgrader_cells import TestCell
from .program import parse
from .stand_ins import RECURSION_LIMIT, active, cap_recursion, install
from .words import _

__all__ = ['run', 'reset', 'watch', 'restored']


def watch(report):
    """In the page's worker: caps the recursion limit and starts noticing runs that reach outside their
    namespace (playground_runtime.isolation). Returns changes(): after a run, why the next needs a fresh Python."""
    sys.setrecursionlimit = cap_recursion
    install()
    return isolation.install(report)


def restored():
    """Called once Python is restored from the build's memory snapshot, which holds random's state:
    without a new seed, every visit would draw the same numbers (MLP weights included)."""
    random.seed()


def run(source, emit, env=None, checks=None, test=None, points=None):
    """The JSON result; for a program with top-level `await`, a coroutine that returns it. `points` (JSON
    text) are the learner's own, which points() returns during this run
    (playground_runtime.learner_points)."""
    try:
        return _begin(source, emit, env, checks, test, points)
    except KeyboardInterrupt:  # Stop, pressed as the run began (or as it ended)
        return json.dumps({'status': 'interrupted'})


def _begin(source, emit, env, checks, test, points):
    install()
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
        error = syntax_error(e)
        result = {'status': 'error', 'error': error}
        if test is not None:
            result['check'] = {
                'status': 'failed',
                'message': _("This cell is not valid Python: {error}.").format(error=error['message']),
            }
            test.redact(error)
        return json.dumps(result)
    for line, text in skipped:
        output.event(
            type='notice',
            text=_("Line {line}: skipped {command}, a notebook command, not Python.").format(
                line=line, command=repr(text)
            ),
        )
    space = Env() if env is None else ENVS.setdefault(env, Env())
    space.drawing = Drawing(output, space.namespace)
    job = _execute(code, space, checks, test, points)
    if code.co_flags & inspect.CO_COROUTINE:
        return job
    try:
        job.send(None)  # without `await` it never suspends
    except StopIteration as finished:
        return finished.value
    raise RuntimeError("a program without await suspended")


async def _execute(code, space, checks, test, points):
    """Runs the compiled program in its namespace, one code path with or without top-level await."""
    drawing, output = space.drawing, space.drawing.output
    saved = sys.stdout, sys.stderr
    try:
        try:
            learner_points.take(points)
        except ValueError as e:
            output.event(
                type='notice',
                text=_("The points sent with this run were left out ({reason}): points() gives the moons.").format(
                    reason=e
                ),
            )
        sys.stdout, sys.stderr = Stream(output, 'stdout'), Stream(output, 'stderr')
        active.drawing = drawing
        outcome = eval(code, space.namespace)
        if inspect.iscoroutine(outcome):
            await outcome
        result = {'status': 'ok'}
        if checks is not None:
            result['check'] = run_checks(checks, space.namespace, drawing.show_graph)
        if test is not None:
            output.flush()
            result['check'] = test.verdict(wrote_stderr=output.wrote_stderr)
    except KeyboardInterrupt:
        result = {'status': 'interrupted'}
    except BaseException as e:  # SystemExit too: the page keeps running whatever the program does
        result = {'status': 'error', 'error': runtime_error(e, code.co_filename)}
        if test is not None:
            result['check'] = test.verdict(e)
            test.redact(result['error'])
        release_traceback(e)
        if isinstance(e, MemoryError):
            # What the program held may stay in reference cycles: a fresh Python gives all of it back.
            result['fresh'] = _('ran out of memory')
    finally:
        try:
            # Stop keeps the charts and graphs so far: drawing them (a boundary through a slow model may take
            # seconds) is not interrupted by the page's Stop, which it repeats while the run goes on.
            with _stop_ignored():
                for finish in (drawing.charts.flush, drawing.live.finish):
                    try:
                        finish()
                    except Exception:  # a model that fails now: the run is over anyway
                        pass
                output.flush()
        finally:
            # Before any call, where a Stop repeated as the run ends could land: the next run's are its own.
            sys.stdout, sys.stderr = saved
            active.drawing = None
            learner_points.forget()
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
