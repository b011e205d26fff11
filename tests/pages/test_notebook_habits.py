"""The Jupyter habits that notebooks and tutorials rely on, end to end: top-level `await`, `display()`,
and a missing package named with what to use instead. Every non-local request is blocked (conftest.py)."""

import pytest
from playwright.sync_api import expect

from support import STARTUP_TIMEOUT_MS
from support.pages import article, cells, graphs, press_run, run, type_program

pytestmark = pytest.mark.usefixtures('site')

AWAITING = 'import asyncio\nprint("before")\nawait asyncio.sleep(0.1)\nprint("after")\n6 * 7'


def test_top_level_await_on_the_main_page_keeps_its_python(playground):
    type_program(playground, AWAITING)
    section = run(playground)
    expect(section.locator('pre.stdout')).to_have_text('before\nafter\n')
    expect(section).to_contain_text('42')
    type_program(playground, 'print("next")')
    section = run(playground)
    expect(section.locator('pre.stdout')).to_have_text('next\n')
    expect(section.locator('.notice')).to_have_count(0)  # no fresh Python: the await left nothing behind


def test_top_level_await_in_an_article_cell(page, site_url, other_origin):  # noqa: F811
    body = f'<pre data-playground>{AWAITING}</pre><pre data-playground>print("then", asyncio.get_event_loop() is not None)</pre>'
    page.goto(article(other_origin, 'await.html', body, f'<script type="module" src="{site_url}embed.js"></script>'))
    found = cells(page)
    expect(found).to_have_count(2, timeout=STARTUP_TIMEOUT_MS)
    expect(press_run(found.nth(0)).locator('pre.stdout')).to_have_text('before\nafter\n')
    expect(press_run(found.nth(1)).locator('pre.stdout')).to_have_text('then True\n')


def test_display_shows_a_graph_and_values_in_place(playground):
    type_program(
        playground,
        'from IPython.display import display\na = Value(2.0, label="a") * Value(3.0, label="b")\n'
        'display(a)\ndisplay("shown")\nprint("after")',
    )
    section = run(playground)
    expect(graphs(section)).to_have_count(1)
    expect(section).to_contain_text("'shown'")
    expect(section.locator('pre.stdout')).to_have_text('after\n')


def test_a_missing_package_is_named_with_what_to_use_instead(playground):
    type_program(playground, 'import numpy as np')
    section = run(playground, 'error')
    expect(section).to_contain_text('no numpy')
    expect(section).to_contain_text('micropip')
