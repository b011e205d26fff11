"""A Pyodide memory snapshot of Python with the wheels unpacked and the page's runtime imported.

The worker restores it in under a second instead of booting Python (3 s or more). Pyodide's snapshot
options are private: they fit only the exact runtime that made them, so a new one is made whenever the
runtime or a wheel changes (key), under Node with the runtime it ships, and the worker falls back to a
plain boot if restoring fails. A snapshot holds memory, not files: the worker still writes the wheels' files
(wheels/site-packages.json) after restoring it. It is kept in the machine's build cache by its key (kept.py),
since making one takes about 20 s.

Half of it (31.5 MB whole) is memory Python has not used, runs of zero bytes: dist/ holds the rest (16.4 MB), its
extents laid end to end, in files of at most 16 MiB (Cloudflare Pages refuses a file over 25 MiB and jsDelivr one
over 20 MB). The worker puts them back in place in a zero-filled array of the whole's size (build.json's
`extents`: [offset, length] of each); the browser then receives, decodes and copies 15 MB less (a first visit's
Python was ready about 80 ms sooner). The packed runtime carries the pieces as parts too.
"""

import hashlib
import zipfile

from . import kept
from .pyodide import FILES, STDLIB
from .tools import HERE, node

SNAPSHOT = 'pyodide/snapshot.bin'  # the whole, as snapshot.mjs writes it; dist/ has its pieces (piece_name())
PROGRAM = 'snapshot.mjs'
KIND, MOST = 'snapshot', 4  # in the build cache: each about 31 MB
PIECE = 16 * 2**20  # bytes: a multiple of 16, so that each piece starts aligned in the packed runtime too
PAGE = 4096
LEFT_OUT = 64  # pages: a run of at least this many zero pages is left out of the pieces


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


def piece_name(index):
    return SNAPSHOT.replace('.bin', f"-{index + 1}.bin")


def extents(data):
    """[offset, length] of each part of `data` that the pieces hold: all but runs of LEFT_OUT zero pages or more."""
    held, start = [], 0
    zeros_from = None  # where the run of zero pages before `offset` began
    for offset in [*range(0, len(data), PAGE), len(data)]:
        page = data[offset : offset + PAGE]
        if page and not any(page):
            zeros_from = offset if zeros_from is None else zeros_from
            continue
        if zeros_from is not None and offset - zeros_from >= LEFT_OUT * PAGE:
            if zeros_from > start:
                held.append([start, zeros_from - start])
            start = offset
        zeros_from = None
    if len(data) > start:
        held.append([start, len(data) - start])
    return held


def make_snapshot(out, wheels):
    """Writes the snapshot's pieces; returns build.json's entry: {files, size, extents}."""
    name = f"{key(out.dist, wheels)}.bin"
    data, made = kept.kept_or_made(
        KIND, name, MOST, lambda target: node(PROGRAM, out.dist, target, *wheels, label='node: Pyodide memory snapshot')
    )
    if not made:
        print(f"  {SNAPSHOT}: the runtime and the wheels are unchanged, so the snapshot is the one kept ({name})")
    held = extents(data)
    kept_bytes = b''.join(data[offset : offset + length] for offset, length in held)
    files = []
    for index, start in enumerate(range(0, len(kept_bytes), PIECE)):
        files.append(piece_name(index))
        out.put(out.dist / files[-1], kept_bytes[start : start + PIECE])
    print(f"  {SNAPSHOT}: {len(data) / 1e6:.1f} MB, {len(kept_bytes) / 1e6:.1f} MB of it in {', '.join(files)}")
    return {'files': files, 'size': len(data), 'extents': held}
