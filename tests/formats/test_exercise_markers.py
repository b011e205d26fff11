"""One table of exercise marker lines (tests/data/exercise-markers.json), read by the page's parser
(web/formats/exercise-markers.js, in Node) and by `build.py check`'s (backprop_playground/exercises.py): each
must read every line as the table says, so the two agree."""

import dataclasses
import json
import shutil
import subprocess

import pytest

from backprop_playground.exercises import read_marker
from support import ROOT

CASES = json.loads((ROOT / 'tests' / 'data' / 'exercise-markers.json').read_text())['cases']
FIELDS = ('kind', 'id', 'tries', 'quiz', 'labels')


def expected(case):
    return {name: case.get(name) for name in FIELDS} if case['kind'] else {'kind': None}


@pytest.fixture(scope='module')
def read_by_the_page():
    node = shutil.which('node')
    assert node, 'Node.js is needed (the build needs it too)'
    done = subprocess.run(
        [node, str(ROOT / 'tests' / 'formats' / 'read_markers.mjs')],
        input=json.dumps([case['line'] for case in CASES]),
        capture_output=True,
        text=True,
        check=False,
    )
    assert done.returncode == 0, done.stderr
    return dict(zip((case['line'] for case in CASES), json.loads(done.stdout), strict=True))


@pytest.mark.parametrize('case', CASES, ids=[repr(case['line']) for case in CASES])
def test_the_page_reads_the_line_as_the_table_says(read_by_the_page, case):
    assert read_by_the_page[case['line']] == expected(case)


@pytest.mark.parametrize('case', CASES, ids=[repr(case['line']) for case in CASES])
def test_check_reads_the_line_as_the_table_says(case):
    found = read_marker(case['line'])
    read = {'kind': None} if found is None else {name: getattr(found, name) for name in FIELDS}
    assert read == expected(case)
    assert (found.problem if found else None) == case.get('problem')


def test_the_table_names_every_kind_and_field_a_marker_has():
    kinds = {case['kind'] for case in CASES}
    assert kinds == {'exercise', 'checks', 'solution', 'hint', 'quiz', None}
    assert {field.name for field in dataclasses.fields(read_marker('# exercise: x'))} == {*FIELDS, 'problem'}
    assert all(set(case) <= {'line', *FIELDS, 'problem'} for case in CASES), 'a case with a field no parser reads'
