"""The course in the reader's language (issue 45): course.html's prose, headings and hints come from the catalogue
as the main page's words do, with their <code> kept, its cells follow the page's language, and its checks say what
failed in it (their `_()`, in course.html's checks, is the page's catalogue)."""

import pytest
from playwright.sync_api import expect

from support.course import IDS
from support.languages import unmarked
from support.pages import check, exercise

pytestmark = pytest.mark.usefixtures('site')


def test_the_course_in_french_has_its_prose_hints_and_cells_in_french(page, site_url):
    page.goto(site_url + 'course.html?locale=fr')
    expect(page.get_by_test_id('exercise')).to_have_count(len(IDS))
    expect(page.locator('html')).to_have_attribute('lang', 'fr')
    expect(page).to_have_title('Construire le moteur · Backprop Playground')
    expect(page.locator('h1')).to_have_text('Construire le moteur')
    expect(page.locator('article > p').first).to_contain_text('La rétropropagation travaille sur un graphe de calcul')
    first_section = page.locator('section').first
    expect(first_section.locator('h2')).to_have_text('1. Un nombre qui sait calculer')
    expect(first_section.locator('p').first.locator('code')).to_have_text(
        ['Value', 'self.data', 'Value(1.0) + Value(2.0)', 'a + b', 'a.__add__(b)', 'a * b', 'a.__mul__(b)']
    )
    expect(page.locator('em')).to_have_text('ordre topologique')
    box = exercise(page, 'mul-returns-value')
    expect(box.get_by_test_id('run')).to_contain_text('Exécuter')
    box.get_by_test_id('hint').click()
    hint = box.locator('.hint')
    expect(hint).to_have_text(
        'Regardez __add__ : elle calcule un nombre ordinaire à partir de self.data et other.data, '
        'puis l\'enveloppe dans une nouvelle Value.'
    )
    expect(hint.locator('code')).to_have_text(['__add__', 'self.data', 'other.data', 'Value'])
    result = check(box, 'failed')
    expect(result).to_have_text(
        '✗ Value(2.0) * Value(3.0) a donné None : __mul__ doit renvoyer son résultat avec return.'
    )
    expect(result.locator('code')).to_have_text(['Value(2.0) * Value(3.0)', '__mul__', 'return'])


# Without ?locale=, from the browser's languages: the page's prose and its cells' words alike (they were two
# module graphs once, and the cells followed the course's <html lang="en">).
@pytest.mark.browser_context_args(locale='fr-FR')
def test_the_course_in_the_browser_s_language_has_its_cells_in_it_too(page, site_url):
    page.goto(site_url + 'course.html')
    expect(page.get_by_test_id('exercise')).to_have_count(len(IDS))
    expect(page.locator('h1')).to_have_text('Construire le moteur')
    box = exercise(page, 'mul-returns-value')
    expect(box.get_by_test_id('run')).to_contain_text('Exécuter')
    expect(check(box, 'failed')).to_contain_text('__mul__ doit renvoyer son résultat avec return.')


def test_the_course_in_spanish_has_its_own_words(page, site_url):
    page.goto(site_url + 'course.html?locale=es')
    expect(page.get_by_test_id('exercise')).to_have_count(len(IDS))
    expect(page.locator('h1')).to_have_text('Construye el motor')
    box = exercise(page, 'backward-method')
    box.get_by_test_id('hint').click()
    expect(box.locator('.hint')).to_contain_text('Tres pasos cortos, en este orden')


def test_the_pseudo_locale_leaves_no_word_of_the_course_out(page, site_url):
    page.goto(site_url + 'course.html?locale=en-XA')
    expect(page.get_by_test_id('exercise')).to_have_count(len(IDS))
    for exercise_id in IDS:
        box = exercise(page, exercise_id)
        box.get_by_test_id('hint').click()
        box.get_by_test_id('hint').click()
    assert unmarked(page) == []
    expect(page.locator('article em')).to_have_count(1)  # kept as an element: its tags were not accented
    for exercise_id in ('mul-returns-value', 'mul-backward'):  # a check's own message; expect_grad's framing
        expect(check(exercise(page, exercise_id), 'failed')).to_contain_text('⟪')
    assert unmarked(page) == []
