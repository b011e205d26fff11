"""Builds the static site in dist/, a step a module, in the order build() runs them:

    web.py             web/ (pages with the CSP <meta>) and the vendored libraries
    catalogues.py      locales/'s catalogues as the page reads them (JSON), and the pseudo-locale en-XA
    pyodide.py         the Python runtime, the micropip wheel, the standard library stored
    wheels.py          scalargrad, the page's runtime and graphviz, for the page's Python, and their files
                       as one JSON file the worker writes into site-packages
    snapshot.py        the memory snapshot (snapshot.mjs, under Node)
    packed.py          the packed runtime for browsers without brotli (pack-runtime.mjs), made while the
                       steps below run
    bundles.py         esbuild's bundles (the editor, charts, Markdown, the unpacking worker, each page's and
                       the article's modules; the Python worker in its own place)
    service_worker.py  sw.js with its precache manifest (service-worker.mjs)
    compress.py        a .br (brotli.mjs) and a .gz beside each compressible file

A build writes only the files of dist/ whose bytes changed and deletes what the sources no longer make
(output.py). A step that runs a program (pip, esbuild, Workbox, Node, brotli) runs it only when no build on
this machine made its output from the same inputs: what the steps make is kept in the machine's build cache,
which every checkout on it shares (kept.py, made.py). archive.py packs the result
as a zip or as the teacher's wheel; docs.py builds the documentation site into dist/docs/, which a build keeps.
"""

import json
import shutil

try:
    import fcntl
except ImportError:  # Windows: builds are not locked against each other
    fcntl = None

from ..paths import CACHE, DIST, ROOT
from . import bundles, catalogues, compress, docs, kept, packed, pyodide, service_worker, snapshot, web, wheels
from .output import Output
from .tools import install_npm_packages


def build(full=False, dist=DIST):
    """Builds `dist`; with `full`, from nothing (dist and every step's kept output deleted first). One build at a
    time in this checkout (pytest-xdist's workers each ask for one): the second finds the first's work done
    and writes nothing."""
    CACHE.mkdir(exist_ok=True)
    with open(CACHE / 'build.lock', 'w') as lock:
        if fcntl:
            fcntl.flock(lock, fcntl.LOCK_EX)
        build_unlocked(full, dist)


def build_unlocked(full, dist):
    install_npm_packages()
    if full:
        if dist.exists():
            shutil.rmtree(dist)
        kept.forget()
    dist.mkdir(exist_ok=True)
    out = Output(dist)
    web.copy_web(out, bundled={*bundles.SOURCES, *bundles.IN_PLACE, service_worker.SOURCE})
    catalogues.write_catalogues(out)
    python_version, micropip = pyodide.copy_runtime(out)
    names = wheels.build_wheels(out)
    site_packages = wheels.write_site_packages(out, names, python_version)
    memory = snapshot.make_snapshot(out, names)
    runtime, write_packed = packed.pack_runtime(out, memory['files'])  # zstd runs while the steps below do
    bundles.bundle_modules(out)
    info = {
        'python': python_version,
        'micropip': micropip,
        'wheels': names,
        'runtime': names[-1],
        'sitePackages': site_packages,
        'snapshot': memory,
        'packed': runtime,
    }
    out.put(dist / 'build.json', json.dumps(info, indent=2).encode())
    out.delete_unmade(keep={dist / service_worker.SW, dist / packed.PACKED}, keep_under={dist / docs.FOLDER})
    service_worker.bundle_service_worker(out)
    compress.compress(dist)
    write_packed()
    size = sum(p.stat().st_size for p in dist.rglob('*') if p.suffix not in ('.gz', '.br'))
    shown = dist.relative_to(ROOT) if dist.is_relative_to(ROOT) else dist
    print(f"built {shown}/: {size / 1e6:.1f} MB, Python {python_version}, wheels {', '.join(names)}")
