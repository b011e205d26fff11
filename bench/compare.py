"""Two builds side by side (issue 43): this checkout's and git ref REF's, served alike and opened in turn.

    python bench/compare.py REF [--runs 5]      e.g. main, c53ff7f, HEAD~3

REF is built in a temporary git worktree outside this checkout, with its own build.py (which installs its
own npm packages there), and its dist/ is kept in .cache/compare/COMMIT/ for the next comparison with the
same commit. This checkout is built first (`python build.py`: nothing is remade when nothing changed). Both
dist/ folders are served by this checkout's `build.py serve` server at 127.0.0.1 (isolated, brotli), each on
its own port: REF's pages get this checkout's headers, Content-Security-Policy included.

One unmeasured page of each build warms the browser up. Then each round opens both builds, in an order that
alternates between rounds (keep --runs even), in fresh headless Chromium contexts, and measures in each:
- Python ready: navigation to the page's python-ready mark, in a fresh context (an in-memory HTTP cache);
- a Run pressed as Python is ready: in another fresh context, Run clicked in the first task after the
  python-ready mark (a PerformanceObserver's callback, registered before the page's scripts) on the example
  the page opens with, from the mark to its graph's first node; and from navigation to that graph, the
  soonest a reader can see one (work the worker does after saying ready shows here);
- first Run: Run pressed to the first node of the neuron's graph (each build's own example), 1 s after ready,
  with the time after the press of each stage's mark (STAGES), the median of that page's and of another fresh
  page's (FIRST_RUN_PAGES: a page has one first Run, the figure that varies most between pages),
  before the page starts its standby Python (builds before 2026-11-28: 2 s after ready; since: 1 s after the
  first run ended); later Runs: the median of three more, once the standby is ready (a build without one: 4 s
  after ready), each with the time after the press of each
  stage's mark (STAGES); the first Run as a share of the later ones; the standby Python's start, from its
  worker's creation to its ready, while the page is idle;
- later Runs as a reader presses them (issue 57, item 1's second check): Clear clicked, then 300 ms later Run
  clicked with Playwright's mouse (trusted events: the editor loses focus, the button takes it), from the page's
  click event to the first node of the graph in the emptied output; the median of three;
- the 1,999-value chain: Run to its graph drawn and the status ready, after one warm-up Run;
- live charts' share of training: the build's own moons example's training with its plot calls against
  without them; the live graph's share: training with draw_dot(loss, live=True) in its loop against
  without it. Each program runs once unmeasured, then in the order with, without, without, with (three times
  over for the charts, CHARTS_TURNS): the sums' ratio, printed as the median of the rounds with their min and
  max. n/a where a build cannot run it (its status is printed on stderr);
- first-visit bytes: what the server sent to a first visit on the room's LAN name (plain HTTP: gzip, no
  service worker) until quiet after one Run (nothing sent for 4 s, longer than the 2 s before the page
  starts its standby Python), in a fresh in-memory-cache profile and in a fresh disk-cache profile.
A figure that fails or takes over TIMEOUT is n/a for that round, and its error is printed on stderr.
Then prints each figure's median for both builds and their ratio (this / REF): below 1 is faster or smaller.

docs/development.md asks for this against main before stopping, whenever a change touches web/ or the page's
runtime, with the table in the closing note. No assertions: figures only.
"""

import argparse
import os
import shutil
import subprocess
import sys
import tempfile
import traceback
from pathlib import Path

from playwright.sync_api import sync_playwright

import live_graph
from embed_bytes import ARGS, LAN, executable, first_visit, in_profile
from harness import RUN_TO_GRAPH, TIMEOUT, WAIT_FOR_GRAPH, mark, median, ready, serve, set_code
from lighter_faster import CHAIN, FINAL_DRAWING, without_charts
from teaching import run_program

# This checkout, from this file: harness.py's DIST is the installed package's checkout, maybe another clone.
ROOT = Path(__file__).resolve().parents[1]
DIST = ROOT / 'dist'
KEPT = ROOT / '.cache' / 'compare'
LIVE_STEPS = 150
# The moons training runs under a second, and this machine's speed drifts by a third from one second to the next
# (a fixed CPython loop took 171-309 ms, eight times in a row): three turns of the charts' order, where one left a
# round at 1.22 with the charts' own work near 1% of the run. The live graph's runs are longer: one turn.
CHARTS_TURNS = 3
LATER_RUNS = 3
FIRST_RUN_PAGES = 2  # a page has one first Run, whose time varies most: a round takes the median of this many
FIRST_RUN_AFTER_MS = 700  # and run_to_graph's 300 ms: the first Run is pressed 1 s after ready
WITHOUT_STANDBY_MS = 4000
# The page's marks of a Run's stages (python-client.js, output-list.js), in the order they usually come; the
# python-… ones are the worker's times, which its "done" message brings.
STAGES = [
    'run-posted',
    'python-run-received',
    'python-graph-posted',
    'graph-received',
    'run-python-done',
    'graph-laid-out',
    'graph-inserted',
    'graph-teaching-attached',
]

STAGE_TIMES = """([stages, started]) => stages.map((name) => {
  const mark = performance.getEntriesByName(name, 'mark').at(-1);
  return mark ? mark.startTime - started : null;
})"""


def git(*arguments):
    return subprocess.run(['git', *arguments], cwd=ROOT, check=True, capture_output=True, text=True).stdout.strip()


def build_ref(ref):
    """REF's dist/, built in a temporary worktree the first time this commit is compared."""
    commit = git('rev-parse', '--verify', f"{ref}^{{commit}}")
    kept = KEPT / commit / 'dist'
    if (kept.parent / 'built').is_file() and (kept / 'index.html').is_file():
        return commit, kept
    shutil.rmtree(kept.parent, ignore_errors=True)
    kept.parent.mkdir(parents=True)
    # Outside this checkout: Node and esbuild would find this checkout's node_modules from a folder inside it.
    tree = Path(tempfile.mkdtemp(prefix=f"compare-{commit[:7]}-")) / 'tree'
    git('worktree', 'add', '--detach', str(tree), commit)
    try:
        print(f"Building {ref} ({commit[:7]}) in {tree} …", file=sys.stderr)
        subprocess.run([sys.executable, 'build.py'], cwd=tree, check=True, stdout=sys.stderr)
        shutil.move(tree / 'dist', kept)
        (kept.parent / 'built').write_text(f"{ref}\n")
    finally:
        subprocess.run(['git', 'worktree', 'remove', '--force', str(tree)], cwd=ROOT, capture_output=True)
        shutil.rmtree(tree.parent, ignore_errors=True)
        subprocess.run(['git', 'worktree', 'prune'], cwd=ROOT, capture_output=True)
    return commit, kept


def examples(dist):
    """The build's own neuron, and its moons example's training with and without its plot calls."""
    moons = (dist / 'examples' / 'moons-mlp.py').read_text()
    end = moons.find(FINAL_DRAWING)  # its final draw_dot left out
    training = moons[:end] if end >= 0 else None
    return {
        'neuron': (dist / 'examples' / 'neuron.py').read_text(),
        'charts': training,
        'no charts': without_charts(training) if training else None,
    }


def figure(name, measure):
    """measure(), or None (its error on stderr) if it fails: one figure lost, not the round's others."""
    try:
        return measure()
    except Exception:
        print(f"   {name}: n/a, {traceback.format_exc(limit=2).strip().splitlines()[-1]}", file=sys.stderr)
        return None


# Registered before the page's own scripts: harness.py's RUN_TO_GRAPH, called in the first task after the page
# marks python-ready (a PerformanceObserver's callback). window.atReady: {ready, graph}, ms after navigation, or
# null if no graph came.
AT_READY = f"""window.atReady = new Promise((resolve) => {{
  new PerformanceObserver((list, observer) => {{
    const mark = list.getEntries().find((entry) => entry.name === 'python-ready');
    if (mark) {{
      observer.disconnect();
      ({RUN_TO_GRAPH})([[], {TIMEOUT}]).then(({{ ms, started }}) =>
        resolve(ms === null ? null : {{ ready: mark.startTime, graph: started + ms }}));
    }}
  }}).observe({{ type: 'mark' }});
}});"""


def at_ready(browser, url):
    """(the graph after the python-ready mark, navigation to the graph), ms, in a fresh context."""
    context = browser.new_context(viewport={'width': 1280, 'height': 800})
    try:
        context.add_init_script(AT_READY)
        page = context.new_page()
        page.goto(url)
        reply = page.evaluate('window.atReady')
        if reply is None:
            raise TimeoutError('no graph')
        return reply['graph'] - reply['ready'], reply['graph']
    finally:
        context.close()


def in_page(browser, url, dist):
    """Everything measured on one fresh page of a build: its figures, None where the build cannot run it."""
    programs = examples(dist)
    context = browser.new_context(viewport={'width': 1280, 'height': 800})
    page = context.new_page()
    try:
        ready(page, url)
        figures = {'ready': mark(page, 'python-ready')}
        figures['first run'] = figure('first', lambda: first_run(page, programs))
        wait_for_standby(page)
        figures['standby'] = page.evaluate(STANDBY_START)
        later = [figure('later', lambda: run_to_graph(page)) for _ in range(LATER_RUNS)]
        later = [run for run in later if run and run[0] is not None]
        figures['later'] = median([ms for ms, _ in later]) if later else None
        figures.update(stage_medians(later))
        clicked = [figure('clicked', lambda: clicked_to_graph(page)) for _ in range(LATER_RUNS)]
        clicked = [ms for ms in clicked if ms is not None]
        figures['clicked'] = median(clicked) if clicked else None
        figures['chain'] = figure('chain', lambda: chain(page))
        if programs['charts']:
            figures['charts'] = figure(
                'charts', lambda: share(page, programs['charts'], programs['no charts'], turns=CHARTS_TURNS)
            )
        figures['live graph'] = figure('live graph', lambda: share(page, *live_graph.programs(LIVE_STEPS)))
        return figures
    finally:
        context.close()


def first_run(page, programs):
    """The page's first Run, FIRST_RUN_AFTER_MS after ready: as run_to_graph."""
    set_code(page, programs['neuron'])
    page.wait_for_timeout(FIRST_RUN_AFTER_MS)
    return run_to_graph(page)


def first_run_page(browser, url, dist):
    """A first Run on a fresh page of its own, and nothing else: as run_to_graph."""
    context = browser.new_context(viewport={'width': 1280, 'height': 800})
    try:
        page = context.new_page()
        ready(page, url)
        return first_run(page, examples(dist))
    finally:
        context.close()


def stage_medians(runs, prefix=''):
    """{prefix + stage: the median of its times over `runs` ((ms, stages) each), None where none has it}."""
    medians = {}
    for i, name in enumerate(STAGES):
        times = [stages[i] for _, stages in runs if stages[i] is not None]
        medians[prefix + name] = median(times) if times else None
    return medians


def with_first_runs(figures, runs):
    """`figures` with the median of the first Runs `runs` ((ms, stages) each; None for one that failed), of each
    of their stages, and the first / later ratio."""
    runs = [run for run in runs if run and run[0] is not None]
    figures['first'] = median([ms for ms, _ in runs]) if runs else None
    figures.update(stage_medians(runs, 'first '))
    later = figures.get('later')
    figures['first/later'] = figures['first'] / later if figures['first'] and later else None
    return figures


def run_to_graph(page):
    """(Run pressed to the first graph node, ms; each stage's mark in ms after the press, None if not marked)."""
    page.wait_for_selector('[data-testid=status][data-state=ready]', timeout=TIMEOUT)
    page.wait_for_timeout(300)  # as bench/first_run.py: a reader's pause between two Runs
    reply = page.evaluate(RUN_TO_GRAPH, [STAGES, TIMEOUT])
    page.wait_for_selector('[data-testid=status]:not([data-state=running])', timeout=TIMEOUT)
    page.wait_for_timeout(100)  # the teaching tools are attached just after the drawing shows
    return reply['ms'], page.evaluate(STAGE_TIMES, [STAGES, reply['started']])


# Armed before Playwright clicks Run: window.clickedToGraph, the ms from the click event on Run (its timeStamp, on
# performance.now()'s clock) to the first graph node in the output, which was emptied; null if none came.
CLICKED_TO_GRAPH = """(timeout) => {
  window.clickedToGraph = new Promise((resolve) => {
    const output = document.querySelector('[data-testid=output]');
    let clicked = null;
    const onClick = (event) => {
      if (event.target.closest?.('[data-testid=run]')) clicked ??= event.timeStamp;
    };
    const observer = new MutationObserver(() => {
      if (clicked !== null && output.querySelector('section.run svg g.node')) done(performance.now() - clicked);
    });
    const done = (ms) => {
      observer.disconnect();
      removeEventListener('click', onClick, { capture: true });
      resolve(ms);
    };
    addEventListener('click', onClick, { capture: true });
    observer.observe(output, { childList: true, subtree: true });
    setTimeout(() => done(null), timeout);
  });
}"""


def clicked_to_graph(page):
    """A Run as a reader presses it, on an output they cleared: the click event to the graph, ms."""
    page.wait_for_selector('[data-testid=status][data-state=ready]', timeout=TIMEOUT)
    page.click('[data-testid=clear]')
    page.wait_for_timeout(300)
    page.evaluate(CLICKED_TO_GRAPH, TIMEOUT)
    page.click('[data-testid=run]')
    ms = page.evaluate('window.clickedToGraph')
    if ms is None:
        raise TimeoutError('no graph after the click')
    page.wait_for_selector('[data-testid=status]:not([data-state=running])', timeout=TIMEOUT)
    page.wait_for_timeout(100)  # the teaching tools are attached just after the drawing shows
    return ms


# The standby Python's start, from its worker's creation to its ready (null for a build without one): a later
# Python, which since 2026-11-28 instantiates the interpreter the page's first Python compiled.
STANDBY_START = """(() => {
    const [start] = performance.getEntriesByName('python-standby-start');
    const [ready] = performance.getEntriesByName('python-standby-ready');
    return start && ready ? ready.startTime - start.startTime : null;
})()"""


def wait_for_standby(page):
    """Until the page's standby Python is ready, or WITHOUT_STANDBY_MS after ready if it starts none."""
    while not page.evaluate(f"""performance.getEntriesByName('python-standby-ready').length > 0 ||
        (performance.getEntriesByName('python-standby-start').length === 0 &&
         performance.now() - performance.getEntriesByName('python-ready')[0].startTime > {WITHOUT_STANDBY_MS})"""):
        page.wait_for_timeout(50)


def chain(page):
    set_code(page, CHAIN)
    drawn = f"() => Promise.race([({WAIT_FOR_GRAPH})(), new Promise((r) => setTimeout(() => r(null), {TIMEOUT}))])"
    for _ in range(2):  # a warm-up, then the measured one
        page.click('[data-testid=clear]')
        reply = page.evaluate(drawn)
        if reply is None:
            raise TimeoutError('the chain drew no graph')
    return reply['ms']


def share(page, program, plain, turns=1):
    """Run to ready of program over the same without its extra calls: after one unmeasured run of each, `turns`
    times in the order program, plain, plain, program (a drift costs both the same); None if a run did not end
    ready."""
    times = {program: 0, plain: 0}
    order = [(program, False), (plain, False)] + [
        (program, True),
        (plain, True),
        (plain, True),
        (program, True),
    ] * turns
    for code, measured in order:
        page.click('[data-testid=clear]')
        result = run_program(page, code)
        if result['state'] != 'ready':
            print(
                f"   a program ended {result['state']}: "
                + ' '.join(page.locator('[data-testid=output] section.run').last.inner_text().split())[-200:],
                file=sys.stderr,
            )
            return None
        times[code] += result['ms'] if measured else 0
    return times[program] / times[plain]


ROWS = [  # key, what it is, unit, format
    ('ready', 'Python ready', 'ms', '.0f'),
    ('at ready', 'a Run pressed as Python is ready → graph', 'ms', '.0f'),
    ('ready+run', 'navigation → that graph', 'ms', '.0f'),
    ('first', 'first Run → graph, neuron', 'ms', '.0f'),
    *[(f"first {name}", f"  · first Run: {name}", 'ms', '.0f') for name in STAGES],  # the mark, after the press
    ('later', f"later Runs → graph (median of {LATER_RUNS})", 'ms', '.0f'),
    ('first/later', 'first Run / later Runs', 'x', '.2f'),
    ('clicked', 'later Runs clicked after Clear → graph', 'ms', '.0f'),
    ('standby', 'the standby Python: started → ready', 'ms', '.0f'),
    *[(name, f"  · later Runs: {name}", 'ms', '.0f') for name in STAGES],  # the mark, after the press
    ('chain', '1,999-value chain → drawn', 'ms', '.0f'),
    ('charts', "live charts' share of training", 'x', '.2f'),
    ('live graph', f"live graph's share ({LIVE_STEPS} steps)", 'x', '.2f'),
    ('bytes memory', 'first visit, LAN name, until quiet: memory cache', 'MB', '.2f'),
    ('bytes disk', 'first visit, LAN name, until quiet: disk cache', 'MB', '.2f'),
]


SPREAD = ('charts', 'live graph')  # figures that flap around their goal: min and max beside the median


def table(names, figures, runs):
    lines = [
        f"Medians of {runs} rounds, taking turns, headless Chromium, {os.cpu_count()} cores; ratio = this / REF; "
        f"[min-max] of the rounds where a share flaps",
        f"   {'':<50} {names[0]:>18} {names[1]:>18} {'ratio':>7}",
    ]
    for key, what, unit, form in ROWS:
        values = [[v for v in figures[name][key] if v is not None] for name in names]
        cells = [
            (f"{median(v):{form}} [{min(v):{form}}-{max(v):{form}}]" if key in SPREAD else f"{median(v):{form}}")
            if v
            else 'n/a'
            for v in values
        ]
        ratio = f"{median(values[0]) / median(values[1]):.2f}x" if all(values) else ''
        lines.append(f"   {what + f' ({unit})':<50} {cells[0]:>18} {cells[1]:>18} {ratio:>7}")
    return '\n'.join(lines)


def main():
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument('ref', help='a git ref to compare this checkout with, e.g. main')
    parser.add_argument('--runs', type=int, default=4, help='rounds (default 4; keep it even)')
    args = parser.parse_args()
    commit, other = build_ref(args.ref)
    subprocess.run([sys.executable, 'build.py'], cwd=ROOT, check=True, stdout=sys.stderr)
    head = git('rev-parse', '--short', 'HEAD') + (
        '+edits' if git('status', '--porcelain', '--untracked-files=no') else ''
    )
    names = [f"this {head}", args.ref if commit.startswith(args.ref) else f"{args.ref} {commit[:7]}"]
    builds = {names[0]: DIST, names[1]: other}
    servers = {name: serve(dist) for name, dist in builds.items()}
    figures = {name: {key: [] for key, *_ in ROWS} for name in names}
    with sync_playwright() as p:
        browser = p.chromium.launch(executable_path=executable(), args=ARGS)
        for name in names:  # unmeasured: the browser's and the servers' first page
            context = browser.new_context()
            ready(context.new_page(), servers[name][1])
            context.close()
        for round_ in range(args.runs):
            for name in names if round_ % 2 == 0 else names[::-1]:
                server, url = servers[name]
                neuron = examples(builds[name])['neuron']
                measured = figure('page', lambda: in_page(browser, url, builds[name])) or {}
                firsts = [measured.pop('first run', None)]
                firsts += [
                    figure('first', lambda: first_run_page(browser, url, builds[name]))
                    for _ in range(FIRST_RUN_PAGES - 1)
                ]
                with_first_runs(measured, firsts)
                measured['at ready'], measured['ready+run'] = figure('at ready', lambda: at_ready(browser, url)) or (
                    None,
                    None,
                )
                for key, *_ in ROWS:
                    if not key.startswith('bytes '):
                        figures[name][key].append(measured.get(key))
                for kind in ('memory', 'disk'):
                    figures[name][f"bytes {kind}"].append(
                        figure(
                            f"bytes {kind}",
                            lambda: in_profile(
                                p,
                                kind,
                                lambda page: first_visit(page, server, url.replace('127.0.0.1', LAN), neuron) / 1e6,
                            ),
                        )
                    )
                print(
                    f"   round {round_ + 1}, {name}: "
                    + ', '.join(
                        f"{key} {values[-1]:.2f}" for key, values in figures[name].items() if values[-1] is not None
                    ),
                    file=sys.stderr,
                )
        browser.close()
    for server, _ in servers.values():
        server.shutdown()
    print(table(names, figures, args.runs))


if __name__ == '__main__':
    main()
