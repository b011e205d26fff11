"""web/ into dist/: every file at its place, pages with the Content-Security-Policy's <meta>, and the
vendored libraries the pages load as they are (viz.js, DOMPurify, zstd's decoder)."""

from ..paths import NODE_MODULES, WEB
from ..policy import csp_meta, policy_for
from .output import shown
from .tools import fail

VENDORED = {
    NODE_MODULES / '@viz-js' / 'viz' / 'dist' / 'viz.js': 'vendor/viz.js',
    NODE_MODULES
    / 'dompurify'
    / 'dist'
    / 'purify.es.mjs': 'vendor/purify.es.mjs',  # graph-renderer.js cleans graphs with it
    NODE_MODULES
    / '@bokuweb'
    / 'zstd-wasm'
    / 'dist'
    / 'web'
    / 'zstd.wasm': 'vendor/zstd.wasm',  # unpack-worker.js decodes with it
}
CHARSET = '<meta charset="utf-8">'


def copy_web(out, bundled):
    """Every file of web/ but the sources in `bundled` (bundles.py makes those)."""
    for source in sorted(WEB.rglob('*')):
        path = source.relative_to(WEB)
        if source.is_file() and source.suffix == '.html':
            copy_page(out, source, out.dist / path)
        elif source.is_file() and path.as_posix() not in bundled:
            out.copy(source, out.dist / path)
    for source, target in VENDORED.items():
        out.copy(source, out.dist / target)


def copy_page(out, source, target):
    """An HTML page with the policy's <meta> right after its charset, before anything it could govern."""
    page = source.read_text(encoding='utf-8')
    if page.count(CHARSET) != 1:
        fail(f"{source} needs exactly one {CHARSET} (the CSP <meta> goes after it)")
    if out.put(target, page.replace(CHARSET, f"{CHARSET}\n  {csp_meta(policy_for(target.name))}").encode('utf-8')):
        print(f"  {shown(source)} -> {shown(target)} (with the CSP <meta>)")
