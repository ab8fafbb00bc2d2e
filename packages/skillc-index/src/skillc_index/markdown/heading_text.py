"""The text of a heading from its inline source, as markdown-it's inline parse gives it, for
the headings scanner (:mod:`~skillc_index.markdown.headings`, which follows the block rules):
code spans, line breaks, backslash escapes, and the ``[``, ``<``, ``&``, ``*`` and ``_`` that
start no markup; :class:`Unsure` on inline markup it does not decide (a link, an autolink or
HTML, an entity, emphasis other than one plain pair), and the file is then parsed by
markdown-it. The character classes both halves of the scanner use are here too.
"""

from __future__ import annotations

__all__ = ["SPACES", "TRIM", "Unsure", "heading_text"]

# What CommonMark trims (markdown-it's ``mdTrim``): JavaScript's ``trim`` without U+FEFF.
TRIM = (
    "\t\n\x0b\x0c\r \xa0\u1680"
    + "".join(map(chr, range(0x2000, 0x200B)))
    + ("\u2028\u2029\u202f\u205f\u3000")
)
#: Blanks of a line's indentation.
SPACES = frozenset(" \t")
_WORD = frozenset("abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789")
# What a backslash escapes (ASCII punctuation); before any other character it is text.
_ESCAPABLE = frozenset("!\"#$%&'()*+,-./:;<=>?@[\\]^_`{|}~")
_INLINE_SPECIAL = frozenset("\\&<[*_`\n")


class Unsure(Exception):
    """The body holds a construct the scanner does not follow: markdown-it must parse it."""


def heading_text(content: str) -> str:
    """The text :func:`~skillc_index.markdown.document.parse_markdown` gives a heading
    whose inline source is ``content`` ("" for none): the plain text of its inline parse
    (code spans' content, line breaks as spaces), else the source. Raises :class:`Unsure`
    on inline markup the scanner does not follow (module docstring)."""
    plain = content if _INLINE_SPECIAL.isdisjoint(content) else _plain_text(content)
    return plain.strip() or " ".join(line.strip() for line in content.split("\n")).strip()


def _plain_text(content: str) -> str:
    """The plain text of inline ``content`` (markdown-it's inline rules where they decide
    it): code spans, line breaks, backslash escapes, ``[``, ``<`` and ``&`` that start no
    link, autolink, HTML or entity (no ``](``, ``>`` or ``;`` after them), ``_`` and ``*``
    that cannot be emphasis (:func:`_emphasis`) or one plain ``*``/``**``/``***`` pair;
    raises :class:`Unsure` on other markup."""
    parts: list[str] = []
    pending = ""  # text since the last token, as markdown-it's ``pending``
    length = len(content)
    dropped = _emphasis(content)
    no_links = "](" not in content  # no ``[`` opens a link (no reference is defined)
    pos = 0
    while pos < length:
        char = content[pos]
        if char == "`":
            run_end = pos
            while run_end < length and content[run_end] == "`":
                run_end += 1
            run = run_end - pos
            closer = -1
            search = run_end
            while True:
                found = content.find("`", search)
                if found < 0:
                    break
                found_end = found
                while found_end < length and content[found_end] == "`":
                    found_end += 1
                if found_end - found == run:
                    closer = found
                    break
                search = found_end
            if closer < 0:  # no closing run: the backticks are text
                pending += content[pos:run_end]
                pos = run_end
                continue
            parts.append(pending)
            pending = ""
            code = content[run_end:closer].replace("\n", " ")
            if code.startswith(" ") and code.endswith(" ") and code.strip():
                code = code[1:-1]
            parts.append(code)
            pos = closer + run
        elif char == "\n":
            if pending.endswith("  "):
                pending = pending.rstrip(" ")  # a hard break
            elif pending.endswith(" "):
                pending = pending[:-1]
            parts.append(pending)
            parts.append(" ")
            pending = ""
            pos += 1
            while pos < length and content[pos] in SPACES:
                pos += 1
        elif char == "\\":
            following = content[pos + 1 : pos + 2]
            if following == "\n":
                raise Unsure  # a hard break
            if following in _ESCAPABLE and following:
                pending += following
                pos += 2
            else:  # before another character or at the end: text (with what follows)
                pending += content[pos : pos + 2]
                pos += 2
        elif char == "*" or char == "_":
            run_end = pos
            while run_end < length and content[run_end] == char:
                run_end += 1
            if dropped is None:
                raise Unsure
            if pos in dropped:  # an emphasis pair's delimiter: no text
                parts.append(pending)
                pending = ""
            else:
                pending += content[pos:run_end]
            pos = run_end
        elif (
            (char == "[" and no_links)
            or (char == "<" and ">" not in content[pos:])
            or (char == "&" and ";" not in content[pos:])
        ):
            pending += char
            pos += 1
        elif char in "[<&":
            raise Unsure
        else:
            pending += char
            pos += 1
    parts.append(pending)
    return "".join(parts)


def _runs(content: str, char: str) -> list[tuple[int, int]]:
    """The runs of ``char`` in ``content``: ``(start, end)``."""
    runs: list[tuple[int, int]] = []
    pos = content.find(char)
    while pos >= 0:
        end = pos
        while end < len(content) and content[end] == char:
            end += 1
        runs.append((pos, end))
        pos = content.find(char, end)
    return runs


def _blank(char: str) -> bool:
    """Whether ``char`` may count as white space for emphasis ("" is the edge of the text)."""
    return not char or char in TRIM or char.isspace()


def _emphasis(content: str) -> frozenset[int] | None:
    """Where the ``*`` and ``_`` runs of ``content`` that are emphasis delimiters start (an
    empty set: none is), or None when the scanner cannot tell.

    A run matches only another run of its character: a character with one run (``_`` runs
    between two letters or digits not counted: they neither open nor close) makes none.
    Two ``*`` runs of the same length (at most 3) make a pair when the first follows the
    start or a space and precedes no blank, and the second follows no blank and precedes
    the end or a space (the first only opens, the second only closes), with no backtick or
    backslash in ``content`` (a code span or an escape could take a ``*``)."""
    dropped: set[int] = set()
    underscores = [
        (start, end)
        for start, end in _runs(content, "_")
        if not (
            start > 0
            and end < len(content)
            and content[start - 1] in _WORD
            and content[end] in _WORD
        )
    ]
    if len(underscores) > 1:
        return None
    stars = _runs(content, "*")
    if len(stars) == 2:
        (first, first_end), (second, second_end) = stars
        if (
            "`" in content
            or "\\" in content
            or first_end - first != second_end - second
            or first_end - first > 3
            or (first > 0 and content[first - 1] != " ")
            or _blank(content[first_end : first_end + 1])
            or _blank(content[second - 1 : second])
            or (second_end < len(content) and content[second_end] != " ")
        ):
            return None
        dropped.update((first, second))
    elif len(stars) > 2:
        return None
    return frozenset(dropped)
