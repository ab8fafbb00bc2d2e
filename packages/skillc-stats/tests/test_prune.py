"""Retention (issue 40): ``skc stats prune --before TIME`` deletes old access rows from the
local logs or the team store, keeps the store's rollups, and no later upload sends a row
twice (a real PostgreSQL server: the ``postgres_url`` fixture)."""

from __future__ import annotations

import json
import sqlite3
import subprocess
import threading
import time
from collections.abc import Callable
from contextlib import closing
from pathlib import Path
from typing import Any

import pytest

from skillc_index import Layout, ResolvedSkill
from skillc_index.accesslog import AccessRecord
from skillc_stats import query_stats, upload_logs
from skillc_stats._prune import prune_logs, prune_store
from skillc_stats._team import TeamStore

from .conftest import count_rows, record

Run = Callable[..., subprocess.CompletedProcess[str]]


def days(skill: ResolvedSkill, first: int, last: int) -> list[AccessRecord]:
    """One access a day, January ``first`` to ``last``."""
    show = {"section": "Installation", "file": None, "max_lines": None}
    return [
        record(skill, "show", show, timestamp=f"2026-01-{day:02d}T10:00:00Z")
        for day in range(first, last + 1)
    ]


def stored(url: str) -> tuple[int, int]:
    """Rows in the store, and the accesses its all-time rollup counts."""
    with TeamStore(url, write=False) as store:
        rows = store("SELECT COUNT(*) FROM access_log", [])[0][0]
        counted = store("SELECT SUM(accesses) FROM usage_totals", [])[0][0]
    return int(rows), int(counted or 0)


def test_pruning_the_local_logs_sends_nothing_twice(
    postgres_url: str, demo: ResolvedSkill, layout: Layout, log_rows: Callable[..., Path]
) -> None:
    log = log_rows(*days(demo, 1, 20))
    assert upload_logs(postgres_url, layout).added == 20
    dry = prune_logs(layout, "2026-01-11T00:00:00Z", dry_run=True)
    assert (dry.rows, count_rows(log)) == (10, 20)  # a dry run changes nothing
    assert prune_logs(layout, "2026-01-11T00:00:00Z").rows == 10
    assert count_rows(log) == 10
    log_rows(*days(demo, 21, 25))
    assert upload_logs(postgres_url, layout).added == 5  # the new rows only
    assert stored(postgres_url) == (25, 25)
    assert prune_logs(layout, "2027-01-01T00:00:00Z").rows == 15  # every row
    assert upload_logs(postgres_url, layout).added == 0
    log_rows(*days(demo, 26, 26))
    assert upload_logs(postgres_url, layout).added == 1


def test_pruning_the_store_keeps_its_counts_and_takes_no_row_again(
    postgres_url: str, demo: ResolvedSkill, layout: Layout, log_rows: Callable[..., Path]
) -> None:
    log_rows(*days(demo, 1, 20))
    upload_logs(postgres_url, layout)
    before = query_stats(demo, layout, store=postgres_url)["data"]
    assert prune_store(postgres_url, "2026-01-11T00:00:00Z", dry_run=True).rows == 10
    assert stored(postgres_url) == (20, 20)
    assert prune_store(postgres_url, "2026-01-11T00:00:00Z").rows == 10
    assert stored(postgres_url) == (10, 20)  # the rollups keep every access
    assert query_stats(demo, layout, store=postgres_url)["data"] == before
    whole_days = {"since": "2026-01-02", "until": "2026-01-05T23:59:59Z"}
    assert query_stats(demo, layout, store=postgres_url, **whole_days)["data"]["uses"] == 4
    assert upload_logs(postgres_url, layout).added == 0
    # everything pruned: the last row of the log stays, and tells the next upload where to go on
    assert prune_store(postgres_url, "2027-01-01T00:00:00Z").rows == 9
    assert upload_logs(postgres_url, layout).added == 0
    assert stored(postgres_url) == (1, 20)


def test_no_upload_adds_rows_older_than_the_stores_horizon(
    postgres_url: str,
    demo: ResolvedSkill,
    layout: Layout,
    log_rows: Callable[..., Path],
    demo_skill: Callable[[Path], Path],
    project: Path,
) -> None:
    """A row pruned from the store is never counted again, whatever key it comes back
    under: rows below the horizon are not taken (a log never uploaded keeps its newer ones)."""
    log_rows(*days(demo, 1, 10))
    upload_logs(postgres_url, layout)
    prune_store(postgres_url, "2026-01-06T00:00:00Z")
    demo_skill(project / ".skillc" / "skills" / "other")
    from skillc_index import resolve_skill
    from skillc_index.accesslog import insert, primary_log

    other = resolve_skill("other", layout)
    insert(primary_log(other.runtime), days(other, 1, 10))
    assert upload_logs(postgres_url, layout).added == 5  # January 6 to 10


def test_a_prune_while_a_batch_is_being_stored_leaves_no_older_row(
    postgres_url: str,
    demo: ResolvedSkill,
    layout: Layout,
    log_rows: Callable[..., Path],
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    """A prune run while an upload's batch is inserted and not yet committed (its INSERT read
    the horizon before the prune recorded it, and the prune's DELETE could not see its rows)
    left that batch's older rows in the store: the prune now waits for the batch (the
    horizon's lock), so after it no row older than its horizon is left, and none arrives."""
    from concurrent.futures import ThreadPoolExecutor

    import psycopg

    from skillc_stats import _team

    log_rows(*days(demo, 1, 20))
    TeamStore(postgres_url).close()  # the schema, made before
    inserted, go = threading.Event(), threading.Event()
    insert = _team.TeamStore._insert

    def held(self: TeamStore, *args: Any) -> tuple[int, int]:
        counts = insert(self, *args)
        inserted.set()  # the batch inserted, its transaction not committed yet
        go.wait(60)
        return counts

    monkeypatch.setattr(_team.TeamStore, "_insert", held)
    waiting = (
        "SELECT COUNT(*) FROM pg_stat_activity WHERE datname = current_database() "
        "AND wait_event_type = 'Lock' AND wait_event = 'advisory'"
    )
    with ThreadPoolExecutor(2) as pool, psycopg.connect(postgres_url, autocommit=True) as db:
        upload = pool.submit(upload_logs, postgres_url, layout)
        try:
            assert inserted.wait(60)
            prune = pool.submit(prune_store, postgres_url, "2026-01-11T00:00:00Z")
            for _ in range(600):  # done (it did not wait), or waiting for the batch
                if prune.done() or db.execute(waiting).fetchone() == (1,):
                    break
                time.sleep(0.05)
        finally:
            go.set()
        assert upload.result().added == 20
        assert prune.result().rows == 10  # the batch's rows older than January 11
        older = "SELECT COUNT(*) FROM skillc.access_log WHERE timestamp < '2026-01-11'"
        assert db.execute(older).fetchone() == (0,)
    monkeypatch.undo()
    assert upload_logs(postgres_url, layout).added == 0
    assert stored(postgres_url) == (10, 20)


def test_an_upload_waits_for_a_prune_longer_than_the_lock_timeout(
    postgres_url: str,
    demo: ResolvedSkill,
    layout: Layout,
    log_rows: Callable[..., Path],
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    """A prune holds the horizon's lock alone for as long as its DELETE takes: an upload
    batch waited for it under the writers' lock timeout (60 s) while holding its log's lock,
    and every ``sync --to`` during a longer prune failed E043 "canceling statement due to lock
    timeout". It waits for the prune now (the lock timeout made 1 s here, the prune held 2 s),
    holding no log lock meanwhile, and stores its rows after it, by its horizon."""
    from concurrent.futures import ThreadPoolExecutor

    import psycopg

    from skillc_stats import _team
    from skillc_stats._team_sql import HORIZON_KEY, TAKE_HORIZON

    monkeypatch.setattr(_team, "LOCK_TIMEOUT", "1s")
    log_rows(*days(demo, 1, 20))
    TeamStore(postgres_url).close()
    waiting = (
        "SELECT COUNT(*) FROM pg_locks l JOIN pg_stat_activity a USING (pid) "
        "WHERE a.datname = current_database() AND l.locktype = 'advisory' AND NOT l.granted"
    )
    logs_held = (
        "SELECT COUNT(*) FROM pg_locks l JOIN pg_stat_activity a USING (pid) "
        "WHERE a.datname = current_database() AND l.locktype = 'advisory' AND l.granted "
        "AND l.objsubid = 2"  # a two-key lock: a log's
    )
    with ThreadPoolExecutor(1) as pool, psycopg.connect(postgres_url, autocommit=True) as db:
        with db.transaction():  # a prune, deleting
            db.execute(TAKE_HORIZON, (HORIZON_KEY,))
            upload = pool.submit(upload_logs, postgres_url, layout)
            for _ in range(600):
                if upload.done() or db.execute(waiting).fetchone() == (1,):
                    break
                time.sleep(0.05)
            assert not upload.done(), upload.result()
            assert db.execute(logs_held).fetchone() == (0,)  # no log lock held meanwhile
            time.sleep(2)  # past the lock timeout: the upload still waits
            assert not upload.done(), upload.result()
            db.execute("INSERT INTO skillc.retention VALUES ('2026-01-11T00:00:00Z')")
        assert upload.result().added == 10  # January 11 to 20: the horizon read after
    assert stored(postgres_url) == (10, 10)


def test_a_row_within_the_second_of_the_bound_is_not_older(
    postgres_url: str, demo: ResolvedSkill, layout: Layout, log_rows: Callable[..., Path]
) -> None:
    """``--before 2026-01-02T10:00:00Z`` deleted a row at ``...10:00:00.500Z`` (as text a
    fraction sorts before its whole second), locally and in the store, and the store's
    horizon then refused that row from a later upload; and another tool's row at
    ``09:30:00-02:00`` (11:30 UTC, newer): its age is not told by its text, so it is kept."""
    show = {"section": "Installation", "file": None, "max_lines": None}
    times = ["2026-01-02T09:59:59.900Z", "2026-01-02T10:00:00.500Z", "2026-01-02T10:00:01Z"]
    times.append("2026-01-02T09:30:00-02:00")
    log = log_rows(*(record(demo, "show", show, timestamp=time) for time in times))
    assert upload_logs(postgres_url, layout).added == 4
    assert prune_logs(layout, "2026-01-02T10:00:00Z").rows == 1
    assert count_rows(log) == 3
    assert prune_store(postgres_url, "2026-01-02T10:00:00Z", dry_run=True).rows == 1
    assert prune_store(postgres_url, "2026-01-02T10:00:00Z").rows == 1
    # the horizon does not refuse another tool's offset row by its text either (kept for good)
    log_rows(record(demo, "show", show, timestamp="2026-01-02T09:00:00-02:00"))
    assert upload_logs(postgres_url, layout).added == 1


def test_cli_prune(
    postgres_url: str,
    demo: ResolvedSkill,
    log_rows: Callable[..., Path],
    stats_cli: Run,
    layout: Layout,
) -> None:
    log = log_rows(*days(demo, 1, 4))
    result = stats_cli("stats", "prune", "--before", "2026-01-03", "--dry-run")
    assert result.returncode == 0, result.stderr
    assert result.stdout == "Would prune 2 rows older than 2026-01-03T00:00:00Z from 1 log\n"
    assert count_rows(log) == 4
    result = stats_cli("stats", "prune", "--before", "2026-01-03", "--format", "json")
    answer = json.loads(result.stdout)
    assert (answer["rows"], answer["store"], answer["dry_run"]) == (2, None, False)
    assert count_rows(log) == 2
    upload_logs(postgres_url, layout)
    result = stats_cli("stats", "prune", "--before", "2026-01-04", "--from", postgres_url)
    assert result.returncode == 0, result.stderr
    assert result.stdout.startswith("Pruned 1 row older than 2026-01-04T00:00:00Z from post")
    result = stats_cli("stats", "prune", "--before", "soon")
    assert result.returncode == 1 and result.stderr.startswith("error[E031]")


def test_a_log_not_reconciled_yet_is_skipped_naming_the_program_run(
    demo: ResolvedSkill, log_rows: Callable[..., Path], cli: Callable[..., Run]
) -> None:
    """A log whose rows an earlier version uploaded (``previous_upto``) is left unpruned, and
    the command to run first is the one of the program the user ran: ``skillc-stats sync
    --to`` (it said ``skc sync --to``, a program a skillc-stats user may not have)."""
    log = log_rows(*days(demo, 1, 4))
    with closing(sqlite3.connect(log)) as db:
        db.execute("UPDATE log_identity SET previous_upto = 4")
        db.commit()
    result = cli("skillc-stats", script=True)("stats", "prune", "--before", "2026-01-03")
    assert result.returncode == 0, result.stderr
    assert f"Skipped {log}: rows an earlier version uploaded are not reconciled yet: run " in (
        result.stdout
    )
    assert "run 'skillc-stats sync --to' first" in result.stdout, result.stdout
    assert "'skc " not in result.stdout and count_rows(log) == 4
