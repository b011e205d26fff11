"""The built site in one file: a zip for a USB stick or any static server, and the wheel a teacher installs
with pip (the site and its server, no Node needed)."""

import re
import shutil
import sys
import tempfile
import zipfile
from pathlib import Path

from ..paths import DIST, PY, ROOT
from .tools import run

ZIP = ROOT / 'backprop-playground.zip'
PACKAGE = PY / 'backprop-playground'


def zip_site(dist=DIST):
    """One zip of the built site, in a folder of its own; returns its path."""
    with zipfile.ZipFile(ZIP, 'w', zipfile.ZIP_DEFLATED) as archive:
        for path in sorted(dist.rglob('*')):
            if path.is_file():
                archive.write(path, Path(ZIP.stem) / path.relative_to(dist))
    print(f"packed {dist.relative_to(ROOT)}/ into {ZIP.name}: {ZIP.stat().st_size / 1e6:.1f} MB")
    return ZIP


def wheel(dist=DIST, into=ROOT):
    """backprop_playground-VERSION-py3-none-any.whl in `into`: this package with the built site as its
    site/ folder, built by pip from a copy (the checkout's own package has no site, so that an editable
    install needs no build). Returns its path."""
    with tempfile.TemporaryDirectory() as folder:
        stage = Path(folder) / 'backprop-playground'
        shutil.copytree(PACKAGE, stage, ignore=shutil.ignore_patterns('__pycache__', '*.pyc', 'site'))
        shutil.copytree(dist, stage / 'backprop_playground' / 'site', ignore=shutil.ignore_patterns('*.partial'))
        built = Path(folder) / 'wheel'
        run(
            sys.executable,
            '-m',
            'pip',
            'wheel',
            '--quiet',
            '--no-deps',
            '--wheel-dir',
            built,
            stage,
            label=f"pip wheel {PACKAGE.relative_to(ROOT)} with {dist.relative_to(ROOT)}/ as its site",
        )
        (made,) = built.glob('backprop_playground-*.whl')
        target = Path(into) / made.name
        shutil.move(made, target)
    print(f"wrote {target.name}: {target.stat().st_size / 1e6:.1f} MB")
    return target


def version():
    return re.search(r'^version = "(.+)"$', (PACKAGE / 'pyproject.toml').read_text(), re.M).group(1)
