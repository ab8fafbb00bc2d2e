"""The Grafana dashboard of the team store (issue 40, ``skillc_stats/grafana/skillc-team.json``,
package data: the installed package's, which pip users copy): its shape checked by a JSON
schema, and every query of its panels and variables run, Grafana's macros expanded, against a
real team store filled by uploads (no Grafana here)."""

from __future__ import annotations

import json
import re
from collections.abc import Callable
from importlib import resources
from pathlib import Path
from typing import Any

import jsonschema
import pytest

from skillc_index import Layout, ResolvedSkill
from skillc_stats import query_stats, upload_logs
from skillc_stats._team_days import DAY_TIME, ROW_TIME
from skillc_stats._team_sql import _VIEWS

from .conftest import record

DASHBOARD = resources.files("skillc_stats") / "grafana" / "skillc-team.json"

_SQL_TARGET = {
    "type": "object",
    "required": ["refId", "datasource", "rawQuery", "rawSql", "format"],
    "properties": {
        "datasource": {"const": {"type": "grafana-postgresql-datasource", "uid": "${datasource}"}},
        "rawQuery": {"const": True},
        "rawSql": {"type": "string", "pattern": "skillc\\."},
        "format": {"enum": ["time_series", "table"]},
    },
}
SCHEMA = {
    "type": "object",
    "required": ["uid", "title", "schemaVersion", "time", "templating", "panels"],
    "properties": {
        "uid": {"type": "string", "pattern": "^[A-Za-z0-9_-]{1,40}$"},
        "templating": {
            "type": "object",
            "required": ["list"],
            "properties": {
                "list": {"type": "array", "items": {"type": "object", "required": ["name", "type"]}}
            },
        },
        "panels": {
            "type": "array",
            "minItems": 1,
            "items": {
                "type": "object",
                "required": ["id", "type", "title", "gridPos", "targets"],
                "properties": {
                    "gridPos": {"type": "object", "required": ["h", "w", "x", "y"]},
                    "targets": {"type": "array", "minItems": 1, "items": _SQL_TARGET},
                },
            },
        },
    },
}

#: Grafana's macros as its PostgreSQL data source expands them, for January 2026 and one
#: skill and user chosen in the variables.
FROM, TO = "'2026-01-01T00:00:00Z'::timestamptz", "'2026-01-31T23:59:59Z'::timestamptz"
MACROS = [
    (r"\$__timeGroupAlias\((\w+), \$__interval\)", r"date_trunc('day', \1) AS time"),
    (r"\$__timeFilter\((\w+)\)", rf"\1 BETWEEN {FROM} AND {TO}"),
    (r"\$__timeFrom\(\)", FROM),
    (r"\$__timeTo\(\)", TO),
    (r"\$\{skill:sqlstring\}", "'demo'"),
    (r"\$\{user:sqlstring\}", "'alice'"),
]


def expanded(sql: str) -> str:
    for pattern, replacement in MACROS:
        sql = re.sub(pattern, replacement, sql)
    assert "$" not in sql, sql
    return sql


def test_the_dashboard_is_valid_and_its_queries_answer_from_a_store(
    postgres_url: str, demo: ResolvedSkill, layout: Layout, log_rows: Callable[..., Path]
) -> None:
    import psycopg

    dashboard: dict[str, Any] = json.loads(DASHBOARD.read_text(encoding="utf-8"))
    jsonschema.validate(dashboard, SCHEMA)
    show = {"section": "Installation", "file": None, "max_lines": None}
    log_rows(
        *[
            record(demo, "show", show, timestamp=f"2026-01-{day:02d}T10:00:00Z")
            for day in (2, 3, 3)
        ],
        record(demo, "build", {}, timestamp="2026-01-03T11:00:00Z"),
        record(demo, "show", {"section": "Nope"}, error="error[E020]: not found"),
        # not RFC 3339 UTC: in no day of the views, nor of the failures' panel
        record(
            demo,
            "show",
            {"section": "Gone"},
            error="error[E020]: gone",
            timestamp="2026-01-15T10:00:00+02:00",
        ),
    )
    upload_logs(postgres_url, layout, user="alice", machine="m1")
    answers: dict[str, list[tuple[Any, ...]]] = {}
    with psycopg.connect(postgres_url) as db:
        for variable in dashboard["templating"]["list"]:
            if variable["type"] == "query":
                assert db.execute(variable["query"]).fetchall()  # the skill, the user
        for panel in dashboard["panels"]:
            for target in panel["targets"]:
                answers[panel["title"]] = db.execute(expanded(target["rawSql"])).fetchall()
    over_time = answers["Uses and author activity over time"]
    assert [(str(t)[:10], int(uses), int(author)) for t, uses, author in over_time] == [
        ("2026-01-02", 1, 0),
        ("2026-01-03", 2, 1),
        ("2026-01-30", 0, 0),  # the failed show: no use (as stats counts it)
    ]
    uses = query_stats(demo, layout, store=postgres_url, since="2026-01-01")["data"]["uses"]
    assert answers["Top skills (uses)"] == [("demo", uses)]
    assert answers["Uses per user"] == [("alice", uses, 1)]
    assert answers["Uses per project"] == [("/work/app", uses)]
    assert answers["Failed accesses"] == [("demo", "show", "error[E020]: not found", 1)]
    assert answers["Skills unused in the time range (used before)"] == []


#: The time of a row (``{0}``: the text; ``{1}``: what follows the day) in version 8's views.
V8_TIME = (
    "CASE WHEN {0} ~ '^[0-9]{{4}}-(0[1-9]|1[0-2])-(0[1-9]|[12][0-9]|3[01]){1}' "
    "THEN CAST({0} AS timestamptz) END"
)
#: Rows of another RFC-0007 writer dated on no day of the calendar: February 30, the year 0.
NO_DAY = ("2026-02-30T10:00:00Z", "0000-01-01T10:00:00Z")


def test_a_row_dated_on_no_day_reads_as_no_time_in_the_views(
    postgres_url: str, demo: ResolvedSkill, layout: Layout, log_rows: Callable[..., Path]
) -> None:
    """A row dated on no day of the calendar reads as a NULL ``time`` in both views: it failed
    every query of them, so five of the dashboard's six panels, for the whole team."""
    import psycopg

    log_rows(*(record(demo, "show", {}, timestamp=t) for t in ("2026-01-02T10:00:00Z", *NO_DAY)))
    upload_logs(postgres_url, layout, user="alice", machine="m1")
    with psycopg.connect(postgres_url) as db:
        events = db.execute(
            "SELECT CAST(time AT TIME ZONE 'UTC' AS TEXT) FROM skillc.access_events ORDER BY 1"
        ).fetchall()
        days = db.execute(
            "SELECT CAST(time AT TIME ZONE 'UTC' AS TEXT) FROM skillc.usage_days ORDER BY 1"
        ).fetchall()
    assert events == [("2026-01-02 10:00:00",), (None,), (None,)]
    assert days == [("2026-01-02 00:00:00",), (None,), (None,)]


def test_a_version_8_store_gets_the_views_that_read_no_day_as_no_time(
    postgres_server: Any, demo: ResolvedSkill, layout: Layout, log_rows: Callable[..., Path]
) -> None:
    """Migration 9 makes the views of a store of version 8 again: a row dated on no day of
    the calendar, which failed them, reads as a NULL ``time``."""
    import psycopg

    from skillc_stats._team import TeamStore

    from .test_team_upload import _old_store

    log_rows(*(record(demo, "show", {}, timestamp=t) for t in NO_DAY))
    _, old = _old_store(postgres_server, layout, 8)
    with psycopg.connect(old) as db:  # the views as version 8 made them: days 01 to 31
        for view, select in _VIEWS.items():
            version_8 = select.replace(ROW_TIME, V8_TIME.format("timestamp", "T[0-9:]{8}Z"))
            version_8 = version_8.replace(DAY_TIME, V8_TIME.format("day || 'T00:00:00Z'", ""))
            db.execute(f"CREATE OR REPLACE VIEW skillc.{view} AS {version_8}")  # type: ignore[arg-type]
    count = "SELECT COUNT(*), COUNT(time) FROM skillc.{}"
    with psycopg.connect(old) as db, pytest.raises(psycopg.DataError):
        db.execute(count.format("access_events")).fetchall()
    TeamStore(old).close()  # a writer migrates
    with psycopg.connect(old) as db:
        assert db.execute(count.format("access_events")).fetchall() == [(2, 0)]
        assert db.execute(count.format("usage_days")).fetchall() == [(2, 0)]
