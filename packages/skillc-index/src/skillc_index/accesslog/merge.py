"""Merging one access log's rows into another (``sync``, RFC-0007:C-SYNC; transcripts
imported by ``sync --from``): each row once.

A row's identity is all its columns but ``id`` (:data:`Identity`), which differs between
databases. Rows are counted, not just found: two identical accesses in the same second stay
two rows, and copying the same rows twice adds nothing. A row's text goes back with the bytes
it was read with (:func:`~.schema.text_param`): text that is not UTF-8 (a log another tool
wrote) is moved as it is.
"""

from __future__ import annotations

import sqlite3
from collections import Counter
from collections.abc import Iterable, Iterator
from contextlib import closing
from pathlib import Path
from typing import Any, NamedTuple

from skillc_index.accesslog.schema import COLUMNS, COPY_ROW, connect, open_log, text_param
from skillc_index.clock import is_utc_timestamp

__all__ = [
    "FallbackRows",
    "Identity",
    "begin_merge",
    "copy_missing",
    "count_missing",
    "drop_merged",
    "read_identities",
    "sessionless",
]

#: ``timestamp, run_id, command, skill, skill_path, cwd, args, error``: what makes a row the
#: same row in two databases (the ``id`` differs between them).
Identity = tuple[Any, ...]


_SELECT_IDENTITIES = (
    f"SELECT {', '.join(COLUMNS)}, COUNT(*) FROM access_log "
    f"GROUP BY {', '.join(COLUMNS)} ORDER BY MIN(id)"
)
# The rows of one access (idx_access_log_stats's columns: read from the index; `IS` because
# error may be NULL), with the two columns the index lacks. CAST: text_param's bytes as text.
_ROWS_OF_ACCESS = (
    "SELECT run_id, skill FROM access_log WHERE skill_path = CAST(? AS TEXT) "
    "AND command = CAST(? AS TEXT) AND args = CAST(? AS TEXT) AND timestamp = CAST(? AS TEXT) "
    "AND error IS CAST(? AS TEXT) AND cwd = CAST(? AS TEXT)"
)


def sessionless(identity: Identity) -> Identity:
    """``identity`` without its ``run_id``: the row when sessions are not told apart (a
    transcript's tool call, copied by the agent into another session's file)."""
    return identity[:1] + identity[2:]


class FallbackRows(NamedTuple):
    """The distinct rows of a fallback log, each with how many times it occurs, oldest first."""

    identities: list[tuple[Identity, int]]

    @property
    def total(self) -> int:
        return sum(count for _, count in self.identities)


def read_identities(db: sqlite3.Connection) -> FallbackRows:
    """All rows of a log as identities and counts; ``ValueError`` for a row that is not one
    skillc writes (a NULL where the schema wants text), which no destination would accept."""
    found: list[tuple[Identity, int]] = []
    for row in db.execute(_SELECT_IDENTITIES):
        identity, count = tuple(row[:-1]), int(row[-1])
        if any(not isinstance(value, str) for value in identity[:-1]) or not isinstance(
            identity[-1], str | None
        ):
            raise ValueError(f"malformed row at {identity[0]!r}")
        if not is_utc_timestamp(identity[0]):  # copied as it was, it broke every report
            raise ValueError(f"a row whose timestamp is not RFC 3339 UTC: {identity[0][:40]!r}")
        found.append((identity, count))
    return FallbackRows(found)


def _missing(
    db: sqlite3.Connection, rows: Iterable[tuple[Identity, int]], sessions: bool = True
) -> Iterator[Identity]:
    """Each row as many times as it occurs in ``rows`` beyond its occurrences in ``db``.

    Counting (not just "exists or not") keeps two identical accesses in the same second as
    two rows, and makes a second copy of the same rows add nothing. The rows of one access
    (all but ``run_id`` and ``skill`` the same: sessions that ran one command in the same
    second) are counted by one read, kept for the others: a lookup a row read every row of
    its access, so 4,000 sessions' rows of one second took 1.3 s, 40,000 minutes. Without
    ``sessions``, rows that differ by ``run_id`` alone are one row (a transcript's tool call,
    whose id is in its ``args``, copied into another session's file by the agent).
    """
    crowded: dict[tuple[Any, ...], Counter[Any]] = {}
    for identity, count in rows:
        timestamp, run_id, command, skill, skill_path, cwd, args, error = identity
        access = (skill_path, command, args, timestamp, error, cwd)
        session: Any = (run_id, skill) if sessions else skill
        if access in crowded:
            present = crowded[access][session]
        else:
            found = db.execute(_ROWS_OF_ACCESS, [text_param(value) for value in access]).fetchall()
            keys = found if sessions else [name for _, name in found]
            if len(keys) > 1:  # kept: the other sessions' rows of it are read from here
                crowded[access] = Counter(keys)
            present = keys.count(session)
        for _ in range(count - present):
            yield identity


def count_missing(destination: Path, rows: FallbackRows, *, sessions: bool = True) -> int:
    """How many rows a copy into ``destination`` would add (read only; a missing database
    would receive them all; :class:`~.schema.ForeignLog` for one that
    :func:`copy_missing` would refuse to write). ``sessions``: as :func:`copy_missing`."""
    if not destination.exists():
        return rows.total
    with closing(open_log(destination, own=True)) as db:
        return sum(1 for _ in _missing(db, rows.identities, sessions))


def copy_missing(destination: Path, rows: FallbackRows, *, sessions: bool = True) -> int:
    """Add to ``destination`` (created, or migrated to the current schema, as needed) the rows
    it does not hold yet, in one transaction; return how many were added. Without
    ``sessions``, a row it holds under another ``run_id`` is held (a transcript's tool call
    in a session file the agent copied)."""
    with closing(connect(destination)) as db:
        db.execute("BEGIN IMMEDIATE")
        try:
            added = list(_missing(db, rows.identities, sessions))
            db.executemany(COPY_ROW, ([text_param(value) for value in row] for row in added))
            db.execute("COMMIT")
        except BaseException:
            db.execute("ROLLBACK")
            raise
    return len(added)


def _delete_rows_of(db: sqlite3.Connection, skill_paths: Iterable[str]) -> None:
    """Delete the rows of these source folders (inside the caller's transaction): what
    ``sync`` does to a fallback log some rows of which stay."""
    db.executemany(
        "DELETE FROM access_log WHERE skill_path = CAST(? AS TEXT)",
        ((text_param(path),) for path in skill_paths),
    )


def begin_merge(db: sqlite3.Connection) -> FallbackRows:
    """Take the write lock of the log ``db`` whose rows are being merged elsewhere (no other
    writer adds to it meanwhile) and read them (:func:`read_identities`). The transaction
    stays open: :func:`drop_merged` ends it (closing ``db`` without it rolls back)."""
    db.execute("BEGIN IMMEDIATE")
    return read_identities(db)


def drop_merged(db: sqlite3.Connection, skill_paths: Iterable[str]) -> None:
    """Delete the rows of these source folders, now merged into their primary logs, and
    commit: what ``sync`` does to a fallback log some rows of which stay."""
    _delete_rows_of(db, skill_paths)
    db.execute("COMMIT")
