"""The product's words in other languages, as gettext catalogues (docs/translating.md):

    po.py        reads and writes a .po or .pot file's entries
    extract.py   finds every message in web/'s pages and modules: the template, locales/backprop-playground.pot
    compiled.py  a catalogue as the page reads it (JSON), and the pseudo-locale en-XA made from the template

The page asks web/i18n/messages.js for a string by its English text; English is the text itself, so an
English page reads no catalogue.
"""
