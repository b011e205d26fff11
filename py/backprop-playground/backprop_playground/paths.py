"""Where things are: the checkout's sources and build output, or the site inside the installed wheel."""
from pathlib import Path

PACKAGE = Path(__file__).resolve().parent
INSTALLED_SITE = PACKAGE / 'site'  # the built site, in the wheel that `build.py wheel` writes
ROOT = PACKAGE.parents[2]  # the checkout: py/backprop-playground/backprop_playground/ is three levels down
WEB = ROOT / 'web'
PY = ROOT / 'py'
DIST = ROOT / 'dist'
CACHE = ROOT / '.cache'
NODE_MODULES = ROOT / 'node_modules'


def in_checkout():
    """Whether this package runs from a checkout (it can build) rather than from the installed wheel."""
    return (ROOT / 'build.py').is_file() and WEB.is_dir()


def served_site():
    """The folder `serve` sends: the wheel's own site, or the checkout's dist/."""
    return INSTALLED_SITE if INSTALLED_SITE.is_dir() else DIST
