"""Notices when a run reached outside its own namespace, so that the page gives the next run a new Python.

A run may change its namespace (a named env keeps it on purpose) but nothing that outlives it: builtins,
modules, classes and functions that it did not define, sys's hooks, the event loop, JavaScript. Python
cannot reliably undo such changes, so the page replaces the interpreter instead (README.md, "Security
model"); this module only has to notice, cheaply:
- `changes()`, after each run: every module's namespace and the namespace of every class a module
  defines, by the identity of what they hold, and sys's import and trace hooks, compared with the same
  after the run before (about 15 ms in the page, spent after the run has reported "done");
- an audit hook for what leaves no trace in a namespace: a function's code replaced, another audit hook,
  the garbage collector's lists of objects, ctypes, importing js or pyodide. It reports to `report`, a
  JavaScript function that can only raise a flag, at once: nothing the program does later unsays it.
Reaching JavaScript through `js` or `pyodide_js` is noticed in the worker itself (python-worker.js).

A program could try to blind the check itself, so `install` builds it from closures over what it needs,
taken when Python starts: replacing a module's functions, a class's methods or a builtin changes nothing
that the check calls, and reaching its closures takes the garbage collector's lists, which the audit
hook reports first.
"""
import functools
import gc
import operator
import sys
from types import FunctionType, MappingProxyType, MethodType, ModuleType

RUN_FILES = frozenset({'<editor>', '<checks>'})  # playground.FILENAME and checks.FILENAME
SENSITIVE_IMPORTS = frozenset({'ctypes', '_ctypes', 'js', 'pyodide_js', '_pyodide', 'pyodide', 'micropip'})
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


def _make(report, loop_class):
    """(audit, changes, note): the hook, the check after each run, and a way to add a reason of one's own."""
    # Everything the check uses is bound here, once.
    modules_dict, meta_path, path_hooks, path, callbacks = sys.modules, sys.meta_path, sys.path_hooks, sys.path, gc.callbacks
    gettrace, getprofile = sys.gettrace, sys.getprofile
    is_, len_, all_, any_, map_, zip_, list_, tuple_, type_, isinstance_, str_, set_ = (
        operator.is_, len, all, any, map, zip, list, tuple, type, isinstance, str, set)
    # A class's own namespace and names, whatever its metaclass says (a run's metaclass could run code).
    type_dict = type.__dict__['__dict__'].__get__
    type_module = type.__dict__['__module__'].__get__
    type_qualname = type.__dict__['__qualname__'].__get__
    type_flags = type.__dict__['__flags__'].__get__
    dict_get, dict_items, dict_values, proxy_values = dict.get, dict.items, dict.values, MappingProxyType.values
    module_dict = ModuleType.__dict__['__dict__'].__get__
    function_code = FunctionType.__dict__['__code__'].__get__
    function_module = FunctionType.__dict__['__module__'].__get__
    function_qualname = FunctionType.__dict__['__qualname__'].__get__
    method_function = MethodType.__dict__['__func__'].__get__
    split, startswith, run_files, sensitive, audited = str.split, str.startswith, RUN_FILES, SENSITIVE_IMPORTS, AUDITED

    said, imported, classes = set_(), set_(), {}
    state = {'scheduled': 0, 'before': None}

    def say(reason):
        if reason not in said:
            said.add(reason)
            report(reason)

    def defined_in_run(obj):
        """Whether obj is code a run wrote: its function, method or class, or an instance of its class."""
        kind = type_(obj)
        if kind is MethodType:
            obj = method_function(obj)
            kind = type_(obj)
        if kind is FunctionType:
            return function_code(obj).co_filename in run_files
        cls = obj if isinstance_(obj, type) else kind
        return type_dict(cls).get('__module__') == '__main__'

    def published(obj):
        """Whether a module holds obj (a class or function) under its own name: a change reaches later runs.
        Classes that an import makes and then finishes (namedtuple sets their attributes) are not yet there."""
        if isinstance_(obj, ModuleType):
            return True
        if isinstance_(obj, type):
            module, qualname = type_module(obj), type_qualname(obj)
        elif type_(obj) is FunctionType:
            module, qualname = function_module(obj), function_qualname(obj)
        else:
            return False
        target = dict_get(modules_dict, module) if type_(module) is str_ else None
        for part in split(qualname, '.'):
            space = (module_dict(target) if isinstance_(target, ModuleType) else
                     type_dict(target) if isinstance_(target, type) else {})
            target = space.get(part)
        return target is obj

    def describe(obj):
        if isinstance_(obj, type):
            return f"the class {type_module(obj)}.{type_qualname(obj)}"
        if type_(obj) is FunctionType:
            return f"the function {function_module(obj)}.{function_qualname(obj)}"
        if isinstance_(obj, ModuleType):
            return f"the module {dict_get(module_dict(obj), '__name__', '?')}"
        return type_qualname(type_(obj))

    def audit(event, args):
        if event == 'import':
            imported.add(args[0])
            if split(args[0], '.')[0] in sensitive:
                say(f"imported {args[0]}")
        elif event in audited:
            target = args[0] if args else None
            if startswith(event, 'object.') and (defined_in_run(target) or not published(target)):
                return  # the run's own classes and functions are its own business
            say(audited[event].format(describe(target)))
        elif startswith(event, 'ctypes.'):
            say('used ctypes')

    def same(keys, values, old_keys, old_values):
        return len_(keys) == len_(old_keys) and all_(map_(is_, keys, old_keys)) and all_(map_(is_, values, old_values))

    def class_namespaces(name, namespace):
        """The namespaces of the classes a module defines (types written in C cannot be changed)."""
        return [type_dict(v) for v in dict_values(namespace)
                if isinstance_(v, type) and type_flags(v) & HEAPTYPE and type_module(v) == name]

    def fingerprint():
        """What later runs would see: what each module and each class it defines holds, by identity."""
        modules, others = {}, []
        for name, m in list_(dict_items(modules_dict)):
            if type_(m) is ModuleType and type_(d := module_dict(m)) is dict:
                modules[name] = (m, tuple_(d), tuple_(dict_values(d)))
                if name not in classes:
                    classes[name] = class_namespaces(name, d)
            else:
                others += (name, m)
        spaces = {name: [(tuple_(d), tuple_(proxy_values(d))) for d in classes[name]] for name in modules}
        hooks = (*meta_path, None, *path_hooks, None, *path, None, *callbacks, None, *others, None,
                 gettrace(), getprofile())
        return modules, spaces, hooks

    def changes():
        """Reasons why the next run needs a new Python (an empty list: none); then forgets this run."""
        modules, spaces, hooks = after = fingerprint()
        old_modules, old_spaces, old_hooks = state['before']
        reasons = list_(said)
        if state['scheduled']:
            reasons.append("left work scheduled on the event loop")
        if len_(hooks) != len_(old_hooks) or not all_(map_(is_, hooks, old_hooks)):
            reasons.append("changed sys.modules or sys's import or trace hooks")
        for name, (module, keys, values) in dict_items(modules):
            old = dict_get(old_modules, name)
            if old is None:
                if name not in imported or any_(map_(defined_in_run, values)):
                    reasons.append(f"put its own code into the module {name}")
            elif old[0] is not module:
                reasons.append(f"replaced the module {name}")
            elif not same(keys, values, old[1], old[2]):
                reasons.append(f"changed the module {name}")
        for name, namespaces in dict_items(spaces):
            if any_(not same(*new, *old) for new, old in zip_(namespaces, dict_get(old_spaces, name, ()))):
                reasons.append(f"changed a class of the module {name}")
        state['before'] = after
        imported.clear()
        said.clear()
        state['scheduled'] = 0 if reasons else state['scheduled']
        return reasons[:3]

    if loop_class is not None:  # asyncio's tasks and handles all go through call_later
        call_later = loop_class.call_later

        @functools.wraps(call_later)
        def counted(loop, delay, callback, *args, **kwargs):
            state['scheduled'] += 1

            def run(*args):
                state['scheduled'] -= 1
                return callback(*args)
            return call_later(loop, delay, run, *args, **kwargs)
        loop_class.call_later = counted

    state['before'] = fingerprint()
    return audit, changes, say



_note = None


def install(report):
    """Starts watching (once per interpreter); returns changes(), the check to call after each run.

    report(reason) is called the moment a run reaches out in a way that leaves no trace.
    """
    global _note
    if _note is not None:
        raise RuntimeError("scalargrad.isolation is already installed")
    try:
        from pyodide.webloop import WebLoop
    except ImportError:  # plain CPython (the tests)
        WebLoop = None
    audit, changes, _note = _make(report, WebLoop)
    sys.addaudithook(audit)
    changes()  # from here on: installing this changed this module
    return changes


def note(reason):
    """A reason of the playground's own for a fresh Python after this run (it ran out of memory)."""
    if _note is not None:
        _note(reason)
