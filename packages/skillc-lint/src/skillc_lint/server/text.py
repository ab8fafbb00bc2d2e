"""A document's text as the language server reads it: lines, positions, the frontmatter
around a position, the outline, and where on its line a finding is.

Lines end at ``\\n``, ``\\r\\n`` or a lone ``\\r``, as in LSP and in skillc
(:func:`skillc_index.split_lines`); positions here count code points (what skillc-lint's
columns count) and :class:`Lines` converts them to the client's units (UTF-16 unless the
client chose another encoding). No LSP library here.
"""

from __future__ import annotations

import re
from collections.abc import Callable
from dataclasses import dataclass, field
from typing import TYPE_CHECKING

from skillc_index import split_lines

if TYPE_CHECKING:
    from skillc_lint import LintDiagnostic

__all__ = [
    "Lines",
    "Section",
    "diagnostic_span",
    "frontmatter_lines",
    "key_on_line",
    "outline",
]

#: A top-level frontmatter key at the start of a line (what YAML reads as one).
_KEY = re.compile(r"([A-Za-z0-9_][A-Za-z0-9_.-]*)[ \t]*:(?:[ \t]|$)")
#: What closes the target a finding points at, by what opened it.
_CLOSERS = {"(": ")", "<": ">", "[": "]", '"': '"', "'": "'", "`": "`"}

Units = Callable[[str], int]
"""Code units of a string in the client's position encoding."""


def _code_points(text: str) -> int:
    return len(text)


class Lines:
    """The lines of a text (without their line breaks), and positions in client units.
    ``lead`` is what the client's text has before ``text`` (a BOM the server dropped, as
    the linter drops it from a file): counted in the client's positions on the first line."""

    def __init__(self, text: str, units: Units = _code_points, lead: str = "") -> None:
        self.lines = [line.rstrip("\r\n") for line in split_lines(text)]
        if not self.lines or text.endswith(("\n", "\r")):
            self.lines.append("")  # the empty line after the last break is a position too
        self.units = units
        self.lead = lead

    def __len__(self) -> int:
        return len(self.lines)

    def line(self, index: int) -> str:
        return self.lines[index] if 0 <= index < len(self.lines) else ""

    def to_client(self, line: int, character: int) -> tuple[int, int]:
        """A position in code points as the client counts it (clamped to the text)."""
        if line >= len(self.lines):
            line, character = len(self.lines) - 1, len(self.lines[-1])
        line = max(line, 0)
        before = self.lead if line == 0 else ""
        return line, self.units(before + self.lines[line][: max(character, 0)])

    def from_client(self, line: int, character: int) -> tuple[int, int]:
        """A client position in code points (clamped to the text)."""
        if line >= len(self.lines):
            return len(self.lines) - 1, len(self.lines[-1])
        if line <= 0:
            character -= self.units(self.lead)
        text, count = self.lines[max(line, 0)], 0
        for index, char in enumerate(text):
            if count >= character:
                return line, index
            count += self.units(char)
        return line, len(text)


def diagnostic_span(diagnostic: LintDiagnostic, lines: Lines) -> tuple[int, int, int, int]:
    """Where ``diagnostic`` is in the ``lines`` of its file: ``(line, start, end_line, end)``,
    0-based, in code points. A finding without a line covers the first line; one at its
    line's first non-blank character the rest of the line, and its fix's edits on that line
    (trailing whitespace removed); one inside a line (a link target, a token) what it points
    at: to the closer of the bracket or quote before it, else to the next blank. A fix's
    edit that starts where the finding points gives the end exactly."""
    if diagnostic.line is None:
        return 0, 0, 0, len(lines.line(0))
    index = diagnostic.line - 1
    line = lines.line(index)
    start = min(max((diagnostic.column or 1) - 1, 0), len(line))
    if diagnostic.fix is not None:
        for edit in diagnostic.fix.edits:
            if edit.line == diagnostic.line and edit.column - 1 == start:
                if edit.end_line == edit.line and edit.end_column - 1 > start:
                    return index, start, index, edit.end_column - 1
                break
    stripped = len(line) - len(line.lstrip())
    if start <= stripped:
        edits = diagnostic.fix.edits if diagnostic.fix is not None else ()
        fixed = [e.end_column - 1 for e in edits if e.line == e.end_line == diagnostic.line]
        return index, stripped, index, min(max(len(line.rstrip()), stripped, *fixed), len(line))
    closer = _CLOSERS.get(line[start - 1])
    end = start
    while end < len(line) and line[end] != closer and not (closer is None and line[end].isspace()):
        end += 1
    return index, start, index, max(end, start + 1) if start < len(line) else start


def frontmatter_lines(lines: Lines) -> range | None:
    """The 0-based lines inside the frontmatter (between the opening ``---`` and the
    closing one, or to the end of the text while it is not closed yet); None when the text
    does not start with ``---``."""
    if lines.line(0).rstrip() != "---":
        return None
    for index in range(1, len(lines)):
        if lines.line(index).rstrip() == "---":
            return range(1, index)
    return range(1, len(lines))


def key_on_line(lines: Lines, line: int) -> tuple[str, int, int] | None:
    """The top-level frontmatter key written on ``line``: ``(key, start, end)`` in code
    points; None when the line is not in the frontmatter or holds no key there."""
    inside = frontmatter_lines(lines)
    if inside is None or line not in inside:
        return None
    match = _KEY.match(lines.line(line))
    return (match.group(1), match.start(1), match.end(1)) if match else None


@dataclass
class Section:
    """A heading of the outline and the headings under it."""

    level: int
    title: str
    line: int
    """0-based line of the heading."""
    end_line: int
    """0-based line where the section ends (exclusive)."""
    children: list[Section] = field(default_factory=list)


def outline(text: str) -> list[Section]:
    """The headings of a Markdown text as a tree: each under the nearest heading before it
    of a higher level. The headings are skillc-index's (:func:`skillc_index.parse_markdown`,
    whose heading scanner the outline of ``skc outline`` uses too): none in code blocks or
    the frontmatter."""
    from skillc_index import parse_markdown

    doc = parse_markdown(text, links=False, metadata=False)
    roots: list[Section] = []
    stack: list[Section] = []
    for heading in doc.headings:
        section = Section(heading.level, heading.text, heading.line - 1, heading.end_line - 1)
        while stack and stack[-1].level >= section.level:
            stack.pop()
        (stack[-1].children if stack else roots).append(section)
        stack.append(section)
    return roots
