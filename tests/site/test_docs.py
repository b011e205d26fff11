"""The documentation site: MkDocs builds docs/ strictly (a broken link, a missing anchor or a page left out
of the nav fails the build), the README's links lead to files that exist, and the site's own Python
examples run in place through embed.js when the site sits beside the playground, as `build.py docs` puts it."""

import re
import shutil
import subprocess
import sys

import pytest
from playwright.sync_api import expect

from support import ROOT, STARTUP_TIMEOUT_MS
from support.pages import cells, press_run
from support.servers import serving, stop


def mkdocs(config, site_dir):
    return subprocess.run(
        [
            sys.executable,
            '-m',
            'mkdocs',
            'build',
            '--strict',
            '--config-file',
            str(config),
            '--site-dir',
            str(site_dir),
        ],
        capture_output=True,
        text=True,
        timeout=300,
    )


@pytest.fixture(scope='module')
def beside_the_site(site, tmp_path_factory):
    """A folder holding the built site (linked, file by file at its top) with the docs built into docs/."""
    root = tmp_path_factory.mktemp('published')
    for entry in site.iterdir():
        if entry.name != 'docs':
            (root / entry.name).symlink_to(entry, target_is_directory=entry.is_dir())
    built = mkdocs(ROOT / 'mkdocs.yml', root / 'docs')
    assert built.returncode == 0, built.stderr[-3000:]
    for page in (root / 'docs').glob('*.html'):  # nothing from a CDN: the theme's highlight.js is off
        loads = re.findall(
            r'<(?:script|img|iframe)\b[^>]*\bsrc="((?:https?:)?//[^"]*)"|<link\b[^>]*\bhref="((?:https?:)?//[^"]*)"',
            page.read_text(),
        )
        assert loads == [], (page.name, loads)
    return root


def test_the_docs_build_strictly_and_their_python_runs_in_place(beside_the_site, page):
    server, url = serving(directory=beside_the_site)
    try:
        page.goto(url + 'docs/index.html')
        first = cells(page).first
        expect(first).to_be_visible(timeout=STARTUP_TIMEOUT_MS)
        expect(press_run(first).locator('svg')).to_contain_text('grad -2.0000')  # c = a*b + a: dc/da = b + 1
        page.goto(url + 'docs/classroom.html')
        expect(page.locator('h1')).to_have_text('Classroom')
        # The lesson page is the course's own Markdown (a link into web/lessons/), not a copy of it.
        page.goto(url + 'docs/build-the-engine.html')
        expect(page.locator('h1')).to_have_text('Build the engine')
    finally:
        stop(server)


@pytest.mark.parametrize(
    'damage, says',
    [
        ('broken link', "contains a link 'nowhere.md', but the target is not found"),
        ('missing anchor', "does not contain an anchor '#no-such-part'"),
        ('page left out of the nav', 'not included in the "nav" configuration'),
    ],
)
def test_a_broken_link_or_a_page_left_out_of_the_nav_fails_the_build(tmp_path, damage, says):
    shutil.copytree(ROOT / 'docs', tmp_path / 'docs')
    shutil.copy(ROOT / 'mkdocs.yml', tmp_path / 'mkdocs.yml')
    learners = tmp_path / 'docs' / 'learners.md'
    if damage == 'broken link':
        learners.write_text(learners.read_text() + '\nSee [nothing](nowhere.md).\n')
    elif damage == 'missing anchor':
        learners.write_text(learners.read_text() + '\nSee [the room](classroom.md#no-such-part).\n')
    else:
        (tmp_path / 'docs' / 'orphan.md').write_text('# Orphan\n')
    built = mkdocs(tmp_path / 'mkdocs.yml', tmp_path / 'out')
    assert built.returncode != 0 and says in built.stderr, built.stderr[-2000:]


def test_the_readme_is_short_and_its_links_lead_somewhere():
    readme = (ROOT / 'README.md').read_text()
    assert len(readme.splitlines()) < 100
    links = re.findall(r'\]\(([^)#]+)(?:#[^)]*)?\)', readme)
    assert {'docs/classroom.md', 'docs/development.md'} <= set(links)
    for link in links:
        assert (ROOT / link).exists(), link
