"""A teacher's nbgrader assignment, as the create-assignment toolbar writes it: an answer cell whose
`__mul__` and `tanh` are the solution, two locked test cells worth 2 and 3 points (the first with a
hidden test), and a `draw_dot` cell. Also the answers a learner types: right, and wrong in two ways; and
nbgrader itself, run as a teacher runs it (`python -m nbgrader …`, in a fork that has its imports done:
support/nbgrader_forks.py)."""

import json
import os
import sys

from . import nbgrader_forks
from .lazy import nbformat

HEAD = '''import math

class Value:
    def __init__(self, data, _children=(), _op='', label=''):
        self.data = data
        self.grad = 0.0
        self._backward = lambda: None
        self._prev = set(_children)
        self._op = _op
        self.label = label

    def __repr__(self):
        return f"Value(data={self.data})"

    def __add__(self, other):
        out = Value(self.data + other.data, (self, other), '+')
        def _backward():
            self.grad += out.grad
            other.grad += out.grad
        out._backward = _backward
        return out
'''
MUL = '''
    def __mul__(self, other):
        out = Value(self.data * other.data, (self, other), '*')
        def _backward():
            self.grad += other.data * out.grad
            other.grad += self.data * out.grad
        out._backward = _backward
        return out
'''
TANH = '''
    def tanh(self):
        t = (math.exp(2 * self.data) - 1) / (math.exp(2 * self.data) + 1)
        out = Value(t, (self,), 'tanh')
        def _backward():
            self.grad += (1 - t**2) * out.grad
        out._backward = _backward
        return out
'''
TAIL = '''
    def backward(self):
        topo, visited = [], set()
        def build(v):
            if v not in visited:
                visited.add(v)
                for child in v._prev:
                    build(child)
                topo.append(v)
        build(self)
        self.grad = 1.0
        for v in reversed(topo):
            v._backward()
'''
TEST_MUL = '''a, b = Value(2.0), Value(-3.0)
c = a * b
assert c.data == -6.0, "Value(2.0) * Value(-3.0) should have data -6.0"
c.backward()
assert a.grad == -3.0 and b.grad == 2.0, "after c.backward(), a.grad should be -3.0 and b.grad 2.0"
'''
HIDDEN_MUL = '''### BEGIN HIDDEN TESTS
x = Value(3.0)
y = x * x
y.backward()
assert x.grad == 6.0, "x * x: x.grad should be 2 * x.data"
### END HIDDEN TESTS'''
TEST_TANH = '''n = Value(0.8814)
o = n.tanh()
assert abs(o.data - 0.7071) < 1e-3, "tanh(0.8814) should be about 0.7071"
o.backward()
assert abs(n.grad - 0.5) < 1e-3, "the grad of tanh at 0.8814 should be about 0.5"'''

RIGHT = HEAD + MUL + TANH + TAIL
WRONG_TANH = RIGHT.replace('self.grad += (1 - t**2) * out.grad', 'self.grad += (1 - t) * out.grad')
# `=` instead of `+=`: right for a * b, wrong for x * x, where both grads land on x.
ASSIGNING_MUL = RIGHT.replace('self.grad += other.data * out.grad', 'self.grad = other.data * out.grad').replace(
    'other.grad += self.data * out.grad', 'other.grad = self.data * out.grad'
)


def solution_region(code):
    """A method's body between nbgrader's markers, at the body's indentation."""
    head, body = code.split(':\n', 1)
    return f"{head}:\n        ### BEGIN SOLUTION\n{body.rstrip()}\n        ### END SOLUTION\n"


def grading(grade_id, *, grade, solution, locked, points=None):
    metadata = {'grade': grade, 'grade_id': grade_id, 'locked': locked, 'schema_version': 3, 'solution': solution}
    if points is not None:
        metadata['points'] = points
    return {'nbgrader': metadata}


def source_notebook():
    """The teacher's version, with solutions and hidden tests."""
    answer = HEAD + solution_region(MUL) + solution_region(TANH) + TAIL
    cells = [
        nbformat.v4.new_markdown_cell(
            '# Assignment: `Value`\n\nWrite `__mul__` and `tanh`, with their `_backward`.',
            id='intro',
            metadata=grading('intro', grade=False, solution=False, locked=True),
        ),
        nbformat.v4.new_code_cell(
            answer, id='value', metadata=grading('value', grade=False, solution=True, locked=False)
        ),
        nbformat.v4.new_code_cell(
            TEST_MUL + HIDDEN_MUL,
            id='test-mul',
            metadata=grading('test_mul', grade=True, solution=False, locked=True, points=2),
        ),
        nbformat.v4.new_code_cell(
            TEST_TANH, id='test-tanh', metadata=grading('test_tanh', grade=True, solution=False, locked=True, points=3)
        ),
        nbformat.v4.new_code_cell('draw_dot(o)', id='graph', metadata={'tags': ['graph']}),
    ]
    notebook = nbformat.v4.new_notebook(
        cells=cells,
        metadata={
            'kernelspec': {'display_name': 'Python 3', 'language': 'python', 'name': 'python3'},
            'language_info': {'name': 'python'},
        },
    )
    nbformat.validate(notebook)
    return nbformat.writes(notebook)


# nbgrader runs alembic from PATH: the interpreter's own scripts folder, wherever pip put them.
NBGRADER_ENV = {**os.environ, 'PATH': f"{os.path.dirname(sys.executable)}{os.pathsep}{os.environ['PATH']}"}


def nbgrader(course, *args):
    nbgrader_forks.run(course, '-m', 'nbgrader', *args, env=NBGRADER_ENV)


def autograde(course, *students):
    nbgrader(course, 'autograde', 'ps1', '--force', *(f'--student={student}' for student in students))
    code = (
        'import json, sys\nfrom nbgrader.api import Gradebook\n'
        f"with Gradebook('sqlite:///{course / 'gradebook.db'}') as book:\n"
        "    print(json.dumps({s.student.id: s.score for s in book.assignment_submissions('ps1')}))"
    )
    return json.loads(nbgrader_forks.run(course, '-c', code, env=NBGRADER_ENV))


def make_course(folder, students=()):
    """An nbgrader course in `folder` with the assignment ps1, its release made by `nbgrader generate_assignment`;
    `students` are put in its gradebook (others are added as they are graded)."""
    config = 'c = get_config()\nc.CourseDirectory.course_id = "backprop"\nc.CourseDirectory.db_assignments = [dict(name="ps1")]\n'
    if students:
        config += f'c.CourseDirectory.db_students = [dict(id=name) for name in {list(students)!r}]\n'
    (folder / 'source' / 'ps1').mkdir(parents=True)
    (folder / 'nbgrader_config.py').write_text(config)
    (folder / 'source' / 'ps1' / 'assignment.ipynb').write_text(source_notebook())
    nbgrader(folder, 'generate_assignment', 'ps1')
    return folder
