"""The served skills kept current by their watcher (:mod:`skillc_gateway.served`, the MCP
Skills extension's listing and the change notifications of ``skc mcp``)."""

from __future__ import annotations

import sys
from pathlib import Path

import pytest

from skillc_gateway.served import MAX_UNSKILLED, ServedSkills
from skillc_index import Layout

pytestmark = pytest.mark.skipif(
    not sys.platform.startswith("linux"), reason="the skills are watched with Linux inotify"
)

DELTA = "---\nname: delta\ndescription: A skill installed folder first.\n---\n\n# Delta\n"


def test_a_skill_whose_file_comes_after_a_look_at_its_empty_folder_is_served(
    tmp_path: Path,
) -> None:
    """A tool that installs a skill makes its folder, then writes its files: a look between
    the two sees a folder that is no skill. The SKILL.md written after is seen at the next
    look (the root's folders that are no skill are watched), not only after something else
    changes in the root: under load the MCP server missed such a skill (a test of
    ``skc mcp``'s notifications waited for it in vain). Near miss: a folder that stays
    without SKILL.md is never served, and stays watched as one."""
    home = tmp_path / "home"
    skills = home / ".claude" / "skills"
    skills.mkdir(parents=True)
    project = tmp_path / "project"
    project.mkdir()
    layout = Layout.discover(project, {"SKILLC_HOME": str(home)})
    served = ServedSkills(lambda: layout)
    try:
        assert served.snapshot().entries == {}
        (skills / "delta").mkdir()
        (skills / "notes").mkdir()
        assert served.snapshot().entries == {}  # the look between the folder and its file
        (skills / "delta" / "SKILL.md").write_text(DELTA, encoding="utf-8")
        (skills / "notes" / "todo.txt").write_text("later\n", encoding="utf-8")
        assert list(served.snapshot().entries) == ["delta"]
        assert served._unskilled == {f"{skills}/notes"}  # delta is a skill now, watched as one
        (skills / "delta" / "SKILL.md").write_text(DELTA + "\nEdited.\n", encoding="utf-8")
        entry = served.snapshot().entries["delta"]
        assert entry.files[0].size == len(DELTA) + len("\nEdited.\n")
    finally:
        served.close()


def test_the_folders_watched_for_a_skill_to_come_are_bounded(tmp_path: Path) -> None:
    """A root's folders that are no skill are watched, at most MAX_UNSKILLED of them (an
    inventory root full of other folders does not take the watches the skills need)."""
    home = tmp_path / "home"
    skills = home / ".claude" / "skills"
    for n in range(MAX_UNSKILLED + 5):
        (skills / f"folder-{n:04d}").mkdir(parents=True)
    project = tmp_path / "project"
    project.mkdir()
    served = ServedSkills(lambda: Layout.discover(project, {"SKILLC_HOME": str(home)}))
    try:
        assert served.snapshot().entries == {}
        assert len(served._unskilled) == MAX_UNSKILLED
    finally:
        served.close()
