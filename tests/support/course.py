"""course.html's exercises as the page reads them (exercise.js): each one's starter, checks, hints and
solution, and the plain cells; with the message each starter fails with, and a learner's mistakes made to
order. The course's tests in CPython (runtime/) and in the browser (pages/) share them."""

import re
from html.parser import HTMLParser
from pathlib import Path

COURSE = Path(__file__).resolve().parents[2] / 'web' / 'course.html'
IDS = ['mul-returns-value', 'mul-records-graph', 'mul-backward', 'backward-method']


def code_of(text):
    """As the page reads a block (exercise.js): without the newline after the tag, nor trailing space."""
    return re.sub(r'\s+$', '', text.removeprefix('\n'))


class CourseParser(HTMLParser):
    """Collects each exercise's starter, checks, hints and solution, and the plain cells."""

    def __init__(self):
        super().__init__()  # convert_charrefs: a <pre>'s &lt; arrives as <, a <script>'s text as written
        self.exercises = {}
        self.order = []
        self.cells = []
        self.links = []
        self.scripts = []
        self._target = None  # (exercise id or None, part) while inside a block we collect
        self._text = []
        self._depth = 0

    def _exercise(self, id):
        if id not in self.exercises:
            self.exercises[id] = {'hints': []}
        return self.exercises[id]

    def handle_starttag(self, tag, attrs):
        attrs = dict(attrs)
        if self._target is not None:
            self._depth += tag == 'template'
            self._text.append(self.get_starttag_text())
            return
        if tag == 'link':
            self.links.append(attrs)
        elif tag == 'a':
            self.links.append(attrs)
        if tag == 'script' and attrs.get('src'):
            self.scripts.append(attrs)
        if tag == 'pre' and 'data-playground' in attrs:
            if 'data-exercise' in attrs:
                self.order.append(attrs['data-exercise'])
                self._target = (attrs['data-exercise'], 'starter')
            else:
                self._target = (None, 'cell')
        elif tag == 'script' and 'data-checks' in attrs:
            self._target = (attrs['data-checks'], 'checks')
        elif tag == 'script' and 'data-solution' in attrs:
            self._target = (attrs['data-solution'], 'solution')
        elif tag == 'template' and 'data-hint' in attrs:
            self._target = (attrs['data-hint'], 'hint')
        self._text = []

    def handle_endtag(self, tag):
        if self._target is None:
            return
        if tag == 'template' and self._depth:
            self._depth -= 1
        elif tag in ('pre', 'script', 'template'):
            id, part = self._target
            text = ''.join(self._text)
            if part == 'cell':
                self.cells.append(code_of(text))
            elif part == 'hint':
                self._exercise(id)['hints'].append(text.strip())
            else:
                assert part not in self._exercise(id), f"{id} has two {part} blocks"
                self._exercise(id)[part] = code_of(text)
            self._target = None
            return
        self._text.append(f'</{tag}>')

    def handle_data(self, data):
        if self._target is not None:
            self._text.append(data)


def parse_course():
    parser = CourseParser()
    parser.feed(COURSE.read_text(encoding='utf-8'))
    parser.close()
    return parser


COURSE_PAGE = parse_course()
EXERCISES = COURSE_PAGE.exercises


STARTER_MESSAGES = {
    'mul-returns-value': "`Value(2.0) * Value(3.0)` gave None: `__mul__` must `return` its result.",
    'mul-records-graph': "`(a * b)._prev` is empty",
    'mul-backward': "a.grad is 0.0, expected -6.0: `c._backward()` left it at 0.0",
    'backward-method': "L.grad is 0.0, expected 1.0: backward() must set the output's own grad to 1.0",
}


def mutate(exercise_id, old, new):
    """The exercise's solution with one piece of it changed, as a learner might have written it."""
    solution = EXERCISES[exercise_id]['solution']
    assert solution.count(old) == 1, f"{old!r} should occur once in the solution of {exercise_id}"
    return solution.replace(old, new)
