"""What the rules share: frontmatter lookups, type names and the semver pattern."""

from __future__ import annotations

import bisect
import itertools
import re
import sys
from collections.abc import Iterator, Mapping, Sequence
from typing import Any, TypeAlias

from skillc_index import type_name
from skillc_lint._registry import Finding
from skillc_lint._skill import Skill

__all__ = [
    "SEMVER",
    "Findings",
    "Options",
    "Words",
    "any_of",
    "code_blocks",
    "code_blocks_of",
    "fenced_lines",
    "field_line",
    "frontmatter",
    "holds_line_of",
    "in_code",
    "lines_holding",
    "lowered_text",
    "open_fence",
    "type_name",
]

Options = Mapping[str, Any]
Findings = Iterator[Finding]

#: Semantic Versioning 2.0.0: MAJOR.MINOR.PATCH, optional -pre-release and +build.
SEMVER = re.compile(
    r"(0|[1-9]\d*)\.(0|[1-9]\d*)\.(0|[1-9]\d*)"
    r"(-[0-9A-Za-z-]+(\.[0-9A-Za-z-]+)*)?(\+[0-9A-Za-z-]+(\.[0-9A-Za-z-]+)*)?\Z"
)


def frontmatter(skill: Skill) -> dict[str, Any]:
    """SKILL.md's frontmatter, or ``{}`` when it is missing or invalid (SKL100 reports it)."""
    return skill.frontmatter or {}


def field_line(skill: Skill, key: str) -> int:
    """Line of a top-level frontmatter key, or 1 when it is absent."""
    return skill.skill_md.frontmatter.field_lines.get(key, 1)


_FENCE = re.compile(r"^ {0,3}(`{3,}|~{3,})")
#: A closing fence, at any indentation (one in a list item is indented with the item).
_CLOSING = re.compile(r"^\s*(`{3,}|~{3,})\s*$")


def open_fence(text: str, blocks: list[tuple[int, int, bool]] | None = None) -> int:
    """The line of the fence opening a code block still open at the end of ``text`` (0 when
    every block is closed): the state :func:`fenced_lines` ends in. ``blocks``: the text's
    :func:`code_blocks`, when known."""
    blocks = code_blocks(text) if blocks is None else blocks
    return blocks[-1][0] if blocks and blocks[-1][2] else 0


def code_blocks_of(skill: Skill, rel: str, text: str) -> list[tuple[int, int, bool]]:
    """:func:`code_blocks` of the file ``rel`` of ``skill`` (its ``text``), found once for
    the rules that ask (SKL524, SKL903)."""
    key = ("code_blocks", rel)
    found = skill.shared.get(key)
    if found is None:
        found = skill.shared[key] = code_blocks(text)
    return found


def lowered_text(skill: Skill, rel: str, text: str) -> str:
    """The lowercase of the file ``rel`` of ``skill`` (its ``text``), made once for the
    rules that look for words in it (SKL903, SKL905)."""
    key = ("lowered", rel)
    found = skill.shared.get(key)
    if found is None:
        found = skill.shared[key] = text.lower()
    return found


def code_blocks(text: str) -> list[tuple[int, int, bool]]:
    """The fenced code blocks of a Markdown text, in order, each as ``(opened, last, open)``:
    the line numbers (from 1) of its opening fence and of its last line (its closing fence,
    or the last line of the text when ``open``, left open). The lines from ``opened`` to
    ``last`` are those :func:`fenced_lines` puts inside the block, found on the lines that
    can change its state alone (those holding three backticks or tildes)."""
    blocks: list[tuple[int, int, bool]] = []
    fence, opened = "", 0
    for number, line in lines_holding(text, _FENCE_WORDS):
        before = opened
        fence, opened = _fence_after(line, number, fence, opened)
        if before and not opened:  # closed on this line
            blocks.append((before, number, False))
    if fence:
        blocks.append((opened, len(text.splitlines()), True))
    return blocks


#: The line breaks of ``str.splitlines`` other than ``\n``: a text holding none of them has
#: its lines between its ``\n``s.
_OTHER_BREAKS = ("\r", "\x0b", "\x0c", "\x1c", "\x1d", "\x1e", "\x85", "\u2028", "\u2029")


#: What :func:`lines_holding` looks for: words, or patterns of :func:`any_of`.
Words: TypeAlias = Sequence[str | re.Pattern[str]]


def any_of(words: tuple[str, ...], key: str) -> re.Pattern[str]:
    """A pattern matching where one of ``words`` is (each holding the character ``key``):
    at the word's first ``key``, the rest of the word around it checked there. One search
    of a text for it costs about one ``str.find`` (the regular expression engine looks for
    a literal first character fast), not one for each word."""
    parts = []
    for word in words:
        at = word.index(key)
        before = f"(?<={re.escape(word[: at + 1])})" if at else ""
        parts.append(before + re.escape(word[at + 1 :]))
    return re.compile(f"{re.escape(key)}(?:{'|'.join(parts)})")


#: What the fence lines hold (three backticks: a search for one, faster than ``str.find``).
_FENCE_WORDS: Words = (any_of(("```",), "`"), "~~~")


def _find(searched: str, word: str | re.Pattern[str], start: int) -> int:
    """Where ``word`` (a word, or a pattern of :func:`any_of`) is first found in
    ``searched`` from ``start``; -1 when it is not."""
    if isinstance(word, str):
        return searched.find(word, start)
    found = word.search(searched, start)
    return found.start() if found else -1


def lines_holding(text: str, words: Words, *, searched: str | None = None) -> list[tuple[int, str]]:
    """The lines of ``text`` (``splitlines()``, numbered from 1, in order) holding one of
    ``words`` (none holding a line break; a pattern of :func:`any_of` stands for its
    words); with ``searched`` (the text's lowercase), the lines whose lowercase holds one.
    Each word is looked for in the whole text (``str.find``, much faster than a test of
    every line), its line found around it. Lowercasing a text lowercases each line apart
    (no line break is the lowercase of a character), so the lines are those of a test of
    each line."""
    searched = text if searched is None else searched
    if len(searched) != len(text) or any(b in searched for b in _OTHER_BREAKS):
        return _lines_holding_split(text, words, searched)
    # the lines are between the "\n"s, at the same offsets in the text and its lowercase
    # (of the same length, each character lowercased to one)
    ends: dict[int, int] = {}  # where each line holding a word starts: where it ends
    for word in words:
        at = _find(searched, word, 0)
        while at >= 0:
            start = searched.rfind("\n", 0, at) + 1
            end = searched.find("\n", at)
            end = ends[start] = end if end >= 0 else len(searched)
            at = _find(searched, word, end)  # the next line holding the word
    found: list[tuple[int, str]] = []
    number, counted = 1, 0
    for start in sorted(ends):
        number += searched.count("\n", counted, start)
        counted = start
        found.append((number, text[start : ends[start]]))
    return found


def holds_line_of(text: str, width: int) -> bool:
    """Whether a line of ``text`` (``splitlines()``) is ``width`` characters long or longer:
    found by looking for the last line break of each ``width`` characters from a line's
    start (none: a line that long), without splitting the text."""
    if len(text) < width:
        return False
    if any(b in text for b in _OTHER_BREAKS):
        return max(map(len, text.splitlines())) >= width
    start = 0
    while start + width <= len(text):
        last = text.rfind("\n", start, start + width)
        if last < 0:
            return True
        start = last + 1  # the lines starting before it end before it: shorter
    return False


def _lines_holding_split(text: str, words: Words, searched: str) -> list[tuple[int, str]]:
    """:func:`lines_holding` of a text with other line breaks than ``\n`` (``\r\n``,
    ``\u2028``...) or whose lowercase is longer: each hit's line found among the lines'
    ends."""
    pieces: list[str] = []
    ends: list[int] = []
    numbers: set[int] = set()
    for word in words:
        at = _find(searched, word, 0)
        if at < 0:
            continue
        if not ends:  # where each line ends (its line break included)
            pieces = searched.splitlines(keepends=True)
            ends = list(itertools.accumulate(map(len, pieces)))
        while at >= 0:
            index = bisect.bisect_right(ends, at)
            numbers.add(index + 1)
            at = _find(searched, word, ends[index])  # the next line holding the word
    if not numbers:
        return []
    if searched is text:
        return [(n, pieces[n - 1].splitlines()[0]) for n in sorted(numbers)]
    lines = text.splitlines()
    if len(lines) != len(ends):  # cannot happen (see above); a test of each line if it did
        return [
            (n, line)
            for n, line in enumerate(lines, 1)
            if any(_find(line.lower(), w, 0) >= 0 for w in words)
        ]
    return [(n, lines[n - 1]) for n in sorted(numbers)]


def in_code(blocks: Sequence[tuple[int, int, bool]], number: int) -> bool:
    """Whether line ``number`` is inside one of the code ``blocks`` (:func:`code_blocks`)."""
    at = bisect.bisect_right(blocks, (number, sys.maxsize, True)) - 1
    return at >= 0 and blocks[at][1] >= number


def _fence_after(line: str, number: int, fence: str, opened: int) -> tuple[str, int]:
    """The open fence and its line after ``line`` (number ``number``), given those before it
    (``""``, 0: outside code blocks)."""
    if fence:
        closing = _CLOSING.match(line)
        if closing and closing.group(1)[0] == fence[0] and len(closing.group(1)) >= len(fence):
            return "", 0
        return fence, opened
    match = _FENCE.match(line)
    return (match.group(1), number) if match else ("", 0)


def fenced_lines(text: str) -> Iterator[tuple[int, str, int]]:
    """The lines of a Markdown text, numbered from 1, each with the line number of the fence
    that opened the code block holding it (0 outside code blocks; the fence lines themselves
    count as inside). A block left open runs to the end of the text. A fence closes at any
    indentation, as one in a list item does."""
    fence, opened = "", 0
    for number, line in enumerate(text.splitlines(), 1):
        if fence:  # a closing fence line is inside the block it closes
            yield number, line, opened
            fence, opened = _fence_after(line, number, fence, opened)
        else:
            fence, opened = _fence_after(line, number, fence, opened)
            yield number, line, opened
