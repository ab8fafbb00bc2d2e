"""A server whose skillc changed on disk while it ran (``pip install -U``, an uninstall): a
tool whose module it had not imported yet reads the new file, which imports what the loaded
modules lack. The call says to restart the server (E999, no traceback, no path of the
installation), on every call, and the server's log says it once.

The installation is a copy of skillc-stats put first on the server's module path, changed on
disk after the server started (a process of its own, driven by the SDK client): its
``_stats`` module imports a name skillc-index does not have; then a newer skillc-index's
metadata appears there too.
"""

from __future__ import annotations

import os
import shutil
from pathlib import Path
from types import ModuleType

import anyio
import pytest
from mcp import Client, StdioServerParameters
from mcp.client.stdio import stdio_client

import skillc_index
import skillc_stats
from skillc_mcp_testing import call, sdk_env

RESTART = "error[E999]: skillc changed on disk since this server started"


def _env_with_copy(package: ModuleType, folder: Path, home: Path) -> dict[str, str]:
    """The server's environment with a copy of ``package`` in ``folder``, first on its
    module path."""
    shutil.copytree(
        Path(str(package.__file__)).parent,
        folder / package.__name__,
        ignore=shutil.ignore_patterns("__pycache__"),
    )
    env = sdk_env(home)
    env["PYTHONPATH"] = os.pathsep.join(filter(None, [str(folder), env.get("PYTHONPATH")]))
    return env


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
