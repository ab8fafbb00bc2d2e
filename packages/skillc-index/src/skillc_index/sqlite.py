"""The one way the kit opens a SQLite database (the search indexes and the access logs).

Every database is opened through a URI (:func:`sqlite_uri`), so a path holding ``%``, ``?``,
``#`` or spaces opens the file it names, and the mode says whether it may be created
(``rwc``), only written (``rw``) or only read (``ro``). Connections are in autocommit mode
(``isolation_level=None``: transactions are begun explicitly) and wait ``timeout_ms`` for a
lock held by another process. :func:`use_wal` switches a database to WAL, waiting as long.
:func:`writing` is the one way a write transaction is begun, committed and rolled back.
"""

from __future__ import annotations

import contextlib
import os
import sqlite3
import stat
import time
from collections.abc import Callable, Iterator
from pathlib import Path
from typing import Literal

__all__ = ["Mode", "connect", "sqlite_uri", "use_wal", "writing"]

#: ``ro``: read only; ``rw``: read and write an existing database; ``rwc``: create it if needed.
Mode = Literal["ro", "rw", "rwc", "immutable"]
"""SQLite's modes, and ``immutable``: read-only, a file no process can change (SQLite reads
it without locks, and without the shared-memory file a WAL database otherwise needs)."""


def sqlite_uri(path: Path, mode: Mode) -> str:
    """A SQLite URI opening ``path`` (made absolute; ``%``, ``?`` and ``#`` escaped, which is
    what ``Path.as_uri`` gives without importing ``urllib``) in ``mode``."""
    text = os.path.abspath(path)  # noqa: PTH100 - a str is wanted
    for char, escaped in (("%", "%25"), ("?", "%3f"), ("#", "%23")):
        text = text.replace(char, escaped)
    return f"file:{text}?mode=ro&immutable=1" if mode == "immutable" else f"file:{text}?mode={mode}"


#: SQLite's own words (``sqlite3_errstr``, and the schema's ``malformed database schema``) for
#: the result codes the kit tells apart, with their primary code: how :func:`result_code`
#: knows them on Python 3.10, whose ``sqlite3.Error`` has no ``sqlite_errorcode``.
_WORDS = (
    ("file is not a database", "SQLITE_NOTADB", 26),
    ("database disk image is malformed", "SQLITE_CORRUPT", 11),
    ("malformed database schema", "SQLITE_CORRUPT", 11),
    ("database or disk is full", "SQLITE_FULL", 13),
    ("disk I/O error", "SQLITE_IOERR", 10),
    ("unable to open database file", "SQLITE_CANTOPEN", 14),
)


def result_code(exc: BaseException) -> tuple[int, str] | None:
    """SQLite's result code of ``exc`` and its name (``SQLITE_IOERR_WRITE``), ``None`` for an
    error that is no ``sqlite3.Error``. Python 3.11 and later say them (``sqlite_errorcode``,
    ``sqlite_errorname``); 3.10 does not, so there the words of its message give the primary
    code (:data:`_WORDS`; ``None`` for any other message)."""
    if not isinstance(exc, sqlite3.Error):
        return None
    if hasattr(exc, "sqlite_errorcode"):  # Python 3.11 and later
        code = exc.sqlite_errorcode
        return None if code is None else (code, getattr(exc, "sqlite_errorname", None) or "")
    text = str(exc)
    return next(((number, name) for words, name, number in _WORDS if words in text), None)


def damaged(exc: BaseException) -> bool:
    """Whether ``exc`` says the database file is no (sound) database: not one at all
    (``SQLITE_NOTADB``), or malformed (``SQLITE_CORRUPT``): what the access log says once and
    the lint cache makes anew."""
    code = result_code(exc)
    return code is not None and code[0] & 0xFF in (26, 11)


def connect(
    path: Path,
    *,
    mode: Mode,
    timeout_ms: int,
    check_same_thread: bool = True,
    new_mode: int = 0o666,
) -> sqlite3.Connection:
    """``path`` opened in ``mode``, in autocommit mode, waiting up to ``timeout_ms`` for
    another connection's lock (``PRAGMA busy_timeout``). ``sqlite3.Error`` when it cannot be
    opened (for ``ro``/``rw``: when there is no file), and when ``path`` is there but is no
    regular file: a FIFO (a stranger's ``logs.db``) blocked a read-only open for ever.
    ``check_same_thread=False``: the connection may be used by other threads than its
    opener's (the caller serializes them: the find catalog, its ranker's background). A
    database ``rwc`` creates gets ``new_mode`` less the umask (0o666: the mode any new file
    gets; the find catalog's is 0o600), where SQLite's own is 0o644 whatever the umask: under
    ``umask 002`` a project's ``logs.db`` was not writable by the group sharing it (its
    ``-wal`` and ``-shm`` take the file's). With ``new_mode`` 0o600, a file of this user's
    that others may read (made 0o644 by an earlier version) is made 0o600 too; with another,
    a file of this user's opened to write (``rw``, ``rwc``) that has SQLite's 0o644, which
    earlier versions gave whatever the umask, gets the mode a new one gets, and so do its
    ``-wal`` and ``-shm`` (:func:`_as_made_now`; another mode is left alone, while a 0o644
    the user chose cannot be told from SQLite's and is changed too). No mode is changed
    through a symlink (:func:`_chmod_own`): a ``logs.db-wal`` planted as a link to the
    user's ``~/.bashrc`` made that file group-writable."""
    try:
        found = Path(path).stat()
        mode_bits = found.st_mode
        if found.st_uid == getattr(os, "getuid", lambda: -1)():
            if new_mode == 0o600 and mode_bits & 0o077:
                _chmod_own(str(path), 0o600, lambda bits: bool(bits & 0o077))
            elif mode in ("rw", "rwc") and stat.S_IMODE(mode_bits) == _SQLITE_MODE:
                _as_made_now(path, new_mode)
    except FileNotFoundError:
        if mode == "rwc":
            with contextlib.suppress(OSError):  # SQLite says what it says
                flags = os.O_WRONLY | os.O_CREAT | os.O_EXCL | os.O_CLOEXEC
                os.close(os.open(path, flags, new_mode))
        mode_bits = stat.S_IFREG
    except (OSError, ValueError):
        mode_bits = stat.S_IFREG  # no such name (a NUL): SQLite says what it says
    if not stat.S_ISREG(mode_bits):
        raise sqlite3.OperationalError("not a regular file")
    db = sqlite3.connect(
        sqlite_uri(path, mode),
        uri=True,
        timeout=timeout_ms / 1000,
        isolation_level=None,
        check_same_thread=check_same_thread,
    )
    try:
        db.execute(f"PRAGMA busy_timeout = {int(timeout_ms)}")
    except BaseException:
        db.close()
        raise
    return db


_SQLITE_MODE = 0o644
"""The mode SQLite gives a database it creates, whatever the umask (what earlier versions of
the kit left every database with)."""


def _as_made_now(path: Path, new_mode: int) -> None:
    """Give the database at ``path`` and its ``-wal`` and ``-shm``, each when it is a regular
    file of this user's with :data:`_SQLITE_MODE` (:func:`_chmod_own`: never a symlink), the
    mode :func:`connect` makes one with now: ``new_mode`` less the umask (nothing when that
    is the same). Under ``umask 002`` a project's ``logs.db`` made by an earlier version
    stayed 0o644, unwritable by the group sharing the project, while a new one is 0o664."""
    wanted = new_mode & ~_umask() & 0o777
    if wanted == _SQLITE_MODE:
        return
    for name in (str(path), f"{path}-wal", f"{path}-shm"):
        _chmod_own(name, wanted, lambda bits: bits == _SQLITE_MODE)


_NOFOLLOW = getattr(os, "O_NOFOLLOW", 0)


def _chmod_own(name: str, wanted: int, when: Callable[[int], bool]) -> None:
    """Give the file ``name`` the mode ``wanted`` when it is a regular file of this user's
    whose mode ``when`` accepts; never through a symlink (a ``logs.db-wal`` another user
    planted as a link to the user's ``~/.bashrc``): the file is opened without following one
    (``O_NOFOLLOW``), checked to be the one looked at, and changed through that descriptor.
    Nothing where a link cannot be told apart (no ``O_NOFOLLOW``: Windows, whose modes are
    not these), nor when it cannot be opened or changed: SQLite says what it says."""
    if not _NOFOLLOW:  # pragma: no cover - Windows
        return
    flags = os.O_RDONLY | _NOFOLLOW | os.O_NONBLOCK | getattr(os, "O_CLOEXEC", 0)
    with contextlib.suppress(OSError):  # gone, a link, or not ours to change
        seen = os.lstat(name)
        if not _changeable(seen, when):  # a FIFO or a device is never opened
            return
        fd = os.open(name, flags)
        try:
            now = os.fstat(fd)
            if (now.st_dev, now.st_ino) == (seen.st_dev, seen.st_ino) and _changeable(now, when):
                os.fchmod(fd, wanted)
        finally:
            os.close(fd)


def _changeable(found: os.stat_result, when: Callable[[int], bool]) -> bool:
    return (
        stat.S_ISREG(found.st_mode)
        and found.st_uid == os.getuid()
        and when(stat.S_IMODE(found.st_mode))
    )


def _umask() -> int:
    """This process's umask, read without changing it where the system tells it (Linux's
    ``/proc/self/status``): setting it to read it back gives a file another thread makes
    meanwhile the wrong mode. Elsewhere it is set to 0o077 for that moment, so such a file
    is never more open than it should be."""
    with contextlib.suppress(OSError, ValueError, IndexError):
        for line in Path("/proc/self/status").read_text("ascii").splitlines():
            if line.startswith("Umask:"):
                return int(line.split()[1], 8)
    old = os.umask(0o077)
    os.umask(old)
    return old


def use_wal(db: sqlite3.Connection, timeout_ms: int) -> None:
    """``PRAGMA journal_mode = WAL``, waiting as long as any other statement: when two
    processes create the same database at once, SQLite answers one of the switches with
    "database is locked" at once, without its busy handler."""
    deadline = time.monotonic() + timeout_ms / 1000
    while True:
        try:
            db.execute("PRAGMA journal_mode = WAL")
            return
        except sqlite3.OperationalError as exc:
            if "locked" not in str(exc) or time.monotonic() >= deadline:
                raise
            time.sleep(0.005)


@contextlib.contextmanager
def writing(db: sqlite3.Connection) -> Iterator[None]:
    """A write transaction (``BEGIN IMMEDIATE``: concurrent writers wait for each other),
    committed at the end, rolled back when the body raises. Only while it is still open: a
    Ctrl-C raised on return from a slow ``COMMIT`` comes after the commit, and a ``ROLLBACK``
    then replaced the ``KeyboardInterrupt`` with "cannot rollback - no transaction is
    active" (``skc sync`` went on with the next skill and reported an ``E041``)."""
    db.execute("BEGIN IMMEDIATE")
    try:
        yield
        db.execute("COMMIT")
    except BaseException:
        if db.in_transaction:
            db.execute("ROLLBACK")
        raise
