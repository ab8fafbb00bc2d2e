"""The one writer of an index: :func:`write_index` creates a new database file, which the
build then renames into place (readers never see a partial file, and a file is never edited
in place: the readers' cache in :mod:`~skillc_index.index.freshness` relies on it)."""

from __future__ import annotations

from collections.abc import Iterable, Mapping
from contextlib import closing
from pathlib import Path
from typing import NamedTuple

from skillc_index.clock import utc_now
from skillc_index.files import path_to_db
from skillc_index.index.fts import TOKENIZE_CLAUSES, prepare_fts_text
from skillc_index.index.schema import (
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

__all__ = ["IndexCounts", "ParsedFile", "write_index"]


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
    path: Path,
    *,
    source: Path,
    current_hash: str,
    tokenizer: str,
    parsed: Iterable[ParsedFile],
    files: Mapping[str, FileStat],
    stats_at_ns: int,
) -> IndexCounts:
    """Create a new index database at ``path`` (which must not exist yet).

    ``parsed`` gives, file by file (:class:`ParsedFile`), the ``(file, section, content)``
    rows for ``sections`` (prepared for the tokenizer here), the ``(file, text, level,
    start_line, end_line)`` rows for ``headings`` and, for a file over the parse limit, the
    lines parsed (``files.parsed_lines``); each file's rows are written before the next file
    is read, so memory does not grow with the number of files. Callers write to a temporary path and
    rename it into place, so readers never see a partial file.

    Paths are stored by :func:`~skillc_index.files.path_to_db` (a name that is not UTF-8
    stays findable); the ``file`` column of ``sections``, only ever shown, gets U+FFFD for
    such bytes instead.
    """
    tokenize = TOKENIZE_CLAUSES[tokenizer]
    section_count = heading_count = 0
    # a new file of the caller's own: no other connection can hold a lock on it
    with closing(connect(path, mode="rwc", timeout_ms=0)) as connection:
        connection.execute("PRAGMA journal_mode=OFF")  # a fresh temporary file: no rollback
        connection.execute("PRAGMA synchronous=OFF")  # see atomic: derived data, not synced
        connection.executescript(SCHEMA_SQL.format(tokenize=tokenize))
        connection.execute("BEGIN")
        parsed_lines: dict[str, int] = {}
        for file, documents, headings, lines in parsed:
            cursor = connection.executemany(  # one row made at a time: a section can be a file
                "INSERT INTO sections (file, section, content) VALUES (?, ?, ?)",
                (
                    (
                        prepare_fts_text(valid_utf8(name), tokenizer),
                        prepare_fts_text(section, tokenizer),
                        prepare_fts_text(content, tokenizer),
                    )
                    for name, section, content in documents
                ),
            )
            section_count += cursor.rowcount
            heading_rows = [(path_to_db(name), *rest) for name, *rest in headings]
            connection.executemany(
                "INSERT INTO headings (file, text, level, start_line, end_line)"
                " VALUES (?, ?, ?, ?, ?)",
                heading_rows,
            )
            heading_count += len(heading_rows)
            if lines is not None:
                parsed_lines[file] = lines
        connection.executemany(
            "INSERT INTO files (path, size, mtime_ns, parsed_lines) VALUES (?, ?, ?, ?)",
            [
                (path_to_db(s.path), s.size, s.mtime_ns, parsed_lines.get(s.path))
                for s in files.values()
            ],
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
