"""The documentation site: docs/ built by MkDocs into dist/docs/, beside the playground, so that its Python
examples load ../embed.js and run in place. A site build keeps dist/docs/ as the last docs build left it."""

import importlib.util
import sys

from ..paths import ROOT
from .tools import fail, run

FOLDER = 'docs'  # in dist/


def build_docs():
    if importlib.util.find_spec('mkdocs') is None:
        fail(
            "the documentation is built with MkDocs: pip install mkdocs (it is in the test extras), then run this again"
        )
    run(
        sys.executable,
        '-m',
        'mkdocs',
        'build',
        '--strict',
        '--quiet',
        '--config-file',
        ROOT / 'mkdocs.yml',
        label='mkdocs build --strict: docs/ into dist/docs/',
    )
    return ROOT / 'dist' / FOLDER / 'index.html'
