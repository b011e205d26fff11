"""Cells in other sites' articles (embed.js), embed.html in an iframe, and share links, end to end.

The article pages are served from a second local origin, as a blog on another host would be.
Every non-local request is blocked (see conftest.py).
"""

import re

import pytest
from playwright.sync_api import expect

from support import STARTUP_TIMEOUT_MS, wait_until
from support.article import EXPECTED_GRAPH_TEXT, EXPECTED_OUTPUT
from support.pages import HOSTILE_THEME, article, cells, press_run, run, share_fragment, type_program

pytestmark = pytest.mark.usefixtures('site')


def test_cells_of_an_article_on_another_origin_share_one_python(page, site_url, other_origin, requests):
    url = article(
        other_origin,
        'post.html',
        f'''
        <h1>A post</h1>
        <pre data-playground>a = 1
print("cell one", a)</pre>
        <p>Some prose.</p>
        <pre data-playground>b = a + 1
print("cell two", b)</pre>
        <pre data-playground>v = Value(b, label='v')
print("cell three", a + b)
draw_dot(v * 2)</pre>
        <pre data-playground data-env="other">print(globals().get("a", "no a here"))</pre>
        <script type="module" src="{site_url}embed.js"></script>''',
        head=HOSTILE_THEME,
    )
    page.goto(url)
    expect(cells(page)).to_have_count(4)
    for i in range(4):
        expect(cells(page).nth(i).get_by_test_id('status')).to_have_attribute('data-state', 'idle')
        expect(cells(page).nth(i).get_by_test_id('editor')).to_be_visible()
    assert not any('pyodide' in r for r in requests), 'Python was downloaded before the reader touched a cell'

    third = cells(page).nth(2)
    section = press_run(third)
    expect(section.locator('pre.stdout')).to_have_text('cell three 3\n')
    graph = section.locator('svg')
    expect(graph).to_have_count(1)
    expect(graph).to_be_visible()
    assert graph.bounding_box()['width'] > 100, 'the theme shrank the graph'
    expect(graph).to_contain_text('data 4.0000')
    for i, text in [(0, 'cell one 1'), (1, 'cell two 2')]:
        earlier = cells(page).nth(i).get_by_test_id('output').locator('section.run')
        expect(earlier).to_have_count(1)
        expect(earlier.locator('.run-header')).to_contain_text('because cell 3 needs it')
        expect(earlier.locator('pre.stdout')).to_have_text(f'{text}\n')
        expect(earlier.locator('svg')).to_have_count(0)

    other = press_run(cells(page).nth(3))
    expect(other.locator('pre.stdout')).to_have_text('no a here\n')
    expect(cells(page).nth(3).get_by_test_id('run')).to_be_visible()
    # One Python for the page, its runtime downloaded once: on another site than the runtime's, the page takes
    # the packed runtime whatever build.json came with (a CDN compresses JSON but sends binaries as they are).
    assert sum(r.endswith('pyodide/runtime.zst') for r in requests) == 1
    assert not any(r.endswith(('pyodide.asm.wasm', 'python_stdlib.zip')) or '/snapshot' in r for r in requests)
    # No Python but the page's, and its standby if the page started one (1 s after a run ended, on a slow machine
    # before the test ends).
    # A standby still starting when a Run was pressed ended (python-standby-ended), maybe before its request.
    standby, ended = page.evaluate(
        "['python-standby-start', 'python-standby-ended'].map((n) => performance.getEntriesByName(n).length)"
    )
    for _ in range(50):  # a standby's request may reach Playwright a moment after its mark
        if sum(r.endswith('python-worker.js') for r in requests) == 1 + standby:
            break
        page.wait_for_timeout(100)
    assert 1 + standby - ended <= sum(r.endswith('python-worker.js') for r in requests) <= 1 + standby


def test_restart_empties_the_env_and_stop_on_a_plain_page_says_what_was_lost(page, site_url, other_origin):
    url = article(
        other_origin,
        'loop.html',
        f'''
        <pre data-playground>x = 41</pre>
        <pre data-playground>print("x is", x)</pre>
        <pre data-playground>while True:
    pass</pre>
        <script type="module" src="{site_url}embed.js"></script>''',
    )
    page.goto(url)
    second = cells(page).nth(1)
    expect(press_run(second).locator('pre.stdout')).to_have_text('x is 41\n')
    second.get_by_test_id('restart').click()
    expect(second.get_by_test_id('output')).to_contain_text('names are gone')
    section = press_run(second)
    expect(section.locator('pre.stdout')).to_have_text('x is 41\n')
    expect(cells(page).nth(0).get_by_test_id('output').locator('section.run')).to_have_count(2)

    loop = cells(page).nth(2)
    loop.get_by_test_id('run').click()
    expect(loop.get_by_test_id('status')).to_have_attribute('data-state', 'running')
    expect(loop.get_by_test_id('stop')).to_be_enabled()
    loop.get_by_test_id('stop').click()
    expect(loop.get_by_test_id('output')).to_contain_text('Python was restarted')
    expect(loop.get_by_test_id('output')).to_contain_text('cells 1, 2 defined are gone')
    expect(loop.get_by_test_id('status')).to_have_attribute('data-state', 'ready', timeout=STARTUP_TIMEOUT_MS)
    section = press_run(second)
    expect(section.locator('pre.stdout')).to_have_text('x is 41\n')


def test_author_options_readonly_setup_collapsed_and_autorun(page, site_url, other_origin):
    url = article(
        other_origin,
        'options.html',
        f'''
        <script type="text/x-python" data-playground-setup>secret = 7</script>
        <pre data-playground data-readonly>print("setup gave", secret)</pre>
        <div style="height: 3000px"></div>
        <pre data-playground data-collapsed data-autorun>print("ran by itself")</pre>
        <script type="module" src="{site_url}embed.js"></script>''',
    )
    page.goto(url)
    first, second = cells(page).nth(0), cells(page).nth(1)
    expect(first.locator('.cm-content')).to_have_attribute('aria-readonly', 'true')
    expect(press_run(first).locator('pre.stdout')).to_have_text('setup gave 7\n')
    expect(second.get_by_test_id('editor')).to_be_hidden()
    assert second.get_by_test_id('output').locator('section.run').count() == 0, 'autorun ran before it was seen'
    second.scroll_into_view_if_needed()
    expect(second.locator('pre.stdout')).to_have_text('ran by itself\n', timeout=STARTUP_TIMEOUT_MS)
    second.get_by_role('button', name='Show code').click()
    expect(second.get_by_test_id('editor')).to_be_visible()


def test_a_run_pressed_while_embed_html_still_fetches_its_example_is_not_lost(page, site_url):
    # embed.html draws its cell, then fetches the example, then wires Run. On a busy machine a press in
    # between did nothing at all (test_room_network failed so in a suite run): Run waits, disabled.
    held = []
    page.route('**/examples/accumulation.py', lambda route: held.append(route))
    page.goto(f"{site_url}embed.html#example=accumulation.py")
    run_button = page.get_by_test_id('run')
    expect(run_button).to_be_disabled()
    page.wait_for_timeout(300)
    held[0].continue_()
    run_button.click()  # as soon as it can be pressed
    expect(page.get_by_test_id('output').locator('svg').first).to_contain_text(
        'grad 2.0000', timeout=STARTUP_TIMEOUT_MS
    )


def test_embed_html_in_an_iframe_follows_its_options_and_reports_its_height(page, site_url, other_origin):
    fragment = share_fragment('print("from the frame")\n')
    url = article(
        other_origin,
        'frame.html',
        f'''
        <script>window.heights = []; addEventListener("message", (e) => heights.push(e.data));</script>
        <iframe id="cell" src="{site_url}embed.html#{fragment}&readonly&autorun&theme=dark" style="width: 600px; height: 100px"></iframe>
        <script type="module" src="{site_url}embed.js"></script>''',
    )
    page.goto(url)
    frame = page.frame_locator('#cell')
    expect(frame.locator('pre.stdout')).to_have_text('from the frame\n', timeout=STARTUP_TIMEOUT_MS)
    expect(frame.get_by_test_id('status')).to_have_attribute('data-state', 'ready')
    expect(frame.locator('.cm-content')).to_have_attribute('aria-readonly', 'true')
    expect(frame.locator('.cell')).to_have_attribute('data-theme', 'dark')
    wait_until(page, 'heights.some((m) => m.type === "backprop-playground:height" && m.height > 100)')
    last = page.evaluate('heights.filter((m) => m.type === "backprop-playground:height").at(-1).height')
    expect(page.locator('#cell')).to_have_attribute('style', re.compile(f'height: {last}px'))


def test_embed_html_opened_at_the_top_level_never_runs_by_itself(page, site_url):
    page.goto(f"{site_url}embed.html#{share_fragment('print(1 + 1)')}&autorun")
    expect(page.get_by_test_id('output')).to_contain_text('runs only when you press Run')
    expect(page.get_by_test_id('editor')).to_contain_text('print(1 + 1)')
    page.wait_for_timeout(1500)
    expect(page.get_by_test_id('output').locator('pre.stdout')).to_have_count(0)
    assert page.get_by_test_id('status').get_attribute('data-state') in ('idle', 'loading', 'ready')
    page.get_by_test_id('editor').hover()
    expect(page.get_by_test_id('status')).to_have_attribute('data-state', 'ready', timeout=STARTUP_TIMEOUT_MS)
    expect(page.get_by_test_id('output').locator('pre.stdout')).to_have_count(0)
    section = run(page)
    expect(section.locator('pre.stdout')).to_have_text('2\n')


def test_embed_html_shows_an_example_by_name(page, site_url):
    page.goto(f"{site_url}embed.html#example=accumulation.py")
    expect(page.get_by_test_id('editor')).to_contain_text('a + a')


def test_embed_html_given_no_code_shows_the_first_example_which_its_page_carries(page, site_url, requests):
    page.goto(f"{site_url}embed.html")
    expect(page.get_by_test_id('editor')).to_contain_text('x1 = Value(2.0')
    section = run(page)
    expect(section.locator('svg').first).to_contain_text('data 0.7071')
    assert not any('/examples/' in url for url in requests), requests


def test_embed_html_names_only_the_listed_examples(page, site_url):
    page.goto(f"{site_url}embed.html#example=../index.html")
    expect(page.get_by_test_id('output')).to_contain_text(
        'There is no example called "../index.html". The first example is shown instead.'
    )
    expect(page.get_by_test_id('editor')).to_contain_text('x1 = Value(2.0')


UNICODE_PROGRAM = '\n'.join(
    [f'# ligne {i}: ∂L/∂w = {i * 0.5} — naïve café 🧠 {"→" * (i % 7)}' for i in range(4999)] + ['print("fin ✓")']
)


def test_share_link_round_trips_and_never_runs_and_the_earlier_work_is_restorable(fresh_playground, context):
    playground = fresh_playground
    context.grant_permissions(['clipboard-read', 'clipboard-write'])
    type_program(playground, '# my own work\nprint("mine")\n')
    playground.evaluate('(code) => window.playground.cell.setText(code)', UNICODE_PROGRAM)
    playground.get_by_test_id('share').click()
    link = playground.get_by_test_id('share-link')
    expect(link).to_have_value(re.compile(r'#code=[A-Za-z0-9_-]+$'))
    expect(playground.get_by_test_id('share-panel')).to_contain_text('copied')
    url = link.input_value()
    assert playground.evaluate('navigator.clipboard.readText()') == url
    assert playground.evaluate('document.activeElement.dataset.testid') == 'share-link'

    playground.evaluate('(code) => window.playground.cell.setText(code)', '# my own work\nprint("mine")\n')
    playground.goto(url)
    expect(playground.get_by_test_id('editor')).to_contain_text('ligne 0')
    assert playground.evaluate('window.playground.cell.getText()') == UNICODE_PROGRAM
    assert '#' not in playground.url
    expect(playground.get_by_test_id('notice')).to_contain_text('has not run')
    expect(playground.get_by_test_id('status')).to_have_attribute('data-state', 'ready', timeout=STARTUP_TIMEOUT_MS)
    expect(playground.get_by_test_id('output').locator('section.run')).to_have_count(0)
    section = run(playground)
    expect(section.locator('pre.stdout')).to_have_text('fin ✓\n')
    playground.get_by_role('button', name='Restore my earlier code').click()
    expect(playground.get_by_test_id('editor')).to_contain_text('# my own work')


def test_links_opened_one_after_another_never_replace_the_code_put_aside(fresh_playground, site_url):
    playground = fresh_playground
    type_program(playground, '# my own work\nprint("mine")\n')
    wait_until(
        playground, "(localStorage.getItem('backprop-playground:code') || '').includes('# my own work')"
    )  # saved on change
    playground.goto(f"{site_url}#{share_fragment('print(1)')}")
    expect(playground.get_by_test_id('editor')).to_contain_text('print(1)')
    playground.evaluate("(fragment) => { location.hash = fragment }", share_fragment('print(2)'))
    expect(playground.get_by_test_id('editor')).to_contain_text('print(2)')
    playground.evaluate("() => { location.hash = 'code=%%%damaged' }")
    expect(playground.get_by_test_id('notice')).to_contain_text('first example is shown')
    playground.reload()
    expect(playground.get_by_test_id('editor')).to_contain_text('x1 = Value(2.0')
    playground.goto(f"{site_url}#{share_fragment('print(3)')}")
    playground.get_by_role('button', name='Restore my earlier code').click()
    expect(playground.get_by_test_id('editor')).to_contain_text('# my own work')
    expect(playground.get_by_test_id('output').locator('section.run')).to_have_count(0)


def test_code_restored_before_the_editor_is_made_is_kept(page, site_url):
    # A link opened and its notice's Restore pressed while the code is the plain text area (the editor's bundle
    # never comes here): the restored code is saved as the editor's change would save it, and a reload shows it.
    page.route('**/cell/editor.bundle.js', lambda route: route.abort())
    try:
        page.goto(site_url)
        area = page.locator('textarea[data-testid=editor]')
        area.fill('# my own work\n')
        page.goto('about:blank')
        page.goto(f"{site_url}#{share_fragment('print(1)')}")
        expect(area).to_have_value('print(1)')
        page.get_by_role('button', name='Restore my earlier code').click()
        expect(area).to_have_value('# my own work\n')
        page.reload()
        expect(area).to_have_value('# my own work\n')
    finally:
        page.unroute('**/cell/editor.bundle.js')


BAD_LINKS = {
    'truncated': share_fragment('print("a long enough program to be cut")\n' * 20)[:-12],
    'corrupted': 'code=%%%not-base64!!',
    'oversized': share_fragment('0' * 6_000_000),
    'empty': 'code=',
}


@pytest.mark.parametrize('kind', BAD_LINKS)
def test_a_bad_link_shows_a_message_and_the_first_example(page, site_url, kind):
    errors = []
    page.on('pageerror', lambda error: errors.append(str(error)))
    page.on('console', lambda message: message.type == 'error' and errors.append(message.text))
    page.goto(f"{site_url}#{BAD_LINKS[kind]}")
    expect(page.get_by_test_id('notice')).to_contain_text(re.compile('damaged|too much|too long'))
    expect(page.get_by_test_id('notice')).to_contain_text('first example is shown')
    expect(page.get_by_test_id('editor')).to_contain_text('x1 = Value(2.0')
    expect(page.get_by_test_id('status')).to_have_attribute('data-state', 'ready', timeout=STARTUP_TIMEOUT_MS)
    assert errors == []


def test_embed_button_shows_an_iframe_line_that_works(playground, page):
    type_program(playground, 'print("embedded")\n')
    playground.get_by_test_id('embed').click()
    code = playground.get_by_test_id('embed-code').input_value()
    playground.get_by_test_id('share-panel').locator('.panel-close').click()
    src = re.search(r'<iframe src="([^"]+)"', code).group(1).replace('&amp;', '&')
    assert '/embed.html#code=' in src
    page.goto(src)
    expect(page.get_by_test_id('editor')).to_contain_text('print("embedded")')


def test_open_in_playground_carries_the_env_earlier_cells(page, site_url, other_origin, context):
    url = article(
        other_origin,
        'open.html',
        f'''
        <pre data-playground>base = 20</pre>
        <pre data-playground>print(base + 22)</pre>
        <script type="module" src="{site_url}embed.js"></script>''',
    )
    page.goto(url)
    with context.expect_page() as opened:
        cells(page).nth(1).get_by_test_id('open-in-playground').click()
    playground = opened.value
    expect(playground.get_by_test_id('editor')).to_contain_text('print(base + 22)')
    assert playground.evaluate('window.playground.cell.getText()') == 'base = 20\n\nprint(base + 22)'
    expect(playground.get_by_test_id('status')).to_have_attribute('data-state', 'ready', timeout=STARTUP_TIMEOUT_MS)
    expect(run(playground).locator('pre.stdout')).to_have_text('42\n')


def test_the_sample_article_runs_every_cell_in_order(page, site_url):
    page.goto(site_url + 'article.html')
    expect(cells(page)).to_have_count(len(EXPECTED_OUTPUT))
    for i, expected in enumerate(EXPECTED_OUTPUT):
        section = press_run(cells(page).nth(i))
        expect(section.locator('.run-header')).not_to_contain_text('because')  # nothing ran out of order
        for text in expected:
            expect(section.locator('pre.stdout')).to_contain_text(text)
        graphs = section.locator('svg')
        expect(graphs).to_have_count(1 if i in EXPECTED_GRAPH_TEXT else 0)
        for text in EXPECTED_GRAPH_TEXT.get(i, []):
            expect(graphs.first).to_contain_text(text)
