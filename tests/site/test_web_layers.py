"""web/'s folders in layers: a module imports only from its own folder and those below it, statically or with
import(). The order is written once, in docs/development.md ("Layers of web/"), and read from there."""

import re

from support import ROOT

WEB = ROOT / 'web'
LAYERS_LINE = re.compile(r'^\*\*Layers of `web/`\*\*, from the bottom: (.+)$', re.M)
# A module named by import/export … from "…", import("…"), import "…" or a worker's new URL("….js", import.meta.url)
IMPORT = re.compile(
    r'''(?:\bfrom\s*|\bimport\s*\(\s*|\bimport\s*|\bnew\s+URL\(\s*)["'`](\.{1,2}/[^"'`]+\.m?js)["'`]''', re.M
)
PAGES = 'pages'  # the files at web/'s top: the pages' own scripts and embed.js


def layers():
    """The folders from the bottom up, as docs/development.md lists them."""
    found = LAYERS_LINE.search((ROOT / 'docs' / 'development.md').read_text())
    assert found, 'docs/development.md says nowhere "**Layers of `web/`**, from the bottom: `a` · `b` · …"'
    return re.findall(r'`([\w-]+)/?`', found.group(1))


def layer_of(path, web):
    parts = path.relative_to(web).parts
    return parts[0] if len(parts) > 1 else PAGES


def upward_imports(web, order):
    """(importer, imported) for each import in `web` that reaches a folder above the importer's, or one `order`
    does not name."""
    rank = {name: i for i, name in enumerate(order)}
    found = []
    for path in sorted(web.rglob('*.js')):
        if layer_of(path, web) == 'vendor' or path.name.endswith('.bundle.js'):
            continue
        for target in IMPORT.findall(path.read_text()):
            imported = (path.parent / target).resolve()
            if not imported.is_relative_to(web.resolve()):
                continue
            mine, theirs = layer_of(path, web), layer_of(imported, web.resolve())
            if mine != theirs and rank.get(theirs, len(order)) >= rank.get(mine, -1):
                found.append((path.relative_to(web).as_posix(), imported.relative_to(web.resolve()).as_posix()))
    return found


def test_every_folder_of_web_has_its_layer():
    folders = {path.name for path in WEB.iterdir() if path.is_dir() and any(path.rglob('*.js'))}
    assert folders | {PAGES} == set(layers()) - {'vendor', 'pyodide'}  # those two the build copies in from npm


def test_no_import_runs_up_a_layer():
    assert upward_imports(WEB, layers()) == []


def test_an_upward_import_is_found_however_it_is_written(tmp_path):
    for path, text in {
        'low/a.js': 'import { b } from "../high/b.js";\n',  # up
        'low/c.js': 'const later = () => import("../high/b.js");\n',  # up, deferred
        'low/d.js': 'import "../high/b.js";\n',  # up, for its effects
        'low/f.js': 'new Worker(new URL("../high/b.js", import.meta.url), { type: "module" });\n',  # up, a worker
        'high/b.js': 'export { a } from "../low/a.js";\n',  # down
        'high/e.js': 'import { b } from "./b.js";\n',  # within
        'page.js': 'import { b } from "./high/b.js";\n',  # down, from the pages
    }.items():
        (tmp_path / path).parent.mkdir(exist_ok=True)
        (tmp_path / path).write_text(text)
    assert upward_imports(tmp_path, ['low', 'high', PAGES]) == [
        ('low/a.js', 'high/b.js'),
        ('low/c.js', 'high/b.js'),
        ('low/d.js', 'high/b.js'),
        ('low/f.js', 'high/b.js'),
    ]


WORKERS = [
    'session/python-worker.js',
    'session/render-worker.js',
    'session/unpack-worker.js',
    'offline/nudge-worker.js',
]
# A top-level statement that awaits: our modules start nothing but their top-level statements at column 0.
TOP_LEVEL_AWAIT = re.compile(r'^(?![\s/*}]|(?:async\s+)?function\b)[^\n]*\bawait\b', re.M)
STATIC_IMPORT = re.compile(
    r'''^(?:import|export)\b[^;]*?\bfrom\s*["'](\.{1,2}/[^"']+\.m?js)["']|^import\s*["'](\.{1,2}/[^"']+\.m?js)["']''',
    re.M,
)


def awaiting_modules(entry, web):
    """The modules that `entry` imports statically, itself and at any depth, which await at their top level."""
    seen, stack, found = set(), [(web / entry).resolve()], []
    while stack:
        path = stack.pop()
        if path in seen or not path.is_file():
            continue
        seen.add(path)
        text = path.read_text()
        if TOP_LEVEL_AWAIT.search(text):
            found.append(path.relative_to(web.resolve()).as_posix())
        stack += [(path.parent / (a or b)).resolve() for a, b in STATIC_IMPORT.findall(text)]
    return sorted(found)


def test_no_worker_loads_a_module_that_awaits_as_it_loads():
    """A module worker whose modules await while they load misses the messages posted to it meanwhile (seen: the
    Python worker, importing the page's catalogue, never started in French one time in three)."""
    for worker in WORKERS:
        assert awaiting_modules(worker, WEB) == [], worker
    assert 'i18n/messages.js' in awaiting_modules('hosts/main.js', WEB)  # a page's may: the check sees them


def test_a_top_level_await_is_found_however_it_is_written(tmp_path):
    for path, text in {
        'w.js': 'import { a } from "./a.js";\nexport { b } from "./b.js";\nimport "./c.js";\nimport { d } from "./d.js";\n',
        'a.js': 'export const a = await load();\n',
        'b.js': 'async function f() {\n  await g();\n}\nexport const b = 1;\n',
        'c.js': 'await ready;\n',
        'd.js': 'export const d = ready ? null : await load();\n',
    }.items():
        (tmp_path / path).write_text(text)
    assert awaiting_modules('w.js', tmp_path) == ['a.js', 'c.js', 'd.js']


# A URL made from the module's own (new URL(…, import.meta.url), import.meta.resolve(…)), a module import()ed,
# or a bundle imported (esbuild leaves *.bundle.js as written), by a path that does not begin with "..".
FOLDER_RELATIVE = re.compile(
    r'''\bnew\s+URL\(\s*["'`](?!\.\.)[^"'`]*["'`]\s*,\s*import\.meta\.url'''
    r'''|\bimport(?:\.meta\.resolve)?\s*\(\s*["'`](?!\.\.)'''
    r'''|\bfrom\s*["'`](?!\.\.)[^"'`]*\.bundle\.js["'`]'''
)


def folder_relative_urls(web):
    return sorted(
        path.relative_to(web).as_posix()
        for path in web.rglob('*.js')
        if layer_of(path, web) not in (PAGES, 'vendor') and FOLDER_RELATIVE.search(path.read_text())
    )


def test_a_module_names_its_sites_files_from_the_sites_root_one_folder_up():
    """hosts/playground-page.bundle.js holds modules of every folder: "../session/python-worker.js" resolves from
    it as from session/, "./python-worker.js" would not (docs/development.md, "Building")."""
    assert folder_relative_urls(WEB) == []


def test_a_url_that_stays_in_its_folder_is_found(tmp_path):
    (tmp_path / 'session').mkdir()
    for name, text in {
        'a.js': 'const w = new URL("./worker.js", import.meta.url);\n',
        'b.js': "const m = () => import('./editor.bundle.js');\n",
        'c.js': 'const w = new URL("../session/worker.js", import.meta.url);\nimport("../cell/x.js");\n',
        'd.js': 'const s = new URL("./sw.js", SITE);\n',
        'e.js': 'const s = new URL("cell.css", import.meta.url);\n',
        'f.js': 'const m = import.meta.resolve("./x.js");\n',
        'g.js': 'import { a } from "./editor.bundle.js";\n',
        'h.js': 'const m = () => import ("./x.js");\nconst b = new URL(`..`, import.meta.url);\n',
        'i.js': 'import { a } from "./local.js";\nimport { b } from "../cell/editor.bundle.js";\n',
    }.items():
        (tmp_path / 'session' / name).write_text(text)
    assert folder_relative_urls(tmp_path) == [f"session/{name}.js" for name in 'abefgh']
