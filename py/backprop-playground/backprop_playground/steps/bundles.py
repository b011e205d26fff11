"""The sources that esbuild bundles with their npm packages or the modules they import, each written beside its
source's place in dist/ (editor.js → cell/editor.bundle.js); the service worker is bundled by service_worker.py.
Other bundles (*.bundle.js) stay apart: a bundle imports them by their URL."""

from ..paths import WEB
from .tools import esbuild

SOURCES = [
    'cell/editor.js',  # with CodeMirror
    'output/plot.js',  # with Observable Plot, loaded with the first chart
    'notebook/markdown.js',  # with markdown-it, for notebook.html only
    'session/unpack-worker.js',  # with zstd's decoder, for the packed runtime
    'hosts/playground-page.js',  # the main page's modules, in one file
]


def bundle_modules(out):
    for source in SOURCES:
        bundle = source.removesuffix('.js') + '.bundle.js'
        out.put(
            out.dist / bundle,
            esbuild(bundle.replace('/', '-'), WEB / source, '--format=esm', '--minify', '--external:*.bundle.js'),
        )
