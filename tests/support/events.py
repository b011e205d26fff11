"""The page runtime's events as the page puts them together."""


def drawn_graphs(events):
    """The graph events of a run, each with the teaching fields of the graph-teaching event that follows it."""
    graphs = []
    for event in events:
        if event['type'] == 'graph':
            graphs.append(dict(event))
        elif event['type'] == 'graph-teaching':
            graphs[-1].update((field, value) for field, value in event.items() if field != 'type')
    return graphs
