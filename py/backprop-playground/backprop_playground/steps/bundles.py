"""The sources that esbuild bundles with their npm packages or the modules they import, each written beside its
source's place in dist/ (editor.js → cell/editor.bundle.js), or in its place (IN_PLACE); the service worker is bundled
by service_worker.py.
Other bundles (*.bundle.js) and the npm files copied into vendor/ (DOMPurify) stay apart: a bundle imports them
by their URL, when it needs them."""

from ..paths import WEB
from .tools import esbuild

SOURCES = [
    'cell/editor.js',  # with CodeMirror
    'output/plot.js',  # with Observable Plot, loaded with the first chart
    'notebook/markdown.js',  # with markdown-it, for notebook.html only
    'session/unpack-worker.js',  # with zstd's decoder, for the packed runtime
    'hosts/playground-page.js',  # the main page's modules, in one file
    'hosts/article-cells.js',  # embed.js's modules, in one file
    'hosts/notebook-page.js',  # each other page's modules, in one file
    'hosts/embed-page.js',
    'hosts/room-page.js',
    'hosts/teacher-board.js',
    'hosts/course-page.js',
]
# Bundled under their own name, unminified (a trace names their functions; tests edit lines of them as esbuild
# prints them, which may rename a name that another module's shadows).
IN_PLACE = [
    'session/python-worker.js',  # the Python worker's modules and Pyodide's loader, one request instead of three levels
]


def bundle_modules(out):
    for source in SOURCES:
        bundle = source.removesuffix('.js') + '.bundle.js'
        out.put(
            out.dist / bundle,
            esbuild(
                bundle.replace('/', '-'),
                WEB / source,
                '--format=esm',
                '--minify',
                '--external:*.bundle.js',
                '--external:../vendor/*',
                '--loader:.py=text',  # an example that a page opens with, as its text (hosts/examples.js)
            ),
        )
    for source in IN_PLACE:
        # Pyodide's loader imports Node's modules where it runs in Node: left as they are, never reached in a browser.
        out.put(
            out.dist / source,
            esbuild(source.replace('/', '-'), WEB / source, '--format=esm', '--external:node:*', '--external:ws'),
        )
