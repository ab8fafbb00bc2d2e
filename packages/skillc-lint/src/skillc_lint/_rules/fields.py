"""What the rules share: frontmatter lookups, type names and the semver pattern."""

from __future__ import annotations

import bisect
import re
import sys
from collections.abc import Iterator, Mapping, Sequence
from typing import Any

from skillc_index import type_name
from skillc_lint._registry import Finding
from skillc_lint._skill import Skill

__all__ = [
    "SEMVER",
    "Findings",
    "Options",
    "code_blocks",
    "fenced_lines",
    "field_line",
    "frontmatter",
    "in_code",
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


def open_fence(text: str) -> int:
    """The line of the fence opening a code block still open at the end of ``text`` (0 when
    every block is closed): the state :func:`fenced_lines` ends in."""
    blocks = code_blocks(text.splitlines())
    return blocks[-1][0] if blocks and blocks[-1][2] else 0


def code_blocks(lines: Sequence[str]) -> list[tuple[int, int, bool]]:
    """The fenced code blocks of a Markdown text's ``lines`` (its ``splitlines()``), in
    order, each as ``(opened, last, open)``: the line numbers (from 1) of its opening fence
    and of its last line (its closing fence, or the last line of the text when ``open``, left
    open). The lines from ``opened`` to ``last`` are those :func:`fenced_lines` puts inside
    the block, found on the lines that can change its state alone (those holding three
    backticks or tildes)."""
    blocks: list[tuple[int, int, bool]] = []
    fence, opened = "", 0
    for number, line in enumerate(lines, 1):
        if "```" not in line and "~~~" not in line:
            continue
        if fence:
            closing = _CLOSING.match(line)
            if closing and closing.group(1)[0] == fence[0] and len(closing.group(1)) >= len(fence):
                blocks.append((opened, number, False))
                fence, opened = "", 0
            continue
        match = _FENCE.match(line)
        if match:
            fence, opened = match.group(1), number
    if fence:
        blocks.append((opened, len(lines), True))
    return blocks


def in_code(blocks: Sequence[tuple[int, int, bool]], number: int) -> bool:
    """Whether line ``number`` is inside one of the code ``blocks`` (:func:`code_blocks`)."""
    at = bisect.bisect_right(blocks, (number, sys.maxsize, True)) - 1
    return at >= 0 and blocks[at][1] >= number


def fenced_lines(text: str) -> Iterator[tuple[int, str, int]]:
    """The lines of a Markdown text, numbered from 1, each with the line number of the fence
    that opened the code block holding it (0 outside code blocks; the fence lines themselves
    count as inside). A block left open runs to the end of the text. A fence closes at any
    indentation, as one in a list item does."""
    fence, opened = "", 0
    for number, line in enumerate(text.splitlines(), 1):
        if fence:
            yield number, line, opened
            closing = _CLOSING.match(line)
            if closing and closing.group(1)[0] == fence[0] and len(closing.group(1)) >= len(fence):
                fence, opened = "", 0
            continue
        match = _FENCE.match(line)
        if match:
            fence, opened = match.group(1), number
            yield number, line, opened
            continue
        yield number, line, 0
