"""Every ``skc`` command once through the INSTALLED console script, in a real subprocess.

The other end-to-end tests run ``skillc.cli.main`` in the test process (same code, no start-up
cost); these check the program a user runs: the entry point, the lazily loaded command of each
distribution, exit codes, stdout and stderr of a real process.
"""

from __future__ import annotations

import json
import subprocess
from collections.abc import Callable
from pathlib import Path

import pytest

Run = Callable[..., "subprocess.CompletedProcess[str]"]

FENCE = "```"
SKILL_MD = f"""---
name: demo
description: A demo skill. Use when testing the installed skc.
---

# Demo

Intro about widgets.

## Install

Run the installer.

## Tools

### greet

Says hello.

#### Parameters

| Name | Type | Required | Description |
|---|---|---|---|
| who | string | yes | Whom to greet |

#### Command

{FENCE}bash
echo "hello {{{{who}}}}"
{FENCE}
"""


@pytest.fixture
def built(skc_installed: Run, project: Path) -> Path:
    """A project with the ``demo`` skill, made and built by the installed ``skc``."""
    assert skc_installed("init").returncode == 0
    source = project / ".skillc" / "skills" / "demo"
    (source / "references").mkdir(parents=True)
    (source / "SKILL.md").write_text(SKILL_MD, encoding="utf-8")
    (source / "references" / "api.md").write_text("# API\n\n## Endpoints\n", encoding="utf-8")
    proc = skc_installed("build", "demo")
    assert proc.returncode == 0, proc.stderr
    return source


#: One run of each command, and a piece of what it prints on stdout.
COMMANDS: list[tuple[tuple[str, ...], str]] = [
    (("init", "fresh-skill"), "fresh-skill"),
    (("list",), "demo"),
    (("build", "demo"), "demo"),
    (("lint", "demo"), "demo"),
    (("outline", "demo"), "Install"),
    (("show", "demo", "--section", "Install"), "Run the installer."),
    (("open", "demo", "references/api.md"), "## Endpoints"),
    (("sources", "demo"), "api.md"),
    (("search", "demo", "installer"), "Install"),
    (("stats", "demo"), "demo"),
    (("sync",), ""),
    (("tools", "demo"), "greet"),
    (("run", "demo", "greet", "who=you"), "hello you"),
    (("exec", "demo", "--", "ls"), "SKILL.md"),
    (("mcp", "--help"), "Usage: skc mcp"),
    (("route", "status"), "no router"),
    (("find", "installer"), "1. demo"),
    (("watch", "--status"), "No find server runs"),
    (("package", "demo"), "1 skill packaged as upload"),
    (("eval", "demo"), "RECALL@3"),
]


def test_every_command_is_covered() -> None:
    from skillc.cli import SUMMARIES

    assert {args[0] for args, _ in COMMANDS} == set(SUMMARIES)


@pytest.mark.parametrize(("args", "expected"), COMMANDS, ids=[args[0] for args, _ in COMMANDS])
def test_command_runs_in_the_installed_skc(
    skc_installed: Run, built: Path, args: tuple[str, ...], expected: str
) -> None:
    proc = skc_installed(*args)
    assert proc.returncode == 0, proc.stderr
    assert expected in proc.stdout, proc.stdout
    assert "Traceback" not in proc.stderr, proc.stderr


def test_json_and_an_error_from_the_installed_skc(skc_installed: Run, built: Path) -> None:
    data = json.loads(
        skc_installed("show", "demo", "--section", "Install", "--format", "json").stdout
    )
    assert "Run the installer." in data["content"]
    proc = skc_installed("outline", "nosuch")
    assert proc.returncode == 1
    assert proc.stderr.startswith("error[E001]: "), proc.stderr
    assert proc.stdout == "" and "Traceback" not in proc.stderr
