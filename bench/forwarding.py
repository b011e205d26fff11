"""The room's record forwarded to a school's Learning Record Store (`serve --forward`), under a room's load:
Ralph (ralph-malph 5.1.0, its filesystem backend) on 127.0.0.1, as the tests start it.

    python bench/forwarding.py [--learners 60] [--statements 20]

In one run, side by side:
1. The learners: `learners` threads, each posting `statements` statements one by one, all at once (as
   bench/classroom.py), to a room's server in this process, with forwarding off and then on: p50 and p95
   of a statement's latency.
2. With forwarding on: the time from the learners' start until Ralph has every statement (the forwarder's
   last answer), then read back through Ralph's GET: each one there, none twice.
3. The forwarder alone: a room that already holds as many statements opens with forwarding: statements per
   second until Ralph has them all.
Ralph is installed in its venv outside the checkout when it is missing (tests/support/ralph.py). No site build is needed.
"""

import argparse
import statistics
import sys
import tempfile
import threading
import time
from contextlib import closing
from pathlib import Path

from backprop_playground.classroom import Classroom
from backprop_playground.classroom.forward import Target
from backprop_playground.paths import ROOT
from backprop_playground.server import make_server
from room_traffic import post, statement

sys.path.insert(0, str(ROOT / 'tests'))
from support.ralph import PASSWORD, USER, Ralph, installed  # noqa: E402  (starting Ralph, shared with the tests)


def waiting(room):
    with closing(room.connect()) as db:
        return room.forwarder.status(db)['waiting']


def load(folder, learners, statements, forward=None):
    """The learners at once against a room (forwarding to `forward` or not): latencies, and with forwarding
    the seconds from the start until the LRS had everything."""
    room = Classroom(folder, forward=forward)
    server = make_server(port=0, directory=folder, room=room)
    threading.Thread(target=server.serve_forever, daemon=True).start()
    url = f"http://127.0.0.1:{server.server_address[1]}/"
    latencies, statuses = [], []
    start = threading.Barrier(learners + 1)

    def learner(n):
        start.wait()
        for i in range(statements):
            seconds, status = post(url, statement(url, n, i))
            latencies.append(seconds)
            statuses.append(status)

    threads = [threading.Thread(target=learner, args=(n,)) for n in range(learners)]
    for thread in threads:
        thread.start()
    start.wait()
    began = time.perf_counter()
    for thread in threads:
        thread.join()
    answered = time.perf_counter() - began
    at_lrs = None
    if forward:
        while waiting(room):
            time.sleep(0.01)
        at_lrs = time.perf_counter() - began
        room.forwarder.stop()
    server.shutdown()
    server.server_close()
    return {'latencies': latencies, 'refused': sum(s != 200 for s in statuses), 'answered': answered, 'at_lrs': at_lrs}


def drain(folder, forward):
    """A room holding statements not yet forwarded opens with forwarding: seconds until the LRS has them."""
    began = time.perf_counter()
    room = Classroom(folder, forward=forward)
    while waiting(room):
        time.sleep(0.01)
    seconds = time.perf_counter() - began
    room.forwarder.stop()
    return seconds


def main():
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument('--learners', type=int, default=60)
    parser.add_argument('--statements', type=int, default=20)
    args = parser.parse_args()
    python, why = installed()
    if not python:
        sys.exit(f"bench/forwarding.py: {why}")
    total = args.learners * args.statements
    with tempfile.TemporaryDirectory() as folder:
        folder = Path(folder)
        off = load(folder / 'off', args.learners, args.statements)
        ralph = Ralph(python, folder / 'ralph')
        try:
            forward = Target(ralph.url, USER, PASSWORD, 'bench')
            on = load(folder / 'on', args.learners, args.statements, forward)
            held = ralph.statements()
            # The forwarder alone: the room without forwarding first, then the same record to a second LRS.
            backlog = Ralph(python, folder / 'ralph-backlog')
            try:
                drained = drain(folder / 'off', Target(backlog.url, USER, PASSWORD, 'bench'))
                backlog_held = len({s['id'] for s in backlog.statements()})
            finally:
                backlog.stop()
        finally:
            ralph.stop()

    def p(figures, q):
        ms = sorted(1000 * s for s in figures['latencies'])
        return statistics.median(ms) if q == 50 else ms[int(q / 100 * (len(ms) - 1))]

    print(
        f"{args.learners} learners x {args.statements} statements at once; the LRS: Ralph 5.1.0 (filesystem backend) on 127.0.0.1"
    )
    print(f"{'':34}{'forwarding off':>16}{'forwarding on':>16}")
    print(f"{'learners latency p50':34}{p(off, 50):>13.1f} ms{p(on, 50):>13.1f} ms")
    print(f"{'learners latency p95':34}{p(off, 95):>13.1f} ms{p(on, 95):>13.1f} ms")
    print(f"{'all learners answered in':34}{off['answered']:>14.2f} s{on['answered']:>14.2f} s")
    print(f"{'refused':34}{off['refused']:>16}{on['refused']:>16}")
    print(
        f"{f'the LRS has all {total:,} after':34}{'-':>16}{on['at_lrs']:>14.2f} s"
        f"  (from the learners' start; {on['at_lrs'] - on['answered']:.2f} s after the last answer)"
    )
    print(f"  read back from Ralph: {len(held):,} statements, {len({s['id'] for s in held}):,} distinct")
    print(
        f"the forwarder alone: a backlog of {total:,} to a fresh Ralph in {drained:.2f} s, "
        f"{total / drained:,.0f} statements/s in batches of 100 ({backlog_held:,} there)"
    )


if __name__ == '__main__':
    main()
