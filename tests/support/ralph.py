"""Ralph, a real xAPI Learning Record Store (France Université Numérique's `ralph-malph`, pinned), for the
forwarding tests and bench/forwarding.py: installed once per machine in a virtual environment of its own (VENV
below: outside the checkout, keyed by Ralph's version and Python's, as pip keeps its cache; so that the test
extras stay resolvable and a fresh clone does not install it again), started on 127.0.0.1 with its filesystem
backend and one user made by `ralph auth`, stopped (or killed) and started again on the same port and folder.

    python tests/support/ralph.py     # makes the venv when it is missing (.ci/run does; the tests try too)

This file uses the standard library alone and imports nothing of the project or of tests/support, so that
.ci/run can run it before the test extras are installed."""

import base64
import fcntl
import json
import os
import signal
import socket
import subprocess
import sys
import time
import urllib.error
import urllib.request
from pathlib import Path

VERSION = '5.1.0'
# `ralph auth` needs the `cli` extra; its `auth` command imports `requests` without declaring it.
REQUIREMENTS = [f'ralph-malph[cli,lrs]=={VERSION}', 'requests']
# The machine's cache for the tests' tools: $BACKPROP_PLAYGROUND_CACHE, or XDG's cache folder (as paths.machine_cache()
# says; this script runs before the project is installed). The build keeps its outputs in build/ there.
MACHINE_CACHE = Path(
    os.environ.get('BACKPROP_PLAYGROUND_CACHE')
    or Path(os.environ.get('XDG_CACHE_HOME') or Path.home() / '.cache') / 'backprop-playground'
)
VENV = MACHINE_CACHE / f"ralph-{VERSION}-py{sys.version_info.major}.{sys.version_info.minor}"
PYTHON = VENV / 'bin' / 'python'
USER, PASSWORD = 'room-forwarder', 'a password for the tests'
# Ralph's filesystem backend writes only the first statements to a file unless its operation is APPEND.
APP = """from ralph.backends.data.base import BaseOperationType
from ralph.backends.lrs.fs import FSLRSBackend

FSLRSBackend.default_operation_type = BaseOperationType.APPEND

from ralph.api import app  # noqa: E402
"""


def installed():
    """(the venv's python, None) once Ralph is there, installing it when missing; (None, why) when it cannot be."""
    VENV.parent.mkdir(parents=True, exist_ok=True)
    with open(VENV.parent / f'{VENV.name}.lock', 'w') as lock:
        fcntl.flock(lock, fcntl.LOCK_EX)  # pytest-xdist's workers, or a bench beside the tests
        if not ready():
            try:
                subprocess.run([sys.executable, '-m', 'venv', '--clear', str(VENV)], check=True, capture_output=True)
                subprocess.run(
                    [str(PYTHON), '-m', 'pip', 'install', '-q', *REQUIREMENTS],
                    check=True,
                    capture_output=True,
                    timeout=600,
                )
            except (OSError, subprocess.SubprocessError) as error:
                output = getattr(error, 'stderr', b'') or b''
                last = output.decode(errors='replace').strip().splitlines()[-1:] or [str(error)]
                return None, f"Ralph (ralph-malph) could not be installed in {VENV}: {last[0]}"
        return (PYTHON, None) if ready() else (None, f"Ralph (ralph-malph) is not importable in {VENV}")


def ready():
    # ralph.api reads its settings on import: the filesystem backend, or it looks for Elasticsearch.
    return (
        PYTHON.is_file()
        and subprocess.run(
            [str(PYTHON), '-c', 'import ralph.api, ralph.cli, requests'],
            capture_output=True,
            env={**os.environ, 'RALPH_RUNSERVER_BACKEND': 'fs'},
        ).returncode
        == 0
    )


def free_port():
    with socket.socket() as probe:
        probe.bind(('127.0.0.1', 0))
        return probe.getsockname()[1]


class Ralph:
    """Ralph on 127.0.0.1:`port` with its statements in `folder`; `url` is its xAPI address."""

    def __init__(self, python, folder, port=None):
        self.python, self.folder, self.port = python, Path(folder), port or free_port()
        self.url = f"http://127.0.0.1:{self.port}/xAPI/"
        self.process = None
        (self.folder / 'app').mkdir(parents=True, exist_ok=True)
        (self.folder / 'lrs_app.py').write_text(APP)
        self.environment = {
            **os.environ,
            'RALPH_APP_DIR': str(self.folder / 'app'),
            'RALPH_RUNSERVER_BACKEND': 'fs',
            'RALPH_BACKENDS__LRS__FS__DEFAULT_DIRECTORY_PATH': str(self.folder / 'statements'),
        }
        if not (self.folder / 'app' / 'auth.json').is_file():
            subprocess.run(
                [
                    str(self.python),
                    '-m',
                    'ralph',
                    'auth',
                    '-u',
                    USER,
                    '-p',
                    PASSWORD,
                    '-s',
                    'statements/write',
                    '-s',
                    'statements/read',
                    '-A',
                    USER,
                    'http://school.example/',
                    '-w',
                ],
                env=self.environment,
                check=True,
                capture_output=True,
            )
        self.start()

    def start(self):
        self.log = open(self.folder / 'ralph.log', 'ab')
        self.process = subprocess.Popen(
            [
                str(self.python),
                '-m',
                'uvicorn',
                'lrs_app:app',
                '--host',
                '127.0.0.1',
                '--port',
                str(self.port),
                '--no-access-log',
            ],
            cwd=self.folder,
            env=self.environment,
            stdout=self.log,
            stderr=subprocess.STDOUT,
        )
        deadline = time.monotonic() + 60
        while True:
            try:
                with urllib.request.urlopen(f"http://127.0.0.1:{self.port}/__heartbeat__", timeout=5) as response:
                    if response.status == 200:
                        return
            except OSError:
                pass
            if self.process.poll() is not None or time.monotonic() > deadline:
                raise RuntimeError(f"Ralph did not start: {(self.folder / 'ralph.log').read_text()[-2000:]}")
            time.sleep(0.1)

    def stop(self, kill=False):
        if self.process and self.process.poll() is None:
            self.process.send_signal(signal.SIGKILL if kill else signal.SIGTERM)
            self.process.wait(30)
        self.log.close()

    def authorization(self, user=USER, password=PASSWORD):
        return 'Basic ' + base64.b64encode(f"{user}:{password}".encode()).decode()

    def post(self, statements, authorization=None):
        """POSTs statements as a client would: (status, body)."""
        request = urllib.request.Request(
            self.url + 'statements',
            data=json.dumps(statements).encode(),
            method='POST',
            headers={
                'Content-Type': 'application/json',
                'X-Experience-API-Version': '1.0.3',
                **({'Authorization': authorization} if authorization else {}),
            },
        )
        try:
            with urllib.request.urlopen(request, timeout=30) as response:
                return response.status, response.read().decode()
        except urllib.error.HTTPError as error:
            return error.code, error.read().decode()

    def statements(self):
        """Every statement Ralph holds, read back through GET /xAPI/statements, page by page (`more`)."""
        found, path = [], '/xAPI/statements?limit=100'
        while path:
            request = urllib.request.Request(
                f"http://127.0.0.1:{self.port}{path}",
                headers={'Authorization': self.authorization(), 'X-Experience-API-Version': '1.0.3'},
            )
            with urllib.request.urlopen(request, timeout=60) as response:
                page = json.load(response)
            found += page['statements']
            path = page.get('more') if page['statements'] else None
        return found


if __name__ == '__main__':
    python, why = installed()
    print(why or f"Ralph is ready: {python}")
    sys.exit(1 if why else 0)
