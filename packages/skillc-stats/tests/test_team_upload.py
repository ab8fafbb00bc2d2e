"""How uploads store their rows (issue 40, schema version 6): a plain ``INSERT`` of the rows
above the highest one stored, under the log's advisory lock; logs sent through two
connections at once; a version 5 store migrated with every count kept.

Checked against a real PostgreSQL server (``postgres_url``), the rollups against sums made
again from the stored rows (:func:`test_team_rollups.rollups_match_rows`)."""

from __future__ import annotations

import threading
from collections.abc import Callable
from pathlib import Path
from typing import Any

import pytest

from skillc_index import Layout, ResolvedSkill
from skillc_index.accesslog import primary_log
from skillc_stats import _log_keys, _team, _team_workers, upload_logs
from skillc_stats._log_keys import log_key
from skillc_stats._team_sql import (
    MIGRATIONS,
    REBUILD_ROLLUPS,
    REBUILD_ROLLUPS_10,
    SCHEMA_VERSION,
)

from .test_team import numbered, team_count
from .test_team_rollups import imported, rollups_match_rows


def test_one_log_uploaded_twice_at_once_stores_each_row_once(
    postgres_url: str,
    demo: ResolvedSkill,
    layout: Layout,
    log_rows: Callable[..., Path],
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    """Two uploads of the same log, batch against batch: the lock makes them take turns, and
    each sends only what the other has not stored (no duplicate-key failure, no row twice)."""
    log = log_rows(*(row for day in (28, 29, 30, 31) for row in imported(demo, 60, day)))
    monkeypatch.setattr(_team, "BATCH_ROWS", 7)
    key = log_key(log, layout)
    assert key is not None
    _team.TeamStore(postgres_url).close()
    start = threading.Barrier(2)
    added: list[int] = []
    failed: list[BaseException] = []

    def upload() -> None:
        try:
            with _team.TeamStore(postgres_url) as store:
                start.wait()
                added.append(store.upload(log, key, "m1", "alice")[0])
        except BaseException as exc:  # reported by the assertion below
            failed.append(exc)

    threads = [threading.Thread(target=upload) for _ in range(2)]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join()
    assert failed == []
    assert sum(added) == team_count(postgres_url) == 240
    rollups_match_rows(postgres_url)


def test_an_uploader_paused_in_its_copy_holds_no_one_up(
    postgres_url: str,
    demo: ResolvedSkill,
    layout: Layout,
    log_rows: Callable[..., Path],
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    """An upload paused while it streams a batch's COPY (Ctrl-Z, a suspended laptop: the
    server sees a statement waiting for its data, never an idle transaction, and no timeout
    ends it) holds no lock: another upload of the same log stores its rows (it failed with
    E043 "canceling statement due to lock timeout"), and the paused one, resumed, adds none
    of them again."""
    from concurrent.futures import ThreadPoolExecutor

    log_rows(*numbered(demo, 0, 5))
    _team.TeamStore(postgres_url).close()  # the schema, made before the pause
    monkeypatch.setattr(_team, "LOCK_TIMEOUT", "2s")
    copying, resume = threading.Event(), threading.Event()
    stored = _team.stored_row

    def paused(row: Any) -> list[str | None]:
        if not copying.is_set():  # the first row written into the COPY
            copying.set()
            resume.wait(120)
        return stored(row)

    monkeypatch.setattr(_team, "stored_row", paused)
    with ThreadPoolExecutor(1) as pool:
        first = pool.submit(upload_logs, postgres_url, layout, user="alice", machine="m1")
        try:
            assert copying.wait(120)
            assert upload_logs(postgres_url, layout, user="alice", machine="m1").added == 5
        finally:
            resume.set()
        assert first.result().added == 0
    assert team_count(postgres_url) == 5
    rollups_match_rows(postgres_url)


@pytest.mark.parametrize(
    ("where", "lost"),
    [("_lock", False), ("_insert", True)],
    ids=["the-server-says-so", "its-message-lost"],
)
def test_an_uploader_stalled_inside_a_batch_is_told_the_idle_timeout_ended_it(
    where: str,
    lost: bool,
    postgres_url: str,
    demo: ResolvedSkill,
    layout: Layout,
    log_rows: Callable[..., Path],
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    """An uploader stopped inside a batch (Ctrl-Z, a suspended laptop) longer than the
    server lets a transaction sit idle: the server ends the session. Its E043 names that
    timeout, whether the driver reports the server's reason (SQLSTATE 25P03) or, as libpq
    often does when the stopped process resumes (it read the server's message while idle:
    here ``consume_input``), only "server closed the connection unexpectedly", which hid
    the cause; the whole batches before are stored and the next upload sends the rest. A
    connection the server ends for another cause in a short batch gets no such hint."""
    import time

    import psycopg

    from skillc_index import TeamStoreUnavailable

    monkeypatch.setattr(_team, "IDLE_TIMEOUT", "1s")
    monkeypatch.setattr(_team, "BATCH_ROWS", 5)
    log_rows(*numbered(demo, 0, 20))
    step, calls = getattr(_team.TeamStore, where), []

    def stalled(store: _team.TeamStore, *args: Any) -> Any:
        calls.append(where)
        if len(calls) == 2:  # the second batch
            time.sleep(2.5)
            if lost:
                store.db.pgconn.consume_input()
        return step(store, *args)

    monkeypatch.setattr(_team.TeamStore, where, stalled)
    with pytest.raises(TeamStoreUnavailable) as ended:
        upload_logs(postgres_url, layout, user="alice", machine="m1")
    reason = ended.value.reason
    said = "server closed the connection unexpectedly" if lost else "idle-in-transaction timeout"
    assert said in reason and ("its transaction had sat idle " in reason) == lost, reason
    assert reason.endswith(
        "the server ends a session left idle 1s inside a transaction, "
        "idle_in_transaction_session_timeout: this process was stopped or suspended in one; "
        "run the command again, what an upload stored stays)"
    ), reason
    assert team_count(postgres_url) == 5
    monkeypatch.setattr(_team.TeamStore, where, step)
    assert upload_logs(postgres_url, layout, user="alice", machine="m1").added == 15

    def killed(store: _team.TeamStore, *args: Any) -> Any:  # ended at once, by an admin
        with psycopg.connect(postgres_url, autocommit=True) as db:
            db.execute("SELECT pg_terminate_backend(%s)", [store.db.info.backend_pid])
        time.sleep(0.2)
        store.db.pgconn.consume_input()  # (its message lost too)
        return step(store, *args)

    log_rows(*numbered(demo, 20, 5))
    monkeypatch.setattr(_team.TeamStore, where, killed)
    with pytest.raises(TeamStoreUnavailable) as other:
        upload_logs(postgres_url, layout, user="alice", machine="m1")
    assert "idle" not in other.value.reason, other.value.reason


def test_a_long_batch_never_idle_is_not_blamed_on_the_idle_timeout(
    postgres_url: str,
    demo: ResolvedSkill,
    layout: Layout,
    log_rows: Callable[..., Path],
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    """A connection that breaks in a batch open longer than the idle timeout but never idle
    in it (a slow ``COPY``: the server sees a statement running; then a network drop, a
    server restart, here an admin) gets no idle-timeout hint: the time counted is the
    session's idle time since its last statement finished, not the batch's age (every such
    failure said "this process was stopped or suspended"). Nor does a failure after a
    batch that raised (an unreadable log, the next log's first statement failing): its
    clock stopped with it."""
    import sqlite3
    import time

    import psycopg

    from skillc_index import TeamStoreUnavailable

    monkeypatch.setattr(_team, "IDLE_TIMEOUT", "1s")
    monkeypatch.setattr(_team, "BATCH_ROWS", 5)
    log_rows(*numbered(demo, 0, 20))
    stored, rows = _team.stored_row, []

    def terminate(store: _team.TeamStore) -> None:
        with psycopg.connect(postgres_url, autocommit=True) as db:
            db.execute("SELECT pg_terminate_backend(%s)", [store.db.info.backend_pid])
        time.sleep(0.2)
        store.db.pgconn.consume_input()  # (its message lost)

    def slow(row: Any) -> list[str | None]:
        rows.append(row)
        if len(rows) == 6:  # the second batch's first row: its COPY runs 2.5 s, then killed
            time.sleep(2.5)
            terminate(current[0])
        return stored(row)

    current: list[_team.TeamStore] = []
    copy = _team.TeamStore._copy

    def copying(store: _team.TeamStore, batch: list[Any]) -> None:
        current[:] = [store]
        copy(store, batch)

    monkeypatch.setattr(_team.TeamStore, "_copy", copying)
    monkeypatch.setattr(_team, "stored_row", slow)
    with pytest.raises(TeamStoreUnavailable) as ended:
        upload_logs(postgres_url, layout, user="alice", machine="m1")
    reason = ended.value.reason
    assert "connection" in reason and "idle" not in reason, reason
    assert team_count(postgres_url) == 5
    monkeypatch.setattr(_team, "stored_row", stored)

    log_rows(*numbered(demo, 20, 5), to=primary_log(other_runtime(layout, demo) / "demo"))
    monkeypatch.setattr(_team, "UPLOAD_CONNECTIONS", 1)
    inserts: list[int] = []

    def unreadable(store: _team.TeamStore, *args: Any) -> Any:
        inserts.append(1)  # the first log's batch fails on its local log
        raise sqlite3.DatabaseError("database disk image is malformed")

    def killed_outside(store: _team.TeamStore, key: str) -> Any:
        if inserts:  # the next log's first statement, outside any batch, 1.5 s later
            time.sleep(1.5)
            terminate(store)
        return last(store, key)

    last = _team.TeamStore._last
    monkeypatch.setattr(_team.TeamStore, "_insert", unreadable)
    monkeypatch.setattr(_team.TeamStore, "_last", killed_outside)
    with pytest.raises(TeamStoreUnavailable) as outside:
        upload_logs(postgres_url, layout, user="alice", machine="m1")
    assert inserts == [1] and "idle" not in outside.value.reason, outside.value.reason


def test_logs_go_up_through_two_connections(
    postgres_url: str,
    demo: ResolvedSkill,
    layout: Layout,
    log_rows: Callable[..., Path],
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    """Two logs of one skill (the project's runtime and the global one) sent at once: their
    rows meet in the rollups' keys, each counted once; the report keeps the logs' order."""
    monkeypatch.setattr(_team, "BATCH_ROWS", 5)
    global_store = other_runtime(layout, demo)
    first = log_rows(*imported(demo, 48, 30), *numbered(demo, 0, 30))
    second = log_rows(
        *imported(demo, 48, 30), *numbered(demo, 0, 30), to=primary_log(global_store / "demo")
    )
    report = upload_logs(postgres_url, layout, user="alice", machine="m1")
    assert [(Path(entry.path), entry.added) for entry in report.logs] == _team_order(
        layout, {first: 78, second: 78}
    )
    assert team_count(postgres_url) == 156
    rollups_match_rows(postgres_url)
    assert upload_logs(postgres_url, layout, user="alice", machine="m1").added == 0


def test_two_copies_of_one_log_in_one_upload_lose_no_row(
    postgres_url: str,
    demo: ResolvedSkill,
    layout: Layout,
    log_rows: Callable[..., Path],
    monkeypatch: pytest.MonkeyPatch,
    tmp_path: Path,
) -> None:
    """A log copied with its identity into the other runtime store, both logging on: one
    upload sends them one after the other (not at once through two connections, where both
    would start from an empty key and the second's own rows be skipped), so the second is
    told apart and sends the rows the first did not."""
    from .test_team import snapshot

    monkeypatch.setattr(_team, "BATCH_ROWS", 20)
    global_store = other_runtime(layout, demo)
    first = log_rows(*numbered(demo, 0, 5))
    second = snapshot(first, primary_log(global_store / "demo"))
    log_rows(*numbered(demo, 5, 300))
    log_rows(*numbered(demo, 5, 300, run="run-2"), to=second)
    report = upload_logs(postgres_url, layout, user="alice", machine="m1")
    assert report.ok and report.added == team_count(postgres_url) == 605
    assert sorted(entry.renewed for entry in report.logs) == [False, True]
    rollups_match_rows(postgres_url)


def test_a_batch_ends_at_its_rows_or_their_text_whichever_comes_first(
    postgres_url: str,
    demo: ResolvedSkill,
    layout: Layout,
    log_rows: Callable[..., Path],
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    """A batch was ``BATCH_ROWS`` rows however large each one (251 rows of 1 MB ``args``, a
    log another tool wrote, took 291 MB): it also ends once its rows' text reaches
    ``BATCH_CHARS``, and rows of the usual size still go ``BATCH_ROWS`` at a time."""
    from .conftest import record

    monkeypatch.setattr(_team, "BATCH_ROWS", 20)
    monkeypatch.setattr(_team, "BATCH_CHARS", 10_000)
    large = [record(demo, "search", {"query": "q" * 4_000}, run_id=f"r{n}") for n in range(9)]
    log_rows(*large, *numbered(demo, 0, 40))
    sizes: list[int] = []
    copy = _team.TeamStore._copy

    def spy(store: _team.TeamStore, batch: list[Any]) -> None:
        sizes.append(len(batch))
        copy(store, batch)

    monkeypatch.setattr(_team.TeamStore, "_copy", spy)
    assert upload_logs(postgres_url, layout, user="alice", machine="m1").added == 49
    assert sizes == [3, 3, 3, 20, 20]  # 3 rows of 4,000 characters reach 10,000
    assert team_count(postgres_url) == 49
    rollups_match_rows(postgres_url)


def test_a_role_allowed_one_connection_uploads_one_log_at_a_time(
    postgres_url: str, demo: ResolvedSkill, layout: Layout, log_rows: Callable[..., Path]
) -> None:
    """A second connection refused (the role's CONNECTION LIMIT 1) is no failure: the logs
    go up one at a time through the first."""
    import os

    import psycopg

    role = f"one_{os.getpid()}"
    database = postgres_url.split("@/", 1)[1].split("?", 1)[0]
    with psycopg.connect(postgres_url, autocommit=True) as db:
        db.execute(f"CREATE ROLE {role} LOGIN CONNECTION LIMIT 1")
        db.execute(f"ALTER DATABASE {database} OWNER TO {role}")
    url = postgres_url.replace("skillc@", f"{role}@", 1)
    global_store = other_runtime(layout, demo)
    log_rows(*numbered(demo, 0, 10))
    log_rows(*numbered(demo, 0, 12), to=primary_log(global_store / "demo"))
    report = upload_logs(url, layout, user="alice", machine="m1")
    assert report.ok and report.added == 22
    assert team_count(postgres_url) == 22


def test_a_ctrl_c_during_an_upload_through_two_connections_takes_no_more_logs(
    postgres_url: str,
    demo: ResolvedSkill,
    layout: Layout,
    log_rows: Callable[..., Path],
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    """A Ctrl-C while two threads upload (the main thread waits for them): each thread ends
    the log it is sending and takes no other (they went on to the last log before exit 130);
    no row is stored twice, and the next upload sends the rest."""
    import signal
    import time

    for n in range(6):  # six logs, six keys
        log_rows(*numbered(demo, 0, 3 + n), to=primary_log(demo.runtime.parent / f"s{n}"))
    interrupted, both, sent = threading.Event(), threading.Barrier(2, timeout=60), []
    upload_one = _team_workers._upload_one

    def ctrl_c(*args: Any) -> None:
        interrupted.set()
        raise KeyboardInterrupt

    def first_interrupted(*args: Any) -> Any:
        sent.append(args[1])
        if len(sent) <= 2:  # each thread's first log: a Ctrl-C once both are sending
            if both.wait() == 0:
                time.sleep(0.3)  # the main thread waits for the threads
                signal.pthread_kill(threading.main_thread().ident or 0, signal.SIGINT)
            assert interrupted.wait(60)
            time.sleep(0.3)  # the main thread runs its `finally`
        return upload_one(*args)

    monkeypatch.setattr(_team_workers, "_upload_one", first_interrupted)
    previous = signal.signal(signal.SIGINT, ctrl_c)
    try:
        with pytest.raises(KeyboardInterrupt):
            upload_logs(postgres_url, layout, user="alice", machine="m1")
    finally:
        signal.signal(signal.SIGINT, previous)
    assert len(sent) == 2  # the log each thread was sending, no other
    stored = team_count(postgres_url)
    monkeypatch.setattr(_team_workers, "_upload_one", upload_one)
    report = upload_logs(postgres_url, layout, user="alice", machine="m1")
    assert report.added == team_count(postgres_url) - stored
    assert team_count(postgres_url) == sum(3 + n for n in range(6))
    rollups_match_rows(postgres_url)


def _ctrl_c_in_the_first_batches(
    postgres_url: str,
    demo: ResolvedSkill,
    layout: Layout,
    log_rows: Callable[..., Path],
    monkeypatch: pytest.MonkeyPatch,
    *,
    twice: bool = False,
) -> tuple[list[int], _team.UploadReport]:
    """Two logs of ``demo`` (50 and 40 rows, batches of 5) uploaded through two connections,
    and a real SIGINT to the main thread once both workers are storing their first batch
    (with ``twice``, a second one while it joins them); the workers go on after it. Returns
    the sizes of the batches copied and the report of the
    :class:`~skillc_stats._team.UploadInterrupted` raised, the real copy put back; the
    upload has put back the SIGINT handler it found."""
    import signal
    import time

    monkeypatch.setattr(_team, "BATCH_ROWS", 5)
    log_rows(*numbered(demo, 0, 50))
    log_rows(*numbered(demo, 0, 40), to=primary_log(other_runtime(layout, demo) / "demo"))
    interrupted, signalled = threading.Event(), threading.Event()
    both, copies = threading.Barrier(2, timeout=60), []
    copy = _team.TeamStore._copy

    def ctrl_c(*args: Any) -> None:
        interrupted.set()
        raise KeyboardInterrupt

    def first_interrupted(store: _team.TeamStore, batch: list[Any]) -> None:
        copies.append(len(batch))
        if len(copies) <= 2:  # each worker's first batch: a Ctrl-C once both are storing
            if both.wait() == 0:
                main = threading.main_thread().ident or 0
                time.sleep(0.3)  # the main thread waits for the workers
                signal.pthread_kill(main, signal.SIGINT)
                assert interrupted.wait(60)
                time.sleep(0.3)  # the main thread tells the workers to end and joins them
                if twice:
                    signal.pthread_kill(main, signal.SIGINT)
                    time.sleep(0.5)  # (the main thread went on: counted, closed and saved)
                signalled.set()
            assert signalled.wait(60)
        copy(store, batch)

    monkeypatch.setattr(_team.TeamStore, "_copy", first_interrupted)
    previous = signal.signal(signal.SIGINT, ctrl_c)
    try:
        with pytest.raises(_team.UploadInterrupted) as stopped:
            upload_logs(postgres_url, layout, user="alice", machine="m1")
        handler = signal.getsignal(signal.SIGINT)
    finally:
        signal.signal(signal.SIGINT, previous)
    assert handler is ctrl_c
    monkeypatch.setattr(_team.TeamStore, "_copy", copy)
    return copies, stopped.value.report


def test_a_ctrl_c_ends_each_connection_after_its_batch_and_says_what_is_stored(
    postgres_url: str,
    demo: ResolvedSkill,
    layout: Layout,
    log_rows: Callable[..., Path],
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    """A Ctrl-C while two threads each store a batch of a long log: each ends after that
    batch (each went on to the end of its log, a 500k-row log minutes later) and the upload
    raises :class:`~skillc_stats._team.UploadInterrupted`, whose report holds the rows
    stored by then (the count, marked interrupted, and the warning saying so); the next
    upload sends the rest."""
    copies, report = _ctrl_c_in_the_first_batches(postgres_url, demo, layout, log_rows, monkeypatch)
    assert copies == [5, 5]  # the batch each thread was storing, no other
    assert report.interrupted and report.added == team_count(postgres_url) == 10
    assert report.to_dict()["interrupted"] and report.to_dict()["added"] == 10
    assert sorted(log.added for log in report.logs) == [5, 5]
    assert [notice.text for notice in report.warnings] == [
        f"interrupted: 10 entries stored in {report.store}; the next 'skc sync --to' sends the rest"
    ]
    again = upload_logs(postgres_url, layout, user="alice", machine="m1")
    assert not again.interrupted and again.added == 80
    assert team_count(postgres_url) == 90
    rollups_match_rows(postgres_url)


def test_a_second_ctrl_c_while_the_workers_end_their_batch_is_deferred(
    postgres_url: str,
    demo: ResolvedSkill,
    layout: Layout,
    log_rows: Callable[..., Path],
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    """A second Ctrl-C while the upload waits for its two workers to store their batch: the
    wait goes on (the second KeyboardInterrupt came out of the thread pool's exit while the
    workers still stored: the upload counted 0 entries stored, closed a connection a worker
    used and saved its claims while they changed), and the count reported is the rows the
    store holds, both batches committed after it."""
    copies, report = _ctrl_c_in_the_first_batches(
        postgres_url, demo, layout, log_rows, monkeypatch, twice=True
    )
    assert copies == [5, 5]
    assert report.ok and sorted(log.added for log in report.logs) == [5, 5]
    assert report.added == team_count(postgres_url) == 10
    assert upload_logs(postgres_url, layout, user="alice", machine="m1").added == 80
    rollups_match_rows(postgres_url)


def test_a_second_ctrl_c_cancels_a_batch_that_waits(
    postgres_url: str,
    demo: ResolvedSkill,
    layout: Layout,
    log_rows: Callable[..., Path],
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    """A batch waiting on the server (here for the retention horizon's lock, which a prune
    holds and a batch waits for without a timeout): the first Ctrl-C ends the upload after
    it, the second cancels it (rolled back, not counted); the batches before stay stored and
    counted, and the next upload sends the rest."""
    import signal
    import time

    import psycopg

    from skillc_stats._team_sql import HORIZON_KEY

    monkeypatch.setattr(_team, "BATCH_ROWS", 5)
    log_rows(*numbered(demo, 0, 20))
    interrupted, finished, copies = threading.Event(), threading.Event(), []
    copy = _team.TeamStore._copy
    pruning = psycopg.connect(postgres_url, autocommit=True)

    def ctrl_c(*args: Any) -> None:
        interrupted.set()
        raise KeyboardInterrupt

    def twice() -> None:
        main = threading.main_thread().ident or 0
        time.sleep(0.5)  # the batch waits for the lock
        signal.pthread_kill(main, signal.SIGINT)
        assert interrupted.wait(60)
        time.sleep(0.5)  # the main thread joins the worker, which still waits
        signal.pthread_kill(main, signal.SIGINT)
        if not finished.wait(20):  # (not cancelled: the lock freed at last, the batch stored)
            pruning.execute("SELECT pg_advisory_unlock_all()")

    def waiting(store: _team.TeamStore, batch: list[Any]) -> None:
        copies.append(len(batch))
        if len(copies) == 2:  # the second batch: a prune holds the horizon's lock
            pruning.execute("SELECT pg_advisory_lock(%s)", [HORIZON_KEY])
            threading.Thread(target=twice, daemon=True).start()
        copy(store, batch)

    monkeypatch.setattr(_team.TeamStore, "_copy", waiting)
    previous = signal.signal(signal.SIGINT, ctrl_c)
    try:
        with pytest.raises(_team.UploadInterrupted) as stopped:
            upload_logs(postgres_url, layout, user="alice", machine="m1")
    finally:
        finished.set()
        signal.signal(signal.SIGINT, previous)
        pruning.execute("SELECT pg_advisory_unlock_all()")
    assert stopped.value.report.added == team_count(postgres_url) == 5
    pruning.close()
    monkeypatch.setattr(_team.TeamStore, "_copy", copy)
    assert upload_logs(postgres_url, layout, user="alice", machine="m1").added == 15
    rollups_match_rows(postgres_url)


def test_a_ctrl_c_of_sync_to_says_what_was_stored_and_exits_130(
    postgres_url: str,
    demo: ResolvedSkill,
    layout: Layout,
    log_rows: Callable[..., Path],
    fill_access_log: Callable[[Path], Path],
    clean_env: dict[str, str],
    project: Path,
) -> None:
    """A real SIGINT to ``skillc-stats sync --to`` once a batch of a 100k-row log is stored:
    exit 130 and, on stderr, the one line saying how many entries were stored (it exited
    saying nothing), the same count the store holds; no "Uploaded" line. In JSON, the upload
    marked ``interrupted`` with that count. The next upload sends the rest."""
    import json
    import signal
    import subprocess
    import sys
    import time

    fill_access_log(log_rows(*numbered(demo, 0, 1)))
    _team.TeamStore(postgres_url).close()  # (the schema made: its rows counted from the start)

    def interrupted(*extra: str) -> tuple[subprocess.CompletedProcess[str], int]:
        before = team_count(postgres_url) if extra else 0
        command = [sys.executable, "-m", "skillc_stats", "sync", "--to", postgres_url, *extra]
        process = subprocess.Popen(
            command, cwd=project, env=clean_env, text=True,
            stdout=subprocess.PIPE, stderr=subprocess.PIPE,
        )  # fmt: skip
        deadline = time.monotonic() + 120
        while team_count(postgres_url) == before and time.monotonic() < deadline:
            assert process.poll() is None, process.communicate()
            time.sleep(0.02)
        process.send_signal(signal.SIGINT)
        out, err = process.communicate(timeout=120)
        done = subprocess.CompletedProcess(command, process.returncode, out, err)
        return done, team_count(postgres_url)

    result, stored = interrupted()
    assert result.returncode == 130, result
    assert 0 < stored < 100_000 and "Uploaded" not in result.stdout
    assert result.stderr.splitlines()[-1] == (
        f"warning: interrupted: {stored:,} entries stored in {_team.masked(postgres_url)}; "
        "the next 'skillc-stats sync --to' sends the rest"  # (the program run)
    ), result.stderr
    result, total = interrupted("--format", "json")
    assert result.returncode == 130, result
    answer = json.loads(result.stdout)
    assert answer["interrupted"] and answer["added"] == total - stored > 0
    assert "interrupted: " in result.stderr
    rest = upload_logs(postgres_url, layout, user=_team.current_user(), machine="m1")
    assert not rest.interrupted and team_count(postgres_url) == 100_000


def other_runtime(layout: Layout, demo: ResolvedSkill) -> Path:
    """The runtime store other than ``demo``'s (the global one): a second log of the skill."""
    return next(
        layout.runtime_store(scope)
        for scope in layout.scopes()
        if layout.runtime_store(scope) != demo.runtime.parent
    )


def _team_order(layout: Layout, added: dict[Path, int]) -> list[tuple[Path, int]]:
    return [(path, added[path]) for path in _log_keys.local_logs(layout)]


def _old_store(postgres_server: Any, layout: Layout, version: int) -> tuple[str, str]:
    """A store made by this version's upload (``fresh``), and one holding the same rows
    written into a store of schema ``version`` with its rollups made as that version's
    uploads kept them (``old``)."""
    import psycopg

    fresh, old = postgres_server.database(), postgres_server.database()
    upload_logs(fresh, layout, user="alice", machine="m1")
    columns = (
        "log_key, source_id, machine, username, timestamp, run_id, command, skill, skill_path, "
        "cwd, args, error, call_id"
    )
    with psycopg.connect(fresh) as source, psycopg.connect(old, autocommit=True) as db:
        rows = source.execute(f"SELECT {columns} FROM skillc.access_log").fetchall()  # type: ignore[arg-type]
        db.execute("CREATE SCHEMA skillc")
        db.execute("SET search_path TO skillc")
        for steps in MIGRATIONS[:version]:
            with db.transaction():  # as a writer migrates (10's temporary table lasts one)
                for statement in steps:
                    db.execute(statement)  # type: ignore[arg-type]
        db.execute("CREATE TABLE schema_version (version INTEGER NOT NULL)")
        db.execute("INSERT INTO schema_version VALUES (%s)", (version,))
        with db.cursor() as cursor:
            cursor.executemany(
                f"INSERT INTO access_log ({columns}) VALUES ({', '.join(['%s'] * 13)})",  # type: ignore[arg-type]
                rows,
            )
        tables = {row[0] for row in db.execute("SELECT tablename FROM pg_tables").fetchall()}
        rebuild = REBUILD_ROLLUPS if version >= 11 else REBUILD_ROLLUPS_10
        for statement in rebuild:  # the rollups that version has
            words = statement.split()
            if words[2 if words[0] == "INSERT" else 1] in tables:
                db.execute(statement)  # type: ignore[arg-type]
        if "usage_monthly" in tables:  # versions 5 and 6: made from usage_daily
            db.execute(MIGRATIONS[4][2])  # type: ignore[arg-type]
    return fresh, old


def test_a_version_5_store_is_migrated_with_every_count_kept(
    postgres_server: Any, demo: ResolvedSkill, layout: Layout, log_rows: Callable[..., Path]
) -> None:
    """A store of version 5 (rows keyed by ``id``, rollups made by its uploads) migrates to
    version 6 and on: every row and every rollup sum as before, nothing sent again, and the
    next upload (without ON CONFLICT, under the log's lock) adds its rows once."""
    import psycopg

    log_rows(*imported(demo, 40, 29), *imported(demo, 40, 30), *numbered(demo, 0, 20))
    _, old = _old_store(postgres_server, layout, 5)
    with psycopg.connect(old, autocommit=True) as db:
        db.execute("SET search_path TO skillc")
        before = _counts(db)
        assert db.execute("SELECT to_regclass('access_log_pkey')").fetchone() != (None,)
    _team.TeamStore(old).close()  # a writer migrates
    with psycopg.connect(old, autocommit=True) as db:
        db.execute("SET search_path TO skillc")
        assert _counts(db) == before
        assert db.execute("SELECT MAX(version) FROM schema_version").fetchone() == (SCHEMA_VERSION,)
        assert db.execute("SELECT to_regclass('access_log_pkey')").fetchone() == (None,)
    rollups_match_rows(old)
    assert upload_logs(old, layout, user="alice", machine="m1").added == 0
    log_rows(*numbered(demo, 20, 15))
    assert upload_logs(old, layout, user="alice", machine="m1").added == 15
    assert team_count(old) == 115
    rollups_match_rows(old)


def _migrated(
    postgres_server: Any,
    demo: ResolvedSkill,
    layout: Layout,
    log_rows: Callable[..., Path],
    version: int,
    new: str,
) -> tuple[str, str, list[Any]]:
    """:func:`_old_store` of ``version`` over rows of three days in January, without the
    table ``new``, migrated by a writer to this version with every count kept: the fresh and
    the migrated store, and the counts (:func:`_counts`)."""
    import psycopg

    rows = [*imported(demo, 30, 3), *imported(demo, 30, 12), *imported(demo, 30, 29)]
    log_rows(*rows, *numbered(demo, 0, 20))
    fresh, old = _old_store(postgres_server, layout, version)
    with psycopg.connect(old, autocommit=True) as db:
        db.execute("SET search_path TO skillc")
        before = _counts(db)
        assert db.execute("SELECT to_regclass(%s)", (new,)).fetchone() == (None,)
    _team.TeamStore(old).close()  # a writer migrates
    with psycopg.connect(old, autocommit=True) as db:
        db.execute("SET search_path TO skillc")
        assert _counts(db) == before
        assert db.execute("SELECT MAX(version) FROM schema_version").fetchone() == (SCHEMA_VERSION,)
    return fresh, old, before


def test_a_version_6_store_gains_the_rollups_by_month_and_week(
    postgres_server: Any, demo: ResolvedSkill, layout: Layout, log_rows: Callable[..., Path]
) -> None:
    """A store of version 6 migrates to version 7: ``usage_monthly`` (by command) gives way
    to ``usage_months``, ``usage_weeks`` and ``usage_folders`` (by folder, commands folded
    into uses and author runs), made from ``usage_daily``; every count kept, ``--all``
    (all time and over time ranges) answers as a store made by this version, and the next
    upload adds its rows once, to each rollup."""
    import psycopg

    from skillc_stats import query_all

    fresh, old, before = _migrated(postgres_server, demo, layout, log_rows, 6, "usage_months")
    with psycopg.connect(old, autocommit=True) as db:
        db.execute("SET search_path TO skillc")
        assert db.execute("SELECT to_regclass('usage_monthly')").fetchone() == (None,)
        options = "SELECT reloptions FROM pg_class WHERE oid = 'access_log_time'::regclass"
        assert db.execute(options).fetchone() == (["autosummarize=on"],)
        for table in ("usage_months", "usage_weeks", "usage_folders"):
            sums = db.execute(f"SELECT SUM(accesses), SUM(uses) FROM {table}").fetchone()
            assert sums == (before[0], before[0]), table  # every row a use here
    rollups_match_rows(old)
    for since, until in (
        (None, None),
        ("2026-01-02T06:00:00Z", "2026-01-30T18:00:00Z"),
        ("2026-01-08", "2026-01-21T23:59:59Z"),
        ("2026-01-12T09:00:00Z", None),
    ):
        mine = query_all(layout, store=old, since=since, until=until)
        assert mine == query_all(layout, store=fresh, since=since, until=until)
        assert mine["data"][0]["uses"] > 0
    assert upload_logs(old, layout, user="alice", machine="m1").added == 0
    log_rows(*numbered(demo, 20, 15))
    assert upload_logs(old, layout, user="alice", machine="m1").added == 15
    rollups_match_rows(old)


def test_a_version_7_store_gains_the_rollup_of_the_trends(
    postgres_server: Any, demo: ResolvedSkill, layout: Layout, log_rows: Callable[..., Path]
) -> None:
    """A store of version 7 migrates to version 8: ``usage_skill_days`` (by day, skill and
    command), made from ``usage_daily``, counts every row once; ``--all --by`` answers as a
    store made by this version, and the next upload adds its rows once, to each rollup."""
    import psycopg

    from skillc_stats import query_all

    fresh, old, before = _migrated(postgres_server, demo, layout, log_rows, 7, "usage_skill_days")
    with psycopg.connect(old, autocommit=True) as db:
        db.execute("SET search_path TO skillc")
        sums = db.execute("SELECT SUM(accesses) FROM usage_skill_days").fetchone()
        assert sums == (before[0],)
    rollups_match_rows(old)
    for by in ("day", "week", "month"):
        for since, until in ((None, None), ("2026-01-02T06:00:00Z", "2026-01-29T18:00:00Z")):
            mine = query_all(layout, store=old, since=since, until=until, by=by)
            assert mine == query_all(layout, store=fresh, since=since, until=until, by=by)
            assert mine["data"]["periods"], (by, since)
    assert upload_logs(old, layout, user="alice", machine="m1").added == 0
    log_rows(*numbered(demo, 20, 15))
    assert upload_logs(old, layout, user="alice", machine="m1").added == 15
    rollups_match_rows(old)


def _counts(db: Any) -> list[Any]:
    """The rows, and the sum of every rollup all versions since 4 have."""
    tables = ("access_log", "usage_daily", "usage_skills", "usage_targets", "usage_totals")
    return [
        db.execute(f"SELECT COUNT(*) FROM {tables[0]}").fetchone()[0],
        *(db.execute(f"SELECT SUM(accesses) FROM {table}").fetchone()[0] for table in tables[1:]),
    ]


def test_a_nul_in_a_local_value_is_stored_as_a_replacement_character(
    postgres_url: str, demo: ResolvedSkill, layout: Layout, log_rows: Callable[..., Path]
) -> None:
    """PostgreSQL text holds no NUL: a row of a log written by another tool with one is
    stored with U+FFFD in its place; a row holding the text ``\\x00`` is stored as it is."""
    import sqlite3
    from contextlib import closing

    from skillc_index.accesslog import INSERT_ROW

    log = log_rows(*numbered(demo, 0, 2))
    with closing(sqlite3.connect(log)) as db:
        for error in ("bad\0thing", "text \\x00 as written"):
            stamp = "2026-01-30T11:00:00Z"
            row = (stamp, "run-9", "show", "demo", str(demo.source), "/w", "{}", error)
            db.execute(INSERT_ROW, row)
        db.commit()
    assert upload_logs(postgres_url, layout, user="alice", machine="m1").added == 4
    with _team.TeamStore(postgres_url, write=False) as store:
        errors = store("SELECT error FROM access_log WHERE error IS NOT NULL ORDER BY 1", [])
    assert errors == [("bad\ufffdthing",), ("text \\x00 as written",)]


def test_args_with_a_nul_are_skipped_by_the_store_as_by_the_local_log(
    postgres_url: str, demo: ResolvedSkill, layout: Layout, log_rows: Callable[..., Path]
) -> None:
    """A NUL in a row's ``args`` (JSON holds none: another tool's row) is stored as U+0001,
    which JSON holds no more than a NUL: the store's answers skip the row as the local log's
    do (counted as an access, read for nothing else). As U+FFFD, its section was counted."""
    import sqlite3
    from contextlib import closing

    from skillc_index.accesslog import INSERT_ROW
    from skillc_stats import query_stats

    log = log_rows(*numbered(demo, 0, 2))
    with closing(sqlite3.connect(log)) as db:
        args = '{"section": "a\0b", "file": null, "max_lines": null}'
        row = ("2026-01-30T11:00:00Z", "run-9", "show", "demo", str(demo.source), "/w", args, None)
        db.execute(INSERT_ROW, row)
        db.commit()
    upload_logs(postgres_url, layout, user="alice", machine="m1")
    local = query_stats(demo, layout, group_by="sections")
    assert query_stats(demo, layout, group_by="sections", store=postgres_url) == local
    assert [entry["section"] for entry in local["data"]] == ["S0", "S1"]  # not "a\ufffdb"
    assert upload_logs(postgres_url, layout, user="alice", machine="m1").added == 0


def test_text_that_is_not_utf8_is_uploaded_as_the_local_log_reads_it(
    postgres_url: str, demo: ResolvedSkill, layout: Layout, log_rows: Callable[..., Path]
) -> None:
    """A row of a log another tool (or a checkout) wrote whose text is not UTF-8 is uploaded
    as every local reader reads it, and so are the rows after it: its working folder with
    U+FFFD for the bad byte, its ``args`` with U+0001 (not JSON: skipped by the store's answers
    as by the local log's). The upload stopped at that row with E999, on every run."""
    import sqlite3
    from contextlib import closing

    from skillc_index import json_text
    from skillc_stats import QUERY_TYPES, query_stats

    from .conftest import NOT_UTF8

    log = log_rows(*numbered(demo, 0, 2))
    with closing(sqlite3.connect(log)) as db:
        db.execute(NOT_UTF8, (str(demo.source),))
        db.commit()
    log_rows(*numbered(demo, 2, 2))  # rows after it
    report = upload_logs(postgres_url, layout, user="alice", machine="m1")
    assert report.ok and report.added == 5
    with _team.TeamStore(postgres_url, write=False) as store:
        stored = store("SELECT cwd, args FROM access_log WHERE run_id = 'run-9'", [])
    assert stored == [("/x\ufffd", '{"section": "\x01"}')]
    for group_by in QUERY_TYPES:
        local = query_stats(demo, layout, group_by=group_by)
        team = query_stats(demo, layout, group_by=group_by, store=postgres_url)
        assert json_text(team) == json_text(local), group_by  # as --format json prints them
    summary = query_stats(demo, layout, store=postgres_url)["data"]
    sections = query_stats(demo, layout, group_by="sections", store=postgres_url)["data"]
    assert summary["total_accesses"] == 5  # the row counted, its args read for nothing
    assert sorted(entry["section"] for entry in sections) == ["S0", "S1", "S2", "S3"]
    assert upload_logs(postgres_url, layout, user="alice", machine="m1").added == 0
    rollups_match_rows(postgres_url)


def test_a_login_name_that_is_not_utf8_uploads_as_other_text(
    postgres_url: str,
    demo: ResolvedSkill,
    log_rows: Callable[..., Path],
    cli: Callable[..., Callable[..., Any]],
) -> None:
    """A login name (``$USER``, ``$LOGNAME``) holding a byte that is not UTF-8 is stored with
    U+FFFD for it, as any other text: every ``skc sync --to`` failed E999 (UnicodeEncodeError)."""
    log_rows(*numbered(demo, 0, 3))
    stats = cli("skillc-stats", script=True)
    bad = b"bad\xffuser".decode("utf-8", "surrogateescape")  # as the environment reads it
    synced = stats("sync", "--to", postgres_url, env_extra={"USER": bad, "LOGNAME": bad})
    assert synced.returncode == 0, synced.stderr
    assert synced.stderr == "" and "Uploaded 3 entries" in synced.stdout
    with _team.TeamStore(postgres_url, write=False) as store:
        assert store("SELECT DISTINCT username FROM access_log", []) == [("bad\ufffduser",)]
