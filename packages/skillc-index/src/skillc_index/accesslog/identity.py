"""The identity of an access log: who "this log" is, wherever its rows are sent.

A team store (``skc sync --to``, skillc-stats) keys each row it receives by the log it came
from and the row's ``id`` there, and asks for the rows above the highest ``id`` it holds of
that log. So the log's key must be the same for the log's whole life, whatever is done to its
rows (old rows pruned by hand, a ``VACUUM``), and differ from every other log's, on every
machine (clones of one VM image, containers sharing the host's ``/etc/machine-id``).

Each log made by skillc holds its identity in the one-row table ``log_identity`` (created
with the schema, :data:`~.schema.SCHEMA`): ``log_id``, 128 random bits, never derived from
the machine. A log written before it existed gains one the first time a command or ``sync``
writes to it. ``previous_id`` and ``previous_upto`` say that the rows up to ``id``
``previous_upto`` may already be in a store under another key: ``previous_id`` (the id a copy
of this log had before it was told apart from its original, :func:`renew_identity`), or,
when it is NULL, the key skillc-stats derived before logs had an identity (from the machine
id, the log's real path and its first row). The uploader compares those rows with the ones
stored under that key, sends only the ones missing, then clears them
(:func:`settle_identity`).
"""

from __future__ import annotations

import sqlite3
from typing import NamedTuple

from skillc_index.accesslog.schema import new_log_id
from skillc_index.sqlite import writing

__all__ = ["LogIdentity", "new_log_id", "read_identity", "renew_identity", "settle_identity"]


class LogIdentity(NamedTuple):
    log_id: str
    previous_id: str | None
    """Where the rows up to :attr:`previous_upto` may be already (None: the key of versions
    before log identities)."""
    previous_upto: int
    """0: no earlier key to look at."""


_COLUMNS = frozenset({"one", "log_id", "previous_id", "previous_upto"})


def read_identity(db: sqlite3.Connection) -> LogIdentity | None:
    """The identity a log holds; None when it holds none (a log no skillc wrote to since
    identities came, or one another implementation made, even with a ``log_identity`` table
    of its own shape)."""
    columns = {row[1].lower() for row in db.execute("PRAGMA table_info(log_identity)")}
    if not columns >= _COLUMNS:
        return None
    row = db.execute(
        "SELECT log_id, previous_id, previous_upto FROM log_identity WHERE one = 1"
    ).fetchone()
    if row is None or not isinstance(row[0], str) or not row[0]:
        return None
    previous = row[1] if isinstance(row[1], str) else None
    upto = row[2] if isinstance(row[2], int) and row[2] > 0 else 0
    return LogIdentity(row[0], previous, upto)


def renew_identity(db: sqlite3.Connection, old: str) -> LogIdentity | None:
    """Give the log (open for writing, skillc's schema) a new id, because it turned out to be
    a copy of another log that kept ``old`` (the rows it has so far may be in a store under
    ``old``). Nothing when its id is not ``old`` any more (another process renewed it: that
    identity is returned). Its own transaction."""
    with writing(db):
        found = read_identity(db)
        if found is not None and found.log_id == old:
            upto = db.execute("SELECT COALESCE(MAX(id), 0) FROM access_log").fetchone()[0]
            found = LogIdentity(new_log_id(), old, int(upto))
            db.execute(
                "UPDATE log_identity SET log_id = ?, previous_id = ?, previous_upto = ? "
                "WHERE one = 1",
                found,
            )
    return found


def settle_identity(db: sqlite3.Connection, log_id: str) -> None:
    """Forget the earlier key of the log (open for writing) once its rows are all in the
    store under ``log_id``: later uploads compare nothing."""
    db.execute(
        "UPDATE log_identity SET previous_id = NULL, previous_upto = 0 "
        "WHERE one = 1 AND log_id = ?",
        (log_id,),
    )
