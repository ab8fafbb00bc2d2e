"""The HTTP transport's bounds, in process (its ASGI application driven directly): what a
client that refuses to play along (a body that never comes, a stream it does not read, an id
that is no JSON) may hold, and for how long (found by an adversarial sweep of ``skc mcp
--http``; each test failed before its fix); and a batch of revision 2025-03-26."""

from __future__ import annotations

import asyncio
import json
import sys
import time
from collections.abc import Iterator, MutableMapping
from pathlib import Path
from typing import Any

import pytest

from skillc_mcp import _http, _http_streams
from skillc_mcp._http import App

Message = MutableMapping[str, Any]
HEADERS = {
    "host": "localhost",
    "content-type": "application/json",
    "accept": "application/json, text/event-stream",
}
INIT = {
    "jsonrpc": "2.0",
    "id": 1,
    "method": "initialize",
    "params": {"protocolVersion": "2025-06-18", "capabilities": {}, "clientInfo": {"name": "t"}},
}


@pytest.fixture
def app(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Iterator[App]:
    monkeypatch.chdir(tmp_path)
    monkeypatch.setenv("HOME", str(tmp_path))
    monkeypatch.setenv("SKILLC_HOME", str(tmp_path / "home"))
    made = App(workers=1, max_waiting=0)
    yield made
    made.close()


class Call:
    """One request to the application: its body comes in ``chunks`` and then never more (or
    the client waits, as a stream's does); what the application sent is kept."""

    def __init__(
        self, body: bytes | None, headers: dict[str, str] | None = None, method: str = "POST"
    ) -> None:
        self.method = method
        self.chunks = [] if body is None else [body]
        self.headers = {**HEADERS, **(headers or {})}
        self.sent: list[Message] = []
        self.gone = asyncio.Event()

    async def receive(self) -> Message:
        if self.chunks:
            return {"type": "http.request", "body": self.chunks.pop(0), "more_body": False}
        await self.gone.wait()
        return {"type": "http.disconnect"}

    async def send(self, message: Message) -> None:
        self.sent.append(message)

    async def run(self, app: App) -> None:
        scope = {
            "type": "http",
            "method": self.method,
            "path": "/mcp",
            "headers": [(k.encode(), v.encode()) for k, v in self.headers.items()],
        }
        await app(scope, self.receive, self.send)

    @property
    def status(self) -> int:
        return int(self.sent[0]["status"])

    @property
    def response_headers(self) -> dict[str, str]:
        return {k.decode(): v.decode() for k, v in self.sent[0]["headers"]}

    def json(self) -> Any:
        body = b"".join(m.get("body", b"") for m in self.sent[1:])

        def refuse(constant: str) -> None:
            raise ValueError(f"not JSON: {constant}")

        return json.loads(body, parse_constant=refuse)


def test_a_refused_or_failed_initialize_opens_no_session(
    app: App, monkeypatch: pytest.MonkeyPatch
) -> None:
    """An ``initialize`` refused as busy opened a session all the same (its id in the
    reply, live for an hour: a burst of them filled the 1,000), as did one that failed.
    Near miss: one that succeeds opens one."""
    monkeypatch.setattr(_http, "BODY_SECONDS", 0.3)

    async def main() -> None:
        stalled = Call(None)  # its body never comes: it holds the one place meanwhile
        holding = asyncio.ensure_future(stalled.run(app))
        await asyncio.sleep(0.05)
        busy = Call(json.dumps(INIT).encode())
        await busy.run(app)
        assert busy.status == 503 and "mcp-session-id" not in busy.response_headers
        await holding
        assert stalled.status == 408  # the body did not come within BODY_SECONDS
        failed = Call(json.dumps({**INIT, "params": 5}).encode())
        await failed.run(app)
        assert "error" in failed.json() and "mcp-session-id" not in failed.response_headers
        assert not app._sessions
        opened = Call(json.dumps(INIT).encode())
        await opened.run(app)
        assert opened.status == 200 and list(app._sessions) == [
            opened.response_headers["mcp-session-id"]
        ]

    asyncio.run(main())


def test_an_allowed_host_with_a_port_matches_its_name(app: App) -> None:
    """``--allow-host skills.example.com:443`` was taken and never matched (the ``Host``
    header's port is dropped before comparing, the option's was not): every request was
    421. The option's port is dropped too; a value that is no host name is E061 (``app``:
    the fixture's home and working folder)."""
    from skillc_index import HttpServerError

    made = App(allowed_hosts=["Skills.Example.com:443"], loopback=False)
    try:
        for host, status in [("skills.example.com", 200), ("other.example.com", 421)]:
            call = Call(json.dumps(INIT).encode(), {"host": host})
            asyncio.run(call.run(made))
            assert call.status == status, host
    finally:
        made.close()
    for value in ("https://skills.example.com/", "a b", "-a.example", "[127.0.0.1]", "[a.example]"):
        with pytest.raises(HttpServerError, match="is not a host name"):
            App(allowed_hosts=[value])
    named = [("my_proxy", "my_proxy"), ("10.0.0.1:80", "10.0.0.1"), ("[::1]", "[::1]:8765")]
    for value, name in named:
        made = App(allowed_hosts=[value], loopback=False)
        try:
            call = Call(json.dumps(INIT).encode(), {"host": name})
            asyncio.run(call.run(made))
            assert call.status == 200, value
        finally:
            made.close()
    # a port of non-ASCII digits (str.isdigit takes them) is no port in a Host value either
    from skillc_mcp._http_guard import host_allowed

    allowed = frozenset({"skills.example.com"})
    assert host_allowed("skills.example.com:443", allowed, loopback=False)
    assert not host_allowed("skills.example.com:\u0663", allowed, loopback=False)
    assert not host_allowed("[::1]:\u0663", frozenset(), loopback=True)


def test_one_user_cannot_take_every_session(app: App) -> None:
    """1,005 ``initialize`` of one token holder filled the 1,000 sessions: every other
    user's was 503 for an hour. A user's sessions are capped below the total; a new one
    ends that user's least recently used, never another user's."""
    made = App(tokens={"alice": b"a" * 20, "bob": b"b" * 20}, max_sessions=4, max_user_sessions=2)

    def initialize(token: bytes) -> Call:
        call = Call(json.dumps(INIT).encode(), {"authorization": f"Bearer {token.decode()}"})
        asyncio.run(call.run(made))
        return call

    try:
        first = initialize(b"b" * 20).response_headers["mcp-session-id"]
        bobs = [initialize(b"b" * 20) for _ in range(5)]
        assert [call.status for call in bobs] == [200] * 5
        assert first not in made._sessions and len(made._sessions) == 2
        assert initialize(b"a" * 20).status == 200
        assert {session.user for session in made._sessions.values()} == {"alice", "bob"}
    finally:
        made.close()


def test_a_refusal_answers_an_id_that_is_no_json_with_null(app: App) -> None:
    """``"id": NaN`` (or ``1e400``, which Python reads as infinity) came back in the
    transport's own refusals as ``NaN``/``Infinity``: not JSON. The id is echoed only when
    it is a valid one (a string or an integer), as the dispatcher does."""

    async def main() -> None:
        for raw, expected in (("NaN", None), ("1e400", None), ("1.5", None), ('"a"', "a")):
            body = f'{{"jsonrpc":"2.0","id":{raw},"method":"tools/list"}}'.encode()
            call = Call(body)  # no session: 400
            await call.run(app)
            assert call.status == 400
            assert call.json()["id"] == expected

    asyncio.run(main())


def test_a_stream_whose_client_does_not_read_is_given_up(monkeypatch: pytest.MonkeyPatch) -> None:
    """A listen stream whose client stopped reading (its socket's buffer full: a write
    waits) held its place for as long as the client stayed, and the server's stop for 30 s
    (then a traceback). A write that waits :data:`SEND_SECONDS` gives the stream up, and one
    that waits when the stream ends (the server stops) at once. Near miss: a client that
    reads gets its notes."""
    monkeypatch.setattr(_http_streams, "SEND_SECONDS", 0.2)

    class Blocked:
        def __init__(self, after: int) -> None:
            self.after = after  # writes taken before the buffer is full
            self.sent: list[Message] = []

        async def send(self, message: Message) -> None:
            if message["type"] == "http.response.body" and len(self.sent) > self.after:
                await asyncio.Event().wait()  # never drains
            self.sent.append(message)

    async def never() -> Message:
        await asyncio.Event().wait()
        return {"type": "http.disconnect"}

    async def main() -> None:
        async def run(call: Any) -> Any:
            return call()

        hub = _http_streams.Hub(dict, lambda: None, run)
        change = object()
        # a client that reads: the acknowledgement, then a note, then the end
        reader = Blocked(after=10**6)
        stream = _http_streams.Stream(lambda _: [{"note": 1}], {"end": True})
        serving = asyncio.ensure_future(
            _http_streams.serve_stream(hub, stream, [{"ack": 1}], reader.send, never, [])
        )
        await asyncio.sleep(0.05)
        stream.push(change)  # type: ignore[arg-type]
        await asyncio.sleep(0.05)
        stream.end()
        assert await asyncio.wait_for(serving, 2) == 200
        bodies = [m.get("body", b"") for m in reader.sent[1:]]
        assert b'"note":1' in bodies[1] and b'"end":true' in bodies[2]
        # a client whose buffer is full after the acknowledgement
        for ends in (False, True):
            stuck = Blocked(after=1)
            stream = _http_streams.Stream(lambda _: [{"note": 1}], {"end": True})
            serving = asyncio.ensure_future(
                _http_streams.serve_stream(hub, stream, [{"ack": 1}], stuck.send, never, [])
            )
            await asyncio.sleep(0.05)
            stream.push(change)  # type: ignore[arg-type]
            if ends:
                await asyncio.sleep(0.05)
                stream.end()  # the server stops: not SEND_SECONDS later
                assert await asyncio.wait_for(serving, 0.15) == 200
            else:
                assert await asyncio.wait_for(serving, 2) == 200
            assert stream not in hub.streams

    asyncio.run(main())


def test_a_session_of_revision_2025_03_26_takes_a_batch_over_http(app: App) -> None:
    """A POST body may be a JSON-RPC batch in revision 2025-03-26: the responses come as one
    JSON array; a session of a later revision refuses it (-32600)."""

    async def main() -> None:
        old = {**INIT, "params": {**INIT["params"], "protocolVersion": "2025-03-26"}}
        opened = Call(json.dumps(old).encode())
        await opened.run(app)
        session = {"mcp-session-id": opened.response_headers["mcp-session-id"]}
        ping = {"jsonrpc": "2.0", "id": 7, "method": "ping"}
        note = {"jsonrpc": "2.0", "method": "notifications/initialized"}
        batch = Call(json.dumps([ping, note, {**ping, "id": 8}]).encode(), session)
        await batch.run(app)
        assert batch.status == 200
        assert batch.json() == [
            {"jsonrpc": "2.0", "id": 7, "result": {}},
            {"jsonrpc": "2.0", "id": 8, "result": {}},
        ]
        later = Call(json.dumps(INIT).encode())
        await later.run(app)
        refused = Call(
            json.dumps([ping]).encode(),
            {"mcp-session-id": later.response_headers["mcp-session-id"]},
        )
        await refused.run(app)
        assert refused.json()["error"]["code"] == -32600

    asyncio.run(main())


def test_an_invalid_or_unsupported_protocol_version_header_is_400(app: App) -> None:
    """An ``MCP-Protocol-Version`` header was never read: ``1999-01-01`` or ``not-a-version``
    on a session's request, or one that differs from a 2026-07-28 request's ``_meta``, was
    served with 200 (the transport specification: 400 Bad Request). Near misses: a
    supported header, none at all on a legacy request, and any on ``initialize`` (not
    agreed yet) are served."""
    meta = {"protocolVersion": "2026-07-28", "clientCapabilities": {}}
    modern = {"_meta": {f"io.modelcontextprotocol/{key}": value for key, value in meta.items()}}

    async def main() -> None:
        opened = Call(json.dumps(INIT).encode(), {"mcp-protocol-version": "2099-01-01"})
        await opened.run(app)
        assert opened.status == 200
        session = {"mcp-session-id": opened.response_headers["mcp-session-id"]}
        listing = {"jsonrpc": "2.0", "id": 2, "method": "tools/list"}
        for version, params, status, code in [
            ("1999-01-01", {}, 400, -32022),
            ("not-a-version", {}, 400, -32022),
            ("2025-06-18", {}, 200, None),
            (None, {}, 200, None),
            ("1999-01-01", modern, 400, -32020),
            ("2025-06-18", modern, 400, -32020),
            ("2026-07-28", modern, 200, None),
            (None, modern, 400, -32020),  # 2026-07-28 requires it
        ]:
            headers = dict(session if not params else {"mcp-method": "tools/list"})
            if version is not None:
                headers["mcp-protocol-version"] = version
            call = Call(json.dumps({**listing, "params": params}).encode(), headers)
            await call.run(app)
            assert call.status == status, (version, params)
            answer = call.json()
            assert answer["id"] == 2
            assert answer.get("error", {}).get("code") == code, answer
        for method in ("GET", "DELETE"):
            refused = Call(None, {**session, "mcp-protocol-version": "x"}, method)
            await refused.run(app)
            assert refused.status == 400 and refused.json()["error"]["code"] == -32022
        ended = Call(None, {**session, "mcp-protocol-version": "2025-06-18"}, "DELETE")
        await ended.run(app)
        assert ended.status == 204

    asyncio.run(main())


@pytest.fixture
def served(app: App, monkeypatch: pytest.MonkeyPatch) -> Iterator[tuple[str, int]]:
    """``app`` behind uvicorn as ``serve_http`` configures it (:func:`uvicorn_config`), in a
    thread, on a free loopback port; a request head's deadline of 0.5 s, 3 connections."""
    pytest.importorskip("uvicorn", reason="the http extra (tox.ini's mcp env installs it)")
    import socket
    import threading

    import uvicorn

    from skillc_mcp import _http_conn

    monkeypatch.setattr(_http_conn, "HEAD_SECONDS", 0.5)
    monkeypatch.setattr(_http_conn, "MAX_CONNECTIONS", 3)
    sock = socket.socket()
    sock.bind(("127.0.0.1", 0))
    server = uvicorn.Server(_http_conn.uvicorn_config(app))
    failed: list[BaseException] = []

    def run() -> None:
        try:
            server.run(sockets=[sock])
        except BaseException as exc:  # the fixture reports it, not the thread's hook
            failed.append(exc)

    thread = threading.Thread(target=run, daemon=True)
    thread.start()
    deadline = time.monotonic() + 30
    # a server that failed to start (uvicorn 0.30 importing websockets' deprecated legacy
    # module, an error under filterwarnings) ends its thread: waiting on `started` alone hung
    # until pytest's timeout
    while not server.started:
        if not thread.is_alive() or time.monotonic() > deadline:
            sock.close()
            if failed:
                raise RuntimeError(f"the server did not start: {failed[0]!r}") from failed[0]
            pytest.fail("the server did not start" + (" in 30 s" if thread.is_alive() else ""))
        thread.join(0.02)
    yield sock.getsockname()
    server.should_exit = True
    thread.join(30)
    sock.close()


def _closed(connection: Any, trickle: bytes = b"") -> bool:
    """Whether the server closes ``connection`` (within 20 s) while it sends ``trickle`` a
    byte every 0.1 s (a request head that never ends)."""
    connection.settimeout(0.1)
    for _ in range(200):
        if trickle:
            try:
                connection.send(trickle[:1])
            except OSError:
                return True
            trickle = trickle[1:] or b"a"
        try:
            if connection.recv(4096) == b"":
                return True
        except TimeoutError:
            continue
        except OSError:
            return True
    return False


def test_a_request_head_must_come_in_time_and_connections_are_bounded(
    served: tuple[str, int], monkeypatch: pytest.MonkeyPatch
) -> None:
    """Nothing bounded the time a request's head took: 300 connections each sending part of
    one used up the file descriptors (no token needed), and one sending a byte a second
    stayed open for good; after a first request too (keep-alive). A head must come within
    the deadline, and connections past the cap are closed as they open."""
    import socket

    slow = socket.create_connection(served)
    assert _closed(slow, b"POST /mcp HTTP/1.1\r\nHost: localhost\r\nX-Slow: ")
    kept = socket.create_connection(served)
    kept.sendall(b"GET /elsewhere HTTP/1.1\r\nHost: localhost\r\n\r\n")
    assert kept.recv(4096).startswith(b"HTTP/1.1 404")
    assert _closed(kept, b"GET /mcp HTTP/1.1\r\nX-Slow: ")
    from skillc_mcp import _http_conn

    monkeypatch.setattr(_http_conn, "HEAD_SECONDS", 600.0)  # the cap alone closes one now
    idle = [socket.create_connection(served) for _ in range(3)]
    extra = socket.create_connection(served)
    assert _closed(extra)
    for connection in (slow, kept, extra, *idle):
        connection.close()
    again = socket.create_connection(served)
    again.sendall(b"GET /elsewhere HTTP/1.1\r\nHost: localhost\r\n\r\n")
    assert again.recv(4096).startswith(b"HTTP/1.1 404")
    again.close()


@pytest.mark.parametrize("soft", [64, 200, 1024, 4096, 1 << 20])
def test_a_flood_of_accepts_stays_within_half_the_descriptors(
    soft: int, monkeypatch: pytest.MonkeyPatch
) -> None:
    """asyncio accepts up to the listening backlog (uvicorn's 2,048) before a connection is
    seen to open: with half the descriptors for connections, 300 partial heads under
    ``ulimit -n 200`` still ran accept out of descriptors (16,106 errors logged, calls reset).
    The cap and the backlog together stay within half the descriptors, whatever the limit."""
    import resource

    from skillc_mcp import _http_conn

    monkeypatch.setattr(resource, "getrlimit", lambda _which: (soft, resource.RLIM_INFINITY))
    config = _http_conn.uvicorn_config(object())
    assert config.http.shares.total + config.backlog <= max(soft // 2, 16)


def test_the_server_loads_no_websocket_protocol(app: App) -> None:
    """MCP has no WebSocket transport, yet uvicorn's default (``ws="auto"``) imported
    websockets when installed: uvicorn 0.30, the http extra's bound, imported its deprecated
    ``legacy`` module (websockets 14 or later), so the served tests' server, warnings being
    errors, never started there. The configuration loads no WebSocket protocol."""
    pytest.importorskip("uvicorn", reason="the http extra (tox.ini's mcp env installs it)")
    from skillc_mcp import _http_conn

    config = _http_conn.uvicorn_config(app)
    config.load()
    assert config.ws_protocol_class is None


def test_a_chunk_not_followed_by_its_crlf_is_refused(served: tuple[str, int]) -> None:
    """h11 before 0.16 did not check the two bytes after a chunk's data (CVE-2025-43859,
    request smuggling behind a proxy): such a request was answered 200, now 400; the http
    extra requires that h11 (the ``lowest`` env installs it at its bound)."""
    import socket

    if sys.version_info >= (3, 11):
        import tomllib
    else:
        import tomli as tomllib

    project = tomllib.loads((Path(__file__).parents[1] / "pyproject.toml").read_text("utf-8"))
    assert "h11>=0.16" in project["project"]["optional-dependencies"]["http"]
    body = json.dumps(INIT).encode()
    head = b"POST /mcp HTTP/1.1\r\nHost: localhost\r\nTransfer-Encoding: chunked\r\n"
    head += b"".join(f"{k}: {v}\r\n".encode() for k, v in HEADERS.items() if k != "host")
    with socket.create_connection(served, timeout=10) as connection:
        connection.sendall(head + b"\r\n" + b"%x\r\n" % len(body) + body + b"XX0\r\n\r\n")
        assert connection.recv(4096).startswith(b"HTTP/1.1 400")


def test_a_body_nested_too_deep_is_answered_with_its_id(app: App) -> None:
    """A body nested deeper than 64 levels was 400 -32700 with id null, though it is JSON.
    It is answered with its id, -32602 for a value nested too deep in ``params``, in a
    legacy session, a 2026-07-28 request and a 2025-03-26 batch (whose other requests run);
    a body that is no JSON is still -32700 with id null."""
    deep = [["x"]]
    for _ in range(70):
        deep = [deep]
    meta = {"protocolVersion": "2026-07-28", "clientCapabilities": {}}
    modern = {f"io.modelcontextprotocol/{key}": value for key, value in meta.items()}
    too_deep = {"code": -32602, "message": "Invalid params: nested deeper than 64 levels"}

    def call(request_id: int, **extra: Any) -> dict[str, Any]:
        params = {"name": "skc_open", "arguments": {"skill": "x", "path": deep}, **extra}
        return {"jsonrpc": "2.0", "id": request_id, "method": "tools/call", "params": params}

    async def main() -> None:
        for version in ("2025-06-18", "2025-03-26"):
            opened = Call(
                json.dumps(
                    {**INIT, "params": {**INIT["params"], "protocolVersion": version}}
                ).encode()
            )
            await opened.run(app)
            session = {"mcp-session-id": opened.response_headers["mcp-session-id"]}
            answered = Call(json.dumps(call(3)).encode(), session)
            await answered.run(app)
            assert answered.json() == {"jsonrpc": "2.0", "id": 3, "error": too_deep}
        ping = {"jsonrpc": "2.0", "id": 8, "method": "ping"}
        batch = Call(json.dumps([call(7), ping]).encode(), session)  # the 2025-03-26 session
        await batch.run(app)
        assert batch.json() == [
            {"jsonrpc": "2.0", "id": 7, "error": too_deep},
            {"jsonrpc": "2.0", "id": 8, "result": {}},
        ]
        headers = {"mcp-method": "tools/call", "mcp-name": "skc_open"}
        headers["mcp-protocol-version"] = "2026-07-28"
        request = Call(json.dumps(call(4, _meta=modern)).encode(), headers)
        await request.run(app)
        assert request.json() == {"jsonrpc": "2.0", "id": 4, "error": too_deep}
        # a notification so deep is refused (400, no answer), never acted on: a cancellation
        cancels = {"requestId": 3, "reason": deep}
        cancel = {"jsonrpc": "2.0", "method": "notifications/cancelled", "params": cancels}
        refused = Call(json.dumps(cancel).encode(), session)
        await refused.run(app)
        assert refused.status == 400
        assert b"".join(m.get("body", b"") for m in refused.sent[1:]) == b""
        from skillc_mcp._cut import read_message

        read = read_message(json.dumps(cancel), 1 << 20)
        assert not _http_streams.Cancels().notified("s", read)  # not taken for a cancellation
        broken = Call(json.dumps(call(5))[:-2].encode() + b"}", session)  # one '}' short
        await broken.run(app)
        assert broken.status == 400
        assert broken.json()["id"] is None and broken.json()["error"]["code"] == -32700

    asyncio.run(main())
