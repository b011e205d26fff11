"""axe-core on every page, in the states a learner sees: no serious or critical violations.

axe is injected with page.evaluate (DevTools evaluation), which a page's Content-Security-Policy does
not block, unlike a <script> tag. axe reads the open shadow roots of the cells.
"""
import re

import pytest
from playwright.sync_api import expect

from conftest import ROOT, STARTUP_TIMEOUT_MS
from test_course_page import check, course, exercise, set_code  # noqa: F401 (course is a fixture)
from test_course import mutate
from test_embed import cells, press_run
from test_page import load_example, playground, run, type_program  # noqa: F401 (playground is a fixture)

pytestmark = pytest.mark.usefixtures('site')

AXE = ROOT / 'node_modules' / 'axe-core' / 'axe.min.js'
BLOCKING = ('serious', 'critical')


def blocking_violations(page):
    if not page.evaluate('typeof axe === "object"'):
        page.evaluate(AXE.read_text(encoding='utf-8'))
    return page.evaluate('''async (impacts) => {
        const { violations } = await axe.run(document, { resultTypes: ["violations"] });
        return violations.filter((v) => impacts.includes(v.impact)).map((v) => ({
            id: v.id, impact: v.impact, help: v.help,
            nodes: v.nodes.map((n) => ({ target: n.target, html: n.html, why: n.failureSummary })),
        }));
    }''', list(BLOCKING))


def selector(target):
    """axe's target: one selector per frame, a list of them where it goes into shadow roots."""
    return ' | '.join(' >> '.join(part) if isinstance(part, list) else part for part in target)


def assert_accessible(page, where, shown=5):
    page.mouse.move(0, 0)  # what the pointer last pressed may have moved under it: no hover state by chance
    found = blocking_violations(page)
    lines = []
    for violation in found:
        nodes = violation['nodes']
        lines.append(f"{violation['id']} ({violation['impact']}, {len(nodes)} elements): {violation['help']}")
        for node in nodes[:shown]:
            lines += [f"  {selector(node['target'])}", f"    {node['html'][:160]}", f"    {' '.join(node['why'].split())[:300]}"]
        if len(nodes) > shown:
            lines.append(f"  … and {len(nodes) - shown} more")
    assert not found, f"axe on {where}:\n" + '\n'.join(lines)


def test_the_main_page_after_a_run(playground):
    load_example(playground, 'neuron.py')
    run(playground)
    assert_accessible(playground, 'the main page after a run')


def test_the_main_page_while_stepping_through_backward(playground):
    load_example(playground, 'neuron.py')
    section = run(playground)
    section.get_by_role('button', name=re.compile('^Step through backward')).click()
    section.get_by_role('button', name='Step', exact=True).click()
    expect(section.locator('.graph-narration')).to_contain_text('Step 1')
    assert_accessible(playground, 'the main page while stepping through backward')


def test_the_main_page_after_an_error(playground):
    type_program(playground, 'for i in range(80):\n    print(i)\n1 / 0\n')  # output long enough to scroll
    section = run(playground, expected_state='error')
    expect(section.locator('.message.error')).to_contain_text('ZeroDivisionError')
    assert_accessible(playground, 'the main page after an error')


# Cells follow the reader's colour scheme (theme "auto") on the article and the course.
@pytest.mark.parametrize('scheme', ['light', 'dark'])
def test_the_article_after_a_run(page, site_url, scheme):
    page.emulate_media(color_scheme=scheme)
    page.goto(site_url + 'article.html')
    section = press_run(cells(page).last)
    expect(section.locator('svg').first).to_be_visible()
    assert_accessible(page, f'the article after a run ({scheme})')


@pytest.mark.parametrize('scheme', ['light', 'dark'])
def test_the_course_after_a_failed_exercise(course, scheme):
    course.emulate_media(color_scheme=scheme)
    course.set_viewport_size({'width': 400, 'height': 800})  # a phone: the solution's long lines scroll
    box = exercise(course, 'mul-backward')
    plus = 'self.grad += other.data * out.grad\n            other.grad += self.data * out.grad'
    set_code(box, mutate('mul-backward', plus, plus.replace('+=', '=')))
    check(box, 'failed')
    expect(box.get_by_test_id('output').locator('svg g.wrong-grad')).to_have_count(1)
    box.get_by_test_id('hint').click()
    box.get_by_test_id('solution').click()
    expect(box.get_by_role('button', name='Put it in the editor')).to_be_visible()
    assert_accessible(course, f'the course after a failed exercise ({scheme})')


@pytest.mark.parametrize('theme', ['light', 'dark'])
def test_embed_html_after_a_run(page, site_url, theme):
    page.goto(f"{site_url}embed.html#example=neuron.py&theme={theme}")
    page.get_by_test_id('editor').hover()  # embed.html starts Python when the reader points at it
    expect(page.get_by_test_id('status')).to_have_attribute('data-state', 'ready', timeout=STARTUP_TIMEOUT_MS)
    run(page)
    assert_accessible(page, f'embed.html after a run (theme={theme})')
