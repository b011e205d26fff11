"""The page's reader of wheels (web/formats/wheel.js, in Node), which the Python worker writes into Pyodide's file
system while Python starts: it gives each file of the build's wheels as Python's zipfile does, and refuses an
archive it cannot read faithfully, so that the worker unpacks it with Pyodide's own unpackArchive instead."""

import hashlib
import json
import shutil
import subprocess
import zipfile

import pytest

from support import ROOT


def read_by_the_page(paths):
    node = shutil.which('node')
    assert node, 'Node.js is needed (the build needs it too)'
    done = subprocess.run(
        [node, str(ROOT / 'tests' / 'formats' / 'read_wheel.mjs')],
        input=json.dumps([str(path) for path in paths]),
        capture_output=True,
        text=True,
        check=False,
    )
    assert done.returncode == 0, done.stderr
    return json.loads(done.stdout)


def read_by_python(path):
    with zipfile.ZipFile(path) as archive:
        return {
            info.filename: hashlib.sha256(archive.read(info)).hexdigest()
            for info in archive.infolist()
            if not info.is_dir()
        }


def test_the_builds_wheels_read_as_zipfile_reads_them(site):
    wheels = sorted((site / 'wheels').glob('*.whl'))
    assert len(wheels) >= 3
    for wheel, read in zip(wheels, read_by_the_page(wheels), strict=True):
        assert read == {'files': read_by_python(wheel)}, wheel.name


def archive(path, entries, compression=zipfile.ZIP_DEFLATED):
    with zipfile.ZipFile(path, 'w', compression=compression) as made:
        for name, data in entries.items():
            made.writestr(name, data)
    return path


def test_stored_entries_folders_and_utf8_names_are_read(tmp_path):
    entries = {
        'pkg/__init__.py': b'',
        'pkg/data/\u00e9t\u00e9.txt': 'summer'.encode() * 100,
        'pkg-1.0.dist-info/RECORD': b'x',
    }
    for compression in (zipfile.ZIP_STORED, zipfile.ZIP_DEFLATED):
        path = archive(tmp_path / f'{compression}.whl', entries, compression)
        with zipfile.ZipFile(path, 'a') as made:
            made.writestr(zipfile.ZipInfo('pkg/empty/'), b'')  # a folder entry: left out
        assert read_by_the_page([path]) == [{'files': read_by_python(path)}]


@pytest.mark.parametrize(
    'name, reason',
    [
        ('../outside.py', 'not a relative path'),
        ('/etc/passwd', 'not a relative path'),
        ('pkg//x.py', 'not a relative path'),
    ],
)
def test_a_path_that_would_leave_site_packages_is_refused(tmp_path, name, reason):
    path = archive(tmp_path / 'bad.whl', {'pkg/ok.py': b'ok', name: b'bad'})
    assert reason in read_by_the_page([path])[0]['error']


def test_bytes_that_are_not_the_listed_ones_are_refused(tmp_path):
    whole = archive(tmp_path / 'stored.whl', {'pkg/a.py': b'print(1)\n' * 50}, zipfile.ZIP_STORED)
    data = bytearray(whole.read_bytes())
    at = data.index(b'print(1)')
    data[at : at + 5] = b'PRINT'  # the same size, other bytes: only the CRC-32 tells
    whole.write_bytes(bytes(data))
    assert 'not the bytes the archive lists' in read_by_the_page([whole])[0]['error']


def test_what_is_not_a_zip_or_not_faithful_is_refused(tmp_path):
    text = tmp_path / 'text.whl'
    text.write_bytes(b'not a zip\n' * 10)
    bzipped = archive(tmp_path / 'bz.whl', {'pkg/a.py': b'a' * 1000}, zipfile.ZIP_BZIP2)
    cut = tmp_path / 'cut.whl'
    whole = archive(tmp_path / 'whole.whl', {'pkg/a.py': bytes(range(256)) * 400})
    data = bytearray(whole.read_bytes())
    data[40:60] = bytes(20)  # inside the deflated data of the one entry
    cut.write_bytes(bytes(data))
    errors = [read['error'] for read in read_by_the_page([text, bzipped, cut])]
    assert 'not a zip archive' in errors[0]
    assert 'compression 12' in errors[1]
    assert errors[2]  # the inflater refuses it, or its bytes are not the ones listed (size, CRC-32)
