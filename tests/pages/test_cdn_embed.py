"""One script line from a CDN: an article on a blog's origin loads embed.js from the npm package that
`python build.py package` writes, as npm installed it, served by a stand-in that behaves as jsDelivr does
(support/cdn.py: HTML as text, binaries uncompressed, no COOP/COEP, 403 over 20 MB). Every non-local request is
blocked (conftest.py); with that route set Playwright turns the HTTP cache off, so a file fetched twice is
counted twice here."""

import re
import urllib.error
import urllib.request

import pytest
from playwright.sync_api import expect

from support import STARTUP_TIMEOUT_MS
from support.cdn import CDN, MAX_FILE, second_version
from support.pages import HOSTILE_THEME, article, cells, check, press_run, rouge

pytestmark = pytest.mark.usefixtures('site')

BLOCKS = [
    "a = Value(2.0, label='a')\nprint('cell one', a.data)",
    "b = a * a + a; b.label = 'b'\nb.backward()\nprint('b', b.data)\ndraw_dot(b)",
    "# quiz\nc = a * 3; c.label = 'c'\nc.backward()\ndraw_dot(c)",
    "# exercise: half\ndef half(x):\n    return x",
    "# checks: half\nexpect(half(4) == 2, 'half(4) should be 2, not {}'.format(half(4)))",
    "# solution: half\ndef half(x):\n    return x / 2",
    "print('looping')\nwhile True:\n    pass",
]


def value(graph, label):
    return graph.locator('g.node').filter(has=graph.page.locator('text', has_text=re.compile(f'^{re.escape(label)}$')))


def test_one_script_line_from_the_cdn_gives_an_article_every_kind_of_cell(page, cdn, other_origin, requests):
    urls = requests
    page.goto(
        article(
            other_origin,
            'cdn-post.html',
            '<h1>Backprop, from a CDN</h1>'
            + ''.join(map(rouge, BLOCKS))
            + f'<script type="module" src="{cdn.embed}?lang=python"></script>',
            head=HOSTILE_THEME,
        )
    )
    expect(cells(page)).to_have_count(4)
    expect(page.get_by_test_id('exercise')).to_have_count(1)
    assert not any('pyodide' in url or 'build.json' in url for url in urls), (
        'Python was fetched before the reader touched a cell'
    )
    # A CDN shows HTML as text: without a playground named by the author, no cell links to a page.
    expect(page.get_by_test_id('open-in-playground')).to_have_count(0)
    expect(page.get_by_test_id('open-as-notebook')).to_have_count(0)

    # Run first: the second cell needs the first's `a`.
    second = cells(page).nth(1)
    section = press_run(second)
    expect(section.locator('pre.stdout')).to_have_text('b 6.0\n')
    graph = section.locator('svg')
    expect(graph).to_be_visible()
    assert graph.bounding_box()['width'] > 100, 'the theme shrank the graph'
    first = cells(page).nth(0).get_by_test_id('output').locator('section.run')
    expect(first.locator('.run-header')).to_contain_text('because cell 2 needs it')
    expect(first.locator('pre.stdout')).to_have_text('cell one 2.0\n')
    # Node arithmetic: a value used twice, a term per use.
    value(graph, 'a').click()
    panel = section.get_by_test_id('node-explain')
    expect(panel).to_be_visible()
    expect(panel.get_by_test_id('grad-term')).to_have_count(3)
    expect(panel.locator('.explain-sum')).to_contain_text('= 5.0000')

    # The quiz, from a `# quiz` line.
    quiz = press_run(cells(page).nth(2))
    expect(quiz.get_by_test_id('quiz-panel')).to_be_visible()
    expect(quiz.locator('svg').first).to_contain_text('grad ?')

    # The exercise: its starter fails its checks, the solution passes.
    box = page.get_by_test_id('exercise')
    check(box, 'failed')
    expect(box.get_by_test_id('result')).to_contain_text('half(4) should be 2, not 4')
    box.get_by_test_id('solution').click()
    box.get_by_role('button', name='Put it in the editor').click()
    check(box, 'passed')

    # Stop: a page without isolation restarts Python, and says so.
    loop = cells(page).nth(3)
    loop.get_by_test_id('run').click()
    expect(loop.get_by_test_id('output')).to_contain_text('looping', timeout=STARTUP_TIMEOUT_MS)
    loop.get_by_test_id('stop').click()
    expect(loop.get_by_test_id('output')).to_contain_text('Python was restarted')
    expect(loop.get_by_test_id('status')).to_have_attribute('data-state', 'ready', timeout=STARTUP_TIMEOUT_MS)
    again = press_run(second)
    expect(again.locator('pre.stdout')).to_have_text('b 6.0\n')

    # The runtime came packed, once for the page: the Python after the Stop started from the page's copy.
    assert sum(url.endswith('/pyodide/runtime.zst') for url in urls) == 1, [u for u in urls if 'pyodide/' in u]
    assert sum(url.endswith('/build.json') for url in urls) == 1
    assert not any(url.endswith(('.wasm', '/python_stdlib.zip')) and '/pyodide/' in url for url in urls)
    assert not any('/snapshot' in url for url in urls)
    assert sum(url.endswith('/python-worker.js') for url in urls) >= 2, 'Stop did not start a new Python'
    assert cdn.refused == []


def test_cells_link_to_the_playground_the_author_names(page, cdn, other_origin, site_url):
    elsewhere = site_url.replace('127.0.0.1', 'localhost')  # the same server on another origin
    page.goto(
        article(
            other_origin,
            'cdn-links.html',
            f'''
        <pre data-playground>print("one")</pre>
        <div data-playground-url="{site_url}index.html"><pre data-playground>print("two")</pre></div>
        <script type="module" src="{cdn.embed}?playground={elsewhere}courses/backprop"></script>''',
        )
    )
    expect(cells(page)).to_have_count(2)
    links, notebooks = page.get_by_test_id('open-in-playground'), page.get_by_test_id('open-as-notebook')
    expect(links).to_have_count(2)
    # The query names a folder (without its slash); the element's attribute, nearer the cell, names a page.
    expect(links.nth(0)).to_have_attribute('href', f'{elsewhere}courses/backprop/index.html')
    expect(notebooks.nth(0)).to_have_attribute('href', f'{elsewhere}courses/backprop/notebook.html')
    expect(links.nth(1)).to_have_attribute('href', f'{site_url}index.html')
    expect(notebooks.nth(1)).to_have_attribute('href', f'{site_url}notebook.html')
    with page.context.expect_page() as opened:
        links.nth(1).click()
    playground = opened.value
    expect(playground.get_by_test_id('editor')).to_contain_text('print("two")', timeout=STARTUP_TIMEOUT_MS)
    assert playground.url.split('#')[0] == f'{site_url}index.html'


def test_the_cdn_stand_in_refuses_what_jsdelivr_refuses(cdn, cdn_package, site, tmp_path):
    folder, info = cdn_package
    base = cdn.package_url(f"{info['name']}@{info['version']}")

    def get(path, encoding='br, gzip', base=base):
        request = urllib.request.Request(base + path, headers={'Accept-Encoding': encoding})
        try:
            with urllib.request.urlopen(request) as response:
                return response.status, response.headers, response.read()
        except urllib.error.HTTPError as error:
            return error.code, error.headers, error.read()

    status, headers, _ = get('embed.js')
    assert status == 200 and headers['Content-Encoding'] == 'br' and headers['X-Content-Type-Options'] == 'nosniff'
    assert 'Cross-Origin-Embedder-Policy' not in headers and headers['Access-Control-Allow-Origin'] == '*'
    status, headers, body = get('pyodide/runtime.zst')
    assert headers['Content-Type'] == 'application/octet-stream' and 'Content-Encoding' not in headers
    assert body == (folder / 'pyodide' / 'runtime.zst').read_bytes()
    assert get('pyodide/pyodide.asm.wasm')[1].get('Content-Encoding') is None
    # The package holds no page and no file a CDN refuses; dist/ has none over the limit either.
    assert not list(folder.rglob('*.html'))
    assert max(path.stat().st_size for path in folder.rglob('*') if path.is_file()) <= MAX_FILE
    assert max(path.stat().st_size for path in site.rglob('*') if path.is_file()) <= MAX_FILE
    # A file over the limit, in a package of its own (the run's workers share the installed one, read only).
    (tmp_path / 'large').mkdir()
    (tmp_path / 'large' / 'too-large.bin').write_bytes(b'\0' * (MAX_FILE + 1))
    large = CDN({f"{info['name']}@0.0.2": tmp_path / 'large'})
    try:
        assert get('too-large.bin', base=large.package_url(f"{info['name']}@0.0.2"))[0] == 403
    finally:
        large.stop()
    assert get('nothing-here.js')[0] == 404


def test_two_versions_on_one_page_keep_their_own_pythons(page, cdn_package, other_origin, tmp_path, requests):
    folder, info = cdn_package
    older = second_version(folder, tmp_path / 'older', '0.0.1')
    cdn = CDN({f"{info['name']}@{info['version']}": folder, f"{info['name']}@0.0.1": older}, compress_wasm=True)
    try:
        urls = requests
        page.goto(
            article(
                other_origin,
                'two-versions.html',
                f'''
            <pre data-playground>shared = 'new'
print(shared)</pre>
            {rouge("print(globals().get('shared', 'not here'))")}
            <script type="module" src="{cdn.package_url(f"{info['name']}@{info['version']}")}embed.js"></script>
            <script type="module" src="{cdn.package_url(f"{info['name']}@0.0.1")}embed.js?lang=python"></script>''',
            )
        )
        expect(cells(page)).to_have_count(2)
        expect(press_run(cells(page).nth(0)).locator('pre.stdout')).to_have_text('new\n')
        expect(press_run(cells(page).nth(1)).locator('pre.stdout')).to_have_text('not here\n')
        workers = [url for url in urls if url.endswith('/session/python-worker.js')]
        assert any(f"@{info['version']}/" in url for url in workers) and any('@0.0.1/' in url for url in workers), (
            workers
        )
        assert cdn.refused == []
    finally:
        cdn.stop()
