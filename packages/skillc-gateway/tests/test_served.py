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


def test_a_skill_under_an_agent_folder_made_after_the_first_look_is_served(
    tmp_path: Path,
) -> None:
    """A project without ``.claude`` when the MCP server first looked: the watcher waits for
    ``.claude`` in the project (the nearest folder that exists), and that event stands for
    the agent folder ``.claude/skills`` itself, so the inventory is looked at again and the
    skill installed there (``mkdir -p``, ``npx skills add``, ``skc_init`` making
    ``.skillc/skills``) is served; before, the event named ``.claude``, which is no
    inventory folder, and the skill was not served until something else changed. The same
    when ``.claude`` is made first and ``skills`` a look later, and when the whole
    ``.claude`` is removed and made again."""
    import shutil

    home = tmp_path / "home"
    home.mkdir()
    project = tmp_path / "project"
    project.mkdir()
    served = ServedSkills(lambda: Layout.discover(project, {"SKILLC_HOME": str(home)}))
    late = DELTA.replace("delta", "late")
    try:
        assert served.snapshot().entries == {}
        (project / ".claude" / "skills" / "late").mkdir(parents=True)
        (project / ".claude" / "skills" / "late" / "SKILL.md").write_text(late, encoding="utf-8")
        assert list(served.snapshot().entries) == ["late"]
        shutil.rmtree(project / ".claude")
        assert served.snapshot().entries == {}
        (project / ".claude").mkdir()
        assert served.snapshot().entries == {}  # a look between the two levels
        (project / ".claude" / "skills" / "back").mkdir(parents=True)
        back = DELTA.replace("delta", "back")
        (project / ".claude" / "skills" / "back" / "SKILL.md").write_text(back, encoding="utf-8")
        assert list(served.snapshot().entries) == ["back"]
        (project / ".skillc" / "skills" / "made").mkdir(parents=True)  # skc init's store
        made = DELTA.replace("delta", "made")
        (project / ".skillc" / "skills" / "made" / "SKILL.md").write_text(made, encoding="utf-8")
        assert list(served.snapshot().entries) == ["back", "made"]
    finally:
        served.close()
