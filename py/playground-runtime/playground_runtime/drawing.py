"""A run's drawings: graph events for draw_dot and for displayed values, with their teaching fields after them.
A network of more than OPEN_GROUPED values opens by neuron, the full graph a click away."""

from scalargrad import engine
from scalargrad.graph import MAX_NODES, TRACE_LIMIT, Dot, GraphTooLarge, dot_source, is_node, trace

from . import teaching
from .charts import Charts
from .groups import grouped_only
from .live import LiveGraphs
from .words import _

OPEN_GROUPED = 300  # values: a network bigger than this opens grouped by neuron, the full graph a click away


class Drawing:
    """What a run shows besides text: its graphs (draw_dot, a displayed Dot or graphviz graph), the values of
    top-level expressions, live graphs and charts. One per run, in the run's namespace's Env."""

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
            views = grouped_only(nodes, edges, rankdir)
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
                _("this graph has {count} nodes, more than the {limit} that can be drawn").format(
                    count=f"{count:,}", limit=f"{limit:,}"
                ),
                count,
                limit,
            )
        else:
            self.show_graph(graph.source, count, getattr(graph, 'name', None) or '')


def _is_graphviz(value):
    return type(value).__module__.split('.')[0] == 'graphviz' and isinstance(getattr(value, 'source', None), str)
