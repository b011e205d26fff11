"""The gettext catalogues (locales/, docs/translating.md): the template holds every message the sources have,
each shipped language translates all of it with the same placeholders and <code> parts, msgfmt accepts each
catalogue, and the pseudo-locale marks every message. How the sources are read, on small cases."""

import gettext
import json
import re
import shutil
import subprocess
from collections import Counter

import pytest

from backprop_playground.catalogues import compiled, po
from backprop_playground.catalogues.extract import TEMPLATE, module_messages, page_messages
from backprop_playground.catalogues.update import template_text
from support import ROOT

CATALOGUES = sorted(TEMPLATE.parent.glob('*.po'))
KEPT = re.compile(r'\{\w+\}|<code>.*?</code>')


def test_the_template_holds_what_the_sources_say():
    assert TEMPLATE.read_text(encoding='utf-8') == template_text(), (
        'locales/backprop-playground.pot is out of date with the sources: run python build.py messages'
    )


@pytest.mark.parametrize('catalogue', CATALOGUES, ids=lambda path: path.stem)
def test_a_shipped_language_translates_every_message_with_its_placeholders(catalogue):
    template = {entry.msgid for entry in po.read(TEMPLATE.read_text(encoding='utf-8'))[1]}
    header, entries = po.read(catalogue.read_text(encoding='utf-8'))
    assert header['Language'] == catalogue.stem
    translated = {e.msgid: e for e in entries if e.translated()}
    assert sorted(template - translated.keys()) == [], f"{catalogue.name} misses these"
    for entry in translated.values():
        forms = entry.msgstr if entry.plural is not None else [entry.msgstr]
        for form in forms:
            assert Counter(KEPT.findall(form)) == Counter(KEPT.findall(entry.msgid)), (
                catalogue.name,
                entry.msgid,
                form,
            )


@pytest.mark.parametrize('catalogue', CATALOGUES, ids=lambda path: path.stem)
def test_msgfmt_accepts_the_catalogue(catalogue):
    assert shutil.which('msgfmt'), 'GNU gettext (Debian package gettext) is needed: .ci/run installs it'
    done = subprocess.run(
        ['msgfmt', '--check', '--statistics', '-o', '/dev/null', catalogue], capture_output=True, text=True
    )
    assert done.returncode == 0, done.stderr
    assert 'untranslated' not in done.stderr and 'fuzzy' not in done.stderr, done.stderr


def test_the_pages_languages_are_the_catalogues_and_the_pseudo_locale():
    listed = re.search(r'LOCALES = \[(.*?)\]', (ROOT / 'web' / 'i18n' / 'locale.js').read_text()).group(1)
    assert sorted(re.findall(r'"([\w-]+)"', listed)) == sorted(['en', 'en-XA', *(path.stem for path in CATALOGUES)])
    # The main page's menu offers each language but the pseudo-locale, by its own name
    menu = re.search(
        r'<select data-testid="language"[^>]*>(.*?)</select>', (ROOT / 'web' / 'index.html').read_text(), re.S
    )
    offered = re.findall(r'<option value="([\w-]+)" lang="\1">', menu.group(1))
    assert sorted(offered) == sorted(['en', *(path.stem for path in CATALOGUES)])


def test_the_pseudo_locale_wraps_and_lengthens_each_message_and_keeps_its_placeholders():
    assert compiled.pseudo('Run') == '⟪Rúúñ⟫'
    shown = compiled.pseudo('Ctrl+Enter runs · <code>draw_dot(v)</code> draws {count} graphs')
    assert shown.startswith('⟪') and shown.endswith('⟫')
    assert KEPT.findall(shown) == ['<code>draw_dot(v)</code>', '{count}']
    assert compiled.pseudo('Or <strong>Open</strong> one') == '⟪Órr <strong>Óppéññ</strong> óññé⟫'  # its words marked
    assert compiled.pseudo('An <em>order</em>') == '⟪Áññ <em>órrdéér</em>⟫'  # the tags kept, as strong's
    for entry in po.read(TEMPLATE.read_text(encoding='utf-8'))[1]:
        shown = compiled.pseudo(entry.msgid)
        words = KEPT.sub('', entry.msgid)
        assert shown != f"⟪{entry.msgid}⟫" and len(KEPT.sub('', shown)) >= len(words) * 1.25, shown


def test_a_page_is_read_as_the_page_translates_it():
    page = """<html><head><title>A page</title><meta name="description" content="What it is"></head><body>
    <h1 translate="no">Brand <span>Name</span></h1>
    <button title="Run it (Ctrl+Enter)">▶ Run</button> <button aria-label="Close">✕</button>
    <p>Some <b>bold</b> words</p>
    <p data-i18n>Press   <code>Run</code> to run</p>
    <p data-i18n>Or <strong>Open…</strong> one</p>
    <pre>print("not this")</pre><code>nor this</code><input placeholder="Your name"><select><option>First</option></select>
    </body></html>"""
    assert page_messages(page) == [
        'A page',
        'What it is',
        'Run it (Ctrl+Enter)',
        '▶ Run',
        'Close',
        'bold',
        'Press <code>Run</code> to run',
        'Or <strong>Open…</strong> one',
        'Your name',
        'First',
    ]


def test_a_modules_messages_are_its_literal_t_calls():
    assert module_messages('const a = t("Ready");\nb(t(\'It\\\'s {n}\', { n }));\nsplit("x");', 'a.js') == [
        'Ready',
        "It's {n}",
    ]
    assert module_messages('export function t(text, values = {}) {}', 'messages.js') == []
    with pytest.raises(ValueError, match='string literal'):
        module_messages('t(name)', 'a.js')


PLURALS = [
    'n > 1',  # French
    'n != 1',  # Spanish, English
    '0',  # one form only
    'n==1 ? 0 : n%10>=2 && n%10<=4 && (n%100<10 || n%100>=20) ? 1 : 2',  # Polish
    'n%10==1 && n%100!=11 ? 0 : n%10>=2 && n%10<=4 && (n%100<10 || n%100>=20) ? 1 : 2',  # Russian
    'n==0 ? 0 : n==1 ? 1 : n==2 ? 2 : n%100>=3 && n%100<=10 ? 3 : n%100>=11 ? 4 : 5',  # Arabic
    '!(n == 1)',
]
CHOOSE = """import { pluralRule } from "%s";
const rules = JSON.parse(process.argv[2]);
console.log(JSON.stringify(rules.map((rule) => { const form = pluralRule(rule); return Array.from({ length: 1201 }, (_, n) => form(n)); })));
"""


def test_the_page_chooses_a_plural_form_as_gettext_does(tmp_path):
    """web/i18n/plural.js against Python's gettext, which reads the same Plural-Forms, for n from 0 to 1,200."""
    script = tmp_path / 'choose.mjs'
    script.write_text(CHOOSE % (ROOT / 'web' / 'i18n' / 'plural.js').as_uri())
    done = subprocess.run(['node', script, json.dumps(PLURALS)], capture_output=True, text=True, check=True)
    for rule, forms in zip(PLURALS, json.loads(done.stdout), strict=True):
        assert forms == [gettext.c2py(rule)(n) for n in range(1201)], rule
    refused = subprocess.run(['node', script, json.dumps(['n > 1; fetch(1)'])], capture_output=True, text=True)
    assert refused.returncode != 0 and 'not a plural expression' in refused.stderr


LISTED = """import { readFileSync } from "node:fs";
import { listed, useCatalogue } from "%s";
const [catalogues, lists] = JSON.parse(readFileSync(0, "utf8"));
console.log(JSON.stringify(catalogues.map((catalogue) => (useCatalogue(catalogue), lists.map(listed)))));
"""


def test_the_page_lists_names_as_the_runtime_does(tmp_path):
    """web/i18n/catalogue.js's listed() (the Python worker's "Installing graphviz and scalargrad…") against
    playground_runtime's own list, from the same message, in English and in each shipped language."""
    from playground_runtime import teaching, words

    catalogues = [None] + [compiled.catalogue(path.stem, path.read_text()) for path in CATALOGUES]
    lists = [['graphviz'], ['graphviz', 'scalargrad'], ['numpy', 'graphviz', 'scalargrad'], ['a', 'b', 'c', 'd']]
    script = tmp_path / 'listed.mjs'
    script.write_text(LISTED % (ROOT / 'web' / 'i18n' / 'catalogue.js').as_uri())
    done = subprocess.run(
        ['node', script], input=json.dumps([catalogues, lists]), capture_output=True, text=True, check=True
    )
    shown_in_each = json.loads(done.stdout)
    assert all(shown != shown_in_each[0] for shown in shown_in_each[1:])  # each language's own words, not English
    try:
        for catalogue, shown in zip(catalogues, shown_in_each, strict=True):
            words.use_catalogue(json.dumps(catalogue) if catalogue else '')
            assert shown == [teaching._joined(names) for names in lists], catalogue and catalogue['locale']
    finally:
        words.use_catalogue('')
