"""Change notifications the 2026-07-28 way (``subscriptions/listen``) and the legacy way
(``resources/subscribe``, the GET stream of HTTP), spoken to by the official ``mcp`` SDK's
client over stdio and Streamable HTTP: the real server process, real files changed in an agent
folder, the notifications the client's own listen driver receives."""

from __future__ import annotations

import io
import json
import signal
import subprocess
import sys
import time
from collections.abc import Callable
from pathlib import Path
from typing import Any

import anyio
import pytest
from mcp import Client, StdioServerParameters
from mcp.client.stdio import stdio_client

from skillc_mcp_testing import mirrored, sdk_env

pytestmark = pytest.mark.skipif(
    not sys.platform.startswith("linux"), reason="the skills are watched with Linux inotify"
)

DELTA = "---\nname: delta\ndescription: A skill added while the server runs.\n---\n\n# Delta\n"
DELTA_URI = "skill://delta/SKILL.md"
UPDATED = "notifications/resources/updated"
WAIT = 20.0
"""Seconds a test waits for a notification (a loaded machine)."""


def _stdio(server_command: list[str], project: Path, home: Path) -> Any:
    params = StdioServerParameters(
        command=server_command[0],
        args=server_command[1:],
        env=sdk_env(home),
        cwd=project,
    )
    return stdio_client(params, errlog=sys.stderr)


async def _changes(client: Client, skills: Path) -> tuple[list[Any], list[Any], Any]:
    """Listen for the list and for delta's SKILL.md, add delta, edit it: the events of each
    step, and the acknowledgement."""
    async with client.listen(
        resources_list_changed=True, resource_subscriptions=[DELTA_URI]
    ) as subscription:
        honored = subscription.honored
        (skills / "delta").mkdir()
        (skills / "delta" / "SKILL.md").write_text(DELTA, encoding="utf-8")
        added = await _next(subscription, 2)
        (skills / "delta" / "SKILL.md").write_text(DELTA + "\nEdited.\n", encoding="utf-8")
        edited = await _next(subscription, 2)
    return added, edited, honored


async def _next(subscription: Any, count: int) -> list[Any]:
    events: list[Any] = []
    with anyio.fail_after(WAIT):
        async for event in subscription:
            events.append(event)
            if len(events) == count:
                break
    return events


def _kinds(events: list[Any]) -> set[str]:
    return {type(e).__name__ + (f":{e.uri}" if hasattr(e, "uri") else "") for e in events}


EXPECTED = {"ResourcesListChanged", f"ResourceUpdated:{DELTA_URI}"}


def test_listen_over_stdio(server_command: list[str], project: Path, home: Path) -> None:
    skills = home / ".claude" / "skills"
    skills.mkdir(parents=True, exist_ok=True)

    async def main() -> tuple[list[Any], list[Any], Any, Any]:
        async with Client(_stdio(server_command, project, home), mode="2026-07-28") as client:
            added, edited, honored = await _changes(client, skills)
            read = await client.read_resource(DELTA_URI)
            return added, edited, honored, read

    added, edited, honored, read = anyio.run(main)
    assert honored.resources_list_changed is True
    assert honored.resource_subscriptions == [DELTA_URI]
    assert not honored.tools_list_changed  # the tool list never changes: not honored
    assert _kinds(added) == EXPECTED and _kinds(edited) == EXPECTED
    assert read.contents[0].text.endswith("Edited.\n")


def test_a_stream_not_asked_for_a_kind_gets_none_of_it(
    server_command: list[str], project: Path, home: Path
) -> None:
    skills = home / ".claude" / "skills"
    skills.mkdir(parents=True, exist_ok=True)
    (skills / "other").mkdir()
    (skills / "other" / "SKILL.md").write_text(DELTA.replace("delta", "other"), encoding="utf-8")

    async def main() -> list[Any]:
        client = Client(_stdio(server_command, project, home), mode="2026-07-28")
        async with client, client.listen(resource_subscriptions=[DELTA_URI]) as subscription:
            # another skill changes: no list notification (not asked), no update (not delta)
            other = skills / "other" / "SKILL.md"
            other.write_text(other.read_text() + "\nEdited.\n", encoding="utf-8")
            await anyio.sleep(1.5)
            (skills / "delta").mkdir()
            (skills / "delta" / "SKILL.md").write_text(DELTA, encoding="utf-8")
            return await _next(subscription, 1)

    assert _kinds(anyio.run(main)) == {f"ResourceUpdated:{DELTA_URI}"}


def test_sigterm_ends_a_listen_stream_with_its_response(
    server_command: list[str], project: Path, home: Path, line_within: Callable[..., Any]
) -> None:
    """Raw wire: the acknowledgement comes first, the response (stamped with the
    subscription id) when the server stops; a second listen beyond none is fine."""
    env = {**sdk_env(home), "PATH": "/usr/bin:/bin"}
    process = subprocess.Popen(
        server_command, cwd=project, env=env, stdin=subprocess.PIPE, stdout=subprocess.PIPE
    )
    assert process.stdin is not None and process.stdout is not None
    meta = {
        "io.modelcontextprotocol/protocolVersion": "2026-07-28",
        "io.modelcontextprotocol/clientCapabilities": {},
    }
    listen = {
        "jsonrpc": "2.0",
        "id": "l1",
        "method": "subscriptions/listen",
        "params": {"_meta": meta, "notifications": {"resourcesListChanged": True}},
    }
    process.stdin.write(json.dumps(listen).encode() + b"\n")
    process.stdin.flush()
    with process:
        ack = json.loads(line_within(process))
        process.send_signal(signal.SIGTERM)
        end = json.loads(line_within(process))
        assert process.wait(20) == 128 + signal.SIGTERM
    key = "io.modelcontextprotocol/subscriptionId"
    assert ack["method"] == "notifications/subscriptions/acknowledged"
    assert ack["params"] == {"notifications": {"resourcesListChanged": True}, "_meta": {key: "l1"}}
    result = {"_meta": {key: "l1"}, "resultType": "complete"}
    assert end == {"jsonrpc": "2.0", "id": "l1", "result": result}


def test_legacy_resources_subscribe_is_told_of_updates(
    server_command: list[str], project: Path, home: Path
) -> None:
    skills = home / ".claude" / "skills"
    (skills / "delta").mkdir(parents=True)
    (skills / "delta" / "SKILL.md").write_text(DELTA, encoding="utf-8")
    seen: list[str] = []
    arrived = anyio.Event()

    async def handler(message: Any) -> None:
        message = getattr(message, "root", message)
        if getattr(message, "method", None) == "notifications/resources/updated":
            seen.append(str(message.params.uri))
            arrived.set()

    async def main() -> Any:
        import warnings

        async with Client(
            _stdio(server_command, project, home), mode="legacy", message_handler=handler
        ) as client:
            capabilities = client.server_capabilities
            with warnings.catch_warnings():
                warnings.simplefilter("ignore")  # deprecated in the SDK for 2026-07-28 only
                await client.subscribe_resource(DELTA_URI)
            (skills / "delta" / "SKILL.md").write_text(DELTA + "\nEdited.\n", encoding="utf-8")
            with anyio.fail_after(WAIT):
                await arrived.wait()
            return capabilities

    capabilities = anyio.run(main)
    assert capabilities.resources.subscribe is True
    assert seen == [DELTA_URI]


# -- over HTTP ------------------------------------------------------------------------------


def test_listen_and_the_legacy_stream_over_http(
    start: Callable[..., Any], env: dict[str, str]
) -> None:
    from mcp.client.streamable_http import streamable_http_client

    skills = Path(env["SKILLC_HOME"]) / ".claude" / "skills"
    skills.mkdir(parents=True, exist_ok=True)
    server = start()
    legacy: list[str] = []
    arrived = anyio.Event()

    async def handler(message: Any) -> None:
        message = getattr(message, "root", message)
        if getattr(message, "method", None) == "notifications/resources/list_changed":
            legacy.append("list_changed")
            arrived.set()

    async def main() -> tuple[list[Any], list[Any], Any]:
        async with (
            Client(streamable_http_client(server.url), mode="2026-07-28") as modern,
            Client(
                streamable_http_client(server.url), mode="legacy", message_handler=handler
            ) as old,
        ):
            await old.list_resources()  # the legacy session's GET stream is open from here
            await anyio.sleep(0.5)
            added, edited, honored = await _changes(modern, skills)
            with anyio.fail_after(WAIT):
                await arrived.wait()
            return added, edited, honored

    added, edited, honored = anyio.run(main)
    assert honored.resources_list_changed is True
    assert _kinds(added) == EXPECTED and _kinds(edited) == EXPECTED
    assert legacy and set(legacy) == {"list_changed"}
    assert server.stop() == 128 + signal.SIGTERM


def test_host_header_is_checked(start: Callable[..., Any]) -> None:
    httpx = pytest.importorskip("httpx")
    headers = {"content-type": "application/json", "accept": "application/json"}
    init = {
        "jsonrpc": "2.0",
        "id": 1,
        "method": "initialize",
        "params": {"protocolVersion": "2025-11-25", "capabilities": {}},
    }
    server = start()
    port = server.url.rsplit(":", 1)[1].split("/")[0]
    for host, status in (
        (f"127.0.0.1:{port}", 200),
        (f"localhost:{port}", 200),
        ("evil.example", 421),  # a name rebound to 127.0.0.1
        (f"evil.example:{port}", 421),
    ):
        reply = httpx.post(server.url, headers={**headers, "host": host}, json=init)
        assert reply.status_code == status, (host, reply.text)
    allowed = start("--allow-host", "skills.team.example")
    reply = httpx.post(allowed.url, headers={**headers, "host": "skills.team.example"}, json=init)
    assert reply.status_code == 200


def test_sigterm_ends_an_http_listen_stream_with_its_response(start: Callable[..., Any]) -> None:
    """An open event stream does not hold the server up: SIGTERM sends the stream's last
    event (the listen request's response) and the server exits."""
    import threading

    httpx = pytest.importorskip("httpx")
    server = start()
    meta = {
        "io.modelcontextprotocol/protocolVersion": "2026-07-28",
        "io.modelcontextprotocol/clientCapabilities": {},
    }
    listen = {
        "jsonrpc": "2.0",
        "id": 9,
        "method": "subscriptions/listen",
        "params": {"_meta": meta, "notifications": {"resourcesListChanged": True}},
    }
    plain = {"content-type": "application/json", "accept": "application/json", **mirrored(listen)}
    assert httpx.post(server.url, headers=plain, json=listen).status_code == 406
    events: list[dict[str, Any]] = []
    headers = {**plain, "accept": "application/json, text/event-stream"}
    with httpx.stream("POST", server.url, headers=headers, json=listen, timeout=WAIT) as reply:
        assert reply.headers["content-type"] == "text/event-stream"
        lines = reply.iter_lines()
        for line in lines:
            if line.startswith("data: "):
                events.append(json.loads(line[6:]))
                break
        stopping = threading.Thread(target=server.stop)
        stopping.start()
        events += [json.loads(line[6:]) for line in lines if line.startswith("data: ")]
        stopping.join(WAIT)
    assert server.process.returncode == 128 + signal.SIGTERM
    assert [e.get("method") for e in events] == ["notifications/subscriptions/acknowledged", None]
    assert events[1]["id"] == 9 and events[1]["result"]["resultType"] == "complete"


def test_a_stream_that_falls_behind_is_ended_and_grows_no_more() -> None:
    """A client that stops reading: after MAX_BACKLOG changes wait, the stream holds only its
    end (no response: it was not a graceful close), and later changes are not queued."""
    from skillc_mcp._http_streams import MAX_BACKLOG, Stream
    from skillc_mcp._listen import Changes

    changes = Changes(True, frozenset())
    stream = Stream(lambda _: [], {"jsonrpc": "2.0", "id": 1, "result": {}})
    for _ in range(MAX_BACKLOG + 10):
        stream.push(changes)
    assert stream.ended and stream.last is None
    assert stream.queue.qsize() == 1 and stream.queue.get_nowait() is None


def test_the_throttle_lets_one_of_each_kind_through_per_window_and_the_last_at_its_end() -> None:
    from skillc_mcp._listen import Changes, Listen, Throttle

    now = [100.0]
    throttle = Throttle(0.2, clock=lambda: now[0])
    listed = (None, {"jsonrpc": "2.0", "method": "notifications/resources/list_changed"})

    def updated(uri: str) -> tuple[None, dict[str, Any]]:
        method = "notifications/resources/updated"
        return None, {"jsonrpc": "2.0", "method": method, "params": {"uri": uri}}

    assert throttle.offer([listed, updated("skill://a/SKILL.md")]) == [
        listed,
        updated("skill://a/SKILL.md"),
    ]
    assert throttle.wait() is None
    for _ in range(50):  # a burst within the window: held, once each
        now[0] += 0.001
        assert throttle.offer([listed, updated("skill://a/SKILL.md")]) == []
    assert throttle.offer([updated("skill://b/SKILL.md")]) == [updated("skill://b/SKILL.md")]
    assert throttle.wait() == pytest.approx(0.15)
    assert throttle.flush() == []  # the window lasts
    now[0] = 100.25
    assert throttle.wait() == 0
    assert throttle.flush() == [listed, updated("skill://a/SKILL.md")]  # the trailing edge
    assert throttle.wait() is None and throttle.flush() == []
    now[0] += 0.1  # a new window began with the trailing ones
    assert throttle.offer([listed]) == []
    assert throttle.flush(force=True) == [listed]
    now[0] += 1.0
    assert throttle.offer([listed]) == [listed]  # quiet for long: at once again
    old, new = Listen(1, True, frozenset()), Listen(1, True, frozenset())  # one id, reused
    note = old.notes(Changes(True, frozenset()))[0]
    assert throttle.offer([(old, note)]) == [(old, note)]
    assert throttle.offer([(old, note), (new, note)]) == [(new, note)]  # a stream of its own
    now[0] += 1.0
    assert throttle.flush() == [(old, note)]  # held for the old stream, not the new


class _Burst:
    """A server whose skills changed before every look (a burst of saves), answering each
    request at once: the stdio connection's throttle over it is the test."""

    notifies = True
    legacy_version = "2025-11-25"

    def __init__(self) -> None:
        self.subscriptions = {DELTA_URI}

    def handle(self, message: Any) -> Any:
        from skillc_mcp._listen import Listen

        method, params = message.get("method"), message.get("params", {})
        if "id" not in message:
            return None
        if method == "subscriptions/listen":
            return Listen(message["id"], True, frozenset()).ack()
        if method == "resources/unsubscribe":
            self.subscriptions.discard(params["uri"])
        return {"jsonrpc": "2.0", "id": message["id"], "result": {}}

    def notifications(self, listens: Any = ()) -> list[dict[str, Any]]:
        from skillc_mcp._listen import Changes, legacy_notes

        changes = Changes(True, frozenset({DELTA_URI}))
        notes = legacy_notes(changes, self.subscriptions)
        for listen in listens:
            notes += listen.notes(changes)
        return notes

    def watch_fd(self) -> None:
        return None

    def close(self) -> None:
        pass


def _sent(out: io.BytesIO) -> list[dict[str, Any]]:
    """The messages a :class:`~skillc_mcp._stdio.Connection` wrote to ``out`` so far."""
    return [json.loads(line) for line in out.getvalue().splitlines()]


def _until(out: io.BytesIO, count: int) -> None:
    """Wait (at most WAIT seconds) until ``count`` messages were written to ``out``."""
    deadline = time.monotonic() + WAIT
    while len(_sent(out)) < count:
        assert time.monotonic() < deadline, json.dumps(_sent(out))
        time.sleep(0.01)


def test_a_held_notification_is_not_sent_to_a_stream_cancelled_or_a_uri_unsubscribed() -> None:
    import os
    import threading

    from skillc_mcp._listen import Throttle
    from skillc_mcp._stdio import Connection

    now = [0.0]
    reader, writer = os.pipe()
    out = io.BytesIO()

    with os.fdopen(reader, "rb") as wire_in, os.fdopen(writer, "wb") as wire_out:
        connection = Connection(wire_in, out, _Burst())  # type: ignore[arg-type]
        connection._throttle = Throttle(0.2, clock=lambda: now[0])
        serving = threading.Thread(target=connection.serve, daemon=True)
        serving.start()

        def write(*messages: dict[str, Any]) -> None:
            for message in messages:
                wire_out.write(json.dumps({"jsonrpc": "2.0", **message}).encode() + b"\n")
            wire_out.flush()

        write(
            {"id": 1, "method": "subscriptions/listen", "params": {}},  # all sent at once
            {"id": 2, "method": "resources/read", "params": {}},  # all held
            {"id": 3, "method": "resources/unsubscribe", "params": {"uri": DELTA_URI}},
        )
        _until(out, 6)  # the acknowledgement, three notifications, two responses
        write({"method": "notifications/cancelled", "params": {"requestId": 1}})
        write({"id": 4, "method": "ping"})
        _until(out, 7)
        now[0] += 1.0  # the window is over: what is held and still wanted goes
        _until(out, 8)
        time.sleep(0.5)  # nothing else comes
    serving.join(WAIT)
    trailing = _sent(out)[7:]
    assert [m.get("id") for m in _sent(out)[:7] if "id" in m] == [2, 3, 4]
    assert len([m for m in _sent(out)[:7] if m.get("method") == UPDATED]) == 1
    assert trailing == [{"jsonrpc": "2.0", "method": "notifications/resources/list_changed"}]


class _Asked(_Burst):
    """:class:`_Burst` whose listen streams get what they ask for."""

    def handle(self, message: Any) -> Any:
        from skillc_mcp._listen import Listen

        if message.get("method") == "subscriptions/listen" and message.get("params"):
            return Listen.open(message["id"], message["params"], honors=True).ack()
        return super().handle(message)


def test_a_held_notification_of_a_cancelled_stream_never_goes_to_a_new_one_of_its_id() -> None:
    """Request ids are unique only among open requests: a stream cancelled while its
    list change was held, then a new listen of the same id asking for one URI only. The held
    notice was the old stream's: the new one never gets it."""
    import os
    import threading

    from skillc_mcp._listen import SUBSCRIPTION_ID_KEY, Throttle
    from skillc_mcp._stdio import Connection

    def stream_id(message: dict[str, Any]) -> object:
        return message.get("params", {}).get("_meta", {}).get(SUBSCRIPTION_ID_KEY)

    listed = "notifications/resources/list_changed"

    now = [0.0]
    reader, writer = os.pipe()
    out = io.BytesIO()

    def listen(asked: dict[str, Any]) -> dict[str, Any]:
        return {"id": 1, "method": "subscriptions/listen", "params": {"notifications": asked}}

    with os.fdopen(reader, "rb") as wire_in, os.fdopen(writer, "wb") as wire_out:
        connection = Connection(wire_in, out, _Asked())  # type: ignore[arg-type]
        connection._throttle = Throttle(0.2, clock=lambda: now[0])
        serving = threading.Thread(target=connection.serve, daemon=True)
        serving.start()

        def write(*messages: dict[str, Any]) -> None:
            for message in messages:
                wire_out.write(json.dumps({"jsonrpc": "2.0", **message}).encode() + b"\n")
            wire_out.flush()

        write(listen({"resourcesListChanged": True}))  # the ack, three notices at once
        _until(out, 4)
        write({"id": 2, "method": "resources/read", "params": {}})  # the notices held
        _until(out, 5)
        write({"method": "notifications/cancelled", "params": {"requestId": 1}})
        write(listen({"resourceSubscriptions": [DELTA_URI]}))  # its ack, its own update
        _until(out, 7)
        now[0] += 1.0  # the window is over: the legacy list change and update go
        _until(out, 9)
        time.sleep(0.5)  # nothing else comes
    serving.join(WAIT)
    after = _sent(out)[5:]  # from the new stream's acknowledgement on
    on_stream = [(m["method"], m["params"].get("uri")) for m in after if stream_id(m) == 1][1:]
    assert on_stream == [(UPDATED, DELTA_URI)], json.dumps(after)  # its own update alone
    assert [m["method"] for m in after if stream_id(m) is None] == [listed, UPDATED]
