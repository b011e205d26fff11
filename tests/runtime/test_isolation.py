"""playground_runtime.isolation in CPython: what makes the page give the next run a fresh Python, and what does not.

The audit hook is not installed here (it would stay for the whole test process); its function is called
with the events CPython raises, and `changes()` is checked after programs run as the playground runs them.
pytest's own modules change between two checks too: what changes again without a program is left out.
"""

import re
import sys
from pathlib import Path

import pytest

from playground_runtime import isolation, stand_ins
from playground_runtime import runner as playground  # noqa: F401 (the programs change it)
from scalargrad import engine  # noqa: F401 (the programs change it)

FILENAME = '<editor>'
# The page says each reason in the reader's language by its phrase (web/session/fresh-reasons.js); the last,
# `changed {what}`, catches what no other phrase does and is left out here, so a new reason needs words of its own.
FRESH_REASONS = Path(__file__).parents[2] / 'web' / 'session' / 'fresh-reasons.js'
WORKER = Path(__file__).parents[2] / 'web' / 'session' / 'python-worker.js'
PAGE_PHRASES = re.findall(r'^\s*\[/(.+?)/s?,', FRESH_REASONS.read_text(encoding='utf-8'), re.M)[:-1]


@pytest.fixture
def watch():
    said = []
    audit, changes = isolation._make(said.append)

    def run(source):
        """The reasons a program gives, less what changes by itself in this busy test process."""
        changes()
        exec(compile(source, FILENAME, 'exec'), {'__name__': '__main__'})
        reasons = set(changes() + said)
        return sorted(reasons - set(changes()))

    return run, audit, said


CLEAN = {
    'a program of its own': 'from scalargrad import Value\na = Value(2.0) * Value(3.0)\na.backward()\nprint(a)',
    'its own class with class attributes': 'class V:\n    count = 0\nV.count += 1\nV.__add__ = lambda a, b: 1',
    'a module imported for the first time': 'import fractions\nx = fractions.Fraction(1, 3) + 1',
    'a namedtuple': 'import collections\nP = collections.namedtuple("P", "x y")\nP.z = 1',
    'random numbers': 'import random\nrandom.seed(1)\nrandom.random()',
}

TOUCHED = {
    'builtins.print replaced': ('import builtins\nbuiltins.print = len', 'module builtins'),
    'a method of Value replaced': (
        'import scalargrad.engine as e\ne.Value.__add__ = lambda a, b: "hacked"',
        'a class or a closure of the module scalargrad.engine',
    ),
    'a function of the playground replaced': (
        'import playground_runtime.runner as p\np.run = None',
        'module playground_runtime.runner',
    ),
    'a stdlib constant changed': ('import math\nmath.pi = 3', 'module math'),
    'an import hook added': (
        'import sys\nclass Finder:\n    find_spec = staticmethod(lambda *a: None)\nsys.meta_path.insert(0, Finder)',
        'import or trace hooks',
    ),
    'a fake module': (
        'import sys, types\nsys.modules["fake_json"] = types.ModuleType("fake_json")',
        'module fake_json',
    ),
    'own code put into a module it imports': (
        'import fractions\nfractions.Fraction = lambda *a: 0',
        'module fractions',
    ),
    'a gc callback': ('import gc\ngc.callbacks.append(lambda *a: None)', 'import or trace hooks'),
}


@pytest.mark.parametrize('source', CLEAN.values(), ids=CLEAN.keys())
def test_a_run_that_keeps_to_its_namespace_needs_no_fresh_python(watch, source):
    run, _, _ = watch
    assert run(source) == []


@pytest.mark.parametrize('source, reason', TOUCHED.values(), ids=TOUCHED.keys())
def test_a_run_that_reaches_outside_its_namespace_is_noticed(watch, source, reason, monkeypatch):
    run, _, _ = watch
    # monkeypatch puts back what the program changes, for the other tests in this process
    for target in (
        sys.modules['builtins'],
        sys.modules['math'],
        engine.Value,
        sys.modules['playground_runtime.runner'],
    ):
        for name in ('print', 'pi', '__add__', 'run'):
            if name in vars(target):
                monkeypatch.setattr(target, name, vars(target)[name])
    import fractions
    import gc

    monkeypatch.setattr(fractions, 'Fraction', fractions.Fraction)
    monkeypatch.delitem(sys.modules, 'fake_json', raising=False)
    hooks, callbacks = list(sys.meta_path), list(gc.callbacks)
    try:
        reasons = run(source)
    finally:
        sys.meta_path[:], gc.callbacks[:] = hooks, callbacks
    assert any(reason in r for r in reasons), reasons
    for said in reasons:  # and the page has its words, in each language
        assert any(re.fullmatch(phrase, said) for phrase in PAGE_PHRASES), said


def test_the_next_check_starts_from_what_the_last_one_saw(watch, monkeypatch):
    run, _, _ = watch
    import math

    monkeypatch.setattr(math, 'tau', math.tau)
    assert run('import math\nmath.tau = 6') != []
    assert run('print(1)') == []


@pytest.mark.parametrize(
    'event, args',
    [
        ('object.__setattr__', lambda: (engine.Value.__init__, '__code__', None)),
        ('sys.addaudithook', lambda: ()),
        ('gc.get_objects', lambda: (None,)),
        ('import', lambda: ('js', None, None, None, None)),
        ('import', lambda: ('ctypes', None, None, None, None)),
        ('ctypes.dlopen', lambda: ('x',)),
    ],
)
def test_what_leaves_no_trace_in_a_namespace_is_reported_at_once(watch, event, args):
    _, audit, said = watch
    audit(event, args())
    assert said, f"{event} was not reported"


def test_the_runs_own_functions_and_unpublished_classes_are_not_reported(watch):
    _, audit, said = watch
    namespace = {'__name__': '__main__'}
    exec(compile('def f(): pass\nclass A: pass', FILENAME, 'exec'), namespace)
    audit('object.__setattr__', (namespace['f'], '__code__', None))
    audit('object.__setattr__', (namespace['A'], '__name__', 'B'))
    audit('object.__setattr__', (type('Made', (), {}), '__qualname__', 'X'))
    audit('import', ('fractions', None, None, None, None))
    assert said == []


SETTINGS = {
    'the garbage collector turned off': ('import gc\ngc.disable()', 'gc.enable()'),
    # frozen objects are not in gc.get_objects(): a run's own, kept alive by a cycle, would go unseen
    'objects frozen out of the collector': ('import gc\ngc.freeze()', 'gc.unfreeze()'),
    'an environment variable': ('import os\nos.environ["PLAYGROUND_TEST"] = "1"', 'del os.environ["PLAYGROUND_TEST"]'),
    'the digits of int to str': ('import sys\nsys.set_int_max_str_digits(0)', 'sys.set_int_max_str_digits(4300)'),
    'a warnings filter': ('import warnings\nwarnings.simplefilter("ignore")', 'warnings.filters.pop(0)'),
    "a closure's cell": (
        'import os\nos.fsencode.__closure__[0].cell_contents = "x"',
        'os.fsencode.__closure__[0].cell_contents = cell',
    ),
}


@pytest.mark.parametrize('source, undo', SETTINGS.values(), ids=SETTINGS.keys())
def test_a_setting_changed_in_place_is_noticed(watch, source, undo):
    import gc
    import os
    import warnings

    run, _, _ = watch
    cell = os.fsencode.__closure__[0].cell_contents
    try:
        assert run(source) != []
    finally:
        exec(undo, {'gc': gc, 'os': os, 'sys': sys, 'warnings': warnings, 'cell': cell})


@pytest.mark.parametrize(
    'event, args',
    [
        ('open', ('x.py', 'w', 0)),
        ('open', ('x.py', None, 0o1101)),  # os.open(O_WRONLY | O_CREAT | O_TRUNC)
        ('os.rename', ('a', 'b', -1, -1)),
        ('os.chdir', ('/tmp',)),
        ('os.putenv', (b'A', b'1')),
    ],
)
def test_changes_to_files_the_directory_or_the_environment_are_reported(watch, event, args):
    _, audit, said = watch
    audit(event, args)
    assert said, f"{event} {args} was not reported"


def test_reading_a_file_is_not_reported(watch):
    _, audit, said = watch
    audit('open', ('data.csv', 'r', 0))
    audit('open', ('data.csv', None, 0))  # os.open(O_RDONLY)
    assert said == []


def test_the_check_runs_no_code_of_the_programs(watch):
    """A program's __eq__, __hash__ or __class__ called by the check could reach the check's own state."""
    run, _, _ = watch
    source = """
import sys, types
calls = []
class Spy:
    def __eq__(self, other):
        calls.append('eq')
        return False
    def __hash__(self):
        calls.append('hash')
        return 1
    @property
    def __class__(self):
        calls.append('class')
        return type
class Name(str):
    __eq__, __hash__ = Spy.__eq__, Spy.__hash__
module = types.ModuleType('spied')
module.spy, module.calls = Spy(), calls
Made = type('Made', (), {})
Made.__module__ = Spy()
module.Made = Made
sys.modules['spied'] = module
sys.modules[Name('spied_by_name')] = module
sys.modules[Spy()] = module
calls.clear()  # from here on, only the check could call them
"""
    try:
        reasons = run(source)
        calls = list(sys.modules['spied'].calls)
    finally:
        for key in [k for k in sys.modules if type(k) is not str or k == 'spied']:
            del sys.modules[key]
    assert calls == []
    assert reasons != []


def test_the_playgrounds_recursion_limit_is_watched_where_it_stands_in(watch, monkeypatch):
    """The page puts a capped setrecursionlimit into sys: changing its defaults or code changes later runs."""
    _, audit, said = watch
    monkeypatch.setattr(sys, 'setrecursionlimit', stand_ins.cap_recursion)
    audit('object.__setattr__', (sys.setrecursionlimit, '__defaults__', (print,)))
    assert said, 'a change to the stand-in for sys.setrecursionlimit was not reported'


def test_a_str_subclass_as_a_qualname_or_a_class_key_runs_no_code_in_the_hook_or_the_check(watch, monkeypatch):
    """Found in review: a qualname's __len__, or the __eq__ of a key that hashes like '__module__', ran the
    program's code inside the audit hook or the check, whose frames lead to the check's own state."""
    run, audit, said = watch
    calls = []

    class Sneaky(str):
        def __len__(self):
            calls.append('len')
            return 1

        def __hash__(self):
            return hash('__module__')

        def __eq__(self, other):
            calls.append('eq')
            return False

    named = type('C', (), {'__module__': 'json', '__qualname__': Sneaky('C')})
    audit('object.__setattr__', (named, '__name__', 'C'))
    import types

    module = types.ModuleType('sneaky_module')  # new to the check: it reads its classes' namespaces
    module.K = type('K', (), {Sneaky('__module__'): 1})
    monkeypatch.setitem(sys.modules, 'sneaky_module', module)
    calls.clear()  # type() itself compared the key while it made K
    assert run('pass') == []  # the module came before this run: the check sees it once, quietly
    assert calls == []


FINALIZER = '''
class Ghost:
    def __del__(self, left=[3]):
        if left[0]:  # three times, so that the test process is rid of it in the end
            left[0] -= 1
            again = Ghost()
            again.me = again  # garbage again, for the next collection to find: during a later run
ghost = Ghost()
ghost.me = ghost
'''


def test_objects_of_a_run_that_outlive_it_are_noticed():
    """A finalizer (or a weakref callback) of the run's own would run during a later run's collection."""
    import gc
    import json

    said = []
    _, changes = isolation._make(said.append)
    changes(namespace_gone=True)
    assert json.loads(playground.run(FINALIZER, lambda text: None)) == {'status': 'ok'}
    gc.collect()
    assert any('alive' in reason for reason in changes(namespace_gone=True))
    for _ in range(4):
        gc.collect()


def test_a_runs_own_classes_and_graphs_are_gone_after_it():
    import gc
    import json

    said = []
    _, changes = isolation._make(said.append)
    gc.collect()
    changes(namespace_gone=True)
    program = (
        'class Value:\n    def __init__(self, data, children=()):\n        self.data, self._prev = data, set(children)\n'
        '    def __add__(self, other):\n        return Value(self.data + other.data, (self, other))\n'
        'a = Value(1.0)\nb = a + a\ndraw_dot(b)\nb'
    )
    assert json.loads(playground.run(program, lambda text: None)) == {'status': 'ok'}
    gc.collect()
    assert not any('alive' in reason for reason in changes(namespace_gone=True))


# Garbage that finds itself again and again; the first time the garbage collector runs it inside a second
# fingerprint of one check (the one made after a change, such as a first import), it adds an import hook.
FINALIZER_DURING_THE_CHECK = '''
import colorsys, sys
class Finder:
    find_spec = staticmethod(lambda *a: None)
class Ghost:
    seen = []
    def __del__(self):
        frame = sys._getframe(0).f_back
        while frame is not None and frame.f_code.co_name != 'fingerprint':
            frame = frame.f_back
        if frame is not None and frame not in Ghost.seen:
            Ghost.seen.append(frame)
        if len(Ghost.seen) > 1 and Finder not in sys.meta_path:
            sys.meta_path.insert(0, Finder)
        else:
            again = Ghost()
            again.me = again
ghost = Ghost()
ghost.me = ghost
'''


def test_a_finalizer_cannot_change_what_the_check_has_already_compared():
    import gc

    said = []
    _, changes = isolation._make(said.append)
    threshold = gc.get_threshold()
    gc.set_threshold(10)  # the garbage collector runs every few allocations, inside the check too
    try:
        changes()
        exec(compile(FINALIZER_DURING_THE_CHECK, FILENAME, 'exec'), {'__name__': '__main__'})
        after_the_run = changes()
        planted = [hook for hook in sys.meta_path if getattr(hook, '__name__', '') == 'Finder']
        assert not planted or any('import or trace hooks' in reason for reason in after_the_run), after_the_run
    finally:
        gc.set_threshold(*threshold)
        sys.meta_path[:] = [hook for hook in sys.meta_path if getattr(hook, '__name__', '') != 'Finder']
        for _ in range(3):
            gc.collect()


def test_every_reason_the_worker_gives_has_its_words_on_the_page():
    """The worker's own reasons (a use of the js module, JavaScript changed, work left on the event loop)."""
    said = re.findall(
        r'(?:reach\(|reasons\.push\(|marked\([^,]+, )[`"]([^`"]+)[`"]', WORKER.read_text(encoding='utf-8')
    )
    assert len(said) >= 10, said
    for reason in said:
        example = re.sub(r'\$\{[^}]*\}', 'x', reason)
        assert any(re.fullmatch(phrase, example, re.S) for phrase in PAGE_PHRASES), reason
