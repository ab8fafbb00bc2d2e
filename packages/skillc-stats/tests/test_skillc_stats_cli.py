"""The `skillc-stats` console script installs, answers --help and reports usage errors as E100."""

from __future__ import annotations

import subprocess
import sys
from collections.abc import Callable
from pathlib import Path

import pytest

import skillc_stats

Run = Callable[..., subprocess.CompletedProcess[str]]


@pytest.fixture
def run(cli: Callable[..., Run]) -> Run:
    """``python -m skillc_stats *args`` in a subprocess (the shared ``cli`` fixture)."""
    return cli("skillc_stats", process=True)


def test_help(run: Run) -> None:
    result = run("--help")
    assert result.returncode == 0
    assert result.stdout.startswith("Usage: skillc-stats")


def test_version_matches_the_package(run: Run) -> None:
    assert run("--version").stdout.strip() == f"skillc-stats {skillc_stats.__version__}"


def test_unknown_option_is_e100(run: Run) -> None:
    result = run("--bogus")
    assert result.returncode == 1
    first = result.stderr.splitlines()[0]
    assert first.startswith("error[E100]: invalid option: 'No such option")
    assert "--bogus" in first


@pytest.mark.parametrize(
    ("args", "message"),
    [
        (("stats", "--all", "--from", "x"),
         '--from "x" is not a team store: give a postgresql:// URL or "team" (the configured one)'),
        (("sync", "--project", "{missing}"), '--project "{missing}" is not a folder'),
        (("sync", "--from", "claude-code", "--claude-dir", "{missing}"),
         '--claude-dir "{missing}" is not a folder'),
    ],
)  # fmt: skip
def test_a_bad_value_the_command_checks_is_followed_by_try(
    cli: Callable[..., Run], tmp_path: Path, args: tuple[str, ...], message: str
) -> None:
    """A bad option value the command checks itself (a store that is no URL, a folder that
    is none) printed its E100 without the ``Try '... --help'`` line a found command's usage
    errors have (the root README's "Errors"); the installed script prints it."""
    missing = str(tmp_path / "nowhere")
    script = cli("skillc-stats", script=True)
    result = script(*(arg.format(missing=missing) for arg in args))
    command = args[0]
    assert (result.returncode, result.stdout) == (1, "")
    assert result.stderr == (
        f"error[E100]: invalid option: '{message.format(missing=missing)}'\n"
        f"Try 'skillc-stats {command} --help' for help.\n"
    )


@pytest.mark.parametrize(
    "args",
    [("stats", "--all", "--from", "team"), ("sync", "--to", "team"),
     ("stats", "prune", "--before", "2020-01-01", "--from", "team")],
)  # fmt: skip
def test_no_store_configured_says_how_to_configure_it(
    cli: Callable[..., Run], args: tuple[str, ...]
) -> None:
    """``team`` with no store configured is a missing setting, not a bad value: its E100
    (which said how inside the message, with no Try line) is followed by a Try line naming
    the setting and the variable, not ``--help``; the installed script prints it."""
    script = cli("skillc-stats", script=True)
    result = script(*args)  # clean_env: no SKILLC_STATS_URL, a fresh home
    option = args[-2]
    assert (result.returncode, result.stdout) == (1, "")
    assert result.stderr == (
        f"error[E100]: invalid option: '{option} team: no team store is configured'\n"
        "Try setting SKILLC_STATS_URL, or url under [stats] in the global config.toml, to "
        "the store's postgresql:// URL.\n"
    )


def test_commands_are_registered_for_skc() -> None:
    from importlib.metadata import entry_points

    from skillc_stats.cli import LAZY
    from skillc_stats.cli_stats import stats_command
    from skillc_stats.cli_sync import sync_command

    found = {ep.name: ep.value for ep in entry_points(group="skillc.commands")}
    assert found["stats"] == LAZY["stats"] == "skillc_stats.cli_stats:stats_command"
    assert found["sync"] == LAZY["sync"] == "skillc_stats.cli_sync:sync_command"
    # the first lines are RFC-0007:C-COMMANDS' descriptions, as `skc --help` lists them
    assert (stats_command.help or "").splitlines()[0] == "Usage analytics."
    assert (sync_command.help or "").splitlines()[0] == "Merge fallback logs to primary."


def test_command_module_imports_only_click_and_the_console() -> None:
    probe = "import sys, skillc_stats.cli; print(' '.join(sorted(sys.modules)))"
    result = subprocess.run(
        [sys.executable, "-c", probe], capture_output=True, text=True, timeout=60, check=True
    )
    modules = set(result.stdout.split())
    heavy = {"markdown_it", "yaml", "pathspec", "sqlite3", "json"}
    assert not heavy & modules
    assert not {m for m in modules if m.startswith("skillc_stats._")}


def test_help_of_each_command_has_examples(run: Run) -> None:
    for command in ("stats", "sync"):
        result = run(command, "--help")
        assert result.returncode == 0
        assert "Examples:" in result.stdout and f"skillc-stats {command}" in result.stdout
        assert "skc " not in result.stdout.partition("Examples:")[2]
