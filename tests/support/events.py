"""The page runtime's events as the page puts them together."""


def drawn_graphs(events):
    """The graph events of a run, each with the teaching fields of a graph-teaching event that comes right
    after it (as output-list.js takes them: any other event in between, and they are not its)."""
    graphs, previous = [], None
    for event in events:
        if event['type'] == 'graph':
            graphs.append(dict(event))
        elif event['type'] == 'graph-teaching':
            assert previous is not None and previous['type'] == 'graph' and 'live' not in previous, previous
            graphs[-1].update((field, value) for field, value in event.items() if field != 'type')
        previous = event
    return graphs
