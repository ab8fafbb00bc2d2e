"""The access log's database (RFC-0007:C-LOGGING): ``<runtime>/.skillc-meta/logs.db``, its
schema, and opening it.

A database whose schema is not exactly the one :data:`SCHEMA` creates (a trigger, a view,
another table or index, a changed definition) is :class:`ForeignLog`: never written nor read,
so nothing a checkout ships in a ``logs.db`` runs. Writers open it with :func:`connect`
(created when missing, WAL, a busy timeout), readers with :func:`open_log`.
"""

from __future__ import annotations

import sqlite3
from pathlib import Path

from skillc_index._sqlite import connect as sqlite_connect
from skillc_index._sqlite import use_wal

LOG_FILE = "logs.db"
#: 1: the table and its timestamp index. 2, 3: the indexes ``skc stats`` reads (below); an
#: older database gains them the next time a command writes to it (``connect`` runs SCHEMA).
SCHEMA_VERSION = 3
STALE_AFTER_SECONDS = 3600
#: How long a command waits for another writer of the primary log. Writers hold the lock for
#: one short transaction (well under a millisecond); a lock held longer is someone else's long
#: transaction, and the row goes to the fallback rather than stalling the command.
PRIMARY_BUSY_TIMEOUT_MS = 500
#: Everywhere else (the fallback, which ``sync`` locks while it copies; ``sync``; readers).
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


def _schema_objects() -> dict[str, tuple[str, str]]:
    """``name -> (type, sql)`` of every object a skillc log may hold, as ``sqlite_master``
    records them (without ``IF NOT EXISTS``; whitespace collapsed)."""
    objects = {"sqlite_sequence": ("table", "CREATE TABLE sqlite_sequence(name,seq)")}
    for statement in SCHEMA:
        words = statement.replace(" IF NOT EXISTS", "", 1).split()
        objects[words[2].split("(")[0]] = (words[1].lower(), " ".join(words))
    return objects


#: Older logs hold a subset of these (the indexes came in versions 2 and 3).
SCHEMA_OBJECTS = _schema_objects()


class ForeignLog(sqlite3.DatabaseError):
    """A database at a log's place whose schema is not skillc's: refused before anything is
    read or written (a trigger would run on every insert, a view on every read)."""

    def __init__(self, kind: str, name: str) -> None:
        self.what = f"{kind} '{name}'"
        super().__init__(f"not skillc's schema ({self.what})")


def check_schema(db: sqlite3.Connection) -> None:
    """Raise :class:`ForeignLog` unless every object in the database is one of
    :data:`SCHEMA_OBJECTS`, defined exactly so (an empty database passes: it is new).
    Triggers and views are named first: they are what would run."""
    query = "SELECT type, name, sql FROM sqlite_master ORDER BY type IN ('table', 'index')"
    for kind, name, sql in db.execute(query):
        if SCHEMA_OBJECTS.get(name) != (kind, " ".join(str(sql).split())):
            raise ForeignLog(str(kind), str(name))


COLUMNS = ("timestamp", "run_id", "command", "skill", "skill_path", "cwd", "args", "error")
INSERT_ROW = (
    f"INSERT INTO access_log ({', '.join(COLUMNS)}) VALUES ({', '.join('?' * len(COLUMNS))})"
)


def connect(path: Path, busy_timeout_ms: int = BUSY_TIMEOUT_MS) -> sqlite3.Connection:
    """Open (creating if needed) a log database with the settings concurrent writers need;
    :class:`ForeignLog` if it is not skillc's (checked before anything is written)."""
    path.parent.mkdir(parents=True, exist_ok=True)
    db = sqlite_connect(path, mode="rwc", timeout_ms=busy_timeout_ms)
    try:
        # No fsync: WAL keeps concurrent writers and a killed process safe (rows are in the OS
        # cache), and this is an analytics log on every agent read; fsyncs made the close-time
        # checkpoint cost more than the whole `skc show`, and creating a log (a first build)
        # cost more than the rest of a small build. Only an OS crash or power cut could lose
        # the latest rows (RFC-0007 asks logging never to slow the command noticeably).
        db.execute("PRAGMA synchronous = OFF")
        check_schema(db)
        if db.execute("PRAGMA user_version").fetchone()[0] < SCHEMA_VERSION:
            use_wal(db, busy_timeout_ms)
            db.execute("BEGIN IMMEDIATE")
            for statement in SCHEMA:
                db.execute(statement)
            db.execute(f"PRAGMA user_version = {SCHEMA_VERSION}")
            db.execute("COMMIT")
    except BaseException:
        db.close()
        raise
    return db


def open_log(path: Path, *, write: bool = False) -> sqlite3.Connection:
    """Open an existing log without creating anything (``sqlite3.Error`` when it cannot: no
    file, not a database, no ``access_log`` table; :class:`ForeignLog` when its schema is not
    skillc's), for reading or, with ``write``, writing."""
    db = sqlite_connect(path, mode="rw" if write else "ro", timeout_ms=BUSY_TIMEOUT_MS)
    try:
        check_schema(db)
        db.execute(f"SELECT {', '.join(COLUMNS)}, id FROM access_log LIMIT 0")  # fails now
    except BaseException:
        db.close()
        raise
    return db
