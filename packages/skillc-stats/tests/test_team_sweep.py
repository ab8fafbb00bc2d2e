"""The team store against unlucky and hostile input (an adversarial sweep), on a real
PostgreSQL server (``postgres_url``): each row stored once whatever a log went through, a row
that cannot block the uploads or the reports of everyone, a stalled uploader that cannot hang
the others, no password printed."""

from __future__ import annotations

import json
import os
import random
import signal
import sqlite3
import subprocess
import sys
import threading
import time
from collections.abc import Callable
from contextlib import closing, suppress
from pathlib import Path
from typing import Any

import pytest

from skillc_index import Layout, ResolvedSkill
from skillc_index.accesslog import INSERT_ROW, open_log, primary_log, read_identity
from skillc_stats import _team, query_all, upload_logs
from skillc_stats._team import TeamStore

from .test_team import legacy_log, numbered, put, snapshot, team_count, uploaded_before
from .test_team_rollups import rollups_match_rows

Run = Callable[..., subprocess.CompletedProcess[str]]

# -- each row once, whatever a log went through ------------------------------------------------


def test_a_restored_backup_sends_nothing_again_on_its_next_upload(
    postgres_url: str,
    demo: ResolvedSkill,
    layout: Layout,
    log_rows: Callable[..., Path],
    tmp_path: Path,
) -> None:
    """A backup of a log restored on another machine is told apart ("Uploaded 0": all its
    rows are stored under the original's key). Its identity was settled anyway, so the next
    upload, starting from nothing under the new key, sent every row again (8 rows for 5)."""
    log = log_rows(*numbered(demo, 0, 3))
    backup = snapshot(log, tmp_path / "backup" / "logs.db")
    log_rows(*numbered(demo, 3, 2))
    assert upload_logs(postgres_url, layout).added == 5
    put(backup, log)
    first = upload_logs(postgres_url, layout)
    assert (first.added, first.logs[0].renewed) == (0, True)
    for _ in range(2):
        again = upload_logs(postgres_url, layout)
        assert (again.added, again.logs[0].renewed) == (0, False)
    assert team_count(postgres_url) == 5
    log_rows(*numbered(demo, 40, 1, run="run-2"))  # a row of its own: sent, then settled
    assert upload_logs(postgres_url, layout).added == 1
    with closing(open_log(log)) as db:
        identity = read_identity(db)
    assert identity is not None and identity.previous_upto == 0
    assert upload_logs(postgres_url, layout).added == 0
    assert team_count(postgres_url) == 6
    rollups_match_rows(postgres_url)


def test_an_upgraded_log_whose_rows_are_all_stored_sends_none_later(
    postgres_url: str, demo: ResolvedSkill, layout: Layout
) -> None:
    """A log from before log identities whose every row 0.1.0 stored: the first upload after
    the upgrade sends none, and neither does the second (it sent all three again)."""
    log = legacy_log(primary_log(demo.runtime), numbered(demo, 0, 3))
    uploaded_before(postgres_url, log, 3)
    for _ in range(3):
        assert upload_logs(postgres_url, layout).added == 0
    assert team_count(postgres_url) == 3


def test_a_log_whose_last_row_holds_a_blob_is_not_a_copy_of_itself(
    postgres_url: str, demo: ResolvedSkill, layout: Layout, log_rows: Callable[..., Path]
) -> None:
    """SQLite stores what it is given: a BLOB (or a number) in a text column is stored as its
    text, and the copy check compares that text, not the local bytes (every other upload
    took the log for a copy of itself and sent its rows again)."""
    log = log_rows(*numbered(demo, 0, 2))
    assert upload_logs(postgres_url, layout).added == 2
    with closing(sqlite3.connect(log)) as db:
        for args in (b'{"section": "B"}', 42):
            row = ("2026-01-30T11:00:00Z", "run-9", "show", "demo", str(demo.source), "/w")
            db.execute(INSERT_ROW, (*row, args, None))
            db.commit()
            assert upload_logs(postgres_url, layout).added == 1
            for _ in range(2):
                again = upload_logs(postgres_url, layout)
                assert (again.added, again.logs[0].renewed) == (0, False)
    assert team_count(postgres_url) == 4


def test_two_clones_of_a_log_uploading_at_once_each_send_their_rows(
    postgres_url: str,
    demo: ResolvedSkill,
    layout: Layout,
    log_rows: Callable[..., Path],
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    """Two clones of one log (one identity), each with rows of its own, uploading at the
    same moment: both checked the store's last row before either stored a batch, so both
    passed for the original and the second's rows were skipped ("Uploaded 0"). The check
    runs under the log's lock, with the first batch: the second sees the first's rows."""
    from skillc_stats._log_keys import log_key

    from .test_team_upload import other_runtime

    log = log_rows(*numbered(demo, 0, 10))
    assert upload_logs(postgres_url, layout).added == 10
    clone = snapshot(log, primary_log(other_runtime(layout, demo) / "demo"))
    log_rows(*numbered(demo, 10, 5))
    log_rows(*numbered(demo, 10, 5, run="run-2"), to=clone)
    checked = threading.Barrier(2)
    real = TeamStore._diverged

    def both_check_first(*args: Any) -> bool:
        found = real(*args)
        with suppress(threading.BrokenBarrierError):  # the other waits for the lock
            checked.wait(timeout=2)
        return found

    monkeypatch.setattr(TeamStore, "_diverged", staticmethod(both_check_first))
    added: list[int] = []

    def upload(path: Path) -> None:
        key = log_key(path, layout)
        assert key is not None
        with TeamStore(postgres_url) as store:
            added.append(store.upload(path, key, "m1", "alice")[0])

    threads = [threading.Thread(target=upload, args=(path,)) for path in (log, clone)]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join()
    assert sorted(added) == [5, 5]
    assert team_count(postgres_url) == 20


# -- one row cannot block everyone ----------------------------------------------------------


def test_a_row_with_long_key_values_is_stored_cut_and_blocks_no_upload(
    postgres_url: str, demo: ResolvedSkill, layout: Layout, log_rows: Callable[..., Path]
) -> None:
    """The rollups key by the skill, the command, the user and the machine as they are: one
    row holding 3,200 characters in one of them failed every upload of the machine for good
    (E043 "index row size ... exceeds btree version 4 maximum 2704"). Each is stored cut to
    512 UTF-8 bytes (four-byte characters at worst), readable, ending in an ellipsis."""
    pick = random.Random(7)  # incompressible: PostgreSQL compresses a long index entry
    long = "".join(chr(pick.randrange(0x20000, 0x2A6D0)) for _ in range(800))  # 4 bytes each
    log = log_rows(*numbered(demo, 0, 2))
    with closing(sqlite3.connect(log)) as db:
        row = ("2026-01-30T11:00:00Z", f"run@{long}", long, long, "/x", "/w", "{}", None)
        db.execute(INSERT_ROW, row)
        db.commit()
    machine = long[::-1]  # every key part at its longest at once
    assert upload_logs(postgres_url, layout, machine=machine).added == 3
    again = upload_logs(postgres_url, layout, machine=machine)
    assert (again.added, again.logs[0].renewed) == (0, False)
    cut = long[:127] + "\u2026"
    with closing(open_log(log)) as local:
        assert len(local.execute("SELECT skill FROM access_log").fetchall()[-1][0]) == 800
    with TeamStore(postgres_url, write=False) as store:
        stored = store("SELECT skill, command, username, machine FROM access_log", [])
    user = long[:126] + "\u2026"  # the end of the run id, cut: "run@" and 126 of them
    assert stored[-1] == (cut, cut, user, machine[:127] + "\u2026")
    listed = query_all(layout, store=postgres_url)["data"]
    assert sorted(entry["skill"] for entry in listed) == ["demo", cut]
    rollups_match_rows(postgres_url)


def test_a_row_whose_time_is_no_day_is_in_no_week_of_the_team_store(
    postgres_url: str, demo: ResolvedSkill, log_rows: Callable[..., Path], stats_cli: Run
) -> None:
    """``--all --from --by week`` cast each row's day to a timestamp: one row whose time is
    not RFC 3339 (``2026-13-45``, ``zzz``, February 30) made it E043 for everyone. Such a row
    is counted, and in no period, by week as by day and month."""
    log = log_rows(*numbered(demo, 0, 3))
    with closing(sqlite3.connect(log)) as db:
        for stamp in ("2026-13-45T10:00:00Z", "zzz", "2026-02-30T10:00:00Z", "0000-01-01T00:00Z"):
            db.execute(INSERT_ROW, (stamp, "r", "show", "demo", str(demo.source), "/w", "{}", None))
        db.commit()
    assert stats_cli("sync", "--to", postgres_url).returncode == 0
    for by in ("week", "day", "month"):
        shown = stats_cli("stats", "--all", "--from", postgres_url, "--by", by, "--format", "json")
        assert shown.returncode == 0, shown.stderr
        periods = json.loads(shown.stdout)["data"]["periods"]
        assert sum(period["total_accesses"] for period in periods) == 3, by
    listed = stats_cli("stats", "--all", "--from", postgres_url, "--format", "json")
    assert [entry["uses"] for entry in json.loads(listed.stdout)["data"]] == [7]


# -- a stalled uploader cannot hang the others ------------------------------------------------


def _stop_inside_a_batch(process: subprocess.Popen[bytes], url: str) -> None:
    """SIGSTOP ``process`` once its upload holds a batch's locks (its ``INSERT`` running, or
    done and its transaction not committed): a laptop suspended mid-upload."""
    import psycopg

    holding = (
        "SELECT 1 FROM pg_stat_activity WHERE datname = current_database() AND "
        "query LIKE 'WITH added%%' AND state IN ('active', 'idle in transaction')"
    )
    with psycopg.connect(url, autocommit=True) as db:
        while process.poll() is None:
            if db.execute(holding).fetchone() is None:
                time.sleep(0.01)
                continue
            os.kill(process.pid, signal.SIGSTOP)
            time.sleep(0.2)  # the INSERT ends on the server, the COMMIT is not sent
            if db.execute(holding.replace("'active', ", "")).fetchone() is not None:
                return
            os.kill(process.pid, signal.SIGCONT)  # stopped between batches: the next one
    raise AssertionError("the upload ended before it could be stopped")


def test_a_stalled_uploader_makes_another_fail_not_hang(
    postgres_url: str,
    demo: ResolvedSkill,
    layout: Layout,
    log_rows: Callable[..., Path],
    clean_env: dict[str, str],
    tmp_path: Path,
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    """An uploader stalled inside a batch held its rollup rows' locks, and every upload of
    the same skill and day waited on them for ever (no timeout but the connection's). A
    writer waits for a lock at most ``LOCK_TIMEOUT`` (E043), and the server ends a writer's
    transaction left idle ``IDLE_TIMEOUT``, releasing its locks."""
    from skillc_index import TeamStoreUnavailable
    from skillc_index.accesslog.schema import connect

    slow_home = tmp_path / "slow"
    slow_log = slow_home / ".skillc" / "runtime" / "demo" / ".skillc-meta" / "logs.db"
    with closing(connect(slow_log)) as db, db:
        row = ("2026-01-30T10:00:00Z", "r", "show", "demo", "/x/demo", "/p", "{}", None)
        db.executemany(INSERT_ROW, [row] * 100_000)
    TeamStore(postgres_url).close()
    (tmp_path / "elsewhere").mkdir()
    slow = subprocess.Popen(
        [sys.executable, "-m", "skillc_stats", "sync", "--to", postgres_url],
        env={**clean_env, "SKILLC_HOME": str(slow_home)},
        cwd=tmp_path / "elsewhere",
        stdout=subprocess.DEVNULL,
        stderr=subprocess.DEVNULL,
    )
    try:
        _stop_inside_a_batch(slow, postgres_url)
        log_rows(*numbered(demo, 0, 5))  # the same skill, day and command
        monkeypatch.setattr(_team, "LOCK_TIMEOUT", "1s", raising=False)
        ended: list[BaseException] = []

        def upload() -> None:
            try:
                upload_logs(postgres_url, layout)
            except BaseException as exc:  # reported by the assertions below
                ended.append(exc)

        other = threading.Thread(target=upload, daemon=True)
        other.start()
        other.join(timeout=60)  # a generous bound, no timing asserted
        assert not other.is_alive(), "the other upload hangs on the stalled one's locks"
        assert len(ended) == 1 and isinstance(ended[0], TeamStoreUnavailable)
        assert "lock timeout" in str(ended[0])
    finally:
        slow.kill()
        slow.wait()


def test_a_log_replaced_before_its_upload_is_sent_under_its_own_key(
    postgres_url: str,
    demo: ResolvedSkill,
    layout: Layout,
    log_rows: Callable[..., Path],
    tmp_path: Path,
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    """The keys of every log were read before the first was sent: a log replaced meanwhile
    (restored from a backup while other logs went up) had its rows stored under the old
    file's key, then again under their own by the next upload (6,000 rows for 3,000)."""
    log = log_rows(*numbered(demo, 0, 10))
    other = log_rows(*numbered(demo, 20, 30, run="run-2"), to=tmp_path / "other" / "logs.db")
    real = TeamStore._upload

    def replaced_first(store: TeamStore, path: Path, *args: object) -> tuple[int, bool]:
        if path == log and not (tmp_path / "done").exists():
            (tmp_path / "done").touch()
            put(other, log)  # replaced now, its key read before
        return real(store, path, *args)  # type: ignore[arg-type]

    monkeypatch.setattr(TeamStore, "_upload", replaced_first)
    assert upload_logs(postgres_url, layout).added == 30
    assert upload_logs(postgres_url, layout).added == 0
    with TeamStore(postgres_url, write=False) as store:
        assert store("SELECT DISTINCT run_id FROM access_log", []) == [("run-2",)]
    assert team_count(postgres_url) == 30


# -- no password printed --------------------------------------------------------------------


@pytest.mark.parametrize(
    ("given", "shown"),
    [
        ("postgresql//stats:Hunter2pass@db/skills", "postgresql//stats:***@db/skills"),
        ("postgresql:/stats:Hunter2pass@db/skills", "postgresql:***@db/skills"),
        ("host=db dbname=skills password=Hunter2pass", "host=db dbname=skills password=***"),
        ("host=db password = 'Hunter2 pass\\' x' port=1", "host=db password = *** port=1"),
        ("postgresq://stats:Hunter2pass@db/skills", "postgresq://stats:***@db/skills"),
    ],
)
def test_a_mistyped_url_is_e100_without_its_password(
    stats_cli: Run, demo: ResolvedSkill, given: str, shown: str
) -> None:
    """The password of a URL whose scheme lacks ``://`` (or of a libpq ``key=value``
    string) was printed in the E100 message: only text after ``://`` was read as a URL."""
    result = stats_cli("sync", "--to", given)
    assert result.returncode == 1
    assert result.stderr.startswith("error[E100]")
    assert f"{shown!r} is not a team store".replace("'", '"') in result.stderr  # a usage error's
    assert "Hunter2" not in result.stderr + result.stdout


# -- retention -------------------------------------------------------------------------------


def test_a_horizon_in_the_future_is_e031_and_refused_rows_are_reported(
    postgres_url: str, demo: ResolvedSkill, log_rows: Callable[..., Path], stats_cli: Run
) -> None:
    """``stats prune --before 2062-01-01`` (a typo for 2026) was taken, and every later
    upload stored nothing, "Uploaded 0", exit 0. A time in the future is E031; an upload says
    how many rows the store's horizon refused, once (the next upload does not send them)."""
    log_rows(*numbered(demo, 0, 2))
    assert stats_cli("sync", "--to", postgres_url).returncode == 0
    for where in (("--from", postgres_url), ()):
        typo = stats_cli("stats", "prune", "--before", "2999-01-01", *where)
        assert typo.returncode == 1
        assert typo.stderr.startswith("error[E031]: invalid filter: '--before '2999-01-01' is")
    assert team_count(postgres_url) == 2
    pruned = stats_cli("stats", "prune", "--before", "2026-01-31", "--from", postgres_url)
    assert pruned.returncode == 0, pruned.stderr
    log_rows(*numbered(demo, 10, 3))  # older than the horizon
    sent = stats_cli("sync", "--to", postgres_url)
    assert sent.returncode == 0
    assert sent.stdout.splitlines()[1:] == [
        "3 rows were not stored: older than the store's retention horizon "
        "('skc stats prune --from')"
    ]
    log_rows(*numbered(demo, 20, 2))  # older too: those only
    report = json.loads(stats_cli("sync", "--to", postgres_url, "--format", "json").stdout)
    assert (report["added"], report["refused"], report["logs"][0]["refused"]) == (0, 2, 2)
    again = stats_cli("sync", "--to", postgres_url)
    assert (again.returncode, len(again.stdout.splitlines())) == (0, 1), again.stdout


# -- the same answers as the local log ----------------------------------------------------------


def test_a_day_a_bound_names_holds_the_rows_its_text_comparison_keeps(
    postgres_url: str, demo: ResolvedSkill, layout: Layout, log_rows: Callable[..., Path]
) -> None:
    """A row is in a time range by the text comparison of the local log: of a bound's day, a
    leap second (``23:59:60Z``) or a lowercase ``t`` sorts after ``23:59:59Z``, a space before
    ``T00:00:00Z``. A whole day at an end came from the rollups, which counted them all; a day
    a bound cuts from the rows of ``T00:00:00Z`` to ``T23:59:59Z`` only, which left them out.
    A row dated on no day of the calendar, ``2026-02-30``, sorts between February 28 and
    March 1: the whole days ended at ``2026-02-28*`` and a cut March 1 began at its text, so
    ``--until 2026-03-01T10:00:00Z`` left it out (and ``--all``'s days of a month's end).
    A bound on the calendar's last day (first) asked for the day after it (before it):
    ``--until 9999-12-31T23:59:59Z`` or ``--since 9999-12-31T10:00:00Z`` was E999
    OverflowError, and ``--all --since 9999-12-05T10:00:00Z`` counted every row (the month
    after 9999-12 was ``10000-01``, as text below it). The team store answers as the local
    log (one skill, its uses by day, and ``--all``, by day, week and month too)."""
    from skillc_stats import query_stats

    from .conftest import record

    odd = ("2016-12-31T23:59:60Z", "2026-03-01t10:00:00z", "2026-03-01 10:00:00Z")
    odd += ("2026-02-30T10:00:00Z",)
    odd += ("0000-06-01T10:00:00Z", "0001-01-01 10:00:00Z", "9999-12-31 10:00:00Z")
    odd += ("9999-12-31T23:59:60Z", "9999-12-32T10:00:00Z", "9999-13-01T10:00:00Z", "zzz")
    plain = ("2016-12-31T10:00:00Z", "2026-02-28T10:00:00Z", "2026-03-01T10:00:00Z")
    plain += ("0001-01-01T05:00:00Z", "0001-01-01T20:00:00Z", "0001-01-05T10:00:00Z")
    plain += ("9999-12-05T10:00:00Z", "9999-12-31T05:00:00Z", "9999-12-31T20:00:00Z")
    log_rows(*(record(demo, "show", {}, timestamp=t) for t in (*odd, *plain)))
    upload_logs(postgres_url, layout, user="alice", machine="m1")
    ranges = [
        ("2016-12-31", "2016-12-31T23:59:59Z"),  # a whole day, at both ends
        ("2016-12-31", "2017-01-01T23:59:59Z"),
        ("2016-12-30", "2016-12-31T23:59:59Z"),
        ("2016-12-31T05:00:00Z", "2017-01-02"),  # a day cut: its leap second is in
        ("2026-03-01", None),
        (None, "2026-03-01T23:59:59Z"),
        ("2026-02-01", "2026-03-01T23:59:59Z"),
        ("2026-03-01", "2026-03-02T12:00:00Z"),
        ("2026-02-27T12:00:00Z", "2026-03-01T12:00:00Z"),  # cut: its space row is in
        (None, "2026-03-01T10:00:00Z"),  # cut: the whole days end below March 1, 02-30 in
        ("2026-02-27T12:00:00Z", None),  # --all's last day of February: 02-30 in
        (None, "2026-02-28T23:59:59Z"),  # whole: 02-30 out, as locally
        (None, "9999-12-31T23:59:59Z"),  # the calendar's last day, whole
        (None, "9999-12-31T10:00:00Z"),
        ("9999-12-31T10:00:00Z", None),  # cut: no whole day after it
        ("9999-12-31", None),
        ("9999-12-05T10:00:00Z", None),  # --all: the months after 9999-12
        ("2026-01-01", "9999-12-30T23:59:59Z"),
        (None, "0001-01-01T10:00:00Z"),  # cut: no whole day before it
        ("0001-01-01T10:00:00Z", "0001-01-01T12:00:00Z"),
        ("0001-01-01", "9999-12-31T23:59:59Z"),
        (None, "0001-01-01T23:59:59Z"),
        ("0001-01-01T10:00:00Z", None),
    ]
    for since, until in ranges:
        given = {"since": since, "until": until}
        local = query_stats(demo, layout, **given)
        assert query_stats(demo, layout, store=postgres_url, **given) == local, given
        for by in (None, "day", "week", "month"):
            mine = query_all(layout, by=by, **given)["data"]
            team = query_all(layout, store=postgres_url, by=by, **given)["data"]
            assert team == mine, (given, by)
    leap = query_stats(demo, layout, store=postgres_url, since=ranges[0][0], until=ranges[0][1])
    assert leap["data"]["total_accesses"] == 1  # 10:00, not 23:59:60
    rollups_match_rows(postgres_url)


def test_a_day_no_month_holds_is_counted_where_its_text_sorts(
    postgres_url: str, demo: ResolvedSkill, layout: Layout, log_rows: Callable[..., Path]
) -> None:
    """``--all`` over a range reads whole months and weeks from rollups that file a day by its
    first characters: another tool's row of ``2026-13-01`` was in a month ``2026-13``, which
    no range of months holds, though as text it sorts between December and January; one of
    ``2026-12-00`` was in December, though it sorts before December 1. So ``--until
    2026-12-31T23:59:59Z`` counted one use fewer than the local log (the day December 31,
    taken out of December's sums when it held a row outside the range, took ``2026-13-01``
    with it), and ``--since 2026-12-15`` left ``2026-13-01`` out. Now every range answers as
    the local log (with ``--by`` and a project filter too)."""
    import itertools

    from .conftest import record

    odd = ("2026-13-01T10:00:00Z", "2026-12-00T10:00:00Z", "2027-01-00T10:00:00Z")
    odd += ("2026-12-32T10:00:00Z", "2027-00-01T10:00:00Z", "2026-12x", "2026-12-")
    plain = ("2026-11-15T10:00:00Z", "2026-12-03T10:00:00Z", "2026-12-20T10:00:00Z")
    plain += ("2026-12-31T10:00:00Z", "2027-01-05T10:00:00Z")
    log_rows(*(record(demo, "show", {}, timestamp=t) for t in (*odd, *plain)))
    upload_logs(postgres_url, layout, user="alice", machine="m1")
    days = ("2026-12-01", "2026-12-15", "2026-12-22", "2026-12-31", "2027-01-01")
    starts = [None, *(f"{day}T00:00:00Z" for day in days), "2026-12-31T12:00:00Z"]
    ends = [None, *(f"{day}T23:59:59Z" for day in days), "2027-01-01T06:00:00Z"]
    for since, until in itertools.product(starts, ends):
        if since is not None and until is not None and since > until:
            continue
        for by, projects in ((None, []), (None, ["/work/app"]), ("month", [])):
            given = {"since": since, "until": until, "projects": projects}
            mine = query_all(layout, by=by, **given)["data"]
            assert query_all(layout, store=postgres_url, by=by, **given)["data"] == mine, given
    rollups_match_rows(postgres_url)
