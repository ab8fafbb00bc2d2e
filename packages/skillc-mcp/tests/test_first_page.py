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
        _skill(skills / "added")
        changes = methods.changed()
        assert changes.listed and changes.updated == {"skill://added/SKILL.md"}
        assert not methods.changed().listed
    finally:
        methods.close()
