"""What the page's Python worker runs (web/session/python-worker.js imports this package): a learner's
program in a namespace of its own (runner), the check after each run that decides whether the next needs a
fresh Python (isolation), exercise checks (checks), what the teaching views are sent (teaching) and live
charts (charts), in the page's language (words); the programs it warms up with (warm_up). It ships as a wheel of its own in dist/wheels/, beside the
engine, scalargrad."""

from . import warm_up
from .runner import reset, restored, run, watch
from .words import use_catalogue

__version__ = '0.1.0'
__all__ = ['run', 'reset', 'watch', 'restored', 'use_catalogue', 'warm_up']
