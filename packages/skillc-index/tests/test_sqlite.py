"""``skillc_index.sqlite.connect``, the one way the kit opens a SQLite database: the find
catalog and its ranker's background open theirs with it too, for use by other threads."""

from __future__ import annotations

import contextlib
import os
import sqlite3
import threading
from collections.abc import Callable, Iterator
from pathlib import Path
from typing import Any

import pytest

from skillc_index.atomic import disk_failure
from skillc_index.sqlite import Mode, connect, damaged, result_code, writing


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


def test_writing_keeps_an_interrupt_that_comes_after_the_commit(
    tmp_path: Path, ctrl_c_after_commit: Callable[[sqlite3.Connection], Any]
) -> None:
    """``writing`` rolls back what the body began, and only that: a Ctrl-C on return from
    a slow ``COMMIT`` was replaced by ROLLBACK's "no transaction is active" (``skc sync``
    reported E041 and went on with the next skill)."""
    db = connect(tmp_path / "a.db", mode="rwc", timeout_ms=1)
    try:
        db.execute("CREATE TABLE t (x)")
        with pytest.raises(KeyboardInterrupt), writing(ctrl_c_after_commit(db)):  # type: ignore[arg-type]
            db.execute("INSERT INTO t VALUES (1)")
        with pytest.raises(ZeroDivisionError), writing(db):
            db.execute("INSERT INTO t VALUES (2)")
            1 / 0  # noqa: B018
        assert not db.in_transaction
        assert db.execute("SELECT x FROM t").fetchall() == [(1,)]
    finally:
        db.close()


@contextlib.contextmanager
def _umask(umask: int) -> Iterator[None]:
    old = os.umask(umask)
    try:
        yield
    finally:
        os.umask(old)


def _made(path: Path, umask: int, **new: int) -> dict[str, int]:
    """The modes of ``path``, its ``-wal`` and ``-shm``, made by ``connect(..., "rwc")``
    under ``umask`` (``new``: its ``new_mode``), then turned to WAL and written."""
    import os
    import stat

    from skillc_index.sqlite import use_wal

    old = os.umask(umask)
    try:
        db = connect(path, mode="rwc", timeout_ms=1000, **new)
        try:
            use_wal(db, 1000)
            with writing(db):
                db.execute("CREATE TABLE t (x)")
            return {p.name: stat.S_IMODE(p.stat().st_mode) for p in path.parent.iterdir()}
        finally:
            db.close()
    finally:
        os.umask(old)


def _mode(path: Path) -> int:
    import stat

    return stat.S_IMODE(path.stat().st_mode)


# 0o022 and 0o077 are controls: SQLite's own 0o644 gives the same under them
@pytest.mark.parametrize("umask", [0o002, 0o022, 0o077])
def test_a_database_made_gets_the_mode_the_umask_gives(tmp_path: Path, umask: int) -> None:
    """SQLite made every database 0o644 whatever the umask: a group sharing a project under
    ``umask 002`` could not write its ``logs.db``. Its ``-wal`` and ``-shm`` take the file's;
    a database there already keeps its mode."""
    path = tmp_path / "logs.db"
    modes = _made(path, umask)
    assert modes == dict.fromkeys(("logs.db", "logs.db-wal", "logs.db-shm"), 0o666 & ~umask)
    path.chmod(0o600)
    connect(path, mode="rwc", timeout_ms=1000).close()
    assert _mode(path) == 0o600


def test_a_database_made_gets_new_mode(tmp_path: Path) -> None:
    """``new_mode`` is the mode a database ``rwc`` creates gets (the find catalog's 0o600),
    its ``-wal`` the file's; one of this user's there already that others may read (an
    earlier version's 0o644, kept so before) is made 0o600 too, and keeps its own else."""
    path = tmp_path / "catalog.db"
    modes = _made(path, 0o022, new_mode=0o600)
    assert modes == dict.fromkeys(("catalog.db", "catalog.db-wal", "catalog.db-shm"), 0o600)
    path.chmod(0o644)
    with _umask(0o022):  # (under 002, 0o644 is brought to 0o664: the test below)
        connect(path, mode="rwc", timeout_ms=1000).close()
    kept = _mode(path)
    connect(path, mode="rwc", timeout_ms=1000, new_mode=0o600).close()
    assert (kept, _mode(path)) == (0o644, 0o600)


# 0o022 is a control: SQLite's 0o644 is what a new one gets there too
@pytest.mark.parametrize("umask", [0o002, 0o022, 0o077])
def test_an_earlier_versions_database_gets_the_mode_a_new_one_gets(
    tmp_path: Path, umask: int
) -> None:
    """A database an earlier version made has SQLite's 0o644 whatever the umask, and kept
    it: under ``umask 002`` a project's old ``logs.db`` stayed unwritable by the group
    sharing it while a new one is 0o664. Opened to write by the user who owns it, it and its
    ``-wal`` and ``-shm`` get the mode a new one gets. Near misses: opened to read, or of a
    mode the user chose (0o640), it keeps its mode."""
    path = tmp_path / "logs.db"
    old = sqlite3.connect(path)  # as SQLite makes it: 0o644, whatever the umask
    try:
        old.execute("PRAGMA journal_mode = WAL")
        old.execute("CREATE TABLE t (x)")
        names = ("logs.db", "logs.db-wal", "logs.db-shm")
        for name in names:
            (tmp_path / name).chmod(0o644)
        with _umask(umask):
            connect(path, mode="ro", timeout_ms=1000).close()
            assert {n: _mode(tmp_path / n) for n in names} == dict.fromkeys(names, 0o644)
            connect(path, mode="rw", timeout_ms=1000).close()
        assert {n: _mode(tmp_path / n) for n in names} == dict.fromkeys(names, 0o666 & ~umask)
    finally:
        old.close()
    chosen = tmp_path / "chosen.db"
    sqlite3.connect(chosen).close()
    chosen.chmod(0o640)
    with _umask(umask):
        connect(chosen, mode="rwc", timeout_ms=1000).close()
    assert _mode(chosen) == 0o640


@pytest.mark.parametrize("linked", ["logs.db-wal", "logs.db-shm", "logs.db"])
@pytest.mark.parametrize("new_mode", [0o666, 0o600], ids=["0666", "0600"])
def test_no_mode_is_changed_through_a_symlink(tmp_path: Path, linked: str, new_mode: int) -> None:
    """``logs.db-wal`` (``-shm``, the database itself) planted as a symlink to a file of the
    user's with SQLite's 0o644 (``~/.bashrc``): opening the log to write under ``umask 002``
    made that file 0o664, group-writable (0o600 for the find catalog's mode). A link is never
    followed to change a mode; the database's own files still get theirs."""
    victim = tmp_path / "bashrc"
    victim.write_text("export PATH=...\n", encoding="utf-8")
    victim.chmod(0o644)
    log = tmp_path / "db" / "logs.db"
    log.parent.mkdir()
    if linked == "logs.db":
        log.symlink_to(victim)
    else:
        sqlite3.connect(log).close()
        log.chmod(0o644)
        (log.parent / linked).symlink_to(victim)
    with _umask(0o002):
        connect(log, mode="rw", timeout_ms=1000, new_mode=new_mode).close()
    assert _mode(victim) == 0o644
    if linked != "logs.db":  # the database's own file is changed all the same
        assert _mode(log) == (0o600 if new_mode == 0o600 else 0o664)


def test_a_command_brings_a_projects_old_log_to_the_groups_mode(
    project: Path,
    clean_env: dict[str, str],
    write_skill: Callable[..., Path],
    script_path: Callable[[str], Path],
) -> None:
    """The installed command, under ``umask 002``: a project's ``logs.db`` an earlier
    version made (0o644, what ``umask 022`` gives it now too) is 0o664 once a command logs
    to it, as a new one is."""
    import subprocess

    write_skill(project / ".skillc" / "skills" / "demo")

    def build(umask: int) -> None:
        done = subprocess.run(
            [str(script_path("skillc-index")), "build", "demo"],
            cwd=project,
            env=clean_env,
            capture_output=True,
            text=True,
            timeout=120,
            umask=umask,
            check=False,
        )
        assert done.returncode == 0, done.stderr

    build(0o022)
    log = project / ".skillc" / "runtime" / "demo" / ".skillc-meta" / "logs.db"
    assert _mode(log) == 0o644
    build(0o002)
    assert _mode(log) == 0o664


def test_a_result_code_is_known_from_sqlites_words_where_python_gives_none(
    tmp_path: Path,
) -> None:
    """Python 3.10's ``sqlite3.Error`` has no ``sqlite_errorcode`` (3.11 added it): there a
    damaged access log went to the fallback unsaid, a damaged lint cache was kept, and a full
    disk was no disk failure (``sync`` said E041/E042 instead of E999). Its message gives the
    code there, as an error without the attributes gives it on any Python."""
    notadb = tmp_path / "logs.db"
    notadb.write_bytes(b"no database" * 1000)
    with pytest.raises(sqlite3.DatabaseError) as raised:
        db = connect(notadb, mode="ro", timeout_ms=0)
        with contextlib.closing(db):
            db.execute("SELECT * FROM sqlite_master").fetchall()
    real = raised.value
    as_on_310 = type(real)(*real.args)
    assert not hasattr(as_on_310, "sqlite_errorcode")
    for exc in (real, as_on_310):
        assert damaged(exc)
        assert result_code(exc) == (26, "SQLITE_NOTADB")
    malformed = sqlite3.DatabaseError('malformed database schema (t) - near "x": syntax error')
    assert damaged(malformed) and damaged(sqlite3.DatabaseError("database disk image is malformed"))
    for words, code, name in (
        ("database or disk is full", 13, "SQLITE_FULL"),
        ("disk I/O error", 10, "SQLITE_IOERR"),
    ):
        exc = sqlite3.OperationalError(words)
        assert result_code(exc) == (code, name)
        assert not damaged(exc)
        reason = disk_failure(exc, tmp_path)
        assert reason is not None and reason.startswith(f"{words} ({name})"), reason
    locked = sqlite3.OperationalError("database is locked")
    assert result_code(locked) is None and disk_failure(locked, tmp_path) is None
    assert result_code(ValueError("disk I/O error")) is None
