"""A learner's source as the code a run executes: notebook commands (`%matplotlib inline`, `!pip install`)
skipped when the program does not parse with them, and every top-level expression statement passed to the
display hook, as a notebook shows a cell's values."""

import ast

from .names import EDITOR as FILENAME

DISPLAY = '__playground_display__'
NOTEBOOK_PREFIXES = ('%', '!')


def skip_notebook_commands(source):
    """Blank out lines like `%matplotlib inline` or `!pip install`; return the new source and what went."""
    lines, skipped = source.split('\n'), []
    for i, line in enumerate(lines):
        stripped = line.lstrip()
        if stripped.startswith(NOTEBOOK_PREFIXES):
            skipped.append((i + 1, stripped))
            lines[i] = line[: len(line) - len(stripped)] + 'pass'
    return '\n'.join(lines), skipped


def parse(source, filename=FILENAME):
    """The program's AST with every top-level expression statement passed to the display hook."""
    try:
        tree = ast.parse(source, filename)
        skipped = []
    except SyntaxError:
        # A line starting with % or ! is only a notebook command if the program does not parse with it.
        patched, skipped = skip_notebook_commands(source)
        if not skipped:
            raise
        tree = ast.parse(patched, filename)  # an error now is the program's own, past the magics
    body = tree.body
    for i, stmt in enumerate(body):
        if isinstance(stmt, ast.Expr):
            # Each new node is given its place here: ast.fix_missing_locations walks the whole tree, which took
            # a third of a small program's run in CPython.
            where = stmt.value
            hook, last = ast.Name(DISPLAY, ast.Load()), ast.Constant(i == len(body) - 1)
            call = ast.Call(ast.copy_location(hook, where), [where, ast.copy_location(last, where)], [])
            body[i] = ast.copy_location(ast.Expr(ast.copy_location(call, where)), stmt)
    return tree, skipped
