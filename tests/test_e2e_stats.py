"""``skc stats`` (RFC-0003) and ``skc sync`` (RFC-0007:C-SYNC) end to end, through the installed
``skc``: real commands write the access log, real SQLite holds it, real processes read it.

Rows with chosen timestamps and working folders (for the filters) are added to a log that a
real command created, with plain SQL, exactly as the log writer stores them.
"""

from __future__ import annotations

import json
import sqlite3
import subprocess
from collections.abc import Callable
from contextlib import closing
from pathlib import Path
from typing import Any

import pytest

Run = Callable[..., "subprocess.CompletedProcess[str]"]

SKILL_MD = """---
name: demo
description: A demo skill for analytics tests. Use when testing skc stats.
---

# Demo

## Installation

Install it.

## Usage

Use it.

## Contributing

Help.
"""

API_MD = "# API\n\n## Endpoints\n\nGET and POST.\n"

COLUMNS = "timestamp, run_id, command, skill, skill_path, cwd, args, error"


def make_demo(ok: Run, project: Path) -> Path:
    """A built project skill ``demo``; returns its runtime log."""
    ok("init")
    ok("init", "demo")
    source = project / ".skillc" / "skills" / "demo"
    (source / "SKILL.md").write_text(SKILL_MD, encoding="utf-8")
    (source / "references").mkdir()
    (source / "references" / "api.md").write_text(API_MD, encoding="utf-8")
    ok("build", "demo")
    return project / ".skillc" / "runtime" / "demo" / ".skillc-meta" / "logs.db"


def source_of(project: Path) -> str:
    return str((project / ".skillc" / "skills" / "demo").resolve())


def add_rows(log: Path, rows: list[dict[str, Any]]) -> None:
    """Rows as the writer stores them: RFC 3339 UTC, JSON args (sorted keys)."""
    with closing(sqlite3.connect(log, isolation_level=None)) as db:
        db.executemany(
            f"INSERT INTO access_log ({COLUMNS}) VALUES (?, ?, ?, ?, ?, ?, ?, ?)",
            [
                (
                    row["timestamp"],
                    row.get("run_id", "run-1"),
                    row["command"],
                    "demo",
                    row["skill_path"],
                    row["cwd"],
                    json.dumps(row.get("args", {}), sort_keys=True),
                    row.get("error"),
                )
                for row in rows
            ],
        )


def log_rows(log: Path) -> list[tuple[Any, ...]]:
    with closing(sqlite3.connect(log)) as db:
        return db.execute(f"SELECT {COLUMNS} FROM access_log ORDER BY id").fetchall()


def stats_json(ok: Run, *args: str, **kwargs: Any) -> dict[str, Any]:
    proc = ok("stats", "demo", "--format", "json", *args, **kwargs)
    data = json.loads(proc.stdout)
    assert isinstance(data, dict)
    return data


def fails(skc: Run, *args: str, **kwargs: Any) -> str:
    """Run a command that must fail: exit 1, one diagnostic line first on stderr, no
    traceback, nothing on stdout. Returns that first line."""
    proc = skc(*args, **kwargs)
    assert proc.returncode == 1, proc
    assert proc.stdout == ""
    assert "Traceback" not in proc.stderr
    return proc.stderr.splitlines()[0]


# -- stats: every query type, from real accesses ----------------------------------------------


@pytest.fixture
def used_demo(ok: Run, skc: Run, project: Path) -> Path:
    """``demo`` after an agent's session: shows, a failed show, an open, searches, an outline."""
    log = make_demo(ok, project)
    ok("show", "demo", "--section", "installation")
    ok("show", "demo", "--section", "Installation")
    ok("show", "demo", "--section", "Usage — how to use it")
    ok("show", "demo", "--section", "Endpoints", "--file", "references/api.md")
    assert skc("show", "demo", "--section", "Nope").returncode == 1
    ok("open", "demo", "references/api.md")
    ok("search", "demo", "install")
    ok("search", "demo", "install")
    ok("search", "demo", "endpoints")
    ok("outline", "demo")
    return log


def test_summary_json(used_demo: Path, ok: Run, project: Path) -> None:
    response = stats_json(ok)
    assert response["skill"] == "demo"
    assert response["skill_path"] == source_of(project)
    assert response["query"] == "summary"
    assert response["filters"] == {"since": None, "until": None, "projects": []}
    assert response["period"]["start"] <= response["period"]["end"]
    assert response["data"] == {
        "total_accesses": 11,  # build, 5 shows, open, 3 searches, outline
        "uses": 9,  # every access but the author's build and the failed show
        "failed_uses": 1,  # `show --section Nope` (E020): read nothing, no use
        "author_activity": 1,
        "unique_sections": 3,
        "unique_files": 2,
        "error_count": 1,
        "activations_by_user": 0,
        "activations_by_model": 0,
    }


def test_summary_text_follows_the_guide(used_demo: Path, ok: Run, project: Path) -> None:
    out = ok("stats", "demo").stdout
    # the skill's path, as the JSON's skill_path (RFC-0003:C-CLI: text conveys what JSON does)
    heading = f"demo usage statistics (all time)\nSkill path: {source_of(project)}\nPeriod: "
    assert out.startswith(heading)
    assert (
        "Total accesses: 11\nUses: 9\nFailed reads: 1 (not uses)\nAuthor activity: 1\n"
        "Unique sections: 3\nUnique files: 2\nErrors: 1\n"
    ) in out
    assert (
        "Top sections:\n"
        "1. Installation (SKILL.md, 2 accesses)\n"
        "2. Usage (SKILL.md, 1 access)\n"
        "3. Endpoints (references/api.md, 1 access)\n"
    ) in out
    assert "Unused sections:\n- Demo (SKILL.md)\n- Contributing (SKILL.md)\n- API (refer" in out
    assert out.endswith(
        "Access by command:\nshow: 5\nsearch: 3\nopen: 1\noutline: 1\n"
        "\nAuthor activity (not uses):\nbuild: 1\n"
    )


def test_sections(used_demo: Path, ok: Run) -> None:
    assert stats_json(ok, "--group-by", "sections")["data"] == [
        {"section": "Installation", "file": "SKILL.md", "count": 2},
        {"section": "Usage", "file": "SKILL.md", "count": 1},
        {"section": "Endpoints", "file": "references/api.md", "count": 1},
    ]
    out = ok("stats", "demo", "--group-by", "sections").stdout.splitlines()
    assert out[0] == "demo usage statistics: sections (all time)"
    assert out[4:] == [
        "COUNT  SECTION       FILE",
        "    2  Installation  SKILL.md",
        "    1  Usage         SKILL.md",
        "    1  Endpoints     references/api.md",
    ]


def test_files(used_demo: Path, ok: Run) -> None:
    assert stats_json(ok, "--group-by", "files")["data"] == [
        {"file": "SKILL.md", "count": 3},
        {"file": "references/api.md", "count": 2},
    ]
    out = ok("stats", "demo", "--group-by", "files").stdout.splitlines()
    assert out[4:] == ["COUNT  FILE", "    3  SKILL.md", "    2  references/api.md"]


def test_commands(used_demo: Path, ok: Run) -> None:
    data = stats_json(ok, "--group-by", "commands")["data"]
    assert data == {"show": 5, "search": 3, "build": 1, "open": 1, "outline": 1}
    data = stats_json(ok, "--group-by", "commands")["data"]
    assert data["stats"] == 1  # stats logs its own access, after answering
    out = ok("stats", "demo", "--group-by", "commands").stdout.splitlines()
    assert out[4:6] == ["COUNT  COMMAND  KIND", "    5  show     use"]
    assert "    1  build    author activity" in out


def test_projects(used_demo: Path, ok: Run, project: Path) -> None:
    data = stats_json(ok, "--group-by", "projects")["data"]
    # uses: not the build, nor stats, nor the failed show
    assert data == [{"project": str(project), "count": 9}]
    out = ok("stats", "demo", "--group-by", "projects").stdout.splitlines()
    assert out[4:] == ["COUNT  PROJECT", f"    9  {project}"]


def test_errors(used_demo: Path, ok: Run) -> None:
    error = "error[E020]: section not found: 'Nope'"
    assert stats_json(ok, "--group-by", "errors")["data"] == [
        {"target": "Nope", "command": "show", "error": error, "count": 1}
    ]
    out = ok("stats", "demo", "--group-by", "errors").stdout.splitlines()
    assert out[4:] == ["COUNT  COMMAND  TARGET  ERROR", f"    1  show     Nope    {error}"]


def test_an_error_is_logged_as_the_command_said_it(used_demo: Path, ok: Run, skc: Run) -> None:
    """The ``error`` column is the line the command printed: a command-line failure names
    its options as the command line does (``--since``), where it logged the API's names
    (``since '1.5d' ...``) under the line the user saw."""
    said = skc("stats", "demo", "--since", "1.5d").stderr.splitlines()[0]
    assert said.startswith("error[E031]: invalid filter: '--since '1.5d' is not a time")
    errors = stats_json(ok, "--group-by", "errors")["data"]
    assert [row["error"] for row in errors if row["command"] == "stats"] == [said]


def test_search(used_demo: Path, ok: Run) -> None:
    assert stats_json(ok, "--group-by", "search")["data"] == [
        {"query": "install", "count": 2},
        {"query": "endpoints", "count": 1},
    ]
    out = ok("stats", "demo", "--group-by", "search").stdout.splitlines()
    assert out[4:] == ["COUNT  QUERY", "    2  install", "    1  endpoints"]


def test_empty_results_are_not_errors(ok: Run, project: Path) -> None:
    ok("init")
    ok("init", "demo")  # never built, never read: no log at all
    response = stats_json(ok)
    assert response["data"] == {
        "total_accesses": 0,
        "uses": 0,
        "failed_uses": 0,
        "author_activity": 0,
        "unique_sections": 0,
        "unique_files": 0,
        "error_count": 0,
        "activations_by_user": 0,
        "activations_by_model": 0,
    }
    assert response["period"] == {"start": None, "end": None}
    for query, empty in (("sections", []), ("files", []), ("projects", [])):
        assert stats_json(ok, "--group-by", query, "--since", "2999-01-01")["data"] == empty
    out = ok("stats", "demo", "--group-by", "errors", "--until", "2000-01-01").stdout
    assert out.endswith("Period: no accesses\n\nNo errors.\n")
    out = ok("stats", "demo", "--since", "2999-01-01").stdout
    assert "Total accesses: 0\n" in out and "Top sections: none\n" in out


# -- stats: filters ----------------------------------------------------------------------------


@pytest.fixture
def dated_demo(ok: Run, project: Path, tmp_path: Path) -> dict[str, Path]:
    """``demo`` whose log holds shows at known times from known folders."""
    log = make_demo(ok, project)
    with closing(sqlite3.connect(log, isolation_level=None)) as db:
        db.execute("DELETE FROM access_log")  # only the rows below
    code = tmp_path.resolve() / "code"
    folders = {
        "web": code / "web",
        "web_src": code / "web" / "src",
        "webapp": code / "webapp",
        "cli": code / "cli",
    }
    for folder in folders.values():
        folder.mkdir(parents=True, exist_ok=True)
    (tmp_path / "link").symlink_to(code)
    source = source_of(project)

    def show(stamp: str, cwd: Path, section: str) -> dict[str, Any]:
        return {
            "timestamp": stamp,
            "command": "show",
            "skill_path": source,
            "cwd": str(cwd),
            "args": {"section": section, "file": None, "max_lines": None},
        }

    add_rows(
        log,
        [
            show("2026-01-09T23:59:59Z", folders["web"], "Installation"),
            show("2026-01-10T00:00:00Z", folders["web_src"], "Installation"),
            show("2026-01-15T12:00:00Z", folders["webapp"], "Usage"),
            show("2026-01-20T00:00:00Z", folders["cli"], "Usage"),
            show("2026-01-20T00:00:01Z", folders["web"], "Contributing"),
        ],
    )
    return {"code": code, "link": tmp_path / "link", **folders}


def total(ok: Run, *args: str) -> int:
    """The ``show`` rows the filters keep (each ``skc stats`` adds a row of its own)."""
    return int(stats_json(ok, "--group-by", "commands", *args)["data"].get("show", 0))


def test_since_is_inclusive(dated_demo: dict[str, Path], ok: Run) -> None:
    assert total(ok, "--since", "2026-01-10") == 4  # a date: that day's start, UTC
    assert total(ok, "--since", "2026-01-10T00:00:00Z") == 4
    assert total(ok, "--since", "2026-01-10T00:00:01Z") == 3
    assert total(ok, "--since", "2026-01-10T01:00:00+01:00") == 4  # the same instant
    response = stats_json(ok, "--since", "2026-01-15", "--until", "2026-06-30")
    assert response["filters"]["since"] == "2026-01-15T00:00:00Z"
    assert response["period"] == {"start": "2026-01-15T12:00:00Z", "end": "2026-01-20T00:00:01Z"}


def test_until_is_inclusive(dated_demo: dict[str, Path], ok: Run, project: Path) -> None:
    assert total(ok, "--until", "2026-01-20") == 4  # up to 2026-01-20T00:00:00Z included
    assert total(ok, "--until", "2026-01-19T23:59:59Z") == 3
    assert total(ok, "--since", "2026-01-10", "--until", "2026-01-20") == 3
    out = ok("stats", "demo", "--since", "2026-01-10", "--until", "2026-01-20").stdout
    assert out.startswith(
        "demo usage statistics (2026-01-10T00:00:00Z to 2026-01-20T00:00:00Z)\n"
        f"Skill path: {source_of(project)}\n"
        "Period: 2026-01-10T00:00:00Z to 2026-01-20T00:00:00Z\n"
    )


def test_relative_since(dated_demo: dict[str, Path], ok: Run) -> None:
    assert total(ok, "--since", "7d") == 0  # the rows are from January 2026
    assert total(ok, "--since", "100000d") == 5


def test_filters_apply_before_aggregation(dated_demo: dict[str, Path], ok: Run) -> None:
    data = stats_json(ok, "--group-by", "sections", "--since", "2026-01-15")["data"]
    assert data == [
        {"section": "Usage", "file": "SKILL.md", "count": 2},
        {"section": "Contributing", "file": "SKILL.md", "count": 1},
    ]
    out = ok("stats", "demo", "--until", "2026-01-10").stdout
    assert "1. Installation (SKILL.md, 2 accesses)" in out
    assert "Unused sections:\n- Demo (SKILL.md)\n- Usage (SKILL.md)\n- Contributing" in out


def test_project_filter(dated_demo: dict[str, Path], ok: Run, project: Path) -> None:
    web, cli = str(dated_demo["web"]), str(dated_demo["cli"])
    data = stats_json(ok, "--group-by", "projects", "--project", web)["data"]
    assert data == [  # the folder and below it, not .../webapp
        {"project": web, "count": 2},
        {"project": str(dated_demo["web_src"]), "count": 1},
    ]
    assert total(ok, "--project", web, "--project", cli) == 4  # repeated: any of them
    assert total(ok, "--project", str(dated_demo["code"])) == 5
    assert total(ok, "--project", str(dated_demo["link"] / "web" / "src" / "..")) == 3
    assert total(ok, "--project", str(dated_demo["code"] / "nothing")) == 0
    response = stats_json(ok, "--project", str(dated_demo["link"] / "cli"), "--project", cli)
    assert response["filters"] == {"since": None, "until": None, "projects": [cli]}
    out = ok("stats", "demo", "--project", "../code/cli", cwd=project).stdout
    assert f"Projects: {cli}\n" in out and "Total accesses: 1\n" in out


def test_all_filters_together_on_every_query_type(dated_demo: dict[str, Path], ok: Run) -> None:
    args = ("--since", "2026-01-10", "--until", "2026-01-20", "--project", str(dated_demo["web"]))
    assert total(ok, *args) == 1
    for query in ("sections", "files", "commands", "projects", "errors", "search"):
        response = stats_json(ok, "--group-by", query, *args)
        assert response["query"] == query
        assert response["filters"]["projects"] == [str(dated_demo["web"])]


# -- stats: errors -----------------------------------------------------------------------------


def test_unknown_query_type_is_e030_and_is_logged(ok: Run, skc: Run, project: Path) -> None:
    log = make_demo(ok, project)
    assert fails(skc, "stats", "demo", "--group-by", "bogus") == (
        "error[E030]: invalid query type: 'bogus'"
    )
    assert fails(skc, "stats", "demo", "--group-by", "searches", "--format", "json") == (
        "error[E030]: invalid query type: 'searches'"
    )
    last = log_rows(log)[-1]
    assert last[2] == "stats" and last[7] == "error[E030]: invalid query type: 'searches'"
    assert json.loads(last[6])["group_by"] == "searches"


@pytest.mark.parametrize(
    ("option", "value"),
    [
        ("--since", "yesterday"),
        ("--since", "2026-02-30"),
        ("--until", "2026-01-30T10:00:00"),
        ("--until", "30/01/2026"),
        ("--project", ""),
        ("--project", "SKILL.md-file"),
    ],
)
def test_malformed_filter_is_e031(
    ok: Run, skc: Run, project: Path, option: str, value: str
) -> None:
    make_demo(ok, project)
    (project / "SKILL.md-file").write_text("a file, not a folder", encoding="utf-8")
    line = fails(skc, "stats", "demo", option, value)
    assert line.startswith(f"error[E031]: invalid filter: '{option} ")


def test_reversed_range_is_e031(ok: Run, skc: Run, project: Path) -> None:
    make_demo(ok, project)
    line = fails(skc, "stats", "demo", "--since", "2026-02-01", "--until", "2026-01-01")
    assert line == (
        "error[E031]: invalid filter: "
        "'--since 2026-02-01T00:00:00Z is after --until 2026-01-01T00:00:00Z'"
    )


def test_resolution_and_usage_errors(ok: Run, skc: Run, project: Path) -> None:
    make_demo(ok, project)
    assert fails(skc, "stats", "nope") == "error[E001]: skill 'nope' not found"
    (project / "empty").mkdir()
    assert (
        fails(skc, "stats", "./empty")
        == "error[E010]: not a valid skill: './empty' (missing SKILL.md)"
    )
    assert fails(skc, "stats", "demo", "--bogus").startswith("error[E100]: invalid option: ")
    assert fails(skc, "stats") == "error[E100]: invalid option: 'missing SKILL (or --all)'"
    assert fails(skc, "stats", "demo", "--format", "xml").startswith("error[E100]:")


def test_unreadable_log_is_e999(ok: Run, skc: Run, project: Path) -> None:
    log = make_demo(ok, project)
    for suffix in ("", "-wal", "-shm"):
        Path(f"{log}{suffix}").unlink(missing_ok=True)
    log.write_bytes(b"not a database " * 100)
    proc = skc("stats", "demo")
    assert (proc.returncode, proc.stdout) == (1, "")
    # the damaged log is said once (the command's own row goes to the fallback), then E999
    warning, error = proc.stderr.splitlines()[:2]
    assert warning.startswith(f"warning: access log '{log.relative_to(project)}' is damaged")
    assert error.startswith("error[E999]: cannot read access log '")


def test_help_has_examples(ok: Run) -> None:
    for command in ("stats", "sync"):
        out = ok(command, "--help").stdout
        assert "Examples:" in out and f"skc {command}" in out
    assert "--group-by TYPE" in ok("stats", "--help").stdout


def test_skillc_stats_script(
    used_demo: Path, script: Callable[[str], Run], ok: Run, project: Path
) -> None:
    run = script("skillc-stats")
    proc = run("stats", "demo", "--group-by", "search", "--format", "json")
    assert proc.returncode == 0, proc.stderr
    assert json.loads(proc.stdout)["data"][0] == {"query": "install", "count": 2}
    assert "No local logs to sync" in run("sync").stdout
    help_text = run("--help").stdout
    assert "stats" in help_text and "sync" in help_text


# -- sync ----------------------------------------------------------------------------------------


def block_global_runtime(home: Path) -> Path:
    """A file where the global runtime store should be: logging there fails (as in a
    read-only sandbox, for any user, root included) and falls back to the working folder."""
    runtime = home / ".skillc" / "runtime"
    runtime.parent.mkdir(parents=True, exist_ok=True)
    runtime.write_text("in the way", encoding="utf-8")
    return runtime


@pytest.fixture
def fallback(ok: Run, project: Path, home: Path) -> Path:
    """A global skill ``demo`` read three times while its runtime could not be written:
    three rows in ``<project>/.skillc/logs/demo/.skillc-meta/logs.db``."""
    ok("init", "demo", "--global")
    block_global_runtime(home)
    ok("outline", "demo")
    ok("open", "demo", "SKILL.md")
    ok("sources", "demo")
    path = project / ".skillc" / "logs" / "demo" / ".skillc-meta" / "logs.db"
    assert len(log_rows(path)) == 3
    return path


def primary(home: Path, skill: str = "demo") -> Path:
    return home / ".skillc" / "runtime" / skill / ".skillc-meta" / "logs.db"


def test_sync_dry_run_real_run_and_second_run(
    fallback: Path, ok: Run, skc: Run, project: Path, home: Path
) -> None:
    rows = log_rows(fallback)
    # the runtime still cannot be written (the sandbox is still on): E041, nothing removed
    assert fails(skc, "sync", "--dry-run") == (
        "error[E041]: sync destination not writable: '~/.skillc/runtime/demo/.skillc-meta/logs.db'"
    )
    assert fails(skc, "sync") == fails(skc, "sync", "--dry-run")
    assert log_rows(fallback) == rows
    (home / ".skillc" / "runtime").unlink()  # out of the sandbox

    assert ok("sync", "--dry-run").stdout == "Would sync 3 entries for 'demo'\n"
    assert log_rows(fallback) == rows and not primary(home).exists()

    assert ok("sync").stdout == "Synced 3 entries for 'demo' (local logs removed)\n"
    assert log_rows(primary(home)) == rows
    assert not (project / ".skillc").exists()  # the fallback left nothing behind

    assert ok("sync").stdout == "No local logs to sync\n"
    assert ok("sync", "--dry-run").stdout == "No local logs to sync\n"
    assert fails(skc, "sync", "demo") == "error[E040]: no local logs found"
    assert log_rows(primary(home)) == rows

    data = stats_json(ok, "--group-by", "commands")["data"]
    assert data == {"open": 1, "outline": 1, "sources": 1}


SYNC_THEN_CRASH = """
import os, sys
# die the moment sync is about to remove the fallback folder (renamed, then deleted): after
# the copy has committed
sys.addaudithook(
    lambda event, args: os._exit(17)
    if event == "os.rename" and ".removed-" in os.fsdecode(args[1])
    else None
)
sys.argv = ["skc", "sync"]
import skillc.cli
skillc.cli.main()
"""


def test_crash_between_copy_and_removal_loses_and_duplicates_nothing(
    fallback: Path,
    ok: Run,
    project: Path,
    home: Path,
    venv_python: Path,
    clean_env: dict[str, str],
) -> None:
    (home / ".skillc" / "runtime").unlink()
    rows = log_rows(fallback)
    crashed = subprocess.run(
        [str(venv_python), "-c", SYNC_THEN_CRASH],
        cwd=project,
        env=clean_env,
        capture_output=True,
        text=True,
        timeout=120,
        check=False,
    )
    assert crashed.returncode == 17, crashed.stderr
    assert log_rows(fallback) == rows  # the fallback is whole
    assert log_rows(primary(home)) == rows  # and its rows are home
    assert ok("sync").stdout == "Synced 0 entries for 'demo' (local logs removed)\n"
    assert log_rows(primary(home)) == rows  # nothing twice
    assert not fallback.exists()


def test_sync_keeps_skills_independent(
    fallback: Path, ok: Run, skc: Run, project: Path, home: Path
) -> None:
    (home / ".skillc" / "runtime").unlink()
    broken = project / ".skillc" / "logs" / "broken" / ".skillc-meta" / "logs.db"
    broken.parent.mkdir(parents=True)
    broken.write_bytes(b"this is not an SQLite database " * 40)
    proc = skc("sync")
    assert proc.returncode == 1
    assert proc.stdout == "Synced 3 entries for 'demo' (local logs removed)\n"
    assert proc.stderr == (
        "error[E042]: sync source not readable: '.skillc/logs/broken/.skillc-meta/logs.db'\n"
        "hint: file is not a database; move the damaged log away and sync again (a new log is"
        " started)\n"
    )
    assert broken.exists() and not fallback.exists()
    assert len(log_rows(primary(home))) == 3


def test_sync_one_skill_from_another_folder(
    fallback: Path, ok: Run, project: Path, home: Path, tmp_path: Path
) -> None:
    (home / ".skillc" / "runtime").unlink()
    other = project / ".skillc" / "logs" / "other" / ".skillc-meta"
    other.mkdir(parents=True)
    (other / "logs.db").write_bytes((fallback).read_bytes())
    elsewhere = tmp_path / "elsewhere"
    elsewhere.mkdir()
    proc = ok("sync", "demo", "--project", str(project), "--format", "json", cwd=elsewhere)
    report = json.loads(proc.stdout)
    assert report["root"] == str(project) and report["dry_run"] is False
    (entry,) = report["skills"]
    assert entry == {
        "skill": "demo",
        "source": str(fallback),
        "entries": 3,
        "destinations": [str(primary(home))],
        "removed": True,
        "skipped": 0,
        "error": None,
    }
    assert (other / "logs.db").exists()  # only the skill asked for


def test_sync_project_must_be_a_folder(ok: Run, skc: Run, project: Path) -> None:
    line = fails(skc, "sync", "--project", str(project / "missing"))
    assert line.startswith("error[E100]: invalid option: ")


IMPORT_PROBE = """
import json, sys
sys.argv = ["skc", *json.loads(sys.argv[1])]
import skillc.cli
try:
    skillc.cli.main()
except SystemExit:
    pass
sys.stdout.flush()
print("@@" + json.dumps(sorted(sys.modules)))
"""


@pytest.mark.parametrize("command", ["stats", "sync"])
def test_help_imports_no_library(
    venv_python: Path, clean_env: dict[str, str], project: Path, command: str
) -> None:
    proc = subprocess.run(
        [str(venv_python), "-c", IMPORT_PROBE, json.dumps([command, "--help"])],
        cwd=project,
        env=clean_env,
        capture_output=True,
        text=True,
        timeout=120,
        check=True,
    )
    modules = set(json.loads(proc.stdout.rsplit("@@", 1)[1]))
    top = {name.partition(".")[0] for name in modules}
    assert not top & {"markdown_it", "yaml", "pathspec", "sqlite3", "skillc_gateway", "skillc_lint"}
    assert not {name for name in modules if name.startswith("skillc_stats._")}
