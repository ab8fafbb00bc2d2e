"""The HTTP server's stop (SIGTERM) with calls running, a body half sent and a batch: one
deadline, a JSON-RPC answer for a call it cuts, and no traceback (found by an audit of
``skc mcp --http``: a call over 30 s got HTTP 500, uvicorn printed a ``CancelledError``
traceback, and the process waited for the call anyway, 47 s)."""

from __future__ import annotations

import os
import signal
import socket
import sys
import threading
import time
from collections.abc import Callable
from pathlib import Path
from typing import Any

import httpx

from skillc_mcp_testing import HttpServer

#: The stop's deadline shortened (4 s: a call is cut at 2 s, connections closed at 3 s), and
#: a ``ping`` whose params say ``slow`` takes that many seconds.
HOOK = """
import time
from skillc_mcp import _http_stop, _protocol
_http_stop.STOP_SECONDS, _http_stop.CUT_SECONDS, _http_stop.CLOSE_SECONDS = 4.0, 2.0, 3.0
dispatch = _protocol.Server._dispatch
def slow(self, method, params, request_id):
    time.sleep(params.get("slow", 0))
    return dispatch(self, method, params, request_id)
_protocol.Server._dispatch = slow
"""
HEADERS = {"content-type": "application/json", "accept": "application/json, text/event-stream"}
INIT = {
    "jsonrpc": "2.0",
    "id": 0,
    "method": "initialize",
    "params": {"protocolVersion": "2025-03-26", "capabilities": {}, "clientInfo": {"name": "t"}},
}


def _server(start: Callable[..., HttpServer], env: dict[str, str], tmp_path: Path) -> HttpServer:
    hooks = tmp_path / "hooks"
    hooks.mkdir()
    (hooks / "stop_hook.py").write_text(HOOK, encoding="utf-8")
    path = os.pathsep.join(filter(None, [str(hooks), env.get("PYTHONPATH")]))
    script = [
        sys.executable,
        "-c",
        "import sys, stop_hook; from skillc_mcp.quick import main; sys.exit(main())",
    ]
    return start("--log-requests", script=script, environ={**env, "PYTHONPATH": path})


def test_the_stop_answers_a_cut_call_and_keeps_its_deadline(
    start: Callable[..., HttpServer], env: dict[str, str], tmp_path: Path
) -> None:
    """SIGTERM with a call of 20 s running, a batch of slow pings, and a body half sent:
    the body's client gets 503 at once, the batch's call running finishes and the rest are
    -32603 unrun, the long call is answered -32603 at the cut (not HTTP 500), and the process
    exits 143 by the deadline (4 s here) without waiting for the call's thread, with no
    traceback or uvicorn error on stderr."""
    server = _server(start, env, tmp_path)
    sid = httpx.post(server.url, headers=HEADERS, json=INIT).headers["mcp-session-id"]
    session = {**HEADERS, "mcp-session-id": sid}
    got: dict[str, Any] = {}

    def post(name: str, body: Any) -> None:
        try:
            reply = httpx.post(server.url, headers=session, json=body, timeout=60)
            got[name] = (reply.status_code, reply.json())
        except httpx.HTTPError as exc:
            got[name] = exc

    long = {"jsonrpc": "2.0", "id": 1, "method": "ping", "params": {"slow": 20}}
    batch = [
        {"jsonrpc": "2.0", "id": 10 + i, "method": "ping", "params": {"slow": 1}} for i in range(5)
    ]
    posts = [
        threading.Thread(target=post, args=("long", long)),
        threading.Thread(target=post, args=("batch", batch)),
    ]
    for each in posts:
        each.start()
    host, port = server.url.split("//")[1].split("/")[0].rsplit(":", 1)
    half = socket.create_connection((host, int(port)))
    half.sendall(
        b"POST /mcp HTTP/1.1\r\nHost: 127.0.0.1\r\nContent-Type: application/json\r\n"
        b"Content-Length: 100\r\n\r\n{"
    )
    time.sleep(1.5)  # the long call and the batch's second ping run
    stopped = time.monotonic()
    server.process.send_signal(signal.SIGTERM)
    half.settimeout(10)
    answer = half.recv(4096)
    assert answer.startswith(b"HTTP/1.1 503") and time.monotonic() - stopped < 1
    assert server.stop() == 128 + signal.SIGTERM
    took = time.monotonic() - stopped
    for each in posts:
        each.join(10)
    assert 1.5 < took < 6, took  # the cut at 2 s, the deadline 4 s; not the 20 s call
    assert got["long"] == (
        200,
        {
            "jsonrpc": "2.0",
            "id": 1,
            "error": {
                "code": -32603,
                "message": "Internal error: the server stopped before this call finished",
            },
        },
    )
    status, replies = got["batch"]
    assert status == 200 and [r["id"] for r in replies] == [10, 11, 12, 13, 14]
    ran = [r for r in replies if "result" in r]
    assert 1 <= len(ran) <= 3 and replies[: len(ran)] == ran  # those run, then the rest
    for reply in replies[len(ran) :]:
        assert reply["error"] == {
            "code": -32603,
            "message": "Request not run: the batch was stopped",
        }
    log = "".join(server.log)
    assert "Traceback" not in log and "ERROR" not in log, log
    assert "stopped with a call still running" in log
    half.close()


def test_a_stop_with_nothing_running_is_at_once(
    start: Callable[..., HttpServer], env: dict[str, str], tmp_path: Path
) -> None:
    """Near miss: with calls done and a client that keeps its connection open, the stop
    takes well under the deadline and prints nothing more."""
    server = _server(start, env, tmp_path)
    with httpx.Client() as client:
        assert client.post(server.url, headers=HEADERS, json=INIT).status_code == 200
        stopped = time.monotonic()
        assert server.stop() == 128 + signal.SIGTERM
    assert time.monotonic() - stopped < 1.5
    log = "".join(server.log)
    assert "Traceback" not in log and "ERROR" not in log and "still running" not in log
