"""Issue 35's figure: 30 learners handing in a 1 MB notebook at once to `build.py serve --classroom DIR`, in
a process of its own as a teacher starts it.

    python build.py && python bench/hand_ins.py [--learners 30] [--megabytes 1] [--runs 3]

Prints, per run, p50 and p95 of a hand-in's latency (the POST to its 200) and the wall time, and checks
that every hand-in is stored whole in DIR/submitted/STUDENT/ASSIGNMENT/. Side by side in the same run: one
learner handing in alone, the same notebook, so the ratio shows what the room's rush costs each learner.
"""

import argparse
import json
import os
import statistics
import subprocess
import sys
import tempfile
import threading
import time
import urllib.request
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT / 'tests'))
from support.http_calls import call, free_port  # noqa: E402


def notebook(learner, megabytes):
    """An nbformat 4 notebook of about `megabytes` MB: code cells of a learner's typical length."""
    cell = {
        'cell_type': 'code',
        'metadata': {},
        'outputs': [],
        'execution_count': None,
        'source': f"# learner {learner}\n" + 'x = Value(2.0, label="x")\n' * 40,
    }
    count = int(megabytes * 1e6 / len(json.dumps(cell)))
    return {'nbformat': 4, 'nbformat_minor': 5, 'metadata': {}, 'cells': [dict(cell, id=f'c{i}') for i in range(count)]}


def hand_in(base, learner, body):
    request = urllib.request.Request(
        base + 'classroom/hand-in', data=body, headers={'Content-Type': 'application/json'}
    )
    started = time.perf_counter()
    with urllib.request.urlopen(request, timeout=120) as response:
        answer = json.loads(response.read())
    return time.perf_counter() - started, answer['student']


def serve(folder):
    port = free_port()
    process = subprocess.Popen(
        [sys.executable, 'build.py', 'serve', '--port', str(port), '--classroom', str(folder)],
        cwd=ROOT,
        stdout=subprocess.DEVNULL,
        stderr=subprocess.PIPE,
        text=True,
    )
    base = f"http://127.0.0.1:{port}/"
    deadline = time.monotonic() + 600
    while time.monotonic() < deadline:
        if process.poll() is not None:
            sys.exit(f'build.py serve ended with {process.returncode}: {process.stderr.read()[-2000:]}')
        try:
            if call(base + 'classroom/config.json')[0] == 200:
                return process, base
        except OSError:
            time.sleep(0.1)
    sys.exit('build.py serve did not start')


def one_run(learners, megabytes):
    with tempfile.TemporaryDirectory() as folder:
        folder = Path(folder)
        (folder / 'release' / 'ps1').mkdir(parents=True)
        (folder / 'release' / 'ps1' / 'ps1.ipynb').write_text(json.dumps(notebook('release', 0.01)))
        process, base = serve(folder)
        try:
            bodies = [
                json.dumps(
                    {
                        'key': f'key-{n}',
                        'name': f'Learner {n}',
                        'assignment': 'ps1',
                        'file': 'ps1.ipynb',
                        'notebook': notebook(n, megabytes),
                    }
                ).encode()
                for n in range(learners + 1)
            ]
            alone = [hand_in(base, learners, bodies[learners])[0] for _ in range(3)]
            latencies, students = [], []
            start = threading.Barrier(learners)

            def learner(n):
                start.wait()
                seconds, student = hand_in(base, n, bodies[n])
                latencies.append(seconds)
                students.append(student)

            threads = [threading.Thread(target=learner, args=(n,)) for n in range(learners)]
            began = time.perf_counter()
            for thread in threads:
                thread.start()
            for thread in threads:
                thread.join()
            wall = time.perf_counter() - began
            stored = 0
            for n, student in enumerate(sorted(set(students))):
                saved = json.loads((folder / 'submitted' / student / 'ps1' / 'ps1.ipynb').read_text())
                stored += (folder / 'submitted' / student / 'ps1' / 'timestamp.txt').is_file() and saved[
                    'nbformat'
                ] == 4
            size = len(bodies[0])
        finally:
            process.terminate()
            process.wait()
    return {'latencies': latencies, 'alone': statistics.median(alone), 'wall': wall, 'stored': stored, 'size': size}


def main():
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument('--learners', type=int, default=30)
    parser.add_argument('--megabytes', type=float, default=1.0)
    parser.add_argument('--runs', type=int, default=3)
    args = parser.parse_args()
    print(
        f"{args.learners} learners handing in a {args.megabytes:g} MB notebook at once (serve --classroom, "
        f"{os.cpu_count()} cores)"
    )
    for run in range(1, args.runs + 1):
        figures = one_run(args.learners, args.megabytes)
        ms = sorted(1000 * s for s in figures['latencies'])
        p50, p95 = statistics.median(ms), ms[round(0.95 * (len(ms) - 1))]
        alone = 1000 * figures['alone']
        print(
            f"  run {run}: stored {figures['stored']} of {args.learners} whole ({figures['size'] / 1e6:.2f} MB each); "
            f"p50 {p50:.0f} ms, p95 {p95:.0f} ms, all in {figures['wall']:.2f} s; one learner alone {alone:.0f} ms "
            f"(p50 at once / alone: {p50 / alone:.1f}x)"
        )


if __name__ == '__main__':
    main()
