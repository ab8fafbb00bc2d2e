"""Where on its line each link of a Markdown file writes its destination (a reference-style
link: where it starts), for the column of its findings (:meth:`skillc_lint._skill.Skill.links`).

The parse gives a link's line and its destination as written, not its column: the column
is found by looking for that text on the line, the links of a line taken left to right (a
file's links are in source order, an image inside a link before the link).
"""

from __future__ import annotations

__all__ = ["Destinations"]


class Destinations:
    """The destinations found so far on the lines of one Markdown file: where to look from
    for the next link writing the same text on a line, and where the last link found on
    each line stands, which the next link of that line cannot start before (``[gone](ok.md)
    then [gone]``: the reference-style ``[gone]`` is the second, not the link text)."""

    def __init__(self) -> None:
        self._places: dict[tuple[int, str], list[int]] = {}  # (line, written) -> place
        self._last: dict[int, int] = {}  # line -> where its last link found stands

    def index(self, line: int, text: str, written: str, opened: bool = False) -> int:
        """Where the next link of line ``line`` (its text ``text``) writes ``written``
        (:func:`_destination_index`), looked for from where the last link found on that
        line stands; before it only when nothing stands after it (a link holding an image,
        ``[![a](i.png)][r]``, comes after the image); -1: none."""
        place = self._places.setdefault((line, written), [0, -2])
        last = self._last.get(line, 0)
        after = [max(place[0], last), place[1]]
        index = _destination_index(text, written, after, opened)
        if index >= 0:
            place[:] = after
            self._last[line] = max(last, index)
        else:
            index = _destination_index(text, written, place, opened)
        return index


def _destination_index(text: str, written: str, place: list[int], opened: bool = False) -> int:
    """Where the next link of the line ``text`` writing ``written`` writes it: from
    ``place[0]`` on, the first place it stands as a destination (after ``(`` or ``<`` and
    blanks: ``[gone.md](gone.md)``'s second; ``opened``, a link's later line, at its start
    too), else its first place (a bare URL); -1: none.
    ``place``, kept for the links of the line writing it, left to right: where to look from
    and the next destination found (-1: none to the end, -2: not looked for yet)."""
    start, ahead = place
    if written and ahead != -1 and ahead < start:
        ahead = text.find(written, start)
        while ahead >= 0 and not _stands_alone(text, ahead, ahead + len(written), opened):
            ahead = text.find(written, ahead + 1)
    index = ahead if ahead >= 0 else text.find(written, start) if written else -1
    place[:] = [index + len(written) if index >= 0 else len(text) + 1, ahead]
    return index


def _stands_alone(text: str, index: int, end: int, opened: bool = False) -> bool:
    """Whether ``text[index:end]`` is a whole destination: after ``(``/``<`` and blanks (at
    the line's start when ``opened``), before ``)``, ``>``, a blank or the end (not ``gone/``
    of ``(gone/x.md)``)."""
    while index and text[index - 1] in " \t":
        index -= 1
    after = (index > 0 and text[index - 1] in "(<") or (opened and not index)
    return after and (end == len(text) or text[end] in ")> \t")
