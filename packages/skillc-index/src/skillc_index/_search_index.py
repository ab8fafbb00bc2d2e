"""The search and headings index (RFC-0004:C-INDEX): one SQLite database per skill source at
``<runtime>/.skillc-meta/search-<hash16>.db``. This module owns its schema, writes it, reads
its metadata, and decides whether it is usable; nothing else opens the file.

Schema (version 2): the RFC's ``sections`` FTS5 table, ``headings`` table with
``idx_headings_text``, ``index_meta`` (``source_hash``, ``skill_path``, ``schema_version``,
``indexed_at``, ``tokenizer``, plus ``stats_at_ns``), and a ``files`` table with the path,
size and modification time of every source file at build time, so a reader can tell that the
sources are unchanged from file stats alone (DECISIONS "Gateway and index").

The FTS5 ``tokenize`` option is spliced into the DDL from the fixed table
:data:`~skillc_index._fts.TOKENIZE_CLAUSES` (DDL cannot take parameters); every value goes
through ``?`` parameters.
"""

from __future__ import annotations

import os
import re
import sqlite3
import stat as stat_module
import time
from collections.abc import Callable, Iterable, Iterator, Mapping
from contextlib import closing
from pathlib import Path
from typing import Any, Literal, NamedTuple

from skillc_index._diagnostics import IndexCollision, IndexUnusable
from skillc_index._files import (
    fs_bytes,
    path_from_db,
    path_to_db,
    source_hash,
    sqlite_uri,
    walk_skill,
)
from skillc_index._fts import TOKENIZE_CLAUSES, index_tokenizer, prepare_fts_text, restore_fts_text
from skillc_index._layout import META_DIR, ResolvedSkill
from skillc_index._text import valid_utf8

__all__ = [
    "SCHEMA_VERSION",
    "Document",
    "FileStat",
    "HeadingRow",
    "IndexMeta",
    "IndexState",
    "IndexedHeading",
    "SectionHit",
    "check_index",
    "find_headings",
    "hash16",
    "index_is_fresh",
    "index_path",
    "indexed_file_stat",
    "inspect_index",
    "read_headings",
    "refuse_collision",
    "require_index",
    "search_sections",
    "section_queries",
    "stat_files",
    "write_index",
]

SCHEMA_VERSION = 2
REQUIRED_KEYS = ("skill_path", "source_hash", "schema_version", "tokenizer")
REQUIRED_TABLES = frozenset({"sections", "headings", "index_meta", "files"})
#: Files changed this close (ns) to the moment their stats were recorded may have been changed
#: again within the file system's timestamp granularity: their stats prove nothing. Linux
#: file systems stamp times from a coarse clock (one scheduler tick, at most 10 ms) and APFS
#: in nanoseconds; 100 ms covers both with room. (A build right after a copy, as an import
#: does, would otherwise leave every file "racy" and every reader hashing the sources.)
RACY_WINDOW_NS = 100_000_000

_SCHEMA = """
CREATE VIRTUAL TABLE sections USING fts5(
    file,
    section,
    content,
    tokenize='{tokenize}'
);
CREATE TABLE headings (
    id INTEGER PRIMARY KEY,
    file TEXT NOT NULL,
    text TEXT NOT NULL,
    level INTEGER NOT NULL,
    start_line INTEGER NOT NULL,
    end_line INTEGER NOT NULL
);
CREATE INDEX idx_headings_text ON headings(text COLLATE NOCASE);
CREATE TABLE index_meta (
    key TEXT PRIMARY KEY,
    value TEXT
);
CREATE TABLE files (
    path TEXT PRIMARY KEY,
    size INTEGER NOT NULL,
    mtime_ns INTEGER NOT NULL
);
"""

IndexStatus = Literal["missing", "corrupt", "collision", "stale", "current"]
#: A row of the ``sections`` table: ``(file, section, content)``.
Document = tuple[str, str, str]
#: A row of the ``headings`` table: ``(file, text, level, start_line, end_line)``.
HeadingRow = tuple[str, str, int, int, int]


class FileStat(NamedTuple):
    """A source file as the index recorded it."""

    path: str
    size: int
    mtime_ns: int


class IndexMeta(NamedTuple):
    """The ``index_meta`` of a readable index."""

    skill_path: str
    source_hash: str
    schema_version: int
    tokenizer: str
    indexed_at: str | None
    stats_at_ns: int | None


class IndexState(NamedTuple):
    """What :func:`inspect_index` / :func:`check_index` found."""

    status: IndexStatus
    path: Path
    hash16: str
    reason: str = ""
    """Why it is corrupt or stale, for people (``-v``) and scripts."""
    meta: IndexMeta | None = None


class _Corrupt(Exception):
    """Any failure reading the index (RFC-0004: all of them are corruption)."""


def canonical_source(source: Path) -> str:
    """The canonical absolute path of a source folder, as ``skill_path`` records it."""
    return os.path.realpath(source)


def hash16(source: Path) -> str:
    """First 16 hex characters of the SHA-256 of the canonical source path (RFC-0004)."""
    return _sha256_hex(fs_bytes(canonical_source(source)))[:16]


_sha256: Callable[[bytes], Any] | None = None


def _sha256_hex(data: bytes) -> str:
    """SHA-256 of a few bytes. ``show``/``search`` hash one path per call: CPython's built-in
    SHA-256 module spares them loading OpenSSL through hashlib (about 3 ms); the digest is
    the same. The implementation is looked up once per process."""
    global _sha256
    if _sha256 is None:
        try:
            from _sha2 import sha256  # type: ignore[import-not-found,unused-ignore]  # 3.12+
        except ImportError:
            try:
                from _sha256 import sha256  # type: ignore[import-not-found,no-redef,unused-ignore]
            except ImportError:  # a build without the built-in modules
                from hashlib import sha256
        _sha256 = sha256
    return str(_sha256(data).hexdigest())


def index_path(runtime: Path, source: Path) -> Path:
    """``<runtime>/.skillc-meta/search-<hash16>.db`` for a source folder."""
    return runtime / META_DIR / f"search-{hash16(source)}.db"


def stat_files(source: Path, files: Iterable[str]) -> dict[str, FileStat]:
    """Size and modification time of each file (symlinks followed), by relative path."""
    root = canonical_source(source)
    stats: dict[str, FileStat] = {}
    for rel in files:
        st = os.stat(os.path.join(root, rel))  # noqa: PTH116, PTH118 - a hot loop
        stats[rel] = FileStat(rel, st.st_size, st.st_mtime_ns)
    return stats


#: Seconds a reader waits for a lock on an index. Builds never write an index in place (they
#: rename a new file over it), so a lock can only be another program's: waiting longer would
#: not help, and a busy reader answers E002 (RFC-0004: a read failure is corruption) quickly.
READ_TIMEOUT = 0.5


def _connect_read_only(path: Path) -> sqlite3.Connection:
    return sqlite3.connect(sqlite_uri(path, "ro"), uri=True, timeout=READ_TIMEOUT)


def _read(path: Path) -> tuple[IndexMeta, dict[str, FileStat]]:
    """The metadata and file stats of an index; :class:`_Corrupt` on any failure."""
    try:
        with closing(_connect_read_only(path)) as connection:
            tables = {
                row[0]
                for row in connection.execute("SELECT name FROM sqlite_master WHERE type='table'")
            }
            if not tables >= REQUIRED_TABLES:
                missing = ", ".join(sorted(REQUIRED_TABLES - tables))
                raise _Corrupt(f"missing table(s): {missing}")
            values = dict(connection.execute("SELECT key, value FROM index_meta").fetchall())
            rows = connection.execute("SELECT path, size, mtime_ns FROM files").fetchall()
    except (sqlite3.Error, OSError, ValueError) as exc:
        raise _Corrupt(str(exc) or type(exc).__name__) from exc
    if isinstance(values.get("skill_path"), bytes):  # a folder whose name is not UTF-8
        values["skill_path"] = path_from_db(values["skill_path"])
    for key in REQUIRED_KEYS:
        if not isinstance(values.get(key), str) or not values[key]:
            raise _Corrupt(f"index_meta has no '{key}'")
    try:
        schema_version = int(values["schema_version"])
        stats_at = values.get("stats_at_ns")
        stats_at_ns = int(stats_at) if stats_at is not None else None
        files = {
            path_from_db(p): FileStat(path_from_db(p), int(size), int(mtime))
            for p, size, mtime in rows
        }
    except (TypeError, ValueError) as exc:
        raise _Corrupt(f"unparsable value: {exc}") from exc
    indexed_at = values.get("indexed_at")
    meta = IndexMeta(
        skill_path=values["skill_path"],
        source_hash=values["source_hash"],
        schema_version=schema_version,
        tokenizer=values["tokenizer"],
        indexed_at=indexed_at if isinstance(indexed_at, str) else None,
        stats_at_ns=stats_at_ns,
    )
    return meta, files


#: What :func:`_read` found, per index file, kept while the file is unchanged (same inode,
#: size and time: builds replace the file, never edit it): a long-running reader such as the
#: MCP server then checks freshness without opening the database on every call.
_read_cache: dict[Path, tuple[tuple[int, int, int, int], IndexMeta, dict[str, FileStat]]] = {}


def _load(runtime: Path, source: Path) -> tuple[IndexState, dict[str, FileStat]]:
    """Steps 1-4 of RFC-0004's lifecycle: missing, corrupt, collision; else readable."""
    key = hash16(source)
    path = runtime / META_DIR / f"search-{key}.db"  # index_path, without hashing twice
    try:
        st = path.stat()
    except OSError:
        st = None
    if st is None or not stat_module.S_ISREG(st.st_mode):
        return IndexState("missing", path, key, "no index file"), {}
    identity = (st.st_dev, st.st_ino, st.st_size, st.st_mtime_ns)
    cached = _read_cache.get(path)
    if cached is not None and cached[0] == identity:
        meta, files = cached[1], cached[2]
    else:
        try:
            meta, files = _read(path)
        except _Corrupt as exc:
            return IndexState("corrupt", path, key, str(exc)), {}
        if st.st_mtime_ns < time.time_ns() - RACY_WINDOW_NS:
            # Only a file older than the timestamp granularity is known by its stats: one
            # changed in place within the same clock tick would look the same.
            _read_cache[path] = (identity, meta, files)
    if meta.skill_path != canonical_source(source):
        return IndexState("collision", path, key, f"built for {meta.skill_path}", meta), files
    return IndexState("current", path, key, "", meta), files


def refuse_collision(runtime: Path, source: Path) -> None:
    """Raise :class:`IndexCollision` (E003) when the index file for ``source`` exists and was
    built for another source folder (RFC-0004 lifecycle step 4)."""
    state, _files = _load(runtime, source)
    if state.status == "collision":
        raise IndexCollision(state.hash16)


def _stale_reason(meta: IndexMeta, current_hash: str | None, tokenizer: str) -> str:
    if meta.schema_version != SCHEMA_VERSION:
        return f"schema version {meta.schema_version}, expected {SCHEMA_VERSION}"
    if meta.tokenizer != tokenizer:
        return f"tokenizer '{meta.tokenizer}', expected '{tokenizer}'"
    if current_hash is not None and meta.source_hash != current_hash:
        return "sources changed"
    return ""


def inspect_index(runtime: Path, source: Path, current_hash: str, tokenizer: str) -> IndexState:
    """The build's view (RFC-0004:C-INDEX "Index lifecycle"), given the source hash just
    computed and the tokenizer the build would use (:func:`index_tokenizer`)."""
    state, _files = _load(runtime, source)
    if state.status != "current" or state.meta is None:
        return state
    reason = _stale_reason(state.meta, current_hash, tokenizer)
    if reason:
        return IndexState("stale", state.path, state.hash16, reason, state.meta)
    return state


def _unchanged_by_stats(
    source: Path, recorded: Mapping[str, FileStat], stats_at_ns: int | None
) -> bool | None:
    """True when the files are provably those indexed (same paths, sizes and times, none
    changed too close to the recording), False when they certainly differ (files added,
    removed, or escaping), None when only reading them can tell."""
    found = walk_skill(source)
    if found.escapes or set(found.files) != set(recorded):
        return False
    try:
        now = stat_files(source, found.files)
    except OSError:
        return None
    limit = None if stats_at_ns is None else stats_at_ns - RACY_WINDOW_NS
    for rel, stat in now.items():
        if stat != recorded[rel]:
            return None
        if limit is None or stat.mtime_ns >= limit:
            return None
    return True


def check_index(runtime: Path, source: Path, tokenizer_setting: str) -> IndexState:
    """The readers' view (``show``, ``search``; RFC-0004 "Index file selection"): ``missing``,
    ``corrupt``, ``collision``, ``stale`` or ``current``.

    Stale means the index no longer matches the sources as they are now (DECISIONS). The
    common case costs a folder walk and one ``stat`` per file; the sources are hashed only
    when a file's size or time changed (an edit that was undone stays ``current``).
    """
    tokenizer = index_tokenizer(tokenizer_setting)
    state, recorded = _load(runtime, source)
    if state.status != "current" or state.meta is None:
        return state
    meta = state.meta
    reason = _stale_reason(meta, None, tokenizer)
    if not reason:
        unchanged = _unchanged_by_stats(source, recorded, meta.stats_at_ns)
        if unchanged is False:
            reason = "source files added, removed or moved out of the skill"
        elif unchanged is None:
            try:
                current_hash = source_hash(source)
            except OSError as exc:
                current_hash = f"unreadable: {exc}"
            reason = _stale_reason(meta, current_hash, tokenizer)
    if reason:
        return IndexState("stale", state.path, state.hash16, reason, meta)
    return state


def indexed_file_stat(runtime: Path, source: Path, file: str) -> FileStat | None:
    """The size and time the index recorded for one source file (None: not indexed).

    A reader that checked the index and then read a file compares the file's stats with
    these afterwards: an edit between the check and the read shows there, and the lines read
    are then not the ones the index describes."""
    _state, files = _load(runtime, source)
    return files.get(file)


def index_is_fresh(runtime: Path, source: Path, tokenizer_setting: str) -> bool:
    """Whether the index of ``source`` in ``runtime`` can be used as it is."""
    return check_index(runtime, source, tokenizer_setting).status == "current"


def require_index(skill: ResolvedSkill, tokenizer_setting: str) -> Path:
    """The index database of a resolved skill, ready to query; otherwise E003 for a
    collision and E002 for a missing, corrupt or stale index (RFC-0004 steps 1-5)."""
    state = check_index(skill.runtime, skill.source, tokenizer_setting)
    if state.status == "collision":
        raise IndexCollision(state.hash16)
    if state.status != "current":
        raise IndexUnusable(skill.name, f"{state.status}: {state.reason}")
    return state.path


class IndexedHeading(NamedTuple):
    """A row of the ``headings`` table."""

    file: str
    text: str
    level: int
    start_line: int
    end_line: int


class SectionHit(NamedTuple):
    """A ``sections`` row matching a search: its score is ``-bm25`` (higher is better)."""

    file: str
    section: str
    snippet: str
    score: float


#: Headings per index file, kept like :data:`_read_cache` for indexes of at most
#: :data:`HEADINGS_CACHE_MAX` headings: by case-folded text, in file (bytewise) then line order
#: (``show`` looks them up on every call of an MCP session). Larger indexes are scanned on
#: each call instead, so a process's memory does not grow with the skill.
_headings_cache: dict[
    Path, tuple[tuple[int, int, int, int], dict[str, list[IndexedHeading]] | None]
] = {}
HEADINGS_CACHE_MAX = 20_000

_HEADINGS_SQL = (
    "SELECT file, text, level, start_line, end_line FROM headings ORDER BY file, start_line"
)


def _scan_headings(index: Path, skill: str) -> Iterator[IndexedHeading]:
    """Every heading of the index, in file then line order, read row by row."""
    try:
        with closing(_connect_read_only(index)) as connection:
            for f, t, lv, s, e in connection.execute(_HEADINGS_SQL):
                yield IndexedHeading(path_from_db(f), str(t), int(lv), int(s), int(e))
    except sqlite3.Error as exc:  # RFC-0004: any read failure is corruption
        raise IndexUnusable(skill, f"corrupt: {exc}") from exc


def _headings_by_fold(index: Path, skill: str) -> dict[str, list[IndexedHeading]] | None:
    """The headings grouped by case-folded text, from the cache or read into it; None when
    the index has more than :data:`HEADINGS_CACHE_MAX` headings."""
    try:
        st = index.stat()
    except OSError as exc:
        raise IndexUnusable(skill, f"corrupt: {exc}") from exc
    identity = (st.st_dev, st.st_ino, st.st_size, st.st_mtime_ns)
    cached = _headings_cache.get(index)
    if cached is not None and cached[0] == identity:
        return cached[1]
    grouped: dict[str, list[IndexedHeading]] = {}
    by_fold: dict[str, list[IndexedHeading]] | None = grouped
    for count, heading in enumerate(_scan_headings(index, skill), start=1):
        if count > HEADINGS_CACHE_MAX:
            by_fold = None  # remembered too: the next call scans at once
            break
        grouped.setdefault(heading.text.casefold(), []).append(heading)
    if st.st_mtime_ns < time.time_ns() - RACY_WINDOW_NS:  # see _load
        _headings_cache[index] = (identity, by_fold)
    return by_fold


def read_headings(index: Path, skill: str, file: str | None = None) -> Iterator[IndexedHeading]:
    """Every heading of the index (or of one file), in file (bytewise) then line order, read
    row by row. ``skill`` names the skill in the E002 raised when the database cannot be
    read."""
    return (h for h in _scan_headings(index, skill) if file is None or h.file == file)


_LEADING_MARKS = re.compile(r"^#{1,6}\s+")


def section_queries(section: str) -> list[str]:
    """The heading texts a ``show --section`` query names, in the order they are tried
    (RFC-0002:C-SHOW normalisation): the query trimmed, without leading ``#`` marks; then, if
    it holds ``" — "``, only what comes before it (a line copied from a stub's References
    list). Headings may contain ``" — "`` themselves (``Step 1 — Checks``), which is why the
    whole text is tried first. The last item is the normalised query."""
    whole = _LEADING_MARKS.sub("", section.strip())
    if " — " not in whole:
        return [whole]
    return [whole, whole.split(" — ", 1)[0].strip()]


def find_headings(
    index: Path, skill: str, text: str, file: str | None = None
) -> list[IndexedHeading]:
    """Headings whose text equals ``text`` ignoring case (Unicode case folding, not just
    SQLite's ASCII NOCASE), in file (bytewise) then line order; only in ``file`` if given."""
    fold = text.casefold()
    by_fold = _headings_by_fold(index, skill)
    if by_fold is not None:
        found: Iterable[IndexedHeading] = by_fold.get(fold, [])
    else:
        found = (h for h in _scan_headings(index, skill) if h.text.casefold() == fold)
    return [h for h in found if file is None or h.file == file]


#: Sections longer than this (characters) get their snippet from a window of their text: FTS5's
#: ``snippet()`` costs the square of the query's hits in the row (32,000 hits: 4.6 s), and a
#: section holding its subsections can be a whole 50 MB file. In this many characters (at most
#: ~3,000 tokens) it stays under a tenth of a second for any query of distinct phrases.
SNIPPET_WINDOW = 16_384

_SNIPPET_ARGS = "'[MATCH]', '[/MATCH]', '...', 32"
_PHRASE = re.compile(r'"(?:[^"]|"")*"')


def search_sections(index: Path, skill: str, match: str, limit: int) -> list[SectionHit]:
    """The ``limit`` best sections for an FTS5 MATCH expression (RFC-0004:C-SEARCH): BM25,
    snippets of the content column with ``[MATCH]``/``[/MATCH]``, ``...`` and 32 tokens.

    Ordered by FTS5's ``rank`` column, whose default function is ``bm25()`` (the index never
    changes it): FTS5 then hands the rows over already sorted, so snippets are made for the
    ``limit`` rows returned only, not for every match (ten times faster on large skills).

    FTS5's ``snippet()`` costs the square of the phrase hits in a row, so two things keep it
    linear: phrases that are the same tokens for the index's tokenizer (``Word``, ``word!``,
    ``(word)``) are asked once (:func:`_distinct_phrases`; the same AND), and a section
    longer than :data:`SNIPPET_WINDOW` gets its snippet from a window of its text
    (:func:`_long_snippet`), read one section at a time.
    """
    sql = (
        f"SELECT file, section, CASE WHEN length(content) <= {SNIPPET_WINDOW}"
        f" THEN snippet(sections, 2, {_SNIPPET_ARGS}) END, rank,"
        " rowid FROM sections WHERE sections MATCH ? ORDER BY rank LIMIT ?"
    )
    hits: list[SectionHit] = []
    try:
        with closing(_connect_read_only(index)) as connection:
            row = connection.execute(
                "SELECT value FROM index_meta WHERE key = 'tokenizer'"
            ).fetchone()
            tokenize = TOKENIZE_CLAUSES[row[0] if row else ""]
            phrases = _PHRASE.findall(match)
            if len(phrases) > 1:
                phrases = _distinct_phrases(phrases, tokenize)
                match = " ".join(phrases)
            rows = connection.execute(sql, (match, limit)).fetchall()
            for file, section, snippet, rank, rowid in rows:
                if snippet is None:
                    (content,) = connection.execute(
                        "SELECT content FROM sections WHERE rowid = ?", (rowid,)
                    ).fetchone()
                    snippet = _long_snippet(content, match, " OR ".join(phrases), tokenize)
                hits.append(
                    SectionHit(
                        restore_fts_text(file),
                        restore_fts_text(section),
                        restore_fts_text(snippet),
                        -float(rank),
                    )
                )
    except (sqlite3.Error, KeyError) as exc:
        raise IndexUnusable(skill, f"corrupt: {exc}") from exc
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


def _long_snippet(content: str, match: str, any_word: str, tokenize: str) -> str:
    """FTS5's snippet of ``content`` taken from a window of it: the text is cut at whitespace
    into pieces of at most :data:`SNIPPET_WINDOW` characters, and each in turn goes into a
    one-row in-memory FTS5 table with the index's tokenizer. The first piece holding every
    word (``match``) gives the snippet; failing that, the first holding any (``any_word``).
    One piece is held at a time, so time and memory stay linear."""
    first_any: str | None = None
    with closing(sqlite3.connect(":memory:")) as memory:
        memory.execute(f"CREATE VIRTUAL TABLE w USING fts5(content, tokenize='{tokenize}')")
        sql = f"SELECT snippet(w, 0, {_SNIPPET_ARGS}) FROM w WHERE w MATCH ?"
        for number, piece in enumerate(_pieces(content)):
            memory.execute("DELETE FROM w")
            memory.execute("INSERT INTO w (rowid, content) VALUES (1, ?)", (piece,))
            for expression in (match,) if first_any is not None else (match, any_word):
                found = memory.execute(sql, (expression,)).fetchone()
                if found is None:
                    continue
                snippet = str(found[0])
                if number and not snippet.startswith("..."):
                    snippet = "..." + snippet
                if expression is match:
                    return snippet
                first_any = snippet
                break
    return first_any if first_any is not None else content[:200] + "..."


def _pieces(text: str) -> Iterator[str]:
    """``text`` in consecutive pieces of at most :data:`SNIPPET_WINDOW` characters, cut after
    a space or newline where there is one."""
    start = 0
    while start < len(text):
        end = start + SNIPPET_WINDOW
        if end < len(text):
            cut = max(text.rfind(" ", start, end), text.rfind("\n", start, end))
            end = cut + 1 if cut > start else end
        yield text[start:end]
        start = end


def utc_now() -> str:
    """RFC 3339 UTC with ``Z``, to the second (DECISIONS "Errors and output")."""
    return time.strftime("%Y-%m-%dT%H:%M:%SZ", time.gmtime())


class IndexCounts(NamedTuple):
    """What :func:`write_index` stored."""

    sections: int
    headings: int
    files: int


def write_index(
    path: Path,
    *,
    source: Path,
    current_hash: str,
    tokenizer: str,
    parsed: Iterable[tuple[Iterable[Document], Iterable[HeadingRow]]],
    files: Mapping[str, FileStat],
    stats_at_ns: int,
) -> IndexCounts:
    """Create a new index database at ``path`` (which must not exist yet).

    ``parsed`` gives, file by file, the ``(file, section, content)`` rows for ``sections``
    (prepared for the tokenizer here) and the ``(file, text, level, start_line, end_line)``
    rows for ``headings``; each file's rows are written before the next file is read, so
    memory does not grow with the number of files. Callers write to a temporary path and
    rename it into place, so readers never see a partial file.

    Paths are stored by :func:`~skillc_index._files.path_to_db` (a name that is not UTF-8
    stays findable); the ``file`` column of ``sections``, only ever shown, gets U+FFFD for
    such bytes instead.
    """
    tokenize = TOKENIZE_CLAUSES[tokenizer]
    section_count = heading_count = 0
    with closing(sqlite3.connect(path, isolation_level=None)) as connection:
        connection.execute("PRAGMA journal_mode=OFF")  # a fresh temporary file: no rollback
        connection.execute("PRAGMA synchronous=OFF")  # see _atomic: derived data, not synced
        connection.executescript(_SCHEMA.format(tokenize=tokenize))
        connection.execute("BEGIN")
        for documents, headings in parsed:
            cursor = connection.executemany(  # one row made at a time: a section can be a file
                "INSERT INTO sections (file, section, content) VALUES (?, ?, ?)",
                (
                    (
                        prepare_fts_text(valid_utf8(file), tokenizer),
                        prepare_fts_text(section, tokenizer),
                        prepare_fts_text(content, tokenizer),
                    )
                    for file, section, content in documents
                ),
            )
            section_count += cursor.rowcount
            heading_rows = [(path_to_db(file), *rest) for file, *rest in headings]
            connection.executemany(
                "INSERT INTO headings (file, text, level, start_line, end_line)"
                " VALUES (?, ?, ?, ?, ?)",
                heading_rows,
            )
            heading_count += len(heading_rows)
        connection.executemany(
            "INSERT INTO files (path, size, mtime_ns) VALUES (?, ?, ?)",
            [(path_to_db(s.path), s.size, s.mtime_ns) for s in files.values()],
        )
        meta = {
            "source_hash": current_hash,
            "skill_path": path_to_db(canonical_source(source)),
            "schema_version": str(SCHEMA_VERSION),
            "indexed_at": utc_now(),
            "tokenizer": tokenizer,
            "stats_at_ns": str(stats_at_ns),
        }
        connection.executemany(
            "INSERT INTO index_meta (key, value) VALUES (?, ?)", sorted(meta.items())
        )
        connection.execute("COMMIT")
    return IndexCounts(section_count, heading_count, len(files))
