"""Where on its line each link of a Markdown file writes its destination (a reference-style
link: where it starts), for the column of its findings (:meth:`skillc_lint._skill.Skill.links`).

The parse gives a link's line and its destination as written, not its column: the column
is found by looking for that text on the line, outside its code spans (:func:`code_spans`:
a code span writing ``[guide]`` before the link ``[guide]`` is skipped), the links of a
line taken left to right (a file's links are in source order, an image inside a link before
the link).
"""

from __future__ import annotations

import bisect
import re

__all__ = ["Destinations", "code_spans"]


class Destinations:
    """The destinations found so far on the lines of one Markdown file: where to look from
    for the next link writing the same text on a line, and where the last link found on
    each line stands, which the next link of that line cannot start before (``[gone](ok.md)
    then [gone]``: the reference-style ``[gone]`` is the second, not the link text)."""

    def __init__(self) -> None:
        self._places: dict[tuple[int, str], list[int]] = {}  # (line, written) -> place
        self._last: dict[int, int] = {}  # line -> where its last link found stands
        self._spans: dict[int, list[tuple[int, int]] | None] = {}  # line -> its code spans

    def index(self, line: int, text: str, written: str, opened: bool = False) -> int:
        """Where the next link of line ``line`` (its text ``text``) writes ``written``
        (:func:`_destination_index`), looked for from where the last link found on that
        line stands; before it only when nothing stands after it (a link holding an image,
        ``[![a](i.png)][r]``, comes after the image); -1: none."""
        place = self._places.setdefault((line, written), [0, -2])
        last = self._last.get(line, 0)
        after = [max(place[0], last), place[1]]
        if line not in self._spans:  # (a line without a backtick has none: no search)
            self._spans[line] = code_spans(text) if "`" in text else []
        spans = self._spans[line]
        index = _destination_index(text, written, after, opened, spans)
        if index >= 0:
            place[:] = after
            self._last[line] = max(last, index)
        else:
            index = _destination_index(text, written, place, opened, spans)
        return index


def _destination_index(
    text: str,
    written: str,
    place: list[int],
    opened: bool = False,
    spans: list[tuple[int, int]] | None = None,
) -> int:
    """Where the next link of the line ``text`` writing ``written`` writes it: from
    ``place[0]`` on, the first place it stands as a destination (after ``(`` or ``<`` and
    blanks: ``[gone.md](gone.md)``'s second; ``opened``, a link's later line, at its start
    too), else its first place (a bare URL); never in one of the line's code ``spans`` (no
    link is: None, backticks that do not pair on the line, skips none); -1: none.
    ``place``, kept for the links of the line writing it, left to right: where to look from
    and the next destination found (-1: none to the end, -2: not looked for yet)."""
    start, ahead = place
    if written and ahead != -1 and ahead < start:
        ahead = _find(text, written, start, spans)
        while ahead >= 0 and not _stands_alone(text, ahead, ahead + len(written), opened):
            ahead = _find(text, written, ahead + 1, spans)
    index = ahead if ahead >= 0 else _find(text, written, start, spans) if written else -1
    place[:] = [index + len(written) if index >= 0 else len(text) + 1, ahead]
    return index


def _find(text: str, written: str, start: int, spans: list[tuple[int, int]] | None) -> int:
    """``text.find(written, start)``, but for a place in one of the code ``spans`` (in
    order): the search goes on after that span (each span passed once: linear in the line)."""
    index = text.find(written, start)
    while index >= 0 and spans:
        at = bisect.bisect_right(spans, (index, len(text) + 1)) - 1
        if at < 0 or spans[at][1] <= index:
            break
        index = text.find(written, spans[at][1])
    return index


def _stands_alone(text: str, index: int, end: int, opened: bool = False) -> bool:
    """Whether ``text[index:end]`` is a whole destination: after ``(``/``<`` and blanks (at
    the line's start when ``opened``), before ``)``, ``>``, a blank or the end (not ``gone/``
    of ``(gone/x.md)``)."""
    while index and text[index - 1] in " \t":
        index -= 1
    after = (index > 0 and text[index - 1] in "(<") or (opened and not index)
    return after and (end == len(text) or text[end] in ")> \t")


_BACKTICKS = re.compile(r"`+")


def code_spans(line: str) -> list[tuple[int, int]] | None:
    """The code spans of one line, as offsets (start, end; the backticks included): each
    string of backticks paired with the next one of the same length, as CommonMark pairs
    them. None when one has no partner on the line, or a backslash escapes one: a code span
    may go on over lines, or the backticks are text, and the line alone cannot tell."""
    if "\\`" in line:
        return None
    runs = [(m.start(), m.end()) for m in _BACKTICKS.finditer(line)]
    spans = []
    index = 0
    while index < len(runs):
        start, end = runs[index]
        partner = next(
            (k for k in range(index + 1, len(runs)) if runs[k][1] - runs[k][0] == end - start),
            None,
        )
        if partner is None:
            return None
        spans.append((start, runs[partner][1]))
        index = partner + 1
    return spans
