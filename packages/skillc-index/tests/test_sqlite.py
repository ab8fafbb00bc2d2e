"""``skillc_index.sqlite.connect``, the one way the kit opens a SQLite database: the find
catalog and its ranker's background open theirs with it too, for use by other threads."""

from __future__ import annotations

import sqlite3
import threading
from pathlib import Path

import pytest

from skillc_index.sqlite import Mode, connect


def _in_thread(db: sqlite3.Connection) -> list[object]:
    """What a query on ``db`` from another thread gives: its rows, or what it raised."""
    answer: list[object] = []

    def query() -> None:
        try:
            answer.append(db.execute("PRAGMA busy_timeout").fetchone())
        except sqlite3.Error as exc:
            answer.append(exc)

    thread = threading.Thread(target=query)
    thread.start()
    thread.join()
    return answer


@pytest.mark.parametrize("mode", ["rwc", "immutable"])
def test_a_connection_for_other_threads(tmp_path: Path, mode: Mode) -> None:
    """``check_same_thread=False`` (the find catalog's, the background's: they were opened
    with ``sqlite3.connect`` itself, a URI and the pragmas written again) is the only change:
    the URI, autocommit and the busy timeout are the helper's."""
    path = tmp_path / "some # db?.db"
    connect(path, mode="rwc", timeout_ms=1).close()  # made, for the immutable open
    db = connect(path, mode=mode, timeout_ms=1234, check_same_thread=False)
    try:
        assert _in_thread(db) == [(1234,)]
        assert db.isolation_level is None
        assert db.execute("PRAGMA database_list").fetchone()[2] == str(path)
    finally:
        db.close()
    own = connect(path, mode="ro", timeout_ms=1)  # by default, its opener's thread alone
    try:
        (refused,) = _in_thread(own)
        assert isinstance(refused, sqlite3.ProgrammingError)
    finally:
        own.close()
