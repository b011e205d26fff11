"""A .gz and a .br beside each text or wasm file of dist/, for `serve` and for hosts that can send them. A .br
that a build on this machine made for the same bytes comes from the build cache (kept.py)."""

import functools
import gzip
import hashlib
import os
import subprocess
from pathlib import Path

from ..paths import ROOT
from . import kept
from .tools import HERE, fail

KIND, MOST = 'brotli', 600  # in the build cache (kept.py): a build's worth is about 100 files, 15 MB

COMPRESSIBLE = {'.html', '.css', '.js', '.mjs', '.json', '.wasm', '.svg', '.py', '.md', '.map', '.bin', '.zip'}


def compress(dist):
    """Only where one is missing or older than its file: a copied build keeps its compressed files, and a
    file rewritten since the last build gets new ones."""
    dist = Path(dist)
    sources = [path for path in sorted(dist.rglob('*')) if path.suffix in COMPRESSIBLE and path.is_file()]

    def stale(path, suffix):
        compressed = Path(f"{path}{suffix}")
        return not compressed.is_file() or compressed.stat().st_mtime_ns < path.stat().st_mtime_ns

    keys = {path: brotli_key(path) for path in sources if stale(path, '.br')}
    brotli = [path for path, key in keys.items() if not from_cache(path, key)]
    # Brotli at quality 11 takes about a minute for the snapshot alone: Node compresses in one process per
    # core (the largest files spread over them) while Python writes the .gz files.
    processes = [
        subprocess.Popen(['node', str(HERE / 'brotli.mjs'), *map(str, group)], cwd=ROOT)
        for group in spread(brotli, os.cpu_count() or 1)
        if group
    ]
    if processes:
        print(f"$ node: brotli for {len(brotli)} files in {len(processes)} processes")
    try:
        for path in sources:
            if stale(path, '.gz'):
                # Written beside it, then renamed: serve never sends a half-written .gz.
                partial = Path(f"{path}.gz.partial")
                partial.write_bytes(gzip.compress(path.read_bytes(), compresslevel=9, mtime=0))
                partial.replace(f"{path}.gz")
        failed = [process.wait() for process in processes]
        if not any(failed):
            for path in brotli:
                kept.keep(KIND, keys[path], Path(f"{path}.br").read_bytes(), MOST)
    finally:
        for process in processes:  # none is left writing into dist/ after an error here
            process.kill()
            process.wait()
        for partial in dist.rglob('*.partial'):
            partial.unlink()
    if any(failed):
        fail("node could not write the .br files (see above)")


def brotli_key(path):
    """A .br's name in the build cache: a hash of the file, the program and Node's version (its zlib's)."""
    digest = hashlib.sha256((HERE / 'brotli.mjs').read_bytes() + node_version().encode() + b'\0')
    digest.update(path.read_bytes())
    return f"{digest.hexdigest()[:32]}.br"


@functools.cache
def node_version():
    return subprocess.run(['node', '--version'], capture_output=True, text=True, check=True).stdout


def from_cache(path, key):
    """Writes `path`'s .br from the build cache if a build on this machine made it (`key`: brotli_key(path)); whether
    it did."""
    data = kept.read(KIND, key)
    if data is None:
        return False
    partial = Path(f"{path}.br.partial")
    partial.write_bytes(data)
    partial.replace(f"{path}.br")
    return True


def spread(paths, count):
    """`paths` in `count` groups of about equal bytes, the largest first."""
    groups = [[] for _ in range(count)]
    sizes = [0] * count
    for path in sorted(paths, key=lambda p: p.stat().st_size, reverse=True):
        smallest = sizes.index(min(sizes))
        groups[smallest].append(path)
        sizes[smallest] += path.stat().st_size
    return groups
