"""locales/ into dist/locales/: each language's catalogue as JSON, which the page reads (web/i18n/messages.js),
and the pseudo-locale en-XA made from the template (catalogues/compiled.py)."""

import json

from ..catalogues import compiled, po
from ..catalogues.extract import TEMPLATE


def write_catalogues(out):
    folder = TEMPLATE.parent
    made = {}
    for path in sorted(folder.glob('*.po')):
        made[path.stem] = compiled.catalogue(path.stem, path.read_text(encoding='utf-8'))
    made['en-XA'] = compiled.pseudo_catalogue(po.read(TEMPLATE.read_text(encoding='utf-8'))[1])
    for locale, catalogue in made.items():
        out.put(
            out.dist / 'locales' / f"{locale}.json", json.dumps(catalogue, ensure_ascii=False, sort_keys=True).encode()
        )
