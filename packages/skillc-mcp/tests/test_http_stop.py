"""The HTTP server's stop (SIGTERM) with calls running, a body half sent and a batch: one
deadline, a JSON-RPC answer for a call it cuts, and no traceback (found by an audit of
``skc mcp --http``: a call over 30 s got HTTP 500, uvicorn printed a ``CancelledError``
traceback, and the process waited for the call anyway, 47 s)."""

from __future__ import annotations

import os
import signal
import socket
import sqlite3
import sys
import threading
import time
from collections.abc import Callable
from contextlib import closing
from pathlib import Path
from typing import Any

import httpx

from skillc_mcp._http_stop import cut_response
from skillc_mcp_testing import MODERN_META, HttpServer, mirrored

#: The stop's deadline shortened (4 s: a call is cut at 2 s, connections closed at 3 s), and
#: a ``ping`` whose params say ``slow`` takes that many seconds.
HOOK = """
import time
from skillc_mcp import _http_stop, _protocol, _skills
_http_stop.STOP_SECONDS, _http_stop.CUT_SECONDS, _http_stop.CLOSE_SECONDS = 4.0, 2.0, 3.0
dispatch = _protocol.Server._dispatch
def slow(self, method, params, request_id):
    time.sleep(params.get("slow", 0))
    return dispatch(self, method, params, request_id)
_protocol.Server._dispatch = slow
skills_call = _skills.SkillsMethods.call
def slow_skills(self, method, params, on_read=None):  # within the Skills extension's lock
    time.sleep(params.get("_meta", {}).get("slowSkills", 0))
    return skills_call(self, method, params, on_read)
_skills.SkillsMethods.call = slow_skills
"""
#: Besides, the process makes its private index runtime (in $TMPDIR), as a search of a
#: skill whose runtime cannot be written does: its exit removes it.
PRIVATE = """
from skillc_index.index import cache
cache._private_runtime()
"""
HEADERS = {"content-type": "application/json", "accept": "application/json, text/event-stream"}
INIT = {
    "jsonrpc": "2.0",
    "id": 0,
    "method": "initialize",
    "params": {"protocolVersion": "2025-03-26", "capabilities": {}, "clientInfo": {"name": "t"}},
}


def _server(
    start: Callable[..., HttpServer], env: dict[str, str], tmp_path: Path, private: bool = False
) -> HttpServer:
    hooks = tmp_path / "hooks"
    hooks.mkdir()
    (hooks / "stop_hook.py").write_text(HOOK + (PRIVATE if private else ""), encoding="utf-8")
    path = os.pathsep.join(filter(None, [str(hooks), env.get("PYTHONPATH")]))
    if private:
        (tmp_path / "tmp").mkdir()
        env = {**env, "TMPDIR": str(tmp_path / "tmp")}
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
                "data": {"ran": "unknown"},
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
            "data": {"ran": False},
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


def test_a_cut_batch_keeps_its_finished_calls_and_the_stop_cleans_up(
    start: Callable[..., HttpServer], env: dict[str, str], tmp_path: Path, project: Path
) -> None:
    """A batch cut by the stop was answered -32603 "stopped before this call finished" for
    every request, those that ran too (and were logged as uses): those keep their responses,
    only the call cut and those after it are -32603, told apart by ``data.ran`` (the call cut
    "unknown", those after it false: they can be sent again). A cut stop ends with
    ``os._exit``, which skipped the exit's cleanup: the private index runtime
    (``$TMPDIR/skillc-index-*``) was left at each; it is removed, and the access-log rows
    of calls done before the stop are written."""
    server = _server(start, env, tmp_path, private=True)
    assert len(list((tmp_path / "tmp").glob("skillc-index-*"))) == 1  # the hook made it
    sid = httpx.post(server.url, headers=HEADERS, json=INIT).headers["mcp-session-id"]
    session = {**HEADERS, "mcp-session-id": sid}
    show = {"name": "skc_show", "arguments": {"skill": "demo", "section": "Usage"}}
    call = {"jsonrpc": "2.0", "id": 1, "method": "tools/call", "params": show}
    assert httpx.post(server.url, headers=session, json=call).json()["result"]["isError"] is False
    batch = [
        {"jsonrpc": "2.0", "id": 20, "method": "ping"},
        call | {"id": 21},
        {"jsonrpc": "2.0", "method": "notifications/initialized"},
        {"jsonrpc": "2.0", "id": 22, "method": "ping", "params": {"slow": 20}},
        {"jsonrpc": "2.0", "id": 23, "method": "ping"},
    ]
    got: dict[str, Any] = {}

    def post() -> None:
        reply = httpx.post(server.url, headers=session, json=batch, timeout=60)
        got["batch"] = (reply.status_code, reply.json())

    posting = threading.Thread(target=post)
    posting.start()
    time.sleep(1)  # the first two ran, the slow ping runs
    stopped = time.monotonic()
    server.process.send_signal(signal.SIGTERM)
    assert server.stop() == 128 + signal.SIGTERM
    assert time.monotonic() - stopped < 6
    posting.join(10)
    status, replies = got["batch"]
    assert status == 200 and [r["id"] for r in replies] == [20, 21, 22, 23]
    assert replies[0]["result"] == {} and replies[1]["result"]["isError"] is False
    cut = "Internal error: the server stopped before this call finished"
    not_run = "Request not run: the batch was stopped"
    assert [r["error"] for r in replies[2:]] == [  # the call cut, then one that never ran
        {"code": -32603, "message": cut, "data": {"ran": "unknown"}},
        {"code": -32603, "message": not_run, "data": {"ran": False}},
    ]
    assert "stopped with a call still running" in "".join(server.log)
    assert list((tmp_path / "tmp").glob("skillc-index-*")) == []
    logs = project / ".skillc" / "runtime" / "demo" / ".skillc-meta" / "logs.db"
    with closing(sqlite3.connect(logs)) as db, db:
        rows = db.execute("SELECT command FROM access_log").fetchall()
    assert rows == [("show",), ("show",)]  # the call alone and the batch's: both ran


def test_a_stop_does_not_wait_past_its_deadline_for_a_skills_call(
    start: Callable[..., HttpServer], env: dict[str, str], tmp_path: Path
) -> None:
    """A ``skills/list`` of 15 s running at the stop held it 14.5 s past its 4 s deadline:
    the stop closed the served skills, which waited for the Skills extension's lock that
    call held. The lock is waited for only until the deadline."""
    server = _server(start, env, tmp_path)
    listing = {
        "jsonrpc": "2.0",
        "id": 7,
        "method": "skills/list",
        "params": {"_meta": {**MODERN_META, "slowSkills": 15}},
    }
    headers = {**HEADERS, **mirrored(listing)}
    got: dict[str, Any] = {}

    def post() -> None:
        reply = httpx.post(server.url, headers=headers, json=listing, timeout=60)
        got["list"] = (reply.status_code, reply.json())

    posting = threading.Thread(target=post)
    posting.start()
    time.sleep(0.5)
    stopped = time.monotonic()
    server.process.send_signal(signal.SIGTERM)
    assert server.stop() == 128 + signal.SIGTERM
    took = time.monotonic() - stopped
    posting.join(10)
    assert 1.5 < took < 6, took  # the deadline (4 s), not the call's 15 s
    assert got["list"][1]["error"]["code"] == -32603
    log = "".join(server.log)
    assert "stopped with a call still running" in log and "Traceback" not in log


def _held(log: Path) -> sqlite3.Connection:
    """``log`` held by an open write transaction (as ``skc sync`` or ``stats prune`` do)."""
    db = sqlite3.connect(log, isolation_level=None)
    db.execute("BEGIN IMMEDIATE")
    return db


def test_a_stop_does_not_wait_past_its_deadline_for_a_held_log(
    start: Callable[..., HttpServer], env: dict[str, str], tmp_path: Path, project: Path
) -> None:
    """The access-log writer sat in SQLite's busy wait (10 s) on a log another process
    held, and the stop joined it without a deadline: with the skill's log and its fallback
    held by write transactions, a stop after a finished call exits by its deadline (4 s)."""
    server = _server(start, env, tmp_path)
    sid = httpx.post(server.url, headers=HEADERS, json=INIT).headers["mcp-session-id"]
    session = {**HEADERS, "mcp-session-id": sid}
    show = {"name": "skc_show", "arguments": {"skill": "demo", "section": "Usage"}}
    call = {"jsonrpc": "2.0", "id": 1, "method": "tools/call", "params": show}
    primary = project / ".skillc" / "runtime" / "demo" / ".skillc-meta" / "logs.db"
    fallback = project / ".skillc" / "logs" / "demo" / ".skillc-meta" / "logs.db"

    def rows(log: Path) -> int:
        with closing(sqlite3.connect(log)) as db:
            return int(db.execute("SELECT count(*) FROM access_log").fetchone()[0])

    def wait_for(log: Path) -> None:
        end = time.monotonic() + 10
        while not (log.exists() and rows(log)):
            assert time.monotonic() < end, log
            time.sleep(0.1)

    assert httpx.post(server.url, headers=session, json=call).json()["result"]["isError"] is False
    wait_for(primary)
    with closing(_held(primary)):
        assert httpx.post(server.url, headers=session, json=call).status_code == 200
        wait_for(fallback)  # the row went to the fallback: the primary log was held
        with closing(_held(fallback)):
            assert httpx.post(server.url, headers=session, json=call).status_code == 200
            time.sleep(1.5)  # the writer waits for the fallback (its busy timeout: 10 s)
            stopped = time.monotonic()
            assert server.stop() == 128 + signal.SIGTERM
            took = time.monotonic() - stopped
    assert took < 6, took  # the deadline (4 s), not the busy timeout
    log = "".join(server.log)
    assert "Traceback" not in log and "still running" not in log, log


def test_a_cut_batch_says_which_call_was_running() -> None:
    """The first message left unanswered is the one running: when it is a notification (no
    response), the requests after it never ran."""
    ping = {"jsonrpc": "2.0", "method": "ping"}
    note = {"jsonrpc": "2.0", "method": "notifications/initialized"}
    done = {"jsonrpc": "2.0", "id": 1, "result": {}}
    replies = cut_response([ping | {"id": 1}, note, ping | {"id": 2}, ping | {"id": 3}], [done])
    assert isinstance(replies, list) and replies[0] == done
    assert [(r["id"], r["error"]["data"]) for r in replies[1:]] == [
        (2, {"ran": False}),
        (3, {"ran": False}),
    ]
    replies = cut_response([ping | {"id": 1}, ping | {"id": 2}, note], [done])
    assert isinstance(replies, list)
    assert [r["error"]["data"] for r in replies[1:]] == [{"ran": "unknown"}]
