"""The npm package that a CDN serves (`python build.py package`, build step package.py), as npm installed it from
the tarball: what it holds, within jsDelivr's limits, and what it says of itself."""

import json
import re

from backprop_playground.steps.archive import version
from support.cdn import MAX_FILE

# A module named by import/export … from "…", import("…"), import "…", or new URL("…", import.meta.url) (a worker)
IMPORT = re.compile(
    r'''(?:\bimport|\bfrom)\s*(?:\(\s*)?["'](\.{1,2}/[^"']+)["']|\bnew\s+URL\(\s*["'](\.{1,2}/[^"']+)["']\s*,\s*import\.meta\.url'''
)


def test_the_package_holds_what_embed_js_loads_within_a_cdns_limits(cdn_package, site):
    folder, info = cdn_package
    files = [path for path in folder.rglob('*') if path.is_file()]
    assert max(path.stat().st_size for path in files) <= MAX_FILE
    assert sum(path.stat().st_size for path in files) < 150 * 10**6
    assert not [p for p in files if p.suffix in ('.html', '.gz', '.br') or p.name == 'sw.js'], 'a CDN serves no page'
    build = json.loads((folder / 'build.json').read_text())
    for path in [
        *(f"wheels/{name}" for name in build['wheels']),
        build['sitePackages']['files'],
        *build['snapshot']['files'],
        build['packed']['file'],
        *(part['path'] for part in build['packed']['parts']),
        'pyodide/pyodide.mjs',
        'pyodide/pyodide.asm.mjs',
        'vendor/viz.js',
        'cell/editor.bundle.js',
        'session/unpack-worker.bundle.js',
        'examples/neuron.py',
    ]:
        assert (folder / path).is_file(), path
    # Every module that embed.js reaches by a relative import, and each worker it starts, is in the package.
    seen, todo = set(), [folder / 'embed.js']
    while todo:
        module = todo.pop()
        if module in seen:
            continue
        seen.add(module)
        assert module.is_file(), f"{module.relative_to(folder)} is imported but not in the package"
        for target in (imported or worker for imported, worker in IMPORT.findall(module.read_text())):
            if target.endswith(('.js', '.mjs')):
                todo.append((module.parent / target).resolve())
    reached = {module.relative_to(folder.resolve()).as_posix() for module in seen}
    assert {
        'hosts/article-cells.bundle.js',
        'cell/editor.bundle.js',
        'session/python-worker.js',
        'session/render-worker.js',
        'vendor/viz.js',
        'vendor/purify.es.mjs',
    } <= reached, reached


def test_its_package_json_and_readme_say_what_it_is_and_how_to_use_it(cdn_package):
    folder, info = cdn_package
    assert info['name'] == 'backprop-playground' and info['version'] == version() and info['license'] == 'MIT'
    assert info['jsdelivr'] == info['unpkg'] == info['exports']['.'] == './embed.js'
    assert set(info['files']) == {path.relative_to(folder).parts[0] for path in folder.rglob('*') if path.is_file()} - {
        'package.json',
        'README.md',
    }
    readme = (folder / 'README.md').read_text()
    line = f'<script type="module" src="https://cdn.jsdelivr.net/npm/backprop-playground@{version()}/embed.js?lang=python"></script>'
    assert line in readme
    # A CDN shows HTML as text: the package's copy says it has no pages to link to.
    assert 'const SERVES_PAGES = false;' in (folder / 'embed.js').read_text()
