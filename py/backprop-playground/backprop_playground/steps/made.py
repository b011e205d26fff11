"""A step's output kept in the machine's build cache (kept.py) with what it was made from, so that a build with
nothing changed runs no program: pip, esbuild and Workbox run again only for a step one of whose inputs changed,
and a fresh clone runs none that a build of the same inputs on this machine already ran.

A step is known by its name. Its key is a hash of the bytes (never the times) of what it read: the files
given up front (a package's folder, the files a manifest lists, the build's own module that runs it) and those
the program said it read (esbuild's metafile). Each make is kept as made/NAME/KEY: a line with the list of the
files it read, then the output. A make during which an input changed (a given file's bytes differ after it, or a
file the program read was modified after it started) is not kept, and runs again the next time.
"""

import hashlib
import json
import tempfile
import time
from pathlib import Path

from ..paths import ROOT
from . import kept

KIND = 'made'
MOST = 8  # makes kept of each step: a few branches' worth


def made(name, given, make):
    """The bytes of step `name`'s output (a name without a slash).

    `given`: strings, bytes and files that the output is made from, hashed on every call (a file's bytes, not its
    name: give the name as a string where it matters). `make(target)` writes the output to `target` and
    returns the further files it read; it runs only when no kept make's inputs are all as they are now."""
    before = digest(given)
    found = kept_make(name, before)
    if found is not None:
        return found
    started = time.time_ns()
    with tempfile.TemporaryDirectory() as folder:
        partial = Path(folder) / 'output'
        read = sorted({relative(path) for path in make(partial)})
        data = partial.read_bytes()
    if digest(given) != before or edited_since(started, read):
        return data  # what it read may not be what the key would say it read: made again next time
    header = json.dumps({'read': read}).encode() + b'\n'
    kept.keep(f"{KIND}/{name}", key(given, read, given_digest=before), header + data, MOST)
    return data


def kept_make(name, given_digest):
    """The output of a kept make of step `name` whose inputs are as they are now (`given` by its digest), or None."""
    try:
        entries = sorted(
            kept.folder(f"{KIND}/{name}").iterdir(), key=lambda path: path.stat().st_mtime_ns, reverse=True
        )
    except OSError:
        return None
    for entry in entries:
        try:
            with entry.open('rb') as file:
                read = json.loads(file.readline())['read']
                if key(None, read, given_digest) == entry.name and kept.find(f"{KIND}/{name}", entry.name):
                    return file.read()
        except (OSError, ValueError, KeyError, TypeError):  # a partial file, or one deleted as it was read
            continue
    return None


def edited_since(started, read):
    """Whether a file the program said it read was modified after it started (then it may have read either)."""
    return any((ROOT / path).is_file() and (ROOT / path).stat().st_mtime_ns >= started for path in read)


def key(given, read, given_digest=None):
    """The hash of `given` (or its `given_digest`) and of the files `read`, by path and bytes."""
    return digest(
        [
            Path(__file__),  # a record is only as good as the rules that wrote it
            given_digest or digest(given),
            *(item for path in read for item in (path, ROOT / path)),
        ]
    )[:16]


def digest(parts):
    hashed = hashlib.sha256()
    for part in parts:
        if isinstance(part, Path):
            tagged(hashed, b'file', part.read_bytes()) if part.is_file() else tagged(hashed, b'missing', b'')
        elif isinstance(part, bytes):
            tagged(hashed, b'bytes', part)
        else:
            tagged(hashed, b'text', str(part).encode())
    return hashed.hexdigest()


def tagged(hashed, kind, data):
    hashed.update(b'\0%s\0%d\0' % (kind, len(data)))
    hashed.update(data)


def relative(path):
    """A path as a record holds it: relative to the checkout (a record survives the checkout's move). A
    relative `path` is relative to the checkout too, as programs that run() runs there give them."""
    path = (ROOT / path).resolve()
    return path.relative_to(ROOT).as_posix() if path.is_relative_to(ROOT) else path.as_posix()
