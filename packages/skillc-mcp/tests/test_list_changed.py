"""Change notifications: the stdio server sends ``notifications/resources/list_changed`` when
the served skills change (a skill added, edited or removed in an agent folder), to a legacy
(2025-11-25) client that has read them, and nothing when nothing changed, or unasked to a
2026-07-28 client (that revision delivers notifications only on a ``subscriptions/listen``
stream: test_listen.py). The client is the official ``mcp`` SDK's, with a message handler.
"""

from __future__ import annotations

import json
import sys
from collections.abc import Awaitable, Callable
from pathlib import Path
from typing import Any

import anyio
import pytest
from mcp import Client, StdioServerParameters
from mcp.client.stdio import stdio_client

from skillc_mcp_testing import sdk_env

pytestmark = pytest.mark.skipif(
    not sys.platform.startswith("linux"), reason="the skills are watched with Linux inotify"
)

LIST_CHANGED = "notifications/resources/list_changed"

DELTA = """---
name: delta
description: A skill added while the server runs.
---

# Delta
"""

QUIET_SECONDS = 1.5
"""How long a test waits to see that nothing is sent (several settle periods of the server)."""


def _method(message: object) -> str | None:
    message = getattr(message, "root", message)
    method = getattr(message, "method", None)
    return method if isinstance(method, str) else None


class Session:
    """The server over stdio, its notifications collected as they come."""

    def __init__(self, client: Client, seen: list[str], arrived: list[anyio.Event]) -> None:
        self.client = client
        self.seen = seen
        self._arrived = arrived

    async def next_change(self, done: Callable[[], Awaitable[bool]]) -> None:
        """Wait (at most 20 s: a loaded machine) for list_changed notifications until
        ``done()`` says the change is served: one change of the files may be sent as two
        (the folder, then its file), and the second must not stand for the next change."""
        with anyio.fail_after(20):
            while True:
                while LIST_CHANGED not in self.seen:
                    await self._arrived[0].wait()
                    self._arrived[0] = anyio.Event()
                while LIST_CHANGED in self.seen:
                    self.seen.remove(LIST_CHANGED)
                if await done():
                    return

    async def uris(self) -> list[str]:
        return [str(resource.uri) for resource in (await self.client.list_resources()).resources]


def run(
    server_command: list[str], project: Path, home: Path, mode: str, body: Any, log: Path
) -> Any:
    async def main() -> Any:
        seen: list[str] = []
        arrived = [anyio.Event()]

        async def handler(message: Any) -> None:
            method = _method(message)
            if method is not None:
                seen.append(method)
                arrived[0].set()

        params = StdioServerParameters(
            command=server_command[0],
            args=server_command[1:],
            env=sdk_env(home),
            cwd=project,
        )
        with log.open("w", encoding="utf-8") as errlog:
            async with Client(
                stdio_client(params, errlog=errlog), mode=mode, message_handler=handler
            ) as client:
                return await body(Session(client, seen, arrived))

    return anyio.run(main)


def test_a_skill_added_edited_and_removed_is_notified(
    server_command: list[str], project: Path, home: Path, tmp_path: Path
) -> None:
    skills = home / ".claude" / "skills"
    skills.mkdir(parents=True, exist_ok=True)
    delta = skills / "delta"

    async def body(session: Session) -> dict[str, Any]:
        capabilities = session.client.server_capabilities
        uri = "skill://delta/SKILL.md"
        before = await session.uris()  # the client has read the skills: from now on, notified

        async def listed() -> bool:
            return uri in await session.uris()

        async def edited_text() -> bool:
            contents = (await session.client.read_resource(uri)).contents
            return contents[0].text.endswith("Edited.\n")

        async def unlisted() -> bool:
            return uri not in await session.uris()

        delta.mkdir()
        (delta / "SKILL.md").write_text(DELTA, encoding="utf-8")
        await session.next_change(listed)
        added = await session.uris()
        (delta / "SKILL.md").write_text(DELTA + "\nEdited.\n", encoding="utf-8")
        await session.next_change(edited_text)
        edited = (await session.client.read_resource(uri)).contents
        (delta / "SKILL.md").unlink()
        delta.rmdir()
        await session.next_change(unlisted)
        removed = await session.uris()
        return {
            "capabilities": capabilities,
            "before": before,
            "added": added,
            "edited": edited,
            "removed": removed,
        }

    seen = run(server_command, project, home, "legacy", body, tmp_path / "server.log")
    assert seen["capabilities"].resources.list_changed is True
    assert "skill://delta/SKILL.md" not in seen["before"]
    assert "skill://delta/SKILL.md" in seen["added"]
    assert seen["edited"][0].text.endswith("Edited.\n")
    assert seen["removed"] == seen["before"]


def test_nothing_is_sent_when_nothing_changed(
    server_command: list[str], project: Path, home: Path, tmp_path: Path
) -> None:
    elsewhere = home / "notes"
    elsewhere.mkdir(parents=True)

    async def body(session: Session) -> list[str]:
        first = await session.uris()
        (elsewhere / "todo.md").write_text("not a skill\n", encoding="utf-8")  # not watched
        await anyio.sleep(QUIET_SECONDS)
        assert await session.uris() == first
        await session.client.read_resource(first[0])
        await anyio.sleep(QUIET_SECONDS)
        return list(session.seen)

    seen = run(server_command, project, home, "legacy", body, tmp_path / "server.log")
    assert LIST_CHANGED not in seen


def test_a_modern_client_is_sent_no_notification(
    server_command: list[str], project: Path, home: Path, tmp_path: Path
) -> None:
    skills = home / ".claude" / "skills"
    skills.mkdir(parents=True, exist_ok=True)

    async def body(session: Session) -> dict[str, Any]:
        capabilities = session.client.server_capabilities
        await session.uris()
        (skills / "delta").mkdir()
        (skills / "delta" / "SKILL.md").write_text(DELTA, encoding="utf-8")
        await anyio.sleep(QUIET_SECONDS)
        return {"capabilities": capabilities, "seen": list(session.seen)}

    seen = run(server_command, project, home, "2026-07-28", body, tmp_path / "server.log")
    resources = getattr(seen["capabilities"], "resources", None)  # no probe in this mode
    assert not getattr(resources, "list_changed", None)  # not declared where not sent
    assert LIST_CHANGED not in seen["seen"]


def test_an_editors_leftovers_alone_are_no_change(
    server_command: list[str], project: Path, home: Path, tmp_path: Path
) -> None:
    # an editor's backups, auto-saves and write tests beside SKILL.md, written again and again
    # while the client reads: no file of the skill changed (skillc_index.walk.is_leftover)
    skill = project / ".skillc" / "skills" / "demo"

    async def body(session: Session) -> list[str]:
        first = await session.uris()
        for round_ in range(20):
            for name in ("SKILL.md~", "#SKILL.md#", "4913", "SKILL.md.orig", "Thumbs.db"):
                (skill / name).write_text(f"leftover {round_}\n", encoding="utf-8")
            (skill / "SKILL.md.tmp").write_text("half-writ", encoding="utf-8")
            await session.client.read_resource(first[0])
            (skill / "4913").unlink()
        await anyio.sleep(QUIET_SECONDS)
        assert await session.uris() == first
        await anyio.sleep(QUIET_SECONDS)
        return list(session.seen)

    seen = run(server_command, project, home, "legacy", body, tmp_path / "server.log")
    assert LIST_CHANGED not in seen


class _AlwaysChanged:
    """A server whose skills changed before every look (a burst of saves) and which answers
    each request at once: what the stdio loop makes of it is the test."""

    notifies = True
    looks = 0

    def handle(self, message: Any) -> Any:
        return {"jsonrpc": "2.0", "id": message["id"], "result": {}}

    def notifications(self, _listens: Any = ()) -> list[dict[str, Any]]:
        self.looks += 1
        return [{"jsonrpc": "2.0", "method": LIST_CHANGED}]

    def watch_fd(self) -> None:
        return None

    def close(self) -> None:
        pass


def test_answers_during_a_burst_of_changes_are_followed_by_one_look_per_settle_time() -> None:
    # 200 atomic saves while a client read: one look after each answer sent 333-350
    # list_changed (and 200 resources/updated), where the README promises one per change
    # and kind once a burst settled (SETTLE_SECONDS)
    import io
    import os
    import threading
    import time

    from skillc_mcp._stdio import SETTLE_SECONDS, Connection

    reader, writer = os.pipe()
    server = _AlwaysChanged()
    out = io.BytesIO()
    with os.fdopen(reader, "rb") as wire_in:
        connection = Connection(wire_in, out, server)  # type: ignore[arg-type]
        serving = threading.Thread(target=connection.serve, daemon=True)
        start = time.monotonic()
        serving.start()
        with os.fdopen(writer, "wb") as wire_out:
            for number in range(60):  # a request every 10 ms for 0.6 s
                line = {"jsonrpc": "2.0", "id": number, "method": "resources/list"}
                wire_out.write(json.dumps(line).encode() + b"\n")
                wire_out.flush()
                time.sleep(0.01)
            time.sleep(SETTLE_SECONDS * 2)  # the look put off is made, with no request
        serving.join(10)
        elapsed = time.monotonic() - start
    sent = [json.loads(line) for line in out.getvalue().splitlines()]
    assert len([m for m in sent if "id" in m]) == 60
    notes = [m for m in sent if m.get("method") == LIST_CHANGED]
    assert 2 <= len(notes) == server.looks <= elapsed / SETTLE_SECONDS + 1
