"""The Grafana dashboard of the team store (issue 40, ``grafana/skillc-team.json``): its
shape checked by a JSON schema, and every query of its panels and variables run, Grafana's
macros expanded, against a real team store filled by uploads (no Grafana here)."""

from __future__ import annotations

import json
import re
from collections.abc import Callable
from pathlib import Path
from typing import Any

import jsonschema

from skillc_index import Layout, ResolvedSkill
from skillc_stats import query_stats, upload_logs

from .conftest import record

DASHBOARD = Path(__file__).parents[1] / "grafana" / "skillc-team.json"

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
        ("2026-01-30", 1, 0),
    ]
    uses = query_stats(demo, layout, store=postgres_url, since="2026-01-01")["data"]["uses"]
    assert answers["Top skills (uses)"] == [("demo", uses)]
    assert answers["Uses per user"] == [("alice", uses, 1)]
    assert answers["Uses per project"] == [("/work/app", uses)]
    assert answers["Failed accesses"] == [("demo", "show", "error[E020]: not found", 1)]
    assert answers["Skills unused in the time range (used before)"] == []
