"""The course's exercises, checked in CPython: every solution passes, every starter fails, and each
mistake a learner really makes fails with the message written for it."""

import json

import pytest

from playground_runtime import runner as playground
from support.course import COURSE, COURSE_PAGE, EXERCISES, IDS, STARTER_MESSAGES, mutate


def run(source, checks):
    events = []
    result = json.loads(playground.run(source, lambda text: events.append(json.loads(text)), checks=checks))
    return result, events


def check(exercise_id, source):
    return run(source, EXERCISES[exercise_id]['checks'])


def test_the_page_has_the_four_exercises_in_the_chapters_order():
    assert COURSE_PAGE.order == IDS
    assert set(EXERCISES) == set(IDS)
    for id in IDS:
        exercise = EXERCISES[id]
        assert {'starter', 'checks', 'solution'} <= set(exercise), id
        assert len(exercise['hints']) >= 2, id
        assert all(hint.startswith(('<p>', '<p data-i18n>')) for hint in exercise['hints'])  # a paragraph each


def test_the_page_uses_the_embed_and_the_article_style_and_links_home():
    # embed.js's cells (hosts/article-cells.js), bundled after the page's language (hosts/course-page.js)
    assert {'src': 'hosts/course-page.bundle.js', 'type': 'module'} in COURSE_PAGE.scripts
    entry = (COURSE.parent / 'hosts' / 'course-page.js').read_text(encoding='utf-8')
    assert entry.index('import "./page-language.js";') < entry.index('from "./article-cells.js";')
    assert any(link.get('rel') == 'stylesheet' and link.get('href') == 'article.css' for link in COURSE_PAGE.links)
    assert any(link.get('href') == 'index.html' for link in COURSE_PAGE.links)
    html = COURSE.read_text(encoding='utf-8')
    assert '<meta charset="utf-8">' in html and 'name="viewport"' in html and '<title>' in html


@pytest.mark.parametrize('exercise_id', IDS)
def test_the_solution_passes(exercise_id):
    result, events = check(exercise_id, EXERCISES[exercise_id]['solution'])
    assert result == {'status': 'ok', 'check': {'status': 'passed', 'message': 'All checks passed.'}}
    assert not [e for e in events if e['type'] in ('graph', 'stderr')]


@pytest.mark.parametrize('exercise_id', IDS)
def test_the_starter_runs_and_fails_the_checks_with_a_helpful_message(exercise_id):
    result, _ = check(exercise_id, EXERCISES[exercise_id]['starter'])
    assert result['status'] == 'ok'  # runs as it is: the learner sees a check's message, not a traceback
    assert result['check']['status'] == 'failed'
    assert STARTER_MESSAGES[exercise_id] in result['check']['message']


# (exercise, mistake, the solution's text, what the learner wrote instead, the message they get)
MISTAKES = [
    (
        'mul-returns-value',
        'returns a float',
        'return Value(self.data * other.data)',
        'return self.data * other.data',
        "`Value(2.0) * Value(3.0)` gave the float 6.0, not a Value: wrap the product, `return Value(...)`",
    ),
    (
        'mul-returns-value',
        'forgets return',
        'return Value(self.data * other.data)',
        'Value(self.data * other.data)',
        "`Value(2.0) * Value(3.0)` gave None: `__mul__` must `return` its result.",
    ),
    (
        'mul-returns-value',
        'adds',
        'return Value(self.data * other.data)',
        'return Value(self.data + other.data)',
        "`(Value(2.0) * Value(3.0)).data` is 5.0, expected 6.0: `__mul__` should multiply the two numbers.",
    ),
    (
        'mul-returns-value',
        'squares self',
        'return Value(self.data * other.data)',
        'return Value(self.data * self.data)',
        "`(Value(2.0) * Value(3.0)).data` is 4.0, expected 6.0",
    ),
    (
        'mul-returns-value',
        'changes self',
        'return Value(self.data * other.data)',
        'self.data = self.data * other.data\n        return self',
        "`Value(2.0) * Value(3.0)` changed one of its operands: `__mul__` should leave `self` and `other` as they are",
    ),
    (
        'mul-records-graph',
        'forgets _children',
        "Value(self.data * other.data, (self, other), '*')",
        "Value(self.data * other.data, _op='*')",
        "`(a * b)._prev` is empty: pass the operands to the new Value as its children, `Value(..., (self, other), '*')`",
    ),
    (
        'mul-records-graph',
        'forgets _children and _op',
        "Value(self.data * other.data, (self, other), '*')",
        "Value(self.data * other.data)",
        "`(a * b)._prev` is empty",
    ),
    (
        'mul-records-graph',
        'records the numbers',
        "Value(self.data * other.data, (self, other), '*')",
        "Value(self.data * other.data, (self.data, other.data), '*')",
        "`(a * b)._prev` holds the numbers [-3.0, 2.0], not the Values: pass `(self, other)`, not their data.",
    ),
    (
        'mul-records-graph',
        'records one operand',
        "Value(self.data * other.data, (self, other), '*')",
        "Value(self.data * other.data, (self,), '*')",
        "`(a * b)._prev` should hold both `a` and `b`, the very Values that were multiplied",
    ),
    (
        'mul-records-graph',
        "copies add's _op",
        "Value(self.data * other.data, (self, other), '*')",
        "Value(self.data * other.data, (self, other), '+')",
        "`(a * b)._op` is '+', expected '*': record the symbol of the operation that made the result.",
    ),
    (
        'mul-records-graph',
        'names the op',
        "Value(self.data * other.data, (self, other), '*')",
        "Value(self.data * other.data, (self, other), 'mul')",
        "`(a * b)._op` is 'mul', expected '*'",
    ),
    (
        'mul-backward',
        '= instead of +=',
        'self.grad += other.data * out.grad\n            other.grad += self.data * out.grad',
        'self.grad = other.data * out.grad\n            other.grad = self.data * out.grad',
        "a.grad is 3.0, expected 6.0: `a` is used twice in `b = a * a`, so both lines of `_backward` add to a.grad; "
        "does `_backward` add with `+=`?",
    ),
    (
        'mul-backward',
        '= for self only',
        'self.grad += other.data * out.grad',
        'self.grad = other.data * out.grad',
        "a.grad is 4.0, expected 5.0: `a` gets 1.0 from `d = c + a` and 4.0 from `c = a * b`; "
        "does `_backward` add with `+=`",
    ),
    (
        'mul-backward',
        'wrong derivative',
        'self.grad += other.data * out.grad\n            other.grad += self.data * out.grad',
        'self.grad += out.grad * self.data\n            other.grad += out.grad * other.data',
        "a.grad is 4.0, expected -6.0: the derivative of `a * b` with respect to `a` is the other operand's data",
    ),
    (
        'mul-backward',
        'forgets out.grad',
        'self.grad += other.data * out.grad\n            other.grad += self.data * out.grad',
        'self.grad += other.data\n            other.grad += self.data',
        "a.grad is -3.0, expected -6.0: multiply by `out.grad` too",
    ),
    (
        'mul-backward',
        'wrong derivative for other',
        'other.grad += self.data * out.grad',
        'other.grad += other.data * out.grad',
        "b.grad is -6.0, expected 4.0: the derivative of `a * b` with respect to `b` is the other operand's data",
    ),
    (
        'mul-backward',
        'closure not attached',
        'other.grad += self.data * out.grad\n        out._backward = _backward\n',
        'other.grad += self.data * out.grad\n',
        "a.grad is 0.0, expected -6.0: `c._backward()` left it at 0.0",
    ),
    (
        'backward-method',
        'no seed',
        '        self.grad = 1.0\n',
        '',
        "L.grad is 0.0, expected 1.0: backward() must set the output's own grad to 1.0",
    ),
    (
        'backward-method',
        'seeds before the reset',
        'for v in topo:\n            v.grad = 0.0\n        self.grad = 1.0\n',
        'self.grad = 1.0\n        for v in topo:\n            v.grad = 0.0\n',
        "L.grad is 0.0, expected 1.0: backward() must set the output's own grad to 1.0 (after resetting the others",
    ),
    (
        'backward-method',
        'not reversed',
        'for v in reversed(topo):',
        'for v in topo:',
        "expected -2.0 (3 more wrong grads marked in the graph): does backward() call `_backward()` on every node "
        "in reversed topological order",
    ),
    (
        'backward-method',
        'only its own _backward',
        'for v in reversed(topo):\n            v._backward()',
        'self._backward()',
        "does backward() call `_backward()` on every node in reversed topological order",
    ),
    (
        'backward-method',
        'no reset',
        '        for v in topo:\n            v.grad = 0.0\n',
        '',
        "these are the grads after a second `L.backward()`: backward() must reset every node's grad to 0.0",
    ),
    (
        'backward-method',
        'accumulates the seed',
        'for v in topo:\n            v.grad = 0.0\n        self.grad = 1.0\n',
        'self.grad += 1.0\n',
        "these are the grads after a second `L.backward()`",
    ),
]


@pytest.mark.parametrize('exercise_id,mistake,old,new,message', MISTAKES, ids=[f"{m[0]}:{m[1]}" for m in MISTAKES])
def test_each_mistake_fails_with_its_message(exercise_id, mistake, old, new, message):
    result, _ = check(exercise_id, mutate(exercise_id, old, new))
    assert result['status'] == 'ok'
    assert result['check']['status'] == 'failed'
    assert message in result['check']['message']


def test_every_listed_mistake_has_its_own_message():
    by_exercise = {}
    for exercise_id, _, old, new, _ in MISTAKES:
        result, _ = check(exercise_id, mutate(exercise_id, old, new))
        by_exercise.setdefault(exercise_id, set()).add(result['check']['message'])
    assert {id: len(messages) >= 4 for id, messages in by_exercise.items()} == {id: True for id in IDS}


def marked_nodes(dot):
    return [line for line in dot.splitlines() if 'wrong-grad' in line]


def test_equals_instead_of_plus_equals_draws_the_graph_with_a_marked():
    source = mutate(
        'mul-backward',
        'self.grad += other.data * out.grad\n            other.grad += self.data * out.grad',
        'self.grad = other.data * out.grad\n            other.grad = self.data * out.grad',
    )
    result, events = check('mul-backward', source)
    assert '+=' in result['check']['message']
    graphs = [e for e in events if e['type'] == 'graph']
    assert len(graphs) == 1 and graphs[0]['title'] == 'b (wrong grads marked)' and graphs[0]['nodes'] == 2
    (marked,) = marked_nodes(graphs[0]['dot'])
    assert '{ a | data 3.0000 | grad 3.0000 ≠ 6.0000 expected }' in marked
    assert 'class="wrong-grad"' in marked


def test_a_wrong_order_marks_every_wrong_grad():
    result, events = check('backward-method', mutate('backward-method', 'for v in reversed(topo):', 'for v in topo:'))
    (graph,) = [e for e in events if e['type'] == 'graph']
    labels = sorted(line.split('{ ')[1].split(' |')[0] for line in marked_nodes(graph['dot']))
    assert labels == ['a', 'b', 'c', 'e']


def test_a_missing_seed_marks_the_output():
    _, events = check('backward-method', mutate('backward-method', '        self.grad = 1.0\n', ''))
    (graph,) = [e for e in events if e['type'] == 'graph']
    (marked,) = marked_nodes(graph['dot'])
    assert '{ L | data -8.0000 | grad 0.0000 ≠ 1.0000 expected }' in marked and 'class="root wrong-grad"' in marked


# Correct code in other words: checks test behaviour, so any of these passes.
OTHER_CORRECT = [
    (
        'mul-returns-value',
        'return Value(self.data * other.data)',
        'product = other.data * self.data\n        return type(self)(product)',
    ),
    ('mul-returns-value', 'return Value(self.data * other.data)', 'return Value(data=self.data * other.data)'),
    (
        'mul-records-graph',
        "Value(self.data * other.data, (self, other), '*')",
        "Value(other.data * self.data, _children=[self, other], _op='*')",
    ),
    ('mul-records-graph', 'self._prev = set(_children)', 'self._prev = tuple(_children)'),
    (
        'mul-backward',
        'self.grad += other.data * out.grad\n            other.grad += self.data * out.grad',
        'g = out.grad\n            self.grad = self.grad + g * other.data\n            other.grad += g * self.data',
    ),
    ('mul-backward', 'self._prev = set(_children)', 'self._prev = list(_children)'),
    (
        'backward-method',
        'for v in topo:\n            v.grad = 0.0\n        self.grad = 1.0\n        for v in reversed(topo):\n            v._backward()',
        'for node in topo:\n            node.grad = 1.0 if node is self else 0.0\n        for node in topo[::-1]:\n            node._backward()',
    ),
    (
        'backward-method',
        'for v in topo:\n            v.grad = 0.0\n        self.grad = 1.0\n',
        'for v in reversed(topo):\n            v.grad = 0\n        self.grad = 1\n',
    ),
]


@pytest.mark.parametrize('exercise_id,old,new', OTHER_CORRECT)
def test_correct_code_in_other_words_passes(exercise_id, old, new):
    result, _ = check(exercise_id, mutate(exercise_id, old, new))
    assert result == {'status': 'ok', 'check': {'status': 'passed', 'message': 'All checks passed.'}}


def test_a_learners_own_exception_is_an_error_with_its_line_not_a_check_result():
    source = EXERCISES['mul-returns-value']['solution'] + '\nprint(c)\n'
    result, _ = check('mul-returns-value', source)
    assert result['status'] == 'error' and 'check' not in result
    assert result['error']['type'] == 'NameError'
    assert result['error']['line'] == len(source.splitlines())
    assert 'Traceback' in result['error']['traceback']


def test_an_exception_raised_by_the_learners_code_during_the_checks_says_what_was_checked():
    source = mutate('mul-returns-value', 'return Value(self.data * other.data)', 'return Valeu(self.data * other.data)')
    source = class_only(source)  # the program itself never multiplies
    result, _ = check('mul-returns-value', source)
    line = line_of(source, 'return Valeu(self.data * other.data)')
    assert result['check'] == {
        'status': 'failed',
        'message': "Checking `Value(2.0) * Value(3.0)`: it raised "
        f"NameError: name 'Valeu' is not defined (line {line} of your code)",
    }


def test_deleting_the_class_does_not_pass_with_the_playgrounds_own_value():
    result, _ = check('mul-returns-value', 'print("no class here")')
    assert result['check'] == {
        'status': 'failed',
        'message': "Keep `class Value` in your code: the checks try your class.",
    }


def class_only(source):
    """The program without the lines that try the class: mistakes then show only when the checks run."""
    return source.split('\n\na = Value(')[0]


# (exercise, the solution's text, the learner's, the message; {line} is where `failing` is in their code)
ERRORS_DURING_CHECKS = [
    (
        'mul-records-graph',
        "self._prev = set(_children)",
        "self._children = set(_children)",
        "Checking `a = Value(2.0); b = Value(-3.0); a * b`: it raised AttributeError: "
        "'Value' object has no attribute '_prev'",
        None,
    ),
    (
        'mul-backward',
        'self.grad = 0.0',
        'self.grad = None',
        "Checking `c = a * b; c.grad = 2.0; c._backward()`: it raised TypeError: unsupported operand type(s) for +=: "
        "'NoneType' and 'float' (line {line} of your code)",
        'self.grad += other.data * out.grad',
    ),
    (
        'mul-returns-value',
        'return Value(self.data * other.data)',
        'assert isinstance(other.data, int), "ints only"\n        return Value(self.data * other.data)',
        "Checking `Value(2.0) * Value(3.0)`: an `assert` in your code failed: ints only (line {line} of your code)",
        'assert isinstance(other.data, int), "ints only"',
    ),
    (
        'backward-method',
        'for child in v._prev:',
        'for child in v.prev:',
        "Checking `L.backward()`: it raised AttributeError: 'Value' object has no attribute 'prev' "
        "(line {line} of your code)",
        'for child in v.prev:',
    ),
    (
        'backward-method',
        'self._prev = set(_children)',
        'self._prev = _children[0]',
        "Checking `L = (a * b + c) * f`: it raised IndexError: tuple index out of range (line {line} of your code)",
        'self._prev = _children[0]',
    ),
]


def line_of(source, text):
    (number,) = [i for i, line in enumerate(source.splitlines(), 1) if line.strip() == text]
    return number


@pytest.mark.parametrize('exercise_id,old,new,message,failing', ERRORS_DURING_CHECKS)
def test_an_error_in_the_learners_class_during_the_checks_is_explained(exercise_id, old, new, message, failing):
    source = class_only(mutate(exercise_id, old, new))
    result, _ = check(exercise_id, source)
    assert result['status'] == 'ok' and result['check']['status'] == 'failed'
    if failing:
        message = message.replace('{line}', str(line_of(source, failing)))
    assert message in result['check']['message']


def all_failures():
    yield from ((id, EXERCISES[id]['starter']) for id in IDS)
    yield from ((m[0], mutate(m[0], m[2], m[3])) for m in MISTAKES)
    yield from ((m[0], class_only(mutate(*m[:3]))) for m in ERRORS_DURING_CHECKS)


def test_check_messages_never_show_a_traceback_or_a_bare_assertion():
    for exercise_id, source in all_failures():
        result, _ = check(exercise_id, source)
        message = result['check']['message']
        assert result['check']['status'] == 'failed'
        assert 'AssertionError' not in message and 'Traceback' not in message and 'File "' not in message, message


def test_the_plain_cells_run():
    assert COURSE_PAGE.cells
    for source in COURSE_PAGE.cells:
        result, events = run(source, None)
        assert result == {'status': 'ok'}
        assert any(e['type'] == 'graph' and 'grad 2.0000' in e['dot'] for e in events)
