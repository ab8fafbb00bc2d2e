"""The reads of an index, each on the :class:`~skillc_index.index.freshness.IndexHandle`
that :func:`~skillc_index.index.freshness.require_index` returned: the headings
(:func:`read_headings`, and with the files over the parse limit :func:`read_outline`),
``show``'s matching (:func:`matching_headings`, which ``stats`` uses too, over headings held
in memory as the build's stub does: :class:`HeadingMatcher`; :func:`section_queries`,
:func:`normalized_query`, :func:`find_headings`) and ``search`` with its snippets
(:func:`search_sections`).

RFC-0004: any failure reading the database is corruption, raised as E002 naming the skill.
"""

from __future__ import annotations

import re
import sqlite3
from collections.abc import Callable, Iterable, Iterator
from contextlib import closing

from skillc_index.diagnostics import IndexUnusable
from skillc_index.files import fs_bytes, is_utf8, path_from_db
from skillc_index.folding import cased_key, folded_key, written_key
from skillc_index.index.freshness import IndexHandle
from skillc_index.index.fts import TOKENIZE_CLAUSES
from skillc_index.index.schema import IndexedHeading, StoredHeading
from skillc_index.index.snippets import (
    CLOSE,
    ELLIPSIS,
    OPEN,
    SNIPPET_WINDOW,
    TOKENS,
    written_snippet,
)
from skillc_index.record import Record
from skillc_index.text import one_line, printable, stub_label

__all__ = [
    "HEADINGS_CACHE_MAX",
    "HEADING_TIERS",
    "SNIPPET_WINDOW",
    "HeadingMatcher",
    "IndexOutline",
    "SectionHit",
    "closest_headings",
    "find_headings",
    "heading_case_key",
    "heading_key",
    "matching_headings",
    "normalized_query",
    "read_headings",
    "read_outline",
    "search_sections",
    "section_queries",
]

#: Indexes with at most this many headings keep them, grouped by case-folded text, in their
#: :class:`~skillc_index.index.freshness.IndexSnapshot` (``show`` looks them up on every call
#: of an MCP session). Larger indexes are scanned on each call instead, so a process's memory
#: does not grow with the skill.
HEADINGS_CACHE_MAX = 20_000

#: Headings in file then line order: by ``id``, the file's number (the bytewise order of
#: their paths, as ``outline`` lists them) then the heading's; ``ORDER BY file`` put every
#: path stored as text (UTF-8) before those stored as bytes (a name that is not UTF-8).
_HEADINGS_SQL = "SELECT file, text, level, start_line, end_line FROM headings ORDER BY id"


def _heading(row: StoredHeading) -> IndexedHeading:
    f, t, lv, s, e = row
    return IndexedHeading(path_from_db(f), str(t), int(lv), int(s), int(e))


def _scan_rows(index: IndexHandle) -> Iterator[StoredHeading]:
    """Every heading row of the index, in file then line order, read row by row."""
    try:
        with closing(index.connect()) as connection:
            yield from connection.execute(_HEADINGS_SQL)
    except sqlite3.Error as exc:  # RFC-0004: any read failure is corruption
        raise IndexUnusable(index.skill, f"corrupt: {exc}") from exc


def _scan_headings(index: IndexHandle) -> Iterator[IndexedHeading]:
    """Every heading of the index, in file then line order, read row by row."""
    return (_heading(row) for row in _scan_rows(index))


def _headings_by_fold(index: IndexHandle) -> dict[str, list[StoredHeading]] | None:
    """The heading rows grouped by case-folded text, kept in the handle's snapshot from the
    first call on; None when the index has more than :data:`HEADINGS_CACHE_MAX` headings.
    Rows, not :class:`IndexedHeading` records: a lookup makes records of its matches only
    (``skc show`` looks up one heading among hundreds, once)."""
    snapshot = index.snapshot
    if snapshot.headings_read:
        return snapshot.headings
    grouped: dict[str, list[StoredHeading]] = {}
    by_fold: dict[str, list[StoredHeading]] | None = grouped
    for count, row in enumerate(_scan_rows(index), start=1):
        if count > HEADINGS_CACHE_MAX:
            by_fold = None  # remembered too: the next call scans at once
            break
        grouped.setdefault(heading_key(row[1]), []).append(row)
    snapshot.headings, snapshot.headings_read = by_fold, True
    return by_fold


def read_headings(index: IndexHandle, file: str | None = None) -> Iterator[IndexedHeading]:
    """Every heading of the index (or of one file), in file (bytewise) then line order, read
    row by row."""
    return (h for h in _scan_headings(index) if file is None or h.file == file)


class IndexOutline(Record):
    """What ``outline`` reads of an index: every heading, in the order the build stored them
    (files in bytewise path order, as walked; headings in line order), and the Markdown files
    over the parse limit with the lines parsed of each, in bytewise path order."""

    headings: list[IndexedHeading]
    parse_limited: list[tuple[str, int]]


def read_outline(index: IndexHandle) -> IndexOutline:
    """The headings and parse-limited files of the index, in one read (E002 on any failure);
    kept in the handle's snapshot for the next call (an MCP session outlines a skill again
    without reading it again) unless it has more than :data:`HEADINGS_CACHE_MAX` headings."""
    snapshot = index.snapshot
    if snapshot.outline is not None:
        return snapshot.outline
    try:
        with closing(index.connect()) as connection:
            headings = [
                IndexedHeading(path_from_db(f), str(t), int(lv), int(s), int(e))
                for f, t, lv, s, e in connection.execute(
                    "SELECT file, text, level, start_line, end_line FROM headings ORDER BY id"
                )
            ]
            limited = [
                (path_from_db(path), int(lines))
                for path, lines in connection.execute(
                    "SELECT path, parsed_lines FROM files WHERE parsed_lines IS NOT NULL"
                )
            ]
    except sqlite3.Error as exc:  # RFC-0004: any read failure is corruption
        raise IndexUnusable(index.skill, f"corrupt: {exc}") from exc
    limited.sort(key=lambda row: fs_bytes(row[0]))
    found = IndexOutline(headings, limited)
    if len(headings) <= HEADINGS_CACHE_MAX:
        snapshot.outline = found
    return found


_LEADING_MARKS = r"^#{1,6}\s+"  # compiled on first use (as diagnostics explains)


def section_queries(section: str) -> list[str]:
    """The heading texts a ``show --section`` query names, in the order they are tried
    (RFC-0002:C-SHOW normalisation): the query trimmed, without leading ``#`` marks; then, if
    it holds ``" — "``, what comes before each of them, the longest first (a line copied
    from a stub's References list: ``title — description``). Headings may contain ``" — "``
    themselves (``Step 1 — Checks``), which is why the longer texts are tried first. Last,
    when the marks were dropped, the query as typed (trimmed): a heading's own text may
    begin with them (``### ## Setup``, whose text ``outline`` shows as ``## Setup``)."""
    found = _normalized(section)
    typed = section.strip()
    if typed != found[0]:
        found.append(typed)
    return found


def normalized_query(section: str) -> str:
    """The section a ``show`` query names once normalised (:func:`section_queries`' first
    texts): what an error about it quotes."""
    return _normalized(section)[-1]


def _normalized(section: str) -> list[str]:
    """The query without leading marks, then what comes before each ``" — "`` in it, the
    longest first: a References line is ``title — description``, and either may hold the
    dash itself (``Quality Playbook — Claude Code — Run ...``)."""
    whole = re.sub(_LEADING_MARKS, "", section.strip())
    parts = whole.split(" — ")
    return [whole] + [" — ".join(parts[:n]).strip() for n in range(len(parts) - 1, 0, -1)]


def matching_headings(
    section: str,
    find: Callable[[str], list[IndexedHeading]],
    every: Callable[[], Iterable[IndexedHeading]],
) -> tuple[str, list[IndexedHeading]]:
    """``show``'s one matching rule (RFC-0002:C-SHOW), which ``stats`` counts a ``show`` row
    by: the query that matched and the headings it matched, in file then line order (``show``
    serves the first, or with ``--nth N`` the Nth); no headings when none matches, with the
    normalised query (what an error quotes). Each text of :func:`section_queries` is looked
    up in turn; when none is a heading's, the headings whose text, on one line
    (:func:`~skillc_index.text.one_line`), as a stub lists it
    (:func:`~skillc_index.text.stub_label`) or escaped as text output shows it, is the
    query. ``find``: the headings a text matches (:func:`closest_headings`); ``every``: all
    the headings looked in (an index's, of one file with ``--file``, or a hidden file's)."""
    for candidate in section_queries(section):
        matches = find(candidate) if candidate else []
        if matches:
            return candidate, matches
    query = normalized_query(section)
    if not query:
        return query, []
    folded = heading_key(query)
    forms = (one_line, stub_label, printable)
    found = [h for h in every() if any(folded == heading_key(form(h.text)) for form in forms)]
    return query, closest_headings(query, found, *forms)


class HeadingMatcher:
    """Headings held in memory, added in file (bytewise) then line order (as the index
    stores them), and the ones ``show --section S [--file F]`` matches among them
    (:meth:`matches`, by :func:`matching_headings`: ``--nth N`` serves the Nth). What
    ``stats`` counts a ``show`` row by, and what the build's stub computes each entry's
    command by: pasted, the command reads that entry."""

    def __init__(self, headings: Iterable[IndexedHeading] = ()) -> None:
        self.headings: list[IndexedHeading] = []
        self._by_key: dict[str, list[IndexedHeading]] = {}
        self._by_file: dict[str, list[IndexedHeading]] = {}
        for heading in headings:
            self.add(heading)

    def add(self, heading: IndexedHeading) -> None:
        """The next heading (of its file, or of a file after the last one's)."""
        self.headings.append(heading)
        self._by_key.setdefault(heading_key(heading.text), []).append(heading)
        self._by_file.setdefault(heading.file, []).append(heading)

    def of_file(self, file: str) -> list[IndexedHeading]:
        """The headings of ``file``, in line order."""
        return self._by_file.get(file, [])

    def with_text(self, text: str, file: str | None = None) -> list[IndexedHeading]:
        """The headings ``text`` matches as ``show`` compares them (:func:`closest_headings`),
        of ``file`` only when given, in order."""
        fold = heading_key(text)  # as find_headings: no heading holds bytes not UTF-8
        found = self._by_key.get(fold, []) if is_utf8(fold) else []
        return closest_headings(text, [h for h in found if file is None or h.file == file])

    def matches(self, section: str, file: str | None = None) -> list[IndexedHeading]:
        """The headings ``show --section SECTION`` (``--file FILE``) matches, in order."""
        every = self.headings if file is None else self.of_file(file)
        return matching_headings(section, lambda text: self.with_text(text, file), lambda: every)[1]


_MATCHING_SQL = (
    "SELECT file, text, level, start_line, end_line FROM headings"
    " WHERE skillc_casefold(text) = ? ORDER BY id"
)


def heading_key(text: object) -> str:
    """What a heading's text and a ``show`` query are compared by, the headings grouped by
    (:func:`closest_headings` prefers those of the same :func:`heading_case_key` among
    them): the one fold ``search``
    and ``find`` match by too (:func:`~skillc_index.folding.folded_key`: full-width letters
    as ASCII, ``ＰＤＦ ｍｅｒｇｅ`` finds ``PDF merge``; however its accents are composed, and
    without them, ``ΕΛΛΗΝΙΚΑ`` finds ``Ελληνικά``; Arabic and Hebrew without their vowel
    marks; case folded, ``STRASSE`` finds ``Straße``, and the Turkish i's alike, ``istanbul``
    finds ``İstanbul``, ``ışık`` ``Işık``; no variation selector, so 🚀 and U+FE0F find 🚀).
    The one key of every lookup of a section (:func:`find_headings`, the gateway's hidden
    files and its suggestions)."""
    return folded_key(str(text))


def heading_case_key(text: object) -> str:
    """:func:`heading_key` with the accents kept (:func:`~skillc_index.folding.cased_key`:
    case folded, ``RÉSUMÉ`` is ``résumé`` and not ``resume``): what tells the headings one
    :func:`heading_key` groups apart (:func:`closest_headings`)."""
    return cased_key(str(text))


#: The keys of the tiers a lookup of a section tries, the strictest first, before any heading
#: of the same :func:`heading_key`: the text as written
#: (:func:`~skillc_index.folding.written_key`), then with its accents
#: (:func:`heading_case_key`). The one list :func:`closest_headings` (what ``show`` serves)
#: and the gateway's suggestions (what it offers when nothing matches) rank by.
HEADING_TIERS: tuple[Callable[[str], str], ...] = (written_key, heading_case_key)


def closest_headings(
    text: str, found: list[IndexedHeading], *forms: Callable[[str], str]
) -> list[IndexedHeading]:
    """The headings ``show --section TEXT`` matches among ``found``, those whose
    :func:`heading_key` (of a ``form`` of their text, when given: ``one_line``,
    ``stub_label``, ``printable``) is ``text``'s, in order: the closest of them, in tiers
    from the strictest, the first tier any heading is in: the text as written
    (:func:`~skillc_index.folding.written_key`: case and composition aside, ``Maße`` finds
    ``## Maße`` and not ``## Masse``, ``⚠️ Warnung`` with U+FE0F ``## ⚠️ Warnung`` and not
    ``## ⚠ Warnung``), the accents (:func:`heading_case_key`: ``Résumé`` finds ``## Résumé``
    and not ``## Resume``), else all of them (``resume`` finds ``## Résumé`` when it is
    alone), so each looser tier only adds an answer where there was none. The one choice of
    every lookup of a section (:func:`find_headings`, :class:`HeadingMatcher`,
    :func:`matching_headings`); nothing more to compute when ``found`` holds one heading or
    none (a heading text used once, as most are)."""
    if len(found) < 2:
        return found
    for key_of in HEADING_TIERS:
        key = key_of(text)
        closest = [
            heading
            for heading in found
            if any(key_of(form(heading.text)) == key for form in forms or (str,))
        ]
        if closest:
            return closest
    return found


def _matching_rows(index: IndexHandle, fold: str) -> list[StoredHeading]:
    """The heading rows whose case-folded text is ``fold``, in file then line order, found by
    SQLite (each heading folded by Python, in a function the query calls): only the matches
    are read."""
    try:
        with closing(index.connect()) as connection:
            connection.create_function("skillc_casefold", 1, heading_key, deterministic=True)
            rows: list[StoredHeading] = connection.execute(_MATCHING_SQL, (fold,)).fetchall()
    except sqlite3.Error as exc:  # RFC-0004: any read failure is corruption
        raise IndexUnusable(index.skill, f"corrupt: {exc}") from exc
    return rows


def find_headings(index: IndexHandle, text: str, file: str | None = None) -> list[IndexedHeading]:
    """Headings whose text equals ``text`` ignoring case and composition (:func:`heading_key`:
    Unicode case folding, not just SQLite's ASCII NOCASE), then accents if none is it with
    them (:func:`closest_headings`), in file (bytewise) then line order; only in ``file`` if
    given.

    The first lookup in an index asks SQLite for the matches (a command line ``show`` looks
    up one heading: reading the 800 headings of a large skill cost it four times as much);
    the next one reads every heading into the snapshot, grouped by folded text, for the
    lookups after it (the MCP server's calls). An index with more than
    :data:`HEADINGS_CACHE_MAX` headings is always asked."""
    fold = heading_key(text)
    if not is_utf8(fold):  # bytes that are not UTF-8 (lone surrogates): no heading has them
        return []
    snapshot = index.snapshot
    by_fold = _headings_by_fold(index) if snapshot.headings_looked_up else None
    snapshot.headings_looked_up = True
    rows = by_fold.get(fold, []) if by_fold is not None else _matching_rows(index, fold)
    found = [_heading(row) for row in rows]
    return closest_headings(text, [h for h in found if file is None or h.file == file])


class SectionHit(Record):
    """A ``sections`` row matching a search: its score is ``-bm25`` (higher is better)."""

    file: str
    section: str
    snippet: str
    score: float


_SNIPPET_ARGS = f"'{OPEN}', '{CLOSE}', '{ELLIPSIS}', {TOKENS}"
_PHRASE = r'"(?:[^"]|"")*"'  # compiled on first use (as diagnostics explains)


def search_sections(index: IndexHandle, match: str, limit: int) -> list[SectionHit]:
    """The ``limit`` best sections for an FTS5 MATCH expression (RFC-0004:C-SEARCH): BM25,
    snippets of the content column with ``[MATCH]``/``[/MATCH]``, ``...`` and 32 tokens, in
    the skill's own text.

    Ordered by FTS5's ``rank`` column, whose default function is ``bm25()`` (the index never
    changes it): FTS5 then hands the rows over already sorted, so snippets are made for the
    ``limit`` rows returned only, not for every match (ten times faster on large skills).

    The index holds folded text (:func:`~skillc_index.index.fts.prepare_fts_text`): a hit's
    file is the name on disk (the ``path`` column), and a row whose text the folding changed
    or is not all ASCII gets its section and snippet as written (its ``originals``,
    :func:`~skillc_index.index.snippets.written_snippet`); one the folding did not change (no
    ``originals`` row: full-width letters fold to ASCII, so the folded text cannot tell) and
    ASCII, as FTS5 gives them.
    FTS5's ``snippet()`` costs the square of the phrase hits in a row, so two things keep it
    linear: phrases that are the same tokens for the index's tokenizer (``Word``, ``word!``,
    ``(word)``) are asked once (:func:`_distinct_phrases`; the same AND), and a section
    longer than :data:`SNIPPET_WINDOW` gets its snippet from a window of its text, read one
    section at a time.

    E100 for a ``match`` that is no ``str`` or a ``limit`` that is no count from 0 to
    :data:`~skillc_index.arguments.MAX_COUNT` (:func:`~skillc_index.arguments.checked`), not
    an ``OverflowError`` nor an E002 "datatype mismatch" from SQLite.
    """
    from skillc_index.arguments import MAX_COUNT, checked

    match = checked("match", match, {"type": "string"})
    limit = checked("limit", limit, {"type": "integer", "minimum": 0, "maximum": MAX_COUNT})
    sql = (
        f"SELECT path, file, section, CASE WHEN length(content) <= {SNIPPET_WINDOW}"
        " AND length(CAST(content AS BLOB)) = length(content)"  # ASCII, and as written:
        " AND (SELECT content FROM originals WHERE id = sections.rowid) IS NULL"
        f" THEN snippet(sections, 2, {_SNIPPET_ARGS}) END, rank,"
        " rowid FROM sections WHERE sections MATCH ? ORDER BY rank LIMIT ?"
    )
    tokenizer = index.meta.tokenizer
    tokenize = TOKENIZE_CLAUSES[tokenizer]  # a known one: the check made sure
    hits: list[SectionHit] = []
    try:
        with closing(index.connect()) as connection:
            phrases = re.findall(_PHRASE, match)
            if len(phrases) > 1:
                phrases = _distinct_phrases(phrases, tokenize)
                match = " ".join(phrases)
            rows = connection.execute(sql, (match, limit)).fetchall()
            for path, file, section, snippet, rank, rowid in rows:
                shown, written = section, None
                original = connection.execute(  # full-width text folds to ASCII: always asked
                    "SELECT section, content FROM originals WHERE id = ?", (rowid,)
                ).fetchone()
                if original is not None:
                    shown = section if original[0] is None else original[0]
                    written = original[1]
                if snippet is None:
                    (content,) = connection.execute(
                        "SELECT content FROM sections WHERE rowid = ?", (rowid,)
                    ).fetchone()
                    any_word = " OR ".join(phrases)
                    snippet = written_snippet(
                        content,
                        content if written is None else written,
                        match,
                        any_word,
                        (file, section),
                        tokenize,
                        tokenizer,
                    )
                file_shown = path_from_db(path)  # the name on disk; ``file`` is folded
                hits.append(SectionHit(file_shown, shown, snippet, -float(rank)))
    except sqlite3.Error as exc:
        raise IndexUnusable(index.skill, f"corrupt: {exc}") from exc
    return hits


def _distinct_phrases(phrases: list[str], tokenize: str) -> list[str]:
    """``phrases`` (quoted FTS5 strings) without those whose tokens, for ``tokenize``, are
    those of an earlier one: each is tokenized by FTS5 itself (an in-memory table and its
    ``fts5vocab``), so nothing is merged that the index would tell apart."""
    words = [phrase[1:-1].replace('""', '"') for phrase in phrases]
    tokens: dict[int, list[str]] = {}
    with closing(sqlite3.connect(":memory:")) as memory:
        memory.execute(f"CREATE VIRTUAL TABLE q USING fts5(w, tokenize='{tokenize}')")
        memory.execute("CREATE VIRTUAL TABLE v USING fts5vocab(q, instance)")
        memory.executemany("INSERT INTO q (rowid, w) VALUES (?, ?)", enumerate(words))
        for doc, term in memory.execute("SELECT doc, term FROM v ORDER BY doc, offset"):
            tokens.setdefault(doc, []).append(term)
    seen: set[tuple[str, ...]] = set()
    kept: list[str] = []
    for number, phrase in enumerate(phrases):
        key = tuple(tokens.get(number, ()))
        if key not in seen:
            seen.add(key)
            kept.append(phrase)
    return kept
