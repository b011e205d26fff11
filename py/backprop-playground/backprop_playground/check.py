"""`check PATH…`: an author's exercises checked before a class sees them. Each exercise's solution must pass its
checks and its starter must fail them, run in CPython by the page's own runtime (playground_runtime, the
same checks and helpers the page runs). One line per exercise; the exit status is 1 if any is wrong."""

import json
import signal
import sys
import zipfile
from pathlib import Path

from . import exercises, paths

TIMEOUT_S = 30  # a run that has not ended by then (a loop in a starter) counts as not finishing


def runtime():
    """playground_runtime's run(): from the checkout's sources, or from the wheels of the installed site."""
    try:
        from playground_runtime import runner

        return runner.run
    except ImportError:
        pass
    if paths.in_checkout():
        sys.path[:0] = [str(paths.PY / 'scalargrad'), str(paths.PY / 'playground-runtime')]
    else:
        wheels = sorted((paths.served_site() / 'wheels').glob('*.whl'))
        sys.path[:0] = [str(wheel) for wheel in wheels if zipfile.is_zipfile(wheel)]
    from playground_runtime import runner

    return runner.run


def outcome(run, code, checks):
    """'passed', 'failed' with the checks' message, or what else happened to the run."""

    def stop(signum, frame):
        raise KeyboardInterrupt

    timer = hasattr(signal, 'SIGALRM')
    if timer:
        previous = signal.signal(signal.SIGALRM, stop)
        signal.alarm(TIMEOUT_S)
    try:
        result = json.loads(run(code, lambda event: None, checks=checks))
    finally:
        if timer:
            signal.alarm(0)
            signal.signal(signal.SIGALRM, previous)
    if result['status'] == 'interrupted':
        return 'stopped', f"it did not finish within {TIMEOUT_S} s"
    if result['status'] == 'error':
        error = result['error']
        return 'error', f"{error['type']}: {error['message']} (line {error.get('line')})"
    return result['check']['status'], result['check']['message']


def check_exercise(run, exercise):
    """A line's verdict for one exercise: (ok, what was found)."""
    if exercise.checks is None:
        return True, "no checks: nothing to run"
    found = []
    if exercise.solution is not None:
        state, message = outcome(run, exercise.solution, exercise.checks)
        if state != 'passed':
            found.append(f"the solution does not pass its checks ({state}: {message})")
    state, message = outcome(run, exercise.starter, exercise.checks)
    if state == 'passed':
        found.append("the starter passes its checks: a learner would pass without writing anything")
    elif state in ('error', 'stopped'):
        found.append(f"the starter does not run to its checks ({message}): a learner should see a check's message")
    return not found, '; '.join(found) or "the solution passes, the starter fails"


def in_file_order(where):
    """A place's number (a line, or a notebook's cell), to print the file's verdicts in its order."""
    number = where.rsplit(':', 1)[-1].rsplit(' ', 1)[-1]
    return int(number) if number.isdigit() else 0


def main(files, out=sys.stdout):
    """Checks every exercise of `files`; returns the exit status."""
    if not files:
        print("check: give the Markdown, notebook or HTML files whose exercises to check", file=out)
        return 2
    run = runtime()
    wrong = total = 0
    for name in files:
        path = Path(name)
        try:
            found = exercises.read(path)
        except (OSError, ValueError, UnicodeDecodeError) as error:
            print(f"{name}: cannot be read ({error})", file=out)
            wrong += 1
            continue
        said = [(where, f"{where}: {id}: refused: {what}") for where, id, what in found.problems]
        wrong += len(found.problems)
        for exercise in found.exercises:
            total += 1
            ok, what = check_exercise(run, exercise)
            said.append((exercise.where, f"{exercise.where}: {exercise.id}: {'ok' if ok else 'wrong'}: {what}"))
            wrong += not ok
        for _, line in sorted(said, key=lambda said: in_file_order(said[0])):
            print(line, file=out)
    print(f"{total} exercise{'' if total == 1 else 's'} checked, {wrong} wrong", file=out)
    return 1 if wrong else 0
