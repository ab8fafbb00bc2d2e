"""Change notifications: the stdio server sends ``notifications/resources/list_changed`` when
the served skills change (a skill added, edited or removed in an agent folder), to a legacy
(2025-11-25) client that has read them, and nothing when nothing changed, or unasked to a
2026-07-28 client (that revision delivers notifications only on a ``subscriptions/listen``
stream: test_listen.py). The client is the official ``mcp`` SDK's, with a message handler.
"""

from __future__ import annotations

import sys
import warnings
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
UPDATED = "notifications/resources/updated"

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


def test_a_skill_behind_a_re_pointed_release_link_is_notified_and_served_anew(
    server_command: list[str], project: Path, home: Path, tmp_path: Path
) -> None:
    """``~/.claude/skills/chain -> links/current/chain`` and ``links/current`` re-pointed
    from ``rel/v1`` to ``rel/v2`` (a release switch, ``ln -sfn``): the server noticed
    nothing (no watch on the folder holding ``current``), so ``skills/list`` kept v1's
    description and ``resources/read`` v1's bytes, without a notification, while
    ``skc_show`` read v2. Now the re-point is notified, and v2 is listed and read."""
    skills = home / ".claude" / "skills"
    skills.mkdir(parents=True, exist_ok=True)
    rel, links = tmp_path / "rel", tmp_path / "links"
    for version in ("v1", "v2"):
        (rel / version / "chain").mkdir(parents=True)
        text = f"---\nname: chain\ndescription: Release {version}.\n---\n# C\n\n{version}\n"
        (rel / version / "chain" / "SKILL.md").write_text(text, encoding="utf-8")
    links.mkdir()
    (links / "current").symlink_to(rel / "v1")
    (skills / "chain").symlink_to(links / "current" / "chain")
    uri = "skill://chain/SKILL.md"

    async def body(session: Session) -> tuple[str, str, list[Any]]:
        async def read() -> str:
            return str((await session.client.read_resource(uri)).contents[0].text)

        async def listed() -> list[Any]:
            resources = (await session.client.list_resources()).resources
            return [r.description for r in resources if str(r.uri) == uri]

        before = await read()
        assert await listed() == ["Release v1."]
        (links / "new").symlink_to(rel / "v2")  # as ln -sfn does: a new link renamed over
        (links / "new").replace(links / "current")

        async def served_anew() -> bool:
            return await listed() == ["Release v2."]

        await session.next_change(served_anew)
        return before, await read(), await listed()

    before, after, listed = run(
        server_command, project, home, "legacy", body, tmp_path / "server.log"
    )
    assert before.endswith("v1\n") and after.endswith("v2\n")
    assert listed == ["Release v2."]


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


def _ed(number: int) -> str:
    return (
        f"---\nname: ed\ndescription: Saved {number} times. Use when testing saves.\n---\n\n"
        f"# Ed\n\nVersion {number}.\n"
    )


def _save(path: Path, text: str) -> None:
    """An editor's atomic save: the new text in a temporary file, renamed over the old."""
    temporary = path.with_name(path.name + ".tmp")
    temporary.write_text(text, encoding="utf-8")
    temporary.replace(path)


def test_a_burst_of_saves_while_a_client_reads_is_notified_sparingly(
    server_command: list[str], project: Path, home: Path, tmp_path: Path
) -> None:
    # 200 atomic saves of a SKILL.md while a client read sent 200 list_changed and 200
    # resources/updated (a look after each answer, each seeing a change): the notifications
    # are spaced (at most one of each kind per settle time), the answers stay fresh, and the
    # last change of a burst is still told
    skill = home / ".claude" / "skills" / "ed"
    skill.mkdir(parents=True)
    path, uri, saves = skill / "SKILL.md", "skill://ed/SKILL.md", 100
    _save(path, _ed(0))

    async def read(session: Session) -> str:
        return str((await session.client.read_resource(uri)).contents[0].text)

    async def body(session: Session) -> dict[str, Any]:
        await session.uris()
        with warnings.catch_warnings():
            warnings.simplefilter("ignore")  # deprecated in the SDK for 2026-07-28 only
            await session.client.subscribe_resource(uri)
        stale = []
        for number in range(1, saves + 1):
            _save(path, _ed(number))
            if await read(session) != _ed(number):
                stale.append(number)
            await session.uris()
        await anyio.sleep(QUIET_SECONDS)  # the burst's last notifications come
        burst = list(session.seen)
        # two saves, each read at once: the second's notification (held, the first's just
        # sent) still comes when the settle time is over, with no request to carry it
        told, updated = burst.count(LIST_CHANGED), burst.count(UPDATED)
        for number in (saves + 1, saves + 2):
            _save(path, _ed(number))
            if await read(session) != _ed(number):
                stale.append(number)
            told, updated = told + 1, updated + 1
            with anyio.fail_after(20):  # the next save comes after the look of this one
                # each kind has its own settle window: both are waited for (the update of
                # the URI came after the listing's change under load, and was not counted)
                while (
                    session.seen.count(LIST_CHANGED) < told or session.seen.count(UPDATED) < updated
                ):
                    await anyio.sleep(0.01)
        return {"burst": burst, "stale": stale, "seen": list(session.seen)}

    seen = run(server_command, project, home, "legacy", body, tmp_path / "server.log")
    assert seen["stale"] == []
    for kind in (LIST_CHANGED, UPDATED):
        assert 1 <= seen["burst"].count(kind) <= saves // 2
    assert seen["seen"].count(UPDATED) >= seen["burst"].count(UPDATED) + 2


def test_a_subscribed_file_replaced_or_rewritten_is_updated_without_a_request(
    server_command: list[str], project: Path, home: Path, tmp_path: Path
) -> None:
    """A subscribed ``SKILL.md`` saved as editors and git do (a new file renamed over it),
    then truncated and written again: each change brings ``resources/updated`` on its own,
    with no request after it to carry it (an audit read only ``list_changed`` here: its
    reader, ``select`` then a buffered ``readline``, left the second line in its buffer)."""
    skill = home / ".claude" / "skills" / "ed"
    skill.mkdir(parents=True)
    path, uri = skill / "SKILL.md", "skill://ed/SKILL.md"
    path.write_text(_ed(0), encoding="utf-8")

    async def updates(session: Session, count: int) -> None:
        with anyio.fail_after(20):  # a loaded machine
            while session.seen.count(UPDATED) < count:
                await anyio.sleep(0.01)

    async def body(session: Session) -> list[str]:
        assert uri in await session.uris()
        with warnings.catch_warnings():
            warnings.simplefilter("ignore")  # deprecated in the SDK for 2026-07-28 only
            await session.client.subscribe_resource(uri)
        await anyio.sleep(QUIET_SECONDS)
        assert UPDATED not in session.seen
        _save(path, _ed(1))  # renamed over it: a new inode at the path
        await updates(session, 1)
        await anyio.sleep(QUIET_SECONDS)  # past the settle window: the next one is its own
        path.write_text(_ed(2), encoding="utf-8")  # truncated, then written
        await updates(session, 2)
        return list(session.seen)

    seen = run(server_command, project, home, "legacy", body, tmp_path / "server.log")
    assert seen.count(UPDATED) == 2
