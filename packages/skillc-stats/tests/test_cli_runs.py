"""``skillc-stats stats`` and ``skillc-stats sync`` as processes, over real logs."""

from __future__ import annotations

import json
import subprocess
from collections.abc import Callable
from pathlib import Path

from skillc_index import ResolvedSkill

from .conftest import record

Run = Callable[..., "subprocess.CompletedProcess[str]"]


def test_stats_json_and_text(
    demo: ResolvedSkill, log_rows: Callable[..., Path], stats_cli: Run
) -> None:
    log_rows(
        record(demo, "show", {"section": "Usage", "file": None, "max_lines": None}),
        record(demo, "search", {"query": "install", "result_count": 1, "limit": 10}),
    )
    text = stats_cli("stats", "demo").stdout
    assert "Total accesses: 2\n" in text and "1. Usage (SKILL.md, 1 access)\n" in text
    # RFC-0003:C-CLI: the text conveys what the JSON does, the skill's path too
    assert text.splitlines()[1] == f"Skill path: {demo.source}"
    for group_by in ("sections", "errors"):
        lines = stats_cli("stats", "demo", "--group-by", group_by).stdout.splitlines()
        assert lines[1] == f"Skill path: {demo.source}"
    result = stats_cli("stats", "demo", "--group-by", "sections", "--format", "json")
    assert result.returncode == 0, result.stderr
    assert json.loads(result.stdout)["data"] == [
        {"section": "Usage", "file": "SKILL.md", "count": 1}
    ]


def test_stats_errors(demo: ResolvedSkill, stats_cli: Run) -> None:
    result = stats_cli("stats", "demo", "--group-by", "nope")
    assert result.returncode == 1 and result.stdout == ""
    assert result.stderr == (
        "error[E030]: invalid query type: 'nope'\n"
        "hint: valid query types: summary, sections, files, commands, projects, errors, search\n"
    )
    # an unknown query type is E030 with the list, not "leave out --group-by"
    for others in (["demo", "--html", "p.html"], ["demo", "--by", "day"], ["--all"]):
        result = stats_cli("stats", *others, "--group-by", "bogus")
        assert result.returncode == 1 and result.stdout == "", others
        assert result.stderr.startswith("error[E030]: invalid query type: 'bogus'\n"), others
        assert "hint: valid query types: summary, sections," in result.stderr
    for skill in (["demo"], ["--all"]):  # the same error for one skill and for all
        result = stats_cli("stats", *skill, "--by", "day", "--group-by", "files")
        assert result.returncode == 1 and result.stdout == ""
        assert result.stderr == (
            "error[E100]: invalid option: "
            "'--by is its own report, the uses over time: leave out --group-by'\n"
            "Try 'skillc-stats stats --help' for help.\n"
        )
    result = stats_cli("stats", "demo", "--since", "soon")
    assert result.returncode == 1
    assert result.stderr.startswith("error[E031]: invalid filter: '--since 'soon' is not a time")


def test_sync(
    demo: ResolvedSkill,
    log_rows: Callable[..., Path],
    fallback_of: Callable[[str], Path],
    stats_cli: Run,
) -> None:
    assert stats_cli("sync").stdout == "No local logs to sync\n"
    log_rows(record(demo, "outline", {}), to=fallback_of("demo"))
    assert stats_cli("sync", "--dry-run").stdout == "Would sync 1 entries for 'demo'\n"
    assert stats_cli("sync").stdout == "Synced 1 entries for 'demo' (local logs removed)\n"
    result = stats_cli("sync", "demo")
    assert result.returncode == 1 and result.stderr == "error[E040]: no local logs found\n"


def test_sync_leaves_a_newer_skillcs_fallback_and_exits_1(
    demo: ResolvedSkill,
    log_rows: Callable[..., Path],
    fallback_of: Callable[[str], Path],
    cli: Callable[..., Run],
) -> None:
    """The installed ``skc sync`` over a fallback log a newer skillc wrote: E042 saying so,
    exit 1, no traceback, the log kept byte for byte (it was merged and removed, exit 0)."""
    import sqlite3
    from contextlib import closing

    source = log_rows(record(demo, "outline", {}), to=fallback_of("demo"))
    with closing(sqlite3.connect(source)) as db:
        db.executescript("CREATE TABLE future_notes (x); PRAGMA user_version = 7;")
    before = source.read_bytes()
    result = cli("skillc-stats", script=True)("sync")
    assert (result.returncode, result.stdout) == (1, "")
    assert result.stderr == (
        "error[E042]: sync source not readable: '.skillc/logs/demo/.skillc-meta/logs.db'\n"
        "hint: written by a newer skillc (access log schema 7; this skillc reads 6): "
        "upgrade skillc\n"
    )
    assert source.read_bytes() == before


def test_a_process_older_than_the_installed_skillc_says_to_restart(
    demo: ResolvedSkill,
    log_rows: Callable[..., Path],
    fallback_of: Callable[[str], Path],
    cli: Callable[..., Run],
    clean_env: dict[str, str],
    tmp_path: Path,
) -> None:
    """The same log, read by a process whose skillc-index is older than the one installed
    (a server started before an upgrade): upgrading would not help, restarting it does."""
    import os
    import sqlite3
    from contextlib import closing

    import skillc_index

    source = log_rows(record(demo, "outline", {}), to=fallback_of("demo"))
    with closing(sqlite3.connect(source)) as db:
        db.executescript("CREATE TABLE future_notes (x); PRAGMA user_version = 7;")
    info = tmp_path / "installed" / "skillc_index-9.0.0.dist-info"  # the upgrade's metadata
    info.mkdir(parents=True)
    (info / "METADATA").write_text("Metadata-Version: 2.1\nName: skillc-index\nVersion: 9.0.0\n")
    path = os.pathsep.join(filter(None, [str(info.parent), clean_env.get("PYTHONPATH")]))
    result = cli("skillc-stats", script=True)("sync", env_extra={"PYTHONPATH": path})
    assert (result.returncode, result.stdout) == (1, "")
    assert result.stderr == (
        "error[E042]: sync source not readable: '.skillc/logs/demo/.skillc-meta/logs.db'\n"
        "hint: written by a newer skillc (access log schema 7; this skillc reads 6): "
        f"this process runs skillc-index {skillc_index.__version__} but 9.0.0 is installed: "
        "restart it\n"
    )
