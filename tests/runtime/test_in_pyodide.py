"""The engine's unit tests again, inside Pyodide (Python 3.14 in WebAssembly) under Node: the runtime users get."""

import re
import subprocess
import sys

from support import ROOT

TEST_FILES = [
    'engine/test_engine.py',
    'engine/test_graph.py',
    'engine/test_gradcheck.py',
    'runtime/test_playground.py',
    'runtime/test_checks.py',
]
PYTEST_FOR_PYODIDE = ['pytest==9.0.3']


def pytest_wheels():
    """pytest and what it needs, as pure-Python wheels for Pyodide's Python, cached in .cache/."""
    folder = ROOT / '.cache' / 'pyodide-test-wheels'
    if not any(folder.glob('pytest-*.whl')):
        subprocess.run(
            [
                sys.executable,
                '-m',
                'pip',
                'download',
                '--quiet',
                '--only-binary=:all:',
                '--python-version',
                '3.14',
                '--dest',
                str(folder),
                *PYTEST_FOR_PYODIDE,
            ],
            check=True,
        )
    return folder


def test_unit_tests_pass_inside_pyodide(site):
    result = subprocess.run(
        [
            'node',
            str(ROOT / 'tests' / 'runtime' / 'run_in_pyodide.mjs'),
            str(site),
            str(pytest_wheels()),
            str(ROOT / 'tests'),
            *TEST_FILES,
        ],
        capture_output=True,
        text=True,
        timeout=900,
    )
    print(result.stdout[-5000:], result.stderr[-5000:])
    assert 'on emscripten' in result.stdout
    assert result.returncode == 0
    summary = re.search(r'(\d+) passed', result.stdout)
    assert summary and int(summary.group(1)) > 100
