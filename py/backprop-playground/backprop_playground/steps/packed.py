"""The packed runtime, pyodide/runtime.zst: the standard library, the wasm and the snapshot's pieces in one
zstd stream, for browsers that are not offered brotli (web/session/packed-runtime.js).

zstd at level 22 (its window, 128 MB, spans all three files): the snapshot holds the wasm's data segments,
so the three shrink together to 7.5 MB, against 11.8 MB as gzip and 8.4 MB as brotli, and decode in about
65 ms (brotli's decoder in wasm took 750 ms here). Measured on Pyodide 314's files. Each part starts at a
multiple of 16 bytes: Pyodide reads the snapshot through a Uint32Array, which needs an aligned offset.
"""

import hashlib
from concurrent.futures import ThreadPoolExecutor

from ..paths import NODE_MODULES
from . import kept
from .pyodide import STDLIB
from .tools import HERE, node

PACKED = 'pyodide/runtime.zst'
FILES = [f'pyodide/{STDLIB}', 'pyodide/pyodide.asm.wasm']  # then the snapshot's pieces
PROGRAM = 'pack-runtime.mjs'
DECODER = 'vendor/zstd.wasm'  # web.py copies it
KIND, MOST = 'packed', 4  # in the build cache (kept.py): each about 7.5 MB


def pack_runtime(out, snapshot):
    """Starts writing PACKED, made again only when a part or the program changed (zstd takes about 20 s of one
    core, which the brotli of compress.py shares with it); returns build.json's entry and `finish()`, which waits
    for the file and writes it. `snapshot`: the snapshot's pieces."""
    parts = [*FILES, *snapshot]
    digest = hashlib.sha256((HERE / PROGRAM).read_bytes())
    digest.update((NODE_MODULES / '@bokuweb' / 'zstd-wasm' / 'package.json').read_bytes())  # the encoder's version
    for part in parts:
        digest.update((out.dist / part).read_bytes())
    pool = ThreadPoolExecutor(max_workers=1, thread_name_prefix='packed runtime')
    packing = pool.submit(
        kept.kept_or_made,
        KIND,
        f"{digest.hexdigest()[:16]}.zst",
        MOST,
        lambda target: node(
            PROGRAM, target, *(out.dist / part for part in parts), label='node: zstd for the packed runtime'
        ),
    )
    pool.shutdown(wait=False)

    def finish():
        data, _ = packing.result()  # raises what the thread raised, a failed program's SystemExit too
        out.put(out.dist / PACKED, data)
        print(f"  {PACKED}: {(out.dist / PACKED).stat().st_size / 1e6:.1f} MB")

    placed, offset = [], 0
    for part in parts:
        size = (out.dist / part).stat().st_size
        placed.append({'path': part, 'offset': offset, 'size': size})
        offset += -(-size // 16) * 16
    return {'file': PACKED, 'decoder': DECODER, 'size': offset, 'parts': placed}, finish
