"""What the catalog remembers is bounded (issue 32): every folder ever passed to ``--path``
(or MCP ``skc_find``'s ``path``) kept its tree state for good (two model calls made 16 MB).
The least recently used roots go, with the skills only they held; the answers stay right.

The bounds are set low here (``database.MAX_ROOTS``, ``MAX_ROOT_BYTES``, ``TOUCH_NS``: the
catalog reads them when it runs); the catalog is real (SQLite in the private home).
"""

from __future__ import annotations

import sqlite3
import time
from collections.abc import Callable
from contextlib import closing
from pathlib import Path
from typing import Any

import pytest

from skillc_gateway import find_skills
from skillc_gateway.catalog import Catalog, database, engine, indexer
from skillc_index import Layout
from skillc_index.inventory.folders import Root

WriteSkill = Callable[..., Path]


@pytest.fixture
def layout(project: Path, home: Path) -> Layout:
    return Layout.discover(project, {"SKILLC_HOME": str(home)})


def catalog_rows(home: Path) -> tuple[list[str], list[str]]:
    """The roots the catalog remembers (least recently used first) and its skills' names."""
    with closing(sqlite3.connect(home / ".skillc" / database.CATALOG_FILE)) as db, db:
        roots = [path for (path,) in db.execute("SELECT path FROM roots ORDER BY used, path")]
        skills = sorted(name for (name,) in db.execute("SELECT name FROM skills"))
    return roots, skills


def names(found: Any) -> list[str]:
    """The folder names of the skills found (one only ``--path`` searched is named by its
    path, which ``skc show`` reads)."""
    return sorted(Path(skill.name).name for skill in found.skills)


def paths(found: Any) -> list[str]:
    """The skills found, by path: the kits below are all named ``kit`` (their folders)."""
    return sorted(skill.path for skill in found.skills)


def test_the_least_recently_used_roots_are_forgotten_with_their_skills(
    layout: Layout,
    home: Path,
    tmp_path: Path,
    monkeypatch: pytest.MonkeyPatch,
    write_skill: WriteSkill,
) -> None:
    monkeypatch.setattr(database, "MAX_ROOTS", 4)  # forgotten down to 3
    monkeypatch.setattr(database, "TOUCH_NS", 0)  # each use is written
    folders = [
        write_skill(tmp_path / f"lib{n}" / "kit", f"kit-{n}", "A kit.").parent for n in range(8)
    ]
    shared = write_skill(tmp_path / "shared" / "common", "common", "A common kit.")
    for n, folder in enumerate(folders):
        found = find_skills(layout, "kit", paths=(str(folder),))
        assert paths(found) == [f"{folder}/kit"]
        if n == 2:  # lib0 used again: lib1 is now the least recently used
            assert paths(find_skills(layout, "kit", paths=(str(folders[0]),))) == [
                f"{folders[0]}/kit"
            ]
    roots, skills = catalog_rows(home)
    assert len(roots) <= 4
    assert str(folders[7]) in roots and str(folders[1]) not in roots
    assert skills == sorted(f"kit-{folders.index(Path(root))}" for root in roots)
    # the same skill under two roots stays while one of them is remembered
    both = (str(shared), str(tmp_path / "shared"))
    assert names(find_skills(layout, "common", paths=both)) == ["common"]
    for folder in folders[:5]:
        find_skills(layout, "kit", paths=(str(folder),))
    roots, skills = catalog_rows(home)
    assert str(shared) not in roots and "common" not in skills
    # a forgotten root is searched again from nothing: the answer is whole
    assert paths(find_skills(layout, "kit", paths=(str(folders[1]),))) == [f"{folders[1]}/kit"]


def test_the_states_kept_are_bounded_in_bytes(
    layout: Layout,
    home: Path,
    tmp_path: Path,
    monkeypatch: pytest.MonkeyPatch,
    write_skill: WriteSkill,
) -> None:
    """A root of many folders is forgotten when the states pass ``MAX_ROOT_BYTES``, however
    few the roots."""
    big = tmp_path / "big"
    for n in range(300):
        (big / f"folder-{n:03d}-with-a-rather-long-name" / "inner").mkdir(parents=True)
    write_skill(big / "tool", "tool", "A tool among many folders.")
    small = write_skill(tmp_path / "small" / "gear", "gear", "A gear.").parent
    assert names(find_skills(layout, "tool", paths=(str(big),))) == ["tool"]
    with closing(sqlite3.connect(home / ".skillc" / database.CATALOG_FILE)) as db, db:
        ((size,),) = db.execute("SELECT size FROM roots WHERE path = ?", (str(big),))
    monkeypatch.setattr(database, "MAX_ROOT_BYTES", size)  # one more byte is too many
    assert names(find_skills(layout, "gear", paths=(str(small),))) == ["gear"]
    assert catalog_rows(home) == ([str(small)], ["gear"])


class Interleaved(Catalog):
    """A catalog that lets another process run in the middle of its walk (when it lists a
    new skill folder: ``_deployed`` is asked about every one), as two processes can."""

    meanwhile: Any = None

    def _deployed(self, real: str, meta: bool) -> str | None:
        if self.meanwhile is not None:
            meanwhile, self.meanwhile = self.meanwhile, None
            meanwhile()
        return super()._deployed(real, meta)


def test_a_root_forgotten_by_another_process_meanwhile_is_indexed_again(
    layout: Layout,
    home: Path,
    tmp_path: Path,
    monkeypatch: pytest.MonkeyPatch,
    write_skill: WriteSkill,
) -> None:
    """Process A reads a root's state, process B forgets that root (and its skills) while A
    walks it: A's skills whose rows are gone are indexed again, not lost from every later
    answer (A would have saved the state with their old ids)."""
    monkeypatch.setattr(database, "MAX_ROOTS", 2)
    monkeypatch.setattr(engine, "RACY_NS", 0)  # settled at once: sailing is not read again
    monkeypatch.setattr(indexer, "RACY_NS", 0)
    root = tmp_path / "water"
    write_skill(root / "sailing", "sailing", "Sail a boat on the water.")
    others = [
        write_skill(tmp_path / f"o{n}" / "gear", f"gear-{n}", "Gear.").parent for n in range(3)
    ]
    time.sleep(0.02)  # past the change time of what the test just wrote
    a = Interleaved(layout, database.open_database(layout))
    b = Catalog(layout, database.open_database(layout))
    try:
        assert names(a.find("water", [Root(root, "path")], 5)) == ["sailing"]
        write_skill(root / "rowing", "rowing", "Row a boat on the water.")
        time.sleep(0.02)

        def forget() -> None:
            for folder in others:
                assert names(b.find("gear", [Root(folder, "path")], 5))
            assert str(root) not in catalog_rows(home)[0]  # forgotten, sailing with it

        a.meanwhile = forget
        assert names(a.find("water", [Root(root, "path")], 5)) == ["rowing", "sailing"]
        assert a.meanwhile is None  # it ran
    finally:
        a.close()
        b.close()
    fresh = Catalog(layout, database.open_database(layout))
    try:
        assert names(fresh.find("water", [Root(root, "path")], 5)) == ["rowing", "sailing"]
    finally:
        fresh.close()
