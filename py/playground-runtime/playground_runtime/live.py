"""A graph that trains live: `draw_dot(loss, live=True)` inside a training loop.

Each call site (the line that calls draw_dot) is one live graph of the run. Its first call draws it; later
calls send only the values' numbers while the graph keeps its shape, at most once every EVERY seconds by
wall time, and less often when sending takes more than SHARE of the time (a big graph on a slow machine);
the calls between are skipped: they cost a clock read. A new shape draws it again, in the same place. When the run ends (finished, failed or stopped) each live graph is drawn once more with every
teaching field, from the last call's values. The events, through playground's emit:

  {"type": "graph", ..., "live": n, "shape": s}      the graph (its teaching fields but "steps" and "check",
                                                     which are computed once, at the end); `n` numbers the
                                                     call site in the run, `s` names the graph's shape
  {"type": "graph-update", "live": n, "shape": s, "values": [[data, grad], ...], "explain": {...}}
      the values in the graph's order (the DOT's vN), and the explanation's numbers ("local", "why",
      "verdicts": playground_runtime.explain)
  {"type": "graph", ..., "live": n, "shape": s, "final": true}   at the end of the run, every field
"""

import time

from scalargrad.graph import MAX_NODES, TRACE_LIMIT, GraphTooLarge, trace

from .explain import numbers, structure
from .numbers import json_number as number

EVERY = 0.1  # seconds between two events of one live graph, at least: at most 10 a second
SHARE = 0.15  # the most of the run's time that a live graph's updates may take: a big graph updates less often
CLOCK = time.monotonic  # wall time, read once per call (the tests count events against a clock of their own)


class LiveGraph:
    def __init__(self, number):
        self.number = number
        self.shape = None
        self.structure = None  # (args, why) of the shape drawn: playground_runtime.explain's
        self.next = 0.0  # when the next event may leave
        self.latest = None  # (root, rankdir) of the last call
        self.sent = False  # whether the latest call's values have left
        self.refused = False  # too large to draw: later calls do nothing


class LiveGraphs:
    """The run's live graphs. `draw(root, rankdir, site)` from draw_dot; `finish()` when the run ends.
    `show(root, rankdir, light, **fields)` draws a graph (the runner's), `send(**event)` sends any other event."""

    def __init__(self, show, send, clock=None):
        self._show = show
        self._send = send
        self._clock = clock or CLOCK
        self._graphs = {}

    def draw(self, root, rankdir, site):
        live = self._graphs.get(site)
        if live is None:
            live = self._graphs[site] = LiveGraph(len(self._graphs) + 1)
        if live.refused:
            return
        live.latest, live.sent = (root, rankdir), False
        now = self._clock()
        if now >= live.next:
            began = time.perf_counter()
            self._emit(live, final=False)
            live.next = now + max(EVERY, (time.perf_counter() - began) / SHARE)

    def finish(self):
        """The run is over: each live graph is drawn once more from its last call, with every field."""
        for live in self._graphs.values():
            latest, live.latest = live.latest, None  # the run's values go with it
            if not live.refused and latest is not None:
                live.latest = latest
                self._emit(live, final=True)
                live.latest = None

    def _emit(self, live, final):
        root, rankdir = live.latest
        live.sent = True
        try:
            nodes, edges = trace(root, limit=TRACE_LIMIT)
        except GraphTooLarge:
            nodes = edges = None
        if nodes is None or len(nodes) > MAX_NODES:  # drawn (grouped, or refused) once, never updated
            live.refused = True
            self._show(root, rankdir, light=not final, live=live.number)
            return
        shape = shape_of(nodes, edges)
        if final or shape != live.shape:
            live.shape, live.structure = shape, structure(nodes, edges)  # operands read once per shape
            extra = {'final': True} if final else {}
            self._show(root, rankdir, light=not final, live=live.number, shape=shape, traced=(nodes, edges), **extra)
            return
        self._send(
            type='graph-update',
            live=live.number,
            shape=shape,
            values=[[number(getattr(n, 'data', None)), number(getattr(n, 'grad', None))] for n in nodes],
            explain=numbers(nodes, *live.structure),
        )


def shape_of(nodes, edges):
    """A name for the graph's shape: its values' ops and labels, and which feeds which."""
    position = {id(n): i for i, n in enumerate(nodes)}
    parts = (
        tuple(map(str, [getattr(n, '_op', '') for n in nodes])),
        tuple(map(str, [getattr(n, 'label', '') for n in nodes])),
        tuple([position[id(c)] for c, _ in edges]),
        tuple([position[id(p)] for _, p in edges]),
    )
    return f"{len(nodes)}-{hash(parts) & 0xFFFFFFFFFFFF:x}"
