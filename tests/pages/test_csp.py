"""The Content-Security-Policy: one policy in backprop_playground/policy.py, as a <meta> in every page, a header from serve and
from the service worker; normal use breaks none of it, and script injected into a page does not run.

Every non-local request is blocked (conftest.py).
"""

import re
import urllib.request
from html.parser import HTMLParser

import pytest
from playwright.sync_api import expect

from backprop_playground import policy
from support import ROOT, SERVICE_WORKER, STARTUP_TIMEOUT_MS, wait_until
from support.course import IDS
from support.pages import (
    article,
    cells,
    check,
    exercise,
    load_example,
    open_playground,
    press_run,
    run,
    seen_requests,
    type_program,
)

pytestmark = pytest.mark.usefixtures('site')

PAGES = sorted(path.name for path in (ROOT / 'web').glob('*.html'))

# Runs before any of the page's own scripts; the browser injects it, so the page's policy does not apply.
LISTEN = '''
window.cspViolations = [];
addEventListener('securitypolicyviolation', (event) => cspViolations.push(
  `${event.effectiveDirective} blocked ${event.blockedURI} (${event.sourceFile}:${event.lineNumber})`), true);
'''


@pytest.fixture
def watched(context):
    """A page whose policy violations are collected in window.cspViolations."""
    context.add_init_script(LISTEN)
    return context.new_page()


def violations(page):
    return page.evaluate('window.cspViolations')


class Meta(HTMLParser):
    def __init__(self):
        super().__init__()
        self.policies, self.first_tags = [], []

    def handle_starttag(self, tag, attrs):
        attrs = dict(attrs)
        if tag == 'meta' and attrs.get('http-equiv', '').lower() == 'content-security-policy':
            self.policies.append(attrs['content'])
        elif tag in ('script', 'link', 'style') and not self.policies:
            self.first_tags.append(tag)


def fetch(url):
    with urllib.request.urlopen(url) as response:
        return response.headers, response.read().decode('utf-8')


def test_the_policy_allows_no_inline_script_and_no_eval():
    directives = dict(part.split(' ', 1) for part in policy.CONTENT_SECURITY_POLICY.split('; '))
    assert directives['script-src'] == "'self' 'wasm-unsafe-eval'"
    assert directives['default-src'] == "'none'"
    assert directives['object-src'] == "'none'"
    assert 'base-uri' in directives and 'form-action' in directives


@pytest.mark.parametrize('name', PAGES)
def test_serve_sends_each_pages_meta_as_its_header(site_url, name):
    headers, text = fetch(site_url + name)
    meta = Meta()
    meta.feed(text)
    assert meta.policies == [policy.policy_for(name)]
    assert meta.first_tags == [], 'a script or stylesheet comes before the policy, which then does not govern it'
    assert headers['Content-Security-Policy'] == policy.policy_for(name)


def test_only_the_notebook_page_may_fetch_from_other_hosts():
    """notebook.html#url= opens notebooks from any host that sends CORS headers; nothing else differs."""
    directives = lambda policy: dict(part.split(' ', 1) for part in policy.split('; '))  # noqa: E731
    notebook, others = directives(policy.policy_for('notebook.html')), directives(policy.CONTENT_SECURITY_POLICY)
    assert notebook.pop('connect-src') == '*' and others.pop('connect-src') == "'self'"
    assert notebook == others
    assert [name for name in PAGES if policy.policy_for(name) != policy.CONTENT_SECURITY_POLICY] == ['notebook.html']


@pytest.mark.parametrize('name', ['session/python-worker.js', 'session/render-worker.js', 'sw.js'])
def test_serve_sends_the_policy_with_every_worker(site_url, name):
    headers, _ = fetch(site_url + name)
    assert headers['Content-Security-Policy'] == policy.CONTENT_SECURITY_POLICY


INJECT = '''() => {
  document.body.insertAdjacentHTML('beforeend',
    '<script id="hostile">window.ranInjected = "parsed"</script><img src="data:," onerror="window.ranInjected = \\'handler\\'">');
  const script = document.createElement('script');  // one that the parser made would never run anyway
  script.textContent = document.getElementById('hostile').textContent.replace('parsed', 'recreated');
  document.body.append(script);
}'''


@pytest.mark.parametrize('name', PAGES)
def test_script_injected_into_a_page_does_not_run(watched, site_url, name):
    watched.goto(site_url + name)
    watched.evaluate(INJECT)
    wait_until(watched, 'cspViolations.length >= 2')
    assert watched.evaluate('window.ranInjected') is None
    kinds = {v.split(' ')[0] for v in violations(watched)}
    assert kinds == {'script-src-elem', 'script-src-attr'}, violations(watched)


def test_the_main_page_runs_graphs_and_charts_within_the_policy(watched, site_url):
    page = open_playground(watched, site_url)
    load_example(page, 'moons-mlp.py')
    section = run(page)
    expect(section.locator('.graph-card svg')).to_contain_text('layer 3 · neuron 1')
    expect(page.locator('.chart')).to_have_count(3)  # loss, accuracy, decision boundary
    expect(page.locator('.chart image')).to_have_count(1)  # the boundary's raster is a data: URL
    assert violations(page) == []


# A run that used `js` ends with its Python: once it is over, the status may show the next one loading.
AFTER_JS = re.compile('ready|loading')
EVAL_FROM_PYTHON = 'import js\ntry:\n    print(js.eval("6 * 7"))\nexcept Exception as error:\n    print(error)\n'


def test_python_in_the_worker_cannot_evaluate_javascript(playground):
    page = playground
    type_program(page, EVAL_FROM_PYTHON)
    expect(run(page, AFTER_JS).locator('pre.stdout')).to_contain_text('EvalError')


# Each fetch is awaited, so both were made before the run ends (its worker ends with it, and a fetch only
# started may never be sent): the one to its own origin answers, the other is refused inside the worker.
ESCAPES_FROM_PYTHON = """import js
print((await js.fetch("SAME")).status)
try:
    await js.fetch("ELSEWHERE")
    print("reached it")
except Exception as error:
    print("refused:", type(error).__name__)
"""


def test_python_in_the_worker_cannot_reach_another_origin(playground, site_url):
    """connect-src 'self' holds in the worker: a program's fetch to another origin never leaves (this fails
    on a first visit to a plain host, whose worker has no policy yet). A blob: worker that a program starts
    cannot run either: worker-src is 'self', and a run that used `js` ends with its worker (test_trust.py),
    before a worker it started could run (seen: without the policy, no such worker ran)."""
    elsewhere = site_url.replace('127.0.0.1', 'localhost') + 'build.json'  # the same server, another origin
    same = site_url + 'build.json?from-the-worker'
    with seen_requests(playground) as requests:
        type_program(playground, ESCAPES_FROM_PYTHON.replace('SAME', same).replace('ELSEWHERE', elsewhere))
        expect(run(playground, AFTER_JS).locator('pre.stdout')).to_have_text('200\nrefused: JsException\n')
    assert same in requests, "the worker's fetch to its own origin was not seen: the check below could not fail"
    assert elsewhere not in requests, 'the fetch to another origin left the page'


def test_article_cells_run_within_the_policy(watched, site_url):
    watched.goto(site_url + 'article.html')
    section = press_run(cells(watched).nth(2))  # runs the two before it first
    expect(section.locator('svg')).to_contain_text('data 4.0000')
    assert violations(watched) == []


def test_a_course_exercise_runs_within_the_policy(watched, site_url):
    watched.goto(site_url + 'course.html')
    box = exercise(watched, IDS[0])
    check(box, 'failed')
    box.get_by_test_id('solution').click()
    box.get_by_role('button', name='Put it in the editor').click()
    expect(check(box, 'passed')).to_contain_text('All checks passed')
    assert violations(watched) == []


def test_embed_html_runs_within_the_policy(watched, site_url):
    watched.goto(site_url + 'embed.html#example=neuron.py')
    expect(watched.get_by_test_id('editor')).to_contain_text('x1 = Value(2.0')
    section = run(watched)
    expect(section.locator('svg')).to_contain_text('grad 0.5000')
    assert violations(watched) == []


@SERVICE_WORKER
def test_the_service_worker_sends_the_policy_where_the_host_sends_none(page, plain_site_url):
    response = page.goto(plain_site_url)
    assert 'content-security-policy' not in response.headers, 'the plain host sends headers of its own'
    assert page.evaluate('navigator.serviceWorker.ready.then((r) => r.active && r.scope)') == plain_site_url
    with page.context.expect_event('response', lambda r: r.url.endswith('/python-worker.js')) as worker:
        response = page.reload()
    expect(page.get_by_test_id('status')).to_have_attribute('data-state', 'ready', timeout=STARTUP_TIMEOUT_MS)
    assert page.evaluate('Boolean(navigator.serviceWorker.controller)')
    assert response.from_service_worker
    assert response.headers['content-security-policy'] == policy.CONTENT_SECURITY_POLICY
    assert worker.value.from_service_worker
    assert worker.value.headers['content-security-policy'] == policy.CONTENT_SECURITY_POLICY
    type_program(page, EVAL_FROM_PYTHON)
    expect(run(page, AFTER_JS).locator('pre.stdout')).to_contain_text('EvalError')


def author_policy(site_url):
    """What docs/security.md tells an article's author to allow for embed.js (our origin is site_url's)."""
    ours = site_url.rstrip('/')
    directives = {
        'default-src': "'none'",
        'script-src': f"{ours} 'wasm-unsafe-eval'",
        'worker-src': f"{ours} blob:",
        'connect-src': ours,
        'style-src': f"{ours} 'unsafe-inline'",
        'img-src': 'data:',
    }
    return '; '.join(f"{name} {value}" for name, value in directives.items())


AUTHOR_CELLS = '''
    <pre data-playground>a = Value(2.0, label='a')
draw_dot(a * a + a)</pre>
    <pre data-playground>model = MLP(2, [4, 1])
X, y = [(0, 0), (1, 1), (0, 1), (1, 0)], [1, 1, -1, -1]
plot(step=0, loss=1.0)
plot(step=1, loss=0.5)
plot_boundary(model, X, y)
print("charted")</pre>
'''


def test_an_article_elsewhere_runs_cells_under_the_policy_the_readme_gives(watched, site_url, other_origin):
    url = article(
        other_origin,
        'strict.html',
        f'''{AUTHOR_CELLS}
        <script type="module" src="{site_url}embed.js"></script>''',
        head=f'<meta http-equiv="Content-Security-Policy" content="{author_policy(site_url)}">',
    )
    watched.goto(url)
    graph = press_run(cells(watched).nth(0))
    expect(graph.locator('.graph-card svg')).to_contain_text('data 6.0000')
    charts = press_run(cells(watched).nth(1))
    expect(charts.locator('pre.stdout')).to_have_text('charted\n')
    expect(cells(watched).nth(1).locator('.chart')).to_have_count(2)  # the loss, the boundary
    expect(cells(watched).nth(1).locator('.chart image')).to_have_count(1)
    assert violations(watched) == []
