"""The team store's rollups (issue 40): one skill's queries and ``--all`` read sums kept by
the uploads, in the same transaction as their rows; an imported row's tool-call id is in a
column of its own, never grouped; a version 3 store is migrated and answers the same.

Each test checks the team store's answers against the local log's (the same rows, counted
row by row), and the rollups against sums made again from the stored rows."""

from __future__ import annotations

from collections.abc import Callable
from pathlib import Path
from typing import Any

import pytest

from skillc_index import Layout, ResolvedSkill, TeamStoreUnavailable
from skillc_index.accesslog import AccessRecord
from skillc_stats import QUERY_TYPES, _team, query_all, query_stats, upload_logs
from skillc_stats._team_sql import (
    KIND_ROLLUPS,
    MIGRATIONS,
    REBUILD_ROLLUPS,
    REBUILD_ROLLUPS_10,
    ROLLUP_ALL,
    ROLLUPS,
)

from .conftest import record

#: Filters of every kind: none, whole days, days cut at both ends, a cut within one day, a
#: project, a user, a machine, and several at once.
FILTERS: list[dict[str, Any]] = [
    {},
    {"since": "2026-01-30", "until": "2026-01-31T23:59:59Z"},
    {"since": "2026-01-29T12:00:00Z", "until": "2026-01-31T06:00:00Z"},
    {"since": "2026-01-30T09:00:00Z", "until": "2026-01-30T11:00:00Z"},
    {"projects": ["/work/app"]},
    {"users": ["alice"]},
    {"machines": ["m2"]},
    {"since": "2026-01-30T05:00:00Z", "projects": ["/work/app"], "users": ["alice"]},
]


def imported(skill: ResolvedSkill, count: int, day: int = 30, **extra: Any) -> list[AccessRecord]:
    """``count`` activations and reads as ``sync --from claude-code`` records them: each with
    its own tool-call id in ``args``, spread over a day."""
    rows = []
    for n in range(count):
        tool, more = ("Skill", {}) if n % 2 else ("Read", {"path": f"references/api{n % 3}.md"})
        args = {"agent": "claude-code", "tool": tool, "id": f"toolu_{day}_{n:04d}", **more}
        command = "activate" if tool == "Skill" else "read"
        stamp = f"2026-01-{day:02d}T{n % 24:02d}:{n % 60:02d}:00Z"
        rows.append(record(skill, command, args, timestamp=stamp, **extra))
    return rows


def mixed(skill: ResolvedSkill, cwd: str) -> list[AccessRecord]:
    show = {"section": "Installation", "file": None, "max_lines": None}
    return [
        *imported(skill, 40, 29, cwd=cwd),
        *imported(skill, 40, 30, cwd=cwd),
        *imported(skill, 40, 31, cwd=cwd),
        record(skill, "show", show, cwd=cwd, timestamp="2026-01-30T10:00:00Z"),
        record(skill, "show", show, cwd=cwd, timestamp="2026-01-31T03:00:00Z"),
        record(skill, "show", {"section": "Nope"}, error="error[E020]: not found", cwd=cwd),
        record(skill, "search", {"query": "install", "result_count": 1, "limit": 10}, cwd=cwd),
        record(skill, "build", {}, cwd=cwd, timestamp="2026-01-29T08:00:00Z"),
    ]


def rollups_match_rows(url: str) -> None:
    """Every rollup holds exactly the sums made again from the stored rows."""
    import psycopg

    with psycopg.connect(url) as db:
        db.execute("SET search_path TO skillc")
        kept = {table: _contents(db, table) for table in (*ROLLUPS, *KIND_ROLLUPS)}
        for statement in REBUILD_ROLLUPS:
            db.execute(statement)  # type: ignore[arg-type]
        for table in kept:
            assert _contents(db, table) == kept[table], table
        db.rollback()


def _contents(db: Any, table: str) -> list[tuple[Any, ...]]:
    return sorted(
        tuple("" if value is None else value for value in row)
        for row in db.execute(f"SELECT * FROM {table}").fetchall()
    )


def test_imported_rows_are_summed_without_their_call_ids(
    postgres_url: str,
    demo: ResolvedSkill,
    layout: Layout,
    log_rows: Callable[..., Path],
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    """Every imported row carries a unique tool-call id: grouped by ``args``, each was a group
    of its own (the most used skill sent 273,602 groups to Python). The rollups group them
    by their target without it; the id is kept in ``call_id``; the answers are the local
    log's, under every filter, uploaded in many small batches."""
    import psycopg

    monkeypatch.setattr(_team, "BATCH_ROWS", 7)
    log_rows(*mixed(demo, "/work/app"))
    upload_logs(postgres_url, layout, user="alice", machine="m1")
    local = {
        (group_by, str(given)): query_stats(demo, layout, group_by=group_by, **_local(given))
        for group_by in QUERY_TYPES
        for given in FILTERS
    }
    for given in FILTERS:
        for group_by in QUERY_TYPES:
            team = query_stats(demo, layout, group_by=group_by, store=postgres_url, **given)
            expected = local[(group_by, str(given))]
            if "users" in given or "machines" in given:  # one user, one machine: all or none
                mine = given.get("users", ["alice"]) == ["alice"]
                if not mine or given.get("machines", ["m1"]) != ["m1"]:
                    expected = query_stats(demo, layout, group_by=group_by, until="2000-01-01")
            assert team["data"] == expected["data"], (group_by, given)
            assert team["period"] == expected["period"], (group_by, given)
    rollups_match_rows(postgres_url)
    with psycopg.connect(postgres_url) as db:
        targets = db.execute(
            "SELECT COUNT(*) FROM skillc.usage_totals WHERE command IN ('activate', 'read')"
        ).fetchone()
        ids = db.execute(
            "SELECT COUNT(DISTINCT call_id), COUNT(call_id) FROM skillc.access_log"
        ).fetchone()
    assert targets == (4,)  # one activation target and three files: 120 rows
    assert ids == (120, 120)


def _local(given: dict[str, Any]) -> dict[str, Any]:
    return {key: value for key, value in given.items() if key not in ("users", "machines")}


def test_all_reads_the_rollups_under_every_filter(
    postgres_url: str, demo: ResolvedSkill, layout: Layout, log_rows: Callable[..., Path]
) -> None:
    log_rows(*mixed(demo, "/work/app"), *mixed(demo, "/work/other"))
    upload_logs(postgres_url, layout, user="alice", machine="m1")
    for given in FILTERS:
        if "users" in given or "machines" in given:
            continue
        local = query_all(layout, **given)["data"]
        assert query_all(layout, store=postgres_url, **given)["data"] == local, given
    assert query_all(layout, store=postgres_url, users=["bob"])["data"][0]["uses"] == 0


def test_uploads_fill_the_first_and_last_use_an_older_version_reads(
    postgres_url: str, demo: ResolvedSkill, layout: Layout, log_rows: Callable[..., Path]
) -> None:
    """``--all`` takes its first and last use from ``usage_targets``' days, but a teammate
    still on the previous version reads ``usage_folders``' ``first_use`` and ``last_use`` from
    the same store (its schema unchanged): uploads keep filling them (left empty, that version
    showed every skill "LAST USED never")."""
    import psycopg

    log_rows(*mixed(demo, "/work/app"))
    upload_logs(postgres_url, layout, user="alice", machine="m1")
    with psycopg.connect(postgres_url) as db:
        times = db.execute("SELECT first_use, last_use FROM skillc.usage_folders").fetchall()
    assert times and all(first is not None and last is not None for first, last in times)


def test_a_version_3_store_is_migrated_and_answers_the_same(
    postgres_server: Any, demo: ResolvedSkill, layout: Layout, log_rows: Callable[..., Path]
) -> None:
    """A store of version 3 (rows, their daily rollup, no call ids) gains the rollups of its
    rows and answers what a store filled by uploads answers."""
    import psycopg

    log_rows(*mixed(demo, "/work/app"), *mixed(demo, "/work/other"))
    fresh, old = postgres_server.database(), postgres_server.database()
    upload_logs(fresh, layout, user="alice", machine="m1")
    with psycopg.connect(fresh) as source, psycopg.connect(old, autocommit=True) as db:
        rows = source.execute(
            "SELECT log_key, source_id, machine, username, timestamp, run_id, command, skill, "
            "skill_path, cwd, args, error FROM skillc.access_log"
        ).fetchall()
        db.execute("CREATE SCHEMA skillc")
        db.execute("SET search_path TO skillc")
        for statement in (*MIGRATIONS[0], *MIGRATIONS[1], *MIGRATIONS[2]):
            db.execute(statement)  # type: ignore[arg-type]
        db.execute("CREATE TABLE schema_version (version INTEGER NOT NULL)")
        db.execute("INSERT INTO schema_version VALUES (3)")
        with db.cursor() as cursor:
            cursor.executemany(
                "INSERT INTO access_log (log_key, source_id, machine, username, timestamp, "
                "run_id, command, skill, skill_path, cwd, args, error) "
                "VALUES (%s, %s, %s, %s, %s, %s, %s, %s, %s, %s, %s, %s)",
                rows,
            )
        db.execute("TRUNCATE usage_daily")
        db.execute(ROLLUP_ALL)  # type: ignore[arg-type]
    _team.TeamStore(old).close()  # a writer migrates
    rollups_match_rows(old)
    for given in FILTERS:
        for group_by in QUERY_TYPES:
            mine = query_stats(demo, layout, group_by=group_by, store=fresh, **given)
            assert query_stats(demo, layout, group_by=group_by, store=old, **given) == mine
        assert query_all(layout, store=old, **given) == query_all(layout, store=fresh, **given)
    assert upload_logs(old, layout, user="alice", machine="m1").added == 0


#: Time ranges of ``--all`` over rows from January to April: whole months, months with days
#: cut at both ends, days of two months (no whole month), open ends, a leap-free February.
MONTH_RANGES: list[dict[str, Any]] = [
    {"since": "2026-02-01", "until": "2026-03-31T23:59:59Z"},
    {"since": "2026-01-15T12:00:00Z", "until": "2026-04-10T06:00:00Z"},
    {"since": "2026-01-20", "until": "2026-02-10T23:59:59Z"},
    {"since": "2026-02-01", "until": "2026-02-28T23:59:59Z"},
    {"since": "2026-02-28T23:00:00Z", "until": "2026-03-01T01:00:00Z"},
    {"since": "2026-02-10"},
    {"until": "2026-03-05T10:00:00Z"},
    {"until": "2026-02-28T23:59:59Z"},
    {"since": "2026-01-31T00:00:00Z", "until": "2026-03-01", "projects": ["/work/other"]},
    # months cut near their ends: monthly sums minus the days outside (the first use of
    # January on the 1st, outside the range: the first whole day with a use is the 8th)
    {"since": "2026-01-02T06:00:00Z", "until": "2026-03-30T18:00:00Z"},
    {"since": "2026-01-03", "until": "2026-02-26T23:59:59Z", "projects": ["/work/app"]},
    {"since": "2026-02-02T12:00:00Z"},
    {"since": "2026-01-01T08:00:00Z", "until": "2026-04-22T20:00:00Z"},
    # weeks (days 1-7, 8-14, 15-21, 22 to the end): whole ones, one minus a day, open ends
    {"since": "2026-02-08", "until": "2026-02-21T23:59:59Z"},
    {"since": "2026-01-16T03:00:00Z", "until": "2026-03-09T22:00:00Z"},
    {"since": "2026-02-23", "until": "2026-03-14T23:59:59Z", "projects": ["/work/app"]},
    {"since": "2026-03-09"},
]


def test_all_over_months_and_days_answers_as_the_rows(
    postgres_url: str, demo: ResolvedSkill, layout: Layout, log_rows: Callable[..., Path]
) -> None:
    """``--all`` over a time range reads its whole months from ``usage_months``, whole weeks
    from ``usage_weeks``, the other whole days from ``usage_daily`` (each added, or a month
    or a week minus its days outside) and the cut hours from the rows: the answers are the
    local log's (the same rows counted one by one) whichever way a range cuts the months."""
    from skillc_stats._filters import Filters
    from skillc_stats._team_all import plan, usage_statement

    whole_days = ("2026-02-01", "2026-03-31")
    rows = []
    for n in range(120):  # January 10 to April 20, every day or so, two projects
        day = f"2026-{1 + n // 30:02d}-{1 + (n * 7) % 28:02d}"
        cwd = "/work/app" if n % 3 else "/work/other"
        command = ("activate", "show", "build", "read")[n % 4]
        rows.append(
            record(demo, command, {"n": n}, cwd=cwd, timestamp=f"{day}T{n % 24:02d}:30:00Z")
        )
    log_rows(*rows)
    upload_logs(postgres_url, layout, user="alice", machine="m1")
    for given in MONTH_RANGES:
        local = query_all(layout, **given)["data"]
        assert local[0]["uses"] > 0, given
        assert query_all(layout, store=postgres_url, **given)["data"] == local, given
    rollups_match_rows(postgres_url)
    whole = Filters("2026-02-01T00:00:00Z", "2026-03-31T23:59:59Z")
    statement, _ = usage_statement(whole)
    assert "usage_months" in statement and [p.table for p in plan(*whole_days)] == ["usage_months"]
    # the end days from usage_daily only to take them out when they hold rows outside the
    # range, and the days filed in no month of it that sort within it (2026-04-00), or the
    # reverse (2026-02-00), as index probes
    daily = [branch for branch in statement.split(" UNION ALL ") if "FROM usage_daily" in branch]
    doubts = [branch for branch in daily if "EXISTS (SELECT 1 FROM access_log" in branch]
    assert len(doubts) == 2 and len(daily) == 4
    cut = Filters("2026-01-02T06:00:00Z", "2026-03-30T18:00:00Z")
    assert "-accesses AS accesses" in usage_statement(cut)[0]  # read by subtraction


def test_a_skill_used_only_on_days_subtracted_is_not_listed(
    postgres_url: str, demo: ResolvedSkill, layout: Layout, log_rows: Callable[..., Path]
) -> None:
    """A month read as its sums minus the days outside the range: a skill used only on those
    days sums to nothing, and is not listed (as no row of it is in the range)."""
    from skillc_stats._filters import Filters

    ghost = record(demo, "show", {}, timestamp="2026-01-01T03:00:00Z")._replace(skill="ghost")
    log_rows(
        *(record(demo, "show", {}, timestamp=f"2026-01-{day:02d}T10:00:00Z") for day in (1, 9, 20)),
        ghost,
    )
    upload_logs(postgres_url, layout, user="alice", machine="m1")
    with _team.TeamStore(postgres_url, write=False) as store:
        for since, until in (
            ("2026-01-02T06:00:00Z", "2026-01-30T18:00:00Z"),
            ("2026-01-02", None),
        ):
            assert [usage[:2] for usage in store.usage(Filters(since, until))] == [("demo", 2)]


def _four_months(
    demo: ResolvedSkill, layout: Layout, log_rows: Callable[..., Path], url: str
) -> tuple[list[str], list[str]]:
    """Rows every day or so from January 1 to April 30 in three projects, of three skills
    (one used only by its author, one only in January), uploaded by alice on m1; the starts
    and ends of ranges that start or end a week or a month (whole days, and hours cut at
    either end)."""
    rows = []
    for n in range(400):
        month = 1 + n // 100
        day = f"2026-{month:02d}-{1 + (n * 17) % (31, 28, 31, 30)[month - 1]:02d}"
        command = ("activate", "show", "build", "read", "search", "lint", "stats")[n % 7]
        row = record(
            demo, command, {"n": n}, cwd=f"/work/p{n % 3}", timestamp=f"{day}T{n % 24:02d}:15:00Z"
        )
        rows.append(row if n % 5 else row._replace(skill="other"))
        if n < 100 and n % 4 == 0:
            rows.append(row._replace(skill="builds", command="build"))
    log_rows(*rows)
    upload_logs(url, layout, user="alice", machine="m1")
    days = ["2026-01-01", "2026-01-07", "2026-01-08", "2026-01-21", "2026-01-22", "2026-01-31"]
    days += ["2026-02-02", "2026-02-14", "2026-02-27", "2026-03-01", "2026-03-16", "2026-04-30"]
    starts = [f"{day}T{time}" for day in days for time in ("00:00:00Z", "12:00:00Z")]
    ends = [f"{day}T{time}" for day in days for time in ("23:59:59Z", "06:00:00Z")]
    return starts, ends


def test_all_by_months_weeks_and_days_equals_the_days_summed(
    postgres_url: str, demo: ResolvedSkill, layout: Layout, log_rows: Callable[..., Path]
) -> None:
    """Over every range between days that start or end a week or a month (whole days, and
    hours cut at either end), ``--all`` read as months, weeks and days added or subtracted
    answers exactly as the plain statement (the days of ``usage_daily`` summed), for three
    skills (one used only by its author, one only in January) and with a project filter."""
    import itertools

    from skillc_stats._filters import Filters
    from skillc_stats._team_all import plain_statement, usage_statement

    starts, ends = _four_months(demo, layout, log_rows, postgres_url)
    checked = 0
    with _team.TeamStore(postgres_url, write=False) as store:
        for since, until in itertools.product([None, *starts], [None, *ends]):
            if since is not None and until is not None and since > until:
                continue
            for projects in ((), ("/work/p1",)) if checked % 7 == 0 else ((),):
                given = Filters(since, until, projects)
                answer = sorted(store(*usage_statement(given)))
                assert answer == sorted(store(*plain_statement(given))), given
                checked += 1
    assert checked > 250


def test_all_by_period_from_the_trends_rollup_equals_the_days_summed(
    postgres_url: str, demo: ResolvedSkill, layout: Layout, log_rows: Callable[..., Path]
) -> None:
    """``--all --by`` counts every skill per period in SQL, from ``usage_skill_days`` (by
    day, skill and command) when no filter names a user, machine or project: over ranges cut
    at either end, by day, week (ISO, across months) and month, exactly the counts of
    ``usage_daily``'s days put in their periods in Python (as the trends did), and with
    each filter (read from ``usage_daily``)."""
    import itertools
    from collections import Counter

    from skillc_stats._filters import Filters
    from skillc_stats._periods import period_of
    from skillc_stats._team_reads import counts_statement, rolled

    starts, ends = _four_months(demo, layout, log_rows, postgres_url)
    checked = 0
    with _team.TeamStore(postgres_url, write=False) as store:

        def days_summed(given: Filters, by: str) -> list[tuple[Any, ...]]:
            columns = ("skill", "day", "command", "accesses", "failed")
            union, values = rolled(given, columns, "usage_daily", "usage_daily")
            summed: Counter[tuple[str, str, str]] = Counter()
            failed: Counter[tuple[str, str, str]] = Counter()
            for skill, day, command, accesses, fails in store(
                f"SELECT * FROM ({union}) AS r", values
            ):
                summed[(skill, period_of(day, by), command)] += int(accesses)
                failed[(skill, period_of(day, by), command)] += int(fails)
            return sorted((*key, count, failed[key]) for key, count in summed.items())

        for since, until in itertools.product([None, *starts[::3]], [None, *ends[::3]]):
            if since is not None and until is not None and since > until:
                continue
            for names in ({}, {"projects": ("/work/p1",)}, {"users": ("alice",)}):
                given = Filters(since, until, **names)  # type: ignore[arg-type]
                for by in ("day", "week", "month"):
                    statement = counts_statement(given, ("skill", "day"), by=by)
                    assert ("usage_skill_days" in statement[0]) == (not names), given
                    answer = sorted(tuple(row) for row in store(*statement))
                    assert answer == days_summed(given, by), (given, by)
                    checked += 1
    assert checked > 300


#: Rows of three days, some of another tool whose time is not of skillc's UTC form (an
#: offset, a lowercase ``t``/``z``, a space), beside skillc's own (a leap second is one).
NOT_UTC = ("2026-03-01T23:30:00-05:00", "2026-03-01 09:00:00Z", "2026-03-02t10:00:00z")
NOT_UTC += ("2026-03-03T12:00:00+01:00",)
UTC = ("2026-03-01T10:00:00Z", "2026-03-02T10:00:00Z", "2026-03-03T08:00:00Z")
UTC += ("2026-03-03T23:59:60Z",)
#: Whole days (open at the start, all three, the middle one, the last), and hours cut.
DAY_RANGES: list[dict[str, Any]] = [
    {"until": "2026-03-31T23:59:59Z"},
    {"since": "2026-03-01", "until": "2026-03-03T23:59:59Z"},
    {"since": "2026-03-02", "until": "2026-03-02T23:59:59Z"},
    {"since": "2026-03-03", "until": "2026-03-03T23:59:59Z"},
    {"since": "2026-03-01T05:00:00Z", "until": "2026-03-03T20:00:00Z"},
]


def _not_utc_rows(skill: ResolvedSkill) -> list[AccessRecord]:
    """Each time of :data:`NOT_UTC` and :data:`UTC` as a ``show`` and an ``activate`` of the
    same folder (so a day's rollup keys hold both kinds), a ``build``, and a ``search`` whose
    rollup keys hold none of UTC form."""
    show = {"section": "Installation", "file": None, "max_lines": None}
    rows = []
    for stamp in (*NOT_UTC, *UTC):
        rows.append(record(skill, "show", show, timestamp=stamp))
        rows.append(record(skill, "activate", {}, timestamp=stamp))
    rows.append(record(skill, "build", {}, timestamp="2026-03-02T08:00:00Z"))
    search = {"query": "install", "result_count": 1, "limit": 10}
    return [*rows, record(skill, "search", search, timestamp="2026-03-02t11:00:00z")]


def _answers_as_the_local_log(
    url: str, demo: ResolvedSkill, layout: Layout, stats_cli: Callable[..., Any]
) -> None:
    """``--all`` (and ``--by day``), every query of one skill, and ``stats demo --by day``
    (last: each run logs a row of its own, now) answer from ``url`` as from the local log,
    over all time and :data:`DAY_RANGES`."""
    import json

    for given in [{}, *DAY_RANGES]:
        for by in (None, "day"):
            local = query_all(layout, by=by, **given)["data"]
            assert query_all(layout, store=url, by=by, **given)["data"] == local, (given, by)
        for group_by in QUERY_TYPES:
            local = query_stats(demo, layout, group_by=group_by, **given)
            assert query_stats(demo, layout, group_by=group_by, store=url, **given) == local

    def by_day(*args: str) -> list[Any]:
        result = stats_cli("stats", "demo", "--format", "json", "--by", "day", *args)
        assert result.returncode == 0, result.stderr
        return json.loads(result.stdout)["data"]  # type: ignore[no-any-return]

    for given in DAY_RANGES:
        bounds = [arg for key, value in given.items() for arg in (f"--{key}", value)]
        assert by_day(*bounds, "--from", url) == by_day(*bounds), given


def test_a_row_whose_time_is_not_utc_is_in_no_day_of_the_rollups(
    postgres_url: str,
    demo: ResolvedSkill,
    layout: Layout,
    log_rows: Callable[..., Path],
    stats_cli: Callable[..., Any],
) -> None:
    """A row whose time is not of skillc's UTC form is counted in no period of ``--by``
    locally: the rollups by day put it in the day of its first 10 characters, so ``--by``
    over the store (and the dashboards' ``usage_days``) counted it there. Its day is now that
    day marked (``2026-03-01*``): in no period, nor in the view's days, and within a range
    of whole days as the local log's text comparison puts it; the same answers from both."""
    import psycopg

    log_rows(*_not_utc_rows(demo))
    upload_logs(postgres_url, layout, user="alice", machine="m1")
    rollups_match_rows(postgres_url)
    with psycopg.connect(postgres_url) as db:
        days = db.execute(
            "SELECT to_char(time AT TIME ZONE 'UTC', 'YYYY-MM-DD'), SUM(accesses) "
            "FROM skillc.usage_days GROUP BY 1 ORDER BY 1"
        ).fetchall()
        marked = db.execute("SELECT DISTINCT day FROM skillc.usage_targets ORDER BY 1").fetchall()
    assert days == [("2026-03-01", 2), ("2026-03-02", 3), ("2026-03-03", 4), (None, 9)]
    assert [day for (day,) in marked] == [
        "2026-03-01", "2026-03-01*", "2026-03-02", "2026-03-02*", "2026-03-03", "2026-03-03*",
    ]  # fmt: skip
    _answers_as_the_local_log(postgres_url, demo, layout, stats_cli)


def test_a_version_9_store_moves_rows_not_utc_out_of_their_days(
    postgres_server: Any,
    demo: ResolvedSkill,
    layout: Layout,
    log_rows: Callable[..., Path],
    stats_cli: Callable[..., Any],
) -> None:
    """A store of version 9, whose rollups by day hold the rows not of UTC form in the day of
    their first 10 characters (a space sorts before ``T``: a day's first time was one of
    theirs), is migrated: their counts move to the day marked, that day's first and last
    times are its other rows' again; the rollups are those uploads make, the answers the
    local log's."""
    import psycopg

    from skillc_stats._team_sql import ROLLUP_DAY

    log_rows(*_not_utc_rows(demo))
    fresh, old = postgres_server.database(), postgres_server.database()
    upload_logs(fresh, layout, user="alice", machine="m1")
    with psycopg.connect(fresh) as source, psycopg.connect(old, autocommit=True) as db:
        rows = source.execute(
            "SELECT log_key, source_id, machine, username, timestamp, run_id, command, skill, "
            "skill_path, cwd, args, error, call_id FROM skillc.access_log"
        ).fetchall()
        db.execute("CREATE SCHEMA skillc")
        db.execute("SET search_path TO skillc")
        for statement in (step for steps in MIGRATIONS[:9] for step in steps):
            db.execute(statement)  # type: ignore[arg-type]
        db.execute("CREATE TABLE schema_version (version INTEGER NOT NULL)")
        db.execute("INSERT INTO schema_version VALUES (9)")
        with db.cursor() as cursor:
            cursor.executemany(
                "INSERT INTO access_log (log_key, source_id, machine, username, timestamp, "
                "run_id, command, skill, skill_path, cwd, args, error, call_id) "
                "VALUES (%s, %s, %s, %s, %s, %s, %s, %s, %s, %s, %s, %s, %s)",
                rows,
            )
        for statement in REBUILD_ROLLUPS_10:  # as version 9 made them: the first 10 characters
            db.execute(statement.replace(ROLLUP_DAY, "substr(timestamp, 1, 10)"))  # type: ignore[arg-type]
        first = db.execute(
            "SELECT first FROM usage_daily WHERE day = '2026-03-01' AND command = 'show'"
        ).fetchall()
        assert first == [("2026-03-01 09:00:00Z",)]
    _team.TeamStore(old).close()  # a writer migrates
    rollups_match_rows(old)
    assert upload_logs(old, layout, user="alice", machine="m1").added == 0
    _answers_as_the_local_log(old, demo, layout, stats_cli)


#: Times no skillc wrote that are no instant (the rows' are counted, but none is a first or
#: last time): on no day of the calendar, of year 0000, not of the form, with an offset (two
#: within the cut hours of the range of DAY_RANGES that cuts both ends).
NO_INSTANT = (
    "zzz",
    "2026-02-30T10:00:00Z",
    "0000-01-01T00:00:00Z",
    "2026-03-01 09:00:00Z",
    "2026-03-01T06:00:00+02:00",
    "2026-03-03T19:00:00-05:00",
    "2026-03-04T01:00+05:00",
)


def test_first_and_last_times_are_instants_in_both_stores(
    postgres_url: str,
    demo: ResolvedSkill,
    layout: Layout,
    log_rows: Callable[..., Path],
    stats_cli: Callable[..., Any],
) -> None:
    """A skill's period and ``--all``'s first and last use were the MIN and MAX of the times'
    text, locally and in the store's rollups: another tool's row dated ``zzz``, ``2026-02-30``
    or with an offset was printed as logged. Only instants count, the same in both stores,
    from every rollup (all time, by day, the rows of the cut hours)."""
    rows = [record(demo, c, {}, timestamp=t) for t in (*NO_INSTANT, *UTC) for c in ("show", "lint")]
    log_rows(*rows)
    upload_logs(postgres_url, layout, user="alice", machine="m1")
    period = query_stats(demo, layout, store=postgres_url)["period"]
    assert period == {"start": "2026-03-01T10:00:00Z", "end": "2026-03-03T23:59:60Z"}
    for given in ({}, {"users": ["alice"]}, {"since": "2026-03-01T05:00:00Z", "users": ["alice"]}):
        (entry,) = query_all(layout, store=postgres_url, **given)["data"]
        assert (entry["first_used"], entry["last_used"]) == tuple(period.values()), given
    cut = {"since": "2026-03-01T05:00:00Z", "until": "2026-03-03T20:00:00Z"}
    period = query_stats(demo, layout, store=postgres_url, **cut)["period"]
    assert period == {"start": "2026-03-01T10:00:00Z", "end": "2026-03-03T08:00:00Z"}
    _answers_as_the_local_log(postgres_url, demo, layout, stats_cli)


def test_a_time_with_a_fraction_is_within_the_bounds_as_the_time_it_is(
    postgres_url: str, demo: ResolvedSkill, layout: Layout, log_rows: Callable[..., Path]
) -> None:
    """``--until 10:00:00Z`` counted a use at ``10:00:00.500Z`` and ``--since 10:00:00Z``
    left it out (as text ``.`` sorts before ``Z``), locally and in the store; and the store
    counted a whole day ending ``23:59:59Z`` with a use half a second later."""
    times = ("2026-03-02T10:00:00Z", "2026-03-02T10:00:00.500Z", "2026-03-02T23:59:59.500Z")
    times += ("2026-03-03T00:00:00.250Z", "2026-03-01T23:59:59.750Z")
    log_rows(*(record(demo, "show", {}, timestamp=stamp) for stamp in times))
    upload_logs(postgres_url, layout, user="alice", machine="m1")
    expected = [
        ({"until": "2026-03-02T10:00:00Z"}, 2),
        ({"since": "2026-03-02T10:00:00Z"}, 4),
        ({"since": "2026-03-02", "until": "2026-03-02T23:59:59Z"}, 2),
        ({"since": "2026-03-02T10:00:00Z", "until": "2026-03-02T23:59:59Z"}, 2),
        ({"since": "2026-03-03"}, 1),
        # within one second, in order: no whole second (E031 once rounded), no row
        ({"since": "2026-03-02T10:00:00.2Z", "until": "2026-03-02T10:00:00.8Z"}, 0),
    ]
    for given, uses in expected:
        for store in (None, postgres_url):
            (entry,) = query_all(layout, store=store, **given)["data"]
            assert entry["uses"] == uses, (given, store)
            assert query_stats(demo, layout, store=store, **given)["data"]["uses"] == uses


#: Ranges given in order that hold no whole second: within one second across midnight, and
#: twice the leap second (since rounds up past until).
NO_SECOND = [
    {"since": "2026-03-02T23:59:59.5Z", "until": "2026-03-02T23:59:59.7Z"},
    {"since": "2026-03-02T23:59:60Z", "until": "2026-03-02T23:59:60Z"},
]


@pytest.mark.parametrize("given", NO_SECOND)
def test_a_range_holding_no_whole_second_is_empty_in_both_stores(
    given: dict[str, str],
    postgres_url: str,
    demo: ResolvedSkill,
    layout: Layout,
    log_rows: Callable[..., Path],
) -> None:
    """A range across midnight holding no whole second was E043 'syntax error' from the team
    store (a statement of no piece, ``FROM ()``); it is empty in both stores (``--all``'s
    statement then reads a select of no row), and a store not reached is E043 as for any
    other range."""
    times = ("2026-03-02T23:59:59Z", "2026-03-02T23:59:59.600Z", "2026-03-03T00:00:00Z")
    log_rows(*(record(demo, "show", {}, timestamp=stamp) for stamp in times))
    upload_logs(postgres_url, layout, user="alice", machine="m1")
    for store in (None, postgres_url):
        (entry,) = query_all(layout, store=store, **given)["data"]
        assert (entry["uses"], entry["first_used"]) == (0, None), (given, store)
        for by in ("day", "week", "month"):
            trend = query_all(layout, store=store, by=by, **given)["data"]
            assert trend["periods"] == [], (by, store)
        for group_by in QUERY_TYPES:
            response = query_stats(demo, layout, group_by=group_by, store=store, **given)
            assert response["period"] == {"start": None, "end": None}, (group_by, store)
    nowhere = "postgresql://skillc@/none?host=/nonexistent"  # never reached
    with pytest.raises(TeamStoreUnavailable):
        query_all(layout, store=nowhere, **given)
