"""`python build.py check PATH…`, the author's check: every exercise of Markdown lessons, notebooks and HTML
pages runs in CPython with the page's runtime; the solution must pass, the starter fail. The course's own
exercises, in HTML and as the Markdown lesson, pass it; an author's mistakes are each named with their line."""

import json
import subprocess
import sys

import pytest

from backprop_playground import exercises
from support import ROOT
from support.course import EXERCISES, IDS

LESSON = ROOT / 'web' / 'lessons' / 'build-the-engine.md'
BROKEN = ROOT / 'tests' / 'data' / 'broken-exercises.md'


def check(*paths):
    done = subprocess.run(
        [sys.executable, 'build.py', 'check', *map(str, paths)], cwd=ROOT, capture_output=True, text=True, timeout=600
    )
    return done.returncode, done.stdout.strip().splitlines()


def test_the_lesson_holds_the_courses_four_exercises_as_written():
    found = exercises.read(LESSON)
    assert found.problems == []
    assert [exercise.id for exercise in found.exercises] == IDS
    for exercise in found.exercises:
        course = EXERCISES[exercise.id]
        assert exercise.starter == course['starter'] and exercise.solution == course['solution'], exercise.id
        assert exercise.checks.strip() == course['checks'].strip(), exercise.id
        assert len(exercise.hints) == len(course['hints']) >= 2


def test_the_courses_exercises_pass_the_check_in_html_and_in_markdown():
    status, lines = check(ROOT / 'web' / 'course.html', LESSON)
    assert status == 0, lines
    assert lines[-1] == '8 exercises checked, 0 wrong'
    assert sum(line.endswith(': ok: the solution passes, the starter fails') for line in lines) == 8
    html = (ROOT / 'web' / 'course.html').read_text().splitlines()
    line = 1 + next(i for i, text in enumerate(html) if 'data-exercise="mul-returns-value"' in text)
    assert lines[0].startswith(f"{ROOT / 'web' / 'course.html'}:{line}: mul-returns-value: ok")


def test_each_mistake_is_named_with_its_line_and_the_check_fails():
    status, lines = check(BROKEN.relative_to(ROOT))
    assert status == 1
    where = 'tests/data/broken-exercises.md'
    assert lines == [
        f"{where}:6: double: wrong: the starter passes its checks: a learner would pass without writing anything",
        f"{where}:23: square: wrong: the solution does not pass its checks (failed: square(3) should be 9)",
        f"{where}:40: orphan: refused: checks but no starter (`# exercise: orphan`)",
        f"{where}:45: unchecked: refused: a solution but no checks: nothing would tell it passed",
        f"{where}:55: square: refused: a second exercise with this id (the first is at {where}:23): ids must differ",
        f"{where}:60: fine: ok: the solution passes, the starter fails",
        '3 exercises checked, 5 wrong',
    ]


def test_a_notebook_with_markers_in_its_cells_or_its_metadata_is_checked(tmp_path):
    """Markers as the first line of a code cell (as an author types them), or in the metadata of a cell that
    notebook.html's download wrote (its source is the code as written, without the marker)."""
    cell = lambda source, **meta: {
        'cell_type': 'code',
        'id': f'c{len(source)}{len(meta)}',
        'metadata': meta,
        'execution_count': None,
        'outputs': [],
        'source': source,
    }
    notebook = {
        'nbformat': 4,
        'nbformat_minor': 5,
        'metadata': {},
        'cells': [
            cell('# exercise: add\ndef add(a, b):\n    pass'),
            cell(
                'expect(add(2, 3) == 5, "add(2, 3) should be 5")',
                backprop_playground={'checks': 'add', 'marker': '# checks: add'},
            ),
            cell(
                'def add(a, b):\n    return a + b', backprop_playground={'solution': 'add', 'marker': '# solution: add'}
            ),
        ],
    }
    path = tmp_path / 'lesson.ipynb'
    path.write_text(json.dumps(notebook))
    status, lines = check(path)
    assert (status, lines[0]) == (0, f"{path} cell 1: add: ok: the solution passes, the starter fails"), lines


def test_fenced_blocks_in_a_rendered_page_are_checked_as_the_page_runs_them(tmp_path):
    """An HTML page as a Markdown host renders it (highlighting spans, escaped text): what embed.js reads."""
    page = tmp_path / 'post.html'
    page.write_text(
        '<html><body><p>Post</p>\n'
        '<pre><code class="language-python"><span class="c"># exercise: lt</span>\n'
        '<span class="k">def</span> lt(a, b):\n    <span class="k">return</span> b &lt; a\n</code></pre>\n'
        '<pre><code class="language-python"># checks: lt\nexpect(lt(1, 2), "1 &lt; 2")\n</code></pre>\n'
        '<pre><code class="language-python"># solution: lt\ndef lt(a, b):\n    return a &lt; b\n</code></pre>\n'
        '</body></html>'
    )
    status, lines = check(page)
    assert (status, lines[0]) == (0, f"{page}:2: lt: ok: the solution passes, the starter fails"), lines


@pytest.mark.parametrize(
    'args, says', [([], 'give the Markdown, notebook or HTML files'), (['nowhere.md'], 'nowhere.md: cannot be read')]
)
def test_nothing_to_check_is_an_error(args, says):
    status, lines = check(*args)
    assert status != 0 and says in '\n'.join(lines)


def test_the_quiz_option_is_read_as_the_pages_read_it(tmp_path):
    """`quiz` on an exercise's marker line (Markdown), `data-quiz` (HTML), or in a notebook cell's marker; a
    plain block's `# quiz` line is a cell of its own, no exercise's part; an unknown option is refused."""
    lesson = tmp_path / 'quiz.md'
    lesson.write_text(
        "```python\n# exercise: one quiz\nx = 1\n```\n\n```python\n# exercise: two tries=2 quiz=data\nx = 2\n```\n\n"
        "```python\n# quiz: grad: a\na = Value(1.0, label='a')\n```\n\n```python\n# exercise: three quiz=loss\nx = 3\n```\n"
    )
    found = exercises.read(lesson)
    assert [(e.id, e.quiz, e.tries) for e in found.exercises] == [
        ('one', 'grad', None),
        ('two', 'data', '2'),
        ('three', None, None),
    ]
    assert [(where.split(':')[-1], id) for where, id, _ in found.problems] == [('17', 'three')]
    assert 'quiz=grad` or `quiz=data' in found.problems[0][2]
    page = tmp_path / 'quiz.html'
    page.write_text(
        '<pre data-playground data-exercise="h" data-quiz="data">x = 1</pre>\n'
        '<pre data-playground data-exercise="k" data-quiz>x = 1</pre>'
    )
    assert [(e.id, e.quiz) for e in exercises.read(page).exercises] == [('h', 'data'), ('k', 'grad')]
