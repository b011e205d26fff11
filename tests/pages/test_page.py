"""The playground end to end, in Chromium, with every non-local request blocked (see conftest.py)."""

import re

import pytest
from playwright.sync_api import expect

from support import RUN_TIMEOUT_MS, RUNTIME_PACKAGE, STARTUP_TIMEOUT_MS, wait_until
from support.pages import graphs, load_example, open_playground, run, type_program

pytestmark = pytest.mark.usefixtures('site')


def test_page_becomes_ready_with_the_network_blocked(fresh_playground):
    status = fresh_playground.get_by_test_id('status')
    expect(status).to_contain_text('Python 3.14')
    expect(fresh_playground.get_by_test_id('editor')).to_contain_text('x1 = Value(2.0')
    assert fresh_playground.evaluate('self.crossOriginIsolated') is True


EXAMPLES = {
    'neuron.py': ['data 0.7071', 'grad -1.5000', 'grad 1.0000', 'grad 0.5000'],
    'manual-backprop.py': ['data -8.0000', 'grad 6.0000', 'grad -4.0000', 'grad -2.0000'],
    'accumulation.py': ['grad 2.0000', 'grad -3.0000'],
    'gradient-descent.py': ['data 2.5000', 'grad -2.0000'],
    'own-value.py': ['data 0.7071', 'grad -1.5000', 'grad 0.5000'],
    'moons-mlp.py': ['layer 1 · neuron 1', 'layer 3 · neuron 1'],
}


def test_examples_menu_lists_every_example(playground):
    values = playground.get_by_test_id('examples').locator('option').evaluate_all('os => os.map(o => o.value)')
    assert sorted(v for v in values if v) == sorted(EXAMPLES)


@pytest.mark.parametrize('example', EXAMPLES)
def test_every_example_runs_and_draws_its_values(playground, example):
    load_example(playground, example)
    section = run(playground)
    expect(graphs(section).first).to_be_visible()
    text = section.locator('svg').all_text_contents()
    for expected in EXAMPLES[example]:
        assert any(expected in t for t in text), f"{expected!r} not drawn by {example}"


def test_example_output_texts(playground):
    load_example(playground, 'gradient-descent.py')
    section = run(playground)
    expect(section.locator('pre.stdout')).to_contain_text('w1 = 1.0010, w2 = 4.9980')
    load_example(playground, 'moons-mlp.py')
    section = run(playground)
    expect(section.locator('pre.stdout').first).to_contain_text('parameters: 337')  # the charts come after it
    expect(section.locator('pre.stdout').last).to_contain_text(re.compile(r'step 14 +loss \d\.\d{4} +accuracy \d+%'))


def test_draw_dot_calls_give_graphs_in_order_with_the_values_of_their_moment(playground):
    type_program(
        playground,
        '''a = Value(1.0, label='a')
print('first')
draw_dot(a)
a.data = 2.0
print('second')
draw_dot(a)
a.data = 3.0
draw_dot(a)
''',
    )
    section = run(playground)
    expect(graphs(section)).to_have_count(3)
    for i, value in enumerate(['1.0000', '2.0000', '3.0000']):
        expect(graphs(section).nth(i)).to_contain_text(f'data {value}')
    order = section.evaluate("s => [...s.querySelectorAll('pre, figure')].map(e => e.tagName)")
    assert order == ['PRE', 'FIGURE', 'PRE', 'FIGURE', 'FIGURE']


def test_learner_defined_class_is_drawn(playground):
    type_program(
        playground,
        '''class Value(object):
    def __init__(self, data, children={}):
        self.data = data
        self.children = children
        self.grad = 0

    def __add__(self, other):
        return Value(self.data + other.data, children={self, other})

w1 = Value(2.0)
w2 = Value(3.5)
w1 + w2
''',
    )
    section = run(playground)
    expect(graphs(section)).to_have_count(1)
    expect(graphs(section).first).to_contain_text('data 5.5000')
    expect(graphs(section).first).to_contain_text('data 3.5000')


def test_tutorial_draw_dot_written_with_graphviz_works_offline(playground):
    type_program(
        playground,
        '''%matplotlib inline
from graphviz import Digraph

def trace(root):
    nodes, edges = set(), set()
    def build(v):
        if v not in nodes:
            nodes.add(v)
            for child in v._prev:
                edges.add((child, v))
                build(child)
    build(root)
    return nodes, edges

def draw_dot(root):
    dot = Digraph(format='svg', graph_attr={'rankdir': 'LR'})
    nodes, edges = trace(root)
    for n in nodes:
        uid = str(id(n))
        dot.node(name=uid, label="{ %s | data %.4f | grad %.4f }" % (n.label, n.data, n.grad), shape='record')
        if n._op:
            dot.node(name=uid + n._op, label=n._op)
            dot.edge(uid + n._op, uid)
    for n1, n2 in edges:
        dot.edge(str(id(n1)), str(id(n2)) + n2._op)
    return dot

a = Value(2.0, label='a'); b = Value(-3.0, label='b')
c = a * b; c.label = 'c'
draw_dot(c)
''',
    )
    section = run(playground)
    expect(section.locator('.message.notice')).to_contain_text("Line 1: skipped '%matplotlib inline'")
    expect(graphs(section).first).to_contain_text('data -6.0000')


def test_markup_smuggled_into_a_graph_through_graphviz_attributes_is_dropped(playground, site_url):
    # Graphviz writes fontname into the SVG unescaped: a quote in it ends the attribute and starts markup.
    type_program(
        playground,
        """from graphviz import Digraph
smuggled = ('x"/><style>[data-testid=run] { display: none }</style>'
            '<h:meta xmlns:h="http://www.w3.org/1999/xhtml" http-equiv="refresh" content="0;url=/elsewhere.html"/>'
            '<h:img xmlns:h="http://www.w3.org/1999/xhtml" src="/img-from-a-graph.png"/>'
            '<set attributeName="fill" to="red"/><text x="')
g = Digraph()
g.node('a', label='still drawn', fontname=smuggled)
g.node('b', label='linked', tooltip='a tip', URL='https://example.com/')
g.node('c', label='linked here', URL='#code=bm90IG1pbmU')
g.edges([('a', 'b'), ('b', 'c')])
g
""",
    )
    section = run(playground)
    expect(graphs(section).first).to_contain_text('still drawn')
    expect(graphs(section).first).to_contain_text('linked')
    assert section.locator('svg [href], svg [*|href]').count() == 0  # not even to #code=...: other code
    playground.wait_for_timeout(1500)  # a meta refresh, had it survived, would have left by now
    assert playground.url.startswith(site_url) and 'elsewhere' not in playground.url
    expect(playground.get_by_test_id('run')).to_be_visible()
    assert section.locator('svg style, svg meta, svg img, svg set').count() == 0
    expect(graphs(section).first.locator('path, polygon').first).to_be_attached()


def test_graphviz_styling_survives_the_cleaning_and_smuggled_attributes_do_not(playground):
    # Gradient fills (url(#...) and stops with a style), dashed lines, tooltips and HTML-like labels draw;
    # attributes smuggled through fontname (a test id, a style, a paint from outside the drawing) do not.
    type_program(
        playground,
        r"""from graphviz import Digraph
smuggled = 'x" data-testid="run" aria-label="Run" style="outline: 9px solid red" stroke="url(/elsewhere.svg#paint)'
g = Digraph(graph_attr={'bgcolor': 'white:lightblue'})
g.node('a', label='gradient', style='filled', fillcolor='red:green', tooltip='a tip: here')
g.node('b', label='<<b>bold</b> and <i>italic</i>>', shape='circle', style='dashed')
g.node('c', label='smuggler', fontname=smuggled)
g.edge('a', 'b', style='dashed', tooltip='an edge tip')
g.edge('b', 'c', style='dotted', color='red:blue')
g
""",
    )
    svg = graphs(run(playground)).first
    for text in ['gradient', 'bold', 'italic', 'smuggler']:
        expect(svg).to_contain_text(text)
    assert svg.locator('[fill^="url(#"]').count() == 2  # the background and node a
    assert svg.locator('stop[style*="stop-color"]').count() == 4
    assert svg.locator('[stroke-dasharray]').count() >= 3
    assert svg.locator('a[*|title="a tip: here"]').count() == 1
    assert svg.locator('a[*|title="an edge tip"]').count() == 1
    assert svg.locator('[data-testid], [aria-label], text[style], [stroke^="url(/"]').count() == 0
    expect(playground.get_by_test_id('run')).to_have_count(1)


# What a program can smuggle into a drawing through fontname: each kind, and where it would be found had it stayed.
SMUGGLED_KINDS = {
    # an SVG element that runs, loads, animates, or draws what is outside the drawing
    'script': ('<script>document.title = "scripted"</script>', 'script'),
    'foreignObject': (
        '<foreignObject width="9" height="9"><h:button xmlns:h="http://www.w3.org/1999/xhtml">Run</h:button></foreignObject>',
        'foreignObject',
    ),
    'image': ('<image href="/from-a-graph.png" width="9" height="9"/>', 'image'),
    'use': ('<use href="#graph0"/>', 'use'),
    'animate': ('<animate attributeName="opacity" to="0" dur="1s"/>', 'animate'),
    # attributes on an element the cleaning keeps: a handler, links, the page's own names, a clobbering id
    'a handler': ('<g onclick="document.title = \'clicked\'"/>', '[onclick]'),
    'a link': ('<a href="#code=bm90IG1pbmU"><text>here</text></a>', '[href]'),
    'an xlink': ('<a xlink:href="#code=bm90IG1pbmU"><text>there</text></a>', '[*|href]'),
    'a test id': ('<g data-testid="run"/>', '[data-testid]'),
    'an aria label': ('<g aria-label="Run"/>', '[aria-label]'),
    'a style': ('<g style="fill: red"/>', 'g[style]'),
    'an id of the document': ('<g id="cookie"/>', '#cookie'),
    # CSS that loads from outside the drawing: a url(), one spelled with an escape, an image-set() in a stop's style
    'a url': ('<path d="M0 0" fill="url(/elsewhere.svg#a)"/>', '[fill*="url(/"]'),
    'an escaped url': ('<path d="M0 0" fill="\\75 rl(/elsewhere.svg#a)"/>', '[fill*="rl("]'),
    'an image set': (
        '<stop offset="0" style="stop-color: red; background-image: image-set(\'/x.png\' 1x)"/>',
        'stop[style*="image-set"]',
    ),
    # a processing instruction, which the drawing has no use for (render-worker.js drops comments itself)
    'an instruction': ('<?an-instruction here?>', None),
}


def test_every_kind_of_markup_smuggled_into_a_graph_is_dropped_and_the_drawing_stays(playground):
    smuggled = ''.join(markup for markup, _ in SMUGGLED_KINDS.values())
    type_program(
        playground,
        f"""from graphviz import Digraph
g = Digraph()
g.node('a', label='drawn', fontname='x"/>' + {smuggled!r} + '<text x="')
g.node('b', label='kept', id='kept-id')
g.edge('a', 'b')
g
""",
    )
    section = run(playground)
    svg = graphs(section).first
    expect(svg).to_contain_text('drawn')
    assert svg.locator('#kept-id').count() == 1  # Graphviz's ids stay
    found = svg.evaluate(
        """(svg, kinds) => kinds.filter(([, selector]) => selector === null
          ? [svg, ...svg.querySelectorAll('*')].some((e) => [...e.childNodes].some((n) => n.nodeType === Node.PROCESSING_INSTRUCTION_NODE))
          : svg.querySelector(selector) !== null).map(([name]) => name)""",
        [[name, selector] for name, (_, selector) in SMUGGLED_KINDS.items()],
    )
    assert found == []
    expect(playground.get_by_test_id('run')).to_have_count(1)


def test_after_running_out_of_memory_the_next_run_has_its_memory_back(playground):
    type_program(playground, 'hoard = []\nwhile True:\n    hoard.append(bytearray(50_000_000))\n')
    section = run(playground, expected_state='error')
    expect(section).to_contain_text('MemoryError')
    type_program(playground, 'print(len(bytearray(400_000_000)))\n')
    expect(run(playground).locator('pre.stdout')).to_have_text('400000000\n')


def test_a_traceback_marks_the_failing_line_and_keeps_earlier_output(playground):
    type_program(playground, 'print("hello")\n')
    first = run(playground)
    expect(first).to_contain_text('hello')
    type_program(
        playground,
        '''def f(x):
    return x / 0

v = Value(1.0)
f(v.data)
''',
    )
    section = run(playground, expected_state='error')
    error = section.locator('.message.error')
    expect(error).to_contain_text('ZeroDivisionError: division by zero')
    expect(error).to_contain_text('File "<editor>", line 5')
    expect(error.locator('.traceback')).not_to_contain_text(RUNTIME_PACKAGE)
    expect(playground.locator('.cm-errorLine')).to_have_count(1)
    expect(playground.locator('.cm-errorLine')).to_have_text('    return x / 0')
    expect(playground.get_by_test_id('output')).to_contain_text('hello')
    expect(playground.get_by_test_id('status')).to_contain_text('line 2')


def test_a_syntax_error_shows_line_and_column(playground):
    type_program(playground, 'x = 1\ny = (2 +\nprint(y)\n')
    section = run(playground, expected_state='error')
    expect(section.locator('.message.error')).to_contain_text(re.compile(r'SyntaxError: .*\(line 2, column 5\)'))
    expect(playground.locator('.cm-errorLine')).to_have_text('y = (2 +')


def test_stop_interrupts_an_endless_loop_and_the_next_run_works(playground):
    type_program(playground, 'x = Value(1.0)\nprint("looping")\nwhile True:\n    x = x * 1.0\n')
    status = playground.get_by_test_id('status')
    playground.get_by_test_id('run').click()
    expect(status).to_have_attribute('data-state', 'running')
    expect(playground.get_by_test_id('output')).to_contain_text('looping')
    playground.get_by_test_id('stop').click()
    expect(status).to_have_attribute('data-state', 'ready')
    expect(playground.get_by_test_id('output')).to_contain_text('KeyboardInterrupt')
    type_program(playground, 'print(6 * 7)\n')
    section = run(playground)
    expect(section.locator('pre.stdout')).to_have_text('42\n')


STOP_AS_THE_RUN_IS_SENT = """async (times) => {
  const part = (name) => document.querySelector(`[data-testid="${name}"]`);
  const pause = (ms) => new Promise((resolve) => setTimeout(resolve, ms));
  const said = [];
  for (let i = 0; i < times; i += 1) {
    part('run').click();
    while (part('status').dataset.state !== 'running') await pause(0);
    await pause(0);  // the page has now sent the run to the worker, which may not have begun it yet
    part('stop').click();
    const until = Date.now() + 30000;
    while (part('status').dataset.state !== 'ready' && Date.now() < until) await pause(20);
    said.push(`${part('status').textContent} | ${[...part('output').querySelectorAll('section.run')].at(-1).textContent}`);
  }
  return said;
}"""


def test_stop_pressed_as_a_run_is_sent_interrupts_it_in_place(fresh_playground):
    """Stop between the page sending a run and the worker beginning it is that run's Stop: the run ends,
    Python keeps its state, and the run after it is not stopped. That the first interrupt ends a run wherever
    Python takes it is tests/runtime/test_playground.py's test of a Stop at each call and return of a run: here,
    whether the page had to interrupt again (after 1.5 s) depended on the machine's load (it did once in CI, on a
    page of its own, as two workers ran browsers beside it). On a page of its own: on the shared page, earlier
    tests' imports slow a run's end."""
    playground = fresh_playground
    type_program(playground, 'print("looping")\nwhile True: pass\n')
    said = playground.evaluate(STOP_AS_THE_RUN_IS_SENT, 8)
    for text in said:
        assert 'restarted' not in text and 'stopped' in text.lower(), said
        assert 'KeyboardInterrupt' in text or 'Stopped before it ran' in text, said
    type_program(playground, 'print(6 * 7)\n')
    section = run(playground)
    expect(section.locator('pre.stdout')).to_have_text('42\n')


def test_stop_interrupts_again_a_program_that_caught_the_first_interrupt(playground):
    """A KeyboardInterrupt can be caught (or raised in a __del__, where Python only prints it): Stop interrupts
    Python again while it runs on, and it stops in place: the same Python runs the next program."""
    type_program(
        playground,
        'print("looping")\ntry:\n    while True: pass\nexcept KeyboardInterrupt:\n'
        '    print("caught once")\nwhile True: pass\n',
    )
    pythons = playground.evaluate("performance.getEntriesByName('python-ready').length")
    status = playground.get_by_test_id('status')
    playground.get_by_test_id('run').click()
    expect(playground.get_by_test_id('output')).to_contain_text('looping')
    playground.get_by_test_id('stop').click()
    expect(playground.get_by_test_id('output')).to_contain_text('caught once')
    expect(status).to_have_attribute('data-state', 'ready', timeout=RUN_TIMEOUT_MS)
    expect(playground.get_by_test_id('output')).to_contain_text('KeyboardInterrupt')
    expect(playground.get_by_test_id('output')).not_to_contain_text('restarted')
    assert playground.evaluate("performance.getEntriesByName('python-stop-again').length") >= 1
    type_program(playground, 'print(6 * 7)\n')
    section = run(playground)
    expect(section.locator('pre.stdout')).to_have_text('42\n')
    assert playground.evaluate("performance.getEntriesByName('python-ready').length") == pythons, 'no new Python'


def test_stop_restarts_python_on_a_host_without_isolation(page, plain_site_url):
    open_playground(page, plain_site_url)
    assert page.evaluate('self.crossOriginIsolated') is False
    expect(page.get_by_test_id('status')).to_contain_text('Stop restarts Python')
    type_program(page, 'while True: pass\n')
    page.get_by_test_id('run').click()
    expect(page.get_by_test_id('status')).to_have_attribute('data-state', 'running')
    page.get_by_test_id('stop').click()
    expect(page.get_by_test_id('output')).to_contain_text('Python was restarted')
    expect(page.get_by_test_id('status')).to_have_attribute('data-state', 'ready', timeout=STARTUP_TIMEOUT_MS)
    expect(page.get_by_test_id('editor')).to_contain_text('while True: pass')
    type_program(page, 'print("alive")\n')
    section = run(page)
    expect(section).to_contain_text('alive')


MARKS = "Object.fromEntries(['run-posted', 'run-python-done', 'python-standby-start'].map((name) => [name, performance.getEntriesByName(name).map((m) => m.startTime)]))"


def test_the_standby_python_starts_once_a_run_ended_and_never_during_one(page, plain_site_url):
    """On a host without isolation Stop swaps in a standby Python, restored in the background. It never competes
    with a run: a page that is only read starts none, and it starts once a run has ended and none began for 1 s."""
    open_playground(page, plain_site_url)
    page.wait_for_timeout(2500)  # a page that starts one after ready has started it by now
    assert page.evaluate(MARKS)['python-standby-start'] == [], 'no run yet: no standby'
    type_program(page, 'import time\nstart = time.time()\nwhile time.time() - start < 1.5: pass\nprint("done")\n')
    expect(run(page)).to_contain_text('done')
    wait_until(page, "performance.getEntriesByName('python-standby-ready').length > 0", STARTUP_TIMEOUT_MS)
    marks = page.evaluate(MARKS)
    (posted,), (done,), (started,) = marks['run-posted'], marks['run-python-done'], marks['python-standby-start']
    # The timer starts as the page reads the run's end, after its mark; 10 ms for a clock that is not isolated.
    assert posted < done and started >= done + 990, marks
    type_program(page, 'while True: pass\n')
    page.get_by_test_id('run').click()
    expect(page.get_by_test_id('status')).to_have_attribute('data-state', 'running')
    page.get_by_test_id('stop').click()
    expect(page.get_by_test_id('output')).to_contain_text('Python was restarted')
    expect(page.get_by_test_id('status')).to_have_attribute('data-state', 'ready')  # the standby, ready already


def test_a_standby_still_starting_when_run_is_pressed_gives_way_once_and_the_next_one_stays(page, site_url):
    """The standby's start would take a processor from the run: it ends, and a new one starts once the page is
    idle again. That one is not ended by the next Run: Runs that keep coming as a standby starts still get one.
    The standbys' worker scripts are held here, so that each is still starting when Run is pressed."""
    held = []
    scripts = []

    def hold_the_standbys(route):
        scripts.append(route.request.url)
        if len(scripts) > 1:
            held.append(route)
        else:
            route.continue_()

    def run_while_a_standby_starts(number):
        wait_until(
            page, f"performance.getEntriesByName('python-standby-start').length === {number}", STARTUP_TIMEOUT_MS
        )
        for _ in range(100):  # the standby's request reaches the route a moment after its mark
            if len(held) == number:
                break
            page.wait_for_timeout(50)
        assert len(held) == number and page.evaluate(STANDBY_MARKS)['python-standby-ready'] == []
        type_program(page, f"print('run {number + 1}')\n")
        expect(run(page)).to_contain_text(f"run {number + 1}")

    page.route('**/session/python-worker.js', hold_the_standbys)
    open_playground(page, site_url)
    type_program(page, "print('run 1')\n")
    expect(run(page)).to_contain_text('run 1')
    run_while_a_standby_starts(1)
    assert len(page.evaluate(STANDBY_MARKS)['python-standby-ended']) == 1
    run_while_a_standby_starts(2)
    for route in held:
        route.continue_()  # the ended standby's script comes too late for it
    wait_until(page, "performance.getEntriesByName('python-standby-ready').length === 1", STARTUP_TIMEOUT_MS)
    page.wait_for_timeout(1500)  # a third standby, had the second been ended, would have started by now
    marks = page.evaluate(STANDBY_MARKS)
    assert len(marks['python-standby-start']) == 2 and len(marks['python-standby-ended']) == 1, marks
    assert marks['python-standby-ready'][0] > marks['python-standby-start'][1], marks


STANDBY_MARKS = """Object.fromEntries(['python-standby-start', 'python-standby-ended', 'python-standby-ready']
  .map((name) => [name, performance.getEntriesByName(name).map((m) => m.startTime)]))"""


# The last of each named mark made since `since` (performance.now()), or null.
LAST_MARKS = """([since, names]) => names.map((name) => {
  const marks = performance.getEntriesByName(name, 'mark').filter((m) => m.startTime >= since);
  return marks.length ? marks.at(-1).startTime : null;
})"""
STAGES = ['run-posted', 'python-run-received', 'python-graph-posted', 'graph-received', 'run-python-done']
CLOCKS_SLACK_MS = 1  # two threads' clocks, each coarsened


def test_a_runs_stages_in_the_worker_are_marked_on_the_pages_clock_in_order(playground):
    """bench/compare.py names where a Run's time goes: the worker's "done" brings when the run reached it and when
    its first graph left it, which the page marks on its own clock, between its own marks. A run that draws no
    graph marks when it was received and no graph's leaving."""
    since = playground.evaluate('performance.now()')
    type_program(playground, "x = Value(2.0, label='x')\ny = x * x; y.label = 'y'\ny.backward()\ndraw_dot(y)\n")
    expect(graphs(run(playground)).first).to_be_visible()
    posted, received, graph, shown, done = playground.evaluate(LAST_MARKS, [since, STAGES])
    assert None not in (posted, received, graph, shown, done)
    assert posted - CLOCKS_SLACK_MS <= received <= graph <= shown + CLOCKS_SLACK_MS, (posted, received, graph, shown)
    assert graph <= done + CLOCKS_SLACK_MS
    since = playground.evaluate('performance.now()')
    type_program(playground, 'print("no graph")\n')
    expect(run(playground)).to_contain_text('no graph')
    posted, received, graph, _, done = playground.evaluate(LAST_MARKS, [since, STAGES])
    assert posted - CLOCKS_SLACK_MS <= received <= done + CLOCKS_SLACK_MS, (posted, received, done)
    assert graph is None


def test_keyboard_shortcut_runs_the_program(playground):
    type_program(playground, 'print("from the keyboard")\n')
    playground.keyboard.press('ControlOrMeta+Enter')
    expect(playground.get_by_test_id('output').locator('pre.stdout')).to_have_text('from the keyboard\n')
    expect(playground.get_by_test_id('status')).to_have_attribute('data-state', 'ready')


# Whether the last printed line of the last run is on screen: the element at its place is its <pre>.
LAST_LINE_SHOWN = """(() => {
  const pre = [...document.querySelectorAll('[data-testid=output] section.run')].at(-1).querySelector('pre.stdout');
  const text = [...pre.childNodes].reverse().find((node) => node.data.includes('line 149'));
  if (!text) return false;
  const range = document.createRange();
  range.setStart(text, text.data.lastIndexOf('line 149'));
  range.setEnd(text, text.data.lastIndexOf('line 149') + 8);
  const box = range.getBoundingClientRect();
  const found = document.elementFromPoint(box.left + 2, box.top + box.height / 2);
  return found !== null && pre.contains(found);
})()"""


def test_the_newest_output_is_scrolled_into_view_as_it_comes(playground):
    type_program(playground, "for i in range(150):\n    print(i)\ndraw_dot(Value(2.0, label='newest') * 3)\n")
    section = run(playground)
    expect(section.locator('svg')).to_contain_text('newest')
    expect(section.locator('svg')).to_be_in_viewport()
    type_program(playground, "for i in range(150):\n    print('line', i)\n")
    expect(run(playground).locator('pre.stdout')).to_contain_text('line 149')
    wait_until(playground, LAST_LINE_SHOWN, 5000)  # the last line, not only the start of the text it ends


def test_the_editor_text_survives_a_reload(fresh_playground, site_url):
    type_program(fresh_playground, '# my own work\nprint(1)\n')
    fresh_playground.reload()
    expect(fresh_playground.get_by_test_id('editor')).to_contain_text('# my own work')


def test_a_graph_over_the_limit_is_a_message_and_the_run_goes_on(playground):
    type_program(playground, 'x = Value(0.0)\nfor _ in range(1500):\n    x = x + 1\ndraw_dot(x)\nprint("done")\n')
    section = run(playground)
    expect(section.locator('.message.warning')).to_contain_text('3,001 values, more than the 2,000')
    expect(section).to_contain_text('done')
    expect(graphs(section)).to_have_count(0)


def test_a_big_graph_is_drawn(playground):
    type_program(
        playground,
        'x = Value(0.0)\nfor i in range(250):\n    x = x * 1.0 + i\nx.label = "end"\nx.backward()\ndraw_dot(x)\n',
    )
    section = run(playground)
    expect(section.locator('.graph-size')).to_have_text('1,001 values')
    expect(graphs(section).first).to_contain_text('end')
    assert section.locator('svg g.node').count() == 1001 + 500


def test_graph_tools_copy_dot_and_download_svg(playground):
    playground.context.grant_permissions(['clipboard-read', 'clipboard-write'])
    try:
        type_program(playground, "draw_dot(Value(4.0, label='z'))\n")
        section = run(playground)
        section.get_by_role('button', name="Copy this graph's DOT source").click()
        assert playground.evaluate('navigator.clipboard.readText()').startswith('digraph {')
        with playground.expect_download() as download:
            section.get_by_role('button', name='Download this graph as SVG').click()
        assert download.value.suggested_filename == 'graph.svg'
        assert '<svg' in open(download.value.path()).read()
    finally:
        playground.context.clear_permissions()  # the worker's next test on this page is granted nothing


def test_run_pressed_while_python_loads_runs_once_it_is_ready(page, site_url):
    page.goto(site_url)
    expect(page.get_by_test_id('editor')).to_contain_text('x1 = Value(2.0')
    assert page.get_by_test_id('status').get_attribute('data-state') == 'loading'
    page.get_by_test_id('run').click()
    expect(page.get_by_test_id('status')).to_contain_text('runs once')
    section = page.get_by_test_id('output').locator('section.run')
    expect(section.locator('svg')).to_contain_text('data 0.7071', timeout=STARTUP_TIMEOUT_MS)
    expect(page.get_by_test_id('status')).to_have_attribute('data-state', 'ready')
    # The code was a plain text area while Python loaded; the editor is made once that run has ended.
    expect(page.get_by_test_id('editor').locator('.cm-content')).to_contain_text('x1 = Value(2.0')


def test_a_fatal_pyodide_error_restarts_python_and_keeps_the_page(playground):
    # Freeing a 100,000-long chain of the learner's own objects exhausts Pyodide's stack: fatal for
    # that interpreter, so the page must start a new one and say why.
    type_program(
        playground,
        'class Node:\n    def __init__(self, prev):\n        self.prev = prev\n\n'
        'print("before")\nx = None\nfor i in range(100_000):\n    x = Node(x)\ndel x\n',
    )
    playground.get_by_test_id('run').click()
    expect(playground.get_by_test_id('output')).to_contain_text('Python ran out of stack and was restarted')
    expect(playground.get_by_test_id('output')).to_contain_text('before')
    expect(playground.get_by_test_id('status')).to_have_attribute('data-state', 'ready', timeout=STARTUP_TIMEOUT_MS)
    type_program(playground, 'print("alive again")\n')
    expect(run(playground).locator('pre.stdout')).to_have_text('alive again\n')


def test_freeing_long_chains_of_values_is_not_fatal(playground):
    # The learner's own objects above are fatal; scalargrad's values must never be, whatever the shape.
    type_program(
        playground,
        """for shape in ('mul_add', 'add', 'tanh', 'square', 'right'):
    x = Value(0.5)
    for i in range(100_000):
        x = (x * 1.0 + i if shape == 'mul_add' else x + 1.0 if shape == 'add' else x.tanh() if shape == 'tanh'
             else x ** 2 if shape == 'square' else 1.0 + x)
    del x
    print('freed', shape)
""",
    )
    expect(run(playground).locator('pre.stdout')).to_have_text(
        'freed mul_add\nfreed add\nfreed tanh\nfreed square\nfreed right\n', timeout=RUN_TIMEOUT_MS
    )


def test_micropip_loads_when_a_program_imports_it(playground):
    type_program(
        playground, 'import asyncio, micropip  # not first in its line\nprint("installer", micropip.__name__)\n'
    )
    section = run(playground)
    expect(section.locator('pre.stdout')).to_have_text('installer micropip\n')
