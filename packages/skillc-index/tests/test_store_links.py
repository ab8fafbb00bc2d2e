"""What naming a skill after the store entry linking to it (``alpha-x -> repo/skill``) costs:
a store's links are listed once per process while the store is unchanged, only those that
may lead to the folder looked for are resolved, and a name found in a store looks at the
links named before it only (:mod:`skillc_index.inventory.links`). A farm of 2,000 links
cost each resolution of any skill outside the stores 2,000 ``realpath`` calls."""

from __future__ import annotations

import os
from collections.abc import Callable
from pathlib import Path
from typing import Any

import pytest

from skillc_index.inventory.links import store_entry
from skillc_index.layout import Layout, resolve_skill

Calls = Callable[[object, str], list[tuple[Any, ...]]]


@pytest.fixture
def farm(home: Path, write_skill: Callable[..., Path]) -> Path:
    """The global store holding ``s0``..``s7``, links to folders all named ``skill`` (a stow
    farm, one repository per skill)."""
    store = home / ".skillc" / "skills"
    store.mkdir(parents=True)
    for i in range(8):
        folder = write_skill(home.parent / "repos" / f"r{i}" / "skill", f"s{i}")
        (store / f"s{i}").symlink_to(folder, target_is_directory=True)
    return store


def _touching(calls: list[tuple[Any, ...]], store: Path) -> list[str]:
    """The links of ``store`` (:func:`farm`'s, ``r-early``) that the recorded calls were
    given, once each."""
    return sorted(
        {
            os.path.basename(os.fspath(c[0]))  # noqa: PTH119
            for c in calls
            if c and os.path.dirname(os.fspath(c[0])) == str(store)  # noqa: PTH120
        }
        & {*(f"s{i}" for i in range(8)), "r-early"}
    )


def test_a_store_is_listed_once_for_the_many_skills_a_listing_resolves(
    project: Path, home: Path, farm: Path, write_skill: Callable[..., Path], count_calls: Calls
) -> None:
    """``list`` works out the runtime of each agent-folder skill: the global store's links
    are listed once for all of them (they were listed, and each resolved, once per skill),
    and listed again once the store changed (a link added)."""
    from skillc_index.listing.skills import list_skills

    for i in range(6):
        write_skill(home / ".claude" / "skills" / f"a{i}")
    layout = Layout.discover(project, {"SKILLC_HOME": str(home)})
    listings = count_calls(os, "scandir")
    names = {s.name for s in list_skills(layout).skills}
    assert {f"a{i}" for i in range(6)} | {f"s{i}" for i in range(8)} <= names
    first = len([c for c in listings if c and os.fspath(c[0]) == str(farm)])
    assert first <= 2, first  # the inventory's listing, and the links' once
    list_skills(layout)
    again = len([c for c in listings if c and os.fspath(c[0]) == str(farm)])
    assert again - first <= 1  # the inventory lists it again, the links are not read again
    added = write_skill(home.parent / "repos" / "new" / "skill", "n")
    (farm / "n-linked").symlink_to(added)
    assert store_entry(farm, added.resolve()) == "n-linked"


def test_a_skill_outside_the_stores_resolves_no_link_to_a_folder_of_another_name(
    project: Path, home: Path, farm: Path, write_skill: Callable[..., Path], count_calls: Calls
) -> None:
    """An agent-folder skill ``a0``, by name and by path: none of the store's links (to
    folders named ``skill``) is resolved or followed; the folder ``skill`` by its path is
    found through the stat of the links, one realpath confirming it."""
    write_skill(home / ".claude" / "skills" / "a0")
    layout = Layout.discover(project, {"SKILLC_HOME": str(home)})
    resolved = count_calls(os.path, "realpath")
    followed = count_calls(os, "stat")
    for given in ("a0", str(home / ".claude" / "skills" / "a0")):
        assert resolve_skill(given, layout).name == "a0"
    assert _touching(resolved, farm) == [] and _touching(followed, farm) == []
    target = (home.parent / "repos" / "r5" / "skill").resolve()
    found = resolve_skill(str(target), layout)
    assert (found.name, found.in_store) == ("s5", True)
    assert _touching(resolved, farm) == ["s5"]


def test_a_link_found_by_name_looks_only_at_the_links_named_before_it(
    project: Path, home: Path, farm: Path, count_calls: Calls
) -> None:
    """``s2`` by name: its entry is known; only ``s0`` and ``s1`` could be an earlier link to
    its folder (the skill's name: the first by name), each looked at by one ``stat``, none
    resolved. A second link to one folder, named before it, still names the skill."""
    layout = Layout.discover(project, {"SKILLC_HOME": str(home)})
    resolved = count_calls(os.path, "realpath")
    followed = count_calls(os, "stat")
    assert resolve_skill("s2", layout).name == "s2"
    assert _touching(resolved, farm) == ["s2"]  # the entry itself, as it was found
    assert _touching(followed, farm) == ["s0", "s1", "s2"]
    (farm / "r-early").symlink_to(home.parent / "repos" / "r6" / "skill")
    assert resolve_skill("s6", layout).name == "r-early"


def test_links_through_links_and_odd_targets_are_still_found(
    tmp_path: Path, write_skill: Callable[..., Path]
) -> None:
    """A link whose target is itself a link of another name, or ends in a slash or ``.``:
    the last name of its text is not the folder's, it is resolved for every folder."""
    target = write_skill(tmp_path / "repo" / "skill").resolve()
    (tmp_path / "repo" / "other-name").symlink_to(target)
    store = tmp_path / "store"
    store.mkdir()
    (store / "zz-dot").symlink_to(f"{target}/.")
    assert store_entry(store, target) == "zz-dot"
    (store / "m-slash").symlink_to(f"{target}/")
    assert store_entry(store, target) == "m-slash"
    (store / "b-chain").symlink_to(tmp_path / "repo" / "other-name")
    assert store_entry(store, target) == "b-chain"
    (store / "a-rel").symlink_to(Path("..") / "repo" / "skill")
    assert store_entry(store, target) == "a-rel"
    assert store_entry(store, target, "b-chain") == "a-rel"
    assert store_entry(store, (tmp_path / "repo").resolve()) is None
