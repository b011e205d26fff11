"""The documentation site: MkDocs builds docs/ strictly (a broken link, a missing anchor or a page left out
of the nav fails the build), the README's links lead to files that exist, every file the README and docs/ name
in backticks is in the tree or the build, and the site's own Python examples run in place through embed.js
when the site sits beside the playground, as `build.py docs` puts it."""

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


# What the docs name in backticks that is not a file of this tree or its build, by what it is: a teacher's
# nbgrader course (the room serves one), what the room's server answers at a URL, what an author's or a
# teacher's install makes.
ELSEWHERE = {
    'source/',
    'release/',
    'submitted/',
    'classroom/release/',
    'nbgrader_config.py',  # a teacher's course
    'classroom/config.json',  # an answer of the room's API
    'node_modules/backprop-playground/',  # an author's `npm install backprop-playground`
    'backprop_playground/site/',  # inside the teacher's wheel
    'dist/docs/',  # made by `python build.py docs`
}
# A path as the docs write one: a folder (`web/cell/`), a file in one, or a file of ours by its name alone
# (`runner.py`), not a URL's path (`classroom/progress`) nor a MIME type; a word in
# capitals stands for any name (`DIR/release/ASSIGNMENT/`).
PATH = re.compile(r'(?:[\w.-]+/)+(?:[\w-]+\.[\w.]+)?|[\w.-]+\.(?:py|js|mjs|css|html)')
PLACEHOLDER = re.compile(r'(?:^|/)[A-Z][A-Z0-9_]+(?:[/.-]|$)')


def named_paths(text):
    """The paths `text` names in backticks, outside its code blocks."""
    prose = re.sub(r'```.*?```', '', text, flags=re.S)
    for quoted in re.findall(r'`([^`\n]+)`', prose):
        if re.fullmatch(PATH, quoted) and not PLACEHOLDER.search(quoted) and not quoted.startswith(('.', '/')):
            yield quoted


def test_every_file_the_readme_and_the_docs_name_is_there(site):
    tracked = subprocess.run(['git', 'ls-files'], cwd=ROOT, capture_output=True, text=True, check=True).stdout.split()
    built = [path.relative_to(site).as_posix() for path in site.rglob('*')]
    here = {'dist'} | {f'dist/{path}' for path in built}
    for path in tracked + built:  # each file and each folder above it
        parts = path.split('/')
        here.update('/'.join(parts[:end]) for end in range(1, len(parts) + 1))

    def there(name):
        name = name.rstrip(
            '/'
        )  # a file or folder of its own, or one a folder of ours holds (`session/start-worker.js`)
        return name in here or any(path.endswith('/' + name) for path in here)

    docs = [ROOT / 'README.md', *sorted((ROOT / 'docs').rglob('*.md'))]
    named = {(doc.relative_to(ROOT).as_posix(), name) for doc in docs for name in named_paths(doc.read_text())}
    assert len(named) > 100, 'the docs name files in backticks'
    missing = sorted((doc, name) for doc, name in named if name not in ELSEWHERE and not there(name))
    assert missing == []


def test_a_file_the_docs_name_is_read_as_written():
    text = "Run `python build.py`, read `web/session/interpreter.js` and `runner.py`; `DIR/release/A/` is a course's.\n"
    text += "```\n`not/this.py` in a block\n```\n"
    assert list(named_paths(text)) == ['web/session/interpreter.js', 'runner.py']
