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
    listed = cli("skillc-index", script=True)("list", "--format", "json")
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
    level are not listed (their ``.claude`` is looked up, as that of a folder found once the
    bound is reached), and a search cut short says so."""
    monkeypatch.setattr(nested, "NESTED_ENTRIES", 100)  # (a new bound)
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
    assert [root.path for root in nested_folders(project)] == [
        project / "a-pkg/.claude/skills",
        project / "z-pkg/.claude/skills",  # not listed: its .claude looked up all the same
    ]
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
    pytest.importorskip("skillc_gateway")  # (outline and find: skillc-index alone has neither)
    skc = cli("skillc-gateway")
    for args in (("outline", "nosuch"), ("find", "anything", "--format", "json")):
        calls.clear()
        ran = skc(*args)
        assert ran.returncode == (1 if args[0] == "outline" else 0), ran.stderr
        assert calls == [project], args


def _make_files(folder: Path, count: int) -> None:
    folder.mkdir(parents=True)
    for number in range(count):
        (folder / f"r{number:05d}.json").touch()


def test_folders_of_files_leave_the_budget_to_the_packages_after_them(
    tmp_path: Path, write_skill: WriteSkill, monkeypatch: pytest.MonkeyPatch
) -> None:
    """``assets``, ``data`` and ``fixtures`` of 20,001 files each, then
    ``packages/web/.claude/skills``: the three folders sorting first took the whole budget
    and the package's skills were not found (the search before the budget found them). A
    folder below the top stops being read after ``NESTED_RUN`` entries in a row that are no
    folder: here ten of 41 files each, the budget 100."""
    monkeypatch.setattr(nested, "NESTED_ENTRIES", 100)
    monkeypatch.setattr(nested, "NESTED_RUN", 10)  # (a new bound)
    repo = tmp_path / "repo"
    (repo / ".git").mkdir(parents=True)
    for shard in ("assets", "data", "fixtures"):
        _make_files(repo / shard, 41)
    write_skill(repo / "packages/web/.claude/skills/webskill")
    assert [root.path for root in nested_folders(repo)] == [repo / "packages/web/.claude/skills"]
    assert nested_notices() == ()


def test_a_skills_link_out_of_the_project_is_not_followed_as_a_claude_link_is_not(
    tmp_path: Path, project: Path, write_skill: WriteSkill, cli: Callable[..., Run]
) -> None:
    """A real ``packages/b/.claude`` whose ``skills -> /outside`` was followed (``skc list``
    showed the outside skill) while a ``.claude`` link out of the project was not: one rule
    for both, ``skills`` within the project when either is a link."""
    write_skill(tmp_path / "outside/outside-skill")
    (project / "packages/b/.claude").mkdir(parents=True)
    (project / "packages/b/.claude/skills").symlink_to(tmp_path / "outside")
    write_skill(project / "shared/skills/shared-skill")
    (project / "packages/c/.claude").mkdir(parents=True)
    (project / "packages/c/.claude/skills").symlink_to("../../../shared/skills")
    assert [root.path for root in nested_folders(project)] == [
        project / "packages/c/.claude/skills"
    ]
    listed = cli("skillc-index", script=True)("list", "--format", "json")
    assert listed.returncode == 0, listed.stderr
    assert [skill["name"] for skill in json.loads(listed.stdout)["skills"]] == ["shared-skill"]


def test_a_project_of_exactly_the_budget_is_searched_whole_without_a_word(
    tmp_path: Path, write_skill: WriteSkill, monkeypatch: pytest.MonkeyPatch
) -> None:
    """A listing ending exactly on the budget said the project "holds more than" it: a cut
    is said only when a listing the budget stopped held more (one entry more is read), or a
    folder left unlisted holds anything."""
    monkeypatch.setattr(nested, "NESTED_ENTRIES", 40)
    repo = tmp_path / "repo"
    _make_files(repo / "a", 38)  # the top's entry a, its 38 files, the top's entry b: 40
    (repo / "b").mkdir()  # listed after the budget is spent: empty, nothing of it unread
    assert nested_folders(repo) == ()
    assert nested_notices() == ()
    (repo / "a" / "one-more.json").touch()
    assert nested_folders(repo) == ()
    (notice,) = nested_notices()
    assert "holds more than 40 files and folders" in notice.text
    (repo / "a" / "one-more.json").unlink()
    (repo / "b" / "file").touch()  # b holds something, its subfolders unsearched
    nested_folders(repo)
    assert len(nested_notices()) == 1


class _TagLast:
    """``os.scandir`` listing the folders first and ``CACHEDIR.TAG`` last (the system lists
    in its own order: here the tag lies past what the budget reads)."""

    def __init__(self, scandir: Callable[..., Any]) -> None:
        self.scandir = scandir

    def __call__(self, folder: Any) -> Any:
        with self.scandir(folder) as listing:
            entries = list(listing)
        entries.sort(key=lambda e: (e.name == "CACHEDIR.TAG", not e.is_dir(), e.name))

        class Listing:
            def __iter__(self) -> Any:
                return iter(entries)

            def __enter__(self) -> Any:
                return iter(entries)

            def __exit__(self, *exc: object) -> None:
                return None

        return Listing()


def test_a_listing_the_budget_cut_has_its_cache_tag_looked_at(
    tmp_path: Path, write_skill: WriteSkill, monkeypatch: pytest.MonkeyPatch
) -> None:
    """A cache whose ``CACHEDIR.TAG`` lay past the entries the budget let be read (not the
    20,000 of a folder) was searched: its ``.claude/skills`` was found."""
    from skillc_index.walk import CACHE_SIGNATURE

    repo = tmp_path / "repo"
    write_skill(repo / "cache/.claude/skills/cached")
    for number in range(20):
        (repo / "cache" / f"blob{number}").touch()
    (repo / "cache/CACHEDIR.TAG").write_bytes(CACHE_SIGNATURE + b"\n")
    monkeypatch.setattr(nested, "NESTED_ENTRIES", 5)  # the top's 1 entry, then 4 of cache's
    monkeypatch.setattr(os, "scandir", _TagLast(os.scandir))
    assert nested_folders(repo) == ()


def test_a_layout_kept_sees_a_nested_folder_made_since_and_a_command_walks_once(
    project: Path, write_skill: WriteSkill, monkeypatch: pytest.MonkeyPatch
) -> None:
    """The walk was reused for the same layout for 2 seconds: a server or an embedder keeping
    its layout saw a stale list, and a slow command walked again anyway. Outside a command
    (``one_walk``) every lookup walks; within one, a project is walked once."""
    from skillc_index.layout import Layout

    layout = Layout.discover(project)
    assert nested.nested_roots(layout, project) == ()
    write_skill(project / "packages/web/.claude/skills/web")
    (root,) = nested.nested_roots(layout, project)  # at once: not the list of before
    assert root.path == project / "packages/web/.claude/skills"
    calls: list[Path] = []
    walk = nested.nested_folders

    def counted(base: Path) -> Any:
        calls.append(base)
        return walk(base)

    monkeypatch.setattr(nested, "nested_folders", counted)
    with nested.one_walk():
        for _ in range(3):
            assert nested.nested_roots(layout, project) == (root,)
    assert calls == [project]
    nested.nested_roots(layout, project)
    assert calls == [project, project]


def test_a_claude_folder_past_where_a_listing_stopped_is_found(
    tmp_path: Path, write_skill: WriteSkill, monkeypatch: pytest.MonkeyPatch
) -> None:
    """``proj/web`` of 3,000 files and its ``.claude`` listed at position 2,923: the listing
    stopped after ``NESTED_RUN`` entries in a row that were no folder, and the ``.claude`` it
    never reached was missed without a word (``skc list``: "No skills found."). A listing
    stopped early has its ``.claude`` looked up, as a folder of the last level has; a
    ``.claude`` that the listing reached is found once."""
    repo = tmp_path / "repo"
    (repo / ".git").mkdir(parents=True)
    for name in ("web", "web2", "web3", "web4"):  # the listing's order is the system's
        write_skill(repo / name / ".claude/skills/webskill")
        for number in range(60):
            (repo / name / f"r{number:05d}.json").touch()
        position = [entry.name for entry in os.scandir(repo / name)].index(".claude")
        if position:
            break
        (repo / name / ".claude").rename(repo / name / "moved")  # listed first: left out
    monkeypatch.setattr(nested, "NESTED_RUN", min(position, 20))
    assert [root.path for root in nested_folders(repo)] == [repo / name / ".claude/skills"]
    write_skill(repo / "api/.claude/skills/apiskill")
    assert [root.path for root in nested_folders(repo)] == [
        repo / "api/.claude/skills",
        repo / name / ".claude/skills",
    ]
