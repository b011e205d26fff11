"""Every message of the product, found in its sources: the template that each language's catalogue translates
(locales/backprop-playground.pot, written by `python build.py messages`).

- web/'s pages that load web/dom/translate-page.js (PAGES: the others are not translated yet): each element's
  text where it has no element inside (a button's label, an option, a heading), an element marked `data-i18n`
  as one message with its <code>, <strong> and <em> kept (it holds only text and those), and the title, aria-label,
  placeholder and alt attributes, with a page's description. Not inside script, style, pre, code, textarea or svg, nor
  under translate="no" (HTML's own way of saying so). web/dom/translate-page.js reads a page the same way.
- the checks of those pages' exercises (`<script type="text/x-python" data-checks>`): their `_("…")` calls, as in
  the runtime below (the course's checks say what failed in the page's language).
- web/'s modules: the first argument of each call of t() (web/i18n/messages.js), a string literal, and the
  first two of tn() (one and many: a plural message).
- The page's Python runtime (playground_runtime/words.py): the first argument of each _("…") and N_("…"), a
  string constant, and the first two of ngettext().
- The classroom server's refusals that a page shows (classroom/statements.py's N_("…")): the page translates
  the answer's `message` and fills in its `values` (web/i18n/catalogue.js, refusalText).
"""

import ast
import re
from html.parser import HTMLParser

from ..paths import PY, ROOT, WEB
from .po import Entry

TEMPLATE = ROOT / 'locales' / 'backprop-playground.pot'
# Grows page by page until every page's words come from the catalogue (issue 45).
PAGES = ['index.html', 'embed.html', 'notebook.html', 'room.html', 'teacher.html', 'course.html']
HEADER = {
    'Project-Id-Version': 'Backprop Playground',
    'MIME-Version': '1.0',
    'Content-Type': 'text/plain; charset=UTF-8',
    'Content-Transfer-Encoding': '8bit',
}
SKIPPED = {'script', 'style', 'pre', 'code', 'textarea', 'svg'}
VOID = {'area', 'base', 'br', 'col', 'embed', 'hr', 'img', 'input', 'link', 'meta', 'source', 'track', 'wbr'}
ATTRIBUTES = ('title', 'aria-label', 'placeholder', 'alt')
INLINE = {'code', 'strong', 'em'}  # what a data-i18n element may hold besides text: kept in its message
LETTER = re.compile(r'[^\W\d_]')
PLACEHOLDER = re.compile(r'\{(\w+)\}')
STRING = r'''("(?:[^"\\\n]|\\.)*"|'(?:[^'\\\n]|\\.)*')'''
CALL = re.compile(r'(?<![\w.$])t\(\s*' + STRING)
PLURAL_CALL = re.compile(r'(?<![\w.$])tn\(\s*' + STRING + r'\s*,\s*' + STRING)
CALL_WITHOUT_LITERAL = re.compile(
    r'''(?<![\w.$])(?<!function )(?:t\((?!\s*["')])|tn\((?!\s*\)|\s*''' + STRING + r'''\s*,\s*["']))'''
)


def collapsed(text):
    return ' '.join(text.split())


def is_message(text):
    return bool(LETTER.search(text))


class PageMessages(HTMLParser):
    """The messages of one page, in document order."""

    def __init__(self):
        super().__init__(convert_charrefs=True)
        self.found = []
        # Open elements: whether each is skipped, marked data-i18n, a <code> or <strong> inside such a one (its
        # tag), has an element inside, and its parts (text, and <code>…</code> or <strong>…</strong> in a
        # data-i18n one, which holds only text and those).
        self.stack = []

    def handle_starttag(self, tag, attrs):
        attrs = dict(attrs)
        parent = self.stack[-1] if self.stack else None
        skipped = bool(parent and parent['skipped']) or tag in SKIPPED or attrs.get('translate') == 'no'
        inline = bool(parent and parent['i18n'] and tag in INLINE)
        if parent and not inline:
            parent['elements'] = True
        if not skipped or inline:
            for name in ATTRIBUTES:
                if is_message(attrs.get(name) or ''):
                    self.found.append(collapsed(attrs[name]))
            if tag == 'meta' and attrs.get('name') == 'description' and is_message(attrs.get('content') or ''):
                self.found.append(collapsed(attrs['content']))
        if tag in VOID:
            return
        self.stack.append(
            {'skipped': skipped, 'i18n': 'data-i18n' in attrs, 'inline': inline and tag, 'elements': False, 'parts': []}
        )

    def handle_startendtag(self, tag, attrs):
        self.handle_starttag(tag, attrs)
        if tag not in VOID:
            self.handle_endtag(tag)

    def handle_data(self, data):
        if self.stack:
            self.stack[-1]['parts'].append(data)

    def handle_endtag(self, tag):
        if tag in VOID or not self.stack:
            return
        frame = self.stack.pop()
        text = ''.join(frame['parts'])
        if frame['inline']:
            self.stack[-1]['parts'].append(f"<{frame['inline']}>{text}</{frame['inline']}>")
        elif not frame['skipped'] and (frame['i18n'] or not frame['elements']) and is_message(text):
            self.found.append(collapsed(text))


def page_messages(text):
    parser = PageMessages()
    parser.feed(text)
    parser.close()
    return parser.found


class PageChecks(HTMLParser):
    """The text of each exercise's checks on a page."""

    def __init__(self):
        super().__init__(convert_charrefs=True)
        self.checks = []
        self.inside = False

    def handle_starttag(self, tag, attrs):
        self.inside = tag == 'script' and 'data-checks' in dict(attrs)
        if self.inside:
            self.checks.append('')

    def handle_data(self, data):
        if self.inside:
            self.checks[-1] += data

    def handle_endtag(self, tag):
        self.inside = False


def check_messages(text):
    parser = PageChecks()
    parser.feed(text)
    parser.close()
    return [message for checks in parser.checks for message in python_messages(checks)]


def module_messages(text, name):
    if CALL_WITHOUT_LITERAL.search(text):
        raise ValueError(f"{name}: t() takes its English text as a string literal, so that it can be found here")
    found = [(m.start(), ast.literal_eval(m.group(1))) for m in CALL.finditer(text)]
    found += [(m.start(), tuple(map(ast.literal_eval, m.groups()))) for m in PLURAL_CALL.finditer(text)]
    return [message for _, message in sorted(found)]


def python_messages(text):
    found = []
    for node in ast.walk(ast.parse(text)):
        if isinstance(node, ast.Call) and isinstance(node.func, ast.Name) and node.func.id in ('_', 'N_', 'ngettext'):
            texts = [arg.value for arg in node.args[:2] if isinstance(arg, ast.Constant) and isinstance(arg.value, str)]
            if node.func.id in ('_', 'N_') and texts:
                found.append((node.lineno, node.col_offset, texts[0]))
            elif len(texts) == 2:
                found.append((node.lineno, node.col_offset, tuple(texts)))
    return [message for *_, message in sorted(found, key=lambda item: item[:2])]


def sources():
    """(path, its messages) for each source file read, in a stable order."""
    for name in PAGES:
        path = WEB / name
        text = path.read_text(encoding='utf-8')
        yield path, page_messages(text) + check_messages(text)
    for path in sorted(WEB.rglob('*.js')):
        if not path.name.endswith('.bundle.js'):
            yield path, module_messages(path.read_text(encoding='utf-8'), path.relative_to(ROOT))
    for path in sorted((PY / 'playground-runtime' / 'playground_runtime').rglob('*.py')):
        yield path, python_messages(path.read_text(encoding='utf-8'))
    for path in sorted((PY / 'backprop-playground' / 'backprop_playground' / 'classroom').glob('*.py')):
        yield path, python_messages(path.read_text(encoding='utf-8'))


def template_entries():
    """Each message once, in order of first use, with the files that use it."""
    entries = {}
    for path, messages in sources():
        where = path.relative_to(ROOT).as_posix()
        for message in messages:
            one, many = message if isinstance(message, tuple) else (message, None)
            entry = entries.setdefault(one, Entry(one, plural=many))
            if where not in entry.references:
                entry.references.append(where)
            if PLACEHOLDER.search(one):
                entry.flags.add('python-brace-format')
    return list(entries.values())
