"""``skc mcp --http`` under concurrent calls: the real server process, with a hook that forces
a race deterministically (events, not timing), and the official SDK's client."""

from __future__ import annotations

import os
import sys
from collections.abc import Callable
from pathlib import Path
from typing import Any

import anyio
import pytest

from skillc_mcp_testing import HttpServer

pytest.importorskip("uvicorn", reason="the http extra (tox.ini's mcp env installs it)")

RACE_HOOK = '''
"""Holds the first import of the find catalog's module half made (in sys.modules, before its
body ran) until the concurrent skc_init listed its thread's catalogs after its tool (or 2 s:
a server that waits for the import then goes on); skc_init's tool waits for that moment."""
import importlib.util
import sys
import threading

ENGINE = "skillc_gateway.catalog.engine"
half_made = threading.Event()
listed = threading.Event()


class Hold:
    def find_spec(self, name, path, target=None):
        if name not in (ENGINE, "skillc_mcp._tools") or self in done:
            return None
        done.append(self) if name == ENGINE else None
        sys.meta_path.remove(self)
        try:
            spec = importlib.util.find_spec(name)
        finally:
            sys.meta_path.insert(0, self)
        run = spec.loader.exec_module

        def exec_module(module):
            if name == ENGINE:
                half_made.set()
                listed.wait(2)
                run(module)
            else:
                run(module)
                patch(module)

        spec.loader.exec_module = exec_module
        return spec


def patch(tools):
    call, catalogs = tools.ToolRunner._call, tools._thread_catalogs

    def _call(self, name, arguments):
        result = call(self, name, arguments)
        if name == "skc_init":
            half_made.wait(30)  # the find's import is under way
        return result

    def _thread_catalogs():
        try:
            return catalogs()
        finally:
            if half_made.is_set():
                listed.set()

    tools.ToolRunner._call = _call
    tools._thread_catalogs = _thread_catalogs


done = []
sys.meta_path.insert(0, Hold())
'''


def test_a_call_racing_the_first_find_s_import_keeps_its_result(
    start: Callable[..., HttpServer], env: dict[str, str], project: Path, tmp_path: Path
) -> None:
    """The first ``skc_find`` of a fresh HTTP server imports the catalog's module in one pool
    thread while another call ends in another: that call read the half-made module from
    ``sys.modules`` after its tool (``AttributeError: partially initialized module``) and the
    client got a JSON-RPC -32603 for a skill ``skc_init`` had created (a retry: E050). Now it
    waits for the import and answers what the tool did."""
    hooks = tmp_path / "hooks"
    hooks.mkdir()
    (hooks / "race_hook.py").write_text(RACE_HOOK, encoding="utf-8")
    environ = {
        **env,
        "PYTHONPATH": os.pathsep.join(filter(None, [str(hooks), env.get("PYTHONPATH")])),
    }
    script = [
        sys.executable,
        "-c",
        "import sys, race_hook; from skillc_mcp.quick import main; sys.exit(main())",
    ]
    server = start("--allow-writes", script=script, environ=environ)

    from mcp import Client
    from mcp.client.streamable_http import streamable_http_client

    results: dict[str, Any] = {}

    async def run() -> None:
        async with Client(streamable_http_client(server.url), mode="legacy") as client:

            async def call(name: str, arguments: dict[str, Any]) -> None:
                results[name] = await client.call_tool(name, arguments)

            async with anyio.create_task_group() as group:
                group.start_soon(call, "skc_find", {"query": "widgets"})
                group.start_soon(call, "skc_init", {"name": "raced"})

    anyio.run(run)  # a JSON-RPC error would raise here (MCPError)
    assert (project / ".skillc" / "skills" / "raced" / "SKILL.md").is_file()
    created, found = results["skc_init"], results["skc_find"]
    assert not created.is_error, created.content
    assert created.structured_content["name"] == "raced", created.structured_content
    assert not found.is_error, found.content
    assert [s["name"] for s in found.structured_content["skills"]] == ["demo"]
    assert server.stop() == 128 + 15
    assert not any("Traceback" in line for line in server.log), "".join(server.log)
