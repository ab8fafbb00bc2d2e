"""A failed read is no use (the lead's ruling on DECISIONS' "what agents read and activate"):
a row of a use command whose ``error`` is set (``show`` of no such section, E020; ``open`` of
a missing file) stays an access, of its command, and an error, but counts in no use: not in
the summary's ``uses`` (``failed_uses`` instead), ``projects``, ``--by``, ``--all`` (its
uses, projects, first and last use) nor ``--all --by``; the search table keeps it (the
question was asked). The same in a local log and in a team store, whose rollups keep the
failed rows apart (schema 11, migrated from 10); and a team store compares fractions of a
second as times, as a local log does."""

from __future__ import annotations

import json
from collections.abc import Callable
from pathlib import Path
from typing import Any

from skillc_index import Layout, ResolvedSkill
from skillc_index.accesslog import AccessRecord
from skillc_stats import _team, query_all, query_stats, upload_logs

from .conftest import record
from .test_team_rollups import _answers_as_the_local_log, rollups_match_rows
from .test_team_upload import _old_store

SHOW = {"section": "Installation", "file": None, "max_lines": None}
SEARCH = {"query": "install", "result_count": 0, "limit": 10}


def _rows(skill: ResolvedSkill) -> list[AccessRecord]:
    """Two reads in ``/w/a`` (days 1 and 2), failed reads only in ``/w/b`` and on day 3 (the
    last: no last use), a failed search, and a failed build (the author's, not a use)."""

    def at(day: int, hour: int = 10) -> str:
        return f"2026-03-{day:02d}T{hour:02d}:00:00Z"

    missing = "error[E020]: section not found: 'Nope'"
    return [
        record(skill, "show", SHOW, cwd="/w/a", timestamp=at(1)),
        record(skill, "open", {"path": "references/api.md"}, cwd="/w/a", timestamp=at(2)),
        record(skill, "show", {"section": "Nope"}, error=missing, cwd="/w/b", timestamp=at(2, 11)),
        record(
            skill, "open", {"path": "gone.md"}, error="error[E021]: x", cwd="/w/a", timestamp=at(3)
        ),
        record(skill, "search", SEARCH, error="error[E999]: x", cwd="/w/b", timestamp=at(3, 11)),
        record(skill, "build", {}, error="error[E001]: x", cwd="/w/a", timestamp=at(3, 12)),
    ]


def test_a_failed_read_is_no_use_in_a_local_log(
    demo: ResolvedSkill,
    layout: Layout,
    log_rows: Callable[..., Path],
    stats_cli: Callable[..., Any],
) -> None:
    log_rows(*_rows(demo))
    summary = query_stats(demo, layout)["data"]
    assert (summary["total_accesses"], summary["uses"], summary["failed_uses"]) == (6, 2, 3)
    assert (summary["author_activity"], summary["error_count"]) == (1, 4)
    projects = query_stats(demo, layout, group_by="projects")["data"]
    assert projects == [{"project": "/w/a", "count": 2}]  # /w/b: failed reads only
    commands = query_stats(demo, layout, group_by="commands")["data"]
    assert commands == {"open": 2, "build": 1, "search": 1, "show": 2}
    search = query_stats(demo, layout, group_by="search")["data"]
    assert search == [{"query": "install", "count": 1}]  # the question was asked
    (entry,) = [e for e in query_all(layout)["data"] if e["skill"] == "demo"]
    assert (entry["uses"], entry["projects"], entry["author_activity"]) == (2, 1, 1)
    assert (entry["first_used"], entry["last_used"]) == (
        "2026-03-01T10:00:00Z",
        "2026-03-02T10:00:00Z",
    )
    periods = query_all(layout, by="day")["data"]["periods"]
    assert [(p["period"], p["uses"], p["total_accesses"]) for p in periods[:3]] == [
        ("2026-03-01", 1, 1),
        ("2026-03-02", 1, 2),
        ("2026-03-03", 0, 3),
    ]
    result = stats_cli("stats", "demo", "--format", "json", "--by", "day")
    assert result.returncode == 0, result.stderr
    days = json.loads(result.stdout)["data"]
    assert [(d["period"], d["uses"], d["author_activity"]) for d in days[:3]] == [
        ("2026-03-01", 1, 0),
        ("2026-03-02", 1, 0),
        ("2026-03-03", 0, 1),
    ]
    text = stats_cli("stats", "demo").stdout
    assert "\nUses: 2\nFailed reads: 3 (not uses)\nAuthor activity: " in text


def test_a_failed_read_is_no_use_in_a_team_store(
    postgres_url: str,
    demo: ResolvedSkill,
    layout: Layout,
    log_rows: Callable[..., Path],
    stats_cli: Callable[..., Any],
) -> None:
    """Uploaded in two batches (the rollups' sums added to), the team store answers every
    query, ``--all`` and ``--by`` as the local log; its rollups are the sums of its rows."""
    rows = _rows(demo)
    log_rows(*rows[:3])
    upload_logs(postgres_url, layout, user="alice", machine="m1")
    log_rows(*rows[3:])
    upload_logs(postgres_url, layout, user="alice", machine="m1")
    rollups_match_rows(postgres_url)
    team = query_stats(demo, layout, store=postgres_url)["data"]
    assert (team["uses"], team["failed_uses"]) == (2, 3)
    for given in ({}, {"users": ["alice"]}, {"projects": ["/w/b"]}):
        (entry,) = [
            e
            for e in query_all(layout, store=postgres_url, **given)["data"]
            if e["skill"] == "demo"
        ]
        assert entry["last_used"] == (None if given.get("projects") else "2026-03-02T10:00:00Z")
        assert entry["uses"] == (0 if given.get("projects") else 2), given
    _answers_as_the_local_log(postgres_url, demo, layout, stats_cli)


def test_a_version_10_store_is_migrated_to_leave_failed_reads_out_of_the_uses(
    postgres_server: Any,
    demo: ResolvedSkill,
    layout: Layout,
    log_rows: Callable[..., Path],
    stats_cli: Callable[..., Any],
) -> None:
    """A store of version 10 (its rollups counted a failed read as a use) is migrated: each
    rollup keeps its failed rows, those by kind their uses without them; the sums are those
    uploads make, the answers the local log's."""
    import psycopg

    log_rows(*_rows(demo))
    _, old = _old_store(postgres_server, layout, 10)
    uses = "SELECT SUM(uses) FROM skillc.usage_folders"
    with psycopg.connect(old) as db:  # version 10: every read a use
        assert db.execute(uses).fetchall() == [(5,)]
    _team.TeamStore(old).close()  # a writer migrates
    with psycopg.connect(old) as db:
        assert db.execute(uses).fetchall() == [(2,)]
    rollups_match_rows(old)
    assert upload_logs(old, layout, user="alice", machine="m1").added == 0
    _answers_as_the_local_log(old, demo, layout, stats_cli)


def test_a_team_store_compares_fractions_of_a_second_as_times(
    postgres_url: str, demo: ResolvedSkill, layout: Layout, log_rows: Callable[..., Path]
) -> None:
    """``10:00:00.5Z`` is after ``10:00:00Z`` (as text ``.`` sorts before ``Z``): the rollups
    keep the first and last as times, in one upload and when a later one adds to them, and
    the period and first and last use are the local log's."""
    import psycopg

    second, fraction = "2026-01-01T10:00:00Z", "2026-01-01T10:00:00.5Z"
    log_rows(record(demo, "show", SHOW, timestamp=fraction))
    upload_logs(postgres_url, layout, user="alice", machine="m1")
    log_rows(
        record(demo, "show", SHOW, timestamp=second), record(demo, "show", SHOW, timestamp=fraction)
    )
    upload_logs(postgres_url, layout, user="alice", machine="m1")
    rollups_match_rows(postgres_url)
    with psycopg.connect(postgres_url) as db:
        for table in ("usage_targets", "usage_totals", "usage_daily", "usage_skills"):
            found = db.execute(f"SELECT first, last FROM skillc.{table}").fetchall()  # type: ignore[arg-type]
            assert found == [(second, fraction)], table
        found = db.execute("SELECT first_use, last_use FROM skillc.usage_folders").fetchall()
        assert found == [(second, fraction)]
    local = query_stats(demo, layout)["period"]
    assert local == {"start": second, "end": fraction}
    for given in ({}, {"users": ["alice"]}, {"since": "2026-01-01T09:00:00Z"}):
        assert query_stats(demo, layout, store=postgres_url, **given)["period"] == local, given
        (entry,) = query_all(layout, store=postgres_url, **given)["data"]
        assert (entry["first_used"], entry["last_used"]) == (second, fraction), given


def test_a_day_s_failed_read_before_its_use_is_no_first_use_in_any_rollup(
    postgres_server: Any, demo: ResolvedSkill, layout: Layout, log_rows: Callable[..., Path]
) -> None:
    """A failed ``show`` at 09:00 and a ``show`` at 10:00, of one day, folder, user and
    machine (one key of ``usage_daily``): ``usage_folders``' first use is 10:00 whether an
    upload made it (from sums keyed by the error too) or a migration from schema 10 and the
    rollups made again from the rows (from ``usage_daily``, whose key mixes the two, it was
    09:00)."""
    import psycopg

    failed, used = "2026-03-01T09:00:00Z", "2026-03-01T10:00:00Z"
    log_rows(
        record(demo, "show", {"section": "Nope"}, error="error[E020]: x", timestamp=failed),
        record(demo, "show", SHOW, timestamp=used),
        record(demo, "open", {"path": "gone.md"}, error="error[E021]: x", timestamp=used),
    )
    fresh, old = _old_store(postgres_server, layout, 10)
    _team.TeamStore(old).close()  # a writer migrates
    folders = "SELECT uses, first_use, last_use FROM skillc.usage_folders"
    for url in (fresh, old):
        with psycopg.connect(url) as db:
            assert db.execute(folders).fetchall() == [(1, used, used)], url
        rollups_match_rows(url)


def test_a_stored_row_s_failed_is_the_one_constant_of_skillc_index() -> None:
    """The team store's SQL of a stored row's ``failed`` (an upload's sums, migration 11, the
    rows a time filter cuts) is skillc-index's constant, not a copy of it."""
    from skillc_index.accesslog.reader import ROW_FAILED, SUCCEEDED
    from skillc_stats import _team_reads, _team_sql

    assert f"{ROW_FAILED} AS failed" in _team_sql.INSERT_NEW
    assert f"NOT {SUCCEEDED}" in " ".join(_team_sql.MIGRATIONS[10])
    assert _team_reads._ROW_VALUES["failed"] == ROW_FAILED
