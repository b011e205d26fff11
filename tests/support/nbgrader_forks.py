"""nbgrader's commands, each run in a fork of one process per test worker that has imported nbgrader already.

Importing nbgrader takes about 3 s of processor time (its server extension's handlers, and nbformat's jsonschema,
which builds a URI grammar as it is imported): more than most of its commands then take. The fork runs
`python -m nbgrader ARGS` (or `python -c CODE`) as the interpreter would, with its own working folder, arguments,
output and exit status; only the imports are done before it. Run as a script, this file is that process: one
request per line on stdin, one answer per line on stdout.
"""

import atexit
import functools
import json
import os
import runpy
import selectors
import signal
import subprocess
import sys
import tempfile
import threading

NBGRADER_TIMEOUT_S = 600


def run(cwd, *argv, env):
    """Runs `python ARGV` (`-m MODULE ARGS…` or `-c CODE`) in `cwd`, as subprocess.run(check=True,
    capture_output=True, text=True) would: its standard output, or CalledProcessError."""
    return _forks(tuple(sorted(env.items()))).run(str(cwd), list(argv))


@functools.cache
def _forks(env):
    return _Forks(dict(env))


class _Forks:
    def __init__(self, env):
        self.process = subprocess.Popen(
            [sys.executable, __file__],
            stdin=subprocess.PIPE,
            stdout=subprocess.PIPE,
            env=env,
            text=True,
            start_new_session=True,  # a command that runs past its time is killed with its children
        )
        self.lock = threading.Lock()
        atexit.register(self.process.stdin.close)

    def run(self, cwd, argv):
        command = [sys.executable, *argv]
        with self.lock:
            if self.process.poll() is not None:
                raise RuntimeError(f'the nbgrader process ended (status {self.process.returncode})')
            self.process.stdin.write(json.dumps({'cwd': cwd, 'argv': argv}) + '\n')
            self.process.stdin.flush()
            with selectors.DefaultSelector() as selector:
                selector.register(self.process.stdout, selectors.EVENT_READ)
                if not selector.select(NBGRADER_TIMEOUT_S):
                    os.killpg(self.process.pid, signal.SIGKILL)
                    raise subprocess.TimeoutExpired(command, NBGRADER_TIMEOUT_S)
            line = self.process.stdout.readline()
        if not line:
            raise RuntimeError(f'the nbgrader process ended while it ran {command}')
        answer = json.loads(line)
        if answer['returncode']:
            raise subprocess.CalledProcessError(answer['returncode'], command, answer['stdout'], answer['stderr'])
        return answer['stdout']


def _serve():
    import nbgrader.api  # noqa: F401  (the imports each command would otherwise make again)
    import nbgrader.apps  # noqa: F401

    for line in sys.stdin:
        request = json.loads(line)
        with tempfile.TemporaryDirectory() as folder:
            out, err = os.path.join(folder, 'out'), os.path.join(folder, 'err')
            child = os.fork()
            if child == 0:
                _child(request['cwd'], request['argv'], out, err)
            _, status = os.waitpid(child, 0)
            answer = {'returncode': os.waitstatus_to_exitcode(status)}
            for name, path in (('stdout', out), ('stderr', err)):
                with open(path, encoding='utf-8', errors='replace') as output:
                    answer[name] = output.read()
        print(json.dumps(answer), flush=True)


def _child(cwd, argv, out, err):
    code = 1
    try:
        os.chdir(cwd)
        for fd, path in ((0, os.devnull), (1, out), (2, err)):
            os.dup2(os.open(path, os.O_RDONLY if fd == 0 else os.O_WRONLY | os.O_CREAT), fd)
        sys.stdin = open(0, closefd=False)
        try:
            if argv[0] == '-m':
                sys.argv, sys.path[0] = [argv[1], *argv[2:]], os.getcwd()
                runpy.run_module(argv[1], run_name='__main__', alter_sys=True)
            else:
                sys.argv, sys.path[0] = ['-c', *argv[2:]], ''
                exec(compile(argv[1], '<string>', 'exec'), {'__name__': '__main__'})
            code = 0
        except SystemExit as exit:
            code = exit.code if isinstance(exit.code, int) else (0 if exit.code is None else 1)
            if not isinstance(exit.code, int | None):
                print(exit.code, file=sys.stderr)
        except BaseException:
            import traceback

            traceback.print_exc()
    finally:
        for stream in (sys.stdout, sys.stderr):
            try:
                stream.flush()
            except Exception:
                pass
        os._exit(code)


if __name__ == '__main__':
    sys.path[0] = ''  # not this file's folder, whose modules are the tests' helpers
    _serve()
