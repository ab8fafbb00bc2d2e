"""Contract tests: the official ``mcp`` Python SDK client drives the installed ``skillc-mcp``.

In each connection mode of the SDK: ``auto`` (it probes ``server/discover`` and stays on
2026-07-28), ``legacy`` (the ``initialize`` handshake) and ``2026-07-28`` (per-request
``_meta`` from the first request, no probe). Every tool is listed and called on a real skill;
every result's ``structuredContent`` is checked against the tool's ``outputSchema`` (the SDK
checks too) and against the JSON text; the errors an agent can act on come back as
``isError`` results with the ``error[EXXX]:`` line.
"""

from __future__ import annotations

import json
import sqlite3
from collections.abc import Awaitable, Callable
from contextlib import closing
from pathlib import Path
from typing import Any, TypeVar

import anyio
import jsonschema
import pytest
from mcp import Client, StdioServerParameters
from mcp.client.stdio import stdio_client
from mcp.shared.exceptions import MCPError

import skillc_mcp
from skillc_mcp_testing import sdk_env

T = TypeVar("T")

MODES = ("auto", "legacy", "2026-07-28")
NEGOTIATED = {"auto": "2026-07-28", "legacy": "2025-11-25", "2026-07-28": "2026-07-28"}

#: RFC-0007:C-COMMANDS, in the registry's order, with each tool's parameters.
REGISTRY = {
    "skc_init": {"name", "global"},
    "skc_list": {
        "scope",
        "status",
        "limit",
        "pattern",
        "managed",
        "agent",
        "check_obsolete",
        "budget",
    },
    "skc_build": {"skill", "global", "target", "copy", "force"},
    "skc_lint": {"skill", "force", "select", "ignore", "profile", "target", "baseline"},
    "skc_outline": {"skill", "level"},
    "skc_show": {"skill", "section", "file", "nth", "max_lines", "offset", "hidden"},
    "skc_open": {"skill", "path", "max_lines", "offset", "hidden"},
    "skc_sources": {"skill", "depth", "dir", "limit", "pattern"},
    "skc_search": {"skill", "query", "limit"},
    "skc_find": {"query", "limit", "path"},
    "skc_eval": {
        "skills",
        "path",
        "library",
        "agent",
        "top",
        "mutate",
        "min_recall",
        "max_false_triggers",
    },
    "skc_stats": {
        "skill",
        "group_by",
        "by",
        "since",
        "until",
        "project",
        "from",
        "user",
        "machine",
    },
}
WRITERS = {"skc_init", "skc_build"}


def session(
    server_command: list[str],
    project: Path,
    env: dict[str, str],
    mode: str,
    log: Path,
    body: Callable[[Client], Awaitable[T]],
) -> T:
    """Start the server as the SDK does, connect in ``mode``, run ``body``, disconnect."""

    async def main() -> T:
        params = StdioServerParameters(
            command=server_command[0],
            args=server_command[1:],
            env=sdk_env(env["SKILLC_HOME"]),
            cwd=project,
        )
        with log.open("w", encoding="utf-8") as errlog:
            async with Client(stdio_client(params, errlog=errlog), mode=mode) as client:
                return await body(client)

    return anyio.run(main)


class Calls:
    """Tool calls through the SDK, each result checked against the tool's contract."""

    def __init__(self, client: Client, tools: dict[str, Any]) -> None:
        self.client = client
        self.tools = tools

    async def ok(self, name: str, arguments: dict[str, Any]) -> dict[str, Any]:
        result = await self.client.call_tool(name, arguments)
        text = result.content[0].text  # type: ignore[union-attr]
        assert not result.is_error, text
        data = result.structured_content
        assert isinstance(data, dict)
        jsonschema.Draft202012Validator(self.tools[name].output_schema).validate(data)
        assert json.loads(text) == data
        return data

    async def error(self, name: str, arguments: dict[str, Any]) -> str:
        result = await self.client.call_tool(name, arguments)
        assert result.is_error
        assert result.structured_content is None
        text: str = result.content[0].text  # type: ignore[union-attr]
        return text


async def exercise(client: Client) -> dict[str, Any]:
    """List the tools and call every one, successes and failures; what was seen."""
    listed = await client.list_tools()
    tools = {tool.name: tool for tool in listed.tools}
    calls = Calls(client, tools)
    seen: dict[str, Any] = {
        "version": client.protocol_version,
        "server": client.server_info,
        "list_meta": listed.meta,
        "order": [tool.name for tool in listed.tools],
        "tools": tools,
    }
    # writing a skill
    created = await calls.ok("skc_init", {"name": "fresh"})
    assert created["kind"] == "skill"
    assert created["created"] is True
    assert (await calls.ok("skc_init", {}))["created"] is False  # the project exists
    listing = await calls.ok("skc_list", {})
    assert [s["name"] for s in listing["skills"]] == ["demo", "fresh"]
    assert {s["status"] for s in listing["skills"]} == {"not-built"}
    lint = await calls.ok("skc_lint", {"skill": "demo"})
    assert lint["skill"] == "demo"
    assert lint["error_count"] == sum(d["severity"] == "error" for d in lint["diagnostics"])
    built = await calls.ok("skc_build", {"skill": "demo"})
    assert built["up_to_date"] is False
    assert built["deployments"][0]["target"] == "claude"
    assert (await calls.ok("skc_build", {"skill": "demo"}))["up_to_date"] is True
    # reading it
    outline = await calls.ok("skc_outline", {"skill": "demo", "level": 2})
    assert {"file": "SKILL.md", "level": 2, "text": "Install", "line": 10} in outline["headings"]
    assert all(h["level"] <= 2 for h in outline["headings"])
    assert outline["files"] == ["SKILL.md", "references/api.md"]
    shown = await calls.ok("skc_show", {"skill": "demo", "section": "install"})
    assert shown["section"] == "Install"
    assert shown["content"].startswith("## Install\n")
    assert "make install" in shown["content"]
    assert "warnings" not in shown
    twice = await calls.ok("skc_show", {"skill": "demo", "section": "Usage", "max_lines": 1})
    assert twice["matches"] == 2
    assert twice["truncated"] is True
    assert twice["warnings"] == ["warning[W001]: multiple matches for 'Usage'; showing first"]
    in_file = {"skill": "demo", "section": "Usage", "file": "references/api.md"}
    assert (await calls.ok("skc_show", in_file))["file"] == "references/api.md"
    opened = await calls.ok("skc_open", {"skill": "demo", "path": "references/notes.txt"})
    assert opened["content"] == "one\ntwo\nthree\n"
    cut = await calls.ok(
        "skc_open", {"skill": "demo", "path": "references/notes.txt", "max_lines": 2}
    )
    assert (cut["content"], cut["truncated"]) == ("one\ntwo\n", True)
    tree = (await calls.ok("skc_sources", {"skill": "demo", "depth": 1}))["tree"]
    assert [child["name"] for child in tree["children"]] == ["SKILL.md", "references"]
    assert tree["children"][1]["file_count"] == 2
    assert "children" not in tree["children"][1]
    found = await calls.ok("skc_search", {"skill": "demo", "query": "widgets", "limit": 2})
    assert found["query"] == "widgets"
    assert 1 <= len(found["results"]) <= 2
    assert "[MATCH]" in found["results"][0]["snippet"]
    # finding it among the installed skills: the deployed stub counts as its source
    routed = await calls.ok("skc_find", {"query": "set up widgets with the installer"})
    assert routed["query"] == "set up widgets with the installer"
    assert (routed["searched"], routed["skipped"], routed["partial"]) == (2, 0, False)
    best = routed["skills"][0]
    assert (best["name"], best["duplicates"]) == ("demo", [])
    assert best["path"].endswith("/.skillc/skills/demo")
    assert [Path(entry).parts[-3:] for entry in best["deployed_to"]] == [
        (".claude", "skills", "demo")
    ]
    assert best["sections"][0] == {"file": "SKILL.md", "heading": "Install", "line": 10}
    assert len((await calls.ok("skc_find", {"query": "widgets", "limit": 1}))["skills"]) == 1
    # will the agent pick it: demo has no trigger cases yet
    evaluated = await calls.ok("skc_eval", {"skills": ["demo"]})
    assert [(s["name"], s["cases"]) for s in evaluated["skills"]] == [("demo", 0)]
    stats = await calls.ok("skc_stats", {"skill": "demo", "group_by": "commands"})
    assert stats["query"] == "commands"
    assert stats["data"]["show"] == 3
    seen["summary"] = await calls.ok("skc_stats", {"skill": "demo"})
    every = await calls.ok("skc_stats", {})  # no skill: every installed skill
    assert every["query"] == "all"
    assert [(e["skill"], e["uses"] > 0) for e in every["data"]] == [
        ("fresh", False),
        ("demo", True),
    ]
    trends = await calls.ok("skc_stats", {"by": "month"})  # every skill over time (issue 40)
    assert trends["query"] == "all by month"
    assert [s["skill"] for s in trends["data"]["skills"]] == ["demo", "fresh"]
    assert sum(p["uses"] for p in trends["data"]["periods"]) == every["data"][-1]["uses"]

    # failures an agent can act on: isError results with the RFC-0005 line
    assert (await calls.error("skc_show", {"skill": "nope", "section": "x"})).startswith(
        "error[E001]: skill 'nope' not found"
    )
    escape = await calls.error("skc_open", {"skill": "demo", "path": "../../../etc/passwd"})
    assert escape.startswith("error[E012]: path escapes skill root: '../../../etc/passwd'")
    missing = await calls.error("skc_open", {"skill": "demo", "path": "nope.md"})
    assert missing.startswith("error[E021]: file not found: 'nope.md'")
    suggested = await calls.error("skc_show", {"skill": "demo", "section": "Instal"})
    assert suggested.splitlines() == [
        "error[E020]: section not found: 'Instal'",
        "Did you mean one of these?",
        "  - Install (SKILL.md)",
    ]
    # never built: the index is made on demand (issue 34), no build step, no E002
    unbuilt = await calls.ok("skc_show", {"skill": "fresh", "section": "Fresh"})
    assert unbuilt["content"].startswith("# Fresh")
    assert await calls.error("skc_search", {"skill": "demo", "query": "  "}) == (
        "error[E004]: empty query"
    )
    for query in ("", " \n "):  # as the CLI and skc_search say it
        assert await calls.error("skc_find", {"query": query}) == "error[E004]: empty query"
    assert (await calls.error("skc_find", {"query": "x", "path": ["nowhere"]})).startswith(
        "error[E022]: directory not found: 'nowhere'"
    )
    assert (await calls.error("skc_init", {"name": "demo"})).startswith(
        "error[E050]: skill 'demo' already exists"
    )
    assert (await calls.error("skc_stats", {"skill": "demo", "since": "yesterday"})).startswith(
        "error[E031]: invalid filter"
    )
    # a model does not choose which host the server connects to: the configured store only
    for store in ("postgresql://127.0.0.1:1/x", "postgres://evil.example/db"):
        assert await calls.error("skc_stats", {"skill": "demo", "from": store}) == (
            "error[E100]: invalid option: 'from: a tool call reads only the configured team "
            "store: 'team' ([stats] url, SKILLC_STATS_URL)'"
        )
    assert await calls.error("skc_stats", {"skill": "demo", "from": "team"}) == (
        "error[E100]: invalid option: 'from team: no team store is configured'\n"
        "hint: try setting SKILLC_STATS_URL, or url under [stats] in the global config.toml, "
        "to the store's postgresql:// URL"
    )
    # argument errors are results too, so the model can correct itself (E100)
    for name, arguments, why in [
        ("skc_outline", {"skill": "demo", "level": 9}, "level must be at most 6, not 9"),
        ("skc_outline", {"skill": "demo", "depth": 2}, "unknown argument 'depth'"),
        ("skc_list", {"limit": "3"}, "limit must be an integer, not a string"),
        ("skc_eval", {"min_recall": "0.5"}, "min_recall must be a number, not a string"),
        ("skc_eval", {"min_recall": True}, "min_recall must be a number, not a boolean"),
        ("skc_list", {"scope": "everywhere"}, "scope must be one of"),
        ("skc_show", {"skill": "demo"}, "the required argument 'section' is missing"),
        ("skc_build", {"skill": "demo", "target": "claude"}, "target must be an array"),
        ("skc_init", {"global": True}, "global needs a skill name'"),
        ("skc_find", {"query": "x" * 100_000}, "the query has 100,000 characters; at most "),
        ("skc_find", {"query": "x", "limit": 101}, "limit must be at most 100, not 101"),
    ]:
        text = await calls.error(name, arguments)
        assert text.startswith(f"error[E100]: invalid option: '{why}"), text
    # worded as the command line words it (QueryTooLong), no name quoted in the quotes of E100
    assert await calls.error("skc_search", {"skill": "demo", "query": "x" * 10_001}) == (
        "error[E100]: invalid option: 'the query has 10,001 characters; at most 10,000 are allowed'"
    )
    assert await calls.error("skc_find", {"query": "x", "limit": 0}) == (
        "error[E100]: invalid option: 'limit must be at least 1, not 0'"
    )
    # an unknown tool is a protocol error (-32602), not a result
    with pytest.raises(MCPError) as unknown:
        await client.call_tool("skc_sync", {})
    assert unknown.value.code == -32602
    return seen


@pytest.mark.parametrize("mode", MODES)
def test_every_tool_through_the_sdk(
    mode: str,
    server_command: list[str],
    project: Path,
    env: dict[str, str],
    tmp_path: Path,
) -> None:
    log = tmp_path / "server.log"
    seen = session(server_command, project, env, mode, log, exercise)
    assert seen["version"] == NEGOTIATED[mode]
    identity = {"name": "skillc", "title": "skillc", "version": skillc_mcp.__version__}
    if mode == "2026-07-28":
        # no handshake and no probe: the server names itself in each result's _meta
        assert seen["server"] is None
        assert seen["list_meta"]["io.modelcontextprotocol/serverInfo"] == identity
    else:
        assert seen["server"].model_dump(exclude_none=True) == identity
    assert seen["order"] == list(REGISTRY)
    for name, tool in seen["tools"].items():
        assert set(tool.input_schema["properties"]) == REGISTRY[name]
        assert tool.input_schema["additionalProperties"] is False
        jsonschema.Draft202012Validator.check_schema(tool.input_schema)
        jsonschema.Draft202012Validator.check_schema(tool.output_schema)
        assert tool.title
        assert len(tool.description) > 80
        assert tool.annotations.read_only_hint is (name not in WRITERS)
        assert tool.annotations.open_world_hint is False
    assert seen["tools"]["skc_build"].annotations.destructive_hint is True
    assert seen["tools"]["skc_init"].annotations.destructive_hint is False
    assert seen["tools"]["skc_init"].annotations.idempotent_hint is True
    assert seen["summary"]["data"]["total_accesses"] >= 10

    # every call that resolved a skill is in the access log, in one session (run id)
    db = project / ".skillc" / "runtime" / "demo" / ".skillc-meta" / "logs.db"
    with closing(sqlite3.connect(db)) as connection, connection:
        rows = connection.execute("SELECT command, run_id, args, error FROM access_log").fetchall()
    connection.close()
    commands = {row[0] for row in rows}
    assert commands == {"lint", "build", "outline", "show", "open", "sources", "search", "stats"}
    assert len({row[1] for row in rows}) == 1
    searches = [json.loads(row[2]) for row in rows if row[0] == "search" and row[3] is None]
    assert searches[0]["query"] == "widgets"
    assert searches[0]["result_count"] >= 1
    errors = [row[3] for row in rows if row[3]]
    assert "error[E020]: section not found: 'Instal'" in errors
    assert "serving MCP on stdio" in log.read_text(encoding="utf-8")
