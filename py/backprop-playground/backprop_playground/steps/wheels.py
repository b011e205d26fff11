"""The wheels of the page's Python (dist/wheels/): the engine and the page's runtime, built from py/, and the
pure-Python `graphviz` from PyPI (learners' programs use it; Pyodide's lock has none); and their files as the
worker writes them into site-packages (site-packages.json)."""

import io
import json
import sys
import tempfile
import zipfile
from pathlib import Path, PurePosixPath

from ..paths import PY, ROOT
from .made import made
from .pyodide import download_wheel
from .tools import fail, run

GRAPHVIZ = 'graphviz==0.21'
PACKAGES = ['scalargrad', 'playground-runtime']  # folders of py/, each a wheel
NOT_SOURCES = ('build', 'dist')  # folders a build backend may leave at the top of a package's folder
SITE_PACKAGES = 'wheels/site-packages.json'


def build_wheels(out):
    """Returns the wheels' file names, in the order site-packages.json holds their files (a later one's wins)."""
    graphviz = download_wheel(GRAPHVIZ)
    names = [out.copy(graphviz, out.dist / 'wheels' / graphviz.name).name]
    for package in PACKAGES:
        names.append(build_wheel(out, package))
    return names


def write_site_packages(out, names, python_version):
    """The wheels' files, unpacked as `names` orders them, as one JSON object {path in site-packages: text};
    returns build.json's entry: {files: its path in dist/, folder: site-packages in Pyodide's file system}.
    The worker writes them with Pyodide's file system calls in about 10 ms, where Pyodide's unpackArchive took
    about 75 (its first call after a restore is slow), and a CDN compresses JSON where it sends a .whl as it
    is. Every file of these wheels is UTF-8 text."""
    files = {}
    for name in names:
        with zipfile.ZipFile(out.dist / 'wheels' / name) as wheel:
            for entry in wheel.infolist():
                path = PurePosixPath(entry.filename)
                if entry.is_dir():
                    continue
                if path.is_absolute() or '..' in path.parts:
                    fail(f"wheels/{name}: {entry.filename} is outside site-packages")
                try:
                    files[path.as_posix()] = wheel.read(entry).decode()
                except UnicodeDecodeError:
                    fail(f"wheels/{name}: {entry.filename} is not UTF-8 text, which {SITE_PACKAGES} cannot hold")
    out.put(out.dist / SITE_PACKAGES, json.dumps(files, ensure_ascii=False, separators=(',', ':')).encode())
    major, minor, *_ = python_version.split('.')
    # sysconfig.get_path('purelib') in Pyodide's Python, which Python's own call would take ~10 ms to say
    return {'files': SITE_PACKAGES, 'folder': f"/lib/python{major}.{minor}/site-packages"}


def build_wheel(out, package):
    """`pip wheel` of py/PACKAGE, run again only when a file of that folder changed; returns its file name."""
    folder = PY / package
    sources = [path for path in sorted(folder.rglob('*')) if path.is_file() and not is_made(path.relative_to(folder))]

    def make(target):
        with tempfile.TemporaryDirectory() as made_in:
            run(sys.executable, '-m', 'pip', 'wheel', '--quiet', '--no-deps', '--wheel-dir', made_in, folder)
            (wheel,) = Path(made_in).glob('*.whl')
            target.write_bytes(wheel.read_bytes())
        return []

    # The backend (hatchling) leaves out what the checkout's .gitignore names.
    given = [
        Path(__file__),
        ROOT / '.gitignore',
        *(part for path in sources for part in (path.relative_to(folder).as_posix(), path)),
    ]
    data = made(f"wheel-{package}", given, make)
    name = wheel_name(data)
    if out.put(out.dist / 'wheels' / name, data):
        print(f"  {folder.relative_to(PY.parent)}/ -> wheels/{name}")
    return name


def is_made(path):
    """Whether `path`, relative to a package's folder, is something a build or Python left there."""
    return (
        path.parts[0] in NOT_SOURCES
        or '__pycache__' in path.parts
        or path.suffix == '.pyc'
        or any(part.endswith('.egg-info') for part in path.parts)
    )


def wheel_name(data):
    """A wheel's file name, from its own .dist-info: NAME-VERSION-TAG.whl."""
    with zipfile.ZipFile(io.BytesIO(data)) as wheel:
        (info,) = {entry.split('/')[0] for entry in wheel.namelist() if entry.split('/')[0].endswith('.dist-info')}
        tag = next(
            line.removeprefix('Tag: ')
            for line in wheel.read(f"{info}/WHEEL").decode().splitlines()
            if line.startswith('Tag: ')
        )
    return f"{info.removesuffix('.dist-info')}-{tag}.whl"
