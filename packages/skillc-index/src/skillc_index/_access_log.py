"""The access log (RFC-0007:C-LOGGING): ``<runtime>/.skillc-meta/logs.db``, schema and writer.

Every command that resolves a skill records one row here, from the CLI and the MCP server
alike; skillc-stats reads the rows and ``sync`` moves fallback rows home. This module owns the
schema. Writing is built for several agents at once: WAL journal, a busy timeout, one short
transaction per row, so concurrent processes lose no row. Logging never fails a command:
problems come back as W002/W003 diagnostics for the front end to print.
"""

from __future__ import annotations

import os
import sqlite3
import time
from collections.abc import Callable, Iterator, Mapping
from contextlib import contextmanager
from pathlib import Path
from types import MappingProxyType
from typing import Any, NamedTuple

from skillc_index._diagnostics import (
    Diagnostic,
    SkillcError,
    error_line,
    logging_disabled,
    stale_local_logs,
)
from skillc_index._layout import META_DIR, Layout, ResolvedSkill
from skillc_index._text import valid_utf8

LOG_FILE = "logs.db"
#: 1: the table and its timestamp index. 2, 3: the indexes ``skc stats`` reads (below); an
#: older database gains them the next time a command writes to it (``connect`` runs SCHEMA).
SCHEMA_VERSION = 3
STALE_AFTER_SECONDS = 3600
BUSY_TIMEOUT_MS = 10_000

SCHEMA = (
    """CREATE TABLE IF NOT EXISTS access_log (
        id INTEGER PRIMARY KEY AUTOINCREMENT,
        timestamp TEXT NOT NULL,
        run_id TEXT NOT NULL,
        command TEXT NOT NULL,
        skill TEXT NOT NULL,
        skill_path TEXT NOT NULL,
        cwd TEXT NOT NULL,
        args TEXT NOT NULL,
        error TEXT
    )""",
    "CREATE INDEX IF NOT EXISTS idx_access_log_timestamp ON access_log(timestamp)",
    # skillc-stats (RFC-0003) reads one skill_path at a time, from these indexes alone (no
    # table lookups), so a query costs what that skill's rows cost, not the whole log's:
    # - by command, then args (commands, sections, files, search; grouping needs no sort;
    #   sync finds a row's duplicates by it);
    """CREATE INDEX IF NOT EXISTS idx_access_log_stats
        ON access_log(skill_path, command, args, timestamp, error, cwd)""",
    # - by working folder (projects);
    """CREATE INDEX IF NOT EXISTS idx_access_log_projects
        ON access_log(skill_path, cwd, timestamp)""",
    # - by time (first and last access: two lookups, not a scan);
    """CREATE INDEX IF NOT EXISTS idx_access_log_period
        ON access_log(skill_path, timestamp, cwd)""",
    # - failed accesses only (errors): small, they are few.
    """CREATE INDEX IF NOT EXISTS idx_access_log_errors
        ON access_log(skill_path, command, args, error, timestamp, cwd) WHERE error IS NOT NULL""",
)

COLUMNS = ("timestamp", "run_id", "command", "skill", "skill_path", "cwd", "args", "error")
INSERT_ROW = (
    f"INSERT INTO access_log ({', '.join(COLUMNS)}) VALUES ({', '.join('?' * len(COLUMNS))})"
)


def utc_now() -> str:
    """Now as RFC 3339 UTC with ``Z``, to the second (``2026-01-30T10:00:00Z``)."""
    return time.strftime("%Y-%m-%dT%H:%M:%SZ", time.gmtime())


def new_run_id(env: Mapping[str, str] | None = None) -> str:
    """``$SKC_RUN_ID`` if set, else ``YYYYMMDDTHHMMSSZ-<4 hex>`` (RFC-0007:C-LOGGING)."""
    env = os.environ if env is None else env
    given = env.get("SKC_RUN_ID")
    if given:
        return given
    # os.urandom, not secrets: the same randomness without importing random, hmac and base64
    return time.strftime("%Y%m%dT%H%M%SZ", time.gmtime()) + "-" + os.urandom(2).hex()


_NO_ARGS: Mapping[str, Any] = MappingProxyType({})


class AccessRecord(NamedTuple):
    """One row of ``access_log``."""

    command: str
    skill: str
    skill_path: str
    cwd: str
    args: Mapping[str, Any] = _NO_ARGS
    error: str | None = None
    timestamp: str = ""
    """Empty: the time the row is written."""
    run_id: str = ""
    """Empty: ``$SKC_RUN_ID`` or a new run id, when the row is written."""

    @classmethod
    def for_skill(
        cls,
        layout: Layout,
        skill: ResolvedSkill,
        command: str,
        args: Mapping[str, Any],
        error: str | None = None,
        run_id: str = "",
    ) -> AccessRecord:
        """The row for ``command`` run on a resolved skill from ``layout``'s working folder."""
        return cls(
            command, skill.name, str(skill.source), str(layout.cwd), dict(args), error, "", run_id
        )

    def values(self) -> tuple[str | None, ...]:
        import json  # only when a row is written

        args = json.dumps(self.args, sort_keys=True, ensure_ascii=False, default=str)
        row = (
            self.timestamp or utc_now(),
            self.run_id or new_run_id(),
            self.command,
            self.skill,
            self.skill_path,
            self.cwd,
            args,
            self.error,
        )
        return tuple(None if v is None else valid_utf8(v) for v in row)


def connect(path: Path) -> sqlite3.Connection:
    """Open (creating if needed) a log database with the settings concurrent writers need."""
    path.parent.mkdir(parents=True, exist_ok=True)
    db = sqlite3.connect(path, timeout=BUSY_TIMEOUT_MS / 1000, isolation_level=None)
    try:
        db.execute(f"PRAGMA busy_timeout = {BUSY_TIMEOUT_MS}")
        if db.execute("PRAGMA user_version").fetchone()[0] < SCHEMA_VERSION:
            db.execute("PRAGMA journal_mode = WAL")
            db.execute("BEGIN IMMEDIATE")
            for statement in SCHEMA:
                db.execute(statement)
            db.execute(f"PRAGMA user_version = {SCHEMA_VERSION}")
            db.execute("COMMIT")
        # No fsync: WAL keeps concurrent writers and a killed process safe (rows are in the OS
        # cache), and this is an analytics log on every agent read; fsyncs made the close-time
        # checkpoint cost more than the whole `skc show`. Only an OS crash or power cut could
        # lose the latest rows (RFC-0007 asks logging never to slow the command noticeably).
        db.execute("PRAGMA synchronous = OFF")
    except BaseException:
        db.close()
        raise
    return db


def open_log(path: Path, *, write: bool = False) -> sqlite3.Connection:
    """Open an existing log without creating anything (``sqlite3.Error`` when it cannot: no
    file, not a database, no ``access_log`` table), for reading or, with ``write``, writing."""
    from skillc_index._files import sqlite_uri

    db = sqlite3.connect(
        sqlite_uri(path, "rw" if write else "ro"),
        uri=True,
        timeout=BUSY_TIMEOUT_MS / 1000,
        isolation_level=None,
    )
    try:
        db.execute(f"PRAGMA busy_timeout = {BUSY_TIMEOUT_MS}")
        db.execute(f"SELECT {', '.join(COLUMNS)}, id FROM access_log LIMIT 0")  # fails now
    except BaseException:
        db.close()
        raise
    return db


def _identity(path: Path) -> tuple[int, int] | None:
    try:
        st = path.stat()
    except FileNotFoundError:
        return None
    return st.st_dev, st.st_ino


def insert(path: Path, records: list[AccessRecord]) -> None:
    """Append rows in one short transaction.

    ``sync`` removes a fallback log once it has copied its rows, holding its write lock. A
    writer that opened the file before that would append to a file no longer in any folder
    (or fail on its vanished journal) and lose its rows. So the writer checks, with the lock
    held and again after committing, that the file at ``path`` is still the one it opened;
    if it was removed, it writes the same rows again into a new file. (If sync had already
    copied them, the copy is not doubled: sync counts identical rows, RFC-0007:C-SYNC.)
    """
    values = [record.values() for record in records]  # once: a retry writes the same rows
    for attempt in range(50):
        if attempt > 1:
            time.sleep(min(0.002 * attempt, 0.05))  # let a sync that keeps removing it finish
        opened: tuple[int, int] | None = None
        try:
            before = _identity(path)
            db = connect(path)
            try:
                opened = _identity(path)
                if before is None or opened != before:
                    # Just created, or swapped while being opened: which file this connection
                    # holds is only certain when the path names the same file before and after.
                    continue
                db.execute("BEGIN IMMEDIATE")
                if opened is None or _identity(path) != opened:
                    db.execute("ROLLBACK")
                    continue
                db.executemany(INSERT_ROW, values)
                db.execute("COMMIT")
                # Checked before closing: while the file is open its inode cannot be reused
                # by a new file at the same path.
                if _identity(path) == opened:
                    return
            finally:
                db.close()
        except (OSError, sqlite3.Error):
            if opened is not None and _identity(path) == opened:
                raise  # a real failure, not a file removed under us
    raise sqlite3.OperationalError(f"{path} kept being removed while writing to it")


def primary_log(runtime: Path) -> Path:
    return runtime / META_DIR / LOG_FILE


def fallback_log(layout: Layout, skill: str) -> Path:
    return layout.fallback_log_dir(skill) / LOG_FILE


class LogOutcome(NamedTuple):
    """Where a row went (``None``: nowhere) and what to tell the user."""

    path: Path | None
    diagnostics: tuple[Diagnostic, ...] = ()


def log_access(layout: Layout, runtime: Path, record: AccessRecord) -> LogOutcome:
    """Write ``record`` to the runtime's log, else to the working directory's fallback log.

    RFC-0007:C-LOGGING, EAFP: the primary database is tried first; if it cannot be written
    (read-only sandbox, permissions), the row goes to ``<cwd>/.skillc/logs/<skill>/.skillc-meta/
    logs.db``. W002 when both fail; W003 when fallback logs for this skill are over an hour old.
    Never raises.
    """
    diagnostics: list[Diagnostic] = []
    fallback = fallback_log(layout, record.skill)
    try:
        if time.time() - fallback.stat().st_mtime > STALE_AFTER_SECONDS:
            diagnostics.append(stale_local_logs(record.skill))
    except OSError:
        pass
    for path in (primary_log(runtime), fallback):
        try:
            insert(path, [record])
        except (OSError, sqlite3.Error, ValueError):  # ValueError: text SQLite cannot store
            continue
        return LogOutcome(path, tuple(diagnostics))
    diagnostics.append(logging_disabled())
    return LogOutcome(None, tuple(diagnostics))


#: How a front end stores a row: ``record(resolved skill, error line or None)`` (the CLI writes
#: it at once, the MCP server queues it).
Record = Callable[[ResolvedSkill, "str | None"], None]


@contextmanager
def access_logged(
    layout: Layout,
    skill: str,
    record: Record,
    describe: Callable[[BaseException], str] = error_line,
    *,
    stores_only: bool = False,
) -> Iterator[ResolvedSkill]:
    """Resolve ``skill`` and record one row when the block ends, with ``describe(exc)`` as
    the error when one escapes (it is raised on). A resolution failure (E001/E010) raises
    before anything is recorded: there is no runtime to log to. ``stores_only``: a bare
    name is looked up in the stores only (``run``, see :func:`resolve_skill`)."""
    from skillc_index._layout import resolve_skill

    resolved = resolve_skill(skill, layout, stores_only=stores_only)
    error: str | None = None
    try:
        yield resolved
    except BaseException as exc:
        error = describe(exc)
        raise
    finally:
        record(resolved, error)


def record_failed_build(
    layout: Layout, skill: str, force_global: bool, exc: BaseException, record: Record
) -> None:
    """Record a failed ``build`` in the log of the skill it was for, when that skill resolves
    (E001/E010: nothing resolved, no runtime to log to)."""
    from skillc_index._layout import resolve_skill

    try:
        resolved = resolve_skill(skill, layout, force_global=force_global)
    except SkillcError:
        return
    record(resolved, error_line(exc))
