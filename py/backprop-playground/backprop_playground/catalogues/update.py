"""`build.py messages`: the template written from the sources, then each language's catalogue brought up to
date with it by GNU gettext's msgmerge (a new message appears untranslated, a changed one fuzzy)."""

import shutil
import subprocess

from ..paths import ROOT
from . import po
from .extract import HEADER, TEMPLATE, template_entries


def template_text():
    return po.write(HEADER, template_entries())


def update():
    TEMPLATE.parent.mkdir(exist_ok=True)
    TEMPLATE.write_text(template_text(), encoding='utf-8')
    print(f"wrote {TEMPLATE.relative_to(ROOT)}")
    catalogues = sorted(TEMPLATE.parent.glob('*.po'))
    if catalogues and not shutil.which('msgmerge'):
        print("msgmerge (GNU gettext) is not installed: the catalogues were not brought up to date")
        return 1
    for path in catalogues:
        subprocess.run(
            ['msgmerge', '--quiet', '--update', '--backup=none', '--no-wrap', '--add-location=file', path, TEMPLATE],
            check=True,
        )
        print(f"updated {path.relative_to(ROOT)}")
    return 0
