"""A gettext catalogue's entries, read from and written to the .po format (msgid, msgstr, #: references,
#, flags): what Poedit, Weblate and msgfmt read. Plural entries are not used yet, and refused."""

import re
from dataclasses import dataclass, field

ESCAPES = {'\\': '\\\\', '"': '\\"', '\n': '\\n', '\t': '\\t'}
UNESCAPE = re.compile(r'\\(.)')
UNESCAPED = {'n': '\n', 't': '\t', '"': '"', '\\': '\\'}
KEYWORD = re.compile(r'^(msgid|msgstr)\s+"(.*)"$')
CONTINUATION = re.compile(r'^"(.*)"$')


@dataclass
class Entry:
    msgid: str
    msgstr: str = ''
    references: list = field(default_factory=list)
    flags: set = field(default_factory=set)


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
            key, value = found.groups()
            if key == 'msgid':
                entries.append(comments)
                comments = Entry('')
            setattr(entries[-1], key, unquoted(value))
        elif (found := CONTINUATION.match(line)) and key:
            setattr(entries[-1], key, getattr(entries[-1], key) + unquoted(found.group(1)))
        else:
            raise ValueError(
                f"line {number} is not one this reader knows (plural forms and contexts are not used yet): {raw!r}"
            )
    header = {}
    if entries and entries[0].msgid == '':
        header = dict(line.split(': ', 1) for line in entries.pop(0).msgstr.splitlines() if ': ' in line)
    return header, entries


def write(header, entries):
    """The .po text of `header` (field -> value, in order) and `entries`."""
    lines = ['msgid ""', 'msgstr ""', *(quoted(f"{name}: {value}\n") for name, value in header.items()), '']
    for entry in entries:
        lines += [f"#: {ref}" for ref in entry.references]
        if entry.flags:
            lines.append('#, ' + ', '.join(sorted(entry.flags)))
        lines += [f"msgid {quoted(entry.msgid)}", f"msgstr {quoted(entry.msgstr)}", '']
    return '\n'.join(lines)
