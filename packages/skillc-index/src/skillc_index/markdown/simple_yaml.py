"""Frontmatter blocks read without PyYAML: the shapes most skills use.

Most skills' frontmatter is a few keys of strings, booleans, versions, ``|``/``>`` text and
short lists or mappings (98% of 11,509 public ``SKILL.md`` blocks), and importing PyYAML alone
costs more than the rest of ``skc list``. :func:`simple_mapping` reads such a block and
accepts only lines whose YAML meaning is unambiguous, the same to YAML 1.1 and 1.2 (but for a
date); anything else returns None and :mod:`~skillc_index.markdown.frontmatter` hands the block
to PyYAML. Both give the same data: tests compare them over the corpus and generated blocks,
against both of PyYAML's loaders and the YAML 1.2 reader.
"""

from __future__ import annotations

import re
from datetime import date
from typing import Any

#: A frontmatter's key lines: ``"metadata"``, ``("metadata", "version")`` -> file line.
FieldLines = dict[str | tuple[str, str], int]

# ``key:`` at column 0, then the rest of the line (the value, possibly empty).
_SIMPLE_LINE = re.compile(r"([A-Za-z_][A-Za-z0-9_-]*):(?:[ ]+(.*))?\Z")
# Plain words YAML 1.1 reads as booleans or null (any case, to stay on the safe side).
_NOT_STRINGS = frozenset({"yes", "no", "y", "n", "true", "false", "on", "off", "null", "~"})
# Characters a plain scalar may start with and still be a string for certain.
_PLAIN_START_EXTRA = frozenset("_/($")
#: Plain words YAML 1.1 and 1.2 both read as these booleans.
_BOOLEANS = {"true": True, "True": True, "TRUE": True}
_BOOLEANS |= {"false": False, "False": False, "FALSE": False}
#: A version of three numbers or more (``1.0.0``): a string to YAML 1.1 and 1.2 alike (no
#: number, date or sexagesimal has two dots).
_VERSION = re.compile(r"[0-9]+(?:\.[0-9]+){2,}\Z")
#: A decimal integer without a leading zero, or with a fraction: the same number to YAML 1.1
#: and 1.2 (``012`` is 10 to one, 12 to the other). At most 18 digits before the point:
#: Python's ``int`` refuses more than 4,300 (PyYAML says so, an SKL100 problem).
_NUMBER = re.compile(r"(?:0|[1-9][0-9]{0,17})(\.[0-9]+)?\Z")
#: A date: YAML 1.1 reads it as one, 1.2 as a string; a block where one may be keeps its text
#: for :func:`~skillc_index.markdown.frontmatter.as_yaml_12`
#: (:attr:`~skillc_index.markdown.frontmatter.Frontmatter.yaml`).
_DATE = re.compile(r"([0-9]{4})-([0-9]{2})-([0-9]{2})")
#: The escapes of a double-quoted string the fast path reads, and what each stands for.
_ESCAPES = {'"': '"', "\\": "\\", "/": "/", "n": "\n", "t": "\t"}
_ESCAPE = re.compile(r"\\(.?)")
#: Levels of mappings under a top-level key the fast path reads.
NESTED_LEVELS = 3
#: The headers of the block scalars the fast path reads (no indent or ``+`` indicator).
_BLOCK_HEADERS = ("|", "|-", ">", ">-")


def _simple_value(raw: str, *, flow: bool = False) -> tuple[bool, Any]:
    """``(True, value)`` when ``raw`` is certainly the YAML scalar ``value`` (a string, a
    boolean, a number, null: the same in YAML 1.1 and 1.2; or a date); else ``(False,
    None)``: PyYAML must read it. ``flow``: an item of a ``[...]`` list (no brackets or
    braces in it; its commas were split on)."""
    value = raw.rstrip(" ")
    if not value:
        return (not flow), None  # ``key:`` alone is null
    if value in _BOOLEANS:
        return True, _BOOLEANS[value]
    if value[0].isdigit():
        return _digits(value)
    if not value.isprintable():
        return False, None
    if value[0] in "\"'":
        text = _unquoted(value)
        return text is not None, text
    if not (value[0].isalpha() or value[0] in _PLAIN_START_EXTRA):
        return False, None
    if _ends_plain(value) or value.lower() in _NOT_STRINGS:
        return False, None
    if flow and any(char in value for char in "[]{}"):
        return False, None
    return True, value


def _unquoted(value: str) -> str | None:
    """The text of a quoted scalar on one line: ``''`` is ``'`` in single quotes, the
    escapes of :data:`_ESCAPES` are theirs in double ones; None for anything else (another
    escape, its quote inside, no closing quote)."""
    quote, inner = value[0], value[1:-1]
    if len(value) < 2 or value[-1] != quote:
        return None
    if quote == "'":
        return None if "'" in inner.replace("''", "") else inner.replace("''", "'")
    if "\\" not in inner:  # most: no escape
        return None if '"' in inner else inner
    parts = _ESCAPE.split(inner)
    texts, codes = parts[::2], parts[1::2]
    if any('"' in text for text in texts) or any(code not in _ESCAPES for code in codes):
        return None
    return texts[0] + "".join(_ESCAPES[c] + t for c, t in zip(codes, texts[1:], strict=True))


def _digits(value: str) -> tuple[bool, str | int | float | date | None]:
    """A plain scalar that starts with a digit, when it is a version, a number or a date
    (:data:`_VERSION`, :data:`_NUMBER`, :data:`_DATE`), as PyYAML reads it."""
    if _VERSION.match(value):
        return True, value
    number = _NUMBER.match(value)
    if number:
        return True, float(value) if number.group(1) else int(value)
    day = _DATE.fullmatch(value)
    if day:
        try:
            return True, date(*map(int, day.groups()))
        except ValueError:  # 2024-02-30: PyYAML says why
            return False, None
    return False, None


def _simple_item(raw: str) -> tuple[bool, Any]:
    """A value on its key's line: a scalar (:func:`_simple_value`) or a one-line list of
    them, ``[a, "b c"]``."""
    value = raw.strip(" ")
    if not value.startswith("["):
        return _simple_value(value)
    if not value.endswith("]"):
        return False, None
    inner = value[1:-1]
    if not inner.strip(" "):
        return True, []
    items = [_simple_value(item.strip(" "), flow=True) for item in inner.split(",")]
    if not all(ok for ok, _ in items):
        return False, None
    return True, [item for _, item in items]


def _indent(line: str) -> int:
    return len(line) - len(line.lstrip(" "))


def _block_scalar(header: str, lines: list[str]) -> str | None:
    """The ``|``, ``|-``, ``>`` or ``>-`` scalar of ``lines`` (those after its key, every one
    indented or blank); None when PyYAML must read it: no text, a first line blank, a line
    less indented than the first or with a tab after the indent, a line of spaces longer
    than the indent (text to YAML), a folded line more indented than the first (it folds
    otherwise)."""
    if not lines or not lines[0].strip(" "):
        return None
    width = _indent(lines[0])
    folded = header[0] == ">"
    texts: list[str] = []
    for line in lines:
        text = line[width:]
        if line.strip(" "):
            # less indented than the first line, a tab after the indent (libyaml refuses it),
            # or a folded line more indented (kept as it is)
            misplaced = _indent(line) < width or text[0] in (" \t" if folded else "\t")
            if misplaced or not text.replace("\t", " ").isprintable():
                return None
        elif text:  # spaces past the indent: text to YAML
            return None
        texts.append(text)
    while not texts[-1]:
        texts.pop()  # trailing blank lines: clipped or stripped, they leave no text
    value = _fold(texts) if folded else "\n".join(texts)
    return value if header.endswith("-") else value + "\n"


def _nested(lines: list[str], level: int = 1) -> tuple[bool, Any]:
    """The value of a key alone on its line, from the lines under it (indented, or ``-``
    items at its own indent): null when there are none, a list of ``- value`` items at one
    indent, or a mapping of ``key: value`` lines at one indent, where a key alone owns the
    lines under it in turn (down to :data:`NESTED_LEVELS`); each value simple; else
    ``(False, None)``."""
    entries = [line for line in lines if line.lstrip(" ")[:1] not in ("", "#")]
    if not entries:
        return True, None
    width = _indent(entries[0])
    if entries[0][width:] == "-" or entries[0].startswith("- ", width):
        values: list[Any] = []
        for line in entries:
            item = line[width:]
            ok, value = (True, None) if item == "-" else _simple_item(item[2:])
            if not (ok and _indent(line) == width and (item == "-" or item.startswith("- "))):
                return False, None
            values.append(value)
        return True, values
    mapping: dict[str, Any] = {}
    index = 0
    while index < len(entries):
        line = entries[index]
        index += 1
        match = _SIMPLE_LINE.match(line, width)
        if _indent(line) != width or match is None or match.group(1).lower() in _NOT_STRINGS:
            return False, None
        under = index  # a key alone: the lines deeper than it, or its ``-`` items
        while not match.group(2) and under < len(entries):
            deeper = _indent(entries[under]) > width
            if not (
                deeper or entries[under][width:] == "-" or entries[under].startswith("- ", width)
            ):
                break
            under += 1
        if under == index:
            ok, value = _simple_item(match.group(2) or "")
        elif level < NESTED_LEVELS:
            ok, value = _nested(entries[index:under], level + 1)
        else:
            ok = False
        if not ok or match.group(1) in mapping:  # a key written again: PyYAML's reading tells
            return False, None
        mapping[match.group(1)] = value
        index = under
    return True, mapping


def _fold(texts: list[str], end: str | None = None) -> str:
    """Lines (``""``: a blank one) as YAML folds them: a line break between two lines is a
    space, n blank lines between them are n line breaks; blank lines at the end are nothing,
    but before ``end``: the text of a last line (a quoted string's closing one, even empty)."""
    value, blanks = texts[0], 0
    for text in texts[1:]:
        if not text:
            blanks += 1
            continue
        value += ("\n" * blanks if blanks else " ") + text
        blanks = 0
    if end is not None:
        value += ("\n" * blanks if blanks else " ") + end
    return value


def _continued(first: str, lines: list[str]) -> str | None:
    """A plain scalar that goes on over the indented ``lines`` after its key's: its lines
    joined as YAML folds them (a line break is a space, n blank lines are n line breaks);
    None when a line could end it or be anything but text: a comment, ``: `` or `` #`` in
    it, a ``:`` at its end, a tab."""
    texts = [line.strip(" ") for line in lines]
    for text in texts:
        if text and (text[0] == "#" or _ends_plain(text) or not text.isprintable()):
            return None
    return _fold([first, *texts])


def _ends_plain(text: str) -> bool:
    """Whether a plain scalar's line holds what ends it: ``: `` (a key), `` #`` (a comment),
    or a ``:`` at its end."""
    return ": " in text or " #" in text or text.endswith(":")


def _quoted(first: str, lines: list[str]) -> str | None:
    """A quoted string that goes on over the indented ``lines`` after its key's and closes
    at the end of the last, folded as plain text is; None when PyYAML must read it: an
    escape (``\\``, ``''``), its quote inside, a tab, a first line with no text."""
    quote = first[0]
    texts = [first[1:]] + [line.strip(" ") for line in lines]
    while not texts[-1]:
        texts.pop()  # blank lines after it
    if len(texts) < 2 or not texts[-1].endswith(quote):
        return None
    end = texts.pop()[:-1]
    joined = "".join(texts) + end
    if not texts[0] or quote in joined or "\\" in joined or not joined.isprintable():
        return None
    return _fold(texts, end)


def simple_mapping(source: str) -> tuple[dict[str, Any], FieldLines] | None:
    """The block as data and key lines when it is a mapping of the shapes most skills use
    (below); ``None`` when PyYAML must decide. Every line is blank, a comment, or a
    ``key: value`` at column 0 whose value is

    - a scalar PyYAML certainly reads so (:func:`_simple_value`: a string, a boolean, a
      number, a date, null), or a one-line list of them (:func:`_simple_item`); plain or
      quoted text going on over indented lines (:func:`_continued`, :func:`_quoted`);
    - a ``|``, ``|-``, ``>`` or ``>-`` scalar over the indented lines under it
      (:func:`_block_scalar`);
    - nothing, with under it a list of such scalars (``- value`` lines) or a mapping of
      ``key: value`` lines of such values or of lists and mappings in turn, each at one
      indent (:func:`_nested`, :data:`NESTED_LEVELS` levels).

    Each of these but a date reads the same in YAML 1.1 and 1.2 (a block where a date may be
    keeps its text for :func:`~skillc_index.markdown.frontmatter.as_yaml_12`); tests compare
    this with PyYAML's loaders and the 1.2 reader over the corpus and generated blocks."""
    data: dict[str, Any] = {}
    keys: FieldLines = {}
    lines = source.split("\n")
    if "\r" in source:
        lines = [line.rstrip("\r") for line in lines]
    index = 0
    while index < len(lines):
        line, number = lines[index], index + 2  # the block starts on file line 2
        index += 1
        if not line.strip(" ") or line.startswith("#"):
            continue
        match = _SIMPLE_LINE.match(line)
        if match is None or match.group(1).lower() in _NOT_STRINGS:
            return None
        raw = (match.group(2) or "").rstrip(" ")
        under = index  # the lines that belong to this key: indented or blank ones
        while under < len(lines) and lines[under][:1] in ("", " "):
            under += 1
        if not raw:  # a list at column 0 belongs to it too
            while under < len(lines) and (lines[under] == "-" or lines[under].startswith("- ")):
                under += 1
        block, index = lines[index:under], under
        ok, value = False, None
        if raw in _BLOCK_HEADERS:
            value = _block_scalar(raw, block)
            ok = value is not None
        elif not raw:
            ok, value = _nested(block)
            if isinstance(value, dict):  # its keys' lines: at the indent of its first key
                width = _indent(next(t for t in block if t.lstrip(" ")[:1] not in ("", "#")))
                for at, text in enumerate(block):
                    inner = _SIMPLE_LINE.match(text, width) if _indent(text) == width else None
                    if inner is not None:
                        keys[match.group(1), inner.group(1)] = number + 1 + at
        elif not any(text.strip(" ") for text in block):
            ok, value = _simple_item(raw)
        elif _simple_value(raw) == (True, raw):  # plain text going on under its key
            value = _continued(raw, block)
            ok = value is not None
        elif raw[0] in "\"'":  # a quoted string going on under its key
            value = _quoted(raw, block)
            ok = value is not None
        if not ok or match.group(1) in keys:  # a key written again: PyYAML's reading tells
            return None
        data[match.group(1)] = value
        keys[match.group(1)] = number
    return (data, keys) if data else None
