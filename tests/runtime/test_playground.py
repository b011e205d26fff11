"""The worker's Python side, run in plain CPython: events in order, errors, notebook commands."""

import importlib.util
import json
import signal
import sys
import textwrap
from pathlib import Path

import pytest

from playground_runtime import runner as playground
from playground_runtime.stand_ins import active
from support import RUNTIME_PACKAGE
from support.sigint import pythons_own_sigint_handler  # noqa: F401 (a fixture)


def run(source):
    events = []
    result = json.loads(playground.run(textwrap.dedent(source), lambda text: events.append(json.loads(text))))
    return result, events


def kinds(events):
    return [e['type'] for e in events]


def test_prints_and_graphs_arrive_in_program_order():
    result, events = run('''
        a = Value(2.0, label='a')
        print('before')
        draw_dot(a)
        a.data = 3.0
        print('between')
        draw_dot(a)
        print('after', end='')
    ''')
    assert result == {'status': 'ok'}
    assert kinds(events) == ['stdout', 'graph', 'graph-teaching', 'stdout', 'graph', 'graph-teaching', 'stdout']
    assert events[0]['text'] == 'before\n'
    assert 'data 2.0000' in events[1]['dot'] and 'data 3.0000' in events[4]['dot']
    assert events[2]['table'][0]['data'] == 2.0 and events[5]['table'][0]['data'] == 3.0  # each of its moment
    assert events[1]['title'] == 'a' and events[1]['nodes'] == 1


def test_each_call_draws_the_values_of_that_moment():
    _, events = run('''
        x = Value(2.0, label='x'); w = Value(-3.0, label='w')
        y = x * w; y.label = 'y'
        draw_dot(y)
        y.backward()
        draw_dot(y)
    ''')
    graphs = [e['dot'] for e in events if e['type'] == 'graph']
    assert len(graphs) == 2
    assert '{ x | data 2.0000 | grad 0.0000 }' in graphs[0]
    assert '{ x | data 2.0000 | grad -3.0000 }' in graphs[1]


def test_last_expression_value_is_drawn_and_draw_dot_is_not_drawn_twice():
    _, events = run("a = Value(1.0, label='a')\nb = a * 2\nb")
    assert kinds(events) == ['graph', 'graph-teaching']
    _, events = run("a = Value(1.0, label='a')\ndraw_dot(a * 2)")
    assert kinds(events) == ['graph', 'graph-teaching']


def test_last_expression_of_another_kind_shows_its_repr():
    _, events = run('x = 2\nx + 1')
    assert events == [{'type': 'result', 'text': '3'}]
    _, events = run('x = 2\nx + 1\nNone')
    assert events == []


def test_learner_draw_dot_with_graphviz_digraph_is_shown_at_top_level():
    pytest.importorskip('graphviz')
    _, events = run('''
        from graphviz import Digraph
        def draw_dot(root):
            dot = Digraph(format='svg', graph_attr={'rankdir': 'LR'})
            dot.node(name=str(id(root)), label="{ %s | data %.4f }" % (root.label, root.data), shape='record')
            return dot
        v = Value(5.0, label='v')
        draw_dot(v)
        v.data = 6.0
        draw_dot(v)
    ''')
    assert kinds(events) == ['graph', 'graph']
    assert 'data 5.0000' in events[0]['dot'] and 'data 6.0000' in events[1]['dot']


def test_namespace_is_ready_and_micrograd_imports_work():
    result, events = run('''
        from micrograd.engine import Value as V
        from micrograd.nn import MLP as M
        print(V is Value, M is MLP, len(MLP(2, [16, 16, 1]).parameters()), round(math.pi, 2), random.random() < 1)
        print(type(Neuron(2)).__name__, type(Layer(2, 2)).__name__)
    ''')
    assert result == {'status': 'ok'}
    assert ''.join(e['text'] for e in events) == 'True True 337 3.14 True\nNeuron Layer\n'


def test_each_run_starts_from_a_fresh_namespace():
    run('leftover = 1')
    result, _ = run('leftover')
    assert result['error']['type'] == 'NameError'


def test_notebook_magics_are_skipped_with_a_notice():
    result, events = run('%matplotlib inline\n!pip install micrograd\nprint("ok")')
    assert result == {'status': 'ok'}
    assert kinds(events) == ['notice', 'notice', 'stdout']
    assert "Line 1: skipped '%matplotlib inline'" in events[0]['text']


def test_percent_operator_on_a_continuation_line_is_not_a_magic():
    result, events = run('x = (7\n% 4)\nprint(x)')
    assert result == {'status': 'ok'} and events == [{'type': 'stdout', 'text': '3\n'}]


def test_runtime_error_traceback_is_trimmed_to_the_learners_code():
    result, events = run('''
        def f(v):
            return v.nope

        print('first')
        f(Value(1.0))
    ''')
    error = result['error']
    assert result['status'] == 'error'
    assert error['type'] == 'AttributeError' and error['line'] == 3
    assert error['traceback'].startswith('Traceback (most recent call last):\n  File "<editor>", line 6')
    assert RUNTIME_PACKAGE not in error['traceback']
    assert 'return v.nope' in error['traceback']
    assert events == [{'type': 'stdout', 'text': 'first\n'}]


def test_an_error_in_a_displayed_values_repr_shows_only_the_learners_frames():
    result, _ = run('''
        class Shown:
            def __repr__(self):
                raise ValueError('no repr today')

        Shown()
    ''')
    error = result['error']
    assert error['type'] == 'ValueError' and error['line'] == 4
    assert RUNTIME_PACKAGE not in error['traceback']
    assert error['traceback'].count('File "<editor>"') == 2


@pytest.mark.parametrize(
    'program',
    [
        'import sys\nsys.stdout.write(5)',  # the stream's write, called by the learner
        'class Loud:\n    def __str__(self):\n        raise ValueError("no")\nprint(Loud())',
        'input("name? ")',
        'from IPython.display import display\ndisplay(Value(1.0), 1 / 0)',
        'draw_dot(object())',
    ],
    ids=['stdout.write', 'print calls __str__', 'input', 'display', 'draw_dot'],
)
def test_the_runtimes_frames_between_the_learners_stay_out_of_the_traceback(program):
    result, _ = run(program)
    assert result['status'] == 'error', result
    assert RUNTIME_PACKAGE not in result['error']['traceback'], result['error']['traceback']


def test_the_runtime_package_the_traceback_tests_look_for_is_in_each_of_its_frames():
    # The assertions above (and test_page's) would pass on any traceback if the name were not the runtime's.
    assert importlib.util.find_spec(RUNTIME_PACKAGE) is not None
    assert RUNTIME_PACKAGE in Path(playground.__file__).parts
    # A learner who calls one of the runtime's functions sees its frame, named so (errors.TRIMMED says which
    # files' frames are left out: those between the learner's).
    result, _ = run('from playground_runtime.example import forward_example\nforward_example("{}")')
    assert result['error']['type'] == 'KeyError'
    assert f'{RUNTIME_PACKAGE}/example.py' in result['error']['traceback'].replace('\\', '/')


def test_syntax_error_has_line_and_column():
    result, events = run('x = 1\ny = (2 +\n')
    error = result['error']
    assert error['type'] == 'SyntaxError' and error['line'] == 3 - 1 and error['column'] == 5
    assert 'line 2, column 5' in error['message']
    assert events == []


def test_syntax_error_in_a_program_with_a_magic_reports_the_real_line():
    result, _ = run('%matplotlib inline\nx = = 1')
    assert result['error']['type'] == 'SyntaxError' and result['error']['line'] == 2


def test_missing_module_says_what_is_available():
    result, _ = run('import a_module_the_playground_lacks')
    assert result['error']['type'] == 'ModuleNotFoundError'
    assert 'scalargrad (also importable as micrograd), graphviz and micropip' in result['error']['message']


def test_system_exit_and_input_do_not_end_the_page():
    result, _ = run('import sys\nsys.exit(3)')
    assert result['error']['type'] == 'SystemExit'
    result, _ = run('input("x? ")')
    assert 'input() is not available' in result['error']['message']


def test_graph_over_the_limit_is_a_message_not_an_error():
    result, events = run('''
        x = Value(0.0)
        for _ in range(1500):
            x = x + 1
        draw_dot(x)
        print('still running')
    ''')
    assert result == {'status': 'ok'}
    assert kinds(events) == ['graph-too-large', 'stdout']
    assert events[0]['nodes'] == 3001 and events[0]['limit'] == 2000
    assert '3,001 values' in events[0]['text']


def test_keyboard_interrupt_reports_interrupted():
    result, events = run('print("a")\nraise KeyboardInterrupt')
    assert result == {'status': 'interrupted'}
    assert events == [{'type': 'stdout', 'text': 'a\n'}]


def test_a_stop_that_arrives_before_the_program_begins_ends_the_run_as_interrupted():
    # Python raises KeyboardInterrupt wherever it next checks: here, as the run reports the bad points.
    def emit(text):
        raise KeyboardInterrupt

    result = json.loads(playground.run('print("never")', emit, points='"not points"'))
    assert result == {'status': 'interrupted'}
    result, events = run('print("next run")')
    assert result == {'status': 'ok'} and events == [{'type': 'stdout', 'text': 'next run\n'}]


def run_stopped_at(n, source):
    """Runs `source` with a KeyboardInterrupt raised at the nth call or return of a Python function inside the
    run, where Python looks for a pending interrupt (as it does at loops' back edges) and so where Stop lands.
    While the run ignores SIGINT, as a real signal would be, none is raised. Returns (the result's status,
    or 'escaped'; where it was raised, or None if it was not or only printed; the calls and returns seen)."""
    seen, where, printed = 0, None, False

    def stop(frame, event, arg):
        nonlocal seen, where
        if event in ('call', 'return') and where is None:
            seen += 1
            if seen == n and signal.getsignal(signal.SIGINT) is not signal.SIG_IGN:
                where = f'{event} of {frame.f_code.co_name} ({Path(frame.f_code.co_filename).name})'
                raise KeyboardInterrupt
        return stop

    def only_printed(unraisable):  # as in a finalizer: the page repeats Stop for such a one
        nonlocal printed
        printed = printed or isinstance(unraisable.exc_value, KeyboardInterrupt)

    hook, sys.unraisablehook = sys.unraisablehook, only_printed
    sys.settrace(stop)
    try:
        result = playground.run(source, lambda text: None, points='[[0.5, 0.5, 1]]')
    except KeyboardInterrupt:
        result = None
    finally:
        sys.settrace(None)
        sys.unraisablehook = hook
    where = None if printed else where
    return ('escaped' if result is None else json.loads(result)['status']), where, seen


@pytest.mark.usefixtures('pythons_own_sigint_handler')
def test_a_stop_wherever_python_takes_it_ends_the_run_and_leaves_nothing_of_it_behind():
    """The page repeats Stop while a run goes on, so one can land anywhere: as the run begins, in the program,
    as its charts are drawn (ignored there), as it ends. Each ends the run as interrupted, or escapes run()
    only at its very start or end (the worker reports that as interrupted too), and the run's output streams,
    drawing never outlive it (a Stop as the run ended once left its stdout in place for the next) and the
    next run never sees its points."""
    statuses, streams = {}, (sys.stdout, sys.stderr)
    n = 1
    while True:
        status, where, seen = run_stopped_at(n, 'x = Value(1.0)\nprint("ran")\ndraw_dot(x * 2)\n')
        if seen < n:
            break
        assert status in ('interrupted', 'ok', 'escaped'), (n, where, status)
        assert (status == 'ok') == (where is None), (n, where, status)  # only an ignored Stop lets it finish
        if status == 'escaped':
            assert where in ('call of run (runner.py)', 'return of run (runner.py)'), where
        assert (sys.stdout, sys.stderr) == streams, where
        assert active.drawing is None, where
        assert run('print(len(points()[0]))')[1] == [{'type': 'stdout', 'text': '100\n'}], where
        statuses[status] = statuses.get(status, 0) + 1
        n += 1
    assert statuses['interrupted'] > 50 and statuses['ok'] > 5, statuses
    result, events = run('print("next run")')
    assert result == {'status': 'ok'} and events == [{'type': 'stdout', 'text': 'next run\n'}]


def test_text_is_sent_line_by_line_so_it_shows_during_a_long_loop():
    _, events = run('print("a"); print("b", end=""); print("c")')
    assert events == [{'type': 'stdout', 'text': 'a\n'}, {'type': 'stdout', 'text': 'bc\n'}]


def test_endless_output_is_cut_with_a_notice():
    result, events = run('for i in range(200_000):\n    print("x" * 9)')
    assert result == {'status': 'ok'}
    assert events[-1]['type'] == 'notice' and 'Output stopped after 1,000,000 characters' in events[-1]['text']
    assert sum(len(e['text']) for e in events if e['type'] == 'stdout') <= 1_000_010


def test_a_long_chain_left_by_an_interrupted_run_is_freed_safely():
    # In Pyodide a recursive free of this chain used to be a fatal error that killed the interpreter.
    result, _ = run('x = Value(1.0)\nfor i in range(300_000):\n    x = x * 1.0\nraise KeyboardInterrupt')
    assert result == {'status': 'interrupted'}
    result, events = run('print("next run")')
    assert result == {'status': 'ok'} and events == [{'type': 'stdout', 'text': 'next run\n'}]


def test_a_named_env_keeps_its_namespace_across_runs_until_reset():
    events = []
    emit = lambda text: events.append(json.loads(text))  # noqa: E731
    assert json.loads(playground.run("a = Value(2.0, label='a')", emit, env='article'))['status'] == 'ok'
    assert json.loads(playground.run("draw_dot(a * 3)\nprint(a.data)", emit, env='article'))['status'] == 'ok'
    assert kinds(events) == ['graph', 'graph-teaching', 'stdout'] and events[2]['text'] == '2.0\n'
    other = json.loads(playground.run('a', emit, env='other'))
    assert other['error']['type'] == 'NameError'
    fresh = json.loads(playground.run('a', emit))
    assert fresh['error']['type'] == 'NameError'
    playground.reset('article')
    assert json.loads(playground.run('a', emit, env='article'))['error']['type'] == 'NameError'


def test_a_learners_own_draw_dot_in_an_env_survives_later_runs():
    emit = lambda text: None  # noqa: E731
    playground.run("def draw_dot(v):\n    return 'mine'", emit, env='own-draw')
    events = []
    playground.run("print(draw_dot(1))", lambda text: events.append(json.loads(text)), env='own-draw')
    assert events == [{'type': 'stdout', 'text': 'mine\n'}]
    playground.reset('own-draw')


@pytest.mark.parametrize(
    'package, instead',
    [
        ('numpy', 'the math module'),
        ('matplotlib', 'plot(step=k'),
        ('torch', 'gradcheck(root)'),
        ('sklearn.datasets', 'make_moons'),
        ('pandas', 'lists and dicts'),
    ],
)
def test_a_package_this_build_lacks_is_named_with_what_to_use_instead(package, instead, monkeypatch):
    import sys

    monkeypatch.setitem(sys.modules, package.split('.')[0], None)  # as if not installed, here too
    result, _ = run(f'import {package}')
    message = result['error']['message']
    assert f"no {package.split('.')[0]}" in message and instead in message, message
    assert 'micropip' in message


@pytest.mark.parametrize(
    'name, statement',
    [('np', 'import numpy as np'), ('plt', 'import matplotlib.pyplot as plt'), ('torch', 'import torch')],
)
def test_an_undefined_alias_names_the_package_it_usually_stands_for(name, statement):
    """A notebook's later cells use `np` after `import numpy as np` failed: say why it is undefined."""
    result, _ = run(f'{name}.zeros(3)')
    assert result['error']['type'] == 'NameError'
    package = statement.split()[1].split('.')[0]
    assert (
        f"name '{name}' is not defined; it would come from `{statement}`, and this playground has no {package}"
        in result['error']['message']
    )
    result, _ = run('npx + 1')
    assert result['error']['message'] == "name 'npx' is not defined"


def finish(job):
    """Drives a run's coroutine by hand: asyncio.sleep(0) only yields, and asyncio.run needs stack
    switching in Pyodide, which Node lacks."""
    try:
        while True:
            job.send(None)
    except StopIteration as finished:
        return finished.value


def test_top_level_await_runs_and_output_keeps_its_order():
    events = []
    job = playground.run(
        'import asyncio\nprint("before")\nawait asyncio.sleep(0)\nprint("after")\n1 + 1',
        lambda text: events.append(json.loads(text)),
    )
    result = json.loads(finish(job))
    assert result == {'status': 'ok'}
    assert [(e['type'], e['text']) for e in events] == [('stdout', 'before\n'), ('stdout', 'after\n'), ('result', '2')]


def test_an_error_after_an_await_has_the_learners_traceback():
    job = playground.run('import asyncio\nawait asyncio.sleep(0)\n1 / 0', lambda text: None)
    result = json.loads(finish(job))
    assert result['error']['type'] == 'ZeroDivisionError' and result['error']['line'] == 3


def test_display_shows_values_and_graphs_in_place():
    result, events = run('''
        from IPython.display import display
        a = Value(2.0, label='a')
        display(a)
        display("text", None)
        print("after")
    ''')
    assert result == {'status': 'ok'}
    assert kinds(events) == ['graph', 'graph-teaching', 'result', 'result', 'stdout']
    assert [e['text'] for e in events[2:4]] == ["'text'", 'None']


def test_display_is_there_without_an_import():
    result, events = run('display(3)')
    assert result == {'status': 'ok'} and events[-1] == {'type': 'result', 'text': '3'}


# nbgrader test cells: run whole, hidden tests included, and scored as `nbgrader autograde` scores them.
ANSWER = '''
class Value:
    def __init__(self, data):
        self.data = data
    def __mul__(self, other):
        return Value(self.data * other.data)
    def double(self):
        return self.data.missing
'''
TEST = '''assert (Value(2) * Value(3)).data == 6, "2 * 3 should be 6"
### BEGIN HIDDEN TESTS
assert (Value(2) * Value(2)).data == 5
### END HIDDEN TESTS
x = 1'''


def run_test_cell(source, hidden=(), env='assignment'):
    events = []
    emit = lambda text: events.append(json.loads(text))
    playground.run(ANSWER, emit, env=env)
    result = json.loads(playground.run(source, emit, env=env, test=json.dumps({'hidden': list(hidden)})))
    playground.reset(env)
    return result, events


def test_a_test_cell_that_passes_passes_and_keeps_its_names_in_the_env():
    result, _ = run_test_cell('assert (Value(2) * Value(3)).data == 6\ny = 2')
    assert result == {'status': 'ok', 'check': {'status': 'passed', 'message': "This cell's tests passed."}}


def test_a_failed_assert_says_its_message_or_quotes_its_line():
    result, _ = run_test_cell('x = 1\nassert (Value(2) * Value(3)).data == 7, "2 * 3 should be 6"')
    assert result['status'] == 'error' and result['error']['line'] == 2
    assert result['check'] == {'status': 'failed', 'message': '2 * 3 should be 6'}
    result, _ = run_test_cell('assert (Value(2) * Value(3)).data == 7')
    assert result['check']['message'] == 'A check failed: `assert (Value(2) * Value(3)).data == 7`.'


def test_an_error_in_the_learners_code_says_what_was_tested_and_where():
    result, _ = run_test_cell('Value(1).double()')
    assert result['check']['message'] == (
        "Checking `Value(1).double()`: it raised AttributeError: "
        "'int' object has no attribute 'missing' (line 8 of your code)"
    )


def test_hidden_tests_run_and_count_but_their_code_never_shows():
    result, _ = run_test_cell(TEST, hidden=[2, 3, 4])
    assert result['check'] == {
        'status': 'failed',
        'message': 'A hidden test of this cell failed. Its code is not shown.',
    }
    assert result['error']['line'] is None and result['error']['traceback'] == ''
    assert 'Value(2) * Value(2)' not in json.dumps(result)
    # A failure after the hidden lines is numbered as the page shows the cell, without them.
    result, _ = run_test_cell(TEST.replace('== 5', '== 4') + '\nassert x == 2', hidden=[2, 3, 4])
    assert result['error']['line'] == 3 and result['check']['message'] == 'A check failed: `assert x == 2`.'


def test_a_test_cell_that_writes_to_stderr_fails_as_in_nbgrader():
    result, events = run_test_cell('import sys\nprint("careful", file=sys.stderr)')
    assert result['status'] == 'ok' and result['check']['status'] == 'failed'
    assert 'stderr' in result['check']['message']
    assert events[-1] == {'type': 'stderr', 'text': 'careful\n'}


def test_a_test_cell_that_does_not_parse_fails_with_the_syntax_error():
    result, _ = run_test_cell('assert (', hidden=[])
    assert result['status'] == 'error' and result['check']['status'] == 'failed'
    assert result['check']['message'].startswith('This cell is not valid Python: ')
