"""The blocks of a Markdown body that hold what the lint reads, without markdown-it's block
parse, or None when this module cannot tell.

A skill's links, HTML and headings come from three kinds of markdown-it tokens: each inline
token (the text of a paragraph, a heading or a table cell, which the inline parse reads),
the ``heading_open`` before a heading's and each ``html_block``. Building every other token
of a body (list items, paragraphs' open and close, table rows...) is most of markdown-it's
work on a skill. :func:`scan_blocks` gives those three kinds alone, with markdown-it's
``type``, ``tag``, ``map`` and ``content``, from the line scanner that already finds the
headings (:mod:`~skillc_index.markdown.headings`, which follows our parser's block rules and
refuses what it does not follow: link reference definitions, tabs in block quotes, deep
nesting, a NUL). The caller runs markdown-it's core
rules after ``block`` on them (the inline parse), so the inline tokens are markdown-it's
own; without reference definitions the inline parse needs nothing of the block parse.

``tests/test_markdown_blocks.py`` compares these tokens with markdown-it's on every ``.md``
file of the corpus and on generated bodies.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Protocol

from skillc_index.markdown.block_state import table_cells
from skillc_index.markdown.heading_text import TRIM, Unsure
from skillc_index.markdown.headings import _Scanner

if TYPE_CHECKING:
    from markdown_it.token import Token

__all__ = ["Block", "BlockToken", "scan_blocks"]


class BlockToken(Protocol):
    """What the parse reads of a block's token: markdown-it's ``Token`` or a :class:`Block`."""

    type: str
    tag: str
    map: list[int] | None
    content: str
    children: list[Token] | None


def scan_blocks(body: str, code: list[tuple[int, int, str]] | None = None) -> list[Block] | None:
    """markdown-it's ``heading_open``, ``inline`` and ``html_block`` tokens of ``body``
    (newlines normalized, no frontmatter), in order, the inline ones not parsed yet
    (``children`` empty); None when the body must be parsed by markdown-it (module
    docstring). ``code``: a list the code blocks found are added to
    (:attr:`~skillc_index.markdown.block_state.BlockState.code_blocks`)."""
    if "\0" in body:  # markdown-it replaces it
        return None
    scanner = _BlockScanner(body)
    try:
        scanner.run()
    except Unsure:
        return None
    if code is not None:
        code.extend(scanner.code_blocks)
    return scanner.tokens


class Block:
    """A token of :func:`scan_blocks`: markdown-it's ``Token`` as far as the parse reads
    one (its core rules after ``block`` and :func:`~skillc_index.markdown.document.
    _parse_body`), without the rest of its fields (building those is most of its cost)."""

    __slots__ = ("children", "content", "map", "tag", "type")

    def __init__(
        self,
        kind: str,
        tag: str,
        lines: list[int] | None,
        content: str,
        children: list[Token] | None,
    ) -> None:
        self.type = kind
        self.tag = tag
        self.map: list[int] | None = lines
        self.content = content
        self.children = children


class _BlockScanner(_Scanner):
    """The headings scanner keeping each block's tokens (:func:`scan_blocks`)."""

    def __init__(self, src: str) -> None:
        super().__init__(src)
        self.tokens: list[Block] = []

    def heading_found(
        self, level: int, content: str, start: int, end: int, *, underline: bool = False
    ) -> None:
        self.tokens.append(Block("heading_open", f"h{level}", [start, end], "", None))
        lines = [start, end - 1 if underline else end]
        self.tokens.append(Block("inline", "", lines, content, []))

    def paragraph_found(self, start: int, end: int) -> None:
        if end == start + 1:  # one line: what the trim leaves of it is its text's
            content = self.src[self.begins[start] + self.shifts[start] : self.ends[start]]
        elif self.blk or self.quotes:
            content = self.text_lines(start, end, self.blk)
        else:  # nothing to take off: the lines as they are in the source
            content = self.src[self.begins[start] : self.ends[end - 1]]
        self.tokens.append(Block("inline", "", [start, end], content.strip(TRIM), []))

    def table_found(self, start: int, end: int) -> None:
        src, first, ends = self.src, self.first, self.ends
        header = table_cells(src[first(start) : ends[start]].strip(TRIM))
        width = len(header)
        tokens = self.tokens
        for line, row in [(start, header)] + [
            (line, table_cells(src[first(line) : ends[line]].strip(TRIM)))
            for line in range(start + 2, end)
        ]:
            if len(row) < width:  # a short row: empty cells after its own
                row += [""] * (width - len(row))
            cells = row[:width]
            tokens.extend([Block("inline", "", [line, line + 1], c.strip(TRIM), []) for c in cells])

    def html_found(self, start: int, end: int) -> None:
        content = self.text_lines(start, end, self.blk, keep_last=True)
        self.tokens.append(Block("html_block", "", [start, end], content, None))
