"""The smoke cases that every other engine runs (test_webkit.py: Safari's engine; test_firefox.py), with
Selenium. Chromium's suite covers the pages in depth; these run each kind of page once: the main page on a
first visit and on a second (controlled by the service worker), Stop, an article cell (in its open shadow
root), a course exercise, a notebook by URL, embed.html in an iframe, and a classroom's join dialog with an
assignment's score. Each engine module defines the fixture `engine`: (driver, Engine), and imports the
`test_*` functions below, so that pytest runs them there.
"""
import json
import socketserver
import threading
from dataclasses import dataclass
from typing import Callable

import pytest
from selenium.common.exceptions import ElementNotInteractableException
from selenium.webdriver.common.action_chains import ActionChains
from selenium.webdriver.common.by import By
from selenium.webdriver.common.keys import Keys
from selenium.webdriver.support.select import Select
from selenium.webdriver.support.wait import WebDriverWait

from conftest import RUN_TIMEOUT_MS, STARTUP_TIMEOUT_MS
from test_course import STARTER_MESSAGES
from test_embed import article, share_fragment

import build
import classroom


@dataclass
class Engine:
    agent: str  # in navigator.userAgent
    stop_in_place: bool  # on an isolated page: SharedArrayBuffer, so Stop interrupts without a restart
    revisit: Callable  # (driver, url): load the page again as a reader would, under the service worker


class Refuse(socketserver.BaseRequestHandler):
    """The proxy for every host but this machine: records what the browser tried to fetch and closes the
    connection without an answer."""

    def handle(self):
        self.request.settimeout(5)
        try:
            first = self.request.recv(200)
        except OSError:
            first = b''
        line = first.split(b'\r\n')[0].decode('latin-1')
        # WebKit speaks TLS to the proxy for https, so its target is not readable here.
        self.server.attempts.append(line if line[:1].isalpha() else 'an https request')


@pytest.fixture(scope='session')
def guard():
    server = socketserver.ThreadingTCPServer(('127.0.0.1', 0), Refuse)
    server.daemon_threads = True
    server.attempts = []
    threading.Thread(target=server.serve_forever, daemon=True).start()
    yield server
    server.shutdown()
    server.server_close()


def wait(driver, condition, what, timeout_ms=RUN_TIMEOUT_MS):
    return WebDriverWait(driver, timeout_ms / 1000, poll_frequency=0.1).until(lambda _: condition(), f"waited for {what}")


def find(root, selector):
    return root.find_element(By.CSS_SELECTOR, selector)


def part(root, name):
    return find(root, f'[data-testid="{name}"]')


def state(root):
    return part(root, 'status').get_attribute('data-state')


def wait_ready(driver, root):
    wait(driver, lambda: state(root) in ('ready', 'error'), 'Python to start', STARTUP_TIMEOUT_MS)
    assert state(root) == 'ready', part(root, 'status').text


def press_run(driver, root, expected='ready'):
    """Press Run (its section appears at once) and wait until the run has ended; returns its section."""
    output = part(root, 'output')
    before = len(output.find_elements(By.CSS_SELECTOR, 'section.run'))
    part(root, 'run').click()
    wait(driver, lambda: len(output.find_elements(By.CSS_SELECTOR, 'section.run')) == before + 1
         and state(root) in ('ready', 'error'), 'the run to end', STARTUP_TIMEOUT_MS)
    section = output.find_elements(By.CSS_SELECTOR, 'section.run')[-1]
    assert state(root) == expected, section.text
    return section


def type_program(driver, root, code):
    """Select the editor's text and type over it (one line: the editor would indent a second)."""
    find(root, '.cm-content').click()
    try:
        driver.switch_to.active_element.send_keys(Keys.CONTROL, 'a')
        driver.switch_to.active_element.send_keys(code)
    except ElementNotInteractableException:  # Firefox names the shadow host as the active element
        ActionChains(driver).key_down(Keys.CONTROL).send_keys('a').key_up(Keys.CONTROL).send_keys(code).perform()
    wait(driver, lambda: find(root, '.cm-content').text == code, 'the typed code in the editor', 5000)


def stop_a_loop(driver, root, in_place):
    """Run an endless loop and press Stop: it interrupts Python in place, or restarts it (no SharedArrayBuffer)."""
    type_program(driver, root, 'while True: pass')
    part(root, 'run').click()
    wait(driver, lambda: state(root) == 'running', 'the loop to run')
    part(root, 'stop').click()
    if in_place:
        wait(driver, lambda: 'KeyboardInterrupt' in part(root, 'output').text, 'Stop to interrupt Python')
        assert 'Python was restarted' not in part(root, 'output').text
    else:
        wait(driver, lambda: 'Python was restarted' in part(root, 'output').text, 'Stop to restart Python')
        assert 'this browser has no SharedArrayBuffer' in part(root, 'output').text, 'the page is isolated: say what is missing'
    wait_ready(driver, root)


def run_the_neuron_stop_and_run_again(driver, in_place):
    page = driver.find_element(By.TAG_NAME, 'body')
    wait_ready(driver, page)
    Select(part(page, 'examples')).select_by_value('neuron.py')
    wait(driver, lambda: 'o = n.tanh()' in find(page, '.cm-content').text, 'the neuron example in the editor', 5000)
    graph = press_run(driver, page).find_element(By.CSS_SELECTOR, 'svg')
    assert 'data 0.7071' in graph.text and 'grad -1.5000' in graph.text
    stop_a_loop(driver, page, in_place)
    type_program(driver, page, "draw_dot(Value(2.0, label='again') * 3)")
    graph = press_run(driver, page).find_element(By.CSS_SELECTOR, 'svg')
    assert 'again' in graph.text and 'data 6.0000' in graph.text


def test_the_main_page_runs_draws_and_stops(engine, site_url):
    driver, engine = engine
    driver.get(site_url)
    run_the_neuron_stop_and_run_again(driver, engine.stop_in_place)
    assert engine.agent in driver.execute_script('return navigator.userAgent')


def test_the_main_page_on_a_second_visit_under_the_service_worker(engine, plain_site_url):
    driver, engine = engine
    driver.get(plain_site_url)
    wait_ready(driver, driver.find_element(By.TAG_NAME, 'body'))
    assert driver.execute_script('return self.crossOriginIsolated') is False
    driver.execute_async_script('navigator.serviceWorker.ready.then(() => arguments[0]())')
    engine.revisit(driver, plain_site_url)
    assert driver.execute_script('return Boolean(navigator.serviceWorker.controller)')
    # The service worker adds COOP/COEP on a host that sends none; WebKit gives no SharedArrayBuffer even then.
    expected = 'function' if engine.stop_in_place else 'undefined'
    assert driver.execute_script('return [self.crossOriginIsolated, typeof SharedArrayBuffer]') == [True, expected]
    run_the_neuron_stop_and_run_again(driver, engine.stop_in_place)


def test_an_article_cell_runs_and_draws_in_its_shadow_root(engine, site_url):
    driver, engine = engine
    driver.get(site_url + 'article.html')
    cells = wait(driver, lambda: driver.find_elements(By.CSS_SELECTOR, '[data-testid="cell"]'), 'the cells')
    cell = cells[0].shadow_root
    section = press_run(driver, cell)
    assert 'Value(data=-1.0)' in find(section, 'pre.stdout').text
    third = cells[2].shadow_root
    section = press_run(driver, third)
    assert '+' in find(section, 'pre.stdout').text and 'data 10.0000' in find(section, 'svg').text
    stop_a_loop(driver, third, engine.stop_in_place)


def test_a_course_exercise_fails_then_passes_with_the_solution(engine, site_url):
    driver, _ = engine
    driver.get(site_url + 'course.html')
    box = wait(driver, lambda: driver.find_elements(By.CSS_SELECTOR, '[data-testid="exercise"]'), 'the exercises')[0].shadow_root
    result = part(box, 'result')
    assert result.get_attribute('data-state') == 'idle'
    press_run(driver, box)
    assert result.get_attribute('data-state') == 'failed'
    assert STARTER_MESSAGES['mul-returns-value'].replace('`', '') in result.text
    part(box, 'solution').click()
    wait(driver, lambda: box.find_elements(By.CSS_SELECTOR, '.solution button'), 'the solution')[0].click()
    press_run(driver, box)
    assert result.get_attribute('data-state') == 'passed', result.text
    assert 'All checks passed' in result.text


def test_a_notebook_opens_by_url_and_runs(engine, site_url, cors_origin):
    driver, _ = engine
    folder, url = cors_origin
    (folder / 'smoke.ipynb').write_text(json.dumps({'nbformat': 4, 'nbformat_minor': 5, 'metadata': {}, 'cells': [
        {'cell_type': 'markdown', 'id': 'm', 'metadata': {}, 'source': '# A *smoke* test'},
        {'cell_type': 'code', 'id': 'c', 'metadata': {}, 'execution_count': None, 'outputs': [],
         'source': "a = Value(3.0, label='a')\nb = a * a; b.label = 'b'\nb.backward()\ndraw_dot(b)"}]}))
    driver.get(f"{site_url}notebook.html#url={url}smoke.ipynb")
    host = wait(driver, lambda: driver.find_elements(By.CSS_SELECTOR, '[data-testid="cell"]'), 'the notebook')[0]
    assert find(driver, '[data-testid="markdown-cell"] em').text == 'smoke'
    part(driver, 'run-all').click()
    wait(driver, lambda: 'Ran all 1 cell.' in part(driver, 'notebook-message').text, 'Run all', STARTUP_TIMEOUT_MS)
    assert 'grad 6.0000' in find(host.shadow_root, 'svg').text


def test_embed_html_runs_in_an_iframe(engine, site_url, other_origin):
    driver, _ = engine
    fragment = share_fragment("draw_dot(Value(4.0, label='framed') * 2)\n")
    driver.get(article(other_origin, 'smoke-frame.html', f'<iframe id="cell" src="{site_url}embed.html#{fragment}&autorun" '
                                                          'style="width: 700px; height: 500px"></iframe>'))
    driver.switch_to.frame(find(driver, '#cell'))
    body = driver.find_element(By.TAG_NAME, 'body')
    # The drawing's frame is in the page a moment before its nodes: wait for the nodes' text.
    graph = wait(driver, lambda: body.find_elements(By.CSS_SELECTOR, '[data-testid="output"] svg'), 'the graph', STARTUP_TIMEOUT_MS)[0]
    wait(driver, lambda: 'framed' in graph.text and 'data 8.0000' in graph.text, "the graph's nodes")
    driver.switch_to.default_content()


def test_a_classroom_learner_joins_and_an_assignment_scores(engine, tmp_path, cors_origin, course):
    driver, _ = engine
    room = classroom.Classroom(tmp_path / 'room')
    server = build.make_server(port=0, room=room)
    threading.Thread(target=server.serve_forever, daemon=True).start()
    folder, notebooks = cors_origin
    (folder / 'ps1.ipynb').write_text((course / 'release' / 'ps1' / 'assignment.ipynb').read_text())
    try:
        driver.get(f"http://127.0.0.1:{server.server_address[1]}/notebook.html#url={notebooks}ps1.ipynb")
        dialog = wait(driver, lambda: driver.find_elements(By.CSS_SELECTOR, '[data-testid="classroom-join"]'), 'the join dialog')[0]
        part(dialog, 'student-name').send_keys('Grace')
        part(dialog, 'join').click()
        wait(driver, lambda: 'In class as Grace' in part(driver, 'classroom-badge').text, 'the badge')
        hosts = wait(driver, lambda: driver.find_elements(By.CSS_SELECTOR, '[data-testid="cell"]'), 'the notebook')
        assert hosts[1].get_attribute('data-grade-id') == 'test_mul'
        assert find(hosts[1].shadow_root, '.cm-content').get_attribute('contenteditable') == 'false'
        part(driver, 'run-all').click()
        score = part(driver, 'assignment-score')
        wait(driver, lambda: 'Ran all' in part(driver, 'notebook-message').text, 'Run all', STARTUP_TIMEOUT_MS)
        assert (score.get_attribute('data-points'), score.get_attribute('data-max-points')) == ('0', '5')
        assert find(hosts[1].shadow_root, '[data-testid="test-result"]').get_attribute('data-state') == 'failed'
        wait(driver, lambda: len(room.progress()['students']) == 1 and
             set(room.progress()['students'][0]['exercises']) == {'test_mul', 'test_tanh'}, 'the results on the board')
        assert room.progress()['students'][0]['name'] == 'Grace'
    finally:
        server.shutdown()
        server.server_close()


