"""An article's cells and exercises in the reader's language (issue 45, docs/translating.md): embed.js?locale=
where the article's script says so, else ?locale= in the article's address, else a cell's data-locale, else the
article's own <html lang>, else English; the article's own words and its <html lang> are the author's and stay as they are."""

import html
import re

import pytest
from playwright.sync_api import expect

from backprop_playground.catalogues import compiled
from support.languages import unmarked
from support.pages import cells, check

pytestmark = pytest.mark.usefixtures('site')

STARTER = 'a = Value(2.0, label="a")\nb = a * a; b.label = "b"\nb.backward()'
CHECKS = 'expect_grad(a, 5.0, "a is used twice")'
HINT = '<p>Each use of a sends its share.</p>'


def write_article(other_origin, name, script, lang=None, cell_locale=None):
    folder, url = other_origin
    locale = f' data-locale="{cell_locale}"' if cell_locale else ''
    body = (
        '<h1>My post</h1><p>An author writes in her own words.</p>'
        f'<pre data-playground{locale}>print("hello")</pre>'
        f'<pre data-playground data-exercise="twice">{html.escape(STARTER)}</pre>'
        f'<script type="text/x-python" data-checks="twice">{CHECKS}</script>'
        f'<template data-hint="twice">{HINT}</template>'
        f'<script type="text/x-python" data-solution="twice">{STARTER}</script>'
        f'<script type="module" src="{script}"></script>'
    )
    opening = f'<html lang="{lang}">' if lang else '<html>'
    (folder / name).write_text(f'<!doctype html>{opening}<head><meta charset="utf-8"></head><body>{body}</body></html>')
    return url + name


def test_an_article_in_french_by_its_own_lang_gets_french_cells_and_its_own_words_untouched(
    page, site_url, other_origin
):
    page.goto(write_article(other_origin, 'fr.html', f'{site_url}embed.js', lang='fr-CA'))
    expect(cells(page)).to_have_count(1)
    expect(cells(page).first.get_by_test_id('run')).to_have_text('▶ Exécuter')
    box = page.get_by_test_id('exercise')
    expect(box.get_by_test_id('reset')).to_have_text("Réinitialiser l'exercice")
    result = check(box, 'failed')
    # The runtime's words in French, the author's check message as the author wrote it
    expect(result).to_have_text('✗ a.grad vaut 4.0, attendu 5.0: a is used twice')
    expect(page.locator('html')).to_have_attribute('lang', 'fr-CA')
    expect(cells(page).first).not_to_have_attribute('lang', re.compile('.'))  # the article's language already
    expect(page.locator('h1')).to_have_text('My post')


def test_a_cell_s_data_locale_gives_the_page_s_cells_their_language_before_the_article_s_lang(
    page, site_url, other_origin
):
    page.goto(write_article(other_origin, 'cell-es.html', f'{site_url}embed.js', lang='en', cell_locale='es-MX'))
    expect(cells(page).first.get_by_test_id('run')).to_have_text('▶ Ejecutar')
    # One catalogue per page: the exercise, which has no data-locale, speaks the cell's language too.
    expect(page.get_by_test_id('exercise').get_by_test_id('reset')).to_have_text('Reiniciar el ejercicio')
    expect(page.locator('html')).to_have_attribute('lang', 'en')  # the author's
    expect(cells(page).first).to_have_attribute('lang', 'es')  # what a screen reader reads in Spanish
    page.goto(write_article(other_origin, 'cell-xx.html', f'{site_url}embed.js', lang='fr', cell_locale='xx'))
    expect(cells(page).first.get_by_test_id('run')).to_have_text('▶ Exécuter')  # one the site lacks: <html lang>


def test_the_script_s_locale_comes_before_the_article_s_lang(page, site_url, other_origin):
    page.goto(write_article(other_origin, 'es.html', f'{site_url}embed.js?locale=es', lang='fr'))
    expect(cells(page).first.get_by_test_id('run')).to_have_text('▶ Ejecutar')


@pytest.mark.parametrize('lang', [None, 'de', 'en-GB'])
def test_an_article_in_a_language_the_site_lacks_has_english_cells(page, site_url, other_origin, lang):
    page.goto(write_article(other_origin, f'other-{lang}.html', f'{site_url}embed.js', lang=lang))
    expect(cells(page).first.get_by_test_id('run')).to_have_text('▶ Run')
    expect(page.get_by_test_id('exercise').get_by_test_id('reset')).to_have_text('Reset exercise')


def test_the_pseudo_locale_leaves_no_word_of_a_cell_or_an_exercise_out(page, site_url, other_origin):
    page.goto(write_article(other_origin, 'pseudo.html', f'{site_url}embed.js?locale=en-XA'))
    box = page.get_by_test_id('exercise')
    expect(box.get_by_test_id('reset')).to_have_text(compiled.pseudo('Reset exercise'))
    assert unmarked(page, authored='.hint, h1, body > p') == []
    check(box, 'failed')
    box.get_by_test_id('hint').click()
    expect(box.locator('.hint')).to_have_count(1)
    box.get_by_test_id('solution').click()
    expect(box.locator('.solution button')).to_be_visible()
    cells(page).first.get_by_test_id('run').click()
    expect(cells(page).first.get_by_test_id('status')).to_have_attribute('data-state', 'ready', timeout=60_000)
    cells(page).first.get_by_test_id('restart').click()
    assert unmarked(page, authored='.hint, h1, body > p') == []


def test_embed_html_follows_locale_in_its_address(page, site_url):
    page.goto(site_url + 'embed.html?locale=fr#example=neuron.py')
    expect(page.get_by_test_id('run')).to_have_text('▶ Exécuter')
    expect(page).to_have_title('Backprop Playground · cellule')
    expect(page.locator('html')).to_have_attribute('lang', 'fr')


def test_the_reader_s_locale_in_the_address_comes_before_the_article_s_lang(page, site_url, other_origin):
    page.goto(write_article(other_origin, 'en.html', f'{site_url}embed.js', lang='en') + '?locale=fr')
    expect(cells(page).first.get_by_test_id('run')).to_have_text('▶ Exécuter')


def test_a_locale_the_site_lacks_in_the_address_leaves_the_article_s_lang(page, site_url, other_origin):
    page.goto(write_article(other_origin, 'fr-xx.html', f'{site_url}embed.js', lang='fr') + '?locale=xx')
    expect(cells(page).first.get_by_test_id('run')).to_have_text('▶ Exécuter')
