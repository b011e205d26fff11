"""dist/course.html end to end: exercises that check themselves, with the network blocked."""

import pytest
from playwright.sync_api import expect

from support.course import EXERCISES, IDS, STARTER_MESSAGES, mutate
from support.pages import check, exercise, set_code

pytestmark = pytest.mark.usefixtures('site')


def test_every_starter_fails_with_its_message_and_the_offered_solution_passes(course_page):
    for exercise_id in IDS:
        box = exercise(course_page, exercise_id)
        expect(box.get_by_test_id('result')).to_have_attribute('data-state', 'idle')
        result = check(box, 'failed')
        expect(result).to_contain_text(STARTER_MESSAGES[exercise_id].replace('`', ''))  # `code` shows as <code>
        expect(result.locator('code').first).to_be_visible()
        expect(result).not_to_contain_text('AssertionError')
        box.get_by_test_id('solution').click()
        box.get_by_role('button', name='Put it in the editor').click()
        expect(check(box, 'passed')).to_contain_text('All checks passed')


def test_the_equals_bug_gets_the_plus_equals_message_and_a_marked_graph(course_page):
    box = exercise(course_page, 'mul-backward')
    plus = 'self.grad += other.data * out.grad\n            other.grad += self.data * out.grad'
    set_code(box, mutate('mul-backward', plus, plus.replace('+=', '=')))
    result = check(box, 'failed')
    expect(result).to_contain_text('a.grad is 3.0, expected 6.0')
    expect(result).to_contain_text('+=')
    marked = box.get_by_test_id('output').locator('svg g.wrong-grad')
    expect(marked).to_have_count(1)
    expect(marked).to_contain_text('a')
    expect(marked).to_contain_text('6.0000 expected')


def test_progress_and_code_survive_a_reload_and_reset_forgets_them(course_page):
    box = exercise(course_page, 'mul-returns-value')
    set_code(box, EXERCISES['mul-returns-value']['solution'] + '\n# mine\n')
    check(box, 'passed')
    course_page.reload()
    box = exercise(course_page, 'mul-returns-value')
    expect(box.get_by_test_id('result')).to_have_attribute('data-state', 'passed')
    expect(box.get_by_test_id('editor')).to_contain_text('# mine')
    expect(exercise(course_page, 'mul-records-graph').get_by_test_id('result')).to_have_attribute('data-state', 'idle')
    box.get_by_test_id('reset').click()
    expect(box.get_by_test_id('result')).to_have_attribute('data-state', 'idle')
    expect(box.get_by_test_id('editor')).not_to_contain_text('# mine')
    course_page.reload()
    expect(exercise(course_page, 'mul-returns-value').get_by_test_id('result')).to_have_attribute('data-state', 'idle')


def test_a_learners_exception_shows_its_traceback_with_the_line_marked(course_page):
    box = exercise(course_page, 'mul-returns-value')
    set_code(box, 'x = 1\nprint(undefined_name)\n')
    result = check(box, 'failed', status='error')
    expect(result).to_contain_text('raised an error')
    error = box.get_by_test_id('output').locator('.message.error')
    expect(error).to_contain_text("NameError: name 'undefined_name' is not defined")
    expect(error.locator('.traceback')).to_contain_text('line 2')
    expect(box.locator('.cm-errorLine')).to_have_text('print(undefined_name)')


def test_hints_are_revealed_one_at_a_time(course_page):
    box = exercise(course_page, 'mul-backward')
    hints = box.locator('.hint')
    expect(hints).to_have_count(0)
    box.get_by_test_id('hint').click()
    expect(hints).to_have_count(1)
    box.get_by_test_id('hint').click()
    expect(hints).to_have_count(2)
