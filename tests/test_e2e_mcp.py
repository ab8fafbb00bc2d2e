"""End to end: ``skc mcp``, as the client configuration of RFC-0007 starts it, driven by the
official ``mcp`` SDK client in each of its connection modes, next to the CLI on the same
project: what ``skc build`` writes the server reads, and both log to the same access log."""

from __future__ import annotations

import json
import sqlite3
import subprocess
from collections.abc import Callable
from contextlib import closing
from pathlib import Path
from typing import Any

import anyio
import pytest
from mcp import Client, StdioServerParameters
from mcp.client.stdio import stdio_client

SKILL_MD = """---
name: webapp
description: How the web app is built and deployed. Use when changing the web app.
---

# Webapp

## Deploy

Run the deploy script after the tests pass.

## Rollback

Redeploy the previous release.
"""


@pytest.mark.parametrize("mode", ["auto", "legacy", "2026-07-28"])
def test_skc_mcp_serves_what_skc_builds(
    mode: str,
    ok: Callable[..., subprocess.CompletedProcess[str]],
    skc_path: Path,
    project: Path,
    home: Path,
    tmp_path: Path,
) -> None:
    ok("init")
    ok("init", "webapp")
    (project / ".skillc" / "skills" / "webapp" / "SKILL.md").write_text(SKILL_MD, "utf-8")
    ok("build", "webapp")
    ok("show", "webapp", "--section", "Deploy")

    async def session() -> dict[str, Any]:
        params = StdioServerParameters(
            command=str(skc_path), args=["mcp"], env={"SKILLC_HOME": str(home)}, cwd=project
        )
        with (tmp_path / "server.log").open("w", encoding="utf-8") as errlog:
            async with Client(stdio_client(params, errlog=errlog), mode=mode) as client:
                tools = [tool.name for tool in (await client.list_tools()).tools]
                shown = await client.call_tool("skc_show", {"skill": "webapp", "section": "deploy"})
                found = await client.call_tool(
                    "skc_search", {"skill": "webapp", "query": "release"}
                )
                missing = await client.call_tool("skc_outline", {"skill": "nope"})
                return {
                    "version": client.protocol_version,
                    "tools": tools,
                    "shown": shown.structured_content,
                    "found": found.structured_content,
                    "missing": (missing.is_error, missing.content[0].text),  # type: ignore[union-attr]
                }

    seen = anyio.run(session)
    assert seen["version"] == ("2025-11-25" if mode == "legacy" else "2026-07-28")
    assert seen["tools"] == [
        "skc_init",
        "skc_list",
        "skc_build",
        "skc_lint",
        "skc_outline",
        "skc_show",
        "skc_open",
        "skc_sources",
        "skc_search",
        "skc_find",
        "skc_eval",
        "skc_stats",
    ]
    assert (
        seen["shown"]["content"] == "## Deploy\n\nRun the deploy script after the tests pass.\n\n"
    )
    assert seen["found"]["results"][0]["section"] == "Rollback"
    assert seen["missing"] == (True, "error[E001]: skill 'nope' not found")

    # the CLI reads what the server logged, and the other way round
    stats = json.loads(ok("stats", "webapp", "--group-by", "commands", "--format", "json").stdout)
    assert stats["data"]["show"] == 2  # one from the CLI, one from the server
    assert stats["data"]["search"] == 1
    db = project / ".skillc" / "runtime" / "webapp" / ".skillc-meta" / "logs.db"
    with closing(sqlite3.connect(db)) as connection, connection:
        rows = connection.execute("SELECT command, cwd FROM access_log").fetchall()
    connection.close()
    assert {cwd for _, cwd in rows} == {str(project)}


def test_a_checkouts_linked_agent_folder_confines_skc_mcp_and_not_skc_find(
    skc_installed: Callable[..., subprocess.CompletedProcess[str]],
    skc_path: Path,
    project: Path,
    clean_env: dict[str, str],
    tmp_path: Path,
    write_skill: Callable[..., Path],
) -> None:
    """A cloned repository holding ``.gemini/skills -> /tmp``: ``skc mcp``'s ``skc_find`` with
    ``path: ["/tmp"]`` walked all of /tmp and ``skc_open`` read another user's skill there. The
    model's paths now reach the skills the agent loads from that folder, and no further; the
    user's ``skc find --path`` on the command line still searches any folder."""
    shared = tmp_path / "shared"
    write_skill(shared / "loaded", description="Paint zebra stripes.")
    deep = write_skill(shared / "people" / "skills" / "evil", description="Paint zebra spots.")
    (project / ".gemini").mkdir()
    (project / ".gemini" / "skills").symlink_to(shared)

    async def session() -> list[tuple[bool, str]]:
        params = StdioServerParameters(
            command=str(skc_path), args=["mcp"], env=clean_env, cwd=project
        )
        seen: list[tuple[bool, str]] = []
        with (tmp_path / "server.log").open("w", encoding="utf-8") as errlog:
            async with Client(stdio_client(params, errlog=errlog)) as client:
                for name, arguments in [
                    ("skc_find", {"query": "paint zebra", "path": [str(shared)]}),
                    ("skc_open", {"skill": str(deep), "path": "SKILL.md"}),
                    ("skc_open", {"skill": str(shared / "loaded"), "path": "SKILL.md"}),
                ]:
                    result = await client.call_tool(name, arguments)
                    seen.append((result.is_error, result.content[0].text))  # type: ignore[union-attr]
        return seen

    found, deeper, loaded = anyio.run(session)
    for is_error, text in (found, deeper):
        assert is_error and text.startswith("error[E100]: invalid option: 'path '"), text
        assert "outside the project, the working folder, the home folder" in text, text
    assert not loaded[0] and "Paint zebra stripes." in loaded[1], loaded
    user = skc_installed("find", "paint zebra", "--path", str(shared), "--format", "json")
    assert user.returncode == 0, user.stderr
    names = sorted(Path(skill["name"]).name for skill in json.loads(user.stdout)["skills"])
    assert names == ["evil", "loaded"], user.stdout
