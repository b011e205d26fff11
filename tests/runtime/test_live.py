"""A graph that trains live (playground_runtime.live), in CPython with a clock of the test's own: at most ten
events a second by wall time, only numbers while the shape holds, a new drawing for a new shape, the whole
graph again when the run ends (also when it is stopped), and skipped calls that trace nothing."""

import json
import signal
import textwrap

import pytest

from playground_runtime import live
from playground_runtime import runner as playground
from support.sigint import pythons_own_sigint_handler  # noqa: F401 (a fixture)

TRAINING = '''
random.seed(0)
model = MLP(2, [3, 1])
xs = [[0.5, -1.0], [1.0, 0.2], [-0.3, 0.8]]
for k in range(STEPS):
    loss = sum(((model(x) - 1.0) ** 2 for x in xs), Value(0.0)); loss.label = 'loss'
    model.zero_grad()
    loss.backward()
    for p in model.parameters():
        p.data -= 0.05 * p.grad
    draw_dot(loss, live=True)
print(round(loss.data, 6))
'''


class Clock:
    """Each read is `step` seconds after the one before: a training step of known length."""

    def __init__(self, step):
        self.step, self.reads = step, 0

    def __call__(self):
        self.reads += 1
        return (self.reads - 1) * self.step


def run(source, clock=None, monkeypatch=None):
    if clock is not None:
        monkeypatch.setattr(live, 'CLOCK', clock)
        # Sending's own cost is measured in real time (live.SHARE): on a busy machine it would space the updates
        # out past the test's clock (a full run once saw none in 40 steps of 0.05 s).
        monkeypatch.setattr(live, 'SHARE', float('inf'))
    events = []
    result = json.loads(playground.run(textwrap.dedent(source), lambda text: events.append(json.loads(text))))
    return result, events


@pytest.mark.parametrize('step, steps', [(0.013, 100), (0.001, 500), (0.25, 12)])
def test_at_most_ten_events_a_second_of_the_runs_wall_time(monkeypatch, step, steps):
    clock = Clock(step)
    result, events = run(TRAINING.replace('STEPS', str(steps)), clock, monkeypatch)
    assert result == {'status': 'ok'}
    assert clock.reads == steps  # one read per call, none elsewhere
    during = [e for e in events if e['type'] in ('graph', 'graph-update') and not e.get('final')]
    seconds = (steps - 1) * step
    assert len(during) <= 10 * seconds + 1  # the first drawing at once, then at most ten a second
    assert len(during) >= min(steps, 10 * seconds - 1)  # and no fewer than the clock allows
    assert during[0]['type'] == 'graph' and all(e['type'] == 'graph-update' for e in during[1:])
    assert len({e['live'] for e in events if 'live' in e}) == 1


def test_updates_carry_the_numbers_of_the_drawn_shape_and_the_end_draws_it_whole(monkeypatch):
    result, events = run(TRAINING.replace('STEPS', '40'), Clock(0.05), monkeypatch)
    graph, *updates, final = [e for e in events if e['type'].startswith('graph')]
    assert graph['type'] == 'graph' and 'steps' not in graph and 'check' not in graph  # light while it trains
    assert {'table', 'explain', 'shape'} <= set(graph) and graph['live'] == 1
    assert updates and all(u['shape'] == graph['shape'] and len(u['values']) == graph['nodes'] for u in updates)
    assert set(updates[0]['explain']) == {'local', 'why', 'verdicts'}
    assert final['type'] == 'graph' and final['final'] is True and final['shape'] == graph['shape']
    assert 'steps' in final and 'check' in final
    printed = float(next(e['text'] for e in events if e['type'] == 'stdout'))
    assert final['table'][-1]['label'] == 'loss' and final['table'][-1]['data'] == pytest.approx(printed, abs=1e-6)
    assert updates[-1]['values'][-1][0] != graph['table'][-1]['data']  # the loss went down as it trained


def test_a_new_shape_is_drawn_again_and_old_updates_never_mix_with_it(monkeypatch):
    _, events = run(
        '''
for n in (2, 2, 2, 3, 3, 3):
    x = Value(1.0, label='x')
    for _ in range(n):
        x = x * 2
    x.backward()
    draw_dot(x, live=True)
''',
        Clock(0.2),
        monkeypatch,
    )
    kinds = [(e['type'], e['nodes'] if e['type'] == 'graph' else len(e['values'])) for e in events if 'live' in e]
    assert kinds == [
        ('graph', 5),
        ('graph-update', 5),
        ('graph-update', 5),
        ('graph', 7),
        ('graph-update', 7),
        ('graph-update', 7),
        ('graph', 7),
    ]


def test_two_call_sites_are_two_live_graphs():
    _, events = run('''
for k in range(3):
    a = Value(float(k), label='a'); b = a * a; b.label = 'b'
    draw_dot(b, live=True)
    draw_dot(b + 1, live=True)
''')
    assert {e['live'] for e in events if e['type'] == 'graph'} == {1, 2}


def test_stop_ends_the_run_and_the_graph_is_drawn_whole_from_the_last_call(monkeypatch):
    result, events = run(
        TRAINING.replace('STEPS', '30').replace(
            'draw_dot(loss, live=True)', 'draw_dot(loss, live=True)\n    if k == 20: raise KeyboardInterrupt'
        ),
        Clock(0.05),
        monkeypatch,
    )
    assert result == {'status': 'interrupted'}
    final = events[-1]
    assert final['type'] == 'graph' and final['final'] is True


@pytest.mark.usefixtures('pythons_own_sigint_handler')
def test_a_stop_repeated_while_the_run_ends_does_not_cut_its_last_drawing_short(monkeypatch):
    # The page repeats Stop while a run goes on after its KeyboardInterrupt: here, as the last graph is drawn.
    finish = live.LiveGraphs.finish

    def interrupted_finish(self):
        signal.raise_signal(signal.SIGINT)
        finish(self)

    monkeypatch.setattr(live.LiveGraphs, 'finish', interrupted_finish)
    result, events = run(
        TRAINING.replace('STEPS', '30').replace(
            'draw_dot(loss, live=True)', 'draw_dot(loss, live=True)\n    if k == 20: raise KeyboardInterrupt'
        ),
        Clock(0.05),
        monkeypatch,
    )
    assert result == {'status': 'interrupted'}
    assert events[-1]['type'] == 'graph' and events[-1]['final'] is True
    assert signal.getsignal(signal.SIGINT) is signal.default_int_handler  # Stop reaches the next run


def test_calls_skipped_by_the_clock_do_not_trace_the_graph(monkeypatch):
    result, events = run(
        '''
class Counted(Value):
    reads = 0
    @property
    def _prev(self):
        Counted.reads += 1
        return Value._prev.__get__(self)
    @_prev.setter
    def _prev(self, children):
        Value._prev.__set__(self, children)
x = Counted(2.0, label='x')
y = x * 3
for k in range(50):
    draw_dot(y, live=True)
    if k == 0:
        after_first = Counted.reads
print(Counted.reads - after_first)
''',
        Clock(0.0001),
        monkeypatch,
    )
    assert result == {'status': 'ok'}, result
    assert [e['text'] for e in events if e['type'] == 'stdout'] == ['0\n']  # 49 calls inside 0.1 s: no tracing


def test_a_live_graph_too_large_to_draw_is_said_once():
    result, events = run('''
x = Value(1.0)
for _ in range(3000):
    x = x + 1
for k in range(20):
    draw_dot(x, live=True)
''')
    assert result == {'status': 'ok'}
    assert [e['type'] for e in events] == ['graph-too-large']
