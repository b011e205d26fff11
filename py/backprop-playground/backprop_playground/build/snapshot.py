"""A Pyodide memory snapshot of Python with the wheels unpacked and the page's runtime imported.

The worker restores it in under a second instead of booting Python (3 s or more). Pyodide's snapshot
options are private: they fit only the exact runtime that made them, so a new one is made whenever the
runtime or a wheel changes (key), under Node with the runtime it ships, and the worker falls back to a
plain boot if restoring fails. A snapshot holds memory, not files: the worker still unpacks the wheels after
restoring it. It is kept in .cache/snapshot/ by its key, since making one takes about 20 s.
"""
import hashlib
import shutil
import zipfile

from ..paths import CACHE, ROOT
from .pyodide import FILES, STDLIB
from .tools import HERE, node

SNAPSHOT = 'pyodide/snapshot.bin'  # python-worker.js restores Python from it
PROGRAM = 'snapshot.mjs'


def key(dist, wheels):
    """What the snapshot is made from: the runtime, the standard library, the wheels' files (not their
    METADATA, which holds each package's README) and the program that makes it."""
    digest = hashlib.sha256((HERE / PROGRAM).read_bytes())
    for name in [*FILES, STDLIB, 'pyodide-lock.json']:
        digest.update((dist / 'pyodide' / name).read_bytes())
    for name in wheels:
        with zipfile.ZipFile(dist / 'wheels' / name) as wheel:
            for entry in sorted(wheel.namelist()):
                if not entry.endswith(('.dist-info/METADATA', '.dist-info/RECORD')):
                    digest.update(entry.encode() + wheel.read(entry))
    return digest.hexdigest()[:16]


def make_snapshot(out, wheels):
    cached = CACHE / 'snapshot' / f"{key(out.dist, wheels)}.bin"
    if not cached.is_file():
        node(PROGRAM, out.dist, SNAPSHOT, *wheels, label='node: Pyodide memory snapshot')
        cached.parent.mkdir(parents=True, exist_ok=True)
        for old in cached.parent.glob('*.bin'):
            old.unlink()
        shutil.copyfile(out.dist / SNAPSHOT, cached)
    else:
        print(f"  {SNAPSHOT}: the runtime and the wheels are unchanged, so the snapshot is {cached.relative_to(ROOT)}")
    out.put(out.dist / SNAPSHOT, cached.read_bytes())
    print(f"  {SNAPSHOT}: {(out.dist / SNAPSHOT).stat().st_size / 1e6:.1f} MB")
