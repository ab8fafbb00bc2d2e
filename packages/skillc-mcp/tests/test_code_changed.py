"""A server whose skillc changed on disk while it ran (``pip install -U``, an uninstall): a
tool whose module it had not imported yet reads the new file, which imports what the loaded
modules lack. The call says to restart the server (E999, no traceback, no path of the
installation), on every call, and the server's log says it once; a method that is not a tool
(a Skills-extension ``resources/read``) says the same as a JSON-RPC error; so does the HTTP
server, whose first request comes after the change.

The installation is a copy of skillc-stats put first on the server's module path, changed on
disk after the server started (a process of its own, driven by the SDK client): its
``_stats`` module imports a name skillc-index does not have; then a newer skillc-index's
metadata appears there too.
"""

from __future__ import annotations

import os
import shutil
from collections.abc import Callable
from pathlib import Path
from types import ModuleType

import anyio
import pytest
from mcp import Client, StdioServerParameters
from mcp.client.stdio import stdio_client
from mcp.shared.exceptions import MCPError

import skillc_gateway
import skillc_index
import skillc_stats
from skillc_mcp_testing import HttpServer, call, sdk_env

RESTART = "error[E999]: skillc changed on disk since this server started"


def _copy_first(package: ModuleType, folder: Path, env: dict[str, str]) -> dict[str, str]:
    """``env`` with a copy of ``package`` in ``folder``, first on its module path."""
    shutil.copytree(
        Path(str(package.__file__)).parent,
        folder / package.__name__,
        ignore=shutil.ignore_patterns("__pycache__"),
    )
    env["PYTHONPATH"] = os.pathsep.join(filter(None, [str(folder), env.get("PYTHONPATH")]))
    return env


def _env_with_copy(package: ModuleType, folder: Path, home: Path) -> dict[str, str]:
    """The server's environment with a copy of ``package`` in ``folder``, first on its
    module path."""
    return _copy_first(package, folder, sdk_env(home))


def test_a_tool_whose_module_changed_on_disk_says_to_restart_the_server(
    server_command: list[str], project: Path, home: Path, tmp_path: Path
) -> None:
    newer = tmp_path / "newer"
    env = _env_with_copy(skillc_stats, newer, home)
    log = tmp_path / "server.log"

    def upgrade() -> None:  # a module the server has not imported yet, changed on disk
        stats = newer / "skillc_stats" / "_stats.py"
        text = stats.read_text(encoding="utf-8")
        old = "from skillc_index.accesslog import primary_log\n"
        assert old in text
        stats.write_text(
            text.replace(old, "from skillc_index.accesslog import primary_log_v2\n"),
            encoding="utf-8",
        )

    def newer_index() -> None:  # a newer skillc-index installed (its metadata first)
        info = newer / "skillc_index-9.0.0.dist-info"
        info.mkdir()
        (info / "METADATA").write_text(
            "Metadata-Version: 2.1\nName: skillc-index\nVersion: 9.0.0\n", encoding="utf-8"
        )

    async def main() -> list[tuple[bool, object]]:
        params = StdioServerParameters(
            command=server_command[0], args=server_command[1:], env=env, cwd=project
        )
        with log.open("w", encoding="utf-8") as errlog:
            async with Client(stdio_client(params, errlog=errlog), mode="legacy") as client:
                replies = [await call(client, "skc_list", {})]
                upgrade()
                replies.append(await call(client, "skc_stats", {}))
                replies.append(await call(client, "skc_stats", {}))
                newer_index()
                replies.append(await call(client, "skc_stats", {}))
                replies.append(await call(client, "skc_list", {}))  # loaded: still works
                return replies

    listed, first, again, versioned, still = anyio.run(main)
    assert listed[0] is False and still[0] is False
    restart = f"{RESTART}: restart the MCP server"
    assert first == (True, restart)
    assert again == (True, restart)
    change = f"skillc-index {skillc_index.__version__} → 9.0.0"
    assert versioned == (True, f"{RESTART} ({change}): restart the MCP server")
    server_log = log.read_text(encoding="utf-8")
    assert server_log.count("skillc changed on disk") == 1, server_log
    assert "Traceback" not in server_log and "primary_log_v2" not in server_log, server_log


@pytest.mark.parametrize(
    ("removed", "module"),
    [
        ("diagnostics.py", "skillc_index.diagnostics"),  # the call's first import
        ("accesslog", "skillc_index.accesslog"),  # the tool runner's (made at the first call)
    ],
)
def test_the_kit_removed_before_the_first_call_says_to_restart_the_server(
    server_command: list[str], project: Path, home: Path, tmp_path: Path, removed: str, module: str
) -> None:
    """Uninstalled after the handshake, before the first tool call: the module that words
    the restart error cannot load either, so skillc-mcp words it (every call; logged once)."""
    copy = tmp_path / "copy"
    env = _env_with_copy(skillc_index, copy, home)
    log = tmp_path / "server.log"

    async def main() -> list[tuple[bool, object]]:
        params = StdioServerParameters(
            command=server_command[0], args=server_command[1:], env=env, cwd=project
        )
        with log.open("w", encoding="utf-8") as errlog:
            async with Client(stdio_client(params, errlog=errlog), mode="legacy") as client:
                gone = copy / "skillc_index" / removed  # after initialize
                shutil.rmtree(gone) if gone.is_dir() else gone.unlink()
                return [await call(client, "skc_list", {}) for _ in range(2)]

    replies = anyio.run(main)
    text = f"{RESTART} (its code could not be loaded: {module}): restart the MCP server"
    assert replies == [(True, text)] * 2
    server_log = log.read_text(encoding="utf-8")
    assert server_log.count("skillc changed on disk") == 1, server_log
    assert "Traceback" not in server_log and str(copy) not in server_log, server_log


@pytest.mark.parametrize("tool_first", [False, True], ids=["first-request", "after-a-tool"])
def test_a_skill_read_whose_module_changed_on_disk_says_to_restart_the_server(
    server_command: list[str], project: Path, home: Path, tmp_path: Path, tool_first: bool
) -> None:
    """``resources/read`` (the Skills extension) reads a module of skillc-gateway changed on
    disk since the start: a JSON-RPC error that says to restart the server, worded by
    skillc-mcp (nothing of the kit loaded yet) or by ``skillc_index.installed`` (loaded by a
    tool call before), on every read; no traceback or path of the installation."""
    newer = tmp_path / "newer"
    env = _env_with_copy(skillc_gateway, newer, home)
    log = tmp_path / "server.log"

    def upgrade() -> None:
        served = newer / "skillc_gateway" / "served.py"
        text = served.read_text(encoding="utf-8")
        old = "from skillc_index.record import Record\n"
        assert old in text
        served.write_text(text.replace(old, "from skillc_index.record import Record_v2\n"))

    async def main() -> list[MCPError]:
        params = StdioServerParameters(
            command=server_command[0], args=server_command[1:], env=env, cwd=project
        )
        errors = []
        with log.open("w", encoding="utf-8") as errlog:
            async with Client(stdio_client(params, errlog=errlog), mode="legacy") as client:
                if tool_first:
                    assert (await call(client, "skc_list", {}))[0] is False
                upgrade()
                for _ in range(2):
                    with pytest.raises(MCPError) as caught:
                        await client.read_resource("skill://demo/SKILL.md")
                    errors.append(caught.value)
        return errors

    errors = anyio.run(main)
    said = "" if tool_first else " (its code could not be loaded: skillc_index.record)"
    assert [(e.code, e.message) for e in errors] == [
        (-32603, f"{RESTART}{said}: restart the MCP server")
    ] * 2
    server_log = log.read_text(encoding="utf-8")
    assert server_log.count("skillc changed on disk") == 1, server_log
    assert "Traceback" not in server_log and "Record_v2" not in server_log, server_log


def test_over_http_the_kit_removed_before_the_first_request_says_to_restart_the_server(
    start: Callable[..., HttpServer], env: dict[str, str], tmp_path: Path
) -> None:
    """``skc mcp --http``: skillc-index removed between the server's start and the first
    request (an ``initialize``, then a tool call, which makes the user's tool runner): the
    handshake succeeds, each tool call is the tool error that says to restart the server,
    a ``resources/read`` the JSON-RPC error with that text, in both eras; the log says it
    once, without a traceback or the installation's path."""
    pytest.importorskip("uvicorn", reason="the http extra (tox.ini's mcp env installs it)")
    from mcp.client.streamable_http import streamable_http_client

    copy = tmp_path / "copy"
    _copy_first(skillc_index, copy, env)
    server = start()
    shutil.rmtree(copy / "skillc_index" / "accesslog")

    async def main(mode: str) -> tuple[list[tuple[bool, object]], MCPError]:
        async with Client(streamable_http_client(server.url), mode=mode) as client:
            replies = [await call(client, "skc_list", {}) for _ in range(2)]
            with pytest.raises(MCPError) as caught:
                await client.read_resource("skill://demo/SKILL.md")
            return replies, caught.value

    module = "skillc_index.accesslog"
    text = f"{RESTART} (its code could not be loaded: {module}): restart the MCP server"
    for mode in ("legacy", "2026-07-28"):
        replies, error = anyio.run(main, mode)
        assert replies == [(True, text)] * 2, mode
        assert (error.code, error.message) == (-32603, text), mode
    server.stop()
    server_log = "".join(server.log)
    assert server_log.count("skillc changed on disk") == 1, server_log
    assert "Traceback" not in server_log and str(copy) not in server_log, server_log


def test_the_change_watcher_of_a_changed_kit_logs_the_restart_line_and_serves_on(
    server_command: list[str], project: Path, home: Path, tmp_path: Path
) -> None:
    """skillc-mcp's own code removed after the handshake (an uninstall): the look for
    changed skills after a ``resources/read`` cannot load :mod:`skillc_mcp._listen`. It
    printed a traceback after every answer; the log says once to restart the server, and
    the reads are still answered."""
    import skillc_mcp

    copy = tmp_path / "copy"
    env = _env_with_copy(skillc_mcp, copy, home)
    log = tmp_path / "server.log"

    async def main() -> list[str]:
        params = StdioServerParameters(
            command=server_command[0], args=server_command[1:], env=env, cwd=project
        )
        with log.open("w", encoding="utf-8") as errlog:
            async with Client(stdio_client(params, errlog=errlog), mode="legacy") as client:
                (copy / "skillc_mcp" / "_listen.py").unlink()  # after initialize
                texts = []
                for _ in range(2):
                    read = await client.read_resource("skill://demo/SKILL.md")
                    texts.append(read.contents[0].text)  # type: ignore[union-attr]
                listed = await client.list_resources()
                assert "skill://demo/SKILL.md" in [str(r.uri) for r in listed.resources]
                return texts

    texts = anyio.run(main)
    assert [text.startswith("---\nname: demo\n") for text in texts] == [True, True]
    server_log = log.read_text(encoding="utf-8")
    said = (
        "skillc-mcp: skillc changed on disk since this server started "
        "(its code could not be loaded: skillc_mcp._listen): restart the MCP server\n"
    )
    assert server_log.count("skillc changed on disk") == 1, server_log
    assert said in server_log, server_log
    assert "Traceback" not in server_log and str(copy) not in server_log, server_log
