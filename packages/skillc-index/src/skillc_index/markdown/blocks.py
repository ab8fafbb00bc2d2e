"""The blocks of a Markdown body that hold what the lint reads, without markdown-it's block
parse, or None when this module cannot tell.

A skill's links, HTML and headings come from three kinds of markdown-it tokens: each inline
token (the text of a paragraph, a heading or a table cell, which the inline parse reads),
the ``heading_open`` before a heading's and each ``html_block``. Building every other token
of a body (list items, paragraphs' open and close, table rows...) is most of markdown-it's
work on a skill. :func:`scan_blocks` gives those three kinds alone, with markdown-it's
``type``, ``tag``, ``map`` and ``content``, from the line scanner that already finds the
headings (:mod:`~skillc_index.markdown.headings`, which follows our parser's block rules and
refuses what it does not follow: HTML blocks other than comments, link reference
definitions, tabs in block quotes, deep nesting, a NUL). The caller runs markdown-it's core
rules after ``block`` on them (the inline parse), so the inline tokens are markdown-it's
own; without reference definitions the inline parse needs nothing of the block parse.

``tests/test_markdown_blocks.py`` compares these tokens with markdown-it's on every ``.md``
file of the corpus and on generated bodies.
"""

from __future__ import annotations

import re
from typing import TYPE_CHECKING

from skillc_index.markdown.heading_text import TRIM, Unsure
from skillc_index.markdown.headings import _Scanner

if TYPE_CHECKING:
    from markdown_it.token import Token

__all__ = ["scan_blocks"]

#: What splits a table row into cells: a ``|`` without a backslash before it.
_CELL_BREAK = re.compile(r"(?<!\\)\|")


def scan_blocks(body: str) -> list[Token] | None:
    """markdown-it's ``heading_open``, ``inline`` and ``html_block`` tokens of ``body``
    (newlines normalized, no frontmatter), in order, the inline ones not parsed yet
    (``children`` empty); None when the body must be parsed by markdown-it (module
    docstring)."""
    if "\0" in body:  # markdown-it replaces it
        return None
    scanner = _BlockScanner(body)
    try:
        scanner.run()
    except Unsure:
        return None
    return scanner.tokens


def _cells(row: str) -> list[str]:
    """A table row's cells, as the table rule splits them: at each ``|`` not escaped
    (``\\|`` stands for a ``|`` in a cell), without an empty first or last one."""
    cells = [cell.replace("\\|", "|") for cell in _CELL_BREAK.split(row)]
    if cells and not cells[0]:
        cells.pop(0)
    if cells and not cells[-1]:
        cells.pop()
    return cells


class _BlockScanner(_Scanner):
    """The headings scanner keeping each block's tokens (:func:`scan_blocks`)."""

    def __init__(self, src: str) -> None:
        from markdown_it.token import Token

        super().__init__(src)
        self.tokens: list[Token] = []
        self._token = Token

    def _inline(self, content: str, start: int, end: int) -> None:
        token = self._token("inline", "", 0, map=[start, end], content=content, children=[])
        self.tokens.append(token)

    def heading_found(
        self, level: int, content: str, start: int, end: int, *, underline: bool = False
    ) -> None:
        self.tokens.append(self._token("heading_open", f"h{level}", 1, map=[start, end]))
        self._inline(content, start, end - 1 if underline else end)

    def paragraph_found(self, start: int, end: int) -> None:
        self._inline(self.text_lines(start, end, self.blk).strip(TRIM), start, end)

    def table_found(self, start: int, end: int) -> None:
        src, first, ends = self.src, self.first, self.ends
        header = _cells(src[first(start) : ends[start]].strip(TRIM))
        for cell in header:
            self._inline(cell.strip(TRIM), start, start + 1)
        for line in range(start + 2, end):
            row = _cells(src[first(line) : ends[line]].strip(TRIM))
            for index in range(len(header)):
                cell = row[index] if index < len(row) else ""
                self._inline(cell.strip(TRIM) if cell else "", line, line + 1)

    def comment_found(self, start: int, end: int) -> None:
        content = self.text_lines(start, end, self.blk, keep_last=True)
        self.tokens.append(self._token("html_block", "", 0, map=[start, end], content=content))
