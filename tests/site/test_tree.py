"""The source tree: clean under its linters (ruff for Python, with its formatter; ESLint for JavaScript, each with
the project's own configuration: pyproject.toml, eslint.config.mjs), and no imports that go round in a circle
among the Python packages of py/ and the benchmarks of bench/. A module imported by one it imports runs
half-made, and an import deferred into a function only hides the circle, so every import counts, wherever in
the file it is. Each module of py/ holds one job, in at most 450 lines (the runner's parts at most 300), and the
engine, scalargrad, stands alone: it imports nothing of the page's packages, and no one imports its private
names."""

import ast
import subprocess
import sys

import pytest

from support import ROOT

PACKAGES = sorted(path.parent for path in ROOT.glob('py/*/*/__init__.py'))
BENCH = ROOT / 'bench'


def modules(packages=PACKAGES, scripts=BENCH):
    """{module name: its file}: each package's modules by their dotted names, each script by its file's stem."""
    found = {}
    for package in packages:
        for path in package.rglob('*.py'):
            parts = path.relative_to(package.parent).with_suffix('').parts
            found['.'.join(parts[:-1] if parts[-1] == '__init__' else parts)] = path
    for path in scripts.glob('*.py'):
        found[path.stem] = path
    return found


def import_graph(known):
    return {name: imported(name, path, known) for name, path in known.items()}


def imported(name, path, known):
    """The modules of `known` that module `name` imports, anywhere in its file: the module named, and each package
    above it that `name` is not inside (importing a.b.c runs a/__init__.py and a/b/__init__.py first)."""
    package = name if path.name == '__init__.py' else name.rpartition('.')[0]
    targets = set()
    for node in ast.walk(ast.parse(path.read_text(), str(path))):
        if isinstance(node, ast.Import):
            targets.update(alias.name for alias in node.names)
        elif isinstance(node, ast.ImportFrom):
            if node.level:
                base = package.split('.')[: len(package.split('.')) - node.level + 1]
                module = '.'.join(base + ([node.module] if node.module else []))
            else:
                module = node.module
            # `from P import x`: the submodule P.x if there is one, else a name that P's __init__ defines
            targets.update(
                f"{module}.{alias.name}" if f"{module}.{alias.name}" in known else module for alias in node.names
            )
    edges = set()
    for target in targets:
        parts = target.split('.')
        for end in range(1, len(parts) + 1):
            prefix = '.'.join(parts[:end])
            if prefix in known and prefix != name and not (end < len(parts) and (name + '.').startswith(prefix + '.')):
                edges.add(prefix)
    return edges


def circles(graph):
    """Each set of modules that import one another, round and back (Tarjan's strongly connected components)."""
    index, low, stack, on_stack, found = {}, {}, [], set(), []

    def visit(node):
        index[node] = low[node] = len(index)
        stack.append(node)
        on_stack.add(node)
        for other in sorted(graph[node]):
            if other not in index:
                visit(other)
                low[node] = min(low[node], low[other])
            elif other in on_stack:
                low[node] = min(low[node], index[other])
        if low[node] == index[node]:
            component = []
            while True:
                member = stack.pop()
                on_stack.discard(member)
                component.append(member)
                if member == node:
                    break
            if len(component) > 1:
                found.append(sorted(component))

    for node in sorted(graph):
        if node not in index:
            visit(node)
    return found


def test_no_imports_go_round_in_a_circle():
    known = modules()
    assert {'scalargrad.engine', 'playground_runtime.runner', 'backprop_playground.steps', 'harness'} <= set(known)
    graph = import_graph(known)
    assert 'playground_runtime.numbers' in graph['playground_runtime.checks']  # it sees relative imports
    assert circles(graph) == []


def test_a_circle_is_found_however_it_is_hidden(tmp_path):
    package, scripts = tmp_path / 'p', tmp_path / 'scripts'
    package.mkdir()
    scripts.mkdir()
    (package / '__init__.py').write_text('from .a import run\n')
    (package / 'a.py').write_text('def run():\n    from . import b  # deferred\n')
    (package / 'b.py').write_text('from p import run  # a submodule that imports its own package\'s __init__\n')
    (package / 'c.py').write_text('import p.a\n')  # no circle: c is imported by no one
    (scripts / 'page.py').write_text('def main():\n    import teaching\n')
    (scripts / 'teaching.py').write_text('from page import main\n')
    assert circles(import_graph(modules([package], scripts))) == [['p', 'p.a', 'p.b'], ['page', 'teaching']]


LONGEST = 450  # lines
# What runs a learner's program, one job a module (it was one runner.py of 670 lines).
RUNNER = ['runner', 'events', 'namespaces', 'program', 'drawing', 'stand_ins', 'errors', 'nbgrader_cells']
LONGEST_OF = {f'playground_runtime.{name}': 300 for name in RUNNER}


def test_no_module_of_py_is_longer_than_its_job_needs():
    long = []
    found = modules(scripts=ROOT / 'nothing')
    assert set(LONGEST_OF) <= set(found)
    for name, path in found.items():
        limit = LONGEST_OF.get(name, LONGEST)
        lines = len(path.read_text().splitlines())
        if lines > limit:
            long.append(f"{path.relative_to(ROOT)}: {lines} lines, more than {limit}")
    assert long == []


def test_the_engine_stands_alone():
    known = modules()
    graph = import_graph(known)
    engine = [name for name in known if name.partition('.')[0] == 'scalargrad']
    assert len(engine) > 5
    assert {target for name in engine for target in graph[name] if not target.startswith('scalargrad')} == set()
    private = []
    # The engine's own tests (tests/engine/) test its inner workings, as its modules do.
    for path in [*ROOT.glob('py/*/*/**/*.py'), *ROOT.glob('tests/**/*.py'), *ROOT.glob('bench/*.py')]:
        if not {'scalargrad', 'engine'} & set(path.relative_to(ROOT).parts[:3]):
            private += [f"{path.relative_to(ROOT)}: {name}" for name in engine_privates(path.read_text())]
    assert private == []


def engine_privates(source):
    """The private names of scalargrad that `source` reaches: imported (`from scalargrad.x import _y`), or read
    from a module of it (`gradcheck._y`, `scalargrad.gradcheck._y`). Dunders are not private."""
    tree = ast.parse(source)
    modules, found = set(), []
    for node in ast.walk(tree):
        if isinstance(node, ast.Import):
            modules |= {(a.asname or a.name).split('.')[0] for a in node.names if a.name.split('.')[0] == 'scalargrad'}
        elif isinstance(node, ast.ImportFrom) and (node.module or '').split('.')[0] == 'scalargrad':
            found += [a.name for a in node.names if a.name.startswith('_')]
            modules |= {a.asname or a.name for a in node.names}
    for node in ast.walk(tree):
        if isinstance(node, ast.Attribute) and node.attr.startswith('_') and not node.attr.endswith('__'):
            base = node.value
            while isinstance(base, ast.Attribute):
                base = base.value
            if isinstance(base, ast.Name) and base.id in modules:
                found.append(node.attr)
    return found


def test_a_private_name_of_the_engine_is_found_however_it_is_reached():
    source = (
        'import scalargrad.ops\nfrom scalargrad import gradcheck as g\nfrom scalargrad.graph import _visible\n'
        'g._close(1, 1)\nscalargrad.ops._constant_power("**2")\nx = g.__name__\nother._private = 1\n'
    )
    assert engine_privates(source) == ['_visible', '_close', '_constant_power']


@pytest.mark.parametrize('command', [['check'], ['format', '--check']], ids=['ruff check', 'ruff format'])
def test_the_python_is_clean_under_ruff(command):
    done = subprocess.run(
        [sys.executable, '-m', 'ruff', *command, '--no-cache', '.'],
        cwd=ROOT,
        capture_output=True,
        text=True,
        timeout=120,
    )
    assert done.returncode == 0, done.stdout[-4000:] + done.stderr[-2000:]


@pytest.mark.usefixtures('site')  # the build installs npm's packages, ESLint with them
def test_the_javascript_is_clean_under_eslint():
    done = subprocess.run(
        [str(ROOT / 'node_modules' / '.bin' / 'eslint'), '--max-warnings', '0', '.'],
        cwd=ROOT,
        capture_output=True,
        text=True,
        timeout=300,
    )
    assert done.returncode == 0, done.stdout[-4000:] + done.stderr[-2000:]
