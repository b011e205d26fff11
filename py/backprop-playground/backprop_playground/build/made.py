"""A step's output kept in .cache/made/ with what it was made from, so that a build with nothing changed runs
no program: pip, esbuild and Workbox run again only for a step one of whose inputs changed.

A step is known by its name. Its key is a hash of the bytes (never the times) of what it read: the files
given up front (a package's folder, the files a manifest lists, the build's own module that runs it) and those
the program said it read (esbuild's metafile). The record of the last make is .cache/made/NAME.json; its output
is .cache/made/NAME/KEY. A make during which an input changed (a given file's bytes differ after it, or a file
the program read was modified after it started) is not recorded, and runs again the next time.
"""
import hashlib
import json
import shutil
import tempfile
import time
from pathlib import Path

from ..paths import CACHE, ROOT

FOLDER = CACHE / 'made'


def made(name, given, make):
    """The bytes of step `name`'s output (a name without a slash).

    `given`: strings, bytes and files that the output is made from, hashed on every call (a file's bytes, not its
    name: give the name as a string where it matters). `make(target)` writes the output to `target` and
    returns the further files it read; it runs only when the last make's inputs are not all as they were."""
    record = FOLDER / f"{name}.json"
    try:
        last = json.loads(record.read_text())
        if key(given, last['read']) == last['key']:
            return (FOLDER / name / last['key']).read_bytes()
    except (OSError, ValueError, KeyError, TypeError):  # none yet, or one a stopped build left half-written
        pass
    outputs = FOLDER / name
    outputs.mkdir(parents=True, exist_ok=True)
    before, started = digest(given), time.time_ns()
    with tempfile.TemporaryDirectory(dir=outputs, suffix='.partial') as folder:  # a test may make it as a build does
        partial = Path(folder) / 'output'
        read = sorted({relative(path) for path in make(partial)})
        data = partial.read_bytes()
        if digest(given) != before or edited_since(started, read):
            return data  # what it read may not be what the key would say it read: made again next time
        made_key = key(given, read, given_digest=before)
        for old in outputs.iterdir():  # one output a step: the last
            if old.suffix != '.partial':
                old.unlink(missing_ok=True)
        partial.replace(outputs / made_key)
    written = Path(folder).with_suffix('.json')
    written.write_text(json.dumps({'key': made_key, 'read': read}, indent=1))
    written.replace(record)
    return data


def edited_since(started, read):
    """Whether a file the program said it read was modified after it started (then it may have read either)."""
    return any((ROOT / path).is_file() and (ROOT / path).stat().st_mtime_ns >= started for path in read)


def key(given, read, given_digest=None):
    """The hash of `given` (or its `given_digest`) and of the files `read`, by path and bytes."""
    return digest([Path(__file__),  # a record is only as good as the rules that wrote it
                   given_digest or digest(given), *(item for path in read for item in (path, ROOT / path))])[:16]


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


def forget():
    """`build --full`: every step makes its output anew."""
    shutil.rmtree(FOLDER, ignore_errors=True)
