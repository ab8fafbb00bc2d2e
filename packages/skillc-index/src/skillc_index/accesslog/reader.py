"""Every SQL statement skillc-stats runs against an access log (``.skillc-meta/logs.db``).

skillc-index owns the schema and the writer (``skillc_index.accesslog``); this module owns
the reading (RFC-0003 queries) and the copying (``sync``, RFC-0007:C-SYNC). Parameterised
SQL only: the statements are put together from fixed fragments, and every value (paths,
times, commands) is a bound parameter.

The stats queries select one ``skill_path`` and are answered from the indexes the schema
defines for them (``idx_access_log_stats``, ``_projects``, ``_period``, ``_errors``): their
cost grows with that skill's rows, not with the size of the database. The same statements
read the team store (:mod:`skillc_stats._team`, PostgreSQL), where a skill's rows are
those of its name (its folder differs from machine to machine).
"""

from __future__ import annotations

import os
import sqlite3
from collections.abc import Callable, Iterable, Iterator, Sequence
from contextlib import closing
from pathlib import Path
from typing import Any, NamedTuple

from skillc_index import UnreadableFile, valid_utf8
from skillc_index.accesslog import COLUMNS, INSERT_ROW, connect, open_log
from skillc_stats._filters import Filters

#: ``timestamp, run_id, command, skill, skill_path, cwd, args, error``: what makes a row the
#: same row in two databases (the ``id`` differs between them).
Identity = tuple[Any, ...]


class CommandCount(NamedTuple):
    command: str
    accesses: int
    errors: int


class SkillUsage(NamedTuple):
    """One skill's use within the filters (``skc stats --all``)."""

    key: str
    """The ``skill_path`` (a local log) or the ``skill`` name (the team store)."""
    uses: int
    first_used: str | None
    last_used: str | None
    projects: int


#: ``rows(sql, params)``: run one read-only statement (``?`` marks) over an access log table,
#: local (:class:`LocalRows`) or the team store's (:class:`skillc_stats._team.TeamStore`).
Rows = Callable[[str, Sequence[Any]], list[Any]]


def where(
    filters: Filters, column: str | None = None, values: Sequence[str] = ()
) -> tuple[str, list[Any]]:
    """``WHERE`` for the rows whose ``column`` is one of ``values`` (no such test when
    ``column`` is None) and that match the filters (RFC-0003:C-FILTERS; ``users`` and
    ``machines`` exist in the team store only).

    A project matches its own folder and every folder below it: ``cwd`` equal to it, or
    starting with it plus a separator (so ``/a/web`` does not match ``/a/webapp``).
    """
    tests: list[str] = []
    params: list[Any] = []
    if column is not None:
        tests.append(
            f"{column} = ?" if len(values) == 1 else f"{column} IN ({', '.join('?' * len(values))})"
        )
        params += values
    if filters.since is not None:
        tests.append("timestamp >= ?")
        params.append(filters.since)
    if filters.until is not None:
        tests.append("timestamp <= ?")
        params.append(filters.until)
    if filters.projects:
        matches = []
        for project in filters.projects:
            prefix = project if project.endswith(os.sep) else project + os.sep
            # CAST: PostgreSQL has no substr(text, bigint, bigint)
            matches.append("cwd = ? OR substr(cwd, 1, CAST(? AS INTEGER)) = ?")
            params += [project, len(prefix), prefix]
        tests.append("(" + " OR ".join(matches) + ")")
    for name, values_ in (("username", filters.users), ("machine", filters.machines)):
        if values_:
            tests.append(f"{name} IN ({', '.join('?' * len(values_))})")
            params += values_
    # as the log stored them: text that was not UTF-8 has U+FFFD (skillc_index._text)
    params = [valid_utf8(v) if isinstance(v, str) else v for v in params]
    return (" WHERE " + " AND ".join(tests) if tests else ""), params


class LocalRows:
    """:data:`Rows` over one local log database, opened read-only on first use. A missing
    database is an empty log (RFC-0003:C-CLI "No data"), never created here; one that cannot
    be read (corrupt, not a log, locked away) is E999 with the reason, never a traceback."""

    def __init__(self, path: Path) -> None:
        self.path = path
        self._db: sqlite3.Connection | None = None
        self._missing = not path.exists()

    def __call__(self, sql: str, params: Sequence[Any]) -> list[Any]:
        if self._missing:
            return []
        try:
            if self._db is None:
                self._db = open_log(self.path)
            return self._db.execute(sql, params).fetchall()
        except sqlite3.Error as exc:
            raise UnreadableFile(str(self.path), str(exc), "access log") from exc

    def close(self) -> None:
        if self._db is not None:
            self._db.close()
            self._db = None


class StatsLog:
    """Read-only queries over one skill's rows (those whose ``column`` is ``value``: its
    ``skill_path`` in a local log, its name in the team store) within the filters.

    The same statements run over SQLite and PostgreSQL: they use only what both have.
    """

    def __init__(self, rows: Rows, column: str, value: str, filters: Filters) -> None:
        self._run = rows
        self._where, self._params = where(filters, column, [value])

    def _rows(self, select: str, tail: str = "", extra: Sequence[Any] = ()) -> list[Any]:
        return self._run(f"{select} FROM access_log{self._where}{tail}", [*self._params, *extra])

    def period(self) -> tuple[str | None, str | None]:
        """First and last timestamp: two index lookups (a query holding one ``MIN`` or ``MAX``
        and nothing else is the form SQLite answers from the index without a scan)."""
        first = self._rows("SELECT MIN(timestamp)")
        last = self._rows("SELECT MAX(timestamp)")
        return (first[0][0] if first else None), (last[0][0] if last else None)

    def command_args_counts(self) -> list[Any]:
        """``(command, args, rows, failed rows)`` for all rows: one pass over the skill's rows
        from which both the totals per command and the successful rows per target come (the
        summary needs both; two passes cost twice the rows)."""
        return self._rows("SELECT command, args, COUNT(*), COUNT(error)", " GROUP BY command, args")

    def args_counts(self, command: str) -> list[Any]:
        """``(args, count)`` for the rows of one command (a search's query, say)."""
        return self._rows("SELECT args, COUNT(*)", " AND command = ? GROUP BY args", [command])

    def error_counts(self) -> list[Any]:
        """``(command, args, error, count)`` for failed rows."""
        return self._rows(
            "SELECT command, args, error, COUNT(*)",
            " AND error IS NOT NULL GROUP BY command, args, error",
        )

    def cwd_counts(self) -> list[Any]:
        """``(cwd, count)``."""
        return self._rows("SELECT cwd, COUNT(*)", " GROUP BY cwd")


def usage(
    rows: Rows, filters: Filters, column: str, values: Sequence[str] | None = None
) -> list[SkillUsage]:
    """Uses, last use and distinct projects per ``column`` value within the filters: of
    ``values`` only (a local log: its skills' source folders), or of every value (None).
    One statement, answered from an index by ``column``, time and ``cwd``."""
    sql, params = where(filters, column if values is not None else None, values or ())
    statement = (
        f"SELECT {column}, COUNT(*), MIN(timestamp), MAX(timestamp), COUNT(DISTINCT cwd) "
        f"FROM access_log"
        f"{sql} GROUP BY {column}"
    )
    return [SkillUsage(*row) for row in rows(statement, params)]


# -- sync (RFC-0007:C-SYNC) ---------------------------------------------------------------------

_SELECT_IDENTITIES = (
    f"SELECT {', '.join(COLUMNS)}, COUNT(*) FROM access_log "
    f"GROUP BY {', '.join(COLUMNS)} ORDER BY MIN(id)"
)
# Matches idx_access_log_stats on its leading columns; `IS` because error may be NULL.
_COUNT_IDENTITY = (
    "SELECT COUNT(*) FROM access_log WHERE skill_path = ? AND command = ? AND args = ? "
    "AND timestamp = ? AND error IS ? AND cwd = ? AND run_id = ? AND skill = ?"
)


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
        found.append((identity, count))
    return FallbackRows(found)


def _present(db: sqlite3.Connection, identity: Identity) -> int:
    timestamp, run_id, command, skill, skill_path, cwd, args, error = identity
    row = db.execute(
        _COUNT_IDENTITY, (skill_path, command, args, timestamp, error, cwd, run_id, skill)
    ).fetchone()
    return int(row[0])


def _missing(db: sqlite3.Connection, rows: Iterable[tuple[Identity, int]]) -> Iterator[Identity]:
    """Each row as many times as it occurs in ``rows`` beyond its occurrences in ``db``.

    Counting (not just "exists or not") keeps two identical accesses in the same second as
    two rows, and makes a second copy of the same rows add nothing.
    """
    for identity, count in rows:
        for _ in range(count - _present(db, identity)):
            yield identity


def count_missing(destination: Path, rows: FallbackRows) -> int:
    """How many rows a copy into ``destination`` would add (read only; a missing database
    would receive them all; :class:`~skillc_index.accesslog.ForeignLog` for one that
    :func:`copy_missing` would refuse to write)."""
    if not destination.exists():
        return rows.total
    with closing(open_log(destination, own=True)) as db:
        return sum(1 for _ in _missing(db, rows.identities))


def copy_missing(destination: Path, rows: FallbackRows) -> int:
    """Add to ``destination`` (created, or migrated to the current schema, as needed) the rows
    it does not hold yet, in one transaction; return how many were added."""
    with closing(connect(destination)) as db:
        db.execute("BEGIN IMMEDIATE")
        try:
            added = list(_missing(db, rows.identities))
            db.executemany(INSERT_ROW, added)
            db.execute("COMMIT")
        except BaseException:
            db.execute("ROLLBACK")
            raise
    return len(added)


def delete_rows_of(db: sqlite3.Connection, skill_paths: Iterable[str]) -> None:
    """Delete the rows of these source folders (inside the caller's transaction): what
    ``sync`` does to a fallback log some rows of which stay."""
    db.executemany("DELETE FROM access_log WHERE skill_path = ?", ((p,) for p in skill_paths))
