"""Notices when a run reached outside its own namespace, so that the page gives the next run a new Python.

A run may change its namespace (a named env keeps it on purpose) but nothing that outlives it: builtins,
modules, classes and functions that it did not define, sys's hooks, the event loop, JavaScript. Python
cannot reliably undo such changes, so the page replaces the interpreter instead (docs/security.md, "Security
model"); this module only has to notice, cheaply:
- `changes()`, after each run: every module's namespace and the namespace of every class a module
  defines, by the identity of what they hold, and sys's import and trace hooks, compared with the same
  after the run before (about 15 ms in the page, spent after the run has reported "done");
- an audit hook for what leaves no trace in a namespace: a function's code replaced, another audit hook,
  the garbage collector's lists of objects, ctypes, importing js or pyodide, writing files, the working
  directory or the environment. It reports to `report`, a JavaScript function that can only raise a flag,
  at once: nothing the program does later unsays it.
Reaching JavaScript (`js`, `pyodide_js`, a JavaScript function's constructor) and work left on the event
loop are noticed in the worker itself (python-worker.js).

A program could try to blind the check itself, so `install` builds it from closures over what it needs,
taken when Python starts, and keeps no reference to them where a program could reach it: replacing a
module's functions, a class's methods or a builtin changes nothing that the check calls, reaching its
closures takes the garbage collector's lists, which the audit hook reports first, and the check runs no
code of the program's (no `==`, `isinstance` or hashing of what the program could have put there).
"""

import gc
import itertools
import operator
import os
import sys
import warnings
from types import CellType, FunctionType, MappingProxyType, MethodType, ModuleType

from .names import RUN_FILES

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
    'os.chdir': 'changed the working directory',
    'os.putenv': 'changed an environment variable',
    'os.unsetenv': 'changed an environment variable',
}
# Files outlive a run: a module written next to the program would be imported by a later one.
FILE_CHANGES = frozenset(
    {
        'os.remove',
        'os.rename',
        'os.mkdir',
        'os.rmdir',
        'os.symlink',
        'os.link',
        'os.truncate',
        'os.chmod',
        'os.chown',
        'os.utime',
        'os.chflags',
        'os.lchflags',
        'shutil.rmtree',
    }
)
WRITE_FLAGS = os.O_WRONLY | os.O_RDWR | os.O_CREAT | os.O_TRUNC | os.O_APPEND
HEAPTYPE = 1 << 9  # Py_TPFLAGS_HEAPTYPE: a class made at run time, whose attributes can be set


def _make(report):
    """(audit, changes): the hook, and the check after each run."""
    # Everything the check uses is bound here, once.
    modules_dict, meta_path, path_hooks, path, callbacks = (
        sys.modules,
        sys.meta_path,
        sys.path_hooks,
        sys.path,
        gc.callbacks,
    )
    gettrace, getprofile, gc_enabled, gc_threshold = sys.gettrace, sys.getprofile, gc.isenabled, gc.get_threshold
    gc_enable, gc_disable, gc_frozen = gc.enable, gc.disable, gc.get_freeze_count
    int_digits, switch_interval, getcwd = sys.get_int_max_str_digits, sys.getswitchinterval, os.getcwd
    environ, warnings_module = os.environ._data, warnings
    is_, len_, all_, any_, map_, zip_, list_, tuple_, type_, issubclass_, str_, set_, sum_ = (
        operator.is_,
        len,
        all,
        any,
        map,
        zip,
        list,
        tuple,
        type,
        issubclass,
        str,
        set,
        sum,
    )
    # A class's own namespace and names, whatever its metaclass says (a run's metaclass could run code).
    type_dict = type.__dict__['__dict__'].__get__
    type_qualname = type.__dict__['__qualname__'].__get__
    type_flags = type.__dict__['__flags__'].__get__
    dict_get, dict_items, dict_values, proxy_values, proxy_get = (
        dict.get,
        dict.items,
        dict.values,
        MappingProxyType.values,
        MappingProxyType.get,
    )
    gc_objects, repeat_, compress, chain = (
        gc.get_objects,
        itertools.repeat,
        itertools.compress,
        itertools.chain.from_iterable,
    )
    module_dict = ModuleType.__dict__['__dict__'].__get__
    function_code = FunctionType.__dict__['__code__'].__get__
    function_closure = FunctionType.__dict__['__closure__'].__get__
    function_module = FunctionType.__dict__['__module__'].__get__
    function_qualname = FunctionType.__dict__['__qualname__'].__get__
    method_function = MethodType.__dict__['__func__'].__get__
    cell_contents = CellType.__dict__['cell_contents'].__get__
    split, startswith, run_files, sensitive, audited = str.split, str.startswith, RUN_FILES, SENSITIVE_IMPORTS, AUDITED
    file_changes, write_flags = FILE_CHANGES, WRITE_FLAGS

    said, imported, classes, cells = set_(), set_(), {}, {}
    end = object()  # the last of every fingerprint's refs
    state = {'before': None, 'checking': False}

    def text(value):
        """value if it is a str itself: a str subclass could run code when compared, hashed or printed."""
        return value if type_(value) is str_ else None

    def plain_keys(space):
        """Whether every key of a dict (or a class's mappingproxy) is a str itself: only then is a lookup in
        it free of the program's code (a str subclass with a matching hash gets its __eq__ called)."""
        return all_(map_(is_, map_(type_, space), repeat_(str_)))

    def lookup(space, key):
        if not plain_keys(space):
            return None
        return dict_get(space, key) if type_(space) is dict else proxy_get(space, key)

    def module_of(cls):
        """A class's __module__, read from its own namespace (type.__module__ would look it up itself)."""
        return text(lookup(type_dict(cls), '__module__'))

    def say(reason):
        if reason not in said:
            said.add(reason)
            report(reason)

    def run_function(function):
        filename = text(function_code(function).co_filename)
        return filename is not None and filename in run_files

    def defined_in_run(obj):
        """Whether obj is code a run wrote: its function, method or class, or an instance of its class."""
        kind = type_(obj)
        if kind is MethodType:
            obj = method_function(obj)
            kind = type_(obj)
        if kind is FunctionType:
            return run_function(obj)
        cls = obj if issubclass_(kind, type) else kind
        return module_of(cls) == '__main__'

    def published(obj):
        """Whether a module holds obj (a class or function) under its own name: a change reaches later runs.
        Classes that an import makes and then finishes (namedtuple sets their attributes) are not yet there."""
        kind = type_(obj)
        if issubclass_(kind, ModuleType):
            return True
        if issubclass_(kind, type):
            module, qualname = module_of(obj), text(type_qualname(obj))
        elif kind is FunctionType:
            module, qualname = text(function_module(obj)), text(function_qualname(obj))
        else:
            return False
        if module is None or qualname is None:
            return False
        target = lookup(modules_dict, module)
        for part in split(qualname, '.'):
            space = (
                module_dict(target)
                if issubclass_(type_(target), ModuleType)
                else type_dict(target)
                if issubclass_(type_(target), type)
                else {}
            )
            target = lookup(space, part)
        return target is obj

    def describe(obj):
        kind = type_(obj)
        if issubclass_(kind, type):
            return f"the class {module_of(obj)}.{text(type_qualname(obj))}"
        if kind is FunctionType:
            return f"the function {text(function_module(obj))}.{text(function_qualname(obj))}"
        if issubclass_(kind, ModuleType):
            return f"the module {text(lookup(module_dict(obj), '__name__'))}"
        return text(type_qualname(kind))

    def writes(mode, flags):
        """Whether an `open` event's mode ('w', 'r+') or os.open flags can change a file."""
        mode = text(mode)
        if mode is not None:
            return any_(c in mode for c in 'wax+')
        return type_(flags) is int and flags & write_flags != 0

    def audit(event, args):
        if state['checking']:
            return  # the check's own gc.get_objects(); no code of the program's runs during the check
        if event == 'import':
            name = text(args[0])
            if name is None:
                return
            imported.add(name)
            if split(name, '.')[0] in sensitive:
                say(f"imported {name}")
        elif event == 'open':
            if writes(args[1], args[2]):
                say('wrote to a file')
        elif event in file_changes:
            say('changed the file system')
        elif event in audited:
            target = args[0] if args else None
            if startswith(event, 'object.') and (defined_in_run(target) or not published(target)):
                return  # the run's own classes and functions are its own business
            say(audited[event].format(describe(target)))
        elif startswith(event, 'ctypes.'):
            say('used ctypes')

    def same(keys, values, old_keys, old_values):
        return len_(keys) == len_(old_keys) and all_(map_(is_, keys, old_keys)) and all_(map_(is_, values, old_values))

    def defined_here(name, value):
        return issubclass_(type_(value), type) and type_flags(value) & HEAPTYPE and module_of(value) == name

    def class_namespaces(name, namespace):
        """The namespaces of the classes a module defines (types written in C cannot be changed)."""
        return [type_dict(v) for v in dict_values(namespace) if defined_here(name, v)]

    def closure_cells(name, namespace):
        """The closure cells of the functions a module and its classes hold: a cell can be set unaudited."""
        found = []
        for values in [dict_values(namespace), *map_(proxy_values, classes[name])]:
            for v in values:
                if type_(v) is FunctionType and (closure := function_closure(v)) is not None:
                    found += closure
        return found

    def contents(cell):
        try:
            return cell_contents(cell)
        except ValueError:  # empty
            return cells

    def settings(collecting):
        """What a run can set in place, compared by value (ints, strs and tuples of them run no code).
        `collecting`: whether the garbage collector was on when the check began (it turns it off)."""
        return (
            collecting,
            gc_threshold(),
            gc_frozen() > 0,  # gc.freeze() hides objects from gc.get_objects(), so from outlived()
            int_digits(),
            switch_interval(),
            getcwd(),
            tuple_(dict_items(environ))
            if all_(type_(k) is bytes and type_(v) is bytes for k, v in dict_items(environ))
            else None,
        )

    def fingerprint(collecting):
        """What later runs would see, flat: (sizes, refs, hooks, settings). sizes are ints; refs, compared by
        identity, are sys.modules' names and modules, what each module's namespace holds, then the namespaces
        of the classes it defines, then its closures' cells and what they hold. unpack() gives it per module.
        The refs come as an iterator: after a run that changed nothing, changes() compares them with the last
        ones as they come, without building them."""
        names, modules, counts, spaces, found, others = [], [], [], [], [], []
        for name, m in list_(dict_items(modules_dict)):
            if type_(name) is str_ and type_(m) is ModuleType and type_(d := module_dict(m)) is dict:
                if name not in classes:
                    classes[name] = class_namespaces(name, d)
                    cells[name] = tuple_(closure_cells(name, d))
                names.append(name)
                modules.append(m)
                counts.append(len_(classes[name]))
                spaces += (d, *classes[name])
                found.append(cells[name])
            else:
                others += (name, m)
        held = [names, modules]
        for space in spaces:
            held += (space, dict_values(space) if type_(space) is dict else proxy_values(space))
        cell_counts = list_(map_(len_, found))
        found = tuple_(chain(found))
        held += (found, map_(contents, found), (end,))
        sizes = (len_(names), len_(spaces), *counts, *map_(len_, spaces), *cell_counts)
        filters = lookup(module_dict(warnings_module), 'filters')
        hooks = (
            *meta_path,
            None,
            *path_hooks,
            None,
            *path,
            None,
            *callbacks,
            None,
            *others,
            None,
            *(filters if type_(filters) is list else ()),
            None,
            gettrace(),
            getprofile(),
        )
        return sizes, chain(held), hooks, settings(collecting)

    def kept(fingerprint):
        sizes, refs, hooks, now = fingerprint
        return sizes, tuple_(refs), hooks, now

    def unpack(sizes, refs):
        """A fingerprint per module: {name: (module, keys, values)}, and {name: [(keys, values) of each class
        namespace it defines, then (closure cells, what they hold)]}."""
        count, space_count = sizes[0], sizes[1]
        counts = sizes[2 : 2 + count]
        space_sizes = sizes[2 + count : 2 + count + space_count]
        cell_counts = sizes[2 + count + space_count :]
        names, modules, at = refs[:count], refs[count : 2 * count], 2 * count
        namespaces = []  # (keys, values) of each, in fingerprint()'s order
        for size in space_sizes:
            namespaces.append((refs[at : at + size], refs[at + size : at + 2 * size]))
            at += 2 * size
        all_cells = sum_(cell_counts)
        found, cell_values = refs[at : at + all_cells], refs[at + all_cells : -1]  # the last is `end`
        per_module, per_spaces, space, cell = {}, {}, 0, 0
        for name, module, classes_here, cells_here in zip_(names, modules, counts, cell_counts):
            per_module[name] = (module, *namespaces[space])
            per_spaces[name] = [
                *namespaces[space + 1 : space + 1 + classes_here],
                (found[cell : cell + cells_here], cell_values[cell : cell + cells_here]),
            ]
            space += 1 + classes_here
            cell += cells_here
        return per_module, per_spaces

    def outlived():
        """Whether anything a run defined (a function, a class, an instance of one) is still alive after its
        namespace went and the garbage was collected: a finalizer (__del__) or a weakref callback of it
        could run during a later run."""
        state['checking'] = True
        try:
            found = gc_objects()
        finally:
            state['checking'] = False
        kinds = list_(compress(found, map_(issubclass_, map_(type_, found), repeat_(type))))
        kinds += set_(map_(type_, found))
        if any_(module_of(kind) == '__main__' for kind in kinds if type_flags(kind) & HEAPTYPE):
            return True
        return any_(map_(run_function, compress(found, map_(is_, map_(type_, found), repeat_(FunctionType)))))

    def changed_modules(after, before):
        """What a run changed, named module by module (only after one whose fingerprint differs)."""
        (modules, spaces), (old_modules, old_spaces) = after, before
        reasons = []
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
                reasons.append(f"changed a class or a closure of the module {name}")
        return reasons

    def changes(namespace_gone=False):
        """Reasons why the next run needs a new Python (an empty list: none); then forgets this run.
        `namespace_gone`: the run's namespace is not kept (no named env), and the garbage was collected.
        The garbage collector is off meanwhile: a finalizer of the run's could otherwise run in the middle
        of the check and change what was already compared."""
        collecting = gc_enabled()
        gc_disable()
        try:
            return check(namespace_gone, collecting)
        finally:
            if collecting:
                gc_enable()

    def check(namespace_gone, collecting):
        sizes, refs, hooks, now = fingerprint(collecting)
        old_sizes, old_refs, old_hooks, old_settings = state['before']
        # Compared at once. Equal sizes mean as many refs as before; `end` closes both, so any other length fails.
        unchanged = sizes == old_sizes and all_(map_(is_, refs, old_refs))
        reasons = list_(said)
        if namespace_gone and outlived():
            reasons.append("left objects of its own alive (their __del__ or callbacks could run in a later run)")
        if len_(hooks) != len_(old_hooks) or not all_(map_(is_, hooks, old_hooks)):
            reasons.append("changed sys.modules, sys's import or trace hooks, or the warnings filters")
        if now != old_settings:
            reasons.append(
                "changed a setting of Python's (the garbage collector, the environment, the working directory)"
            )
        if unchanged:
            state['before'] = (old_sizes, old_refs, hooks, now)
        else:
            # The hooks and settings kept are the ones compared above, never newer ones.
            sizes, refs, _, _ = kept(fingerprint(collecting))
            state['before'] = (sizes, refs, hooks, now)
            reasons += changed_modules(unpack(sizes, refs), unpack(old_sizes, old_refs))
        imported.clear()
        said.clear()
        return reasons[:3]

    state['before'] = kept(fingerprint(gc_enabled()))
    return audit, changes


_installed = False


def install(report):
    """Starts watching (once per interpreter); returns changes(), the check to call after each run.

    report(reason) is called the moment a run reaches out in a way that leaves no trace.
    """
    global _installed
    if _installed:
        raise RuntimeError("playground_runtime.isolation is already installed")
    _installed = True
    audit, changes = _make(report)
    sys.addaudithook(audit)
    changes()  # from here on: installing this changed this module
    return changes
