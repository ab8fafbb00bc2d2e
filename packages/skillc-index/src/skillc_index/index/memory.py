"""Indexes kept in this process's memory, where none can be written: the skill's runtime
cannot be, and no temporary directory can be made (a sandbox where everything is read-only:
Codex's read-only mode; :func:`.cache._private_runtime`). Each is a database of SQLite's
``memdb`` VFS (SQLite 3.36 and later), named once, which every connection of the process
opening that name shares, and which lives while one is open: this module keeps one open,
replaced when the index is built again, for the :data:`KEPT_MAX` skills read last (the
long-lived MCP server reads many: the one read longest ago is let go, its holder closed, and
built again when it is read again; a reader still open goes on reading it). Their paths are those of
:data:`.freshness.MEMORY_RUNTIME`, which no file has; :mod:`.freshness` reads them as it
reads a file (:func:`connect`), and the readers warn once a process that they are
(:func:`notice`).
"""

from __future__ import annotations

import sqlite3
import threading
from collections import OrderedDict
from contextlib import suppress
from itertools import count
from pathlib import Path
from typing import TYPE_CHECKING

from skillc_index.diagnostics import Notice

if TYPE_CHECKING:
    from collections.abc import Callable

__all__ = ["LOCK", "available", "connect", "keep", "notice", "number"]

#: Taken while an index in memory is built (the process's own: no other sees it).
LOCK = threading.Lock()

#: How many indexes are kept at most (each a skill's whole index, in memory).
KEPT_MAX = 8

_kept: OrderedDict[Path, tuple[int, sqlite3.Connection]] = OrderedDict()
"""Each index path's database: its number (in its ``memdb`` name) and the connection that
keeps it, the one read longest ago first."""
_numbers = count(1)
_why: dict[str, bool] = {}
"""Why indexes are kept in memory, and whether it was said (:func:`notice`)."""


def available() -> bool:
    """Whether this SQLite has the ``memdb`` VFS (3.36 and later)."""
    return sqlite3.sqlite_version_info >= (3, 36, 0)


def _name(number: int) -> str:
    import os

    return f"file:/skillc-index-{os.getpid()}-{number}?vfs=memdb"


def keep(path: Path, fill: Callable[[sqlite3.Connection], None], why: str) -> None:
    """Make a new database in memory, ``fill`` it (its connection, in autocommit mode), and
    keep it as the index ``path`` in place of the one kept before (whose readers go on
    reading it); nothing is kept when ``fill`` raises. ``why``: why indexes are kept in
    memory, said once a process (:func:`notice`)."""
    number = next(_numbers)
    connection = sqlite3.connect(
        _name(number), uri=True, isolation_level=None, check_same_thread=False
    )
    try:
        fill(connection)
    except BaseException:
        connection.close()  # the last connection to it: the database is gone
        raise
    old = _kept.pop(path, None)
    _kept[path] = (number, connection)
    gone = [old] if old is not None else []
    while len(_kept) > KEPT_MAX:
        gone.append(_kept.popitem(last=False)[1])
    _why.setdefault(why, False)  # each reason said once (unwritable; a newer skillc's index)
    for _number, holder in gone:
        holder.close()


def number(path: Path) -> int | None:
    """The number of the database in memory kept as the index ``path`` (another once it is
    built again), None when there is none."""
    kept = _kept.get(path)
    return None if kept is None else kept[0]


def connect(path: Path, timeout_ms: int) -> sqlite3.Connection:
    """A read-only connection to the index ``path`` in memory, waiting up to ``timeout_ms``
    for a lock; ``sqlite3.OperationalError`` when none is kept."""
    kept = _kept.get(path)
    if kept is None:
        raise sqlite3.OperationalError(f"no index in memory for {path}")
    with suppress(KeyError):  # let go meanwhile (another thread's): read once more
        _kept.move_to_end(path)  # read last: let go last
    uri = _name(kept[0]).replace("?", "?mode=ro&", 1)
    db = sqlite3.connect(uri, uri=True, isolation_level=None)
    db.execute(f"PRAGMA busy_timeout = {int(timeout_ms)}")
    return db


def notice() -> tuple[Notice, ...]:
    """The warning that indexes are kept in memory, the first time it is asked after one was
    (once a process: a command, the MCP server); else none."""
    unsaid = [why for why, said in _why.items() if not said]
    _why.update(dict.fromkeys(unsaid, True))
    return tuple(map(Notice, unsaid))
