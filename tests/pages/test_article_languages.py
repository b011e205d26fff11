"""An article's cells and exercises in the reader's language (issue 45, docs/translating.md): embed.js?locale=
where the article's script says so, else ?locale= in the article's address, else the article's own <html lang>,
else English; the article's own words and its <html lang> are the author's and stay as they are."""

import html

import pytest
from playwright.sync_api import expect

from backprop_playground.catalogues import compiled
from support.pages import cells, check

pytestmark = pytest.mark.usefixtures('site')

STARTER = 'a = Value(2.0, label="a")\nb = a * a; b.label = "b"\nb.backward()'
CHECKS = 'expect_grad(a, 5.0, "a is used twice")'
HINT = '<p>Each use of a sends its share.</p>'


def write_article(other_origin, name, script, lang=None):
    folder, url = other_origin
    body = (
        '<h1>My post</h1><p>An author writes in her own words.</p>'
        '<pre data-playground>print("hello")</pre>'
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
    expect(page.locator('h1')).to_have_text('My post')


def test_the_script_s_locale_comes_before_the_article_s_lang(page, site_url, other_origin):
    page.goto(write_article(other_origin, 'es.html', f'{site_url}embed.js?locale=es', lang='fr'))
    expect(cells(page).first.get_by_test_id('run')).to_have_text('▶ Ejecutar')


@pytest.mark.parametrize('lang', [None, 'de', 'en-GB'])
def test_an_article_in_a_language_the_site_lacks_has_english_cells(page, site_url, other_origin, lang):
    page.goto(write_article(other_origin, f'other-{lang}.html', f'{site_url}embed.js', lang=lang))
    expect(cells(page).first.get_by_test_id('run')).to_have_text('▶ Run')
    expect(page.get_by_test_id('exercise').get_by_test_id('reset')).to_have_text('Reset exercise')


# What the cells show (in their shadow roots) that did not come from the catalogue under en-XA: code, output
# and drawings left out, as on the main page (test_languages.py), and the author's own hints.
CELLS_UNMARKED = """() => {
  const words = /[A-Za-z]{2}/;
  const left = (element) => element.closest("pre, code, .cm-editor, svg, textarea, [translate=no], .hint");
  const found = [];
  for (const host of document.querySelectorAll("*")) {
    const root = host.shadowRoot;
    if (!root) continue;
    const walker = document.createTreeWalker(root, NodeFilter.SHOW_TEXT);
    for (let node = walker.nextNode(); node; node = walker.nextNode()) {
      const element = node.parentElement;
      const text = node.data.trim();
      if (!words.test(text) || left(element) || !element.checkVisibility() || text.includes("⟪")) continue;
      found.push(`${element.localName}.${element.className}: ${text}`);
    }
    for (const element of root.querySelectorAll("[title], [aria-label], [placeholder]")) {
      if (element.closest("svg, .cm-editor, pre")) continue;
      for (const name of ["title", "aria-label", "placeholder"]) {
        const value = element.getAttribute(name);
        if (value && words.test(value) && !value.includes("⟪")) found.push(`${element.localName}[${name}]: ${value}`);
      }
    }
  }
  return found;
}"""


def test_the_pseudo_locale_leaves_no_word_of_a_cell_or_an_exercise_out(page, site_url, other_origin):
    page.goto(write_article(other_origin, 'pseudo.html', f'{site_url}embed.js?locale=en-XA'))
    box = page.get_by_test_id('exercise')
    expect(box.get_by_test_id('reset')).to_have_text(compiled.pseudo('Reset exercise'))
    assert page.evaluate(CELLS_UNMARKED) == []
    check(box, 'failed')
    box.get_by_test_id('hint').click()
    expect(box.locator('.hint')).to_have_count(1)
    box.get_by_test_id('solution').click()
    expect(box.locator('.solution button')).to_be_visible()
    cells(page).first.get_by_test_id('run').click()
    expect(cells(page).first.get_by_test_id('status')).to_have_attribute('data-state', 'ready', timeout=60_000)
    cells(page).first.get_by_test_id('restart').click()
    assert page.evaluate(CELLS_UNMARKED) == []


def test_embed_html_follows_locale_in_its_address(page, site_url):
    page.goto(site_url + 'embed.html?locale=fr#example=neuron.py')
    expect(page.get_by_test_id('run')).to_have_text('▶ Exécuter')
    expect(page).to_have_title('Backprop Playground · cellule')
    expect(page.locator('html')).to_have_attribute('lang', 'fr')


def test_the_reader_s_locale_in_the_address_comes_before_the_article_s_lang(page, site_url, other_origin):
    page.goto(write_article(other_origin, 'en.html', f'{site_url}embed.js', lang='en') + '?locale=fr')
    expect(cells(page).first.get_by_test_id('run')).to_have_text('▶ Exécuter')
