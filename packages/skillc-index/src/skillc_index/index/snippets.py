"""``search``'s snippets in the skill's own text (RFC-0004:C-SEARCH: FTS5's ``snippet()`` of
the content column, ``[MATCH]``/``[/MATCH]``, ``...``, 32 tokens).

The index matches folded text (:func:`~skillc_index.index.fts.prepare_fts_text`: Arabic
without its harakat, Hebrew without its points, full-width letters narrowed, accents
decomposed, under ``cjk`` a U+200B around each CJK character), and FTS5's ``snippet()``
hands that text back. :func:`written_snippet` makes the snippet of a section as written
instead (its ``originals`` row, :mod:`~skillc_index.index.schema`): the text is cut in
pieces of at most :data:`SNIPPET_WINDOW` characters, each piece folded and put, with the
row's file and section, in a one-row in-memory FTS5 table with the index's tokenizer (so it
matches as the index does); FTS5's snippet of the first piece holding every word (else any)
is taken with markers the folded piece does not hold, and read back onto the piece as
written, word by word and, in a word the folding changed, grapheme by grapheme. Its bounds
and highlights are then moved out to whole graphemes
(:func:`~skillc_index.text.grapheme_boundary`): a snippet never cuts a vowel sign, a tone
mark or a stacked consonant from its letter (Myanmar's ``[MATCH]မြန်မ[/MATCH]ာ``, where
``unicode61`` makes the mark a separator). One piece is held at a time, so time and memory
stay linear in the section; a line longer than the window is looked through in the folded
text the index holds, and only the stretches holding a word are folded again
(:func:`_long_line`).
"""

from __future__ import annotations

import itertools
import re
import sqlite3
from collections.abc import Callable, Iterator
from contextlib import closing

from skillc_index.index.fts import prepare_fts_text
from skillc_index.text import grapheme_boundary

__all__ = ["SNIPPET_WINDOW", "written_snippet"]

#: Sections longer than this (characters) get their snippet from a window of their text: FTS5's
#: ``snippet()`` costs the square of the query's hits in the row (32,000 hits: 4.6 s), and a
#: section holding its subsections can be a whole 50 MB file. In this many characters (at most
#: ~3,000 tokens) it stays under a tenth of a second for any query of distinct phrases.
SNIPPET_WINDOW = 16_384

#: RFC-0004's snippet markers, ellipsis and length.
OPEN, CLOSE, ELLIPSIS, TOKENS = "[MATCH]", "[/MATCH]", "...", 32
#: A fallback snippet (no piece holds a word: the match was in the file or section), at most.
HEAD_CHARS = 200

#: A stretch of a text whose folding is its own: ``(written_start, written_end,
#: prepared_start, prepared_end, unchanged)``.
Span = tuple[int, int, int, int, bool]

_WORD = r"\S+\s*|\s+"  # compiled on first use (as diagnostics explains)


def written_snippet(
    prepared: str,
    written: str,
    match: str,
    any_word: str,
    row: tuple[str, str],
    tokenize: str,
    tokenizer: str,
) -> str:
    """The snippet of a section for the FTS5 MATCH ``match`` (failing that, ``any_word``, its
    words joined by OR), in the section's text as written: ``prepared`` is its content as the
    index holds it (folded), ``written`` as written (``prepared`` itself when the folding left
    it as it was), ``row`` the row's file and section as the index holds them, ``tokenize``
    the index's tokenizer clause and ``tokenizer`` its ``index_meta`` name."""
    first_any: str | None = None
    sql = f"SELECT snippet(w, 2, ?, ?, ?, {TOKENS}) FROM w WHERE w MATCH ?"
    with closing(sqlite3.connect(":memory:")) as memory:
        memory.execute(
            f"CREATE VIRTUAL TABLE w USING fts5(file, section, content, tokenize='{tokenize}')"
        )

        def load(folded: str) -> tuple[str, str, str]:
            memory.execute("DELETE FROM w")
            memory.execute("INSERT INTO w VALUES (?, ?, ?)", (*row, folded))
            return _free_marks(folded)

        def hits(windows: list[str]) -> list[int]:
            memory.execute(  # dropped after (a delete tokenizes the text again)
                f"CREATE VIRTUAL TABLE h USING fts5(file, section, content, tokenize='{tokenize}')"
            )
            memory.executemany(
                "INSERT INTO h VALUES (?, ?, ?)", ((*row, window) for window in windows)
            )
            found = memory.execute(
                "SELECT rowid FROM h WHERE h MATCH ? UNION SELECT rowid FROM h WHERE h MATCH ?"
                " ORDER BY rowid",
                (match, any_word),
            ).fetchall()
            memory.execute("DROP TABLE h")
            return [rowid - 1 for (rowid,) in found]

        for start, piece, stored in _pieces(written, prepared, hits, tokenizer):
            folded = prepare_fts_text(piece, tokenizer) if stored is None else stored
            marks = load(folded)
            for expression in (match,) if first_any is not None else (match, any_word):
                found = memory.execute(sql, (*marks, expression)).fetchone()
                if found is not None and stored is not None and stored is not piece:
                    again = prepare_fts_text(piece, tokenizer)  # the index's text for the
                    if again != folded:  # piece, as it folds alone (it always does)
                        folded, marks = again, load(again)
                        found = memory.execute(sql, (*marks, expression)).fetchone()
                if found is None:
                    continue
                first, last, text = _shown(str(found[0]), marks, piece, folded, tokenizer)
                shown = (
                    (ELLIPSIS if start + first > 0 else "")
                    + text
                    + (ELLIPSIS if start + last < len(written) else "")
                )
                if expression is match:
                    return shown
                first_any = shown
                break
    if first_any is not None:
        return first_any
    if len(written) <= HEAD_CHARS:
        return written
    return written[: grapheme_boundary(written, HEAD_CHARS)] + ELLIPSIS


def _pieces(
    written: str, prepared: str, hits: Callable[[list[str]], list[int]], tokenizer: str
) -> Iterator[tuple[int, str, str | None]]:
    """``written`` in consecutive pieces, each with where it starts and its folded text when
    ``prepared`` gives it (else None: the caller folds the piece), that text at most
    :data:`SNIPPET_WINDOW` characters. Folding keeps every newline and folds each line alone
    (the ``n``-th line of one text is the ``n``-th of the other), so ``prepared`` is cut
    after its last newline in the window and the piece of ``written`` is as many lines; a
    line longer than the window gives only the pieces of it whose folded text holds a word
    (:func:`_long_line`)."""
    if written is prepared:  # the folding left it as it was
        for start, piece in _cut(written, SNIPPET_WINDOW):
            yield start, piece, piece
        return
    start = folded_start = 0  # the start of a line in both texts
    while start < len(written):
        if folded_start + SNIPPET_WINDOW >= len(prepared):  # the rest
            end, folded_end = len(written), len(prepared)
        else:
            folded_end = prepared.rfind("\n", folded_start, folded_start + SNIPPET_WINDOW) + 1
            end = start
            for _ in range(prepared.count("\n", folded_start, folded_end)):
                end = written.find("\n", end) + 1 or len(written)
        if folded_end > folded_start and end > start:
            yield start, written[start:end], prepared[folded_start:folded_end]
        else:  # a line longer than the window
            end = written.find("\n", start) + 1 or len(written)
            folded_end = prepared.find("\n", folded_start) + 1 or len(prepared)
            line = _long_line(
                written[start:end], prepared[folded_start:folded_end], hits, tokenizer
            )
            for at, piece, stored in line:
                yield start + at, piece, stored
        start, folded_start = end, folded_end


def _long_line(
    line: str, folded: str, hits: Callable[[list[str]], list[int]], tokenizer: str
) -> Iterator[tuple[int, str, str | None]]:
    """The pieces of a ``line`` longer than the window (``folded``: as the index holds it)
    that may hold a hit, each with where it starts and its folded text. The folded line is
    cut in halves of the window (:func:`_cut_end`), ``hits`` tells which hold a word (one
    FTS5 table of them all, one query), and only those are mapped back onto ``line`` word by
    word (folding a text word by word gives the same text:
    :func:`~skillc_index.index.fts.prepare_fts_text`) and folded again to check it: an 8 MB
    line of Greek with the hit at its end was folded whole, piece by piece (1.4 s; ASCII
    0.18 s). Where the mapping does not hold (a word longer than the window), the rest of
    the line is cut in thirds and folded by the caller, piece by piece."""
    half = SNIPPET_WINDOW // 2
    bounds: list[tuple[int, int]] = []
    while not bounds or bounds[-1][1] < len(folded):
        low = bounds[-1][1] if bounds else 0
        bounds.append((low, _cut_end(folded, low, half)))
    at = folded_at = 0  # where the rest of the line starts in both (a word's start)
    for number in hits([folded[low:high] for low, high in bounds]):
        scan, scan_end = bounds[number]
        if scan_end <= folded_at:  # in the piece given before
            continue
        folded_start = max(scan, folded_at)
        while folded_start > folded_at and not folded[folded_start - 1].isspace():
            folded_start -= 1  # the word the window starts inside starts the piece
        before = len(folded[folded_at:folded_start].split())
        start, folded_start = _after_words(line, at, before), _after_words(folded, folded_start, 0)
        words = len(folded[folded_start:scan_end].split())
        end = _after_words(line, start, words)
        folded_end = _after_words(folded, folded_start, words)
        piece = line[start:end]
        again = prepare_fts_text(piece, tokenizer)
        if not piece or len(again) > SNIPPET_WINDOW or again != folded[folded_start:folded_end]:
            for offset, rest in _cut(line[start:], SNIPPET_WINDOW // 3):
                yield start + offset, rest, None
            return
        yield start, piece, again
        at, folded_at = end, folded_end


def _after_words(text: str, start: int, words: int) -> int:
    """Where the word after the first ``words`` words of ``text`` from ``start`` starts (its
    length when there are no more); ``start`` is where a word or white space starts."""
    if not words:
        return len(text) - len(text[start:].lstrip())
    rest = text[start:].split(maxsplit=words)
    return len(text) - len(rest[words]) if len(rest) > words else len(text)


def _cut(text: str, window: int) -> Iterator[tuple[int, str]]:
    """``text`` in consecutive pieces of at most ``window`` characters, each with where it
    starts (:func:`_cut_end`)."""
    start = 0
    while start < len(text):
        end = _cut_end(text, start, window)
        yield start, text[start:end]
        start = end


def _cut_end(text: str, start: int, window: int) -> int:
    """Where the piece of ``text`` from ``start`` of at most ``window`` characters ends: after
    a space or newline where there is one, else where no grapheme splits."""
    end = start + window
    if end >= len(text):
        return len(text)
    cut = max(text.rfind(" ", start, end), text.rfind("\n", start, end))
    if cut > start:
        return cut + 1
    whole = grapheme_boundary(text, end)
    return whole if whole > start else end


def _free_marks(prepared: str) -> tuple[str, str, str]:
    """Three characters ``prepared`` does not hold (private use ones), to mark a snippet of it
    by: where its highlights start and end, and its ellipsis."""
    marks = ("\ue000", "\ue001", "\ue002")
    if not any(mark in prepared for mark in marks):
        return marks
    held = set(prepared)
    free = (chr(code) for code in range(0xE000, 0x110000) if chr(code) not in held)
    return next(free), next(free), next(free)  # a piece folds to fewer than 65,536 characters


def _shown(
    snippet: str, marks: tuple[str, str, str], piece: str, prepared: str, tokenizer: str
) -> tuple[int, int, str]:
    """FTS5's ``snippet`` of ``prepared`` (the folded ``piece``), marked with ``marks``, as a
    stretch of ``piece``: where it starts and ends in ``piece``, and its text with RFC-0004's
    markers. Each bound and highlight is moved out to whole graphemes of ``piece``; highlights
    that then overlap are one."""
    start_mark, end_mark, ellipsis = marks
    body = snippet.removeprefix(ellipsis)
    leading = len(body) < len(snippet)
    trailing = body.endswith(ellipsis)
    body = body.removesuffix(ellipsis) if trailing else body
    plain: list[str] = []
    highlights: list[list[int]] = []
    length = 0
    for part in re.split(f"([{start_mark}{end_mark}])", body):
        if part == start_mark:
            highlights.append([length, length])
        elif part == end_mark and highlights:
            highlights[-1][1] = length
        else:
            plain.append(part)
            length += len(part)
    text = "".join(plain)
    if not leading:
        at = 0
    elif not trailing:
        at = len(prepared) - len(text)
    else:
        at = prepared.find(text)
    if at < 0 or not prepared.startswith(text, at):  # cannot be: FTS5 copies the text
        at, text, highlights = 0, prepared, []
    units: list[Span] | None = None
    if piece != prepared:  # where the folding changed it: word by word
        whole: list[Span] = [(0, len(piece), 0, len(prepared), False)]
        units = _spans(re.findall(_WORD, piece), tokenizer, prepared) or whole
    starts = [] if units is None else [unit[2] for unit in units]

    def written(position: int, end: bool) -> int:
        if units is not None:
            position = _written(position, end, piece, units, starts, tokenizer)
        return grapheme_boundary(piece, position, forward=end)

    first, last = written(at, False), written(at + len(text), True)
    shown: list[str] = []
    cursor = first
    for low, high in highlights:
        low, high = written(at + low, False), min(written(at + high, True), last)
        if high <= max(low, cursor):
            continue
        if shown and low < cursor:  # it overlaps the one before, moved out to whole graphemes
            shown.pop()
        else:
            low = max(low, cursor)
            shown += [piece[cursor:low], OPEN]
            cursor = low
        shown += [piece[cursor:high], CLOSE]
        cursor = high
    shown.append(piece[cursor:last])
    return first, last, "".join(shown)


def _spans(parts: list[str], tokenizer: str, prepared: str) -> list[Span] | None:
    """The :data:`Span` of each of ``parts`` (consecutive, a text cut in words or graphemes)
    folded one by one; None when together they do not fold to ``prepared`` (where the
    folding of one depends on the next)."""
    spans: list[Span] = []
    written = folded = 0
    for part in parts:
        alone = prepare_fts_text(part, tokenizer)
        if not prepared.startswith(alone, folded):
            return None
        spans.append((written, written + len(part), folded, folded + len(alone), alone == part))
        written, folded = written + len(part), folded + len(alone)
    return spans if folded == len(prepared) else None


def _written(
    position: int, end: bool, piece: str, units: list[Span], starts: list[int], tokenizer: str
) -> int:
    """Where ``position`` of the folded ``piece`` is in ``piece`` (``units``: its words'
    :data:`Span`, ``starts`` where each starts folded): inside a word the folding left as it
    was, the same character; inside one it changed, the start (``end``: the end) of the
    grapheme it is in, or of the word when its graphemes do not fold alone."""
    from bisect import bisect_right  # here: an ASCII search never needs it

    inside = position - 1 if end else position  # the character a bound is of
    if inside < 0:
        return 0
    if inside >= units[-1][3]:
        return len(piece)
    w0, w1, p0, _, unchanged = units[bisect_right(starts, inside) - 1]
    if unchanged:
        return w0 + position - p0
    word = piece[w0:w1]
    cuts = [i for i in range(len(word) + 1) if grapheme_boundary(word, i) == i]
    graphemes = [word[low:high] for low, high in itertools.pairwise(cuts)]
    spans = _spans(graphemes, tokenizer, prepare_fts_text(word, tokenizer))
    if spans is None:
        return w1 if end else w0
    g0, g1, q0, _, same = spans[bisect_right([span[2] for span in spans], inside - p0) - 1]
    if same:
        return w0 + g0 + position - p0 - q0
    return w0 + (g1 if end else g0)
