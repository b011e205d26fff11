"""A step's output kept in .cache/made/ with what it was made from, so that a build with nothing changed runs
no program: pip, esbuild and Workbox run again only for a step one of whose inputs changed.

A step is known by its name. Its key is a hash of the bytes (never the times) of what it read: the files
given up front (a package's folder, the files a manifest lists) and those the program said it read (esbuild's
metafile). The record of the last make is .cache/made/NAME.json; its output is .cache/made/NAME/KEY.
"""
import hashlib
import json
import os
import shutil
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
    partial = outputs / f"{os.getpid()}.partial"  # a test may make a step while a build does
    read = sorted({relative(path) for path in make(partial)})
    made_key = key(given, read)
    data = partial.read_bytes()
    for old in outputs.iterdir():  # one output a step: the last
        if old.suffix != '.partial':
            old.unlink(missing_ok=True)
    partial.replace(outputs / made_key)
    written = record.with_name(f"{name}.{os.getpid()}.partial")
    written.write_text(json.dumps({'key': made_key, 'read': read}, indent=1))
    written.replace(record)
    return data


def key(given, read):
    digest = hashlib.sha256()
    for part in [*given, *(item for path in read for item in (path, ROOT / path))]:
        if isinstance(part, Path):
            digest.update(b'\0file\0' if part.is_file() else b'\0missing\0')
            digest.update(part.read_bytes() if part.is_file() else b'')
        elif isinstance(part, bytes):
            digest.update(b'\0bytes\0%d\0' % len(part) + part)
        else:
            digest.update(f"\0text\0{part}".encode())
    return digest.hexdigest()[:16]


def relative(path):
    """A path as a record holds it: relative to the checkout (a record survives the checkout's move). A
    relative `path` is relative to the checkout too, as programs that run() runs there give them."""
    path = (ROOT / path).resolve()
    return path.relative_to(ROOT).as_posix() if path.is_relative_to(ROOT) else path.as_posix()


def forget():
    """`build --full`: every step makes its output anew."""
    shutil.rmtree(FOLDER, ignore_errors=True)
