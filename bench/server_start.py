"""Issue 27's third figure: `python build.py serve` started with nothing changed since the last build, to
the first page it serves (seconds from the command's start to a 200 for index.html).

    python build.py && python bench/server_start.py [--runs 5]
"""

import argparse
import socket
import statistics
import subprocess
import sys
import time
import urllib.request
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent


def free_port():
    with socket.socket() as s:
        s.bind(('127.0.0.1', 0))
        return s.getsockname()[1]


def time_to_first_page(timeout_s=300):
    port = free_port()
    started = time.perf_counter()
    server = subprocess.Popen(
        [sys.executable, 'build.py', 'serve', '--port', str(port)],
        cwd=ROOT,
        stdout=subprocess.DEVNULL,
        stderr=subprocess.PIPE,
        text=True,
    )
    try:
        while time.perf_counter() - started < timeout_s:
            if server.poll() is not None:
                raise SystemExit(f'build.py serve ended with {server.returncode}: {server.stderr.read()[-2000:]}')
            try:
                with urllib.request.urlopen(f'http://127.0.0.1:{port}/index.html', timeout=1) as response:
                    if response.status == 200:
                        return time.perf_counter() - started
            except OSError:
                time.sleep(0.05)
        raise SystemExit(f'nothing served within {timeout_s} s')
    finally:
        server.terminate()
        server.wait()


def main():
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument('--runs', type=int, default=5)
    args = parser.parse_args()
    first = time_to_first_page()  # brings dist/ up to date if it was not
    times = [time_to_first_page() for _ in range(args.runs)]
    print(
        f'build.py serve, nothing changed: first page after {statistics.median(times):.2f} s '
        f'(median of {args.runs}; {min(times):.2f}-{max(times):.2f} s); the run before them took {first:.2f} s'
    )


if __name__ == '__main__':
    main()
