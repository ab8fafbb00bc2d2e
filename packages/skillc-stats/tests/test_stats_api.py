"""``query_stats`` and ``unused_sections`` over real logs (RFC-0003): every query type, its
order and tie-breaks, the filters (applied before counting), the response schema, errors."""

from __future__ import annotations

import re
import sqlite3
from collections.abc import Callable
from contextlib import closing
from pathlib import Path
from typing import Any

import pytest

from skillc_index import (
    EmptyTimeRange,
    InternalError,
    InvalidQueryType,
    Layout,
    MalformedFilter,
    ResolvedSkill,
    UnreadableFile,
    resolve_skill,
)
from skillc_index.accesslog import primary_log
from skillc_stats import QUERY_TYPES, query_stats, unused_sections

from .conftest import record

Log = Callable[..., Path]


def show(
    skill: ResolvedSkill,
    section: str,
    file: str | None = None,
    max_lines: int | None = None,
    nth: object = None,
    **extra: Any,
) -> Any:
    args: dict[str, Any] = {"section": section, "file": file, "max_lines": max_lines}
    if nth is not None:
        args["nth"] = nth
    return record(skill, "show", args, **extra)


def test_query_types_are_the_rfcs() -> None:
    assert QUERY_TYPES == (
        "summary",
        "sections",
        "files",
        "commands",
        "projects",
        "errors",
        "search",
    )


def test_no_log_is_an_empty_result(demo: ResolvedSkill, layout: Layout) -> None:
    response = query_stats(demo, layout)
    assert response == {
        "skill": "demo",
        "skill_path": str(demo.source),
        "query": "summary",
        "filters": {"since": None, "until": None, "projects": []},
        "period": {"start": None, "end": None},
        "data": {
            "total_accesses": 0,
            "uses": 0,
            "failed_uses": 0,
            "author_activity": 0,
            "unique_sections": 0,
            "unique_files": 0,
            "error_count": 0,
            "activations_by_user": 0,
            "activations_by_model": 0,
        },
    }
    for query in QUERY_TYPES[1:]:
        assert query_stats(demo, layout, group_by=query)["data"] in ([], {})
    assert not primary_log(demo.runtime).exists()  # reading creates nothing


def test_skill_given_by_name(demo: ResolvedSkill, layout: Layout, log_rows: Log) -> None:
    log_rows(show(demo, "Installation"))
    assert query_stats("demo", layout)["data"]["total_accesses"] == 1


def test_skill_given_as_a_path_object(demo: ResolvedSkill, layout: Layout, log_rows: Log) -> None:
    """A ``pathlib.Path`` is a path as its text is (it was taken for a ResolvedSkill)."""
    log_rows(show(demo, "Installation"))
    assert query_stats(demo.source, layout)["data"]["total_accesses"] == 1
    assert {"section": "Usage", "file": "SKILL.md"} in unused_sections(demo.source, layout)


def test_summary(demo: ResolvedSkill, layout: Layout, log_rows: Log) -> None:
    log_rows(
        show(demo, "Installation", timestamp="2026-01-30T10:00:00Z"),
        show(demo, "installation", timestamp="2026-01-30T10:00:05Z"),
        show(demo, "Endpoints", timestamp="2026-01-29T09:00:00Z"),
        show(demo, "Nope", error="error[E020]: section not found: 'Nope'"),
        record(demo, "open", {"path": "references/api.md", "max_lines": None}),
        record(demo, "outline", {"level": None}, timestamp="2026-02-01T08:00:00Z"),
    )
    response = query_stats(demo, layout)
    assert response["period"] == {"start": "2026-01-29T09:00:00Z", "end": "2026-02-01T08:00:00Z"}
    assert response["data"] == {
        "total_accesses": 6,
        "uses": 5,  # the failed show ("Nope") read nothing: no use
        "failed_uses": 1,
        "author_activity": 0,
        "unique_sections": 2,
        "unique_files": 2,
        "error_count": 1,
        "activations_by_user": 0,
        "activations_by_model": 0,
    }


def test_sections_order_and_matching(demo: ResolvedSkill, layout: Layout, log_rows: Log) -> None:
    log_rows(
        show(demo, "Usage"),  # the first "Usage" in file order: SKILL.md
        show(demo, "## usage"),  # leading marks dropped, case folded
        show(demo, "Usage", file="references/api.md"),
        show(demo, "Usage", file="./references/../references/api.md"),
        show(demo, "Endpoints"),
        show(demo, "Endpoints"),
        show(demo, "Advanced — options"),  # a heading that contains the em-dash itself
        show(demo, "Installation — how to install"),  # text after " — " ignored
        show(demo, "Removed Section"),  # no such heading now
        show(demo, "Gone", file="references/old.md"),
        show(demo, "Installation", error="error[E002]: search index unusable"),
        record(demo, "search", {"query": "usage", "result_count": 2, "limit": 10}),
    )
    data = query_stats(demo, layout, group_by="sections")["data"]
    assert data == [
        {"section": "Usage", "file": "SKILL.md", "count": 2},
        {"section": "Endpoints", "file": "references/api.md", "count": 2},
        {"section": "Usage", "file": "references/api.md", "count": 2},
        {"section": "Removed Section", "file": None, "count": 1},
        {"section": "Advanced — options", "file": "SKILL.md", "count": 1},
        {"section": "Installation", "file": "SKILL.md", "count": 1},
        {"section": "Gone", "file": "references/old.md", "count": 1},
    ]


def test_a_show_nth_read_counts_under_the_heading_show_served(
    demo: ResolvedSkill, layout: Layout, log_rows: Log
) -> None:
    """``show --nth N`` (MCP: ``nth``) logs ``nth`` (the gateway's ``log_args``): the read is
    counted under the Nth matching heading, in file then line order (within ``--file`` when
    given), by ``show``'s own matching rule."""
    log_rows(
        show(demo, "Usage", nth=2),  # SKILL.md's Usage, then references/api.md's
        show(demo, "usage", file="references/api.md", nth=1),
        show(demo, "Usage", nth="2"),  # a foreign row's nth that is no number: the first
    )
    data = query_stats(demo, layout, group_by="sections")["data"]
    assert data == [
        {"section": "Usage", "file": "references/api.md", "count": 2},
        {"section": "Usage", "file": "SKILL.md", "count": 1},
    ]
    assert query_stats(demo, layout, group_by="files")["data"] == [
        {"file": "references/api.md", "count": 2},
        {"file": "SKILL.md", "count": 1},
    ]
    unused = unused_sections(demo, layout)
    assert {"section": "Usage", "file": "references/api.md"} not in unused


def test_files(demo: ResolvedSkill, layout: Layout, log_rows: Log) -> None:
    log_rows(
        record(demo, "open", {"path": "b.txt", "max_lines": None}),
        record(demo, "open", {"path": "./a.txt", "max_lines": 3}),
        record(demo, "open", {"path": "missing.md"}, error="error[E021]: file not found"),
        show(demo, "Endpoints"),
        show(demo, "Endpoints"),
        show(demo, "Installation"),
    )
    assert query_stats(demo, layout, group_by="files")["data"] == [
        {"file": "references/api.md", "count": 2},
        {"file": "SKILL.md", "count": 1},
        {"file": "a.txt", "count": 1},
        {"file": "b.txt", "count": 1},
    ]


def test_commands_include_unknown_ones(demo: ResolvedSkill, layout: Layout, log_rows: Log) -> None:
    log_rows(
        show(demo, "Usage"),
        show(demo, "Usage"),
        record(demo, "frobnicate", {}),
        record(demo, "build", {"global": False}),
        record(demo, "stats", {"group_by": "summary"}),
    )
    data = query_stats(demo, layout, group_by="commands")["data"]
    assert data == {"show": 2, "build": 1, "frobnicate": 1, "stats": 1}
    assert list(data) == ["show", "build", "frobnicate", "stats"]


def test_the_authors_own_runs_are_not_uses(
    demo: ResolvedSkill, layout: Layout, log_rows: Log
) -> None:
    """Issue 34: uses are agents' reads and activations; the author's build, lint and stats
    runs are counted apart (author activity), in no project, and every command is still
    listed (RFC-0003's commands)."""
    log_rows(
        show(demo, "Usage", cwd="/agent"),
        record(demo, "search", {"query": "usage", "result_count": 1, "limit": 10}, cwd="/agent"),
        record(demo, "activate", {"tool": "Skill"}, cwd="/agent"),  # sync --from claude-code
        record(demo, "read", {"path": "SKILL.md"}, cwd="/agent"),
        record(demo, "build", {"global": False}, cwd="/author"),
        record(demo, "build", {"global": False}, cwd="/author"),
        record(demo, "lint", {}, cwd="/author", error="error[E300]: lint failed"),
        record(demo, "stats", {"group_by": "summary"}, cwd="/author"),
        record(demo, "frobnicate", {}, cwd="/elsewhere"),  # a later version's: neither
    )
    data = query_stats(demo, layout)["data"]
    assert (data["total_accesses"], data["uses"], data["author_activity"]) == (9, 4, 4)
    assert data["error_count"] == 1  # every failed row (the errors report names the command)
    assert query_stats(demo, layout, group_by="projects")["data"] == [
        {"project": "/agent", "count": 4}
    ]
    assert query_stats(demo, layout, group_by="commands")["data"] == {
        "build": 2,
        "activate": 1,
        "frobnicate": 1,
        "lint": 1,
        "read": 1,
        "search": 1,
        "show": 1,
        "stats": 1,
    }


def test_projects(demo: ResolvedSkill, layout: Layout, log_rows: Log) -> None:
    log_rows(
        show(demo, "Usage", cwd="/b"),
        show(demo, "Usage", cwd="/a"),
        show(demo, "Usage", cwd="/c"),
        show(demo, "Usage", cwd="/c"),
    )
    assert query_stats(demo, layout, group_by="projects")["data"] == [
        {"project": "/c", "count": 2},
        {"project": "/a", "count": 1},
        {"project": "/b", "count": 1},
    ]


def test_errors(demo: ResolvedSkill, layout: Layout, log_rows: Log) -> None:
    e020 = "error[E020]: section not found: 'Nope'"
    e021 = "error[E021]: file not found: 'x.md'"
    e011 = "error[E011]: missing frontmatter field 'description' in SKILL.md"
    log_rows(
        show(demo, "Nope", error=e020),
        show(demo, "Nope", file="SKILL.md", max_lines=5, error=e020),
        record(demo, "open", {"path": "x.md", "max_lines": None}, error=e021),
        record(demo, "build", {"global": False}, error=e011),
        record(demo, "search", {"query": "q", "result_count": 0}, error="error[E002]: x"),
        show(demo, "Usage"),
    )
    assert query_stats(demo, layout, group_by="errors")["data"] == [
        {"target": "Nope", "command": "show", "error": e020, "count": 2},
        {"target": "demo", "command": "build", "error": e011, "count": 1},
        {"target": "q", "command": "search", "error": "error[E002]: x", "count": 1},
        {"target": "x.md", "command": "open", "error": e021, "count": 1},
    ]


def test_search(demo: ResolvedSkill, layout: Layout, log_rows: Log) -> None:
    def search(query: str, results: int = 1, **extra: Any) -> Any:
        return record(demo, "search", {"query": query, "result_count": results}, **extra)

    log_rows(
        search("error handling", 3),
        search("api", 0),
        search("authentication", 2),
        search("authentication", 5),
        search("Authentication", 5),
        search("error handling", 0, error="error[E002]: search index unusable"),
        show(demo, "api"),
    )
    assert query_stats(demo, layout, group_by="search")["data"] == [
        {"query": "authentication", "count": 2},
        {"query": "error handling", "count": 2},
        {"query": "Authentication", "count": 1},
        {"query": "api", "count": 1},
    ]


def test_other_sources_of_the_same_name_do_not_count(
    demo: ResolvedSkill,
    layout: Layout,
    log_rows: Log,
    tmp_path: Path,
    demo_skill: Callable[[Path], Path],
) -> None:
    """Several source folders named ``demo`` share the runtime; skill_path tells them apart."""
    other = resolve_skill(str(demo_skill(tmp_path / "elsewhere" / "demo")), layout)
    assert other.runtime == demo.runtime and other.source != demo.source
    log_rows(show(demo, "Usage"), show(other, "Usage"), show(other, "Endpoints"))
    assert query_stats(demo, layout)["data"]["total_accesses"] == 1
    assert query_stats(other, layout)["data"]["total_accesses"] == 2


def test_time_filters_are_inclusive(demo: ResolvedSkill, layout: Layout, log_rows: Log) -> None:
    stamps = [
        "2026-01-29T23:59:59Z",
        "2026-01-30T00:00:00Z",
        "2026-01-30T12:00:00Z",
        "2026-01-31T00:00:00Z",
        "2026-01-31T00:00:01Z",
    ]
    log_rows(*(show(demo, "Usage", timestamp=stamp) for stamp in stamps))

    def total(**filters: Any) -> int:
        data = query_stats(demo, layout, **filters)["data"]
        return int(data["total_accesses"])

    assert total(since="2026-01-30") == 4
    assert total(until="2026-01-31") == 4  # a date is the start of that day
    assert total(since="2026-01-30", until="2026-01-31") == 3
    assert total(since="2026-01-30T12:00:00Z", until="2026-01-30T12:00:00Z") == 1
    assert total(since="2026-01-30T13:00:00+01:00", until="2026-01-30T12:00:00Z") == 1
    assert total(since="2027-01-01") == 0
    response = query_stats(demo, layout, since="2026-01-30", until="2026-01-30T23:00:00Z")
    assert response["filters"] == {
        "since": "2026-01-30T00:00:00Z",
        "until": "2026-01-30T23:00:00Z",
        "projects": [],
    }
    assert response["period"] == {"start": "2026-01-30T00:00:00Z", "end": "2026-01-30T12:00:00Z"}


def test_a_date_or_an_aware_datetime_is_a_time_bound_and_anything_else_e031(
    demo: ResolvedSkill, layout: Layout, log_rows: Log
) -> None:
    """An embedder's ``datetime``, ``date`` or number (or a user that is no name) was an
    AttributeError (``.strip``): a ``date`` or an aware ``datetime`` is read as its ISO text,
    the rest is E031 naming the filter."""
    from datetime import date, datetime, timedelta, timezone

    from skillc_stats import query_all

    log_rows(*(show(demo, "Usage", timestamp=f"2026-01-{day}T12:00:00Z") for day in (29, 30)))
    two = timezone(timedelta(hours=2))
    since = datetime(2026, 1, 30, 14, 0, 0, 500_000, tzinfo=two)  # 12:00:00.5Z: rounded up
    assert query_stats(demo, layout, since=since)["filters"]["since"] == "2026-01-30T12:00:01Z"
    assert (
        query_stats(demo, layout, since=since.replace(microsecond=0))["data"]["total_accesses"] == 1
    )
    assert query_all(layout, until=date(2026, 1, 30))["filters"]["until"] == (
        "2026-01-30T00:00:00Z"
    )
    for value, reason in [
        (datetime(2026, 1, 30), "has no time zone (tzinfo)"),
        (7, "is not a time (int): use "),
    ]:
        with pytest.raises(MalformedFilter, match=re.escape(reason)) as caught:
            query_stats(demo, layout, since=value)  # type: ignore[arg-type]
        assert caught.value.option == "since"
    with pytest.raises(MalformedFilter, match=re.escape("'5' is not a user name (int)")):
        query_stats(demo, layout, store="postgresql://u@127.0.0.1:1/x", users=[5])  # type: ignore[list-item]


def test_a_leap_second_bound_falls_between_its_neighbours(
    demo: ResolvedSkill, layout: Layout, log_rows: Log
) -> None:
    """RFC-0003:C-FILTERS parses bounds as RFC 3339, whose seconds go to 60 (a leap second):
    a row of 23:59:59 is before it, one of the next midnight after it."""
    log_rows(
        show(demo, "Usage", timestamp="2016-12-31T23:59:59Z"),
        show(demo, "Usage", timestamp="2017-01-01T00:00:00Z"),
    )
    leap = "2016-12-31T23:59:60Z"
    after = query_stats(demo, layout, since=leap)
    assert after["filters"]["since"] == "2017-01-01T00:00:00Z"
    assert after["period"]["start"] == after["period"]["end"] == "2017-01-01T00:00:00Z"
    before = query_stats(demo, layout, until=leap)
    assert before["period"]["start"] == before["period"]["end"] == "2016-12-31T23:59:59Z"


def test_relative_days(demo: ResolvedSkill, layout: Layout, log_rows: Log) -> None:
    from skillc_index.clock import utc_now

    log_rows(show(demo, "Usage", timestamp=utc_now()), show(demo, "Usage"))
    assert query_stats(demo, layout, since="7d")["data"]["total_accesses"] == 1


def test_project_filter(demo: ResolvedSkill, layout: Layout, log_rows: Log, tmp_path: Path) -> None:
    code = tmp_path.resolve() / "code"
    web = code / "web"
    (web / "src").mkdir(parents=True)
    (code / "webapp").mkdir()
    (code / "cli").mkdir()
    (tmp_path / "alias").symlink_to(code)
    log_rows(
        show(demo, "Usage", cwd=str(web)),
        show(demo, "Usage", cwd=str(web / "src")),
        show(demo, "Usage", cwd=str(code / "webapp")),  # not below code/web
        show(demo, "Usage", cwd=str(code / "cli")),
        show(demo, "Usage", cwd="/elsewhere"),
    )

    def projects(*paths: str) -> list[dict[str, Any]]:
        data: list[dict[str, Any]] = query_stats(demo, layout, group_by="projects", projects=paths)[
            "data"
        ]
        return data

    assert {e["project"] for e in projects(str(web))} == {str(web), str(web / "src")}
    assert len(projects(str(tmp_path / "alias" / "web" / "src" / ".."))) == 2  # canonicalised
    assert {e["project"] for e in projects(str(web), str(code / "cli"))} == {
        str(web),
        str(web / "src"),
        str(code / "cli"),
    }
    assert len(projects(str(code))) == 4
    assert projects(str(tmp_path / "nothing-here")) == []
    response = query_stats(demo, layout, projects=[str(tmp_path / "alias" / "cli")])
    assert response["filters"]["projects"] == [str(code / "cli")]
    assert response["data"]["total_accesses"] == 1
    # one folder as a str is that folder (it was "/", "t", "m"...: every access counted)
    assert query_stats(demo, layout, projects=str(code / "cli")) == response


def test_relative_project_is_relative_to_the_layout(
    demo: ResolvedSkill, project: Path, layout: Layout, log_rows: Log
) -> None:
    (project / "sub").mkdir()
    log_rows(show(demo, "Usage", cwd=str(project / "sub")), show(demo, "Usage"))
    response = query_stats(demo, layout, projects=["sub"])
    assert response["filters"]["projects"] == [str(project / "sub")]
    assert response["data"]["total_accesses"] == 1


def test_filters_apply_before_aggregation(
    demo: ResolvedSkill, layout: Layout, log_rows: Log
) -> None:
    log_rows(
        show(demo, "Usage", timestamp="2026-01-01T00:00:00Z"),
        show(demo, "Endpoints", timestamp="2026-02-01T00:00:00Z"),
        record(demo, "search", {"query": "a"}, timestamp="2026-01-01T00:00:00Z"),
        record(demo, "search", {"query": "b"}, timestamp="2026-02-01T00:00:00Z"),
    )
    since = {"since": "2026-01-15"}
    assert query_stats(demo, layout, group_by="sections", **since)["data"] == [
        {"section": "Endpoints", "file": "references/api.md", "count": 1}
    ]
    assert query_stats(demo, layout, group_by="search", **since)["data"] == [
        {"query": "b", "count": 1}
    ]
    assert query_stats(demo, layout, group_by="commands", **since)["data"] == {
        "search": 1,
        "show": 1,
    }


def test_unused_sections(demo: ResolvedSkill, layout: Layout, log_rows: Log) -> None:
    log_rows(
        show(demo, "Installation"),
        show(demo, "Usage", file="references/api.md"),
        show(demo, "Contributing", timestamp="2025-01-01T00:00:00Z"),
    )
    assert unused_sections(demo, layout, since="2026-01-01") == [
        {"section": "Demo", "file": "SKILL.md"},
        {"section": "Usage", "file": "SKILL.md"},
        {"section": "Advanced — options", "file": "SKILL.md"},
        {"section": "Contributing", "file": "SKILL.md"},
        {"section": "API", "file": "references/api.md"},
        {"section": "Endpoints", "file": "references/api.md"},
    ]


def test_odd_rows_do_not_break_queries(demo: ResolvedSkill, layout: Layout, log_rows: Log) -> None:
    path = log_rows(show(demo, "Usage"))
    with closing(sqlite3.connect(path, isolation_level=None)) as db:
        for args in ("not json", "[1, 2]", '{"section": 7}', '{"path": null}', '{"query": 1}'):
            for command in ("show", "open", "search"):
                db.execute(
                    "INSERT INTO access_log (timestamp, run_id, command, skill, skill_path, cwd,"
                    " args, error) VALUES ('2026-01-30T10:00:00Z', 'r', ?, 'demo', ?, '/w', ?, ?)",
                    (command, str(demo.source), args, None if command != "open" else "boom"),
                )
    for query in QUERY_TYPES:
        query_stats(demo, layout, group_by=query)
    assert query_stats(demo, layout, group_by="sections")["data"] == [
        {"section": "Usage", "file": "SKILL.md", "count": 1}
    ]
    assert {e["target"] for e in query_stats(demo, layout, group_by="errors")["data"]} == {"demo"}


def insert_raw(
    path: Path, skill: ResolvedSkill, command: str, args: str, error: str | None
) -> None:
    with closing(sqlite3.connect(path, isolation_level=None)) as db:
        db.execute(
            "INSERT INTO access_log (timestamp, run_id, command, skill, skill_path, cwd, args,"
            " error) VALUES ('2026-01-30T10:00:00Z', 'r', ?, 'demo', ?, '/w', ?, ?)",
            (command, str(skill.source), args, error),
        )


DEEP_ARGS = '{"section": ' + "[" * 200_000 + "]" * 200_000 + "}"


def test_rows_with_args_too_deep_or_too_large_are_skipped_and_counted(
    demo: ResolvedSkill, layout: Layout, log_rows: Log, stats_cli: Callable[..., Any]
) -> None:
    """Deep ``args`` (any teammate can write a team store's rows) were E999 RecursionError
    for every query that reads args; now such a row is read for nothing and counted."""
    path = log_rows(show(demo, "Usage"))
    large = '{"query": "' + "x" * (2 << 20) + '"}'
    insert_raw(path, demo, "show", DEEP_ARGS, None)
    insert_raw(path, demo, "search", DEEP_ARGS, "error[E004]: empty query")
    insert_raw(path, demo, "search", large, None)
    for query in QUERY_TYPES:
        query_stats(demo, layout, group_by=query)
    assert query_stats(demo, layout, group_by="sections")["data"] == [
        {"section": "Usage", "file": "SKILL.md", "count": 1}
    ]
    assert query_stats(demo, layout, group_by="search")["data"] == []
    errors = query_stats(demo, layout, group_by="errors")["data"]
    assert [(e["target"], e["command"]) for e in errors] == [("demo", "search")]
    for args in (("stats", "demo"), ("stats", "demo", "--group-by", "search", "--format", "json")):
        result = stats_cli(*args)
        assert result.returncode == 0, result.stderr
        assert result.stderr == (
            "warning: 3 rows of the log skipped: args that are not JSON, larger than 1 MiB or "
            "nested deeper than 64 levels (counted as accesses, read for nothing else)\n"
        )
    assert "Total accesses: 6" in stats_cli("stats", "demo").stdout  # 4 + the 2 stats runs


def test_the_summary_keeps_no_search_in_memory(
    demo: ResolvedSkill, layout: Layout, log_rows: Log
) -> None:
    """Every distinct ``(command, args)`` group was held (300,000 distinct searches: 125 MB)
    for counts: the groups are read one at a time, and only those whose ``args`` the
    summary reads (successful shows, opens and reads, activations) are kept."""
    from skillc_stats._stats import prepare

    searches = [record(demo, "search", {"query": f"q {n}"}) for n in range(50)]
    failed = [record(demo, "show", {"section": f"S{n}"}, error="E001") for n in range(20)]
    log_rows(show(demo, "Usage"), *searches, *failed)
    insert_raw(primary_log(demo.runtime), demo, "search", DEEP_ARGS, None)
    with prepare(demo, layout, "summary", None, None, ()) as query:
        data = query.summary()
        assert (data["total_accesses"], data["error_count"], query.skipped_rows) == (72, 20, 1)
        assert [(command, count) for command, _, count, _ in query._by_args[1]] == [("show", 1)]


def test_unknown_query_type_is_e030(demo: ResolvedSkill, layout: Layout) -> None:
    with pytest.raises(InvalidQueryType) as caught:
        query_stats(demo, layout, group_by="searches")
    first, hint = str(caught.value).splitlines()
    assert first == "error[E030]: invalid query type: 'searches'"  # RFC-0005, unchanged
    assert hint == f"hint: valid query types: {', '.join(QUERY_TYPES)}"
    assert "--" not in hint  # a library message names no CLI flag
    assert caught.value.valid == QUERY_TYPES


def test_malformed_filter_is_e031(demo: ResolvedSkill, layout: Layout) -> None:
    with pytest.raises(MalformedFilter) as caught:
        query_stats(demo, layout, since="last week")
    assert caught.value.option == "since"
    with pytest.raises(MalformedFilter) as caught:
        query_stats(demo, layout, projects=[""])
    assert caught.value.option == "project"
    with pytest.raises(EmptyTimeRange):
        query_stats(demo, layout, since="2026-02-01", until="2026-01-01")


def test_a_filter_of_the_wrong_type_is_e031_not_a_type_error(layout: Layout) -> None:
    """``users=5`` (no list) and ``projects=[5]`` (no path) were bare TypeErrors."""
    from skillc_stats import query_all

    for filters, option, shown in [
        ({"users": 5}, "user", "'5' is neither a user name nor a list (int)"),
        ({"users": None}, "user", "'None' is neither a user name nor a list (NoneType)"),
        ({"projects": 5}, "project", "'5' is neither a path nor a list (int)"),
        ({"projects": [5]}, "project", "'5' is not a path (int)"),
        ({"machines": ["ci", 5]}, "machine", "'5' is not a machine name (int)"),
    ]:
        with pytest.raises(MalformedFilter, match=re.escape(shown)) as caught:
            query_all(layout, store="postgresql://u@127.0.0.1:1/x", **filters)
        assert caught.value.option == option


def test_the_other_arguments_of_the_wrong_type_are_typed_errors(
    demo: ResolvedSkill, layout: Layout
) -> None:
    """``by="year"`` was taken (grouped by day), ``group_by=5``, ``targets=5``,
    ``project=5`` and ``claude_folder=5`` were bare TypeErrors or AttributeErrors."""
    from skillc_index import InvalidOption
    from skillc_index.accesslog.errors import NoSyncFolder
    from skillc_stats import query_all, sync_logs, sync_transcripts

    for by, shown in [("year", "'year'"), (5, "int")]:
        with pytest.raises(InvalidOption, match=f"by must be day, week or month, not {shown}"):
            query_all(layout, by=by)
    for targets in (5, {"x": 5}):
        with pytest.raises(InvalidOption, match="targets must map target names to folders"):
            query_all(layout, targets=targets)
    with pytest.raises(InvalidQueryType, match=r"invalid query type: '5'"):
        query_stats(demo, layout, group_by=5)
    with pytest.raises(InvalidOption, match="skill must be a name or a path, not int"):
        query_stats(5, layout)
    with pytest.raises(NoSyncFolder, match="project '5' is not a folder"):
        sync_logs(project=5)
    with pytest.raises(NoSyncFolder, match="claude_folder '5' is not a folder"):
        sync_transcripts(claude_folder=5)


def test_a_team_store_or_upload_argument_that_is_no_str_is_e100_named_as_the_api_names_it(
    demo: ResolvedSkill, layout: Layout
) -> None:
    """``store=5`` and ``upload_logs(5)`` were a bare AttributeError, ``user=5`` a TypeError;
    and the API said the user filter needs a team store ``(from)``, the tool's name of its
    ``store``."""
    from skillc_index import InvalidOption
    from skillc_stats import query_all, upload_logs

    url = "must be a postgresql:// URL, not int"
    with pytest.raises(InvalidOption, match=f"store {url}"):
        query_stats(demo, layout, store=5)
    with pytest.raises(InvalidOption, match=f"store {url}"):
        query_all(layout, by="day", store=5)
    with pytest.raises(InvalidOption, match=f"url {url}"):
        upload_logs(5, layout)
    for name in ("user", "machine"):
        with pytest.raises(InvalidOption, match=f"{name} must be a name, not int"):
            upload_logs("postgresql://127.0.0.1:1/x", layout, **{name: 5})
    with pytest.raises(InvalidOption, match=r"need a team store \(store\)'$"):
        query_all(layout, users="bob")


def test_unreadable_log_is_e999(demo: ResolvedSkill, layout: Layout) -> None:
    path = primary_log(demo.runtime)
    path.parent.mkdir(parents=True)
    path.write_bytes(b"this is not a database" * 100)
    with pytest.raises(UnreadableFile, match=r"^error\[E999\]: cannot read access log '") as caught:
        query_stats(demo, layout)
    assert caught.value.path == str(path)


@pytest.mark.parametrize(
    ("script", "what"),
    [
        (
            "ALTER TABLE access_log RENAME TO real_log; "
            "CREATE VIEW access_log AS SELECT * FROM real_log",
            "view 'access_log'",
        ),
        ("CREATE TRIGGER t AFTER DELETE ON access_log BEGIN SELECT 1; END", "trigger 't'"),
    ],
)
def test_a_log_that_is_not_skillcs_is_e999_naming_it(
    demo: ResolvedSkill, layout: Layout, log_rows: Log, script: str, what: str
) -> None:
    """Before: a view named ``access_log`` was read as the log (whatever it computes)."""
    path = log_rows(show(demo, "Installation"))
    with closing(sqlite3.connect(path)) as db:
        db.executescript(script)
    with pytest.raises(InternalError) as caught:
        query_stats(demo, layout)
    assert str(caught.value) == (
        f"error[E999]: cannot read access log '{path}': unsafe to read ({what})"
    )


@pytest.mark.parametrize("link", ["logs.db", ".skillc-meta"])
def test_a_log_symlinked_out_of_the_project_is_read_without_writing_there(
    demo: ResolvedSkill, layout: Layout, log_rows: Log, tmp_path: Path, link: str
) -> None:
    """A checkout shipping ``logs.db`` (or its ``.skillc-meta``) as a symlink to a database
    outside had it rewritten by ``skc stats``: the read opened it read-write, and its close
    checkpointed the database and deleted its ``-wal`` and ``-shm``. Such a log (the one
    writes refuse) is read read-only: the database outside is left byte for byte."""
    import subprocess
    import sys

    path = log_rows(show(demo, "Usage"))
    outside = tmp_path / "outside" / ".skillc-meta"
    outside.mkdir(parents=True)
    victim = outside / "logs.db"
    victim.write_bytes(path.read_bytes())
    # its writer killed: a committed row left in its -wal
    script = (
        "import os, sqlite3, sys; c = sqlite3.connect(sys.argv[1], isolation_level=None); "
        "c.execute('PRAGMA journal_mode=WAL'); c.execute('PRAGMA wal_autocheckpoint=0'); "
        "c.execute('CREATE TABLE note(x)'); c.execute(\"INSERT INTO note VALUES ('wal')\"); "
        "os._exit(0)"
    )
    subprocess.run([sys.executable, "-c", script, str(victim)], check=True)

    def files() -> dict[str, bytes]:  # (a read-only open may touch -shm, as it always did)
        return {f.name: f.read_bytes() for f in outside.iterdir() if f.name != "logs.db-shm"}

    before = files()
    assert "logs.db-wal" in before
    if link == "logs.db":
        path.unlink()
        path.symlink_to(victim)
    else:
        for file in path.parent.iterdir():
            file.unlink()
        path.parent.rmdir()
        path.parent.symlink_to(outside)
    assert query_stats(demo, layout)["data"]["total_accesses"] == 1
    assert files() == before
