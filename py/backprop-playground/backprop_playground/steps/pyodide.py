"""The Python runtime from the `pyodide` npm package into dist/pyodide/, with the micropip wheel its lock
names (from PyPI, with the lock's hash corrected) and the standard library rewritten stored."""

import hashlib
import io
import json
import sys
import tempfile
import zipfile
from pathlib import Path

from ..paths import NODE_MODULES
from . import kept
from .output import shown
from .tools import fail, run

PYODIDE = NODE_MODULES / 'pyodide'
FILES = ['pyodide.mjs', 'pyodide.asm.mjs', 'pyodide.asm.wasm']
STDLIB = 'python_stdlib.zip'  # rewritten uncompressed (stored_zip): the server's brotli then shrinks it whole
PYTHON = '3.14'  # Pyodide's: the version pip downloads wheels for


def copy_runtime(out):
    """Returns (Python's version, the micropip wheel's file name)."""
    for name in FILES:
        out.copy(PYODIDE / name, out.dist / 'pyodide' / name)
    stored_zip(out, PYODIDE / STDLIB, out.dist / 'pyodide' / STDLIB)
    lock = json.loads((PYODIDE / 'pyodide-lock.json').read_text())
    micropip = lock['packages']['micropip']
    wheel = out.copy(download_wheel(f"micropip=={micropip['version']}"), out.dist / 'pyodide' / micropip['file_name'])
    # The npm package ships no wheels and PyPI's micropip wheel differs from the lock's hash;
    # with a wrong hash loadPackage fails silently, so the lock we ship carries the real one.
    micropip['sha256'] = hashlib.sha256(wheel.read_bytes()).hexdigest()
    out.put(out.dist / 'pyodide' / 'pyodide-lock.json', json.dumps(lock).encode())
    return lock['info']['python'], micropip['file_name']


KIND = 'wheels'  # PyPI's wheels in the build cache (kept.py), by their file names


def download_wheel(requirement):
    """A pure-Python wheel from PyPI for Pyodide's Python, kept in the machine's build cache by its file name."""
    folder = kept.folder(KIND)
    name, version = requirement.split('==')
    pattern = f"{name.replace('-', '_')}-{version}-*.whl"
    found = sorted(folder.glob(pattern))
    if not found:
        folder.mkdir(parents=True, exist_ok=True)
        # Downloaded beside it, then renamed in: another checkout's build never takes half a wheel.
        with tempfile.TemporaryDirectory(dir=folder, suffix='.partial') as partial:
            run(
                sys.executable,
                '-m',
                'pip',
                'download',
                '--quiet',
                '--no-deps',
                '--only-binary=:all:',
                '--python-version',
                PYTHON,
                '--dest',
                partial,
                requirement,
            )
            for wheel in Path(partial).glob(pattern):
                wheel.replace(folder / wheel.name)
        found = sorted(folder.glob(pattern))
    if not found:
        fail(f"pip did not leave a wheel for {requirement} in {folder}")
    return found[0]


def stored_zip(out, source, target):
    """`source`, a zip, rewritten with its files stored, not deflated.

    Pyodide's standard library deflates each module on its own (2.5 MB that no server can shrink). Stored,
    it is 9.7 MB that brotli compresses whole to 1.6 MB and gzip to 2.2 MB (measured on Pyodide 314's zip),
    and imports need not inflate. The snapshot is made from this same file: zipimport keeps its offsets.
    """
    if not source.exists():
        fail(f"missing {source}")
    data = io.BytesIO()
    with zipfile.ZipFile(source) as deflated, zipfile.ZipFile(data, 'w', zipfile.ZIP_STORED) as stored:
        for entry in deflated.infolist():
            stored.writestr(entry, deflated.read(entry), compress_type=zipfile.ZIP_STORED)
    if out.put(target, data.getvalue()):
        print(f"  {shown(source)} -> {shown(target)} (stored, {target.stat().st_size / 1e6:.1f} MB)")
