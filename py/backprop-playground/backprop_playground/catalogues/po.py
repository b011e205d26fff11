"""A gettext catalogue's entries, read from and written to the .po format (msgid, msgid_plural, msgstr or
msgstr[N], #: references, #, flags): what Poedit, Weblate and msgfmt read. Contexts (msgctxt) are not used."""

import re
from dataclasses import dataclass, field

ESCAPES = {'\\': '\\\\', '"': '\\"', '\n': '\\n', '\t': '\\t'}
UNESCAPE = re.compile(r'\\(.)')
UNESCAPED = {'n': '\n', 't': '\t', '"': '"', '\\': '\\'}
KEYWORD = re.compile(r'^(msgid|msgid_plural|msgstr|msgstr\[\d+\])\s+"(.*)"$')
CONTINUATION = re.compile(r'^"(.*)"$')


@dataclass
class Entry:
    msgid: str
    msgstr: str = ''  # a plural entry's: its forms, a list
    references: list = field(default_factory=list)
    flags: set = field(default_factory=set)
    plural: str | None = None  # msgid_plural

    def translated(self):
        forms = self.msgstr if self.plural is not None else [self.msgstr]
        return bool(forms) and all(forms) and 'fuzzy' not in self.flags


def quoted(text):
    return '"' + ''.join(ESCAPES.get(c, c) for c in text) + '"'


def unquoted(text):
    return UNESCAPE.sub(lambda m: UNESCAPED.get(m.group(1), m.group(1)), text)


def read(text):
    """(header, [Entry]): the header entry's fields as a dict, then every other entry in file order."""
    entries, comments, key = [], Entry(''), None
    for number, raw in enumerate(text.splitlines(), 1):
        line = raw.strip()
        if line.startswith('#:'):
            comments.references += line[2:].split()
        elif line.startswith('#,'):
            comments.flags |= {flag.strip() for flag in line[2:].split(',')}
        elif line.startswith('#') or not line:
            continue
        elif found := KEYWORD.match(line):
            name, value = found.groups()
            if name == 'msgid':
                entries.append(comments)
                comments = Entry('')
            if name == 'msgid_plural':
                entries[-1].msgstr, key = [], 'plural'
            elif name.startswith('msgstr['):
                key = int(name[7:-1])
                entries[-1].msgstr[key:] = ['']
            else:
                key = name
            add(entries[-1], key, unquoted(value), start=True)
        elif (found := CONTINUATION.match(line)) and key is not None:
            add(entries[-1], key, unquoted(found.group(1)))
        else:
            raise ValueError(f"line {number} is not one this reader knows (contexts, msgctxt, are not used): {raw!r}")
    header = {}
    if entries and entries[0].msgid == '':
        header = dict(line.split(': ', 1) for line in entries.pop(0).msgstr.splitlines() if ': ' in line)
    return header, entries


def add(entry, key, text, start=False):
    """Appends `text` to the entry's field `key` (a plural form's index for msgstr[N]); `start`: sets it."""
    if isinstance(key, int):
        entry.msgstr[key] = text if start else entry.msgstr[key] + text
    else:
        setattr(entry, key, text if start else getattr(entry, key) + text)


def write(header, entries):
    """The .po text of `header` (field -> value, in order) and `entries`."""
    lines = ['msgid ""', 'msgstr ""', *(quoted(f"{name}: {value}\n") for name, value in header.items()), '']
    for entry in entries:
        lines += [f"#: {ref}" for ref in entry.references]
        if entry.flags:
            lines.append('#, ' + ', '.join(sorted(entry.flags)))
        lines.append(f"msgid {quoted(entry.msgid)}")
        if entry.plural is None:
            lines.append(f"msgstr {quoted(entry.msgstr)}")
        else:
            lines.append(f"msgid_plural {quoted(entry.plural)}")
            lines += [f"msgstr[{i}] {quoted(form)}" for i, form in enumerate(entry.msgstr or ['', ''])]
        lines.append('')
    return '\n'.join(lines)
