"""The MCP tools are generated from the operations, and each operation's click command has
the same parameters as its tool (DESIGN.md "Between packages"; issue 14)."""

from __future__ import annotations

from importlib.metadata import entry_points
from typing import Any

import click
import pytest

from skillc_index.operation import Operation, fields, property_name
from skillc_mcp import TOOLS
from skillc_mcp._catalog import operations

#: Options every command has, which are about the output, not the operation.
SHARED = {"output_format", "verbose", "help", "version"}

OPERATIONS = list(operations().values())


def click_command(name: str) -> click.Command:
    """The ``skc`` command ``name``, as its package registers it."""
    (entry,) = [e for e in entry_points(group="skillc.commands") if e.name == name]
    command = entry.load()
    assert isinstance(command, click.Command)
    return command


@pytest.mark.parametrize("operation", OPERATIONS, ids=lambda operation: operation.name)
def test_click_parameters_are_the_record_fields(operation: Operation[Any, Any]) -> None:
    options = {p.name for p in click_command(operation.name).params} - SHARED
    record = {name for name, _hint, _meta in fields(operation.params)}
    cli_only, mcp_only = set(operation.cli_only), set(operation.mcp_only)
    assert cli_only <= options, "cli_only names a parameter the CLI lacks"
    assert mcp_only <= record, "mcp_only names a field the record lacks"
    # a command made from its operation has cli_only fields in its record (stats' all_);
    # one written by hand declares them only as click options
    assert options - cli_only == record - mcp_only - cli_only


@pytest.mark.parametrize("operation", OPERATIONS, ids=lambda operation: operation.name)
def test_the_tool_schema_has_exactly_the_record_fields(operation: Operation[Any, Any]) -> None:
    (tool,) = [tool for tool in TOOLS if tool["name"] == operation.tool_name]
    record = [
        property_name(name)
        for name, _hint, _meta in fields(operation.params)
        if name not in operation.cli_only
    ]
    assert list(tool["inputSchema"]["properties"]) == record
    assert tool["outputSchema"]["properties"]["warnings"]["type"] == "array"


def test_a_tool_call_checks_its_arguments_once(
    project: Any,
    home: Any,
    monkeypatch: pytest.MonkeyPatch,
    count_calls: Any,
) -> None:
    """``parse`` checked a call's arguments against the tool's schema, and ``Operation.run``
    checked the record again (the Python API's check): the server calls the operation's
    function on the record it parsed. A bad value is still E100, before anything runs."""
    import skillc_index.operation
    from skillc_mcp import ToolRunner

    monkeypatch.chdir(project)
    monkeypatch.setenv("SKILLC_HOME", str(home))
    checks = count_calls(skillc_index.operation, "checked_record")
    runner = ToolRunner()
    try:
        listed = runner.call("skc_list", {"limit": 5})
        refused = runner.call("skc_list", {"limit": -1})
    finally:
        runner.close()
    assert listed["isError"] is False, listed
    assert refused["isError"] is True
    assert "limit must be at least 0" in refused["content"][0]["text"]
    assert checks == []


def test_skc_list_matches_a_name_written_in_another_composition(
    project: Any, home: Any, monkeypatch: pytest.MonkeyPatch
) -> None:
    """``skc_list {"pattern": "café-notes"}`` returned [] for a folder written decomposed
    (``cafe\u0301-notes``, copied from a Mac), which ``skc_show`` with that name reads (audit
    r2): the pattern and the names are compared composed."""
    from skillc_mcp import ToolRunner

    folder = project / ".claude/skills/cafe\u0301-notes"
    folder.mkdir(parents=True)
    (folder / "SKILL.md").write_text(
        "---\nname: cafe\u0301-notes\ndescription: Notes. Use when testing.\n---\n# Notes\n",
        "utf-8",
    )
    monkeypatch.chdir(project)
    monkeypatch.setenv("SKILLC_HOME", str(home))
    runner = ToolRunner()
    try:
        listed = runner.call("skc_list", {"pattern": "caf\u00e9-notes"})
        shown = runner.call("skc_outline", {"skill": "caf\u00e9-notes"})
    finally:
        runner.close()
    assert shown["isError"] is False, shown
    skills = listed["structuredContent"]["skills"]
    assert [skill["name"] for skill in skills] == ["cafe\u0301-notes"]


def test_a_reply_names_a_skill_its_name_does_not_read_by_its_path(
    project: Any, home: Any, monkeypatch: pytest.MonkeyPatch
) -> None:
    """``skc_outline`` of ``skill://project-claude/demo/SKILL.md`` (a copy other than the
    project store's ``demo``) said ``"skill": "demo"``, and ``skc_show`` with that read the
    store's skill (E020 for a section only the copy has). The reply names the copy by its
    path, which the next call passes back; the store's skill keeps its name."""
    from skillc_mcp import ToolRunner

    clash = project / ".claude/skills/demo"
    clash.mkdir(parents=True)
    text = (project / ".skillc/skills/demo/SKILL.md").read_text("utf-8")
    (clash / "SKILL.md").write_text(text + "\n## Clash Only\n\nOnly in the copy.\n", "utf-8")
    monkeypatch.chdir(project)
    monkeypatch.setenv("SKILLC_HOME", str(home))
    runner = ToolRunner()
    try:
        outline = runner.call("skc_outline", {"skill": "skill://project-claude/demo/SKILL.md"})
        named = outline["structuredContent"]["skill"]
        again = runner.call("skc_show", {"skill": named, "section": "Clash Only"})
        store = runner.call("skc_outline", {"skill": "demo"})
    finally:
        runner.close()
    assert named == ".claude/skills/demo", outline
    assert again["isError"] is False, again
    assert "Only in the copy." in again["structuredContent"]["content"]
    assert store["structuredContent"]["skill"] == "demo"


def test_the_name_find_gives_a_skill_reads_that_skill(
    project: Any, home: Any, monkeypatch: pytest.MonkeyPatch, cli: Any
) -> None:
    """``find`` (CLI JSON, ``skc_find``) named a skill by its frontmatter ``name``: a store
    skill ``lamp-kit`` whose frontmatter says ``lantern-tools`` was E001 in every read
    command, and a Claude Code plugin's ``lantern-guide`` read the personal skill of that
    name. A hit is named as ``skc list`` names it (its folder, ``plugin:skill``): ``show``
    with that name reads the skill found."""
    import json

    from skillc_mcp import ToolRunner

    def skill(folder: Any, name: str, text: str) -> None:
        folder.mkdir(parents=True)
        body = (
            f"---\nname: {name}\ndescription: Lantern {text}.\n---\n\n# L\n\n## Usage\n\n{text}\n"
        )
        (folder / "SKILL.md").write_text(body, "utf-8")

    store, install = project / ".skillc/skills/lamp-kit", home / ".claude/plugins/cache/m/d/1"
    plugin = install / "skills/lantern-guide"
    skill(store, "lantern-tools", "Trim the lantern wick")
    skill(plugin, "lantern-guide", "Hang the lantern high")
    skill(home / ".claude/skills/lantern-guide", "lantern-guide", "A personal lantern")
    records = {"version": 2, "plugins": {"devkit@m": [{"installPath": str(install)}]}}
    (home / ".claude/plugins/installed_plugins.json").write_text(json.dumps(records), "utf-8")
    (home / ".claude/settings.json").write_text('{"enabledPlugins": {"devkit@m": true}}')
    gateway = cli("skillc_gateway")
    found = json.loads(gateway("find", "trim hang lantern", "--format", "json").stdout)
    named = {hit["path"]: hit["name"] for hit in found["skills"]}
    assert (named[str(store)], named[str(plugin)]) == ("lamp-kit", "devkit:lantern-guide")
    texts = {named[str(store)]: "Trim the lantern wick", named[str(plugin)]: "Hang the lantern"}
    for name, text in texts.items():
        result = gateway("show", name, "--section", "Usage")
        assert (result.returncode, text in result.stdout) == (0, True), result
    monkeypatch.chdir(project)
    monkeypatch.setenv("SKILLC_HOME", str(home))
    monkeypatch.delenv("CLAUDE_CONFIG_DIR", raising=False)
    monkeypatch.setenv("SKILLC_FIND_SEMANTIC", "0")  # the words alone, as the CLI's here
    runner = ToolRunner()
    try:
        tool = runner.call("skc_find", {"query": "trim hang lantern"})["structuredContent"]
        shown = {
            name: runner.call("skc_show", {"skill": name, "section": "Usage"}) for name in texts
        }
    finally:
        runner.close()
    assert {hit["path"]: hit["name"] for hit in tool["skills"]} == named
    for name, text in texts.items():
        assert text in shown[name]["structuredContent"]["content"], shown[name]


def test_the_paged_and_counted_results_are_the_commands_json(
    project: Any, home: Any, monkeypatch: pytest.MonkeyPatch, cli: Any
) -> None:
    """``skc_show`` and ``skc_open`` (``offset``, ``next_offset``) and ``skc_lint``
    (``error_count``, ``warning_count``) give the object their command prints with
    ``--format json``: the README said the tools add those keys, as if the commands had none."""
    import json

    from skillc_mcp import ToolRunner

    folder = home / ".claude/skills/pager"
    folder.mkdir(parents=True)
    lines = "".join(f"Line {n}.\n" for n in range(40))
    text = f"---\nname: pager\ndescription: Pages. Use in tests.\n---\n\n# P\n\n## Body\n\n{lines}"
    (folder / "SKILL.md").write_text(text, "utf-8")
    gateway, lint = cli("skillc_gateway"), cli("skillc_lint")
    calls = [
        ("skc_show", {"skill": "pager", "section": "Body", "max_lines": 5}, gateway,
         ["show", "pager", "--section", "Body", "--max-lines", "5"]),
        ("skc_open", {"skill": "pager", "path": "SKILL.md", "max_lines": 5}, gateway,
         ["open", "pager", "SKILL.md", "--max-lines", "5"]),
        ("skc_lint", {"skill": "pager"}, lint, ["pager"]),
    ]  # fmt: skip
    printed = {}
    for tool, _, command, args in calls:
        done = command(*args, "--format", "json")
        printed[tool] = json.loads(done.stdout)
    monkeypatch.chdir(project)
    monkeypatch.setenv("SKILLC_HOME", str(home))
    monkeypatch.delenv("CLAUDE_CONFIG_DIR", raising=False)
    runner = ToolRunner()
    try:
        given = {tool: runner.call(tool, arguments) for tool, arguments, _, _ in calls}
    finally:
        runner.close()
    for tool, result in given.items():
        assert result["isError"] is False, result
        assert result["structuredContent"] == printed[tool], tool
    assert printed["skc_show"]["next_offset"] == printed["skc_open"]["next_offset"] == 5
    assert {"error_count", "warning_count"} <= printed["skc_lint"].keys()
