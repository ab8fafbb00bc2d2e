"""How many parts the longest dotted key of a TOML text has, found without parsing it.

Python's TOML parser (:mod:`tomllib`, ``tomli`` before 3.11) takes time and memory
quadratic in the parts of a dotted key (``x.x.x...``, a ``[table.header]`` too): it keeps
every prefix of the key. 16,000 parts, a 32 KB file, took 1.5 GB and seconds; 131,000, under
the 256 KiB a config file may have, was killed at 18 GB. Every command reads a checkout's
config (and its root ``pyproject.toml``, even one with no ``[tool.skillc]``), so the key is
measured before the parser sees the text: :func:`key_refusal`, in linear time, bounds each
key's parts and the sum over the file of those beyond the 4th (many keys each in bounds
added up to seconds).

The text is split into the tokens TOML has outside a value's own characters: strings (a
``"."`` inside one is no separator), comments, whitespace, ``.``, runs of the characters of a
bare key or a number or date, and punctuation. A run of parts (bare or quoted) joined by dots
is a key (or a float, ``1.5``: two parts). Where the text stops being TOML (a string that does
not end, a character no token has), the parser stops too, with an error, and never reads a key
past it: so does the count.
"""

from __future__ import annotations

import re

__all__ = ["MAX_DEEP_PARTS", "MAX_KEY_PARTS", "key_refusal"]

#: The most parts a key may have (``[tool.skillc.lint.per-file-ignores]`` has 4): at 32, a
#: hostile 256 KiB file of 32-part headers and keys parses in about 2 s (64: 4.4 s).
MAX_KEY_PARTS = 32

#: The parts a key may have without counting towards :data:`MAX_DEEP_PARTS`.
FREE_PARTS = 4
#: The most parts beyond the :data:`FREE_PARTS` th that the keys of a file may have in all:
#: a 230 KB file of ``[xN]`` tables, each with one key of 32 parts, parsed in 2 s.
MAX_DEEP_PARTS = 4096

#: A line holding :data:`MAX_KEY_PARTS` dots: without one (nearly every file), no key can be
#: too long (a key is on one line). At most that many tries per line, each to the line's end.
_MANY_DOTS = re.compile(rf"\.(?:[^.\n]*\.){{{MAX_KEY_PARTS - 1}}}")

_TOKEN = re.compile(
    r'(?P<string>"""(?:[^"\\]|\\[\s\S]|"{1,2}(?!"))*"{3,5}'  # multi-line: no key part
    r"|'''(?:[^']|'{1,2}(?!'))*'{3,5})"
    r"|(?P<unended>\"\"\"|''')"  # a multi-line string that never ends
    r"|(?P<space>[ \t]+)"
    r'|(?P<part>[A-Za-z0-9_+:-]+|"(?:[^"\\\n]|\\[^\n])*"|\'[^\'\n]*\')'
    r"|(?P<dot>\.)"
    r"|(?P<newline>\r?\n)"
    r"|(?P<other>\#[^\n]*|[=\[\]{},])"
)


def key_refusal(text: str) -> tuple[int, str] | None:
    """The line (from 1) of the first key in ``text`` of more than :data:`MAX_KEY_PARTS`
    parts, or of the key whose parts beyond the :data:`FREE_PARTS` th bring those of the
    file past :data:`MAX_DEEP_PARTS`, and why (``has a key of ...``); None when there is
    none (up to where ``text`` stops being TOML). A run of strings joined by dots in a value
    (``"a"."b"``, which no value is) counts as a key."""
    if text.count(".") <= MAX_DEEP_PARTS and _MANY_DOTS.search(text) is None:
        return None  # nearly every file: no key too long, nor enough dots for too many parts
    line = 1
    parts = 0
    deep = 0
    joined = False  # the last token but spaces was a dot
    pos = 0
    match = _TOKEN.match
    while (token := match(text, pos)) is not None:
        kind = token.lastgroup
        pos = token.end()
        if kind == "part":
            parts = parts + 1 if joined else 1
            if parts > MAX_KEY_PARTS:
                return line, f"has a key of more than {MAX_KEY_PARTS} parts"
            if parts > FREE_PARTS:
                deep += 1
                if deep > MAX_DEEP_PARTS:
                    return line, (
                        f"brings the dotted keys' parts beyond the {FREE_PARTS}th to more "
                        f"than {MAX_DEEP_PARTS:,} in all"
                    )
            joined = False
        elif kind == "dot":
            joined = True
        elif kind == "unended":
            break
        elif kind != "space":
            line += token.group().count("\n")
            parts = 0
            joined = False
    return None
