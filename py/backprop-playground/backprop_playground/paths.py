"""Where things are: the checkout's sources and build output, or the site inside the installed wheel, and the
machine's cache that every checkout on it shares."""

import os
from pathlib import Path

PACKAGE = Path(__file__).resolve().parent
INSTALLED_SITE = PACKAGE / 'site'  # the built site, in the wheel that `build.py wheel` writes
ROOT = PACKAGE.parents[2]  # the checkout: py/backprop-playground/backprop_playground/ is three levels down
WEB = ROOT / 'web'
PY = ROOT / 'py'
DIST = ROOT / 'dist'
CACHE = ROOT / '.cache'  # this checkout's: the build's lock, copies the tests make
NODE_MODULES = ROOT / 'node_modules'


def in_checkout():
    """Whether this package runs from a checkout (it can build) rather than from the installed wheel."""
    return (ROOT / 'build.py').is_file() and WEB.is_dir()


def served_site():
    """The folder `serve` sends: the wheel's own site, or the checkout's dist/."""
    return INSTALLED_SITE if INSTALLED_SITE.is_dir() else DIST


def machine_cache():
    """The machine's cache, shared by every checkout on it as pip and npm share theirs: $BACKPROP_PLAYGROUND_CACHE,
    or XDG's cache folder. Read at each call, so that a test can point a build at a folder of its own."""
    return Path(
        os.environ.get('BACKPROP_PLAYGROUND_CACHE')
        or Path(os.environ.get('XDG_CACHE_HOME') or Path.home() / '.cache') / 'backprop-playground'
    )


def build_cache():
    """Where builds keep what their steps made, by a hash of what it was made from (steps/kept.py)."""
    return machine_cache() / 'build'
