"""A new server's first listing builds its page's skills only (:mod:`skillc_gateway.served`),
and what the stdio server does after each answer (:meth:`SkillsMethods.changed`, for the
change notifications) builds no more: a scale audit found ``ping`` waiting 11 s behind the
first ``resources/list`` of 20,000 skills."""

from __future__ import annotations

import sys
from pathlib import Path
from typing import Any

import pytest

pytestmark = pytest.mark.skipif(
    not sys.platform.startswith("linux"), reason="the skills are watched with Linux inotify"
)


def _skill(folder: Path, text: str = "") -> None:
    folder.mkdir(parents=True, exist_ok=True)
    (folder / "SKILL.md").write_text(
        f"---\nname: {folder.name}\ndescription: The {folder.name} skill.\n---\n{text}",
        encoding="utf-8",
    )


def test_a_first_listing_and_the_look_for_changes_after_it_build_one_page(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """1,200 skills: the first ``resources/list`` and the look for changes after it hash
    about one page's files; a skill read past that page is no change (nothing the client
    was shown changed); an edit of a skill it was shown, and a skill installed, are."""
    import skillc_gateway.served as served_module
    from skillc_gateway.served import ServedSkills
    from skillc_index import Layout
    from skillc_mcp._skills import SkillsMethods

    home = tmp_path / "home"
    skills = home / ".claude" / "skills"
    for n in range(1200):
        _skill(skills / f"skill-{n:04d}")
    project = tmp_path / "project"
    project.mkdir()
    layout = Layout.discover(project, {"SKILLC_HOME": str(home)})
    hashed: list[str] = []
    digest = served_module._digest

    def counted(full: str, *args: Any, **kwargs: Any) -> Any:
        hashed.append(full)
        return digest(full, *args, **kwargs)

    monkeypatch.setattr(served_module, "_digest", counted)
    methods = SkillsMethods(ServedSkills(lambda: layout))
    try:
        page = methods.call("resources/list", {})
        assert len(page["resources"]) == 500 and "nextCursor" in page
        assert not methods.changed().listed
        assert len(hashed) <= 501
        uri = "skill://skill-1100/SKILL.md"
        assert methods.call("resources/read", {"uri": uri})["contents"][0]["uri"] == uri
        assert not methods.changed().listed  # built now, not changed
        assert len(hashed) <= 502
        _skill(skills / "skill-0007", "Edited.\n")
        changes = methods.changed()
        assert changes.listed and changes.updated == {"skill://skill-0007/SKILL.md"}
        before = len(hashed)
        _skill(skills / "added")
        changes = methods.changed()
        assert changes.listed  # the inventory gained a skill: not built until asked for
        assert len(hashed) == before
        assert not methods.changed().listed
    finally:
        methods.close()


def _library(tmp_path: Path, monkeypatch: pytest.MonkeyPatch, count: int) -> tuple[Any, list[str]]:
    """``count`` one-file skills, their layout, and the files hashed from here on."""
    import skillc_gateway.served as served_module
    from skillc_index import Layout

    skills = tmp_path / "home" / ".claude" / "skills"
    for n in range(count):
        _skill(skills / f"skill-{n:04d}")
    project = tmp_path / "project"
    project.mkdir()
    layout = Layout.discover(project, {"SKILLC_HOME": str(tmp_path / "home")})
    hashed: list[str] = []
    digest = served_module._digest

    def counted(full: str, *args: Any, **kwargs: Any) -> Any:
        hashed.append(full)
        return digest(full, *args, **kwargs)

    monkeypatch.setattr(served_module, "_digest", counted)
    return layout, hashed


def test_a_subscription_a_listen_and_an_event_stream_build_no_other_skill(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """Review: ``resources/subscribe``, ``subscriptions/listen`` and the HTTP hub's first GET
    stream built every skill (5,000 skills: 1.55 s under the lock, 20,000 about 12 s). A
    subscription builds its URI's skill only, and is told of its edit; a listen and a stream
    build none."""
    import asyncio

    from skillc_gateway.served import ServedSkills
    from skillc_mcp import _http_streams
    from skillc_mcp._protocol import CAPABILITIES_KEY, VERSION_KEY, Server
    from skillc_mcp._skills import LockedSkills, SkillsMethods

    layout, hashed = _library(tmp_path, monkeypatch, 300)
    uri = "skill://skill-0250/SKILL.md"
    server = Server(skills=SkillsMethods(ServedSkills(lambda: layout)))
    server.notifies = True
    try:
        init = {"protocolVersion": "2025-06-18", "capabilities": {}, "clientInfo": {}}
        server.handle({"jsonrpc": "2.0", "id": 1, "method": "initialize", "params": init})
        answer = server.handle(
            {"jsonrpc": "2.0", "id": 2, "method": "resources/subscribe", "params": {"uri": uri}}
        )
        assert answer == {"jsonrpc": "2.0", "id": 2, "result": {}}
        assert hashed == [str(tmp_path / "home/.claude/skills/skill-0250/SKILL.md")]
        _skill(tmp_path / "home" / ".claude" / "skills" / "skill-0250", "Edited.\n")
        notes = server.notifications()
        updated = [n["params"]["uri"] for n in notes if n["method"].endswith("/updated")]
        assert updated == [uri]
    finally:
        server.close()

    hashed.clear()
    modern = Server(skills=SkillsMethods(ServedSkills(lambda: layout)))
    modern.notifies = True
    try:
        meta = {VERSION_KEY: "2026-07-28", CAPABILITIES_KEY: {}}
        params = {"notifications": {"resourcesListChanged": True}, "_meta": meta}
        ack = modern.handle(
            {"jsonrpc": "2.0", "id": 3, "method": "subscriptions/listen", "params": params}
        )
        assert isinstance(ack, dict) and "error" not in ack, ack
        assert hashed == []
    finally:
        modern.close()

    locked = LockedSkills()
    locked.methods = SkillsMethods(ServedSkills(lambda: layout))

    async def run(call: Any) -> Any:
        return call()

    async def main() -> None:
        hub = _http_streams.Hub(locked.snapshot, lambda: None, run)
        stream = _http_streams.Stream(lambda _: [], None)
        assert await hub.open(stream)
        hub.close(stream)

    try:
        asyncio.run(main())
        assert hashed == []
    finally:
        locked.close()


def test_an_edit_of_a_skill_shown_is_told_after_the_next_page_is_listed(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """Review: the next page's listing took the watcher's events and became what the client
    was shown, so an edit of a skill of the page before was never told. Near miss: an edit
    with no page between is told as before, once."""
    from skillc_gateway.served import ServedSkills
    from skillc_mcp._skills import SkillsMethods

    layout, _ = _library(tmp_path, monkeypatch, 700)
    skills = tmp_path / "home" / ".claude" / "skills"
    methods = SkillsMethods(ServedSkills(lambda: layout))
    try:
        first = methods.call("resources/list", {})
        assert not methods.changed().listed
        _skill(skills / "skill-0007", "Edited.\n")
        methods.call("resources/list", {"cursor": first["nextCursor"]})
        changes = methods.changed()
        assert changes.listed and changes.updated == {"skill://skill-0007/SKILL.md"}
        assert not methods.changed().listed
        _skill(skills / "skill-0008", "Edited.\n")
        changes = methods.changed()
        assert changes.listed and changes.updated == {"skill://skill-0008/SKILL.md"}
    finally:
        methods.close()


def test_a_uri_a_server_serves_can_be_subscribed_to(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """Review (s49 skl901b 6): ``resources/subscribe`` refused a URI over 4,096 characters
    while ``resources/read`` serves one up to 8,192 (``inventory.uris.MAX_URI_CHARS``): one
    bound, so a URI of 5,000 characters is subscribed to and one over 8,192 is refused."""
    from skillc_gateway.served import ServedSkills
    from skillc_index.inventory.uris import MAX_URI_CHARS
    from skillc_mcp._protocol import Server
    from skillc_mcp._skills import SkillsMethods

    layout, _ = _library(tmp_path, monkeypatch, 1)
    server = Server(skills=SkillsMethods(ServedSkills(lambda: layout)))
    server.notifies = True
    try:
        init = {"protocolVersion": "2025-06-18", "capabilities": {}, "clientInfo": {}}
        server.handle({"jsonrpc": "2.0", "id": 1, "method": "initialize", "params": init})
        long = "skill://skill-0000/" + "a" * (5000 - len("skill://skill-0000/"))
        over = "skill://skill-0000/" + "a" * (MAX_URI_CHARS + 1 - len("skill://skill-0000/"))
        for number, (uri, fits) in enumerate(((long, True), (over, False)), 2):
            request = {"uri": uri}
            answer = server.handle(
                {"jsonrpc": "2.0", "id": number, "method": "resources/subscribe", "params": request}
            )
            assert ("error" not in answer) is fits, answer
    finally:
        server.close()
