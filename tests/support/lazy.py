"""nbformat and nbgrader's utilities, each imported when a test first uses it rather than when pytest collects a
module that names it.

Importing nbformat imports jsonschema, which builds the grammar of IRIs (rfc3987_syntax, a Lark parser) as it is
imported: about 1.3 s of processor time that the controller and every test worker would pay while collecting,
before their first test, whether or not they run a test that reads a notebook. Importing nbgrader takes 2.4 s more
(its server extension's handlers).
"""

import importlib


class LazyModule:
    """Stands for a module and imports it when a test reads one of its public names. pytest's collection reads
    only private names (`__test__`, its fixture marker) of each object in a test module: those are not the
    module's, and import nothing."""

    def __init__(self, name):
        self._name = name

    def __getattr__(self, attribute):
        if attribute.startswith('_'):
            raise AttributeError(attribute)
        return getattr(importlib.import_module(self._name), attribute)


nbformat = LazyModule('nbformat')
nbgrader_utils = LazyModule('nbgrader.utils')
