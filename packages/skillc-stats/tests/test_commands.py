"""``skc stats`` and ``skc sync`` are made from their operations (issue 33): the record is
the one spec of each command's parameters, the shapes the one spec of their JSON, and
``sync`` is an operation that the MCP server does not serve."""

from __future__ import annotations

import json
import subprocess
import sys
from collections.abc import Callable
from pathlib import Path
from typing import Any

import jsonschema
import pytest

from skillc_index import CLI_SPELLING, MCP_SPELLING, InvalidOption, Layout, ResolvedSkill
from skillc_index.console import cli_session
from skillc_index.operation import Operation, Session, fields
from skillc_stats.cli_stats import stats_command
from skillc_stats.cli_sync import sync_command
from skillc_stats.operations import (
    OPERATIONS,
    PRUNE,
    STATS,
    SYNC,
    StatsParams,
    SyncParams,
)

from .conftest import record

Run = Callable[..., "subprocess.CompletedProcess[str]"]


@pytest.mark.parametrize(
    ("operation", "command"), [(STATS, stats_command), (SYNC, sync_command)], ids=["stats", "sync"]
)
def test_the_command_has_the_records_fields(operation: Operation[Any, Any], command: Any) -> None:
    names = [p.name for p in command.params]
    record = [name for name, _hint, _meta in fields(operation.params)]
    assert names == [*record, "output_format", "verbose"]  # in the record's order
    assert set(operation.cli_only) <= set(record)  # nothing declared by hand


def test_sync_is_an_operation_but_no_tool() -> None:
    """The MCP server serves the operations without a ``no_tool`` reason (skillc-mcp's tests
    check its tool list)."""
    assert [operation.name for operation in OPERATIONS] == ["stats", "sync", "stats prune"]
    assert STATS.no_tool is None and SYNC.no_tool and PRUNE.no_tool


@pytest.fixture
def session(layout: Layout, home: Path, project: Path, monkeypatch: pytest.MonkeyPatch) -> Session:
    """A CLI session in the test's project and home (the operations run in this process)."""
    monkeypatch.setenv("SKILLC_HOME", str(home))
    monkeypatch.chdir(project)
    return cli_session(layout)


def test_the_parameters_are_named_as_each_front_end_spells_them(
    session: Session, demo: ResolvedSkill
) -> None:
    for operation, params, api, cli in [
        (
            SYNC,
            SyncParams(from_="claude-code", to="team"),
            "use one of from and to (import, then upload)",
            "use one of --from and --to (import, then upload)",
        ),
        (
            SYNC,
            SyncParams(claude_dir="."),
            "claude_dir goes with from claude-code",
            "--claude-dir goes with --from claude-code",
        ),
        (
            SYNC,
            SyncParams("demo", to="team"),
            "to uploads every log: it takes no skill and no dry_run",
            "--to uploads every log: it takes no SKILL and no --dry-run",
        ),
        (STATS, StatsParams("demo", all_=True), "give either skill or all", None),
        (
            STATS,
            StatsParams(group_by="files"),
            "every skill at once has one report: leave out group_by",
            "every skill at once has one report: leave out --group-by",
        ),
        *(  # --by takes no --group-by, for one skill as for all (it was ignored for one)
            (
                STATS,
                params,
                "by is its own report, the uses over time: leave out group_by",
                "--by is its own report, the uses over time: leave out --group-by",
            )
            for params in (
                StatsParams("demo", by="day", group_by="files"),
                StatsParams(by="week", group_by="sections"),
            )
        ),
        *(  # the MCP tool was told of --from, the command line's option (its own: from,
            # below), the Python API of from, its tool's name (its own: store)
            (
                STATS,
                params,
                "the user and machine filters need a team store (store)",
                "the user and machine filters need a team store (--from)",
            )
            for params in (StatsParams("demo", user=("alice",)), StatsParams(machine=("m1",)))
        ),
    ]:
        with pytest.raises(InvalidOption) as caught:
            operation.run(session, params)
        assert caught.value.diagnostic.params["message"] == api
        if cli is not None:
            assert caught.value.spelled(CLI_SPELLING).params["message"] == cli
    with pytest.raises(InvalidOption) as caught:
        STATS.run(session, StatsParams("demo", user=("alice",)))
    assert caught.value.spelled(MCP_SPELLING).params["message"] == (
        "the user and machine filters need a team store (from)"
    )


def test_stats_without_skill_or_all(stats_cli: Run, session: Session) -> None:
    """The command line asks for SKILL or --all; the API and the tool take a left-out skill
    for every skill."""
    result = stats_cli("stats")
    assert result.returncode == 1
    assert result.stderr == (
        "error[E100]: invalid option: 'missing SKILL (or --all)'\n"
        "Try 'skillc-stats stats --help' for help.\n"
    )
    assert STATS.run(session, StatsParams()).to_dict()["query"] == "all"


def test_a_bounded_reply_fits_the_rows(
    demo: ResolvedSkill, log_rows: Callable[..., Path], layout: Layout, session: Session
) -> None:
    """The tool's rows had no bound (400 searches of one skill: 412,925 characters; 562
    skills: 107,812): the first rows that fit, with a warning; the command line has them
    all."""
    from skillc_index.accesslog import AccessLog

    query = "word " * 50
    log_rows(*(record(demo, "search", {"query": f"q{n} {query}"}) for n in range(40)))
    params = StatsParams(skill="demo", group_by="search")
    whole = STATS.run(session, params).to_dict()
    assert len(whole["data"]) == 40
    bound = len(json.dumps(whole, ensure_ascii=False)) // 2
    bounded = STATS.run(Session(layout, AccessLog(lambda _: None), reply_chars=bound), params)
    data = bounded.to_dict()
    assert len(json.dumps(data, ensure_ascii=False)) <= bound
    rows = data["data"]
    assert 0 < len(rows) < 40 and rows == whole["data"][: len(rows)]
    [warning] = bounded.warnings
    assert warning.text.startswith(f"stats cut at {len(rows)} of 40 rows (the reply's limit")


def test_a_bounded_trend_keeps_the_newest_periods(
    demo: ResolvedSkill, log_rows: Callable[..., Path], layout: Layout, session: Session
) -> None:
    """``--all --by day`` cut to the reply's bound dropped the last items of ``periods``
    (oldest first): the newest, which ``last`` and ``change`` describe, went, and each
    skill's ``by_period`` kept every value. The newest periods stay, each series cut to them."""
    from skillc_index.accesslog import AccessLog

    show = {"section": "Usage", "file": None, "max_lines": None}
    days = [f"2026-03-{day:02d}T10:00:00Z" for day in range(1, 31)]
    log_rows(*(record(demo, "show", show, timestamp=time) for time in days))
    params = StatsParams(by="day", until="2026-03-30")
    whole = STATS.run(session, params).to_dict()
    periods = whole["data"]["periods"]
    assert len(periods) == 30
    bound = len(json.dumps(whole, ensure_ascii=False)) * 2 // 3
    bounded = STATS.run(Session(layout, AccessLog(lambda _: None), reply_chars=bound), params)
    data = bounded.to_dict()["data"]
    kept = data["periods"]
    assert 0 < len(kept) < 30 and kept == periods[-len(kept) :]
    assert all(len(skill["by_period"]) == len(kept) for skill in data["skills"])


def test_json_is_the_shape(
    demo: ResolvedSkill,
    log_rows: Callable[..., Path],
    fallback_of: Callable[[str], Path],
    stats_cli: Run,
    tmp_path: Path,
) -> None:
    log_rows(record(demo, "show", {"section": "Usage", "file": None, "max_lines": None}))
    log_rows(record(demo, "outline", {}), to=fallback_of("demo"))
    projects = tmp_path / "claude" / "projects"
    projects.mkdir(parents=True)
    runs = [
        ("stats", "demo"),
        ("stats", "demo", "--group-by", "sections"),
        ("stats", "--all"),
        ("sync", "--dry-run"),
        ("sync",),
        ("sync", "--from", "claude-code", "--claude-dir", str(tmp_path / "claude")),
    ]
    for args in runs:
        result = stats_cli(*args, "--format", "json")
        assert result.returncode == 0, (args, result.stderr)
        schema = (STATS if args[0] == "stats" else SYNC).output_schema()
        jsonschema.validate(json.loads(result.stdout), schema)


def test_a_failed_skill_fails_sync_in_json_too(
    demo: ResolvedSkill,
    log_rows: Callable[..., Path],
    fallback_of: Callable[[str], Path],
    stats_cli: Run,
) -> None:
    log_rows(record(demo, "outline", {}), to=fallback_of("demo"))
    broken = fallback_of("broken")
    broken.parent.mkdir(parents=True)
    broken.write_bytes(b"this is not an SQLite database " * 40)
    for output in ("text", "json"):
        result = stats_cli("sync", "--format", output)
        assert result.returncode == 1, output
        assert result.stderr.startswith("error[E042]: sync source not readable: "), output
    report = json.loads(result.stdout)
    assert [skill["skill"] for skill in report["skills"]] == ["broken"]
    # the error as batch build's and skillc-lint's: {"code", "message"} (diagnostic_json)
    error = report["skills"][0]["error"]
    assert error["code"] == "E042" and error["message"].startswith("sync source not readable: ")
    assert set(error) <= {"code", "message", "detail"}
    jsonschema.validate(report, SYNC.output_schema())


def test_an_upload_that_fails_shows_the_merge_before_it(
    demo: ResolvedSkill,
    log_rows: Callable[..., Path],
    fallback_of: Callable[[str], Path],
    stats_cli: Run,
    tmp_path: Path,
) -> None:
    """The fallback logs are merged before the upload: when the store then cannot be
    reached, the text says what was merged, then E043; JSON has no upload to show."""
    url = f"postgresql://me@/db?host={tmp_path}&port=1"
    for output, shown in [
        ("text", "Synced 1 entries for 'demo' (local logs removed)\n"),
        ("json", ""),
    ]:
        log_rows(record(demo, "outline", {}), to=fallback_of("demo"))
        result = stats_cli("sync", "--to", url, "--format", output)
        assert result.returncode == 1
        assert result.stdout == shown
        assert result.stderr.startswith("error[E043]: team store unavailable: ")


def test_the_group_loads_the_named_commands_module_only(project: Path) -> None:
    probe = (
        "import sys\n"
        "from skillc_stats.cli import main\n"
        "main(sys.argv[1:])\n"
        "print(' '.join(m for m in sys.modules if m.startswith('skillc_stats')))\n"
    )
    loaded = {}
    for command in ("stats", "sync"):
        result = subprocess.run(
            [sys.executable, "-c", probe, command, "--help"],
            cwd=project,
            capture_output=True,
            text=True,
            timeout=60,
            check=True,
        )
        loaded[command] = set(result.stdout.splitlines()[-1].split())
    assert "skillc_stats.cli_stats" in loaded["stats"] - loaded["sync"]
    assert "skillc_stats.cli_sync" in loaded["sync"] - loaded["stats"]
    assert not {m for m in loaded["stats"] | loaded["sync"] if m.startswith("skillc_stats._")}
