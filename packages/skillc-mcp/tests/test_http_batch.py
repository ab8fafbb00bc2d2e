"""What one request may make the HTTP server hold (found by an audit of ``skc mcp --http``;
each test failed before its fix): a JSON-RPC batch's calls and replies, a batch whose client
went, a reply the client does not read, an expired session's event stream, and a token file
other users may read."""

from __future__ import annotations

import asyncio
import json
import os
import subprocess
import time
from collections.abc import Callable, Iterator
from pathlib import Path
from typing import Any

import pytest

from skillc_mcp import _http_streams, _protocol
from skillc_mcp._http import App
from skillc_mcp._http_guard import load_tokens
from skillc_mcp._protocol import Server
from test_http_bounds import INIT, Call, Message

OLD = {**INIT, "params": {**INIT["params"], "protocolVersion": "2025-03-26"}}  # takes batches


@pytest.fixture
def app(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Iterator[App]:
    monkeypatch.chdir(tmp_path)
    monkeypatch.setenv("HOME", str(tmp_path))
    monkeypatch.setenv("SKILLC_HOME", str(tmp_path / "home"))
    made = App(workers=1, max_waiting=0, session_idle=0.3)
    yield made
    made.close()


@pytest.fixture
def dispatched(monkeypatch: pytest.MonkeyPatch) -> list[object]:
    """The ids of the requests the servers dispatch (each takes 0.02 s)."""
    seen: list[object] = []
    dispatch = Server._dispatch

    def counted(self: Server, method: str, params: dict[str, Any], request_id: Any) -> Any:
        seen.append(request_id)
        time.sleep(0.02)
        return dispatch(self, method, params, request_id)

    monkeypatch.setattr(Server, "_dispatch", counted)
    return seen


async def _session(app: App, init: dict[str, Any] = OLD) -> dict[str, str]:
    opened = Call(json.dumps(init).encode())
    await opened.run(app)
    return {"mcp-session-id": opened.response_headers["mcp-session-id"]}


def _pings(count: int) -> bytes:
    pings = [{"jsonrpc": "2.0", "id": i, "method": "ping"} for i in range(count)]
    return json.dumps(pings).encode()


def test_a_batch_holds_at_most_64_messages(app: App, dispatched: list[object]) -> None:
    """A batch of 6,400 ``skc_open`` calls in one 1 MiB body made a 506 MB reply: a batch
    of more than 64 messages is one -32600 (id null), none of it run. Near miss: 64 run."""

    async def main() -> None:
        session = await _session(app)
        dispatched.clear()
        refused = Call(_pings(65), session)
        await refused.run(app)
        assert refused.status == 200 and dispatched == []
        assert refused.json() == {
            "jsonrpc": "2.0",
            "id": None,
            "error": {
                "code": -32600,
                "message": "Invalid Request: a batch of 65 messages; at most 64 are allowed",
            },
        }
        taken = Call(_pings(64), session)
        await taken.run(app)
        assert [r["result"] for r in taken.json()] == [{}] * 64 and len(dispatched) == 64

    asyncio.run(main())


def test_a_batchs_responses_are_bounded(
    app: App, dispatched: list[object], monkeypatch: pytest.MonkeyPatch
) -> None:
    """The responses of a batch hold at most MAX_BATCH_REPLY characters: a request whose
    smallest response would pass it is not run, -32600 as every one after it (a
    notification among them still gets nothing); the bound is checked before the call."""
    # two pings' responses (35 characters each): a third's could not fit
    monkeypatch.setattr(_protocol, "MAX_BATCH_REPLY", 80, raising=False)

    async def main() -> None:
        session = await _session(app)
        dispatched.clear()
        messages = json.loads(_pings(5))
        messages.insert(4, {"jsonrpc": "2.0", "method": "notifications/initialized"})
        batch = Call(json.dumps(messages).encode(), session)
        await batch.run(app)
        replies = batch.json()
        assert [r["id"] for r in replies] == [0, 1, 2, 3, 4]
        assert [r["result"] for r in replies[:2]] == [{}, {}]
        for reply in replies[2:]:
            assert reply["error"]["code"] == -32600
            assert "pass 80 characters: send this request alone" in reply["error"]["message"]
            assert "(not run)" in reply["error"]["message"]
        assert dispatched == [0, 1]  # the third is not run: its response could not fit

    asyncio.run(main())


def test_a_batch_call_that_ran_past_the_bound_says_it_ran(
    app: App, dispatched: list[object], monkeypatch: pytest.MonkeyPatch
) -> None:
    """A call whose response passed the bound had run, yet was answered -32600 ``send this
    request alone``, which says it did not: a client sent it again and it ran twice
    (``skc_build`` deployed twice). It is -32603 with ``data.ran``; those after it -32600."""
    monkeypatch.setattr(_protocol, "MAX_BATCH_REPLY", 200, raising=False)

    async def main() -> None:
        session = await _session(app)
        dispatched.clear()
        messages = [
            {"jsonrpc": "2.0", "id": 0, "method": "ping"},
            {"jsonrpc": "2.0", "id": 1, "method": "tools/list"},  # thousands of characters
            {"jsonrpc": "2.0", "id": 2, "method": "ping"},
        ]
        batch = Call(json.dumps(messages).encode(), session)
        await batch.run(app)
        replies = batch.json()
        assert [r["id"] for r in replies] == [0, 1, 2]
        assert replies[0]["result"] == {}
        ran = replies[1]["error"]
        assert ran["code"] == -32603 and ran["data"] == {"ran": True}
        assert "this request ran, but its response was dropped" in ran["message"]
        assert replies[2]["error"]["code"] == -32600
        assert dispatched == [0, 1]  # the tools/list ran; the ping after it did not

    asyncio.run(main())


def test_a_batch_whose_client_went_runs_no_more_calls(app: App, dispatched: list[object]) -> None:
    """A client that hung up did not stop its batch: four batches of ``skc_find`` held every
    worker, another user's ``tools/list`` waited 63 s. The calls not yet run are left."""

    async def main() -> None:
        session = await _session(app)
        dispatched.clear()
        batch = Call(_pings(60), session)  # 60 x 0.02 s
        running = asyncio.ensure_future(batch.run(app))
        await asyncio.sleep(0.15)
        batch.gone.set()
        await asyncio.wait_for(running, 5)
        assert 1 <= len(dispatched) <= 20 and batch.sent == []  # nothing sent: it went
        after = Call(_pings(3), session)  # the worker is free again: near miss
        await after.run(app)
        assert len(after.json()) == 3

    asyncio.run(main())


def test_a_plain_reply_has_a_write_deadline(app: App, monkeypatch: pytest.MonkeyPatch) -> None:
    """A client that never read its reply held it whole (1.3 GB for six) as long as it
    stayed: a reply is sent in pieces, each within SEND_SECONDS, as an event stream's writes,
    and given up after. Near miss: a client that reads gets the pieces, which make the whole."""
    monkeypatch.setattr(_http_streams, "SEND_SECONDS", 0.2)
    monkeypatch.setattr(_http_streams, "REPLY_CHUNK", 64, raising=False)

    class Stuck(Call):
        """A client whose socket's buffer is full after 64 bytes: a write then never ends (a
        write taken sits in the server's buffer: one of the whole reply held all of it)."""

        async def send(self, message: Message) -> None:
            if sum(len(m.get("body", b"")) for m in self.sent) >= 64:
                await asyncio.Event().wait()
            self.sent.append(message)

    async def main() -> None:
        session = await _session(app)
        stuck = Stuck(_pings(10), session)
        started = time.monotonic()
        await asyncio.wait_for(stuck.run(app), 3)
        assert time.monotonic() - started < 2
        assert [len(m["body"]) for m in stuck.sent[1:]] == [64]  # one piece held, not all
        reader = Call(_pings(10), session)
        await reader.run(app)
        bodies = reader.sent[1:]
        assert len(bodies) > 5 and all(len(m["body"]) <= 64 for m in bodies)
        assert [m["more_body"] for m in bodies] == [True] * (len(bodies) - 1) + [False]
        assert [r["id"] for r in reader.json()] == list(range(10))

    asyncio.run(main())


def test_an_expired_sessions_event_stream_ends(app: App) -> None:
    """An expired session's GET stream stayed open (its ping and DELETE were 404), held one
    of the 256 stream places and got notes: it ends with the session, however that ends."""
    if not app._hub.can_watch:
        pytest.skip("event streams watch the skills with inotify (Linux)")
    stream_headers = {"accept": "text/event-stream"}

    async def main() -> None:
        for end in ("initialize", "ping"):
            session = await _session(app, INIT)
            get = Call(None, {**session, **stream_headers}, method="GET")
            serving = asyncio.ensure_future(get.run(app))
            for _ in range(100):
                if get.sent:  # its head: the stream is open
                    break
                await asyncio.sleep(0.02)
            assert len(app._hub.streams) == 1 and get.status == 200
            await asyncio.sleep(0.4)  # past session_idle
            if end == "initialize":  # another session opens: the expired one is ended
                await _session(app, INIT)
            else:  # its own next request finds it expired
                ping = Call(_pings(1)[1:-1], session)
                await ping.run(app)
                assert ping.status == 404
            await asyncio.wait_for(serving, 2)
            assert not app._hub.streams

    asyncio.run(main())


@pytest.mark.skipif(os.name != "posix", reason="file modes are POSIX")
def test_a_token_file_others_may_write_is_refused_one_they_may_read_warned(
    tmp_path: Path,
    script_path: Callable[[str], Path],
    project: Path,
    env: dict[str, str],
    capsys: pytest.CaptureFixture[str],
) -> None:
    """The lead's ruling: a token file group or others may write is E061 with a ``chmod
    600`` hint (anyone could add a token) and the server does not start; one they may only
    read (Kubernetes' secret volumes are 0644, Docker's secrets 0444: refusing it stopped
    such servers after an upgrade) is taken with a warning on stderr. 600 and 400: nothing."""
    from skillc_index import HttpServerError

    tokens = tmp_path / "tokens"
    tokens.write_text("alice:" + "a" * 24 + "\n", encoding="utf-8")
    for mode in (0o664, 0o620, 0o602, 0o666):
        tokens.chmod(mode)
        with pytest.raises(HttpServerError) as raised:
            load_tokens(str(tokens))
        diagnostic = raised.value.diagnostic
        assert f"writable by other users (mode {mode:04o})" in str(diagnostic.message)
        assert f"chmod 600 '{tokens}'" in diagnostic.detail
    capsys.readouterr()
    for mode in (0o644, 0o640, 0o604, 0o444):
        tokens.chmod(mode)
        assert list(load_tokens(str(tokens))) == ["alice"]
        assert capsys.readouterr().err == (
            f"warning: token file '{tokens}' is readable by other users (mode {mode:04o}): "
            f"chmod 600 '{tokens}'\n"
        )
    for mode in (0o600, 0o700, 0o400):
        tokens.chmod(mode)
        assert list(load_tokens(str(tokens))) == ["alice"]
        assert capsys.readouterr().err == ""
    tokens.chmod(0o664)
    command = [str(script_path("skillc-mcp")), "--http", "127.0.0.1:0", "--tokens", str(tokens)]
    done = subprocess.run(
        command, cwd=project, env=env, capture_output=True, text=True, timeout=60, check=False
    )
    assert done.returncode == 1 and done.stdout == ""
    lines = done.stderr.splitlines()
    assert lines[0].startswith("error[E061]") and "writable by other users" in lines[0]
    assert any("chmod 600" in line for line in lines) and "Traceback" not in done.stderr
    tokens.chmod(0o644)  # started, with the warning first
    with subprocess.Popen(
        command, cwd=project, env=env, stderr=subprocess.PIPE, text=True
    ) as server:
        assert server.stderr is not None
        first, second = server.stderr.readline(), server.stderr.readline()
        server.terminate()
        server.communicate(timeout=30)
    assert first == (
        f"warning: token file '{tokens}' is readable by other users (mode 0644): "
        f"chmod 600 '{tokens}'\n"
    )
    assert "serving MCP on http://" in second
