"""What an upload to a team store reads of a local access log (skillc-stats'
``skc sync --to``): the ids it keeps its place by (:func:`highest_id`, :func:`last_id`,
:func:`first_row`) and the rows after that place (:func:`row_by_id`, :func:`rows_after`).
Parameterised SQL only, as :mod:`.reader`'s."""

from __future__ import annotations

import sqlite3
from collections.abc import Iterator
from typing import Any

from skillc_index.accesslog.schema import COLUMNS

__all__ = ["first_row", "highest_id", "last_id", "row_by_id", "rows_after"]


def highest_id(db: sqlite3.Connection) -> int:
    """The highest ``id`` the log ever gave a row (``sqlite_sequence`` keeps it after the
    row is deleted)."""
    top = int(db.execute("SELECT COALESCE(MAX(id), 0) FROM access_log").fetchone()[0])
    if db.execute("SELECT 1 FROM sqlite_master WHERE name = 'sqlite_sequence'").fetchone():
        seq = db.execute("SELECT seq FROM sqlite_sequence WHERE name = 'access_log'").fetchone()
        if seq is not None and isinstance(seq[0], int):
            top = max(top, seq[0])
    return top


def last_id(db: sqlite3.Connection) -> int | None:
    """The ``id`` of the last row the log holds (None: it holds none)."""
    row = db.execute("SELECT MAX(id) FROM access_log").fetchone()
    return None if row is None or row[0] is None else int(row[0])


def first_row(db: sqlite3.Connection) -> tuple[Any, Any, Any] | None:
    """``(id, timestamp, run_id)`` of the first row the log holds (None: it holds none)."""
    row = db.execute("SELECT id, timestamp, run_id FROM access_log ORDER BY id LIMIT 1").fetchone()
    return None if row is None else (row[0], row[1], row[2])


def row_by_id(db: sqlite3.Connection, row_id: int) -> tuple[Any, ...] | None:
    """The :data:`~.schema.COLUMNS` of the row ``row_id`` (None: the log holds no such row)."""
    row = db.execute(_ROW_BY_ID, (row_id,)).fetchone()
    return None if row is None else tuple(row)


def rows_after(db: sqlite3.Connection, row_id: int, rows: int, chars: int) -> Iterator[list[Any]]:
    """``id`` and the :data:`~.schema.COLUMNS` of the rows after ``row_id``, by ``id``, in
    batches of ``rows`` rows, or fewer whose text (and BLOBs) reached ``chars`` characters:
    a log another tool wrote or a checkout shipped may hold rows of any size. Each batch is
    read when the one before has been taken."""
    batch: list[Any] = []
    size = 0
    for row in db.execute(_ROWS_AFTER, (row_id,)):
        batch.append(row)
        size += sum(len(value) for value in row if isinstance(value, (str, bytes)))
        if len(batch) >= rows or size >= chars:
            yield batch
            batch, size = [], 0
    if batch:
        yield batch


_ROW_BY_ID = f"SELECT {', '.join(COLUMNS)} FROM access_log WHERE id = ?"
_ROWS_AFTER = f"SELECT id, {', '.join(COLUMNS)} FROM access_log WHERE id > ? ORDER BY id"
