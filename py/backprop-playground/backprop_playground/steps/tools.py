"""The programs a build runs: npm, node, pip and esbuild, each command printed before it runs."""

import json
import shutil
import subprocess
import sys
import tempfile
from pathlib import Path

from ..paths import NODE_MODULES, ROOT
from .made import made

HERE = Path(__file__).resolve().parent  # the build steps' own Node programs (.mjs) sit beside them
ESBUILD = NODE_MODULES / '.bin' / 'esbuild'


def fail(message):
    sys.exit(f"build.py: {message}")


def run(*command, label=None, **kwargs):
    print('$', label or ' '.join(str(c) for c in command), flush=True)
    subprocess.run([str(c) for c in command], check=True, cwd=ROOT, **kwargs)


def esbuild(name, source, *options):
    """esbuild's bundle of `source` (bytes), made again only when a file it read (its metafile's inputs, npm
    packages' files included), the options, the npm lock or this command changed. `name`: the step's, for
    made.py. What the metafile does not list (a new file that an import would now resolve to) needs --full."""

    def make(target):
        with tempfile.TemporaryDirectory() as folder:
            meta = Path(folder) / 'meta.json'
            run(
                ESBUILD,
                source,
                '--bundle',
                '--log-level=warning',
                *options,
                f"--metafile={meta}",
                f"--outfile={target}",
            )
            return json.loads(meta.read_text())['inputs']  # paths relative to ROOT, run()'s working folder

    return made(name, [Path(__file__), ROOT / 'package.json', ROOT / 'package-lock.json', *options], make)


def node(program, *args, label=None):
    """Runs one of the build's Node programs (`program`, a .mjs file beside this one)."""
    run('node', HERE / program, *args, label=label or f"node: {program}")


def install_npm_packages():
    marker = NODE_MODULES / '.package-lock.json'
    lock = ROOT / 'package-lock.json'
    if marker.exists() and marker.stat().st_mtime >= max(lock.stat().st_mtime, (ROOT / 'package.json').stat().st_mtime):
        return
    if not shutil.which('npm'):
        fail("npm was not found; install Node.js 18 or newer (it brings npm) and run this again")
    run('npm', 'ci' if lock.exists() else 'install', '--no-audit', '--no-fund')
