"""axe-core on every page, in the states a learner sees: no serious or critical violations.

axe is injected with page.evaluate (DevTools evaluation), which a page's Content-Security-Policy does
not block, unlike a <script> tag. axe reads the open shadow roots of the cells.
"""

import re

import pytest
from playwright.sync_api import expect

from support import STARTUP_TIMEOUT_MS
from support.course import mutate
from support.learners import SEED_VALUE
from support.pages import (
    assert_accessible,
    assert_accessible_in_both_schemes,
    cells,
    check,
    exercise,
    load_example,
    press_run,
    run,
    set_code,
    share_fragment,
    type_program,
)

pytestmark = pytest.mark.usefixtures('site')


def test_the_main_page_after_a_run(playground):
    load_example(playground, 'neuron.py')
    run(playground)
    assert_accessible_in_both_schemes(playground, 'the main page after a run')


def test_the_main_page_while_stepping_through_backward(playground):
    load_example(playground, 'neuron.py')
    section = run(playground)
    section.get_by_role('button', name=re.compile('^Step through backward')).click()
    section.get_by_role('button', name='Step', exact=True).click()
    narration = section.locator('.graph-narration')
    expect(narration).to_contain_text('Step 1')
    # Said politely, each step's sentence in place of the last: a screen reader hears each step once.
    expect(narration).to_have_attribute('aria-live', 'polite')
    section.get_by_role('button', name='Step', exact=True).click()
    expect(narration).to_have_text(re.compile('^Step 2: '))
    assert_accessible_in_both_schemes(playground, 'the main page while stepping through backward')


def test_the_main_page_after_an_error(playground):
    type_program(playground, 'for i in range(80):\n    print(i)\n1 / 0\n')  # output long enough to scroll
    section = run(playground, expected_state='error')
    expect(section.locator('.message.error')).to_contain_text('ZeroDivisionError')
    assert_accessible_in_both_schemes(playground, 'the main page after an error')


def test_the_article_after_a_run(page, site_url):
    page.goto(site_url + 'article.html')
    section = press_run(cells(page).last)
    expect(section.locator('svg').first).to_be_visible()
    assert_accessible_in_both_schemes(page, 'the article after a run')
    # Its first cells, and the first drawing's tools, drawing and tree: cells in shadow roots, one component.
    seen, unseen = tab_stops_without_a_visible_focus(page, most=30)
    assert 'li d · data 4.0000 · grad none · d = e + c' in seen, seen
    assert unseen == [], unseen


def test_the_course_after_a_failed_exercise(course_page):
    course_page.set_viewport_size({'width': 400, 'height': 800})  # a phone: the solution's long lines scroll
    box = exercise(course_page, 'mul-backward')
    plus = 'self.grad += other.data * out.grad\n            other.grad += self.data * out.grad'
    set_code(box, mutate('mul-backward', plus, plus.replace('+=', '=')))
    check(box, 'failed')
    expect(box.get_by_test_id('output').locator('svg g.wrong-grad')).to_have_count(1)
    box.get_by_test_id('hint').click()
    box.get_by_test_id('solution').click()
    expect(box.get_by_role('button', name='Put it in the editor')).to_be_visible()
    assert_accessible_in_both_schemes(course_page, 'the course after a failed exercise')


@pytest.mark.parametrize('theme', ['light', 'dark'])
def test_embed_html_after_a_run(page, site_url, theme):
    page.goto(f"{site_url}embed.html#example=neuron.py&theme={theme}")
    page.get_by_test_id('editor').hover()  # embed.html starts Python when the reader points at it
    expect(page.get_by_test_id('status')).to_have_attribute('data-state', 'ready', timeout=STARTUP_TIMEOUT_MS)
    run(page)
    expect(page.get_by_role('main').get_by_test_id('run')).to_have_count(1)  # the cell is the frame's main landmark
    assert_accessible(page, f'embed.html after a run (theme={theme})')


# The new panels: a value's arithmetic (the `=` bug marked), the point editor with a bad CSV line, a checked quiz.
PANELS = (
    SEED_VALUE.replace('Value', 'Mine')
    + '''
a = Mine(3.0, label='a')
b = a + a; b.label = 'b'
b.grad = 1.0
b._backward()
draw_dot(b)
random.seed(0)
X, y = points(20, noise=0.1, seed=3)
plot_boundary(MLP(2, [4, 1]), X, y)
'''
)


@pytest.mark.parametrize('theme', ['light', 'dark'])
def test_the_explanation_the_point_editor_and_the_quiz(page, site_url, theme):
    page.goto(f"{site_url}embed.html#{share_fragment(PANELS)}&theme={theme}")
    page.get_by_test_id('editor').hover()
    expect(page.get_by_test_id('status')).to_have_attribute('data-state', 'ready', timeout=STARTUP_TIMEOUT_MS)
    section = run(page)
    section.locator('svg g.node').filter(has_text=re.compile('^a')).first.click()
    expect(section.get_by_test_id('node-explain')).to_have_attribute('data-state', 'mismatch')
    chart = section.locator('[data-chart=boundary]')
    chart.get_by_test_id('points-paste').click()
    chart.get_by_test_id('points-csv').fill('0,0,1\n0,oops,1\n')
    chart.get_by_test_id('points-load').click()
    expect(chart.get_by_test_id('points-message')).to_have_attribute('data-state', 'error')
    assert_accessible(page, f'the explanation and the point editor (theme={theme})')

    section.get_by_test_id('quiz').click()
    section.get_by_test_id('prediction').fill('2')  # what += gives: this class's a.grad holds 1
    section.get_by_test_id('quiz-check').click()
    expect(section.get_by_test_id('prediction')).to_have_attribute('data-state', 'wrong')
    expect(section.locator('.quiz-reveal .explain-verdict')).to_be_visible()
    assert_accessible(page, f'a checked quiz (theme={theme})')


@pytest.mark.parametrize('motion, animation', [('reduce', 'none'), ('no-preference', 'pulse')])
def test_the_status_dot_pulses_only_for_a_reader_who_has_not_asked_for_less_motion(playground, motion, animation):
    playground.emulate_media(reduced_motion=motion)
    type_program(playground, 'import time\ntime.sleep(1.5)\n')
    playground.get_by_test_id('run').click()
    status = playground.get_by_test_id('status')
    expect(status).to_have_attribute('data-state', 'running')
    assert status.locator('.status-dot').evaluate('(dot) => getComputedStyle(dot).animationName') == animation
    expect(status).to_have_attribute('data-state', 'ready', timeout=10_000)


def test_while_python_loads_the_dot_pulses_only_after_a_second(page, site_url):
    """A pulse's frames cost the compositor, which shares the cores with Python's start (cell.css)."""
    held = []
    page.route('**/build.json', lambda route: held.append(route))  # Python stays loading
    try:
        page.goto(site_url)
        status = page.get_by_test_id('status')
        expect(status).to_have_attribute('data-state', 'loading')
        style = status.locator('.status-dot').evaluate(
            '(dot) => [getComputedStyle(dot).animationName, getComputedStyle(dot).animationDelay]'
        )
        assert style == ['pulse', '1s']
        for route in held:
            route.continue_()
    finally:
        page.unroute('**/build.json')


# The element that has the focus, inside open shadow roots too, and its box with room for an outline around it;
# null once the walk comes back to one it passed.
FOCUSED = """() => {
  let element = document.activeElement;
  while (element?.shadowRoot?.activeElement) element = element.shadowRoot.activeElement;
  if (!element || element === document.body || window.walked.has(element)) return null;
  window.walked.add(element);
  const box = element.getBoundingClientRect();
  const name = element.getAttribute('aria-label') || element.textContent.trim().slice(0, 40) || element.tagName;
  return {name: `${element.tagName.toLowerCase()} ${name}`, x: box.x - 6, y: box.y - 6, width: box.width + 12, height: box.height + 12};
}"""
BLUR = """() => {
  let element = document.activeElement;
  while (element?.shadowRoot?.activeElement) element = element.shadowRoot.activeElement;
  window.focusedBefore = element;
  element.blur();
}"""
FOCUS_AGAIN = "() => { window.focusedBefore.focus({focusVisible: true}); delete window.focusedBefore; }"


def tab_stops_without_a_visible_focus(page, most=60):
    """Tabs through the page from its top: each stop's box, drawn with the focus and again without it, must
    differ (an outline, a ring, a stroke). The code editor keeps Tab for indenting: Escape, then Tab, leaves it."""
    # Tab starts from the top: from a mark put there for the walk (focusable by script only).
    page.evaluate("""() => {
      const top = Object.assign(document.createElement('span'), {tabIndex: -1, id: 'walk-from-here'});
      document.body.prepend(top);
      top.focus();
      window.walked = new WeakSet();
    }""")
    page.mouse.move(0, 0)
    unseen, seen = [], []
    for _ in range(most):
        if page.evaluate("document.activeElement?.matches?.('.cm-content')"):
            page.keyboard.press('Escape')
        page.keyboard.press('Tab')
        stop = page.evaluate(FOCUSED)
        if stop is None:  # back at the top, or out of the page
            break
        seen.append(stop['name'])
        clip = {key: stop[key] for key in ('x', 'y', 'width', 'height')}
        focused = page.screenshot(clip=clip, animations='disabled')
        page.evaluate(BLUR)
        if page.screenshot(clip=clip, animations='disabled') == focused:
            unseen.append(stop['name'])
        page.evaluate(FOCUS_AGAIN)
    page.evaluate("document.getElementById('walk-from-here').remove(); delete window.walked")
    return seen, unseen


def test_every_tab_stop_of_the_main_page_after_a_run_shows_that_it_has_the_focus(playground):
    load_example(playground, 'neuron.py')
    run(playground)
    seen, unseen = tab_stops_without_a_visible_focus(playground)
    assert len(seen) >= 10, seen  # the toolbar, the editor, Run, the graph's tools, its drawing and its tree
    assert unseen == [], unseen


CHARTS = """def model(x):
    return x[0] - x[1]
for step in range(3):
    plot(loss=1.0 / (step + 1))
plot_boundary(model, [(0.0, 1.0), (1.0, 2.0), (2.0, 0.0)], ['no', 'yes', 'yes'])
"""


def test_the_charts_say_their_latest_figures_and_their_course_in_words(playground):
    type_program(playground, CHARTS)
    section = run(playground)
    loss = section.locator('[data-chart=training]')
    expect(loss.get_by_role('heading')).to_have_text('loss · 0.3333 at step 2')
    expect(loss.get_by_role('img')).to_have_accessible_name(
        'loss by step: 1.000 at step 0, 0.3333 at step 2; lowest 0.3333, highest 1.000'
    )
    boundary = section.locator('[data-chart=boundary]')
    # The model's scores at the points: -1 for 'no' and 2 for a 'yes', on their side; -1 for the other 'yes'.
    expect(boundary.get_by_role('heading')).to_have_text("decision boundary · 2 of 3 points on their class's side")
    expect(boundary.get_by_role('img')).to_have_accessible_name(re.compile("^The model's score over x₀ and x₁"))
