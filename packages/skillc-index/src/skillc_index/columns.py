"""Text in a terminal's columns: how wide it shows, and the one table of the kit's text output."""

from __future__ import annotations

from collections.abc import Sequence

from skillc_index.text import CELL_CHARS, cut_escaped

__all__ = ["display_width", "table_lines"]


def display_width(text: str) -> int:
    """The columns ``text`` takes in a terminal: 2 for a wide or full-width character (CJK,
    most emoji), 1 for an emoji a variation selector shows wide (⚠️) plus 1, as for a keycap
    (1️⃣), none for a combining mark, a format character (a joiner), a skin tone after its
    emoji (👍🏽 is 2) or what follows a joiner in an emoji sequence (👩‍💻 is 2), 1 for any
    other character."""
    if text.isascii():
        return len(text)
    import unicodedata  # a C module

    width = 0
    wide = joined = symbol = False
    previous = ""
    for char in text:
        before, previous = previous, char
        if char == "\ufe0f" and symbol and not wide:
            width, wide = width + 1, True  # emoji presentation: the symbol before is wide
            continue
        if char == "\u20e3" and before == "\ufe0f" and not wide:
            width, wide = width + 1, True  # a keycap (1️⃣): the digit before is shown wide
            continue
        category = unicodedata.category(char)
        if category in ("Mn", "Me", "Cf"):
            joined = char == "\u200d"
            continue
        if wide and "\U0001f3fb" <= char <= "\U0001f3ff":
            continue  # a skin tone (Emoji_Modifier) colours the emoji before, in its columns
        wide, symbol = unicodedata.east_asian_width(char) in "WF", category == "So"
        if not (joined and wide):  # the next emoji of a sequence shares its glyph
            width += 2 if wide else 1
        joined = False
    return width


def table_lines(rows: Sequence[Sequence[str]], right: int = 0) -> list[str]:
    """``rows`` (the header first) as lines of text output: each column padded to its widest
    cell as a terminal shows them (:func:`display_width`: CJK and emoji take two columns, an
    accent none), two spaces apart, the last column not padded (the first ``right`` columns
    right-aligned, padded always), no white space at the end, each cell cut to
    :data:`~skillc_index.text.CELL_CHARS` characters first, each escape of a cell
    :func:`~skillc_index.text.printable` wrote kept whole (:func:`~skillc_index.text.cut_escaped`).
    The one table of the kit's text
    output (``list``, ``list --budget``, ``stats --group-by``, ``eval``)."""
    sized = [
        [(shown, display_width(shown)) for shown in (cut_escaped(c, CELL_CHARS) for c in row)]
        for row in rows
    ]
    count = max((len(row) for row in rows), default=0)
    widths = [max((row[i][1] for row in sized if i < len(row)), default=0) for i in range(count)]
    lines = []
    for row in sized:
        cells = []
        for i, (cell, width) in enumerate(row):
            gap = " " * (widths[i] - width)
            if i < right:
                cells.append(gap + cell)
            else:
                cells.append(cell if i == len(row) - 1 else cell + gap)
        lines.append("  ".join(cells).rstrip())
    return lines
