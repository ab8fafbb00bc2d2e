"""Configuration files (RFC-0009) never break a command that does not need them.

``skc list`` reads the configured agent targets (the inventory lists their folders), so a bad
file is the warning RFC-0009:C-FILES asks for, naming it, and never more: whatever is in the
files, it lists the skills and exits 0. The warnings themselves are tested in skillc-index's
config tests and with the other commands that read settings.
"""

from __future__ import annotations

import subprocess
from collections.abc import Callable
from pathlib import Path

import pytest

Run = Callable[..., "subprocess.CompletedProcess[str]"]


@pytest.fixture
def listed(ok: Run, home: Path) -> Callable[[], subprocess.CompletedProcess[str]]:
    """A project with one skill and a home with one; returns ``skc list`` to run again."""
    ok("init")
    ok("init", "local-skill")
    ok("init", "home-skill", "--global")

    def run() -> subprocess.CompletedProcess[str]:
        proc = ok("list")
        rows = [line.split() for line in proc.stdout.splitlines()[1:]]
        assert [row[:2] for row in rows] == [["local-skill", "project"], ["home-skill", "global"]]
        return proc

    return run


def warnings_of(proc: subprocess.CompletedProcess[str]) -> list[str]:
    assert "Traceback" not in proc.stderr, proc.stderr
    assert "error[" not in proc.stderr, proc.stderr
    return [line for line in proc.stderr.splitlines() if line.startswith("warning:")]


def test_valid_config_is_silent(
    listed: Callable[[], subprocess.CompletedProcess[str]], project: Path, home: Path
) -> None:
    (project / ".skillc" / "config.toml").write_text(
        'version = 1\n\n[search]\ntokenizer = "cjk"\n', encoding="utf-8"
    )
    (home / ".skillc" / "config.toml").write_text('[search]\ntokenizer = "ascii"\n')
    (home / ".skillc" / "empty").mkdir()
    assert listed().stderr == ""


@pytest.mark.parametrize(
    ("where", "content", "mentions"),
    [
        ("project", "[search\ntokenizer = \n", "config.toml"),
        ("project", 'version = 1\ncolour = "blue"\n', "colour"),
        ("project", '[search]\ntokenizer = "ascii"\nstemmer = "porter"\n', "stemmer"),
        ("project", "[nosuchsection]\nkey = 1\n", "nosuchsection"),
        ("global", "this is = = not toml\n", "config.toml"),
        ("global", "[ui]\ncolor = true\n", "ui"),
    ],
    ids=[
        "project-invalid-toml",
        "project-unknown-top-level-key",
        "project-unknown-search-key",
        "project-unknown-section",
        "global-invalid-toml",
        "global-unknown-section",
    ],
)
def test_a_bad_config_does_not_break_list(
    listed: Callable[[], subprocess.CompletedProcess[str]],
    project: Path,
    home: Path,
    where: str,
    content: str,
    mentions: str,
) -> None:
    base = project if where == "project" else home
    (base / ".skillc" / "config.toml").write_text(content, encoding="utf-8")
    proc = listed()  # exit 0, both skills listed
    [warning] = warnings_of(proc)
    assert mentions in warning and str(base / ".skillc" / "config.toml") in warning
