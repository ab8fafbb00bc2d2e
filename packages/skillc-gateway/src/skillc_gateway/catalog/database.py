"""The catalog's SQLite database: ``<skillc home>/.skillc/catalog-<versions>.db``
(:data:`CATALOG_FILE`; older versions' removed: :func:`_remove_older`), and the statements run
on its own tables (``skills``, ``roots``, ``meta``; the ranker's tables are
:mod:`.postings`').

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
import stat
import threading
from collections.abc import Collection, Iterable, Iterator, Mapping, Sequence
from pathlib import Path
from typing import NamedTuple

from skillc_gateway.catalog import postings
from skillc_gateway.catalog.tree_state import TreeState
from skillc_index import Layout, Notice, use_wal
from skillc_index.index import version as index_version
from skillc_index.sqlite import connect, damaged, writing

__all__ = [
    "APPLICATION_ID",
    "BUSY_TIMEOUT_MS",
    "CATALOG_FILE",
    "LEGACY_FILE",
    "LOW_WATER",
    "MAX_ROOTS",
    "MAX_ROOT_BYTES",
    "SCHEMA",
    "SCHEMA_VERSION",
    "TOUCH_NS",
    "CatalogDatabase",
    "data_version",
    "delete_skill",
    "discard",
    "forget_roots",
    "forgotten",
    "insert_skill",
    "known_paths",
    "move_skill",
    "open_database",
    "present_skills",
    "root_states",
    "save_root",
    "set_fingerprint",
    "skill_by_id",
    "skill_by_path",
    "skill_digests",
    "skills_named",
    "skills_of_digests",
    "statements",
    "touch_roots",
    "touch_roots_now",
    "update_skill",
    "writing",
]

#: ``PRAGMA application_id`` of a catalog: ``skcF``.
APPLICATION_ID = 0x736B6346
#: The catalog's own tables (``SCHEMA``); with :data:`postings.RANK_VERSION` and the index
#: schema version its headings were parsed under, stored in ``meta`` (:func:`_versions`).
SCHEMA_VERSION = 4
#: The catalog's file in the skillc home's ``.skillc``, named by the versions a catalog is
#: made under (:func:`_versions`: its tables', its ranker's, skillc-index's parse): two
#: skillc versions that would make each other's catalog again from nothing never share one
#: (one file for all, an older ``skc find`` dropped the catalog a newer find server used).
CATALOG_FILE = f"catalog-{SCHEMA_VERSION}.{postings.RANK_VERSION}.{index_version.SCHEMA_VERSION}.db"
#: The one catalog file of every version before :data:`CATALOG_FILE` (:func:`_remove_older`).
LEGACY_FILE = "catalog.db"
_VERSIONED = re.compile(r"catalog-(\d{1,9})\.(\d{1,9})\.(\d{1,9})\.db")
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
CREATE INDEX IF NOT EXISTS skills_digest ON skills (digest);
CREATE INDEX IF NOT EXISTS skills_name ON skills (lower(name));
CREATE TABLE roots (
    path TEXT PRIMARY KEY,
    state BLOB NOT NULL,
    size INTEGER NOT NULL,
    used INTEGER NOT NULL
);
CREATE INDEX IF NOT EXISTS roots_used ON roots (used);
"""
"""``skills``: one row per skill folder (its real path); ``digest`` identifies its content
(duplicates share it), NULL for a skill that could not be read (skipped); ``name`` is indexed
(a request that names a skill finds it first); ids are never
reused (the states of the roots hold them); ``content`` is the SHA-1 of the SKILL.md bytes
indexed (NULL: none were read), so a file looked at again unchanged is not indexed again;
``fingerprint`` is the SKILL.md file's stat fingerprint when it was read (0: read it
again). ``roots``: the state of each searched folder's tree
(:class:`~skillc_gateway.catalog.tree_state.TreeState`), its size in bytes and when it was last
used (ns since the epoch, written again after :data:`TOUCH_NS`); ``meta``'s ``forgotten``
counts the times roots were forgotten (:func:`forget_roots`)."""

_SQLITE_HEADER = b"SQLite format 3\x00"
#: The tables a current catalog holds.
_TABLES = frozenset(
    re.findall(r"CREATE (?:VIRTUAL )?TABLE (?:IF NOT EXISTS )?(\w+)", SCHEMA + postings.SCHEMA)
)
#: Its indexes: one a current catalog lacks (added since it was made) is created when it is
#: opened, nothing indexed anew (:func:`prepare`).
_INDEXES = frozenset(re.findall(r"CREATE INDEX IF NOT EXISTS (\w+)", SCHEMA + postings.SCHEMA))


class CatalogDatabase(NamedTuple):
    db: sqlite3.Connection
    path: Path | None
    """None for a catalog in memory."""
    warnings: tuple[Notice, ...] = ()


def open_database(layout: Layout) -> CatalogDatabase:
    """The catalog of ``layout``'s skillc home, ready (schema current); one in memory, with
    a warning, when that file cannot be used or the user has no home folder (nothing is made
    in :data:`~skillc_index.layout.NO_HOME`, which root could)."""
    from skillc_index.layout import NO_HOME, in_no_home

    path = layout.global_dir / CATALOG_FILE
    if in_no_home(path):
        return _in_memory(f"no home folder ({NO_HOME}), no catalog file", _KEEP_ONE)
    for _attempt in range(2):
        try:
            if _owner(path) == "foreign":
                return _in_memory(
                    f"{path} is not a skillc catalog; it is left as it is",
                    "remove it, or set SKILLC_HOME to another folder, to keep one",
                )
            path.parent.mkdir(parents=True, exist_ok=True)
            if path.exists() and not os.access(path, os.R_OK | os.W_OK):
                raise PermissionError("not writable")
            db = connect(
                path,
                mode="rwc",
                timeout_ms=BUSY_TIMEOUT_MS,
                check_same_thread=False,
                new_mode=0o600,
            )
        except (OSError, sqlite3.Error) as exc:
            return _in_memory(f"cannot write the catalog {path} ({why(exc, path)})", _KEEP_ONE)
        try:
            db.execute(f"PRAGMA cache_size = -{CACHE_KIB}")
            # the schema first: a new catalog's header (its application id) is then in the
            # file itself, not in a WAL that another process reading it would not see
            prepare(db)
            use_wal(db, BUSY_TIMEOUT_MS)
            _opened(path, db)
            _remove_older(path)
            return CatalogDatabase(db, path)
        except sqlite3.DatabaseError as exc:
            db.close()
            if damaged(exc) and _ours(path):
                _remove(path)  # ours, and unusable: made again from nothing
                continue
            return _in_memory(f"cannot use the catalog {path} ({why(exc, path)})")
    return _in_memory(f"cannot use the catalog {path}")


def prepare(db: sqlite3.Connection) -> None:
    """Create the schema in a new database, or make it again when it is of another version;
    when it is current, create the indexes it lacks (:func:`_add_indexes`); nothing else."""
    present = _present(db)
    if _current(db, present):
        if not present >= _INDEXES:
            _add_indexes(db)
        return
    with writing(db):
        if not _current(db, _present(db)):
            _drop_everything(db)
            for statement in statements(SCHEMA + postings.SCHEMA):
                db.execute(statement)
            db.executemany(
                "INSERT INTO meta (key, value) VALUES (?, ?)",
                [*_versions().items(), ("forgotten", "0")],
            )
            db.execute(f"PRAGMA application_id = {APPLICATION_ID}")


def _add_indexes(db: sqlite3.Connection) -> None:
    """Create the indexes of the schema that a current catalog lacks (added since it was
    made: nothing is indexed anew). They only make queries faster: a catalog that cannot be
    written now (busy past the wait, read-only) is used without them."""
    with contextlib.suppress(sqlite3.OperationalError), writing(db):
        for statement in statements(SCHEMA + postings.SCHEMA):
            if statement.startswith("CREATE INDEX"):
                db.execute(statement)


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


def _present(db: sqlite3.Connection) -> set[str]:
    """The names of the tables and indexes ``db`` holds."""
    return {name for (name,) in db.execute("SELECT name FROM sqlite_master")}


def _versions() -> dict[str, str]:
    """The versions a catalog is made under, its ``meta`` rows: its tables', its ranker's and
    skillc-index's parse (a skill's headings are kept as the index schema version reads them)."""
    return {
        "schema_version": str(SCHEMA_VERSION),
        "rank_version": str(postings.RANK_VERSION),
        "index_schema_version": str(index_version.SCHEMA_VERSION),
    }


def _current(db: sqlite3.Connection, present: set[str]) -> bool:
    """Whether ``db`` is a catalog of these versions (:func:`_versions`), its tables all
    ``present``."""
    (application_id,) = db.execute("PRAGMA application_id").fetchone()
    if application_id != APPLICATION_ID:
        return False
    try:
        versions = dict(db.execute("SELECT key, value FROM meta").fetchall())
    except sqlite3.OperationalError:
        return False
    if any(versions.get(key) != value for key, value in _versions().items()):
        return False
    # versions that say current over tables that are not (a development build's catalog)
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


def statements(script: str) -> list[str]:
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
    application id) or ``foreign`` (anything else). The file of a catalog connection this
    process holds open (:data:`_OPEN`) is not read again. :class:`OSError` when the file, or
    its folder, cannot be read (another user's ``~/.skillc`` after a ``sudo skc``): that is
    no sign of a file not ours, and the caller says why."""
    try:
        st = path.stat()
    except (FileNotFoundError, NotADirectoryError):
        return "absent"
    if (st.st_dev, st.st_ino) in _open_files(str(path)):
        return "ours"
    if not stat.S_ISREG(st.st_mode):  # a FIFO there: opening it would wait for a writer
        return "foreign"
    try:
        with path.open("rb") as handle:
            header = handle.read(100)
    except FileNotFoundError:
        return "absent"
    if not header:
        return "absent"
    if len(header) < 72 or not header.startswith(_SQLITE_HEADER):
        return "foreign"
    return "ours" if int.from_bytes(header[68:72], "big") == APPLICATION_ID else "foreign"


#: The catalog connections this process opened, by path, with their file's device and inode:
#: opening the catalog again while one is open (another thread's catalog,
#: :meth:`.engine.Catalog.shared`) does not read its header again. Reading it opens and
#: closes the file, and closing a file drops every POSIX lock the process holds on it,
#: SQLite's too: another process that then closed its last connection to the catalog took it
#: for the last one, and deleted the WAL this process's connections still wrote to (their
#: rows lost to every other process). An open connection keeps its file's inode from being
#: given to another file, so the same device and inode are the same file.
_OPEN: dict[str, list[tuple[tuple[int, int], sqlite3.Connection]]] = {}
_OPEN_LOCK = threading.Lock()  # threads open catalogs at once: none of them is left out


def _opened(path: Path, db: sqlite3.Connection) -> None:
    """Count ``db`` among this process's connections to the catalog at ``path``."""
    with contextlib.suppress(OSError):
        st = path.stat()
        with _OPEN_LOCK:
            _OPEN.setdefault(str(path), []).append(((st.st_dev, st.st_ino), db))
    _open_files(str(path))  # the closed ones dropped


def _open_files(path: str) -> set[tuple[int, int]]:
    """The files (device, inode) of this process's open connections to the catalog at
    ``path`` (those closed since are forgotten)."""
    with _OPEN_LOCK:
        kept = []
        for identity, db in _OPEN.get(path, ()):
            try:
                db.in_transaction  # noqa: B018 - raises once the connection is closed
            except sqlite3.ProgrammingError:
                continue
            kept.append((identity, db))
        if kept:
            _OPEN[path] = kept
        else:
            _OPEN.pop(path, None)
        return {identity for identity, _ in kept}


def _remove_older(path: Path) -> None:
    """Remove the catalogs of older versions beside ``path``, this version's catalog, open:
    the unversioned :data:`LEGACY_FILE` of every version before, and those whose versions
    in their name are each at most this one's (a newer version's is never removed); each
    only when it is a catalog, a regular file (:func:`_ours`), while no find server but
    this process holds the skillc home's lock (one of an older version may use its catalog:
    :func:`.client.lock_holder`; they are removed by a later open), and while no process has
    it open (:func:`_in_use`: an older ``skc find`` with no server, an MCP server's). A
    listing of the folder when nothing is to be removed."""
    from skillc_gateway.catalog.client import lock_holder
    from skillc_gateway.catalog.protocol import LOCK_NAME
    from skillc_index import FindServerError

    these = [int(version) for version in _versions().values()]
    older: list[Path] = []
    with contextlib.suppress(OSError), os.scandir(path.parent) as entries:
        for entry in entries:
            named = _VERSIONED.fullmatch(entry.name)
            versions = [int(version) for version in named.groups()] if named else these
            if entry.name == path.name:
                continue
            if entry.name == LEGACY_FILE or (
                versions != these and all(v <= t for v, t in zip(versions, these, strict=True))
            ):
                older.append(Path(entry.path))
    if not older:
        return
    try:
        holder = lock_holder(path.parent / LOCK_NAME)
    except FindServerError:  # no regular file: no server can hold it
        holder = None
    if holder is not None and holder != str(os.getpid()):
        return
    for old in older:
        if old.is_file() and not old.is_symlink() and _ours(old) and not _in_use(old):
            _remove(old)


def _in_use(path: Path) -> bool:
    """Whether a process may have the catalog at ``path`` open: a lock on it or on its
    ``-shm`` (every open connection in WAL mode holds one there) in ``/proc/locks``, matched
    on the inode alone (:func:`.client.locked`: a btrfs subvolume's device differs there);
    True when that cannot be told (kept: removed by a later open)."""
    from skillc_gateway.catalog.client import locked

    files = []
    for name in (path, path.with_name(path.name + "-shm")):
        with contextlib.suppress(OSError):
            files.append(name.lstat())
    return not files or locked(*files) is not False


def discard(path: Path) -> None:
    """Remove the catalog at ``path`` (and its WAL files) when it is ours (it broke in use)."""
    if _ours(path):
        _remove(path)


def _ours(path: Path) -> bool:
    """Whether the file at ``path`` is a catalog (:func:`_owner`); not when it cannot be read."""
    try:
        return _owner(path) == "ours"
    except OSError:
        return False


def _remove(path: Path) -> None:
    for suffix in ("", "-wal", "-shm", "-journal"):
        with contextlib.suppress(OSError):
            path.with_name(path.name + suffix).unlink()


#: What to do to keep a catalog where none could be written, said with the warning.
_KEEP_ONE = "set SKILLC_HOME to a writable folder to keep one"


def _in_memory(reason: str, remedy: str = "") -> CatalogDatabase:
    """A catalog in memory, with the warning that says why (``reason``) and what to do to
    keep one (``remedy``: where there is something to do), as the other warnings of the
    skillc home do (:func:`.protocol.too_long`)."""
    db = sqlite3.connect(":memory:", isolation_level=None, check_same_thread=False)
    prepare(db)
    said = f"{reason}: searching with a catalog in memory"
    return CatalogDatabase(db, None, (Notice(f"{said}; {remedy}" if remedy else said),))


def why(exc: BaseException, path: Path | None) -> str:
    """Why the catalog at ``path`` (None: in memory) could not be opened or written, as
    :func:`~skillc_index.atomic.failure_reason` says it: the disk failing with SQLite's code
    and the free space of its device (its "disk I/O error" names no cause)."""
    if path is None:
        return str(exc) or type(exc).__name__
    from skillc_index.atomic import failure_reason

    return failure_reason(exc, path)


# -- the statements on the catalog's own tables --------------------------------------------------

#: Values bound in one ``IN (...)`` list at most (SQLite's default limit is 32,766).
CHUNK = 500


def data_version(db: sqlite3.Connection) -> int:
    """``PRAGMA data_version``: it changes when another connection commits a write."""
    (version,) = db.execute("PRAGMA data_version").fetchone()
    return int(version)


def skills_of_digests(
    db: sqlite3.Connection, digests: Sequence[str]
) -> list[tuple[str, int, str, str, str]]:
    """``(digest, id, path, name, description)`` of every skill with one of ``digests``."""
    if not digests:
        return []
    return db.execute(
        "SELECT digest, id, path, name, description FROM skills "
        f"WHERE digest IN ({','.join('?' * len(digests))})",
        list(digests),
    ).fetchall()


def skills_named(db: sqlite3.Connection, name: str) -> list[int]:
    """The ids of the skills whose name is ``name`` (lowercase; case aside)."""
    return [skill_id for (skill_id,) in db.execute(_NAMED, (name,))]


_NAMED = "SELECT id FROM skills WHERE lower(name) = ?"


def skill_digests(db: sqlite3.Connection, ids: Sequence[int]) -> dict[int, str | None]:
    """The content digest of each skill of ``ids`` that exists (None: it could not be read)."""
    if not ids:
        return {}
    return dict(
        db.execute(
            f"SELECT id, digest FROM skills WHERE id IN ({','.join('?' * len(ids))})", list(ids)
        ).fetchall()
    )


def present_skills(db: sqlite3.Connection, ids: Sequence[int]) -> set[int]:
    """The ids among ``ids`` whose skill row exists."""
    present: set[int] = set()
    for start in range(0, len(ids), CHUNK):
        chunk = list(ids[start : start + CHUNK])
        rows = db.execute(
            f"SELECT id FROM skills WHERE id IN ({','.join('?' * len(chunk))})", chunk
        )
        present.update(skill_id for (skill_id,) in rows)
    return present


def known_paths(db: sqlite3.Connection, paths: Sequence[str]) -> int:
    """How many of the skill folders ``paths`` (real paths) have a row."""
    known = 0
    for start in range(0, len(paths), CHUNK):
        chunk = list(paths[start : start + CHUNK])
        (count,) = db.execute(
            f"SELECT count(*) FROM skills WHERE path IN ({','.join('?' * len(chunk))})", chunk
        ).fetchone()
        known += count
    return known


def skill_by_path(db: sqlite3.Connection, real: str) -> tuple[int, int, bool, bytes | None] | None:
    """``(id, fingerprint, skipped, content)`` of the skill folder ``real``, or None."""
    row = db.execute(
        "SELECT id, fingerprint, digest IS NULL, content FROM skills WHERE path = ?", (real,)
    ).fetchone()
    return None if row is None else (row[0], row[1], bool(row[2]), row[3])


def skill_by_id(db: sqlite3.Connection, skill_id: int) -> tuple[str, bool, bytes | None] | None:
    """``(path, skipped, content)`` of the skill ``skill_id``, or None."""
    row = db.execute(
        "SELECT path, digest IS NULL, content FROM skills WHERE id = ?", (skill_id,)
    ).fetchone()
    return None if row is None else (row[0], bool(row[1]), row[2])


def move_skill(db: sqlite3.Connection, skill_id: int, old: str, new: str, fingerprint: int) -> bool:
    """The skill ``skill_id``, still at the folder ``old``, is now the folder ``new`` (moved:
    its id, words and vector stay); whether it was at ``old``."""
    cursor = db.execute(
        "UPDATE skills SET path = ?, fingerprint = ? WHERE id = ? AND path = ?",
        (new, fingerprint, skill_id, old),
    )
    return cursor.rowcount > 0


def set_fingerprint(db: sqlite3.Connection, skill_id: int, fingerprint: int) -> None:
    db.execute("UPDATE skills SET fingerprint = ? WHERE id = ?", (fingerprint, skill_id))


class SkillRow(NamedTuple):
    """What the catalog keeps of a skill folder besides its path."""

    name: str
    description: str
    digest: str | None
    """What makes two skills the same one; None: it could not be read (skipped)."""
    content: bytes | None
    """The SHA-1 of the SKILL.md bytes indexed; None: none were read."""
    fingerprint: int


def insert_skill(db: sqlite3.Connection, real: str, row: SkillRow) -> int:
    """A new skill folder's row; its id (never reused)."""
    cursor = db.execute(
        "INSERT INTO skills (path, name, description, digest, content, fingerprint) "
        "VALUES (?, ?, ?, ?, ?, ?)",
        (real, *row),
    )
    return int(cursor.lastrowid or 0)


def update_skill(db: sqlite3.Connection, skill_id: int, row: SkillRow) -> None:
    db.execute(
        "UPDATE skills SET name = ?, description = ?, digest = ?, content = ?, "
        "fingerprint = ? WHERE id = ?",
        (*row, skill_id),
    )


def delete_skill(db: sqlite3.Connection, skill_id: int, real: str) -> bool:
    """Delete the row of the skill ``skill_id`` if it is still the folder ``real``; whether
    it was."""
    cursor = db.execute("DELETE FROM skills WHERE id = ? AND path = ?", (skill_id, real))
    return cursor.rowcount > 0


def root_states(db: sqlite3.Connection, paths: Sequence[str]) -> Iterator[tuple[str, bytes, int]]:
    """``(path, state, used)`` of the saved roots among ``paths``."""
    for start in range(0, len(paths), CHUNK):
        chunk = list(paths[start : start + CHUNK])
        yield from db.execute(
            f"SELECT path, state, used FROM roots WHERE path IN ({','.join('?' * len(chunk))})",
            chunk,
        )


def save_root(db: sqlite3.Connection, path: str, state: bytes, used_ns: int) -> None:
    """Save the tree state of the root ``path`` (inside the caller's write transaction)."""
    db.execute(
        "INSERT OR REPLACE INTO roots (path, state, size, used) VALUES (?, ?, ?, ?)",
        (path, state, len(state), used_ns),
    )


def touch_roots(db: sqlite3.Connection, paths: Iterable[str], used_ns: int) -> None:
    """Write that the roots ``paths`` were used at ``used_ns`` (inside the caller's write
    transaction)."""
    db.executemany("UPDATE roots SET used = ? WHERE path = ?", [(used_ns, p) for p in paths])


def touch_roots_now(db: sqlite3.Connection, paths: Sequence[str], used_ns: int) -> bool:
    """:func:`touch_roots` in a transaction of its own, only if the catalog is free at once
    (a busy one is touched by a later query); whether it was written."""
    db.execute("PRAGMA busy_timeout = 0")
    try:
        with writing(db):
            touch_roots(db, paths, used_ns)
    except sqlite3.OperationalError:
        return False
    finally:
        db.execute(f"PRAGMA busy_timeout = {BUSY_TIMEOUT_MS}")
    return True
