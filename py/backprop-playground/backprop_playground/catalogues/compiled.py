"""A language's catalogue as the page reads it, dist/locales/LOCALE.json: {"locale", "messages": {English: text}},
with only the entries translated and not marked fuzzy (the page shows English for the others). And the
pseudo-locale en-XA, made from the template: every message wrapped in ⟪ ⟫, its letters accented and every
second one doubled (about a third longer in all), so that a string shown without it stands out (docs/translating.md)."""

import re

from . import po

ACCENTED = dict(zip('aeiouycnAEIOUYCN', 'áéíóúýçñÁÉÍÓÚÝÇÑ'))
# Left as they are: a {placeholder}, the <code>…</code> that a page's message keeps, and the tags of <strong> and
# <em> (their words are accented).
KEPT = re.compile(r'(\{\w+\}|<code>.*?</code>|</?strong>|</?em>)')


def catalogue(locale, text):
    header, entries = po.read(text)
    return {
        'locale': locale,
        'plural': plural_expression(header),
        'messages': {e.msgid: e.msgstr for e in entries if e.translated()},
    }


def plural_expression(header):
    """The C expression of n in the header's Plural-Forms (web/i18n/plural.js reads it; gettext.c2py too)."""
    found = re.search(r'plural\s*=\s*([^;]+)', header.get('Plural-Forms', ''))
    return found.group(1).strip() if found else 'n != 1'


def pseudo(text):
    parts = KEPT.split(text)
    for i in range(0, len(parts), 2):  # the parts between the kept ones
        letters = 0
        out = []
        for char in parts[i]:
            out.append(ACCENTED.get(char, char))
            if char.isalpha():
                letters += 1
                if letters % 2 == 0:
                    out.append(ACCENTED.get(char, char))
        parts[i] = ''.join(out)
    return f"⟪{''.join(parts)}⟫"


def pseudo_catalogue(entries):
    messages = {e.msgid: pseudo(e.msgid) if e.plural is None else [pseudo(e.msgid), pseudo(e.plural)] for e in entries}
    return {'locale': 'en-XA', 'plural': 'n != 1', 'messages': messages}
