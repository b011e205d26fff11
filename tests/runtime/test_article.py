"""The sample article (web/article.html), run in CPython: its cells, in page order and in one shared
namespace as embed.js runs them, each finish without error and print (and draw) what the prose says.

What each cell prints and draws is in support/article.py, which the browser test reads too.
"""

import json
import re
from html.parser import HTMLParser
from pathlib import Path

from playground_runtime import runner as playground
from support.article import EXPECTED_GRAPH_TEXT, EXPECTED_OUTPUT

ARTICLE = Path(__file__).resolve().parents[2] / 'web' / 'article.html'
DEFAULT_ENV = 'page'  # embed.js: cells without data-env share this one
TEST_ENV = 'article-test'


def code_of(text):
    """As embed.js reads a block: without the newline after the tag, nor trailing whitespace."""
    return re.sub(r'\s+$', '', text.removeprefix('\n'))


class ArticleParser(HTMLParser):
    """Collects the playground cells and setup scripts in page order, with their env."""

    def __init__(self):
        super().__init__()  # convert_charrefs: a <pre>'s &lt; arrives as <
        self.cells = []  # (env, code, attrs)
        self.setups = []  # (env, code)
        self.links = []
        self.scripts = []
        self.headings = []
        self.tags_in_cells = []
        self._target = None
        self._text = []

    def handle_starttag(self, tag, attrs):
        attrs = dict(attrs)
        if self._target is not None:
            self.tags_in_cells.append(self.get_starttag_text())  # an unescaped < in the code
            return
        if tag in ('a', 'link'):
            self.links.append(attrs)
        if tag == 'script' and attrs.get('src'):
            self.scripts.append(attrs)
        if tag in ('h1', 'h2'):
            self.headings.append(tag)
        if tag == 'pre' and 'data-playground' in attrs:
            self._target = ('cell', attrs)
        elif tag == 'script' and 'data-playground-setup' in attrs:
            self._target = ('setup', attrs)
        if self._target is not None:
            self._text = []

    def handle_data(self, data):
        if self._target is not None:
            self._text.append(data)

    def handle_endtag(self, tag):
        if self._target is None or tag not in ('pre', 'script'):
            return
        kind, attrs = self._target
        env = attrs.get('data-env') or DEFAULT_ENV
        code = code_of(''.join(self._text))
        if kind == 'cell':
            self.cells.append((env, code, attrs))
        else:
            self.setups.append((env, code))
        self._target = None


def parse_article():
    parser = ArticleParser()
    parser.feed(ARTICLE.read_text(encoding='utf-8'))
    parser.close()
    return parser


def article_cells():
    """The code of every playground cell of the article, in page order."""
    return [code for _, code, _ in parse_article().cells]


def run_cell(code, env):
    events = []
    result = json.loads(playground.run(code, lambda text: events.append(json.loads(text)), env=env))
    return result, events


def test_article_structure():
    page = parse_article()
    assert len(page.cells) >= 6
    assert len(page.cells) == len(EXPECTED_OUTPUT), "one EXPECTED_OUTPUT entry per cell"
    assert not page.tags_in_cells, f"unescaped < in a cell: {page.tags_in_cells}"
    assert {'type': 'module', 'src': 'embed.js'} in page.scripts
    hrefs = {link.get('href') for link in page.links}
    assert {'article.css', 'index.html', 'course.html'} <= hrefs
    assert page.headings.count('h1') == 1 and page.headings.count('h2') >= 6
    assert all(code for code in article_cells())


def test_cells_run_in_order_and_print_what_the_prose_says():
    page = parse_article()
    envs = {env for env, _, _ in page.cells} | {env for env, _ in page.setups}
    env_name = {env: TEST_ENV if env == DEFAULT_ENV else f'{TEST_ENV}:{env}' for env in envs}
    try:
        for env, code in page.setups:
            result, events = run_cell(code, env_name[env])
            assert result['status'] == 'ok', (env, result)
        for index, (env, code, _) in enumerate(page.cells):
            result, events = run_cell(code, env_name[env])
            where = f"cell {index + 1}"
            assert result == {'status': 'ok'}, (where, result)
            kinds = {event['type'] for event in events}
            assert not kinds & {'stderr', 'notice', 'graph-too-large'}, (where, events)
            stdout = ''.join(event['text'] for event in events if event['type'] == 'stdout')
            for expected in EXPECTED_OUTPUT[index]:
                assert expected in stdout, (where, expected, stdout)
            dots = [event['dot'] for event in events if event['type'] == 'graph']
            if index in EXPECTED_GRAPH_TEXT:
                assert dots, f"{where} draws no graph"
                for expected in EXPECTED_GRAPH_TEXT[index]:
                    assert any(expected in dot for dot in dots), (where, expected, dots)
            else:
                assert not dots, f"{where} draws a graph that EXPECTED_GRAPH_TEXT does not list"
    finally:
        for name in env_name.values():
            playground.reset(name)


def test_the_neuron_matches_scalargrad():
    """The article's hand-built engine agrees with the real one on the neuron."""
    from scalargrad import Value

    x1, x2 = Value(2.0), Value(0.0)
    w1, w2 = Value(-3.0), Value(1.0)
    b = Value(6.8813735870195432)
    n = x1 * w1 + x2 * w2 + b
    o = n.tanh()
    o.backward()
    got = [f"{v.grad:.4f}" for v in (n, x1, w1, x2, w2)]
    assert got == ['0.5000', '-1.5000', '1.0000', '0.5000', '0.0000']
    assert f"{o.data:.4f}" == '0.7071'
