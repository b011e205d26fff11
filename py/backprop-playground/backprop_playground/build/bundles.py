"""The sources that esbuild bundles with their npm packages, each written beside its source's place in dist/
(editor.js → cell/editor.bundle.js); the service worker is bundled by service_worker.py."""
from ..paths import CACHE, WEB
from .tools import ESBUILD, run

SOURCES = [
    'cell/editor.js',  # with CodeMirror
    'output/plot.js',  # with Observable Plot, loaded with the first chart
    'notebook/markdown.js',  # with markdown-it, for notebook.html only
    'session/unpack-worker.js',  # with zstd's decoder, for the packed runtime
]


def bundle_modules(out):
    for source in SOURCES:
        bundle = source.removesuffix('.js') + '.bundle.js'
        made = CACHE / 'bundles' / bundle
        run(ESBUILD, WEB / source, '--bundle', '--format=esm', '--minify', '--log-level=warning', f"--outfile={made}")
        out.put(out.dist / bundle, made.read_bytes())
