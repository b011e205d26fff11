"""The classroom: the room's record on the laptop that serves it (store.py), the statements it takes
(statements.py), who is here (presence.py), how learners reach the room and what their browsers can do there
(network.py) and its HTTP API (api.py), which `serve --classroom DIR` mounts; with `--forward URL`, the
record sent on to the school's Learning Record Store (forward.py)."""

from .statements import MESSAGE, XAPI_VERSION, Refused
from .store import Classroom

__all__ = ['Classroom', 'Refused', 'MESSAGE', 'XAPI_VERSION']
