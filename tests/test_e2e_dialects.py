"""Skill dialects end to end with the installed ``skc``: ``skc lint --profile`` (Claude Code,
skillli, gibb.eri.sh) and running gibb.eri.sh tools with ``skc tools`` / ``skc run``.

The tools run for real: this test's interpreter and ``/bin/sh`` scripts, started by ``skc run``
as subprocesses. What is checked is what spec/003 promises: values reach the program as literal
arguments, a tool past its timeout dies with its children, secrets stay out of its
environment, big output is cut head and tail with the byte count, JSON output is parsed.
"""

from __future__ import annotations

import json
import os
import shlex
import sqlite3
import subprocess
import sys
import time
from collections.abc import Callable
from contextlib import closing
from pathlib import Path

import pytest

Run = Callable[..., "subprocess.CompletedProcess[str]"]

FENCE = "```"
PYTHON = shlex.quote(sys.executable)
MARKER = "@@MODULES@@"
PROBE = f"""
import json, sys
sys.argv = ["skc", *json.loads(sys.argv[1])]
import skillc.cli
try:
    skillc.cli.main()
except SystemExit:
    pass
sys.stdout.flush()
print({MARKER!r} + json.dumps(sorted(sys.modules)))
"""


def tool(name: str, command: str, rows: str = "") -> str:
    table = "None.\n"
    if rows:
        table = "| Name | Type | Required | Description |\n|---|---|---|---|\n" + rows
    return (
        f"### {name}\n\nRuns {name}.\n\n#### Parameters\n\n{table}\n"
        f"#### Command\n\n{FENCE}bash\n{command}\n{FENCE}\n\n"
    )


def tool_skill(project: Path, *tools: str, extra: str = "") -> Path:
    folder = project / "skills" / "kit"
    folder.mkdir(parents=True, exist_ok=True)
    front = "---\nname: kit\nversion: 1.0.0\ndescription: Test tools. Use when testing.\n"
    (folder / "SKILL.md").write_text(f"{front}{extra}---\n\n" + "".join(tools), encoding="utf-8")
    return folder


@pytest.fixture
def user_home(tmp_path: Path) -> Path:
    """HOME for the tools (their working folder outside a git repository)."""
    path = tmp_path / "user-home"
    path.mkdir()
    return path


@pytest.fixture
def run_tool(skc: Run, user_home: Path) -> Callable[..., dict[str, object]]:
    """``run_tool(tool, *args, env=None)``: ``skc run skills/kit TOOL ... --format json``,
    the envelope parsed."""

    def call(name: str, *args: str, env: dict[str, str] | None = None) -> dict[str, object]:
        extra = {"HOME": str(user_home), **(env or {})}
        proc = skc("run", "skills/kit", name, *args, "--format", "json", env_extra=extra)
        assert "Traceback" not in proc.stderr, proc.stderr
        assert not proc.stderr.startswith("error["), proc.stderr
        data = json.loads(proc.stdout)
        assert isinstance(data, dict)
        data["_returncode"] = proc.returncode
        return data

    return call


# -- lint profiles -------------------------------------------------------------------------------

CLAUDE_SKILL = """---
name: review
description: Reviews a pull request. Use when asked to review a PR.
argument-hint: "[pr-number]"
context: fork
agent: Explore
model: haiku
user-invocable: true
allowed-tools: [Read, Grep, "Bash(gh pr:*)"]
---

# Review

Review PR $ARGUMENTS.
"""


def test_lint_claude_code_profile(skc: Run, project: Path) -> None:
    folder = project / "review"
    folder.mkdir()
    (folder / "SKILL.md").write_text(CLAUDE_SKILL, encoding="utf-8")
    plain = skc("lint", "review")
    assert plain.returncode == 0, plain.stderr
    assert "unknown frontmatter field 'argument-hint'" in plain.stderr
    assert "SKL503 allowed-tools-format: allowed-tools must be a space-separated string" in (
        plain.stderr
    )
    proc = skc("lint", "review", "--profile", "claude-code")
    assert (proc.returncode, proc.stderr, proc.stdout) == (
        0,
        "",
        "review: 0 errors, 0 warnings\n",
    )
    (folder / "SKILL.md").write_text(
        CLAUDE_SKILL.replace("context: fork", "context: forked"), encoding="utf-8"
    )
    proc = skc("lint", "review", "--profile", "claude-code", "--format", "json")
    assert proc.returncode == 1
    rules = [d["rule"] for d in json.loads(proc.stdout)["diagnostics"]]
    assert rules == ["SKL602", "SKL603"]


def test_lint_profiles_from_config(skc: Run, project: Path) -> None:
    skc("init")
    (project / ".skillc" / "config.toml").write_text(
        '[lint]\nprofiles = ["gibberish"]\n', encoding="utf-8"
    )
    folder = project / ".skillc" / "skills" / "kit"
    folder.mkdir(parents=True)
    (folder / "SKILL.md").write_text(
        "---\nname: kit\ndescription: Tools. Use when testing.\n---\n\n"
        + tool("list_files", "ls {{dir}} | head", "| dir | path | yes | Folder |\n"),
        encoding="utf-8",
    )
    proc = skc("lint", "kit")
    assert proc.returncode == 1
    rules = [line.split()[2] for line in proc.stderr.splitlines() if "[E300]" in line]
    assert rules == ["SKL801", "SKL815", "SKL819"]


def test_lint_help_and_list_rules_show_profiles(skc: Run) -> None:
    assert "--profile" in skc("lint", "--help").stdout
    rules = json.loads(
        skc("lint", "--list-rules", "--profile", "skillli", "--format", "json").stdout
    )
    assert [r["id"] for r in rules if r["id"].startswith("SKL7")] == [
        "SKL701",
        "SKL702",
        "SKL703",
        "SKL704",
        "SKL705",
        "SKL721",
        "SKL722",
        "SKL723",
        "SKL724",
        "SKL725",
        "SKL726",
    ]


# -- tools and run -------------------------------------------------------------------------------


def test_tools_json_has_input_schemas(skc: Run, project: Path) -> None:
    tool_skill(project, tool("greet", "echo {{who}}", "| who | string | yes | Who to greet |\n"))
    proc = skc("tools", "skills/kit", "--format", "json")
    assert proc.returncode == 0, proc.stderr
    [greet] = json.loads(proc.stdout)["tools"]
    assert greet["name"] == "greet"
    assert greet["inputSchema"] == {
        "type": "object",
        "properties": {"who": {"type": "string", "description": "Who to greet"}},
        "required": ["who"],
        "additionalProperties": False,
    }


def test_run_help_imports_no_parser(
    venv_python: Path, clean_env: dict[str, str], project: Path
) -> None:
    for command in ("run", "tools"):
        proc = subprocess.run(
            [str(venv_python), "-c", PROBE, json.dumps([command, "--help"])],
            cwd=str(project),
            env=clean_env,
            capture_output=True,
            text=True,
            timeout=120,
            check=False,
        )
        assert proc.returncode == 0, proc.stderr
        assert f"Usage: skc {command}" in proc.stdout and "Examples:" in proc.stdout
        [line] = [line for line in proc.stdout.splitlines() if line.startswith(MARKER)]
        modules = {name.partition(".")[0] for name in json.loads(line[len(MARKER) :])}
        heavy = modules & {"markdown_it", "yaml", "pathspec", "skillc_lint", "skillc_stats"}
        assert not heavy, f"skc {command} --help imported {sorted(heavy)}"


@pytest.mark.parametrize(
    "value",
    [
        "; rm -rf {tmp}",
        "$(touch {tmp}/pwned)",
        "`touch {tmp}/pwned`",
        "line one\nline two; touch {tmp}/pwned",
        "a && touch {tmp}/pwned || true",
        "' \" \\ $HOME *",
    ],
    ids=["semicolon", "dollar-paren", "backticks", "newline", "and-or", "quotes"],
)
def test_injection_attempts_are_literal_arguments(
    run_tool: Callable[..., dict[str, object]], project: Path, tmp_path: Path, value: str
) -> None:
    tool_skill(
        project,
        tool(
            "echo_args",
            f"{PYTHON} -c 'import json, sys; print(json.dumps(sys.argv[1:]))' {{{{value}}}} end",
            "| value | string | yes | Anything |\n",
        ),
    )
    value = value.format(tmp=tmp_path)
    data = run_tool("echo_args", f"value={value}")
    assert data["success"] is True
    assert data["parsed"] == [value, "end"]
    assert not (tmp_path / "pwned").exists()
    assert tmp_path.is_dir()


def _gone(pid: int) -> bool:
    """Whether process ``pid`` no longer runs (a zombie waiting for its reaper counts)."""
    try:
        os.kill(pid, 0)
    except ProcessLookupError:
        return True
    try:
        fields = Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[1].split()
    except OSError:
        return True
    return fields[0] in ("Z", "X")


@pytest.mark.skipif(os.name != "posix", reason="process groups")
def test_timeout_kills_the_tool_and_its_children(
    run_tool: Callable[..., dict[str, object]], project: Path
) -> None:
    folder = tool_skill(project, tool("spawn", "./scripts/spawn.sh"), extra="timeout: 1\n")
    (folder / "scripts").mkdir()
    spawn = folder / "scripts" / "spawn.sh"
    spawn.write_text('#!/bin/sh\nsleep 120 &\necho "child $!"\nwait\n', encoding="utf-8")
    spawn.chmod(0o755)
    started = time.monotonic()
    data = run_tool("spawn")
    assert time.monotonic() - started < 30
    assert (data["success"], data["error"]) == (False, "Timeout exceeded (1s)")
    assert data["exit_code"] == data["_returncode"] == 128 + 15  # SIGTERM
    child = int(str(data["output"]).split()[1])
    deadline = time.monotonic() + 10
    while not _gone(child) and time.monotonic() < deadline:
        time.sleep(0.05)
    assert _gone(child), f"child {child} of the timed-out tool is still running"


def test_secrets_are_not_in_the_tools_environment(
    run_tool: Callable[..., dict[str, object]], project: Path
) -> None:
    tool_skill(project, tool("show_env", "env"))
    secrets = {
        "AWS_SECRET_ACCESS_KEY": "aws-secret-value",
        "GITHUB_TOKEN": "ghp_secret_value",
        "ANTHROPIC_API_KEY": "sk-ant-secret-value",
        "STRIPE_SECRET": "stripe-secret-value",
    }
    data = run_tool("show_env", env=secrets)
    output = str(data["output"])
    for name, value in secrets.items():
        assert name not in output and value not in output
    assert "GIBBERISH_SKILL_NAME=kit\n" in output and "PATH=" in output


def test_big_output_is_cut_head_and_tail(
    run_tool: Callable[..., dict[str, object]], project: Path
) -> None:
    code = "import sys; sys.stdout.write('H' * 3000 + 'T' * 3000)"
    tool_skill(project, tool("big", f'{PYTHON} -c "{code}"'))
    data = run_tool("big")
    assert data["truncated"] is True
    assert data["output"] == "H" * 2048 + "\n... [truncated 1904 bytes] ...\n" + "T" * 2048
    assert "parsed" not in data


def test_json_output_is_parsed_into_the_envelope(
    run_tool: Callable[..., dict[str, object]], project: Path
) -> None:
    code = "import json; print(json.dumps({'status': 'ok', 'count': 5}))"
    tool_skill(project, tool("status", f'{PYTHON} -c "{code}"'))
    data = run_tool("status")
    assert data == {
        "success": True,
        "exit_code": 0,
        "output": '{"status": "ok", "count": 5}\n',
        "truncated": False,
        "parsed": {"status": "ok", "count": 5},
        "duration_ms": data["duration_ms"],
        "_returncode": 0,
    }
    assert isinstance(data["duration_ms"], int)


def test_run_records_an_access_row_without_values(
    skc: Run, project: Path, user_home: Path, home: Path
) -> None:
    tool_skill(project, tool("greet", "echo {{who}}", "| who | string | yes | Who |\n"))
    proc = skc("run", "skills/kit", "greet", "who=top-secret", env_extra={"HOME": str(user_home)})
    assert (proc.returncode, proc.stdout) == (0, "top-secret\n")
    [log] = list(home.glob(".skillc/runtime/kit/.skillc-meta/logs.db"))
    with closing(sqlite3.connect(log)) as db, db:
        rows = db.execute("SELECT command, args FROM access_log").fetchall()
    assert [row[0] for row in rows] == ["run"]
    args = json.loads(rows[0][1])
    assert args["tool"] == "greet" and args["parameters"] == ["who"] and args["exit_code"] == 0
    assert "top-secret" not in rows[0][1]


GIT_SKILL = f"""---
name: git
version: 1.0.0
description: Git operations. Use for checking status, viewing history, or seeing changes.
author: gibb.eri.sh
modes: [Dev, Global]
---

### git_status

Show the current git status with short format.

#### Parameters

None.

#### Command

{FENCE}bash
git status --short --branch
{FENCE}

### git_log

Show recent commit history.

#### Parameters

| Name | Type | Required | Description |
|------|------|----------|-------------|
| count | integer | no | Number of commits (default: 10) |

#### Command

{FENCE}bash
git log --oneline -n {{{{count}}}}
{FENCE}
"""


def test_gateway_readme_shows_real_tools_output(skc: Run, project: Path) -> None:
    """The README's `skc tools git` example is what skc prints for spec/003's git skill."""
    readme = Path(__file__).resolve().parents[1] / "packages" / "skillc-gateway" / "README.md"
    block = (
        readme.read_text(encoding="utf-8").split("$ skc tools git\n", 1)[1].split("\n$ ", 1)[0]
        + "\n"
    )
    (project / "git").mkdir()
    (project / "git" / "SKILL.md").write_text(GIT_SKILL, encoding="utf-8")
    proc = skc("tools", "git")
    assert (proc.returncode, proc.stderr) == (0, "")
    assert proc.stdout == block
    lint = skc("lint", "git", "--profile", "gibberish")
    assert (lint.returncode, lint.stderr) == (0, "")
