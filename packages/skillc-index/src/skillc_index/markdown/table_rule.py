"""The GFM table rule of the headings scanner (:mod:`~skillc_index.markdown.headings`), as
markdown-it's ``table`` rule reads a table: a header row, a delimiter row of as many cells,
and the body rows up to a blank line or the start of another block.
"""

from __future__ import annotations

from skillc_index.markdown.block_state import BlockState, cell_count
from skillc_index.markdown.heading_text import SPACES as _SPACES
from skillc_index.markdown.heading_text import TRIM as _TRIM

__all__ = ["DELIMITER_ROW", "MAX_TABLE_CELLS", "TableRule", "TooManyCells", "rows_within"]

#: The characters a table's delimiter row starts with (and holds, with blanks).
DELIMITER_ROW = frozenset("|-:")
# A table has at most this many cells filled in for rows shorter than its header
# (markdown-it's limit, counted per table: a row past it ends the table).
_MAX_AUTOCOMPLETED_CELLS = 0x10000
#: The most cells the tables of a body hold in all, each row as many as its header (a short
#: row's filled in): the parse stops at the row that would take them past it, as it stops at
#: the parse limits (:func:`~skillc_index.markdown.document.parse_markdown`). 20 tables of
#: 256 columns then 257 rows of one cell (31 KB) made 1.3 million cells, 1.5 GB; the largest
#: file of the corpus has 2,113.
MAX_TABLE_CELLS = 0x10000


class TooManyCells(Exception):
    """The tables of the body being parsed would hold more than :data:`MAX_TABLE_CELLS`
    cells from ``line`` on (0-based in the body, a table's header or one of its rows): the
    parse stops before it, the same on both paths (the scanner's table rule, and markdown-it's
    wrapped by :func:`~skillc_index.markdown.block_rules.bound_table_cells`)."""

    def __init__(self, line: int) -> None:
        super().__init__(line)
        self.line = line


def rows_within(cells: int, count: int) -> int:
    """How many rows (its header's included) a table of ``count`` columns may have when the
    body's tables before it hold ``cells``: those within :data:`MAX_TABLE_CELLS`."""
    return (MAX_TABLE_CELLS - cells) // count


class TableRule(BlockState):
    """The table rule over the block state; the scanner gives it :meth:`ends_here` (the
    rules that end a table's body) and :meth:`table_found` (what it keeps of a table)."""

    def __init__(self, src: str) -> None:
        super().__init__(src)
        #: The cells of the body's tables read so far (:data:`MAX_TABLE_CELLS`)
        self.cells = 0

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
        rows = rows_within(self.cells, count)
        if rows < 1:
            raise TooManyCells(start)
        outer, self.parent = self.parent, "table"
        line = start + 2
        counted = count * (self.lines - line) > _MAX_AUTOCOMPLETED_CELLS
        filled = 0
        while line < self.lines:
            if self.indents[line] < self.blk or self.ends_here(line, table=False, lists=True):
                break
            row = src[self.first(line) : self.ends[line]].strip(_TRIM)
            if not row or self.is_code(line):
                break
            if counted:
                filled += count - cell_count(row)
                if filled > _MAX_AUTOCOMPLETED_CELLS:
                    break
            if line - start > rows:  # the row past the body's bound: the parse stops
                raise TooManyCells(line)
            line += 1
        self.cells += count * (line - start - 1)
        self.parent = outer
        self.line = line
        self.table_found(start, line)
        return True
