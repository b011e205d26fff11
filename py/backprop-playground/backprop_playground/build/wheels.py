"""The wheels the page's Python unpacks into site-packages (dist/wheels/): the engine and the page's runtime,
built from py/, and the pure-Python `graphviz` from PyPI (learners' programs use it; Pyodide's lock has none)."""
import shutil
import sys

from ..paths import CACHE, PY
from .pyodide import download_wheel
from .tools import run

GRAPHVIZ = 'graphviz==0.21'
PACKAGES = ['scalargrad', 'playground-runtime']  # folders of py/, each a wheel


def build_wheels(out):
    """Returns the wheels' file names, in the order the worker unpacks them."""
    graphviz = download_wheel(GRAPHVIZ)
    names = [out.copy(graphviz, out.dist / 'wheels' / graphviz.name).name]
    for package in PACKAGES:
        names.append(build_wheel(out, package).name)
    return names


def build_wheel(out, package):
    folder = CACHE / 'wheels-built' / package
    if folder.exists():
        shutil.rmtree(folder)
    run(sys.executable, '-m', 'pip', 'wheel', '--quiet', '--no-deps', '--wheel-dir', folder, PY / package)
    (wheel,) = folder.glob('*.whl')
    return out.copy(wheel, out.dist / 'wheels' / wheel.name)
