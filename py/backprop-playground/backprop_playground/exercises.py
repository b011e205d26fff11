"""The exercises in an author's files, read as the pages read them: Markdown lessons and pages (fenced blocks
marked `# exercise: ID`, `# checks: ID`, `# hint: ID`, `# solution: ID`: web/formats/exercise-markers.js, whose
reading of each marker line this module's read_marker shares, case by case, in tests/data/exercise-markers.json),
notebooks (those markers in a code cell's first line, or in its metadata as notebook.html writes them) and
HTML pages (`<pre data-playground data-exercise>` with its `data-checks`, `data-hint` and `data-solution`
parts, and rendered fenced blocks). Each exercise knows the line of the file it starts at, and whether its
graphs open in quiz mode (`quiz` or `quiz=data` on the marker line, `data-quiz` in HTML). A plain block's
`# quiz` first line is no exercise's part: it is a cell of its own, which this module leaves alone."""

import json
import re
from dataclasses import dataclass, field
from html.parser import HTMLParser
from pathlib import Path

MARKER = re.compile(r'^#\s*(exercise|checks|hint|solution):\s*([\w.:-]{1,200})\s*(.*)$')
QUIZ_MARKER = re.compile(r'^#\s*quiz(?:\s*:\s*(.*?))?\s*$')
QUIZ_OPTION = re.compile(r'^(grad|data)?\s*:?\s*([\w.\s,*+-]*)$')
TRIES = re.compile(r'(?:^|\s)tries=(never|\d+)(?:\s|$)')
QUIZ = re.compile(r'(?:^|\s)quiz(?:=(grad|data))?(?:\s|$)')  # the first that reads, as the page takes it
BAD_QUIZ = re.compile(r'(?:^|\s)quiz=(?!(?:grad|data)(?:\s|$))(\S*)')
FENCE = re.compile(r'^( {0,3})(`{3,}|~{3,})[ \t]*([^\s`]*)')
LANGUAGES = {'python', 'playground'}


@dataclass
class Exercise:
    id: str
    where: str  # "file:line", for messages
    starter: str | None = None
    checks: str | None = None
    solution: str | None = None
    hints: list = field(default_factory=list)
    tries: str | None = None
    quiz: str | None = None  # 'grad' or 'data': its graphs open in quiz mode (web/output/quiz.js)


@dataclass
class Marker:
    """What a block's first line says: its kind ('exercise', 'checks', 'hint', 'solution', or 'quiz' for a plain
    cell whose graphs open in quiz mode), the exercise's id, and the starter's options."""

    kind: str
    id: str | None = None
    tries: str | None = None  # 'never' or a number, as written
    quiz: str | None = None  # 'grad' or 'data'
    labels: list | None = None  # a `# quiz: grad: a, b` line's values
    problem: str | None = None  # what `check` says of an option it cannot read


def read_marker(line):
    """The marker on a block's first line, or None when the line is not one (the page's marker(), in
    web/formats/exercise-markers.js, reads each line the same way)."""
    line = line.strip()
    quiz = QUIZ_MARKER.match(line)
    if quiz:
        option = QUIZ_OPTION.match((quiz.group(1) or '').strip())
        labels = [label for label in re.split(r'[\s,]+', option.group(2)) if label] if option else []
        return Marker('quiz', quiz=(option.group(1) or 'grad') if option else None, labels=labels or None)
    found = MARKER.match(line)
    if not found:
        return None
    kind, id, options = found.groups()
    tries, quiz, problem = read_options(options)
    return Marker(kind, id, tries, quiz, problem=problem)


def read_options(options):
    """A starter's options ('tries=3 quiz=data'): (tries, quiz, what is wrong with them or None)."""
    tries, quiz, bad = TRIES.search(options), QUIZ.search(options), BAD_QUIZ.search(options)
    problem = f"`quiz={bad.group(1)}`: the quiz option is `quiz`, `quiz=grad` or `quiz=data`" if bad else None
    return (tries.group(1) if tries else None), ((quiz.group(1) or 'grad') if quiz else None), problem


@dataclass
class Found:
    exercises: list = field(default_factory=list)
    problems: list = field(default_factory=list)  # (where, id, what is wrong)


def marker(code):
    """(kind, id, options, the code below the marker line) if the code's first line is a marker, else None."""
    first, _, rest = code.partition('\n')
    found = MARKER.match(first.strip())
    return (found.group(1), found.group(2), found.group(3), rest) if found else None


def read(path):
    """The exercises in the file at `path`, and what is wrong in how they are written."""
    path = Path(path)
    text = path.read_text(encoding='utf-8')
    if path.suffix == '.ipynb':
        parts = notebook_parts(text, path.name)
    elif path.suffix in ('.html', '.htm'):
        parts = html_parts(text)
    else:
        parts = markdown_parts(text)
    return assemble(parts, str(path))


def markdown_parts(text):
    """(line, kind, id, options, code) for each marked fenced block of a Markdown file."""
    lines = text.split('\n')
    parts, i = [], 0
    while i < len(lines):
        opening = FENCE.match(lines[i])
        if not opening:
            i += 1
            continue
        fence, language = opening.group(2), opening.group(3).lower()
        closing = re.compile(rf'^ {{0,3}}{re.escape(fence[0])}{{{len(fence)},}}[ \t]*$')
        end = next((j for j in range(i + 1, len(lines)) if closing.match(lines[j])), len(lines))
        found = marker('\n'.join(lines[i + 1 : end])) if language in LANGUAGES else None
        if found:
            parts.append((i + 2, *found))
        i = end + 1
    return parts


def notebook_parts(text, name):
    try:
        notebook = json.loads(text)
        cells = notebook['cells']
    except (ValueError, KeyError, TypeError):
        raise ValueError(f"{name} is not a Jupyter notebook") from None
    parts = []
    for number, cell in enumerate(cells, 1):
        source = (
            ''.join(cell.get('source', '')) if isinstance(cell.get('source'), list) else str(cell.get('source', ''))
        )
        meta = (cell.get('metadata') or {}).get('backprop_playground') or {}
        found = marker(meta['marker'] + '\n' + source) if isinstance(meta.get('marker'), str) else marker(source)
        if found:
            parts.append((f"cell {number}", *found))
    return parts


class PageParser(HTMLParser):
    """The HTML form's parts, and fenced blocks as Markdown hosts render them (highlighting flattened)."""

    def __init__(self):
        super().__init__()
        self.parts, self._open, self._text, self._depth = [], None, [], 0

    def handle_starttag(self, tag, attrs):
        attrs = dict(attrs)
        if self._open:
            self._depth += tag == self._open[0]
            return
        line = self.getpos()[0]
        kinds = {'data-exercise': 'exercise', 'data-checks': 'checks', 'data-solution': 'solution', 'data-hint': 'hint'}
        for attribute, kind in kinds.items():
            if attribute in attrs and (kind != 'exercise' or 'data-playground' in attrs):
                tries = attrs.get('data-tries')
                options = [f"tries={tries}"] if tries else []
                if kind == 'exercise' and 'data-quiz' in attrs:
                    field_ = (attrs['data-quiz'] or '').split(':')[0].strip()
                    options.append(f"quiz={field_}" if field_ else 'quiz')
                self._open = (tag, line, kind, attrs[attribute], ' '.join(options))
        classes = (attrs.get('class') or '').split()
        if not self._open and tag == 'code' and {f'language-{name}' for name in LANGUAGES} & set(classes):
            self._open = (tag, line, None, None, '')
        self._text = []

    def handle_endtag(self, tag):
        if not self._open or tag != self._open[0]:
            return
        if self._depth:
            self._depth -= 1
            return
        _, line, kind, id, options = self._open
        text = ''.join(self._text)
        code = text.removeprefix('\n')
        if kind is None:
            found = marker(code)
            if found:
                self.parts.append((line + (code != text), *found))  # the marker's own line
        else:
            if kind == 'hint':
                code = '# ' + re.sub(r'<[^>]+>', '', code).strip()
            self.parts.append((line, kind, id, options, code))
        self._open = None

    def handle_data(self, data):
        if self._open:
            self._text.append(data)


def html_parts(text):
    parser = PageParser()
    parser.feed(text)
    parser.close()
    return parser.parts


def assemble(parts, name):
    """Exercises from their parts, in the order their starters come; refusals for what cannot be right."""
    found = Found()
    exercises, firsts = {}, {}
    for line, kind, id, options, code in parts:
        where = f"{name}:{line}" if isinstance(line, int) else f"{name} {line}"
        exercise = exercises.setdefault(id, Exercise(id, where))
        if kind == 'exercise':
            if exercise.starter is not None:
                found.problems.append(
                    (where, id, f"a second exercise with this id (the first is at {firsts[id]}): ids must differ")
                )
                continue
            firsts[id] = where
            exercise.where, exercise.starter = where, code.rstrip()
            exercise.tries, exercise.quiz, problem = read_options(options)
            if problem:
                found.problems.append((where, id, problem))
        elif kind == 'hint':
            exercise.hints.append('\n'.join(line.removeprefix('#').strip() for line in code.split('\n')).strip())
        elif getattr(exercise, kind) is not None:
            found.problems.append((where, id, f"a second `{kind}` block for this exercise"))
        else:
            setattr(exercise, kind, code.rstrip() + '\n' if kind == 'checks' else code.rstrip())
    for id, exercise in exercises.items():
        if exercise.starter is None:
            what = (
                'checks' if exercise.checks is not None else 'a solution' if exercise.solution is not None else 'hints'
            )
            found.problems.append((exercise.where, id, f"{what} but no starter (`# exercise: {id}`)"))
        elif exercise.solution is not None and exercise.checks is None:
            found.problems.append((exercise.where, id, "a solution but no checks: nothing would tell it passed"))
        else:
            found.exercises.append(exercise)
    return found
