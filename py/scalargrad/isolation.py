"""Notices when a run reached outside its own namespace, so that the page gives the next run a new Python.

A run may change its namespace (a named env keeps it on purpose) but nothing that outlives it: builtins,
modules, classes and functions that it did not define, sys's hooks, the event loop, JavaScript. Python
cannot reliably undo such changes, so the page replaces the interpreter instead (README.md, "Security
model"); this module only has to notice, cheaply:
- `changes()`, after each run: every module's namespace, by the identity of what it holds, and sys's
  import and trace hooks, compared with the same after the run before (about 6 ms in the page);
- an audit hook for what leaves no trace in a namespace: a class or function patched in place, another
  audit hook, the garbage collector's lists of objects, ctypes. It reports to `report`, a JavaScript
  function that can only raise a flag, at once, so that nothing the same program does later unsays it.
Reaching JavaScript is noticed in the worker itself (python-worker.js watches the `js` module's object).
"""
import functools
import gc
import operator
import sys
from types import FunctionType, MethodType, ModuleType

RUN_FILES = frozenset({'<editor>', '<checks>'})  # playground.FILENAME and checks.FILENAME
SENSITIVE_IMPORTS = ('ctypes', '_ctypes', 'js', 'pyodide_js', '_pyodide', 'pyodide', 'micropip')
AUDITED = {
    'object.__setattr__': 'changed {0}',
    'object.__delattr__': 'changed {0}',
    'sys.addaudithook': 'added an audit hook',
    'sys.settrace': 'set a trace function',
    'sys.setprofile': 'set a profile function',
    'gc.get_objects': "used the garbage collector's list of objects",
    'gc.get_referrers': "used the garbage collector's list of objects",
    'gc.get_referents': "used the garbage collector's list of objects",
}
HEAPTYPE = 1 << 9  # Py_TPFLAGS_HEAPTYPE: a class made at run time, whose attributes can be set
_is = operator.is_
# A class's own namespace and names, whatever its metaclass says (a run's metaclass could run code).
_type_dict = type.__dict__['__dict__'].__get__
_type_module = type.__dict__['__module__'].__get__
_type_qualname = type.__dict__['__qualname__'].__get__


def _published(obj):
    """Whether a module holds obj (a class or function) under its own name: patching it reaches later runs.

    Classes that an import makes and then finishes (namedtuple sets their attributes) are not yet there.
    """
    if isinstance(obj, ModuleType):
        return True
    if isinstance(obj, type):
        module, qualname = _type_module(obj), _type_qualname(obj)
    elif type(obj) is FunctionType:
        module, qualname = obj.__module__, obj.__qualname__
    else:
        return False
    target = sys.modules.get(module) if type(module) is str else None
    for part in qualname.split('.'):
        space = target.__dict__ if isinstance(target, ModuleType) else _type_dict(target) if isinstance(target, type) else {}
        target = space.get(part)
    return target is obj


def _defined_in_run(obj):
    """Whether obj is code that a run wrote: its function, method, class, or an instance of its class."""
    kind = type(obj)
    if kind is MethodType:
        obj, kind = obj.__func__, type(obj.__func__)
    if kind is FunctionType:
        return obj.__code__.co_filename in RUN_FILES
    cls = obj if isinstance(obj, type) else kind
    return _type_dict(cls).get('__module__') == '__main__'


def _same(keys, values, old_keys, old_values):
    return len(keys) == len(old_keys) and all(map(_is, keys, old_keys)) and all(map(_is, values, old_values))


def _class_dicts(name, namespace):
    """The namespaces of the classes a module defines (types written in C cannot be changed)."""
    return [_type_dict(v) for v in namespace.values()
            if isinstance(v, type) and v.__flags__ & HEAPTYPE and _type_module(v) == name]


def _describe(obj):
    if isinstance(obj, type):
        return f"the class {_type_dict(obj).get('__module__', '?')}.{obj.__name__}"
    if type(obj) is FunctionType:
        return f"the function {obj.__module__}.{obj.__qualname__}"
    if isinstance(obj, ModuleType):
        return f"the module {obj.__name__}"
    return type(obj).__name__


class Watch:
    def __init__(self, report):
        self._report = report
        self._said = set()
        self._imported = set()  # modules that the import system loaded during this run
        self._classes = {}  # module name -> the namespaces of the classes it defines
        self._before = self._fingerprint()
        self.scheduled = 0  # event-loop callbacks scheduled and not yet run

    def _say(self, reason):
        if reason not in self._said:
            self._said.add(reason)
            self._report(reason)

    def audit(self, event, args):
        if event == 'import':
            name = args[0]
            self._imported.add(name)
            if name.split('.')[0] in SENSITIVE_IMPORTS:
                self._say(f"imported {name}")
        elif event in AUDITED:
            target = args[0] if args else None
            if event.startswith('object.') and (_defined_in_run(target) or not _published(target)):
                return  # the run's own classes and functions are its own business
            self._say(AUDITED[event].format(_describe(target)) if target is not None else AUDITED[event])
        elif event.startswith('ctypes.'):
            self._say('used ctypes')

    def watch_loop(self, loop_class):
        """Counts what a run leaves scheduled on the event loop (asyncio's tasks and handles use call_later)."""
        call_later = loop_class.call_later

        @functools.wraps(call_later)
        def counted(loop, delay, callback, *args, **kwargs):
            self.scheduled += 1

            def run(*args):
                self.scheduled -= 1
                return callback(*args)
            return call_later(loop, delay, run, *args, **kwargs)
        loop_class.call_later = counted

    def _fingerprint(self):
        """What later runs would see: what each module and each class it defines holds, by identity."""
        modules, others = {}, []
        for name, m in list(sys.modules.items()):
            if type(m) is ModuleType and type(d := m.__dict__) is dict:
                modules[name] = (m, tuple(d), tuple(d.values()))
                if name not in self._classes:
                    self._classes[name] = _class_dicts(name, d)
            else:
                others += (name, m)
        classes = {name: [(tuple(d), tuple(d.values())) for d in self._classes[name]] for name in modules}
        hooks = (*sys.meta_path, None, *sys.path_hooks, None, *sys.path, None, *gc.callbacks, None, *others,
                 None, sys.gettrace(), sys.getprofile(), sys.excepthook, sys.displayhook)
        return modules, classes, hooks

    def changes(self):
        """Reasons why the next run needs a new Python (an empty list: none); then forgets this run."""
        modules, classes, hooks = after = self._fingerprint()
        old_modules, old_classes, old_hooks = self._before
        reasons = []
        if self.scheduled:
            reasons.append("left work scheduled on the event loop")
        if len(hooks) != len(old_hooks) or not all(map(_is, hooks, old_hooks)):
            reasons.append("changed sys.modules or sys's import or trace hooks")
        for name, (module, keys, values) in modules.items():
            old = old_modules.get(name)
            if old is None:
                if name not in self._imported or any(map(_defined_in_run, values)):
                    reasons.append(f"put its own code into the module {name}")
            elif old[0] is not module:
                reasons.append(f"replaced the module {name}")
            elif not _same(keys, values, *old[1:]):
                reasons.append(f"changed the module {name}")
        for name, namespaces in classes.items():
            if any(not _same(*new, *old) for new, old in zip(namespaces, old_classes.get(name, ()))):
                reasons.append(f"changed a class of the module {name}")
        self._before = after
        self._imported.clear()
        self._said.clear()
        return reasons[:3]


_watch = None


def changes():
    return _watch.changes() if _watch is not None else []


def note(reason):
    """A reason of the playground's own for a fresh Python after this run."""
    if _watch is not None:
        _watch._say(reason)


def install(report):
    """Starts watching (once per interpreter): `report(reason)` is called the moment a run reaches out."""
    global _watch
    if _watch is None:
        _watch = Watch(report)
        try:
            from pyodide.webloop import WebLoop
        except ImportError:  # plain CPython (the tests)
            pass
        else:
            _watch.watch_loop(WebLoop)
        _watch.changes()  # what installing it changed is not a run's change
        sys.addaudithook(_watch.audit)
    return _watch
