"""Your own data (web/output/point-editor.js, cell/points.js, formats/points.js): points added and removed on a
decision-boundary chart or pasted as CSV reach the next Run through points(), are kept across a reload, in share
links and in a notebook's download; a click on a point forwards that example alone and draws its graph."""

import json
import re

import pytest
from playwright.sync_api import expect

from support import STARTUP_TIMEOUT_MS
from support.pages import cells, download_notebook, open_notebook, open_playground, run, run_cell, saved, type_program

pytestmark = pytest.mark.usefixtures('site')

PROGRAM = '''random.seed(0)
X, y = points(20, noise=0.1, seed=3)
model = MLP(2, [4, 1])
print(len(X), sum(y), X[-1])
plot_boundary(model, X, y)
'''
KEY = 'backprop-playground:points'


def boundary(section):
    return section.locator('[data-chart=boundary]')


def click_at(chart, fx, fy, button='left'):
    """Clicks the chart's plot at a fraction of its frame (0, 0 top left)."""
    figure = chart.locator('.chart-plot svg').first
    box = None
    for _ in range(100):  # the chart is redrawn after each change of the points: its plot is replaced
        expect(figure).to_be_visible()
        box = figure.bounding_box()
        if box:
            break
        chart.page.wait_for_timeout(50)
    assert box, 'the chart stayed without a plot'
    chart.page.mouse.click(box['x'] + box['width'] * fx, box['y'] + box['height'] * fy, button=button)


def printed(section):
    return section.locator('pre.stdout').text_content().strip()


def stored(page):
    return json.loads(page.evaluate(f"localStorage.getItem('{KEY}')") or 'null')


def test_points_added_and_removed_on_the_chart_are_what_the_next_run_trains_on(playground):
    type_program(playground, PROGRAM)
    section = run(playground)
    assert printed(section).startswith('20 10 ')  # the moons: none of the learner's own yet
    chart = boundary(section)
    expect(chart).to_have_attribute('data-points', '20')
    heading = chart.get_by_role('heading', level=2)
    expect(heading).to_have_text(re.compile(r"^decision boundary · \d+ of 20 points on their class's side$"))
    click_at(chart, 0.2, 0.2)  # class 1, selected first
    expect(chart).to_have_attribute('data-points', '21')
    expect(heading).to_have_text('decision boundary')  # the runtime counted its own points, not these
    chart.get_by_role('radio', name=re.compile('class 0')).click()
    click_at(chart, 0.8, 0.25)
    expect(chart).to_have_attribute('data-points', '22')
    expect(chart.get_by_test_id('points-message')).to_contain_text(
        '22 points of your own (11 of class 1, 11 of class 0)'
    )
    points = stored(playground)
    assert len(points) == 22 and points[-2][2] == 1 and points[-1][2] == 0
    click_at(chart, 0.79, 0.26, button='right')  # removes the nearest: the one just added
    expect(chart).to_have_attribute('data-points', '21')
    assert stored(playground) == points[:-1]

    section = run(playground)
    x, y, _ = points[-2]
    assert printed(section) == f"21 11 {[x, y]}"
    expect(boundary(section)).to_have_attribute('data-points', '21')

    # Kept across a reload.
    playground.reload()
    expect(playground.get_by_test_id('status')).to_have_attribute('data-state', 'ready', timeout=STARTUP_TIMEOUT_MS)
    assert printed(run(playground)).startswith('21 11 ')
    boundary(run(playground)).get_by_test_id('points-clear').click()
    assert stored(playground) is None
    assert printed(run(playground)).startswith('20 10 ')  # the moons again


def test_csv_pasted_with_a_bad_line_changes_nothing_and_a_dropped_file_replaces_the_points(playground):
    type_program(playground, PROGRAM)
    chart = boundary(run(playground))
    chart.get_by_test_id('points-paste').click()
    csv = chart.get_by_test_id('points-csv')
    expect(csv).to_have_value(re.compile(r'^x,y,label\n'))  # what the chart shows, to edit
    csv.fill('x,y,label\n0.5,0.5,1\n0.25,oops,0\n')
    chart.get_by_test_id('points-load').click()
    message = chart.get_by_test_id('points-message')
    expect(message).to_have_attribute('data-state', 'error')
    expect(message).to_have_text('Line 3 ("0.25,oops,0"): x and y must be numbers. Nothing was changed.')
    expect(chart).to_have_attribute('data-points', '20')
    assert stored(playground) is None
    csv.fill('0,0,1\n1,1,0\n0.5,-0.5,2\n')
    chart.get_by_test_id('points-load').click()
    expect(message).to_contain_text('Line 3 ("0.5,-0.5,2"): the label must be 0 or 1.')
    csv.fill('0,0,1\n<img src=x onerror="window.hacked=1">,1,0\n')  # a hostile line is quoted as text
    chart.get_by_test_id('points-load').click()
    expect(message).to_have_text(
        'Line 2 ("<img src=x onerror="window.hacked=1">,1,…") has 5 fields; each line is x,y,label. '
        'Nothing was changed.'
    )
    expect(chart.locator('img')).to_have_count(0)
    assert playground.evaluate('window.hacked') is None
    expect(chart).to_have_attribute('data-points', '20')

    chart.evaluate('''(card) => {
        const data = new DataTransfer();
        data.items.add(new File(["x,y,label\\n0,0,1\\n1,1,0\\n2,2,1\\n"], "mine.csv", { type: "text/csv" }));
        card.dispatchEvent(new DragEvent("drop", { dataTransfer: data, bubbles: true, cancelable: true }));
    }''')
    expect(chart).to_have_attribute('data-points', '3')
    assert stored(playground) == [[0, 0, 1], [1, 1, 0], [2, 2, 1]]
    section = run(playground)
    assert printed(section) == '3 2 [2.0, 2.0]'
    boundary(section).get_by_test_id('points-clear').click()  # the worker's next test starts from the moons
    assert stored(playground) is None


def test_a_share_link_carries_the_points_and_opens_them_with_the_code(fresh_playground, context, site_url):
    playground = fresh_playground
    type_program(playground, PROGRAM)
    chart = boundary(run(playground))
    chart.get_by_test_id('points-paste').click()
    chart.get_by_test_id('points-csv').fill('0.1,0.2,1\n0.3,0.4,0\n')
    chart.get_by_test_id('points-load').click()
    playground.get_by_test_id('share').click()
    link = playground.get_by_test_id('share-link').input_value()
    assert '#code=' in link and '&points=' in link
    other = open_playground(context.new_page(), site_url)  # another tab: the same storage, as a reader's would differ
    other.evaluate(f"localStorage.removeItem('{KEY}')")
    other.goto(link)
    expect(other.get_by_test_id('status')).to_have_attribute('data-state', 'ready', timeout=STARTUP_TIMEOUT_MS)
    assert printed(run(other)) == '2 1 [0.3, 0.4]'


def test_the_keyboard_moves_a_cursor_that_adds_removes_and_chooses_points(playground):
    type_program(playground, PROGRAM)
    run(playground)
    chart = boundary(playground.get_by_test_id('output').locator('section.run').first)  # an example's run comes after
    dots = chart.locator('.chart-plot svg circle')  # the keys act on the chart as drawn: each waits for its drawing
    expect(dots).to_have_count(20)
    message = chart.get_by_test_id('points-message')

    def cursor_after(key):
        said = message.text_content()
        playground.keyboard.press(key)
        expect(message).not_to_have_text(said)
        x, y = re.fullmatch(r'Cursor at \(([-\d.]+), ([-\d.]+)\)\.', message.text_content()).groups()
        return float(x), float(y)

    chart.get_by_role('application').focus()
    playground.keyboard.press('0')
    expect(chart.get_by_role('radio', name=re.compile('class 0'))).to_have_attribute('aria-checked', 'true')
    expect(chart.locator('.point-cursor')).to_be_visible()  # in the frame's middle
    right = cursor_after('Shift+ArrowRight')  # an eighth of the frame
    righter = cursor_after('ArrowRight')  # a fortieth
    up = cursor_after('Shift+ArrowUp')
    down = cursor_after('ArrowDown')
    assert righter[0] > right[0] and righter[1] == right[1]  # right moves x alone
    assert up[0] == righter[0] and up[1] > righter[1] and down[0] == up[0] and down[1] < up[1]
    # With Shift an arrow moves an eighth of the frame, without it a fortieth: five times less.
    assert abs((up[1] - righter[1]) - 5 * (up[1] - down[1])) < 1e-3, (righter, up, down)
    at = re.search(r'Cursor at \(([-\d.]+), ([-\d.]+)\)', message.text_content())
    playground.keyboard.press('Enter')
    expect(dots).to_have_count(21)
    expect(message).to_contain_text(f"Added a point of class 0 (red) at ({at.group(1)}, {at.group(2)}).")
    assert stored(playground)[-1] == [float(at.group(1)), float(at.group(2)), 0]
    expect(chart.locator('.point-cursor')).to_be_visible()  # back on top of the redrawn chart

    playground.keyboard.press('Delete')  # the nearest to the cursor: the point just added
    expect(dots).to_have_count(20)
    expect(message).to_contain_text(f"Removed the point at ({at.group(1)}, {at.group(2)}).")
    assert [float(at.group(1)), float(at.group(2)), 0] not in stored(playground)

    playground.keyboard.press('e')  # an example (the one nearest the cursor), forwarded alone
    expect(message).to_contain_text('its graph, forwarded alone through the model that drew this chart')
    example = playground.get_by_test_id('output').locator('section.run').last
    expect(example.locator('.run-header')).to_contain_text('of the chart, forwarded alone')
    expect(example.locator('figure.graph-card svg g.node.root')).to_contain_text('grad 1.0000')
    expect(playground.get_by_test_id('status')).to_have_attribute('data-state', 'ready')
    chart.get_by_test_id('points-clear').click()  # the worker's next test starts from the moons


def test_a_click_on_a_point_forwards_that_example_alone_and_draws_its_graph(playground):
    type_program(
        playground, PROGRAM.replace("print(len(X), sum(y), X[-1])", "print(model([Value(a) for a in X[0]]).data)")
    )
    section = run(playground)
    score = float(printed(section))
    chart = boundary(section)
    dot = chart.locator('.chart-plot svg circle').first  # the first point drawn: X[0]
    box = dot.bounding_box()
    playground.mouse.click(box['x'] + box['width'] / 2, box['y'] + box['height'] / 2)
    example = playground.get_by_test_id('output').locator('section.run').last
    expect(example.locator('.run-header')).to_contain_text('example 1 of the chart, forwarded alone')
    expect(example.locator('pre.stdout')).to_contain_text("Example 1: x = (")
    expect(example.locator('pre.stdout')).to_contain_text(f"The model's score {score:.4f}")
    graph = example.locator('figure.graph-card svg')
    expect(graph.locator('g.node.root')).to_contain_text(f"data {score:.4f}")
    expect(graph.locator('g.node.root')).to_contain_text('grad 1.0000')
    expect(example.locator('figure.graph-card').get_by_test_id('quiz')).to_be_visible()  # a graph like any other
    # The graph is shown before Python has finished the run (the runner sends it first): the run ends as well.
    expect(playground.get_by_test_id('status')).to_have_attribute('data-state', 'ready')


def test_a_notebooks_cell_keeps_its_points_across_a_reload_and_in_the_download(page, site_url, tmp_path):
    notebook = tmp_path / 'points.ipynb'
    notebook.write_text(
        json.dumps(
            {
                'nbformat': 4,
                'nbformat_minor': 5,
                'metadata': {},
                'cells': [
                    {
                        'cell_type': 'code',
                        'id': 'c1',
                        'metadata': {'tags': ['mine']},
                        'execution_count': None,
                        'outputs': [],
                        'source': PROGRAM,
                    }
                ],
            }
        )
    )
    open_notebook(page, site_url, notebook, 1)
    section = run_cell(cells(page).first)
    chart = boundary(section)
    chart.get_by_test_id('points-paste').click()
    chart.get_by_test_id('points-csv').fill('0.1,0.2,1\n0.3,0.4,0\n0.5,0.6,1\n')
    chart.get_by_test_id('points-load').click()
    saved(page)
    downloaded = download_notebook(page, tmp_path / 'out' / 'points.ipynb')
    metadata = downloaded['cells'][0]['metadata']
    assert metadata == {
        'tags': ['mine'],
        'backprop_playground': {'points': [[0.1, 0.2, 1], [0.3, 0.4, 0], [0.5, 0.6, 1]]},
    }

    page.reload()
    expect(cells(page)).to_have_count(1, timeout=STARTUP_TIMEOUT_MS)
    assert printed(run_cell(cells(page).first)).startswith('3 2 [0.5, 0.6]')

    open_notebook(page, site_url, tmp_path / 'out' / 'points.ipynb', 1)  # the download opens with them too
    assert printed(run_cell(cells(page).first)).startswith('3 2 ')
