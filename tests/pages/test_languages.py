"""The main page in the reader's language (issue 45, docs/translating.md): ?locale= chooses a catalogue, the
page's own words come from it with their <code> kept and <html lang> set, the pseudo-locale marks every one, and
a page without a language it has stays English, byte for byte."""

import re

import pytest
from playwright.sync_api import expect

from backprop_playground.catalogues import compiled, po
from backprop_playground.catalogues.extract import TEMPLATE
from support.languages import unmarked
from support.pages import graphs, open_playground, run, type_program

pytestmark = pytest.mark.usefixtures('site')

# Every text, title, aria-label, placeholder and alt of the page, and its description, whitespace collapsed.
PAGE_WORDS = """() => {
  const words = (text) => text.split(/\\s+/).filter(Boolean).join(" ");
  const found = [document.title, document.querySelector('meta[name=description]').content];
  for (const element of document.querySelectorAll("body *")) {
    if (element.children.length === 0 || element.hasAttribute("data-i18n")) found.push(element.textContent);
    for (const name of ["title", "aria-label", "placeholder", "alt"]) found.push(element.getAttribute(name) ?? "");
  }
  return found.map(words).filter(Boolean);
}"""


# The status line's first words, which the page's status replaces once Python is ready (not from the catalogue yet).
REPLACED = {'Loading…'}


def index_messages():
    entries = po.read(TEMPLATE.read_text(encoding='utf-8'))[1]
    return [e.msgid for e in entries if 'web/index.html' in e.references and e.msgid not in REPLACED]


def hint_words(page):
    return ' '.join(page.locator('.hint').evaluate('(hint) => hint.textContent').split())


# Every text the status line shows, as it shows it, from the page's first moment.
STATUS_TEXTS = """window.statusTexts = [];
new MutationObserver((records) => {
  for (const record of records) {
    if (!record.target.classList?.contains('status-text')) continue;
    for (const node of record.addedNodes) if (node.nodeType === Node.TEXT_NODE) window.statusTexts.push(node.data);
  }
}).observe(document, { subtree: true, childList: true });"""


def test_the_main_page_in_french_runs_with_its_own_words_from_the_catalogue(page, site_url):
    page.add_init_script(STATUS_TEXTS)
    open_playground(page, site_url + '?locale=fr')
    # The Python worker's progress too: it has the page's language by its name
    shown = page.evaluate('window.statusTexts')
    assert 'Installation de graphviz et scalargrad…' in shown and 'Démarrage du moteur…' in shown, shown
    expect(page.locator('html')).to_have_attribute('lang', 'fr')
    run_button = page.get_by_test_id('run')
    expect(run_button).to_have_text('▶ Exécuter')
    expect(run_button).to_have_attribute('title', 'Exécuter (Ctrl+Entrée)')
    expect(page.get_by_test_id('clear')).to_have_text('Effacer')
    expect(page.get_by_test_id('output')).to_have_attribute('aria-label', 'Sorties affichées et graphes')
    expect(page).to_have_title('Backprop Playground')
    # One message with its code kept as code, in the translation's word order
    assert hint_words(page).startswith('Ctrl+Entrée exécute · draw_dot(v) dessine un graphe')
    expect(page.locator('.hint code')).to_have_text(['draw_dot(v)', 'Value', 'MLP', 'math', 'random'])
    section = run(page)
    expect(graphs(section)).to_have_count(1)
    expect(section).to_contain_text('o = 0.7071')  # numbers as Python writes them
    # The words the page's modules write, from the same catalogue, a plural by French's rule
    expect(page.get_by_test_id('status')).to_contain_text('Prêt · terminé')
    expect(section.locator('.run-header')).to_have_text(re.compile(r'^Exécution 1 · \d\d:\d\d:\d\d$'))  # a French clock
    expect(section.locator('.graph-title')).to_have_text('Graphe de o')
    expect(section.locator('.graph-size')).to_have_text('10 valeurs')
    expect(section.get_by_role('button', name='Ajuster au graphe entier')).to_have_text('Ajuster')
    expect(section.get_by_role('button', name='Quiz : masquer des valeurs et les prédire')).to_be_visible()
    # A value's arithmetic in French, with its numbers as Python writes them
    graph = section.locator('svg').first
    graph.locator('g.node').filter(has=page.locator('text', has_text=re.compile('^x1$'))).click()
    panel = section.get_by_test_id('node-explain')
    expect(panel).to_contain_text('Propagation : comment sa donnée a été calculée')
    expect(panel).to_contain_text('x1 est une entrée : sa donnée, 2.0000, a été donnée, pas calculée.')
    expect(panel.get_by_role('button', name="Fermer l'explication")).to_be_visible()
    # The quiz, checked, says in French how many were right
    section.get_by_test_id('quiz').click()
    quiz = section.get_by_test_id('quiz-panel')
    expect(quiz).to_contain_text('Prédisez chaque valeur masquée')
    quiz.get_by_test_id('quiz-check').click()
    expect(quiz.locator('.quiz-score')).to_have_text(re.compile(r'^Justes : 0 sur 5\.'))
    expect(quiz.locator('.quiz-answer').first).to_have_text(re.compile("^✗ pas de réponse : c'est -?\\d"))


def test_the_pseudo_locale_marks_every_message_of_the_page(page, site_url):
    open_playground(page, site_url + '?locale=en-XA')
    expect(page.locator('html')).to_have_attribute('lang', 'en-XA')
    shown = page.evaluate(PAGE_WORDS)
    messages = index_messages()
    assert len(messages) >= 20
    assert [m for m in messages if compiled.pseudo(m).replace('<code>', '').replace('</code>', '') not in shown] == []
    assert [m for m in messages if m.replace('<code>', '').replace('</code>', '') in shown] == []
    section = run(page)
    expect(graphs(section)).to_have_count(1)
    for part in [page.get_by_test_id('status'), section.locator('.run-header'), section.locator('.graph-size')]:
        expect(part).to_contain_text('⟪')
    expect(section.locator('.graph-size')).to_have_text(compiled.pseudo('{count} values').replace('{count}', '10'))


@pytest.mark.parametrize('query', ['', '?locale=xx', '?locale=EN'])
def test_a_page_without_a_language_the_site_has_is_english_as_before(page, site_url, query):
    open_playground(page, site_url + query)
    expect(page.locator('html')).to_have_attribute('lang', 'en')
    shown = page.evaluate(PAGE_WORDS)
    assert [m for m in index_messages() if m.replace('<code>', '').replace('</code>', '') not in shown] == []
    assert not any('⟪' in words for words in shown)


def test_the_pseudo_locale_leaves_no_word_of_the_main_page_out_after_a_run_and_its_panels(page, site_url):
    open_playground(page, site_url + '?locale=en-XA')
    assert unmarked(page) == []
    section = run(page)
    card = section.locator('.graph-card')
    card.locator('g.node').filter(has=page.locator('text', has_text=re.compile('^w1$'))).click()
    expect(section.get_by_test_id('node-explain')).to_be_visible()
    assert unmarked(page) == []
    for opened in ['.graph-teach button >> nth=0', '.graph-stepper button >> nth=2', '.graph-teach button >> nth=3']:
        card.locator(opened).click()  # step through backward, one step; the table
    expect(card.locator('.graph-narration')).to_contain_text('⟪')
    expect(card.get_by_test_id('graph-table')).to_be_visible()
    assert unmarked(page) == []
    section.get_by_test_id('quiz').click()
    section.get_by_test_id('quiz-check').click()
    expect(section.locator('.quiz-score')).to_be_visible()
    assert unmarked(page) == []
    page.get_by_test_id('share').click()
    expect(page.get_by_test_id('share-link')).to_be_visible()
    assert unmarked(page) == []
    page.get_by_test_id('embed').click()
    expect(page.get_by_test_id('embed-code')).to_be_visible()
    assert unmarked(page) == []


def test_the_runtime_s_words_are_french_around_python_s_own(page, site_url):
    open_playground(page, site_url + '?locale=fr')
    type_program(page, 'import numpy as np')
    section = run(page, expected_state='error')
    # Python's message as Python writes it, then the runtime's words in French
    expect(section).to_contain_text(
        "No module named 'numpy' : ce playground n'a pas numpy, et il fonctionne hors ligne"
    )
    type_program(page, 'a = Value(2.0, label="a")\nb = a * a; b.label = "b"\nb.backward()\ndraw_dot(b)')
    card = run(page).locator('.graph-card')
    card.get_by_role('button', name='Rétropropagation pas à pas : exécuter chaque _backward à tour de rôle').click()
    card.get_by_role('button', name="Avancer d'une étape").click()
    expect(card.locator('.graph-narration')).to_have_text(
        'Étape 1 : b._backward() : * envoie 4.0 à a (utilisé deux fois)'
    )
    # A value used twice by one user: its partials say which operand, with the language's ordinals
    card.locator('g.node').filter(has=page.locator('text', has_text=re.compile('^a$'))).click()
    terms = card.get_by_test_id('grad-term')
    expect(terms).to_have_count(2)
    expect(terms.first).to_contain_text('∂b/∂a (1er opérande)')
    expect(terms.last).to_contain_text('∂b/∂a (2e opérande)')
    # Why the next run gets a fresh Python, which the runtime's check says in English, in French too
    type_program(page, 'import math\nmath.pi = 3')
    run(page)
    type_program(page, 'print(1)')
    notice = run(page).locator('.notice')
    expect(notice).to_contain_text(
        'Un Python neuf exécute ce programme : la dernière exécution a modifié le module math'
    )
    expect(notice).not_to_contain_text('changed')


def test_the_pseudo_locale_marks_the_words_in_a_value_s_arithmetic(page, site_url):
    open_playground(page, site_url + '?locale=en-XA')
    type_program(page, 'a = Value(2.0, label="a")\nb = a * a; b.label = "b"\nb.backward()\ndraw_dot(b)')
    card = run(page).locator('.graph-card')
    card.locator('g.node').filter(has=page.locator('text', has_text=re.compile('^a$'))).click()
    expect(card.get_by_test_id('grad-term')).to_have_count(2)
    assert unmarked(page) == []
    expect(card.get_by_test_id('grad-term').first).to_contain_text(compiled.pseudo('1st'))
    type_program(page, 'import builtins\nbuiltins.print = len')  # the fresh Python's notice, its reason too
    run(page)
    type_program(page, 'x = 1')
    expect(run(page).locator('.notice')).to_contain_text(compiled.pseudo('changed the module {name}').split('{')[0])
    assert unmarked(page) == []


def test_the_menu_s_language_is_kept_across_visits_with_the_editor_s_text(page, site_url):
    open_playground(page, site_url)
    menu = page.get_by_test_id('language')
    expect(menu).to_have_value('en')
    type_program(page, 'print("mine")')
    menu.select_option('fr')
    expect(page.locator('html')).to_have_attribute('lang', 'fr')
    expect(page.get_by_test_id('run')).to_have_text('▶ Exécuter')
    expect(page.get_by_test_id('editor')).to_contain_text('print("mine")')  # nothing typed is lost
    expect(page.get_by_test_id('language')).to_have_value('fr')
    open_playground(page, site_url)  # a later visit, without ?locale=
    expect(page.get_by_test_id('run')).to_have_text('▶ Exécuter')
    open_playground(page, site_url + '?locale=en')  # a link's language comes first
    expect(page.get_by_test_id('run')).to_have_text('▶ Run')


# The browser's languages (navigator.languages, from the context's locale), each test in a context of its own.
@pytest.mark.parametrize(
    'expected',
    [
        pytest.param('▶ Ejecutar', marks=pytest.mark.browser_context_args(locale='es-MX'), id='es-MX'),
        pytest.param('▶ Run', marks=pytest.mark.browser_context_args(locale='de-DE'), id='de-DE'),
        pytest.param('▶ Exécuter', marks=pytest.mark.browser_context_args(locale='fr-CA'), id='fr-CA'),
    ],
)
def test_the_browser_s_language_is_the_page_s_when_the_site_has_it(page, site_url, expected):
    open_playground(page, site_url)
    expect(page.get_by_test_id('run')).to_have_text(expected)
