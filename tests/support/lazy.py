"""nbformat, imported when a test first uses it rather than when pytest collects a module that names it.

Importing nbformat imports jsonschema, which builds the grammar of IRIs (rfc3987_syntax, a Lark parser) as it is
imported: about 1.3 s of processor time that the controller and every test worker would pay while collecting,
before their first test, whether or not they run a test that reads a notebook. importlib.util.LazyLoader is the
standard library's own recipe for this (its documentation, "Implementing lazy imports").
"""

import importlib.util
import sys


def lazy_import(name):
    if name in sys.modules:
        return sys.modules[name]
    spec = importlib.util.find_spec(name)
    spec.loader = importlib.util.LazyLoader(spec.loader)
    module = importlib.util.module_from_spec(spec)
    sys.modules[name] = module
    spec.loader.exec_module(module)
    return module


nbformat = lazy_import('nbformat')
