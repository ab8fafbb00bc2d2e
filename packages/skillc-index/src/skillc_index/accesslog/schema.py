"""The access log's database (RFC-0007:C-LOGGING): ``<runtime>/.skillc-meta/logs.db``, its
schema, and opening it.

Two rules, so that nothing a checkout ships in a ``logs.db`` runs and logs of other RFC-0007
implementations can still be read:

- **read** (:func:`check_log`): the database holds no trigger and no view (what would run),
  and its ``access_log`` is a real table with at least the columns the RFC lists
  (:data:`RFC_COLUMNS`, none of them generated, ``id`` an ``INTEGER PRIMARY KEY``), checked
  with ``PRAGMA table_xinfo``, never by comparing SQL text. Other columns, tables and indexes
  are allowed, and only the RFC's columns are ever read;
- **write** (:func:`check_schema`): the schema is exactly the one :data:`SCHEMA` creates (or
  an older version of it): skillc writes only logs skillc made, so a log another
  implementation made is read, never written.

Either refusal is :class:`ForeignLog`, saying why. Writers open a log with :func:`connect`
(created when missing, WAL, a busy timeout), readers with :func:`open_log`.

**Text that is not UTF-8** (a log another tool or a checkout wrote can hold any bytes): every
connection either opens reads it with :func:`log_text` (its bad bytes as lone surrogates, as
Python reads a file name), never failing the statement; SQLite's own decoding failed every
query, upload or merge of the log. What goes back into a log (``sync``'s merge) is bound
with :func:`text_param` into ``CAST(? AS TEXT)``: the same bytes.
"""

from __future__ import annotations

import os
import sqlite3
from contextlib import closing, suppress
from pathlib import Path

from skillc_index.sqlite import Mode, use_wal
from skillc_index.sqlite import connect as sqlite_connect

LOG_FILE = "logs.db"
#: The files of a log, by their suffix: the database, its WAL, shared-memory and journal.
DB_FILES = ("", "-wal", "-shm", "-journal")
#: 1: the table and its timestamp index. 2, 3: the indexes ``skc stats`` reads (below). 4: the
#: log's identity (:mod:`.identity`). 5: the fallback logs ``sync`` copied from
#: (:mod:`.merge`). 6: the folders its skill was moved between (:mod:`.moves`). An older
#: database gains what it lacks the next time a command writes to it (``connect`` runs SCHEMA).
SCHEMA_VERSION = 6
STALE_AFTER_SECONDS = 3600
#: How long a command waits for another writer of the primary log. Writers hold the lock for
#: one short transaction (well under a millisecond); a lock held longer is someone else's long
#: transaction, and the row goes to the fallback rather than stalling the command.
PRIMARY_BUSY_TIMEOUT_MS = 500
#: Everywhere else (the fallback, which ``sync`` locks while it copies; ``sync``; readers).
BUSY_TIMEOUT_MS = 10_000
#: A log's WAL is checkpointed once it holds this many pages (SQLite's default: 1,000, 4 MB;
#: a row takes about 7) and its file cut back to as many 4 KB pages (``journal_size_limit``).
WAL_PAGES = 64

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
    # The log's own identity, one row (:mod:`.identity`): a random id, which a team store
    # keys its rows by, and what earlier rows may already be stored under.
    """CREATE TABLE IF NOT EXISTS log_identity (
        one INTEGER PRIMARY KEY CHECK (one = 1),
        log_id TEXT NOT NULL,
        previous_id TEXT,
        previous_upto INTEGER NOT NULL
    )""",
    # The fallback logs whose rows ``sync`` copied here (:mod:`.merge`): each one's identity
    # and the highest ``id`` copied, written in the copy's transaction; the newest kept.
    """CREATE TABLE IF NOT EXISTS merged_logs (
        log_id TEXT NOT NULL,
        upto INTEGER NOT NULL
    )""",
    # The folders ``route install`` and ``uninstall`` moved the log's skill between
    # (:mod:`.moves`): the rows of ``from_path`` up to ``upto`` are the skill's at ``to_path``.
    # Appended only: no row of access_log is ever edited (a team store compares them).
    """CREATE TABLE IF NOT EXISTS moved_folders (
        id INTEGER PRIMARY KEY,
        timestamp TEXT NOT NULL,
        from_path TEXT NOT NULL,
        to_path TEXT NOT NULL,
        upto INTEGER NOT NULL
    )""",
)
#: A log gains its identity with the schema (a new one: nothing before it; an older one: its
#: rows so far may be in a team store under the key earlier versions derived).
ADD_IDENTITY = (
    "INSERT INTO log_identity (one, log_id, previous_id, previous_upto) "
    "SELECT 1, ?, NULL, COALESCE((SELECT MAX(id) FROM access_log), 0) "
    "WHERE NOT EXISTS (SELECT 1 FROM log_identity)"
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
    """A database at a log's place that skillc refuses, before anything is read or written:
    to read (:func:`check_log`: a trigger would run on every insert, a view on every read;
    no ``access_log`` with the RFC's columns), or to write (:func:`check_schema`: not the
    schema skillc makes). ``what`` names the object, ``str()`` says why."""

    def __init__(self, what: str, problem: str = "not skillc's schema") -> None:
        self.what = what
        super().__init__(f"{problem} ({what})")


class NewerLog(ForeignLog):
    """A log a newer skillc wrote (:func:`newer_log`): its ``str()`` says so, and to upgrade.
    Never written, nor merged and removed by ``sync``: its rows and what this version cannot
    read stay as they are."""

    def __init__(self, version: int) -> None:
        from skillc_index.command_errors import written_by_newer

        self.what = f"access log schema {version}"
        self.version = version
        sqlite3.DatabaseError.__init__(
            self, written_by_newer("access log schema", version, SCHEMA_VERSION)
        )


def newer_log(db: sqlite3.Connection) -> int | None:
    """The ``user_version`` of a log a newer skillc wrote: skillc's own (its ``log_identity``
    table, since version 4) with a version above :data:`SCHEMA_VERSION`; None for any other
    (an older one, this version's, another implementation's, whatever its version)."""
    version = int(db.execute("PRAGMA user_version").fetchone()[0])
    if version <= SCHEMA_VERSION:
        return None
    identity = db.execute(
        "SELECT 1 FROM sqlite_master WHERE type = 'table' AND name = 'log_identity'"
    ).fetchone()
    return None if identity is None else version


def check_not_newer(db: sqlite3.Connection) -> None:
    """Raise :class:`NewerLog` when a newer skillc wrote the log (:func:`newer_log`)."""
    version = newer_log(db)
    if version is not None:
        raise NewerLog(version)


def check_schema(db: sqlite3.Connection) -> None:
    """Raise :class:`ForeignLog` unless every object in the database is one of
    :data:`SCHEMA_OBJECTS`, defined exactly so (an empty database passes: it is new): the
    rule for writing. Triggers and views are named first: they are what would run. Else a
    log a newer skillc wrote is :class:`NewerLog`, which says so, whatever its tables and
    indexes (the same as this version's too: ``sync`` refuses it so, E042)."""
    query = "SELECT type, name, sql FROM sqlite_master ORDER BY type IN ('table', 'index')"
    with closing(db.execute(query)) as objects:
        wrong = next(
            (
                (kind, name)
                for kind, name, sql in objects
                if SCHEMA_OBJECTS.get(name) != (kind, " ".join(str(sql).split()))
            ),
            None,
        )
    if wrong is not None and wrong[0] not in ("table", "index"):
        raise ForeignLog(f"{wrong[0]} '{wrong[1]}'")
    check_not_newer(db)  # one PRAGMA (user_version) for a log of this version or older
    if wrong is not None:
        raise ForeignLog(f"{wrong[0]} '{wrong[1]}'")


COLUMNS = ("timestamp", "run_id", "command", "skill", "skill_path", "cwd", "args", "error")
#: The columns RFC-0007:C-LOGGING asks ``access_log`` to have "at minimum".
RFC_COLUMNS = ("id", *COLUMNS)


def check_log(db: sqlite3.Connection) -> None:
    """Raise :class:`ForeignLog` unless the database can be read as an access log (the rule
    for reading, whoever made it; see the module): no trigger, no view, and an
    ``access_log`` table (not virtual) holding :data:`RFC_COLUMNS`, none generated, ``id``
    an ``INTEGER PRIMARY KEY``. A database without ``access_log`` passes (a new one; reading
    it then says "no such table")."""
    unsafe = db.execute(
        "SELECT type, name FROM sqlite_master WHERE type IN ('trigger', 'view') "
        "ORDER BY type, name LIMIT 1"
    ).fetchone()
    if unsafe is not None:
        raise ForeignLog(f"{unsafe[0]} '{unsafe[1]}'", "unsafe to read")
    table = db.execute(
        "SELECT sql FROM sqlite_master WHERE type = 'table' AND name = 'access_log' COLLATE NOCASE"
    ).fetchone()
    if table is None:
        return
    problem = "not an RFC-0007 access log"
    if str(table[0]).lstrip()[:14].upper() == "CREATE VIRTUAL":
        raise ForeignLog("virtual table 'access_log'", problem)
    # cid, name, type, notnull, default, pk, hidden (2, 3: generated)
    found = {
        str(name).lower(): (str(kind).upper(), int(pk), int(hidden))
        for _, name, kind, _, _, pk, hidden in db.execute("PRAGMA table_xinfo(access_log)")
    }
    for column in RFC_COLUMNS:
        if column not in found:
            raise ForeignLog(f"table 'access_log' has no column '{column}'", problem)
        if found[column][2]:
            raise ForeignLog(f"column 'access_log.{column}' is generated", problem)
    keys = [name for name, (_, pk, _) in found.items() if pk]
    if keys != ["id"] or found["id"][0] != "INTEGER":
        raise ForeignLog("column 'access_log.id' is not an INTEGER PRIMARY KEY", problem)


INSERT_ROW = (
    f"INSERT INTO access_log ({', '.join(COLUMNS)}) VALUES ({', '.join('?' * len(COLUMNS))})"
)
#: :data:`INSERT_ROW` of a row read from a log (values bound with :func:`text_param`): its text
#: stored with the bytes it was read with.
COPY_ROW = (
    f"INSERT INTO access_log ({', '.join(COLUMNS)}) "
    f"VALUES ({', '.join(['CAST(? AS TEXT)'] * len(COLUMNS))})"
)


def log_text(data: bytes) -> str:
    """A TEXT value of a log as every connection of :func:`connect` and :func:`open_log`
    reads it (their ``text_factory``): UTF-8, its bytes that are not as lone surrogates
    (``surrogateescape``); :func:`skillc_index.text.valid_utf8` shows them as U+FFFD."""
    return data.decode("utf-8", "surrogateescape")


def text_param(value: object) -> object:
    """``value``, read with :func:`log_text`, to bind into ``CAST(? AS TEXT)``: a text holding
    bad bytes as its bytes (the cast keeps them: text again, as it was), any other unchanged
    (a ``str`` with surrogates cannot be bound)."""
    if isinstance(value, str):
        try:
            value.encode("utf-8")
        except UnicodeEncodeError:
            return value.encode("utf-8", "surrogateescape")
    return value


def new_log_id() -> str:
    """A new log identity: 128 random bits in hex (never derived from the machine)."""
    return os.urandom(16).hex()


def empty_log(path: Path) -> bool:
    """Whether ``path`` is a regular file holding no table, with nothing in its ``-wal``: a log
    whose schema was never written (:func:`connect` ran out of descriptors or disk first).
    Either of no byte, or a database of one page (what SQLite writes when it turns a new
    database to WAL) with no row in ``sqlite_master``, no ``user_version`` and no
    ``application_id``, read as immutable (nothing made beside it; closing it keeps the locks
    this process's other connections hold). It holds no row and nothing that is not skillc's:
    readers count it as an empty log, ``sync`` removes a fallback one, writers give it the
    schema."""
    import stat

    try:
        info = os.lstat(path)
    except OSError:
        return False
    size = info.st_size
    if not stat.S_ISREG(info.st_mode) or size > 65536 or size & (size - 1) or _wal_holds_rows(path):
        return False  # a page is a power of two, 512 to 65536 bytes
    if size == 0:
        return True
    query = (
        "SELECT (SELECT count(*) FROM sqlite_master), (SELECT * FROM pragma_user_version), "
        "(SELECT * FROM pragma_application_id)"
    )
    try:
        db = sqlite_connect(path, mode="immutable", timeout_ms=0)
        try:
            return tuple(db.execute(query).fetchone()) == (0, 0, 0)
        finally:
            db.close()
    except sqlite3.Error:
        return False


def _in_global_runtime(path: Path) -> bool:
    """Whether ``path`` lies in the skillc home's runtime store (not anywhere under the home
    folder, which holds projects)."""
    from skillc_index.homes import home_dir
    from skillc_index.layout import SKILLC_DIR

    return path.is_relative_to(home_dir() / SKILLC_DIR / "runtime")


def connect(path: Path, busy_timeout_ms: int = BUSY_TIMEOUT_MS) -> sqlite3.Connection:
    """Open (creating if needed) a log database with the settings concurrent writers need;
    :class:`ForeignLog` if it is not skillc's (checked before anything is written). A log
    made is 0o666 less the umask (a group may share a project's), its owner's alone (0o600)
    under the global runtime store (``$SKILLC_HOME/.skillc/runtime``), which holds one
    user's queries and folders: however it is made (a command, ``skc sync``). A log
    it created whose schema the disk failed to take (full, an I/O error) is removed again:
    nothing half-written is left behind (an empty ``logs.db``, its ``-wal`` and ``-shm``, nor
    the folders made for it: :func:`~skillc_index.atomic.folders_made`).
    ``OSError`` when the log, or its ``-wal`` or ``-shm``, is there and this process may not
    write it (:func:`unwritable_file`), before SQLite opens anything: ``EROFS`` on a read-only
    file system, else ``EACCES`` (:func:`~skillc_index.atomic.refused`)."""
    if path.parent.is_dir():
        return _connect(path, busy_timeout_ms)
    from skillc_index.atomic import folders_made

    with folders_made(path.parent):  # a log not made: no empty .skillc-meta left either
        path.parent.mkdir(parents=True, exist_ok=True)
        return _connect(path, busy_timeout_ms)


def _connect(path: Path, busy_timeout_ms: int) -> sqlite3.Connection:
    """:func:`connect` in the log's folder, there."""
    created = not os.path.lexists(path)
    denied = None if created else unwritable_file(path)
    if denied is not None:
        from skillc_index.atomic import refused

        code = refused(denied)
        raise OSError(code, os.strerror(code), str(denied))
    new_mode = 0o600 if _in_global_runtime(path) else 0o666
    db = sqlite_connect(path, mode="rwc", timeout_ms=busy_timeout_ms, new_mode=new_mode)
    db.text_factory = log_text
    try:
        # No fsync: WAL keeps concurrent writers and a killed process safe (rows are in the OS
        # cache), and this is an analytics log on every agent read; fsyncs made the close-time
        # checkpoint cost more than the whole `skc show`, and creating a log (a first build)
        # cost more than the rest of a small build. Only an OS crash or power cut could lose
        # the latest rows (RFC-0007 asks logging never to slow the command noticeably).
        db.execute("PRAGMA synchronous = OFF")
        # A WAL no bigger than WAL_PAGES: a connection held open (the MCP server's) keeps the
        # last close from removing it, and SQLite's default let it grow to 4 MB for good
        db.execute(f"PRAGMA wal_autocheckpoint = {WAL_PAGES}")
        db.execute(f"PRAGMA journal_size_limit = {WAL_PAGES * 4096}")
        check_schema(db)
        if db.execute("PRAGMA user_version").fetchone()[0] < SCHEMA_VERSION:
            use_wal(db, busy_timeout_ms)
            db.execute("BEGIN IMMEDIATE")
            for statement in SCHEMA:
                db.execute(statement)
            db.execute(ADD_IDENTITY, (new_log_id(),))
            db.execute(f"PRAGMA user_version = {SCHEMA_VERSION}")
            db.execute("COMMIT")
    except BaseException as exc:
        db.close()
        if created:
            _remove_new_log(path, exc)
        raise
    return db


def unwritable_file(path: Path) -> Path | None:
    """The first of the log ``path``, its ``-wal`` and its ``-shm`` that is there and that
    this process may not write (another user's log, a log made read-only, a read-only file
    system); None when there is none. SQLite opens such a log read-only all the same, in a
    folder it can write, and makes a ``-wal`` and ``-shm`` of this process's own, with the
    log's mode, beside it: its owner then could no longer write it (its rows went to the
    fallback, ``sync`` was E041) until someone removed them by hand."""
    for suffix in DB_FILES[:3]:
        name = path.with_name(path.name + suffix)
        # ``os.access`` is False for a file not there, and other writers make and remove a
        # ``-wal`` and ``-shm`` all the time: only a file there and refused three times in a
        # row counts (never opened to ask: closing a descriptor of a log drops the POSIX
        # locks this process's other connections hold on it).
        for _look in range(3):
            if os.access(name, os.W_OK) or not os.path.lexists(name):
                break
        else:
            return name
    return None


def _remove_new_log(path: Path, exc: BaseException) -> None:
    """Remove the log :func:`connect` created at ``path`` when ``exc`` is the disk failing,
    while it still holds nothing (:func:`empty_log`: no table, no row in its ``-wal``; SQLite
    writes the first page before the schema): another writer
    that found no log either may have made it too, and committed rows to it since."""
    from skillc_index.atomic import disk_failure  # on a failure only: not on a log's path

    if disk_failure(exc, path) is None or not empty_log(path):
        return
    for suffix in DB_FILES:
        with suppress(OSError):
            path.with_name(path.name + suffix).unlink()


def misplaced(path: Path, base: Path | None = None) -> bool:
    """Whether writing the log ``path`` would land outside ``base``: its folder's real path
    is not inside ``base``'s (with no ``base``: is not the folder as written, a symlink on
    the way), or the database (or its WAL, shared-memory or journal file) is a symlink.
    skillc never makes either; a checkout can ship both."""
    from skillc_index.files import real_path, within

    if base is None:
        if real_path(path.parent) != os.path.abspath(path.parent):  # noqa: PTH100
            return True
    elif not within(path.parent, base):
        return True
    return any(path.with_name(path.name + suffix).is_symlink() for suffix in DB_FILES)


def open_log(path: Path, *, write: bool = False, own: bool = False) -> sqlite3.Connection:
    """Open an existing log without creating anything (``sqlite3.Error`` when it cannot: no
    file, not a database, no ``access_log`` table; :class:`ForeignLog` when it cannot be read
    as one, :func:`check_log`), for reading or, with ``write``, writing (deleting rows). With
    ``own``, only a log with skillc's own schema (:func:`check_schema`: one ``connect``
    would write to). A read in a folder this process can write opens the log ``rw`` refusing
    writes (``query_only``): the last connection to close checkpoints and removes the
    ``-wal`` and ``-shm`` that a read-only (``ro``) one leaves beside the log. Not a log that
    is :func:`misplaced` (a symlink, or in a folder reached through one): SQLite would
    checkpoint the database it leads to, outside the project; it is read ``ro``. A read in a
    folder this process cannot write, or on a full disk
    (:func:`~skillc_index.atomic.disk_failure`), opens the log as immutable; so does a read
    of a log this process may not write (:func:`unwritable_file`: another user's, in a folder
    they share) with no rows waiting in its ``-wal``, which leaves nothing beside it."""
    writable = os.access(path.parent, os.W_OK)
    denied = not write and writable and unwritable_file(path) is not None
    rw = write or (writable and not misplaced(path) and not denied)
    mode: Mode = "rw" if rw else "ro"
    if denied and not _wal_holds_rows(path):
        mode = "immutable"
    try:
        db = _open_log(path, mode, own)
    except sqlite3.OperationalError as exc:
        from skillc_index.atomic import disk_failure

        # on a full disk too, unless rows wait in the log's -wal (an immutable read would not
        # see them): then the error, which says the disk is full
        if write or (writable and (disk_failure(exc, path) is None or _wal_holds_rows(path))):
            raise
        # a log in WAL mode in a folder this process cannot write (a read-only runtime, a
        # sandbox) or on a full disk: SQLite cannot make the shared-memory file a read needs
        # ("attempt to write a readonly database", "disk I/O error"), and no process can
        # write the log there either
        db = _open_log(path, "immutable", own)
    if not write:
        try:
            db.execute("PRAGMA query_only = 1")
        except BaseException:
            db.close()
            raise
    return db


def _wal_holds_rows(path: Path) -> bool:
    try:
        return path.with_name(f"{path.name}-wal").stat().st_size > 0
    except OSError:
        return False


def _open_log(path: Path, mode: Mode, own: bool) -> sqlite3.Connection:
    db = sqlite_connect(path, mode=mode, timeout_ms=BUSY_TIMEOUT_MS)
    db.text_factory = log_text
    try:
        (check_schema if own else check_log)(db)  # the first implies the second
        db.execute(f"SELECT {', '.join(RFC_COLUMNS)} FROM access_log LIMIT 0")  # fails now
    except BaseException:
        db.close()
        raise
    return db
