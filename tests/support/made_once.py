"""What a run's workers share read-only, made once per run by the first worker that asks for it: a package that
npm packs and unpacks, an nbgrader course. The others wait for it on a lock beside it, as pytest-xdist's
documentation makes a session fixture once."""

import fcntl
import json
import os
import shutil

from . import files_of


def run_folder(tmp_path_factory):
    """The folder of this run that every worker sees: under pytest-xdist, the parent of the workers' own."""
    own = tmp_path_factory.getbasetemp()
    return own.parent if os.environ.get('PYTEST_XDIST_WORKER') else own


def made_once(shared, name, make):
    """`shared`/`name`, a folder that `make(folder)` fills, made by the first worker to ask and returned as it is
    to the others, with its files as they were made (files_of): a test that changes them can be told, whichever
    worker runs it. A making that failed leaves no record, and the next worker to ask makes it again."""
    folder, record = shared / name, shared / f'{name}.made.json'
    with open(shared / f'{name}.lock', 'w') as lock:
        fcntl.flock(lock, fcntl.LOCK_EX)
        if not record.exists():
            if folder.exists():
                shutil.rmtree(folder)  # what a failed making left
            folder.mkdir()
            make(folder)
            record.write_text(json.dumps(files_of(folder)))
        return folder, json.loads(record.read_text())
