"""The npm package that a CDN serves to articles: `embed.js` and everything it loads (the workers, the
runtime, the wheels, viz.js, the editor, the examples), laid out as dist/ has them, packed by `npm pack`.

What a CDN cannot use is left out: pages (jsDelivr sends HTML as text/plain, so embed.js is told that this
copy has none), compressed copies (a CDN compresses by itself), the service worker (it controls only
pages of its own origin) and the documentation site. jsDelivr takes no file over 20 MB and no package over
150 MB (its README, "Restrictions"): the step fails rather than write a package it would refuse.
"""

import json
import shutil
import tempfile
from pathlib import Path

from ..paths import CACHE, DIST, ROOT
from .archive import version
from .tools import fail, run

NAME = 'backprop-playground'
MAX_FILE = 20 * 10**6
MAX_PACKAGE = 150 * 10**6
LEFT_OUT = ('.html', '.gz', '.br', '.partial')
PAGES = 'embed.js'
SERVES_PAGES = 'const SERVES_PAGES = true;'


def package_files(dist=DIST):
    """The files of `dist` that the package holds, as paths relative to it."""
    return [
        path.relative_to(dist)
        for path in sorted(dist.rglob('*'))
        if path.is_file()
        and path.suffix not in LEFT_OUT
        and path.name != 'sw.js'
        and not path.relative_to(dist).as_posix().startswith('docs/')
    ]


def lay_out(folder, dist=DIST):
    """The package's folder: the files, package.json and its README. Returns (the package's version, each
    file's size by its path)."""
    files = package_files(dist)
    for path in files:
        target = folder / path
        target.parent.mkdir(parents=True, exist_ok=True)
        shutil.copyfile(dist / path, target)
    pages = (folder / PAGES).read_text()
    if pages.count(SERVES_PAGES) != 1:
        fail(f"{PAGES} must hold `{SERVES_PAGES}` once: the package's copy says there that it has no pages")
    (folder / PAGES).write_text(pages.replace(SERVES_PAGES, SERVES_PAGES.replace('true', 'false')))
    sizes = {path: (folder / path).stat().st_size for path in files}
    too_large = [f"{path} ({size / 1e6:.1f} MB)" for path, size in sizes.items() if size > MAX_FILE]
    if too_large:
        fail(f"a CDN refuses files over {MAX_FILE / 1e6:.0f} MB: {', '.join(too_large)}")
    total = sum(sizes.values())
    if total > MAX_PACKAGE:
        fail(f"the package would be {total / 1e6:.1f} MB, over a CDN's {MAX_PACKAGE / 1e6:.0f} MB")
    number = version()
    (folder / 'package.json').write_text(
        json.dumps(
            {
                'name': NAME,
                'version': number,
                'description': 'Runnable Python cells with computation graphs for any article: one script line, '
                'Python and Graphviz in the page, nothing else fetched.',
                'license': 'MIT',
                'type': 'module',
                'files': sorted({path.parts[0] for path in files}),
                'exports': {'.': './embed.js', './*': './*'},
                'jsdelivr': './embed.js',
                'unpkg': './embed.js',
                'keywords': ['backpropagation', 'autograd', 'pyodide', 'micrograd', 'teaching', 'embed'],
            },
            indent=2,
        )
        + '\n'
    )
    readme = (Path(__file__).resolve().parent / 'npm-readme.md').read_text()
    (folder / 'README.md').write_text(readme.replace('VERSION', number))
    return number, sizes


def package(dist=DIST, into=ROOT):
    """backprop-playground-VERSION.tgz in `into`, by `npm pack` (offline: it fetches nothing). Returns its path."""
    CACHE.mkdir(exist_ok=True)
    with tempfile.TemporaryDirectory(dir=CACHE, prefix='package-') as staging:  # two builds of it never meet
        folder = Path(staging) / NAME
        folder.mkdir()
        number, sizes = lay_out(folder, dist)
        run('npm', 'pack', '--silent', '--pack-destination', staging, folder, label=f"npm pack {NAME}@{number}")
        (tarball,) = Path(staging).glob('*.tgz')
        target = Path(into) / tarball.name
        shutil.move(tarball, target)
    largest = max(sizes, key=sizes.get)
    print(
        f"wrote {target.name} ({NAME}@{number}): {len(sizes) + 2} files, {target.stat().st_size / 1e6:.1f} MB packed, "
        f"{sum(sizes.values()) / 1e6:.1f} MB unpacked; the largest is {largest} ({sizes[largest] / 1e6:.1f} MB)"
    )
    return target
