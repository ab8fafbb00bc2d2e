"""``skc mcp --http`` under concurrent and cancelled calls: the real server process, with hooks
that force the order of events (events, not timing), and real clients."""

from __future__ import annotations

import json
import os
import socket
import sys
import threading
import time
from collections.abc import Callable
from pathlib import Path
from typing import Any

import anyio
import pytest

from skillc_mcp_testing import MODERN_META, HttpServer, mirrored

pytest.importorskip("uvicorn", reason="the http extra (tox.ini's mcp env installs it)")

RACE_HOOK = '''
"""Holds the first import of the find catalog's module half made (in sys.modules, before its
body ran) until the concurrent skc_init listed its thread's catalogs after its tool (or 2 s:
a server that waits for the import then goes on); skc_init's tool waits for that moment.
Each moment is a file beside this one (half_made, listed): the test sees the hook fired."""
import importlib.util
import os
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
                mark("half_made")
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
            if half_made.is_set() and not listed.is_set():
                listed.set()
                mark("listed")

    tools.ToolRunner._call = _call
    tools._thread_catalogs = _thread_catalogs


def mark(moment):
    open(os.path.join(os.path.dirname(__file__), moment), "w").close()


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
    log = "".join(server.log)  # (not "no Traceback": a stream's end at SIGTERM may log one)
    assert "partially initialized" not in log and "could not list" not in log, log
    # the race happened: the import was held half made, and skc_init listed its catalogs then
    assert (hooks / "half_made").exists() and (hooks / "listed").exists(), log


CANCEL_HOOK = """
# skc_outline's tool ends only once the server saw its client go (or after 30 s)
import sys
import threading

went = threading.Event()
import skillc_mcp._http_streams as streams
import skillc_mcp._tools as tools

disconnected, call = streams._disconnected, tools.ToolRunner._call


async def _disconnected(receive):
    await disconnected(receive)
    went.set()


def _call(self, name, arguments):
    if name == "skc_outline":
        went.wait(30)
    return call(self, name, arguments)


streams._disconnected = _disconnected
tools.ToolRunner._call = _call
"""


def _hooked(
    start: Callable[..., HttpServer], env: dict[str, str], hooks: Path, hook: str, *args: str
) -> HttpServer:
    """The HTTP server (``ARGS``) with ``hook`` imported first."""
    hooks.mkdir()
    (hooks / "hook.py").write_text(hook, encoding="utf-8")
    path = os.pathsep.join(filter(None, [str(hooks), env.get("PYTHONPATH")]))
    script = [
        sys.executable,
        "-c",
        "import sys, hook; from skillc_mcp.quick import main; sys.exit(main())",
    ]
    return start(*args, script=script, environ={**env, "PYTHONPATH": path})


def test_a_call_whose_client_went_is_logged_cancelled(
    start: Callable[..., HttpServer], env: dict[str, str], tmp_path: Path
) -> None:
    """A call the client cancels over HTTP (its connection closed while the tool ran) was
    logged 200 by ``--log-requests``, as if answered; the stdio server logs ``cancelled``.
    The tool finishes in its thread; the line says ``cancelled`` and the server goes on."""
    server = _hooked(start, env, tmp_path / "hooks", CANCEL_HOOK, "--log-requests")
    params = {"name": "skc_outline", "arguments": {"skill": "demo"}, "_meta": MODERN_META}
    call = {"jsonrpc": "2.0", "id": 5, "method": "tools/call", "params": params}
    body = json.dumps(call).encode()
    host = server.url.split("/")[2]
    headers = {
        "content-type": "application/json",
        "accept": "application/json, text/event-stream",
        **mirrored(call),
    }
    head = f"POST /mcp HTTP/1.1\r\nhost: {host}\r\ncontent-length: {len(body)}\r\n"
    head += "".join(f"{k}: {v}\r\n" for k, v in headers.items())
    address, port = host.rsplit(":", 1)
    with socket.create_connection((address, int(port)), timeout=30) as client:
        client.sendall(head.encode() + b"\r\n" + body)
    httpx = pytest.importorskip("httpx")  # the server goes on answering
    again = {**call, "id": 6, "params": {**params, "name": "skc_list", "arguments": {}}}
    answer = httpx.post(
        server.url, headers={**headers, **mirrored(again)}, json=again, timeout=60
    ).json()
    assert not answer["result"]["isError"], answer
    assert server.stop() == 128 + 15
    lines = sorted(line.split(" ", 3)[3] for line in server.log if "tools/call" in line)
    assert [line.rsplit(" ", 2)[0] for line in lines] == [
        "tools/call skc_list 200",
        "tools/call skc_outline cancelled",
    ], server.log


NOTIFIED_HOOK = """
# skc_outline's tool says it started (a file beside this one) and ends once a cancellation
# was noted (or after 10 s)
import os
import threading

import skillc_mcp._http_streams as streams
import skillc_mcp._tools as tools

noted = threading.Event()
call = tools.ToolRunner._call
cancels = getattr(streams, "Cancels", None)


def _call(self, name, arguments):
    if name == "skc_outline":
        open(os.path.join(os.path.dirname(__file__), "started"), "w").close()
        noted.wait(10)
    return call(self, name, arguments)


if cancels is not None:
    notified = cancels.notified

    def _notified(self, session, message):
        cancelled = notified(self, session, message)
        if cancelled:  # (every message is asked: only the cancellation lets the call go on)
            noted.set()
        return cancelled

    cancels.notified = _notified
tools.ToolRunner._call = _call
"""


def test_a_call_a_legacy_client_cancels_by_notification_is_logged_cancelled(
    start: Callable[..., HttpServer], env: dict[str, str], tmp_path: Path
) -> None:
    """The SDK's legacy era cancels a call with ``notifications/cancelled`` on its session and
    may keep the call's connection open: the call was logged 200, and the notification
    waited for a free thread behind the calls (12 s). It is answered at once and the call
    is logged ``cancelled`` (its result is sent still: the client ignores it)."""
    httpx = pytest.importorskip("httpx")
    hooks = tmp_path / "hooks"
    server = _hooked(start, env, hooks, NOTIFIED_HOOK, "--log-requests")
    headers = {"content-type": "application/json", "accept": "application/json, text/event-stream"}
    init = {
        "jsonrpc": "2.0",
        "id": 1,
        "method": "initialize",
        "params": {"protocolVersion": "2025-11-25", "capabilities": {}},
    }
    opened = httpx.post(server.url, headers=headers, json=init, timeout=60)
    headers["mcp-session-id"] = opened.headers["mcp-session-id"]
    call = {"jsonrpc": "2.0", "id": 2, "method": "tools/call"}
    call["params"] = {"name": "skc_outline", "arguments": {"skill": "demo"}}
    answers: list[Any] = []
    caller = threading.Thread(
        target=lambda: answers.append(
            httpx.post(server.url, headers=headers, json=call, timeout=60)
        )
    )
    caller.start()
    for _ in range(600):  # the call runs (a bound, not a timing: each step waits 0.05 s)
        if (hooks / "started").exists():
            break
        time.sleep(0.05)
    cancel = {"jsonrpc": "2.0", "method": "notifications/cancelled", "params": {"requestId": 2}}
    assert httpx.post(server.url, headers=headers, json=cancel, timeout=60).status_code == 202
    caller.join(60)
    assert answers and answers[0].status_code == 200, answers
    # the transport answers a request's POST with JSON or a stream (202 is a notification's):
    # the result is sent, for the client to ignore
    answered = answers[0].json()
    assert answered["id"] == 2 and not answered["result"]["isError"], answered
    assert server.stop() == 128 + 15
    lines = [
        line.split(" ", 3)[3] for line in server.log if "POST" in line and "initial" not in line
    ]
    assert [line.rsplit(" ", 2)[0] for line in lines] == [
        "notifications/cancelled 202",
        "tools/call skc_outline cancelled",
    ], server.log
