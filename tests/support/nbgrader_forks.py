"""nbgrader's commands, each run in a fork of one process per test worker that has imported nbgrader already.

Importing nbgrader takes about 3 s of processor time (its server extension's handlers, and nbformat's jsonschema,
which builds a URI grammar as it is imported): more than most of its commands then take. The fork runs
`python -m nbgrader ARGS` (or `python -c CODE`) as the interpreter would, with its own working folder, arguments,
stdin (none), output and exit status, and ends as the interpreter ends (exit handlers run, threads joined); only
the imports are done before it. Run as a script, this file is that process: one request per line on stdin, one
answer per line on stdout. A helper that ran out of time or stopped answering is killed, and the next command
gets a new one.
"""

import atexit
import json
import os
import runpy
import selectors
import shutil
import signal
import subprocess
import sys
import tempfile
import threading
import traceback
import types

NBGRADER_TIMEOUT_S = 600
_helpers = {}  # the environment's items: the helper started with it
_lock = threading.Lock()


def run(cwd, *argv, env):
    """Runs `python ARGV` (`-m MODULE ARGS…` or `-c CODE`) in `cwd`, as subprocess.run(check=True,
    capture_output=True, text=True) would: its standard output, or CalledProcessError."""
    key = tuple(sorted(env.items()))
    with _lock:
        helper = _helpers.get(key)
        if helper is None or helper.process.poll() is not None:
            helper = _helpers[key] = _Helper(dict(env))
        try:
            answer = helper.ask(os.path.abspath(cwd), list(argv))
        except BaseException:
            helper.kill()  # its answer, if any, would be read as the next command's
            del _helpers[key]
            raise
    if answer['returncode']:
        raise subprocess.CalledProcessError(
            answer['returncode'], [sys.executable, *argv], answer['stdout'], answer['stderr']
        )
    return answer['stdout']


class _Helper:
    def __init__(self, env):
        self.scratch = tempfile.TemporaryDirectory(prefix='nbgrader-helper-')  # its log, and each fork's output
        self.log = os.path.join(self.scratch.name, 'log')
        with open(self.log, 'wb') as log:
            self.process = subprocess.Popen(
                [sys.executable, __file__, self.scratch.name],
                stdin=subprocess.PIPE,
                stdout=subprocess.PIPE,
                stderr=log,
                cwd=tempfile.gettempdir(),  # nothing of the checkout's on its import path
                env=env,
                text=True,
                start_new_session=True,  # a command that runs past its time is killed with its children
            )
        atexit.register(self.close)

    def ask(self, cwd, argv):
        self.process.stdin.write(json.dumps({'cwd': cwd, 'argv': argv}) + '\n')
        self.process.stdin.flush()
        with selectors.DefaultSelector() as selector:
            selector.register(self.process.stdout, selectors.EVENT_READ)
            if not selector.select(NBGRADER_TIMEOUT_S):
                raise subprocess.TimeoutExpired([sys.executable, *argv], NBGRADER_TIMEOUT_S)
        line = self.process.stdout.readline()
        if not line:
            self.process.wait()
            raise RuntimeError(
                f'the nbgrader helper ended (status {self.process.returncode}) while it ran {argv[:3]}; '
                f'its log: {self.said()!r}'
            )
        return json.loads(line)

    def said(self):
        with open(self.log, encoding='utf-8', errors='replace') as log:
            return log.read()[-2000:]

    def kill(self):
        try:
            os.killpg(self.process.pid, signal.SIGKILL)
        except ProcessLookupError:
            pass
        self.close()

    def close(self):
        """Ends the helper: it leaves its loop once its stdin closes."""
        if self.process.stdin.closed:
            return
        self.process.stdin.close()
        try:
            self.process.wait(timeout=10)
        except subprocess.TimeoutExpired:
            os.killpg(self.process.pid, signal.SIGKILL)
            self.process.wait()
        self.process.stdout.close()
        self.scratch.cleanup()


def _serve(scratch):
    """The helper's loop; in a fork, the command's exit status (for sys.exit) once it ran."""
    import nbgrader.api  # noqa: F401  (the imports each command would otherwise make again)
    import nbgrader.apps  # noqa: F401

    for line in sys.stdin:
        request = json.loads(line)
        folder = tempfile.mkdtemp(dir=scratch)
        out, err = os.path.join(folder, 'out'), os.path.join(folder, 'err')
        for path in (out, err):
            open(path, 'w').close()
        try:
            child = os.fork()
        except OSError as error:
            answer = {'returncode': 1, 'stdout': '', 'stderr': f'the helper could not fork: {error}'}
        else:
            if child == 0:
                return _child(request['cwd'], request['argv'], out, err)
            _, status = os.waitpid(child, 0)
            answer = {'returncode': os.waitstatus_to_exitcode(status)}
            for name, path in (('stdout', out), ('stderr', err)):
                with open(path, encoding='utf-8', errors='replace') as output:
                    answer[name] = output.read()
        shutil.rmtree(folder, ignore_errors=True)
        print(json.dumps(answer), flush=True)
    return 0


def _child(cwd, argv, out, err):
    for fd, path, flags in ((0, os.devnull, os.O_RDONLY), (1, out, os.O_WRONLY), (2, err, os.O_WRONLY)):
        os.dup2(os.open(path, flags), fd)
    sys.stdin = open(0, closefd=False)
    try:
        os.chdir(cwd)
        if argv[0] == '-m':
            sys.argv, sys.path[0] = [argv[1], *argv[2:]], os.getcwd()
            runpy.run_module(argv[1], run_name='__main__', alter_sys=True)
        else:
            sys.argv, sys.path[0] = ['-c', *argv[2:]], ''
            main = sys.modules['__main__'] = types.ModuleType('__main__')
            exec(compile(argv[1], '<string>', 'exec'), main.__dict__)
    except SystemExit as exit:
        return exit.code
    except BaseException:
        traceback.print_exc()
        return 1
    return 0


if __name__ == '__main__':
    sys.path[0] = ''  # not this file's folder, whose modules are the tests' helpers
    sys.exit(_serve(sys.argv[1]))
