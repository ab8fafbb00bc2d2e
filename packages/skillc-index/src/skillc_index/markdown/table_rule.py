"""The GFM table rule of the headings scanner (:mod:`~skillc_index.markdown.headings`), as
markdown-it's ``table`` rule reads a table: a header row, a delimiter row of as many cells,
and the body rows up to a blank line or the start of another block.
"""

from __future__ import annotations

from skillc_index.markdown.block_state import BlockState, cell_count
from skillc_index.markdown.heading_text import SPACES as _SPACES
from skillc_index.markdown.heading_text import TRIM as _TRIM

__all__ = ["DELIMITER_ROW", "TableRule"]

#: The characters a table's delimiter row starts with (and holds, with blanks).
DELIMITER_ROW = frozenset("|-:")
# The tables of a body have at most this many cells filled in, in all, for rows shorter than
# their header (markdown-it's limit, which it counts per table).
_MAX_AUTOCOMPLETED_CELLS = 0x10000


class TableRule(BlockState):
    """The table rule over the block state; the scanner gives it :meth:`ends_here` (the
    rules that end a table's body) and :meth:`table_found` (what it keeps of a table)."""

    def __init__(self, src: str) -> None:
        super().__init__(src)
        #: The cells filled in so far for the rows of the body's tables shorter than their
        #: header (a table whose longer rows outnumber them counts none)
        self.filled = 0

    def ends_here(self, line: int, *, table: bool, lists: bool) -> bool:
        raise NotImplementedError

    def table_found(self, start: int, end: int) -> None:
        raise NotImplementedError

    def table(self, start: int, *, silent: bool) -> bool:
        """A GFM table: a header row with a ``|``, then a delimiter row with as many cells;
        its body rows run to a blank line or the start of another block."""
        if start + 2 > self.lines:
            return False
        below = start + 1
        if self.indents[below] < self.blk or self.is_code(below):
            return False
        src = self.src
        pos, stop = self.first(below), self.ends[below]
        if pos + 1 >= stop:
            return False
        lead, second = src[pos], src[pos + 1]
        if lead not in DELIMITER_ROW or (second not in DELIMITER_ROW and second not in _SPACES):
            return False
        if lead == "-" and second in _SPACES:
            return False
        if src[pos + 2 : stop].strip("|-: \t"):
            return False
        columns = src[pos:stop].split("|")
        aligns = 0
        for index, column in enumerate(columns):
            cell = column.strip(_TRIM)
            if not cell:
                if index == 0 or index == len(columns) - 1:
                    continue
                return False
            inner = cell[1:] if cell[0] == ":" else cell
            inner = inner[:-1] if inner.endswith(":") else inner
            if not inner or inner.strip("-"):
                return False
            aligns += 1
        header = src[self.first(start) : self.ends[start]].strip(_TRIM)
        if "|" not in header or self.is_code(start):
            return False
        count = cell_count(header)
        if count == 0 or count != aligns:
            return False
        if silent:
            return True
        outer, self.parent = self.parent, "table"
        line = start + 2
        # markdown-it stops a table at the row past 65,536 cells filled in (the padding a
        # 256-column header gives its short rows); counted per table, 20 such tables of
        # 31 KB made 1.3 million cells (500 MB for the lint): they are counted over the
        # body, and a table ends at a row that would fill in cells past the limit, as a
        # table alone does
        filled = self.filled
        while line < self.lines:
            if self.indents[line] < self.blk or self.ends_here(line, table=False, lists=True):
                break
            row = src[self.first(line) : self.ends[line]].strip(_TRIM)
            if not row or self.is_code(line):
                break
            more = filled + count - cell_count(row)
            if more > _MAX_AUTOCOMPLETED_CELLS:
                break  # (not counted: a later row filling none in is still read)
            filled = more
            line += 1
        self.filled = max(self.filled, filled)
        self.parent = outer
        self.line = line
        self.table_found(start, line)
        return True
