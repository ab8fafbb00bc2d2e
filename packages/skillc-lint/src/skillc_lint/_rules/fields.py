"""What the rules share: frontmatter lookups, type names and the semver pattern."""

from __future__ import annotations

import re
from collections.abc import Iterator, Mapping
from typing import Any

from skillc_index import type_name
from skillc_lint._registry import Finding
from skillc_lint._skill import Skill

__all__ = [
    "SEMVER",
    "Findings",
    "Options",
    "fenced_lines",
    "field_line",
    "frontmatter",
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
    every block is closed): the state :func:`fenced_lines` ends in, found on the lines that
    can change it alone (those holding three backticks or tildes)."""
    fence, opened = "", 0
    for number, line in enumerate(text.splitlines(), 1):
        if "```" in line or "~~~" in line:
            fence, opened = _fence_after(line, number, fence, opened)
    return opened


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
