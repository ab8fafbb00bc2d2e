"""A targeted walk (only the folders a watcher names, the unwatched and the too recent)
gives the state a full walk gives: real trees, real inotify, random operations."""

from __future__ import annotations

import os
import random
import shutil
import time
from collections.abc import Callable, Iterator
from pathlib import Path
from typing import Any

import pytest

from skillc_gateway.catalog import scan
from skillc_gateway.catalog import watch as watch_module
from skillc_gateway.catalog.scan import Walk, walk
from skillc_gateway.catalog.tree_state import SKILL, TreeState, fingerprint, is_racy
from skillc_gateway.catalog.watch import Watcher, open_watcher
from skillc_index.inventory.deployed import ROUTER_MARK

MARGIN_NS = 50_000_000  # a change this recent is racy: past the file system's time granularity


@pytest.fixture
def watcher() -> Iterator[Watcher]:
    found = open_watcher()
    if found is None:
        pytest.skip("no inotify here")
    yield found
    found.close()


def deployed(real: str, meta: bool) -> str | None:
    """A deployed skill: a copy holding ``.skillc-meta/``, or a link into a ``runtime``."""
    if meta or "/runtime/" in real:
        return "/sources/" + real.rpartition("/")[2]
    return None


def look(state: TreeState) -> dict[str, Any]:
    rows = zip(state.paths, state.stamps, state.kinds, state.ids, state.fps, strict=True)
    return {
        "rows": list(rows),
        "links": state.links,
        "sources": state.sources,
        "dangling": state.dangling,
        "real": state.real,
    }


def index(state: TreeState, result: Walk, since: int, ids: dict[str, int]) -> None:
    """What the catalog's indexer records of the pending skills."""
    for position in result.pending:
        real = state.real_path(state.paths[position])
        try:
            st = os.lstat(f"{real}/SKILL.md")
        except OSError:
            state.kinds[position] &= ~SKILL
            state.stamps[position] = 0
            state.ids[position] = state.fps[position] = 0
            continue
        state.ids[position] = ids.setdefault(real, len(ids) + 1)
        state.fps[position] = 0 if is_racy(st, since) else fingerprint(st)


class Tree:
    """Random operations on a real tree under ``root`` (symlink targets under ``outside``)."""

    def __init__(self, base: Path, rng: random.Random, write_skill: Callable[..., Path]) -> None:
        self.write_skill = write_skill
        self.root = base / "root"
        self.outside = base / "outside"
        self.runtime = base / "home/.skillc/runtime"
        for folder in (self.root, self.outside, self.runtime):
            folder.mkdir(parents=True)
        self.rng = rng
        self.count = 0

    def name(self) -> str:
        self.count += 1
        return self.rng.choice(["s", "t", "skills", ".claude", "node_modules", "x"]) + str(
            self.count
        )

    def folders(self, base: Path | None = None) -> list[Path]:
        found = []
        for folder, subfolders, _files in os.walk(base or self.root):
            found.append(Path(folder))
            subfolders.sort()
        return sorted(found)

    def pick(self, base: Path | None = None) -> Path:
        return self.rng.choice(self.folders(base))

    def skill(self, folder: Path) -> None:
        word = self.rng.choice(["owls", "herons", "kites"])
        self.write_skill(folder, description=word, heading=False)  # frontmatter only

    def step(self) -> str:
        rng = self.rng
        operation = rng.choice(
            [
                "mkdir", "mkdir", "skill", "skill", "edit", "unskill", "rmtree", "rename",
                "swap", "link", "relink", "unlink", "outside", "meta", "router", "file",
                "runtime", "dangle",
            ]
        )  # fmt: skip
        folder = self.pick()
        if operation == "mkdir":
            new = folder / self.name()
            new.mkdir()
            if rng.random() < 0.5:
                self.skill(new)
        elif operation in ("skill", "edit"):
            self.skill(folder)
        elif operation == "unskill":
            (folder / "SKILL.md").unlink(missing_ok=True)
        elif operation == "rmtree" and folder != self.root:
            shutil.rmtree(folder)
        elif operation == "rename" and folder != self.root:
            target = self.pick()
            if not str(target).startswith(str(folder)):
                folder.rename(target / self.name())
        elif operation == "swap":
            entries = [p for p in self.folders() if p != self.root]
            if len(entries) >= 2:
                one, two = rng.sample(entries, 2)
                if not (str(one).startswith(str(two)) or str(two).startswith(str(one))):
                    one.rename(one.with_name("swapping"))
                    two.rename(one)
                    one.with_name("swapping").rename(two)
        elif operation == "link":
            target = self.outside / self.name()
            target.mkdir()
            self.skill(target)
            (target / "sub").mkdir()
            (self.root / self.name()).symlink_to(target)
        elif operation == "relink":
            links = [p for p in self.root.iterdir() if p.is_symlink()]
            targets = [p for p in self.outside.iterdir() if p.is_dir()]
            if links and targets:
                link = rng.choice(links)
                link.unlink()
                if rng.random() < 0.8:
                    link.symlink_to(rng.choice(targets))
        elif operation == "unlink":
            links = [p for p in self.root.iterdir() if p.is_symlink()]
            if links:
                rng.choice(links).unlink()
        elif operation == "outside":
            targets = [p for p in self.outside.iterdir() if p.is_dir()]
            if targets:
                inside = self.pick(rng.choice(targets))
                if rng.random() < 0.5:
                    self.skill(inside)
                else:
                    (inside / self.name()).mkdir()
        elif operation == "meta":
            entries = [p for p in self.root.iterdir() if p.is_dir() and not p.is_symlink()]
            if entries:
                meta = rng.choice(entries) / ".skillc-meta"
                if meta.is_dir():
                    shutil.rmtree(meta)
                elif meta.exists():
                    meta.unlink()
                else:
                    meta.mkdir()
        elif operation == "router":
            mark = folder / ROUTER_MARK
            if mark.exists():
                mark.unlink()
            else:
                mark.write_text("")
        elif operation == "file" and folder != self.root:
            shutil.rmtree(folder)
            folder.write_text("now a file")
        elif operation == "dangle":  # a link's target moved away, or back
            targets = [p for p in self.outside.iterdir() if p.is_dir()]
            if targets:
                moved = rng.choice(targets)
                back = moved.name.removesuffix("-gone")
                moved.rename(moved.with_name(back if back != moved.name else f"{back}-gone"))
        elif operation == "runtime":
            target = self.runtime / self.name()
            target.mkdir()
            self.skill(target)
            (self.root / self.name()).symlink_to(target)
        return operation


#: The depth the random trees' walks search (the trees go deeper).
DEPTH = 3


@pytest.mark.parametrize("seed", range(8))
def test_a_targeted_walk_is_a_full_walk(
    tmp_path: Path,
    watcher: Watcher,
    seed: int,
    monkeypatch: pytest.MonkeyPatch,
    write_skill: Callable[..., Path],
) -> None:
    monkeypatch.setattr(scan, "MAX_FOLDERS", 15)  # reached by some trees: truncated walks
    tree = Tree(tmp_path, random.Random(seed), write_skill)
    for _ in range(10):
        tree.step()
    root = str(tree.root)
    ids: dict[str, int] = {}
    since = time.time_ns() - MARGIN_NS
    # depth 3 is reached by the trees: deeper folders are not searched (the walk's default
    # depth is bound when it is defined: it is passed, not patched)
    first = walk(root, None, since, deployed, watch=watcher.watch, depth=DEPTH)
    state = first.state
    index(state, first, since, ids)
    looked = 0
    for _round in range(40):
        for _ in range(tree.rng.randint(0, 3)):
            tree.step()
        time.sleep(MARGIN_NS / 1e9 + 0.01)
        if tree.rng.random() < 0.3:
            tree.step()  # racy: changed within the margin, looked at again next time
        changes = watcher.changed()
        assert changes is not None
        since = time.time_ns() - MARGIN_NS
        targeted = walk(
            root, state, since, deployed, watch=watcher.watch,
            changed=changes.folders, moved=changes.moved, depth=DEPTH,
        )  # fmt: skip
        full = walk(root, state, since, deployed, depth=DEPTH)
        assert look(targeted.state) == look(full.state)
        assert targeted.changed == full.changed
        assert targeted.truncated == full.truncated
        paths = targeted.state.paths
        assert sorted(paths[i] for i in targeted.pending) == sorted(paths[i] for i in full.pending)
        assert sorted(targeted.removed) == sorted(full.removed)
        assert not targeted.state.unwatched
        looked += len(changes.folders)
        state = targeted.state
        index(state, targeted, since, ids)
    assert looked  # the watcher did report folders


def test_a_folder_that_cannot_be_watched_is_looked_at_every_time(
    tmp_path: Path, watcher: Watcher
) -> None:
    (tmp_path / "a/b").mkdir(parents=True)
    refused = str(tmp_path / "a")
    real_watch = watcher.watch

    def watch(folder: str) -> bool:
        return folder != refused and real_watch(folder)

    time.sleep(MARGIN_NS / 1e9 + 0.01)
    first = walk(str(tmp_path), None, time.time_ns() - MARGIN_NS, deployed, watch=watch)
    assert first.state.unwatched == {"a"} and all(first.state.stamps)
    assert watcher.changed() == (set(), set())
    (tmp_path / "a/b/SKILL.md").write_text("---\nname: b\ndescription: owls\n---\n")
    (tmp_path / "a/SKILL.md").write_text("---\nname: a\ndescription: owls\n---\n")  # unseen
    changes = watcher.changed()
    assert changes == ({str(tmp_path / "a/b")}, {str(tmp_path / "a/b/SKILL.md")})
    since = time.time_ns() - MARGIN_NS
    again = walk(str(tmp_path), first.state, since, deployed, watch=watch, changed=changes[0])
    assert sorted(again.state.paths[i] for i in again.pending) == ["a", "a/b"]
    assert again.state.unwatched == {"a"}
    near = walk(str(tmp_path), first.state, since, deployed, watch=real_watch, changed=set())
    assert near.state.unwatched == set()  # watched now: trusted from the next walk on


def _linked_library(tmp_path: Path) -> tuple[Path, Path]:
    """``lib/linked -> repo/skills/linked`` (a skill): the target and the library."""
    target = tmp_path / "repo" / "skills" / "linked"
    target.mkdir(parents=True)
    (target / "SKILL.md").write_text("---\nname: linked\n---\n")
    library = tmp_path / "lib"
    library.mkdir()
    (library / "linked").symlink_to(target)
    return target, library


def test_a_followed_entrys_target_moved_by_a_folder_above_it_is_reported(
    tmp_path: Path, watcher: Watcher, monkeypatch: pytest.MonkeyPatch
) -> None:
    """``lib/linked -> repo/skills/linked``, then ``mv repo repo-old``: no event of the
    target's watch (its inode moved along) nor of the root's. The folders above the target
    are watched for their own move: the entry is reported moved, and a new ``repo`` is
    watched again. Past :data:`~.watch.MAX_ABOVE` such folders, the entry is not watched
    (looked at on every walk)."""
    target, library = _linked_library(tmp_path)
    entry = str(library / "linked")
    time.sleep(MARGIN_NS / 1e9 + 0.01)
    since = time.time_ns() - MARGIN_NS
    first = walk(str(library), None, since, deployed, watch=watcher.watch, depth=1)
    assert first.state.paths == ["", "linked"] and not first.state.unwatched
    assert watcher.changed() == (set(), set())
    (tmp_path / "repo").rename(tmp_path / "repo-old")
    target.mkdir(parents=True)  # a new checkout
    assert watcher.changed() == (set(), {entry})
    again = walk(
        str(library), first.state, since, deployed, watch=watcher.watch, depth=1,
        changed=set(), moved={entry},
    )  # fmt: skip
    assert again.state.paths == ["", "linked"] and not again.pending  # no SKILL.md yet
    assert not again.state.kinds[1] & SKILL
    shutil.rmtree(tmp_path / "repo")  # the new checkout's folders are watched
    changes = watcher.changed()
    assert changes is not None and entry in changes.moved
    monkeypatch.setattr(watch_module, "MAX_ABOVE", 1)
    bounded = open_watcher()
    assert bounded is not None
    try:
        (tmp_path / "repo-old").rename(tmp_path / "repo")
        first = walk(str(library), None, since, deployed, watch=bounded.watch, depth=1)
    finally:
        bounded.close()
    assert first.state.paths == ["", "linked"] and first.state.unwatched == {"linked"}


def test_a_dangling_entry_is_followed_once_its_target_is_back(
    tmp_path: Path, watcher: Watcher
) -> None:
    """``lib/linked -> repo/skills/linked``, ``mv repo repo-gone`` and back, and ``lib/later``
    linked before its target is made: no folder the walk knows changes as a target comes
    (the library's stamp is the same), so the skills stayed out until the library changed.
    The root's dangling entries are recorded, and statted by every walk: a targeted one (the
    watcher saw nothing), a full one, and one from the saved state (a new process)."""
    _, library = _linked_library(tmp_path)
    (library / "later").symlink_to(tmp_path / "elsewhere" / "later")
    time.sleep(MARGIN_NS / 1e9 + 0.01)
    since = time.time_ns() - MARGIN_NS
    first = walk(str(library), None, since, deployed, watch=watcher.watch, depth=1)
    assert first.state.paths == ["", "linked"]
    (tmp_path / "repo").rename(tmp_path / "repo-gone")
    changes = watcher.changed()
    assert changes == (set(), {str(library / "linked")})
    gone = walk(
        str(library), first.state, since, deployed, watch=watcher.watch, depth=1,
        changed=changes.folders, moved=changes.moved,
    )  # fmt: skip
    assert gone.state.paths == [""]
    (tmp_path / "repo-gone").rename(tmp_path / "repo")
    (tmp_path / "elsewhere" / "later").mkdir(parents=True)
    (tmp_path / "elsewhere" / "later" / "SKILL.md").write_text("---\nname: later\n---\n")
    assert watcher.changed() == (set(), set())
    saved = TreeState.loads(gone.state.dumps())
    assert saved is not None
    targeted = walk(
        str(library), gone.state, since, deployed, watch=watcher.watch, depth=1, changed=set()
    )
    full = walk(str(library), gone.state, since, deployed, depth=1)
    new_process = walk(str(library), saved, since, deployed, depth=1)
    for result in (targeted, full, new_process):
        assert result.state.paths == ["", "later", "linked"]
        assert sorted(result.state.paths[i] for i in result.pending) == ["later", "linked"]
    assert look(targeted.state) == look(full.state) == look(new_process.state)
    assert first.state.dangling == {"later"} and not full.state.dangling
    assert gone.state.dangling == saved.dangling == {"later", "linked"}


def test_a_followed_entry_behind_a_re_pointed_link_is_walked_at_its_new_target(
    tmp_path: Path, watcher: Watcher
) -> None:
    """``lib/chain -> links/current/chain`` and ``links/current`` re-pointed from ``rel/v1``
    to ``rel/v2`` (a release switch, ``ln -sfn``): the target's stamp changed, but the
    walk kept v1's real path (only the root's listing re-resolved a link), so v1's skill
    was indexed and answered, by a new process's full pass too; and no watch saw it (the
    folder holding ``current`` is none of the tree's). The links on the way are watched by
    name, and a walk re-resolves a followed entry whose target is another folder: a
    targeted walk, a full one and one from the saved state agree, at v2. Near misses:
    ``rel`` renamed and ``current`` re-pointed into it (the same folder, the same stamp, at
    another path): the recorded path leads nowhere, the entry is walked at its new path;
    ``links/current`` removed: the entry dangles."""
    rel, links, library = tmp_path / "rel", tmp_path / "links", tmp_path / "lib"
    for version in ("v1", "v2"):
        (rel / version / "chain").mkdir(parents=True)
        text = f"---\nname: chain\ndescription: {version}\n---\n"
        (rel / version / "chain" / "SKILL.md").write_text(text, encoding="utf-8")
    links.mkdir()
    library.mkdir()
    (links / "current").symlink_to(rel / "v1")
    (library / "chain").symlink_to(links / "current" / "chain")
    entry = str(library / "chain")

    def re_point(target: Path) -> None:  # as ln -sfn does: a new link renamed over
        (links / "new").symlink_to(target)
        (links / "new").replace(links / "current")

    time.sleep(MARGIN_NS / 1e9 + 0.01)
    since = time.time_ns() - MARGIN_NS
    first = walk(str(library), None, since, deployed, watch=watcher.watch, depth=1)
    assert first.state.links == {"chain": str(rel / "v1" / "chain")}
    assert watcher.changed() == (set(), set())
    state, ids = first.state, {}
    index(state, first, since, ids)

    def again(expected: Path | None) -> TreeState:
        changes = watcher.changed()
        assert changes is not None and entry in changes.folders | changes.moved
        saved = TreeState.loads(state.dumps())
        assert saved is not None
        targeted = walk(
            str(library), state, since, deployed, watch=watcher.watch, depth=1,
            changed=changes.folders, moved=changes.moved,
        )  # fmt: skip
        full = walk(str(library), state, since, deployed, depth=1)
        new_process = walk(str(library), saved, since, deployed, depth=1)
        for result in (targeted, full, new_process):
            real = [real for _, real in result.state.summary().skills]
            assert real == ([] if expected is None else [str(expected)])
            assert result.removed == [(ids[state.real_path("chain")], state.real_path("chain"))]
            if expected is not None:
                assert [result.state.paths[i] for i in result.pending] == ["chain"]
        assert look(targeted.state) == look(full.state) == look(new_process.state)
        index(targeted.state, targeted, since, ids)
        return targeted.state

    re_point(rel / "v2")
    state = again(rel / "v2" / "chain")
    (rel).rename(tmp_path / "rel2")  # v2's folder, the same stamp: at another path
    re_point(tmp_path / "rel2" / "v2")
    state = again(tmp_path / "rel2" / "v2" / "chain")
    (links / "current").unlink()
    state = again(None)
    assert state.dangling == {"chain"}


def test_a_watched_file_that_is_a_symlink_is_watched_at_its_one_target(
    tmp_path: Path, watcher: Watcher
) -> None:
    """``watch_file`` of a link (``settings.json -> dots/c -> dots/a/s.json``, a dotfile
    manager's): a write of its target reports it (a write through a link is no event of
    the link's folder), as a link of the chain re-pointed does. Watched again after that,
    the old target is dropped (its writes report nothing, its folder's watch is given
    back: re-pointed back and forth, the watches stay as many); a dangling link's target
    is watched for in its folder."""
    home, dots = tmp_path / "home", tmp_path / "dots"
    for folder in (home, dots / "a", dots / "b"):
        folder.mkdir(parents=True)
    first, second = dots / "a" / "s.json", dots / "b" / "s.json"
    first.write_text("1", encoding="utf-8")
    second.write_text("2", encoding="utf-8")
    (dots / "c").symlink_to(first)
    path = home / "settings.json"
    path.symlink_to(dots / "c")
    reported = ({str(path)}, set())
    watcher.watch_file(str(path))
    watches = watcher.watches  # home, dots (for c), dots/a
    first.write_text("x", encoding="utf-8")
    assert watcher.changed() == reported
    (dots / "c").unlink()
    (dots / "c").symlink_to(second)
    assert watcher.changed() == reported
    watcher.watch_file(str(path))  # as the caller reads it again
    assert watcher.watches == watches
    first.write_text("y", encoding="utf-8")
    assert watcher.changed() == (set(), set())
    second.write_text("z", encoding="utf-8")
    assert watcher.changed() == reported
    second.unlink()
    assert watcher.changed() == reported
    watcher.watch_file(str(path))
    second.write_text("w", encoding="utf-8")
    assert watcher.changed() == reported


def test_the_parts_of_a_link_chain_looked_at_are_bounded(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """A chain of 39 links each padded with 4 KB of ``d/..`` had :func:`link_chain` lstat
    62,000 path parts (and :func:`followed` as many) for one entry, at every full pass: it
    looks at :data:`MAX_PARTS` at most, past them the chain is unknown (the links met so
    far, as for a loop). Near miss: the same 39 links unpadded are all met."""
    from skillc_gateway.catalog import tree_state
    from skillc_gateway.catalog.tree_state import MAX_PARTS, followed, link_chain

    for padded in (True, False):
        base = tmp_path / ("padded" if padded else "plain")
        (base / "d").mkdir(parents=True)
        (base / "real" / "x").mkdir(parents=True)
        (base / "skills").mkdir()
        pad = "/".join(["d/.."] * 800) + "/" if padded else ""
        (base / "l0").symlink_to(f"{pad}real")
        for n in range(1, 39):
            (base / f"l{n}").symlink_to(f"{pad}l{n - 1}")
        (base / "skills" / "x").symlink_to(base / "l38" / "x")
        assert os.path.realpath(base / "skills" / "x") == str(base / "real" / "x")
        calls: list[Any] = []
        real_lstat = os.lstat

        def counting(
            path: Any, _lstat: Any = real_lstat, _calls: list[Any] = calls
        ) -> os.stat_result:
            _calls.append(path)
            return _lstat(path)  # type: ignore[no-any-return]

        monkeypatch.setattr(tree_state.os, "lstat", counting)
        links = link_chain(str(base / "skills"), "x")
        assert len(calls) <= MAX_PARTS
        followed(str(base / "skills"), "x", str(base / "real" / "x"))
        assert len(calls) <= 2 * MAX_PARTS
        monkeypatch.undo()
        if padded:
            assert len(links) < 38
        else:
            assert links == [str(base / f"l{n}") for n in range(38, -1, -1)]


def test_a_link_up_the_tree_is_not_followed(tmp_path: Path) -> None:
    """A library's entry that links to the root or to a folder holding it (``x -> ..``,
    ``x -> /``) is a loop: not followed (a stranger's checkout with ``x -> /`` had
    ``skc find --path`` walk the whole disk, 40,795 skills, 51 s). A link to a skill
    elsewhere is followed, as deployed skills are links."""
    library = tmp_path / "lib"
    for folder in (library / "own", tmp_path / "outside" / "ext"):
        folder.mkdir(parents=True)
        (folder / "SKILL.md").write_text("---\nname: x\ndescription: y\n---\n", encoding="utf-8")
    (library / "up").symlink_to(tmp_path, target_is_directory=True)
    (library / "self").symlink_to(library, target_is_directory=True)
    (library / "ext").symlink_to(tmp_path / "outside" / "ext", target_is_directory=True)
    result = walk(str(library), None, time.time_ns() - MARGIN_NS, deployed)
    assert result.state.paths == ["", "ext", "own"]
    assert sorted(real for _, real in result.state.summary().skills) == [
        str(library / "own"),
        str(tmp_path / "outside" / "ext"),
    ]
    again = walk(str(library), result.state, time.time_ns() - MARGIN_NS, deployed)
    assert look(again.state) == look(result.state)  # the same state on the next look


def test_a_folder_that_cannot_be_listed_drops_what_it_held(
    tmp_path: Path, watcher: Watcher, monkeypatch: pytest.MonkeyPatch
) -> None:
    """A folder whose permissions now refuse its listing (``chmod 311``, or ``000`` for a
    user: only an attribute event of the folder): its subfolders were taken from the old
    state (a targeted walk) or kept while they could still be statted (a full walk), their
    skills still answered; a new walk lists nothing under it. Now every walk drops them.
    Root lists anything: its refusal is played by ``os.scandir``."""
    for name in ("s1", "s2"):
        (tmp_path / "group" / name).mkdir(parents=True)
        (tmp_path / "group" / name / "SKILL.md").write_text(f"---\nname: {name}\n---\n")
    (tmp_path / "top").mkdir()
    time.sleep(MARGIN_NS / 1e9 + 0.01)
    since = time.time_ns() - MARGIN_NS
    first = walk(str(tmp_path), None, since, deployed, watch=watcher.watch)
    assert first.state.paths == ["", "group", "group/s1", "group/s2", "top"]
    refused = str(tmp_path / "group")
    real_scandir = os.scandir

    def scandir(path: Any) -> Any:
        if str(path) == refused:
            raise PermissionError(13, "Permission denied", str(path))
        return real_scandir(path)

    monkeypatch.setattr(os, "scandir", scandir)
    (tmp_path / "group").chmod(0o311)
    try:
        changes = watcher.changed()
        assert changes is not None and refused in changes.folders and not changes.moved
        time.sleep(MARGIN_NS / 1e9 + 0.01)
        since = time.time_ns() - MARGIN_NS
        targeted = walk(
            str(tmp_path), first.state, since, deployed, watch=watcher.watch,
            changed=changes.folders, moved=changes.moved,
        )  # fmt: skip
        full = walk(str(tmp_path), first.state, since, deployed)
        new = walk(str(tmp_path), None, since, deployed)
    finally:
        (tmp_path / "group").chmod(0o755)
    for result in (targeted, full, new):
        assert result.state.paths == ["", "group", "top"]
    gone = [(0, str(tmp_path / "group/s1")), (0, str(tmp_path / "group/s2"))]
    assert sorted(targeted.removed) == sorted(full.removed) == gone


def test_a_state_of_an_older_format_is_walked_anew(tmp_path: Path) -> None:
    """A state saved by version 9 (whose twelve fields a later 9 gave another meaning: the
    folders a root's links are confined to) is not taken: it is walked again whole."""
    import marshal

    library = tmp_path / "lib"
    (library / "one").mkdir(parents=True)
    (library / "one" / "SKILL.md").write_text("---\nname: one\n---\n")
    state = walk(str(library), None, time.time_ns(), deployed, depth=1).state
    blob = state.dumps()
    assert TreeState.loads(blob) is not None
    older = (9, *marshal.loads(blob)[1:])
    assert TreeState.loads(marshal.dumps(older)) is None
