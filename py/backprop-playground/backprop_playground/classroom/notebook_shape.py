"""What a handed-in notebook must be: nbformat 4 as its schema has it in outline, so that nbgrader reads it.
`notebook_problem(notebook)` says why one is not, in a sentence the learner's page shows, or gives None."""

import re

# nbformat 4's schema: the properties each part may have (required ones are checked on their own).
NOTEBOOK_KEYS = {'cells', 'metadata', 'nbformat', 'nbformat_minor'}
CELL_KEYS = {
    'code': {'id', 'cell_type', 'metadata', 'source', 'outputs', 'execution_count'},
    'markdown': {'id', 'cell_type', 'metadata', 'source', 'attachments'},
    'raw': {'id', 'cell_type', 'metadata', 'source', 'attachments'},
}
# Each output type's properties, every one required.
OUTPUT_KEYS = {
    'stream': {'output_type', 'name', 'text'},
    'display_data': {'output_type', 'data', 'metadata'},
    'execute_result': {'output_type', 'data', 'metadata', 'execution_count'},
    'error': {'output_type', 'ename', 'evalue', 'traceback'},
}
JSON_MIME = re.compile(r'^application/(.*\+)?json$')  # a mimebundle's values are text, but for these
CELL_ID = re.compile(r'^[a-zA-Z0-9_-]{1,64}$')


def notebook_problem(notebook):
    """Why `notebook` is not an nbformat 4 notebook as nbformat's schema has it in outline, or None."""
    if not isinstance(notebook, dict):
        return "it is not a JSON object"
    if notebook.get('nbformat') != 4 or not isinstance(notebook.get('nbformat_minor'), int):
        return "`nbformat` must be 4, with an integer `nbformat_minor`"
    if not isinstance(notebook.get('metadata'), dict) or not isinstance(notebook.get('cells'), list):
        return "it needs `metadata` (an object) and `cells` (a list)"
    if set(notebook) - NOTEBOOK_KEYS:
        return f"a notebook has no `{sorted(set(notebook) - NOTEBOOK_KEYS)[0]}`"
    metadata = notebook['metadata']
    for part, required in [('kernelspec', ('name', 'display_name')), ('language_info', ('name',))]:
        if part in metadata and not (
            isinstance(metadata[part], dict) and all(isinstance(metadata[part].get(key), str) for key in required)
        ):
            return f"the notebook's `metadata.{part}` must be an object with {' and '.join(f'`{key}`' for key in required)} as text"
    for number, cell in enumerate(notebook['cells'], 1):
        if not isinstance(cell, dict) or cell.get('cell_type') not in CELL_KEYS:
            return f"cell {number} is not a code, markdown or raw cell"
        kind = cell['cell_type']
        if set(cell) - CELL_KEYS[kind]:
            return f"cell {number}: a {kind} cell has no `{sorted(set(cell) - CELL_KEYS[kind])[0]}`"
        if not multiline(cell.get('source')):
            return f"cell {number}'s `source` must be text or a list of lines"
        if 'attachments' in cell and not (
            isinstance(cell['attachments'], dict) and all(map(mimebundle, cell['attachments'].values()))
        ):
            return f"cell {number}'s `attachments` must map names to data keyed by MIME type"
        if not isinstance(cell.get('metadata'), dict):
            return f"cell {number}'s `metadata` must be an object"
        if 'id' in cell and not (isinstance(cell['id'], str) and CELL_ID.match(cell['id'])):
            return f"cell {number}'s `id` must be 1 to 64 letters, digits, - or _"
        if kind == 'code':
            count = cell.get('execution_count', False)
            if count is not None and not counted(count):
                return f"cell {number}'s `execution_count` must be a number or null"
            outputs = cell.get('outputs')
            if not isinstance(outputs, list):
                return f"cell {number}'s `outputs` must be a list of outputs"
            for problem in filter(None, map(output_problem, outputs)):
                return f"cell {number}: {problem}"
    return None


def output_problem(output):
    """Why `output` is not one of nbformat 4's four outputs, or None."""
    kind = output.get('output_type') if isinstance(output, dict) else None
    if kind not in OUTPUT_KEYS:
        return "an output must be a stream, display_data, execute_result or error"
    if set(output) != OUTPUT_KEYS[kind]:
        return f"a {kind} output has exactly {', '.join(f'`{key}`' for key in sorted(OUTPUT_KEYS[kind]))}"
    if kind == 'stream' and not (isinstance(output['name'], str) and multiline(output['text'])):
        return "a stream output's `name` and `text` must be text"
    if kind in ('display_data', 'execute_result') and not (
        mimebundle(output['data']) and isinstance(output['metadata'], dict)
    ):
        return f"a {kind} output's `data` must be keyed by MIME type, and its `metadata` an object"
    if kind == 'execute_result' and not (output['execution_count'] is None or counted(output['execution_count'])):
        return "an execute_result's `execution_count` must be a number or null"
    if kind == 'error' and not (
        isinstance(output['ename'], str)
        and isinstance(output['evalue'], str)
        and isinstance(output['traceback'], list)
        and all(isinstance(line, str) for line in output['traceback'])
    ):
        return "an error output's `ename` and `evalue` must be text and its `traceback` a list of lines"
    return None


def multiline(value):
    return isinstance(value, str) or isinstance(value, list) and all(isinstance(line, str) for line in value)


def mimebundle(value):
    return isinstance(value, dict) and all(JSON_MIME.match(mime) or multiline(data) for mime, data in value.items())


def counted(value):
    return isinstance(value, int) and not isinstance(value, bool) and value >= 0
