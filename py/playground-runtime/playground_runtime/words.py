"""The runtime's words in the page's language: `_(text)` and `ngettext(one, many, n)` as gettext names them,
from the catalogue the page hands its Python worker (web/session/python-worker.js calls use_catalogue before
any program runs), or English without one. `N_(text)` marks a text for `build.py messages` where it is kept
in a table and translated where it is used. Placeholders are `{name}`s, filled with str.format by the caller.
"""

import json
from types import MappingProxyType


def _english(n):
    return int(n != 1)


_messages = MappingProxyType({})
_form = _english


def use_catalogue(text):
    """The catalogue as dist/locales/LOCALE.json holds it ({locale, plural, messages}), as JSON text; '' for English."""
    global _messages, _form
    catalogue = json.loads(text) if text else {}
    _messages = MappingProxyType(dict(catalogue.get('messages') or {}))
    _form = _english
    if catalogue.get('plural'):
        import gettext  # only for another language: an English page's Python starts without it

        try:
            _form = gettext.c2py(catalogue['plural'])
        except ValueError:
            pass


def _(text):
    found = _messages.get(text)
    return found if isinstance(found, str) else text


def N_(text):
    return text


def ngettext(one, many, n):
    forms = _messages.get(one)
    if isinstance(forms, list) and forms:
        index = _form(n)
        return forms[index] if index < len(forms) else forms[-1]
    return one if n == 1 else many
