"""The catalog's SQLite database: ``<skillc home>/.skillc/catalog.db``.

WAL, a busy timeout, every update in ``BEGIN IMMEDIATE`` (concurrent ``skc find`` processes
wait for each other and lose nothing). The file is marked as the catalog's own
(``PRAGMA application_id``); a file of that name that is not (another program's database,
or no database at all) is never written nor replaced: the call searches with a catalog in
memory and a warning says why. A catalog of ours that is corrupt, or from another version
of the schema or the ranker, is made again from nothing. When the skillc home cannot be
written, the catalog lives in memory for this call, with a warning.

What it remembers is bounded: the tree state of at most :data:`MAX_ROOTS` searched folders
(roots), :data:`MAX_ROOT_BYTES` in all. Every folder ever passed to ``--path`` (or by a model,
MCP ``skc_find``'s ``path``) was kept for good (two calls with big folders made 16 MB): past
either bound, the roots used least recently are forgotten (:func:`forget_roots`), with the
skills only they held, down to :data:`LOW_WATER` of the bounds so that a stream of new
folders does not pay for it on every query. A root searched again is walked from nothing.
"""

from __future__ import annotations

import contextlib
import os
import re
import sqlite3
from collections.abc import Collection, Iterable, Mapping
from pathlib import Path
from typing import NamedTuple

from skillc_gateway.catalog import postings
from skillc_gateway.catalog.scan import TreeState
from skillc_index import Layout, Notice, sqlite_uri, use_wal

__all__ = [
    "APPLICATION_ID",
    "BUSY_TIMEOUT_MS",
    "CATALOG_FILE",
    "LOW_WATER",
    "MAX_ROOTS",
    "MAX_ROOT_BYTES",
    "SCHEMA",
    "SCHEMA_VERSION",
    "TOUCH_NS",
    "CatalogDatabase",
    "discard",
    "forget_roots",
    "forgotten",
    "open_database",
]

CATALOG_FILE = "catalog.db"
#: ``PRAGMA application_id`` of a catalog: ``skcF``.
APPLICATION_ID = 0x736B6346
#: The catalog's own tables (``SCHEMA``); with :data:`postings.RANK_VERSION`, stored in ``meta``.
SCHEMA_VERSION = 4
#: How long a process waits for another one's write, in milliseconds.
BUSY_TIMEOUT_MS = 30_000
#: SQLite's page cache of the catalog connection, in KiB (its default is 2 MiB): indexing
#: thousands of skills inserts into large B-trees at scattered keys.
CACHE_KIB = 65_536
#: The searched folders whose tree state is kept, at most (a query's own are always kept:
#: the stores and agent folders of one working folder are about 20)...
MAX_ROOTS = 256
#: ... and the bytes of those states, at most (20,000 skills take a few MB; a walk of
#: 250,000 folders, ``scan.MAX_FOLDERS``, about 8 MB).
MAX_ROOT_BYTES = 32 * 1024 * 1024
#: Past a bound, roots are forgotten until both are under this share of them.
LOW_WATER = 0.75
#: A root's last use is written again once it is this old (ns): the order of the least
#: recently used, without a write per query.
TOUCH_NS = 60 * 1_000_000_000

SCHEMA = """
CREATE TABLE meta (key TEXT PRIMARY KEY, value TEXT NOT NULL);
CREATE TABLE skills (
    id INTEGER PRIMARY KEY AUTOINCREMENT,
    path TEXT NOT NULL UNIQUE,
    name TEXT NOT NULL,
    description TEXT NOT NULL,
    digest TEXT,
    content BLOB,
    fingerprint INTEGER NOT NULL
);
CREATE INDEX skills_digest ON skills (digest);
CREATE INDEX skills_name ON skills (lower(name));
CREATE TABLE roots (
    path TEXT PRIMARY KEY,
    state BLOB NOT NULL,
    size INTEGER NOT NULL,
    used INTEGER NOT NULL
);
CREATE INDEX roots_used ON roots (used);
"""
"""``skills``: one row per skill folder (its real path); ``digest`` identifies its content
(duplicates share it), NULL for a skill that could not be read (skipped); ``name`` is indexed
(a request that names a skill finds it first); ids are never
reused (the states of the roots hold them); ``content`` is the SHA-1 of the SKILL.md bytes
indexed (NULL: none were read), so a file looked at again unchanged is not indexed again;
``fingerprint`` is the SKILL.md file's stat fingerprint when it was read (0: read it
again). ``roots``: the state of each searched folder's tree
(:class:`~skillc_gateway.catalog.scan.TreeState`), its size in bytes and when it was last
used (ns since the epoch, written again after :data:`TOUCH_NS`); ``meta``'s ``forgotten``
counts the times roots were forgotten (:func:`forget_roots`)."""

_SQLITE_HEADER = b"SQLite format 3\x00"
#: The tables a current catalog holds.
_TABLES = frozenset(
    re.findall(r"CREATE (?:VIRTUAL )?TABLE (?:IF NOT EXISTS )?(\w+)", SCHEMA + postings.SCHEMA)
)


class CatalogDatabase(NamedTuple):
    db: sqlite3.Connection
    path: Path | None
    """None for a catalog in memory."""
    warnings: tuple[Notice, ...] = ()


def open_database(layout: Layout) -> CatalogDatabase:
    """The catalog of ``layout``'s skillc home, ready (schema current); one in memory, with
    a warning, when that file cannot be used."""
    path = layout.global_dir / CATALOG_FILE
    for _attempt in range(2):
        owner = _owner(path)
        if owner == "foreign":
            return _in_memory(f"{path} is not a skillc catalog; it is left as it is")
        try:
            path.parent.mkdir(parents=True, exist_ok=True)
            if path.exists() and not os.access(path, os.R_OK | os.W_OK):
                raise PermissionError("not writable")
            db = sqlite3.connect(
                sqlite_uri(path, "rwc"),
                uri=True,
                timeout=BUSY_TIMEOUT_MS / 1000,
                isolation_level=None,
                check_same_thread=False,
            )
        except (OSError, sqlite3.Error) as exc:
            return _in_memory(f"cannot write the catalog {path} ({_why(exc)})")
        try:
            db.execute(f"PRAGMA busy_timeout = {BUSY_TIMEOUT_MS}")
            db.execute(f"PRAGMA cache_size = -{CACHE_KIB}")
            # the schema first: a new catalog's header (its application id) is then in the
            # file itself, not in a WAL that another process reading it would not see
            prepare(db)
            use_wal(db, BUSY_TIMEOUT_MS)
            return CatalogDatabase(db, path)
        except sqlite3.DatabaseError as exc:
            db.close()
            corrupt = not isinstance(exc, sqlite3.OperationalError) or "malformed" in str(exc)
            if corrupt and _owner(path) == "ours":
                _remove(path)  # ours, and unusable: made again from nothing
                continue
            return _in_memory(f"cannot use the catalog {path} ({_why(exc)})")
    return _in_memory(f"cannot use the catalog {path}")


def prepare(db: sqlite3.Connection) -> None:
    """Create the schema in a new database, or make it again when it is of another version;
    nothing when it is current."""
    if _current(db):
        return
    db.execute("BEGIN IMMEDIATE")
    try:
        if not _current(db):
            _drop_everything(db)
            for statement in _statements(SCHEMA + postings.SCHEMA):
                db.execute(statement)
            db.executemany(
                "INSERT INTO meta (key, value) VALUES (?, ?)",
                [
                    ("schema_version", str(SCHEMA_VERSION)),
                    ("rank_version", str(postings.RANK_VERSION)),
                    ("forgotten", "0"),
                ],
            )
            db.execute(f"PRAGMA application_id = {APPLICATION_ID}")
        db.execute("COMMIT")
    except BaseException:
        db.execute("ROLLBACK")
        raise


def forgotten(db: sqlite3.Connection) -> int:
    """How many times roots were forgotten: a process whose states were read before a
    change of it may hold ids of skills that are gone (:meth:`.engine.Catalog` checks)."""
    row = db.execute("SELECT value FROM meta WHERE key = 'forgotten'").fetchone()
    return int(row[0]) if row else 0


def forget_roots(
    db: sqlite3.Connection,
    keep: Collection[str],
    held: Mapping[str, Iterable[int]] | None = None,
) -> list[str]:
    """Inside the caller's write transaction: when the roots are more than
    :data:`MAX_ROOTS` or their states more than :data:`MAX_ROOT_BYTES`, delete the least
    recently used (never one of ``keep``, the query's own) until both are under
    :data:`LOW_WATER` of the bounds, and the skills that only they held (not a remaining
    root's, saved or in the caller's memory: ``held``, the skill ids of the states it holds
    by root); count it in ``forgotten``. The paths forgotten."""
    count, total = db.execute("SELECT count(*), coalesce(sum(size), 0) FROM roots").fetchone()
    if count <= MAX_ROOTS and total <= MAX_ROOT_BYTES:
        return []
    most, largest = int(MAX_ROOTS * LOW_WATER), int(MAX_ROOT_BYTES * LOW_WATER)
    dropped: list[str] = []
    for path, size in db.execute("SELECT path, size FROM roots ORDER BY used, path").fetchall():
        if count <= most and total <= largest:
            break
        if path in keep:
            continue
        dropped.append(path)
        count, total = count - 1, total - size
    if not dropped:
        return []
    candidates: set[int] = set()
    for start in range(0, len(dropped), 500):
        chunk = dropped[start : start + 500]
        marks = ",".join("?" * len(chunk))
        for (blob,) in db.execute(f"SELECT state FROM roots WHERE path IN ({marks})", chunk):
            candidates.update(_ids(blob))
        db.execute(f"DELETE FROM roots WHERE path IN ({marks})", chunk)
    if candidates:
        gone = set(dropped)
        for key, ids in (held or {}).items():
            if key not in gone:
                candidates.difference_update(ids)
        for (blob,) in db.execute("SELECT state FROM roots"):
            candidates.difference_update(_ids(blob))
        for skill_id in sorted(candidates):
            if db.execute("DELETE FROM skills WHERE id = ?", (skill_id,)).rowcount:
                postings.remove(db, skill_id)
    db.execute("UPDATE meta SET value = CAST(value AS INTEGER) + 1 WHERE key = 'forgotten'")
    return dropped


def _ids(blob: bytes) -> Iterable[int]:
    """The skill ids a saved state holds (none when it is not one this version reads)."""
    state = TreeState.loads(blob)
    return () if state is None else (skill_id for skill_id in state.ids if skill_id)


def _current(db: sqlite3.Connection) -> bool:
    (application_id,) = db.execute("PRAGMA application_id").fetchone()
    if application_id != APPLICATION_ID:
        return False
    try:
        versions = dict(db.execute("SELECT key, value FROM meta").fetchall())
    except sqlite3.OperationalError:
        return False
    wanted = {"schema_version": str(SCHEMA_VERSION), "rank_version": str(postings.RANK_VERSION)}
    if any(versions.get(key) != value for key, value in wanted.items()):
        return False
    # versions that say current over tables that are not (a development build's catalog)
    present = {name for (name,) in db.execute("SELECT name FROM sqlite_master")}
    return present >= _TABLES


def _drop_everything(db: sqlite3.Connection) -> None:
    """Drop every table of an old catalog (virtual tables first: they drop their shadows)."""
    while True:
        rows = db.execute(
            "SELECT name, sql LIKE 'CREATE VIRTUAL%' FROM sqlite_master "
            "WHERE type = 'table' AND name NOT LIKE 'sqlite_%' ORDER BY 2 DESC"
        ).fetchall()
        if not rows:
            return
        name = rows[0][0].replace('"', '""')
        db.execute(f'DROP TABLE "{name}"')


def _statements(script: str) -> list[str]:
    """The statements of ``script`` (``executescript`` would commit the transaction)."""
    statements: list[str] = []
    pending = ""
    for line in script.splitlines(keepends=True):
        pending += line
        if sqlite3.complete_statement(pending):
            statements.append(pending.strip())
            pending = ""
    if pending.strip():
        statements.append(pending.strip())
    return statements


def _owner(path: Path) -> str:
    """``absent`` (no file or an empty one), ``ours`` (a SQLite database with the catalog's
    application id) or ``foreign`` (anything else)."""
    try:
        with path.open("rb") as handle:
            header = handle.read(100)
    except FileNotFoundError:
        return "absent"
    except OSError:
        return "foreign" if path.exists() else "absent"
    if not header:
        return "absent"
    if len(header) < 72 or not header.startswith(_SQLITE_HEADER):
        return "foreign"
    return "ours" if int.from_bytes(header[68:72], "big") == APPLICATION_ID else "foreign"


def discard(path: Path) -> None:
    """Remove the catalog at ``path`` (and its WAL files) when it is ours (it broke in use)."""
    if _owner(path) == "ours":
        _remove(path)


def _remove(path: Path) -> None:
    for suffix in ("", "-wal", "-shm", "-journal"):
        with contextlib.suppress(OSError):
            path.with_name(path.name + suffix).unlink()


def _in_memory(reason: str) -> CatalogDatabase:
    db = sqlite3.connect(":memory:", isolation_level=None, check_same_thread=False)
    prepare(db)
    return CatalogDatabase(db, None, (Notice(f"{reason}: searching with a catalog in memory"),))


def _why(exc: BaseException) -> str:
    return str(exc) or type(exc).__name__
