"""What the build's steps made, kept in the machine's build cache (paths.build_cache()) under a name that is a
hash of everything it was made from: the inputs' bytes and the program that made it. Every checkout on the
machine shares it, so a fresh clone's build takes what an earlier build of the same inputs made, and an entry
is never stale: a changed input or program has another name. Each kind keeps its entries used last; `build
--full` empties the cache (forget()).

Writes go to a partial file that is then renamed, so two builds at once (two checkouts) never see half an
entry; an entry deleted under a reader (another build pruning) is read as missing and made again.
"""

import os
import shutil
import tempfile
import time
from pathlib import Path

from ..paths import build_cache


def folder(kind):
    return build_cache() / kind


def find(kind, name):
    """The kept entry's path, marked as used, or None."""
    path = folder(kind) / name
    try:
        os.utime(path)
    except OSError:
        return None
    return path


def read(kind, name):
    """The kept entry's bytes, or None."""
    path = find(kind, name)
    try:
        return path.read_bytes() if path else None
    except OSError:
        return None


def kept_or_made(kind, name, most, make):
    """The kept entry `name`, or what `make(target)` writes to a file, kept; and whether it was made now."""
    data = read(kind, name)
    if data is not None:
        return data, False
    with tempfile.TemporaryDirectory() as folder:
        target = Path(folder) / name
        make(target)
        data = target.read_bytes()
    keep(kind, name, data, most)
    return data, True


def keep(kind, name, data, most):
    """Keeps `data` as `name`, and of its kind the `most` entries used last."""
    target = folder(kind) / name
    target.parent.mkdir(parents=True, exist_ok=True)
    partial = target.with_name(f"{target.name}.{os.getpid()}.partial")
    partial.write_bytes(data)
    partial.replace(target)
    prune(target.parent, most)
    return target


def prune(where, most):
    entries = []
    for path in where.iterdir():
        try:
            changed = path.stat().st_mtime_ns
            if not path.name.endswith('.partial'):
                entries.append((changed, path))
            elif changed < time.time_ns() - 86_400 * 10**9:  # a build stopped while it wrote it
                path.unlink()
        except OSError:
            pass
    for _, path in sorted(entries, reverse=True)[most:]:
        shutil.rmtree(path, ignore_errors=True) if path.is_dir() else path.unlink(missing_ok=True)


def forget():
    """`build --full`: every step makes its output anew, in every checkout on this machine."""
    shutil.rmtree(build_cache(), ignore_errors=True)
