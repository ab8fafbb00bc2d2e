"""What users and agents read of the kit, held to snapshots (issue 33): ``skc --help``, every
command's ``--help`` and the MCP tool list. A change here is a change users see: make it on
purpose, then write the snapshots again with ``SKILLC_UPDATE_SNAPSHOTS=1`` and say in the
CHANGELOG what changed.

``--help`` is rendered in process as ``skc COMMAND --help`` prints it (at 80 columns: the
test clears ``COLUMNS``), the tool list is what ``tools/list`` answers, as JSON with sorted keys.
"""

from __future__ import annotations

import json
import os
from pathlib import Path

import click
import pytest

from skillc.cli import discover_commands

SNAPSHOTS = Path(__file__).parent / "snapshots"
UPDATE = os.environ.get("SKILLC_UPDATE_SNAPSHOTS") == "1"


def _helps() -> dict[str, str]:
    """``skc --help`` and the help of every command (a group's subcommands too)."""
    from skillc._group import cli

    # each in its command's own context_class, as click's make_context makes it: the kit's
    # (skillc_index.helppage.Context) wraps the page at spaces only
    parent = cli.context_class(cli, info_name="skc", **cli.context_settings)
    texts = {"skc": cli.get_help(parent) + "\n"}
    for name in discover_commands():
        command = cli.get_command(parent, name)
        assert command is not None
        settings = command.context_settings
        context = command.context_class(command, info_name=name, parent=parent, **settings)
        texts[f"skc {name}"] = command.get_help(context) + "\n"
        if isinstance(command, click.Group):
            for sub in command.list_commands(context):
                subcommand = command.get_command(context, sub)
                assert subcommand is not None
                settings = subcommand.context_settings
                inner = subcommand.context_class(
                    subcommand, info_name=sub, parent=context, **settings
                )
                texts[f"skc {name} {sub}"] = subcommand.get_help(inner) + "\n"
    return texts


def _check(name: str, text: str) -> None:
    path = SNAPSHOTS / name
    if UPDATE:
        path.write_text(text, encoding="utf-8")
        return
    assert path.is_file(), f"no snapshot {name}: run with SKILLC_UPDATE_SNAPSHOTS=1"
    assert text == path.read_text(encoding="utf-8"), f"{name} changed (see the module docstring)"


@pytest.mark.parametrize("command", sorted(_helps()))
def test_help_is_its_snapshot(command: str, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.delenv("COLUMNS", raising=False)
    _check(command.replace(" ", "-") + ".txt", _helps()[command])


def test_every_example_under_skc_runs_skc() -> None:
    # the texts are written for skc, a package script rewrites them (skillc_index.helppage):
    # `skc lint --help` showed 17 of its examples as `skillc-lint ...`
    for command, text in _helps().items():
        for block in text.split("Examples:\n")[1:]:
            for line in block.split("\n\n")[0].splitlines():
                assert " skc " in f" {line.strip()}", f"{command}: {line.strip()}"


def test_every_snapshot_is_of_a_command() -> None:
    if UPDATE:
        pytest.skip("writing the snapshots")
    names = {command.replace(" ", "-") + ".txt" for command in _helps()} | {"tools.json"}
    assert sorted(path.name for path in SNAPSHOTS.iterdir()) == sorted(names)


def test_the_mcp_tool_list_is_its_snapshot() -> None:
    from skillc_mcp import ToolRunner

    runner = ToolRunner()
    try:
        tools = runner.definitions()
    finally:
        runner.close()
    _check("tools.json", json.dumps(tools, indent=1, sort_keys=True, ensure_ascii=False) + "\n")
