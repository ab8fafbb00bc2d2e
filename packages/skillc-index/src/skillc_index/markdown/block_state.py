"""markdown-it's block state for one Markdown body, as the headings scanner
(:mod:`~skillc_index.markdown.headings`) reads it: each line's offsets, indentation and
width, the indentation blocks need, what is being read, and the headings found so far; and
the line helpers the block rules share (markdown-it's ``StateBlock``).
"""

from __future__ import annotations

import re
from itertools import accumulate, repeat
from operator import add, sub

from skillc_index.markdown.heading_text import SPACES as _SPACES

__all__ = [
    "BULLETS",
    "DIGITS",
    "BlockState",
    "cell_count",
    "fence_candidates",
    "html_kind",
    "table_cells",
]

#: The marks of a bullet list item, and the digits of an ordered one.
BULLETS = frozenset("*-+")
DIGITS = frozenset("0123456789")
_ORDERED_END = frozenset(".)")
_COMMENT_END = re.compile("-->")
#: What splits a table row into cells: a ``|`` without a backslash before it.
_CELL_BREAK = re.compile(r"(?<!\\)\|")
# Compiled patterns finding the next line a fence's body may end on (``fence_candidates``).
_FENCE_CANDIDATES: dict[tuple[str, int], re.Pattern[str]] = {}


def html_kind(text: str) -> tuple[re.Pattern[str], bool] | None:
    """The kind of HTML block a line starts (``text``: the line from its first non-blank
    character), as markdown-it's ``html_block`` rule tells it: the pattern its last line
    matches (a blank line's for a block tag or a lone tag), and whether it may end a
    paragraph (all kinds but a lone tag); None when it starts none. markdown-it's own
    table of kinds, imported for a line that starts with ``<`` and no comment."""
    if text.startswith("<!--"):
        return _COMMENT_END, True
    from markdown_it.rules_block.html_block import HTML_SEQUENCES

    for opening, closing, interrupts in HTML_SEQUENCES:
        if opening.search(text):
            return closing, interrupts
    return None


def ink_end(text: str) -> int:
    """Where the blanks (spaces, tabs, newlines) that end ``text`` begin."""
    return len(text.rstrip(" \t\n"))


class BlockState:
    """markdown-it's block state for one body: its lines, and where the reading is.

    ``begins``/``ends``: each line's offsets (end excludes the newline); ``shifts``: the
    characters of its indentation; ``indents``: its width (tabs to the next multiple of 4).
    A list item changes its first line's ``shifts``/``indents`` while it is read, as
    markdown-it does. ``blk`` is the indentation blocks need (a list item's content column),
    ``parent`` what is being read (``"paragraph"`` decides whether a list may interrupt).
    ``code_blocks`` the code blocks read so far.
    """

    def __init__(self, src: str) -> None:
        self.src = src
        length = len(src)
        texts = src.split("\n")
        if not texts[-1].lstrip(" \t"):
            texts.pop()  # after a last newline, or blanks without one: no line for markdown-it
        # (per line in C: ``map`` over built-ins, no bytecode run per line)
        lengths = list(map(len, texts))
        begins: list[int] = list(accumulate(map(add, lengths, repeat(1)), initial=0))
        begins[-1] = length  # a last, empty line: lookahead needs no bound checks
        ends: list[int] = list(map(add, begins, lengths))
        ends.append(length)
        stripped = map(str.lstrip, texts, repeat(" \t"))  # (no method lookup per line)
        shifts: list[int] = list(map(sub, lengths, map(len, stripped)))
        shifts.append(0)
        indents = shifts.copy()
        if "\t" in src:  # a tab in the indentation: widths to the next multiple of 4
            for line, text in enumerate(texts):
                if "\t" in text[: shifts[line]]:
                    width = 0
                    for char in text[: shifts[line]]:
                        width += 4 - width % 4 if char == "\t" else 1
                    indents[line] = width
        self.lines = self.total = len(texts)
        #: Where the blanks (spaces, tabs, newlines) that end ``src`` begin: a fence left open
        #: before it runs to the end of its container, else of the file (found once: reading
        #: the rest of the text for each such fence made a body of them quadratic)
        self.ink = ink_end(src)
        self.begins, self.ends, self.shifts, self.indents = begins, ends, shifts, indents
        self.blk = 0
        self.list_indent = -1
        self.parent = "root"
        self.line = 0
        self.depth = 0
        self.quotes = 0  # block quotes being read: their lines are re-based
        #: The innermost container being read (what a fence left open runs to the end of)
        self.inside = "file"
        self.found: list[tuple[int, str, int]] = []
        #: The code blocks found: ``(start, end, runs_to)``, lines ``start`` to ``end - 1``;
        #: ``runs_to`` is "" for a closed fence or indented code, else the container a fence
        #: left open runs to the end of (``"file"``, ``"list item"``, ``"block quote"``).
        self.code_blocks: list[tuple[int, int, str]] = []

    def first(self, line: int) -> int:
        """Offset of the line's first non-blank character (its end when it is blank)."""
        return self.begins[line] + self.shifts[line]

    def is_empty(self, line: int) -> bool:
        return self.begins[line] + self.shifts[line] >= self.ends[line]

    def is_code(self, line: int) -> bool:
        return self.indents[line] - self.blk >= 4

    def char(self, pos: int) -> str:
        """The character at ``pos`` ("" past the end)."""
        return self.src[pos : pos + 1]

    def skip(self, pos: int, chars: frozenset[str]) -> int:
        src = self.src
        length = len(src)
        while pos < length and src[pos] in chars:
            pos += 1
        return pos

    def text_lines(self, begin: int, end: int, indent: int, *, keep_last: bool = False) -> str:
        """Lines ``begin`` to ``end - 1`` without up to ``indent`` columns of indentation,
        joined by newlines, the last one's kept when ``keep_last`` (markdown-it's
        ``getLines``; a list item's first line loses its marker too)."""
        src, begins, shifts, ends = self.src, self.begins, self.shifts, self.ends
        if src.find("\t", begins[begin], ends[end - 1]) < 0:
            # no tab: a column is a character, and what is taken off a line is its first
            # ``indent`` characters at most, the blanks (and a list item's marker) before
            # its text (``shifts``), as the loop below finds
            text = "\n".join(
                [
                    src[begins[line] + min(shifts[line], indent) : ends[line]]
                    for line in range(begin, end)
                ]
            )
            return text + src[ends[end - 1] : ends[end - 1] + 1] if keep_last else text
        parts: list[str] = []
        for line in range(begin, end):
            column = 0
            start = position = self.begins[line]
            last = self.ends[line] + 1 if line + 1 < end or keep_last else self.ends[line]
            while position < last and column < indent:
                char = src[position]
                if char == "\t":
                    column += 4 - column % 4
                elif char == " " or position - start < self.shifts[line]:
                    column += 1
                else:
                    break
                position += 1
            prefix = " " * (column - indent) if column > indent else ""
            parts.append(prefix + src[position:last])
        return "".join(parts)

    def bullet(self, line: int) -> int:
        """The offset after a bullet list marker on ``line``, -1 when there is none."""
        pos, stop = self.begins[line] + self.shifts[line], self.ends[line]
        if self.src[pos : pos + 1] not in BULLETS:
            return -1
        pos += 1
        if pos < stop and self.src[pos] not in _SPACES:
            return -1
        return pos

    def ordered(self, line: int) -> int:
        """The offset after an ordered list marker (1 to 9 digits, ``.`` or ``)``) on
        ``line``, -1 when there is none."""
        src = self.src
        start = pos = self.begins[line] + self.shifts[line]
        stop = self.ends[line]
        if pos + 1 >= stop or src[pos] not in DIGITS:
            return -1
        pos += 1
        while True:
            if pos >= stop:
                return -1
            char = src[pos]
            pos += 1
            if char in DIGITS:
                if pos - start >= 10:
                    return -1
                continue
            if char in _ORDERED_END:
                break
            return -1
        if pos < stop and src[pos] not in _SPACES:
            return -1
        return pos


def fence_candidates(marker: str, blk: int) -> re.Pattern[str]:
    """A pattern matching at the newline before every line whose first non-blank character is
    ``marker`` or whose indentation has fewer than ``blk`` characters (its width is then
    below ``blk``: a tab is at least one column), and at no line that continues a fence's
    body without a check (a blank line may match: the checks then pass over it). It starts
    with a newline, not ``^``: the regex engine then looks for that character alone."""
    pattern = _FENCE_CANDIDATES.get((marker, blk))
    if pattern is None:
        short = f"|[ \\t]{{0,{blk - 1}}}[^ \\t\\n]" if blk > 0 else ""
        pattern = re.compile(f"\\n(?:[ \\t]*{re.escape(marker)}{short})")
        _FENCE_CANDIDATES[(marker, blk)] = pattern
    return pattern


def table_cells(row: str) -> list[str]:
    """A table row's cells, as the table rule splits them (markdown-it's ``escapedSplit``):
    at each ``|`` not escaped (``\\|`` stands for a ``|`` in a cell), without an empty
    first or last one."""
    cells = [cell.replace("\\|", "|") for cell in _CELL_BREAK.split(row)]
    if cells and not cells[0]:
        cells.pop(0)
    if cells and not cells[-1]:
        cells.pop()
    return cells


def cell_count(row: str) -> int:
    """How many cells a table row of a ``|`` has: ``len(table_cells(row))``, counted without
    making them (the scanner asks it of every row it tries as a table's)."""
    count = row.count("|") - row.count("\\|") + 1
    if row.startswith("|"):
        count -= 1
    if row.endswith("|") and not row.endswith("\\|") and count > 0:
        count -= 1
    return count
