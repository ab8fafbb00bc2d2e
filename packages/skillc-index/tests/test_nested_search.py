"""The nested ``.claude/skills`` search of the inventory (``inventory.nested``): a ``.claude``
that is a link within the project is followed, one out of it is not; the search reads a
bounded number of entries in all, keeps only folders, says when it was cut, and runs once
for a command."""

from __future__ import annotations

import json
import os
from collections.abc import Callable
from pathlib import Path
from typing import Any

import pytest

from skillc_index.inventory import nested
from skillc_index.inventory.nested import nested_folders, nested_notices

Run = Callable[..., Any]
WriteSkill = Callable[..., Path]


@pytest.fixture(autouse=True)
def _own_cuts(monkeypatch: pytest.MonkeyPatch) -> None:
    """The walks cut short are this process's: none of another test's is told here."""
    monkeypatch.setattr(nested, "_NESTED_CUT", type(nested._NESTED_CUT)())


def test_a_claude_folder_linked_within_the_project_is_followed_one_linked_out_is_not(
    tmp_path: Path, project: Path, write_skill: WriteSkill, cli: Callable[..., Run]
) -> None:
    """``packages/web/.claude -> ../../shared/claude``: Claude Code follows the link, the
    search skipped it (``skc list`` showed nothing of it from the repository root, while a
    ``.claude/skills`` link was found). A ``.claude`` leading out of the project is not
    followed."""
    write_skill(project / "shared/claude/skills/shared-skill")
    (project / "packages/web").mkdir(parents=True)
    (project / "packages/web/.claude").symlink_to("../../shared/claude")
    write_skill(tmp_path / "outside/skills/outside-skill")
    (project / "packages/out").mkdir(parents=True)
    (project / "packages/out/.claude").symlink_to(tmp_path / "outside")
    assert [root.path for root in nested_folders(project)] == [
        project / "packages/web/.claude/skills"
    ]
    listed = cli("skc", script=True)("list", "--format", "json")
    assert listed.returncode == 0, listed.stderr
    (skill,) = json.loads(listed.stdout)["skills"]
    assert skill["name"] == "shared-skill"
    assert skill["source_path"] == str(project / "shared/claude/skills/shared-skill")
    assert [place["path"] for place in skill["locations"]] == [
        str(project / "packages/web/.claude/skills/shared-skill")
    ]


def test_the_search_reads_a_bounded_number_of_entries_in_all_and_says_so(
    project: Path, write_skill: WriteSkill, monkeypatch: pytest.MonkeyPatch
) -> None:
    """A dataset (folders of thousands of files, no skill) made every home skill's ``show``
    pay for sorting every file it read, up to 1,000 folders x 20,000 entries: the entries read
    are bounded in all (``NESTED_ENTRIES``), only folders are kept, the folders of the last
    level are not listed (their ``.claude`` is looked up), and a search cut short says so."""
    monkeypatch.setattr(nested, "NESTED_ENTRIES", 100, raising=False)  # (a new bound)
    for shard in ("a-data", "b-data", "c-data"):
        (project / shard).mkdir()
        for number in range(45):
            (project / shard / f"r{number}.json").touch()
    write_skill(project / "a-pkg/.claude/skills/early")
    write_skill(project / "z-pkg/.claude/skills/late")  # its folder is listed past the bound
    write_skill(project / "deep/one/two/.claude/skills/deepest")  # the last level: looked up
    listed: list[str] = []
    scandir = os.scandir

    def counting(folder: Any) -> Any:
        listed.append(str(folder))
        return scandir(folder)

    monkeypatch.setattr(os, "scandir", counting)
    assert [root.path for root in nested_folders(project)] == [project / "a-pkg/.claude/skills"]
    assert str(project / "z-pkg") not in listed
    (notice,) = nested_notices()
    assert notice.text == (
        f"{project} holds more than 100 files and folders within 3 levels: only the folders "
        "listed first, in name order, were searched for nested .claude/skills folders"
    )
    monkeypatch.setattr(nested, "NESTED_ENTRIES", 1000)  # room for all: nothing said
    listed.clear()
    assert [root.path for root in nested_folders(project)] == [
        project / "a-pkg/.claude/skills",
        project / "deep/one/two/.claude/skills",
        project / "z-pkg/.claude/skills",
    ]
    assert nested_notices() == ()
    assert str(project / "deep/one") in listed
    assert str(project / "deep/one/two") not in listed  # the last level: looked up only


def test_a_command_searches_the_nested_folders_once(
    project: Path, cli: Callable[..., Run], monkeypatch: pytest.MonkeyPatch
) -> None:
    """An E001 searched them three times (the lookup, the near names, the links gone) and
    ``find`` three times too: a command's layout takes the first search's answer; the next
    command (its own layout) searches again."""
    calls: list[Path] = []
    walk = nested.nested_folders

    def counted(base: Path) -> Any:
        calls.append(base)
        return walk(base)

    monkeypatch.setattr(nested, "nested_folders", counted)
    skc = cli("skc")
    for args in (("outline", "nosuch"), ("find", "anything", "--format", "json")):
        calls.clear()
        ran = skc(*args)
        assert ran.returncode == (1 if args[0] == "outline" else 0), ran.stderr
        assert calls == [project], args
