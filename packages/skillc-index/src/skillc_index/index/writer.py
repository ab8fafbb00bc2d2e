"""The one writer of an index: :func:`write_index` creates a new database file, and
:func:`update_index` replaces the rows of some files in a copy of one (the index made on
demand, :mod:`~skillc_index.index.cache`); the caller then renames the file into place
(readers never see a partial file, and a file is never edited in place: the readers' cache in
:mod:`~skillc_index.index.freshness` relies on it).

Rows are numbered by file (since schema version 5): the ``sections`` rowids and ``headings`` ids of
the ``n``-th file given are ``n * FILE_ROWS`` and up, so replacing one file's rows leaves
every row where a whole build would put it (the order of ties in a search, and of
``outline``, is the row order).
"""

from __future__ import annotations

import sqlite3
from collections.abc import Iterable, Iterator, Mapping
from contextlib import closing, nullcontext
from pathlib import Path
from typing import Any, NamedTuple

from skillc_index.clock import utc_now
from skillc_index.files import path_from_db, path_to_db
from skillc_index.index.fts import TOKENIZE_CLAUSES, prepare_fts_text
from skillc_index.index.schema import (
    FILE_ROWS,
    SCHEMA_SQL,
    SCHEMA_VERSION,
    Document,
    FileStat,
    HeadingRow,
    canonical_source,
)
from skillc_index.record import Record
from skillc_index.sqlite import connect
from skillc_index.text import valid_utf8

__all__ = ["IndexCounts", "ParsedFile", "update_index", "write_index"]


class ParsedFile(Record):
    """What the build stores of one indexed file (here, not in :mod:`.schema`: the readers
    never make one)."""

    file: str
    documents: Iterable[Document]
    """Its ``sections`` rows (made one at a time as they are stored: a section can be a file)."""
    headings: Iterable[HeadingRow]
    parsed_lines: int | None = None
    """For a Markdown file over the parse limit, how many of its first lines were parsed."""


class IndexCounts(NamedTuple):
    """What :func:`write_index` stored."""

    sections: int
    headings: int
    files: int


def write_index(
    path: Path | sqlite3.Connection,
    *,
    source: Path,
    current_hash: str,
    tokenizer: str,
    parsed: Iterable[ParsedFile],
    files: Mapping[str, FileStat],
    digests: Mapping[str, str],
    stats_at_ns: int,
) -> IndexCounts:
    """Create a new index database at ``path`` (which must not exist yet), or in an empty
    database open in autocommit mode (one kept in memory: :mod:`.memory`; left open).

    ``parsed`` gives, file by file (:class:`ParsedFile`), the ``(file, section, content)``
    rows for ``sections`` (prepared for the tokenizer here), the ``(file, text, level,
    start_line, end_line)`` rows for ``headings`` and, for a file over the parse limit, the
    lines parsed (``files.parsed_lines``); each file's rows are written before the next file
    is read, so memory does not grow with the number of files. ``files`` and ``digests``
    (:func:`~skillc_index.digests.file_digests`, whose combination is ``current_hash``) give
    every source file's stats and SHA-256. Callers write to a temporary path and
    rename it into place, so readers never see a partial file.

    Paths are stored by :func:`~skillc_index.files.path_to_db` (a name that is not UTF-8
    stays findable), ``sections``' ``path`` too (what ``search`` reports); its ``file``
    column, only ever matched, gets the name folded as the text is, U+FFFD for such bytes.
    """
    tokenize = TOKENIZE_CLAUSES[tokenizer]
    section_count = heading_count = 0
    # a new file of the caller's own: no other connection can hold a lock on it
    with (
        nullcontext(path)
        if isinstance(path, sqlite3.Connection)
        else closing(connect(path, mode="rwc", timeout_ms=0))
    ) as connection:
        connection.execute("PRAGMA journal_mode=OFF")  # a fresh temporary file: no rollback
        connection.execute("PRAGMA synchronous=OFF")  # see atomic: derived data, not synced
        connection.executescript(SCHEMA_SQL.format(tokenize=tokenize))
        connection.execute("BEGIN")
        parsed_lines: dict[str, int] = {}
        for number, one in enumerate(parsed):
            sections, headings = _insert_file(connection, number, one, tokenizer)
            section_count += sections
            heading_count += headings
            if one.parsed_lines is not None:
                parsed_lines[one.file] = one.parsed_lines
        _write_files(connection, files, digests, parsed_lines)
        _write_meta(connection, current_hash, tokenizer, stats_at_ns, source)
        connection.execute("COMMIT")
    return IndexCounts(section_count, heading_count, len(files))


def update_index(
    path: Path,
    *,
    current_hash: str,
    replaced: Iterable[tuple[int, ParsedFile]],
    files: Mapping[str, FileStat],
    digests: Mapping[str, str],
    stats_at_ns: int,
) -> IndexCounts:
    """Replace, in the index at ``path`` (a copy of the one in place, of this schema version
    and the same tokenizer and source), the rows of the files ``replaced`` gives, each with its
    number (its position among the indexed files, unchanged since the index was written), and
    record ``files``, ``digests``, ``current_hash`` and ``stats_at_ns`` as :func:`write_index`
    does. The
    result holds the rows a whole build of the sources would write. Returns what it wrote."""
    section_count = heading_count = 0
    with closing(connect(path, mode="rw", timeout_ms=0)) as connection:
        connection.execute("PRAGMA journal_mode=OFF")  # the caller's copy: no rollback
        connection.execute("PRAGMA synchronous=OFF")
        tokenizer = str(
            connection.execute("SELECT value FROM index_meta WHERE key = 'tokenizer'").fetchone()[0]
        )
        connection.execute("BEGIN")
        parsed_lines: dict[str, int] = {
            path_from_db(rel): int(lines)
            for rel, lines in connection.execute(
                "SELECT path, parsed_lines FROM files WHERE parsed_lines IS NOT NULL"
            )
        }
        for number, one in replaced:
            low, high = number * FILE_ROWS, (number + 1) * FILE_ROWS
            connection.execute("DELETE FROM sections WHERE rowid >= ? AND rowid < ?", (low, high))
            connection.execute("DELETE FROM originals WHERE id >= ? AND id < ?", (low, high))
            connection.execute("DELETE FROM headings WHERE id >= ? AND id < ?", (low, high))
            sections, headings = _insert_file(connection, number, one, tokenizer)
            section_count += sections
            heading_count += headings
            parsed_lines.pop(one.file, None)
            if one.parsed_lines is not None:
                parsed_lines[one.file] = one.parsed_lines
        connection.execute("DELETE FROM files")
        _write_files(connection, files, digests, parsed_lines)
        connection.execute("DELETE FROM index_meta WHERE key <> 'skill_path'")
        _write_meta(connection, current_hash, tokenizer, stats_at_ns, None)
        connection.execute("COMMIT")
    return IndexCounts(section_count, heading_count, len(files))


def _insert_file(
    connection: sqlite3.Connection, number: int, one: ParsedFile, tokenizer: str
) -> tuple[int, int]:
    """Insert the rows of the ``number``-th indexed file; how many sections and headings."""
    base = number * FILE_ROWS

    def numbered(rows: Iterable[tuple[Any, ...]]) -> Iterator[tuple[Any, ...]]:
        for offset, row in enumerate(rows):
            if offset >= FILE_ROWS:  # cannot happen: a file has at most one per line parsed
                raise ValueError(f"'{one.file}' has more than {FILE_ROWS} rows")
            yield (base + offset, *row)

    sections = 0
    for rowid, name, section, content in numbered(one.documents):  # one at a time: a
        file = prepare_fts_text(valid_utf8(name), tokenizer)  # section can be the whole file
        written = (section, content)
        prepared = tuple(prepare_fts_text(text, tokenizer) for text in written)
        connection.execute(  # path: what search reports, the name on disk (NFD, not UTF-8)
            "INSERT INTO sections (rowid, file, section, content, path) VALUES (?, ?, ?, ?, ?)",
            (rowid, file, *prepared, path_to_db(name)),
        )
        if prepared != written:  # what search shows, where the folding changed the text
            connection.execute(
                "INSERT INTO originals (id, section, content) VALUES (?, ?, ?)",
                (rowid, *(w if w != p else None for w, p in zip(written, prepared, strict=True))),
            )
        sections += 1
    heading_rows = list(numbered((path_to_db(name), *rest) for name, *rest in one.headings))
    connection.executemany(
        "INSERT INTO headings (id, file, text, level, start_line, end_line)"
        " VALUES (?, ?, ?, ?, ?, ?)",
        heading_rows,
    )
    return sections, len(heading_rows)


def _write_files(
    connection: sqlite3.Connection,
    files: Mapping[str, FileStat],
    digests: Mapping[str, str],
    parsed_lines: Mapping[str, int],
) -> None:
    connection.executemany(
        "INSERT INTO files (path, size, mtime_ns, ino, ctime_ns, parsed_lines, sha256)"
        " VALUES (?, ?, ?, ?, ?, ?, ?)",
        [
            (
                path_to_db(s.path),
                s.size,
                s.mtime_ns,
                s.ino,
                s.ctime_ns,
                parsed_lines.get(s.path),
                digests[s.path],
            )
            for s in files.values()
        ],
    )


def _write_meta(
    connection: sqlite3.Connection,
    current_hash: str,
    tokenizer: str,
    stats_at_ns: int,
    source: Path | None,
) -> None:
    """``index_meta``; ``skill_path`` too when ``source`` is given (a new index)."""
    meta = {
        "source_hash": current_hash,
        "schema_version": str(SCHEMA_VERSION),
        "indexed_at": utc_now(),
        "tokenizer": tokenizer,
        "stats_at_ns": str(stats_at_ns),
    }
    rows: list[tuple[str, Any]] = sorted(meta.items())
    if source is not None:
        rows.append(("skill_path", path_to_db(canonical_source(source))))
    connection.executemany("INSERT INTO index_meta (key, value) VALUES (?, ?)", rows)
