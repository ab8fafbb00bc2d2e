"""The skills under a searched folder, kept current from file stats.

Every folder under a root that holds a ``SKILL.md`` (not a folder; one that is no regular
file is a skill skipped and counted, never opened), down to the walk's depth, is a skill: a
folder of installed skills (a store, an agent folder, a plugin's) holds its skills as its
entries (depth 1, what the agent reads: :mod:`skillc_index.inventory.entries`, which
lists the same skills), a folder given to ``skc find --path`` holds them at any depth, nested
skills included (:data:`MAX_DEPTH`). The folders entered are those every walk for skills
enters (:func:`skillc_index.skips_folder`, the rule ``build`` and ``lint`` walk by too):
hidden ones included (``skills/.curated/``), not version control, virtual environments,
``node_modules``, caches (a folder holding a ``CACHEDIR.TAG`` below the root too), what
``skc package`` wrote into a folder (the entries its ``.skillc-package.json`` names:
:func:`skillc_index.walk.packaged`) or skillc's own runtime; of one folder at most
:data:`~skillc_index.walk.MAX_ENTRIES` entries are read (:data:`~.tree_state.CROWDED`, the
answer is partial: :meth:`Walk.cuts`); a symlinked folder is followed only as an entry of the
root itself (deployed skills are symlinks), never deeper, not out of a plugin's folder or,
for a folder a model gave (the MCP server's ``path``), out of the folders it may read
(``confine``), and not when it leads up the tree
(to the root or a folder that holds it, ``x -> /``: a loop, which walked the whole disk under
the root's depth). An entry of the root that is a symlink leading nowhere (its target moved
away or not there yet) is recorded as dangling: every walk stats it (:func:`resolved`), and
the root is listed again once it leads somewhere
(``mv repo-old repo`` changes no folder the walk knows). An entry of the root that is a
deployed skillc skill (its real path a runtime folder
``<base>/.skillc/runtime/<name>``, or a copy holding ``.skillc-meta/``) is not searched: it
stands for its source skill, which the caller searches instead.

What one folder's listing gives the walk (whether it is a skill, the subfolders entered: the
rule above) is :mod:`.listing`'s.

What the catalog knows of a root is a :class:`~.tree_state.TreeState` (:mod:`.tree_state`):
every folder under it with the stat stamp it had when it was listed, and for a skill folder
the fingerprint of the ``SKILL.md`` that was indexed. :func:`walk` stats each known folder
and each ``SKILL.md``; only a folder whose stamp changed is listed again (``os.scandir``),
and only a ``SKILL.md`` whose fingerprint changed is read again. A folder or file changed
within the last :data:`~.tree_state.RACY_NS` is recorded as unknown, so a second change
within the file system's timestamp granularity is never missed.

With a watcher (:mod:`.watch`), a walk can be targeted: given the folders it saw change, it
looks only at those, at those it could not watch and at the unknown ones
(:meth:`TreeState.unsettled`), and takes the rest of the old state as it was; a folder's
subtree follows it in the state's lists, so whole runs are copied at once. Its result is the
state a full walk gives.
"""

# Paths are str here, not pathlib: this runs over every folder of every skill per query.
# ruff: noqa: PTH110, PTH114, PTH116

from __future__ import annotations

import heapq
import os
import stat as stat_module
from collections.abc import Callable, Collection, Iterable, Iterator, Sequence
from typing import NamedTuple, Protocol

from skillc_gateway.catalog.listing import ENTRIES, SKILL_FILE, FolderLister, utf8
from skillc_gateway.catalog.tree_state import (
    LINK,
    SKILL,
    SKIPPED,
    STUB,
    UNREADABLE,
    TreeState,
    dangling_paths,
    fingerprint,
    followed,
    is_racy,
    resolved,
    stamp_of,
)
from skillc_index import Notice, cut_short
from skillc_index.walk import (
    DEPTH_BOUND,
    MAX_DEPTH,
    MAX_FOLDERS,
    crowded,
)

__all__ = [
    "ENTRIES",
    "MAX_DEPTH",
    "MAX_FOLDERS",
    "SKILL_FILE",
    "DeployedSource",
    "Walk",
    "Watch",
    "utf8",
    "walk",
]


#: ``source(real, meta)``: the real path of the store skill that the agent folder's entry at
#: ``real`` (holding ``.skillc-meta/`` when ``meta``) was deployed from, or None
#: (:func:`skillc_index.inventory.deployed.deployed_source`); ``OSError`` or ``ValueError``
#: for a copy whose manifest cannot be read (the entry is then skipped, counted as unreadable).
DeployedSource = Callable[[str, bool], "str | None"]


class Watch(Protocol):
    """``watch(folder, above, links)``: watch ``folder`` before it is looked at, for a followed
    entry the folders ``above`` its target and the ``links`` to it too; whether all are."""

    def __call__(
        self, folder: str, above: Sequence[str] = ..., links: Sequence[str] = ..., /
    ) -> bool: ...


class Walk(NamedTuple):
    """One look at a root: its new state and what changed since the old one."""

    state: TreeState
    changed: bool
    """The state differs from the one walked (it must be saved)."""
    pending: list[int]
    """The index in ``state`` of each skill folder whose SKILL.md is to be (re)indexed."""
    removed: list[tuple[int, str]]
    """``(catalog id, real path)`` of each skill folder that left the tree; the id is 0 when
    the state did not hold it (saved before the skill was indexed: a watching catalog saves a
    state when its folders change, not when its skills are indexed), and the row is the one
    at that path."""
    truncated: bool = False
    """The tree holds more than :data:`MAX_FOLDERS` folders: only the first were walked."""

    def cuts(self, root: object) -> list[Notice]:
        """The warnings of the bounds this walk of ``root`` stopped at (the answer is
        partial): :data:`MAX_FOLDERS`, :data:`MAX_DEPTH` (folders below its last level:
        :data:`~.tree_state.DEEP`), and each folder whose entries past
        :data:`~skillc_index.walk.MAX_ENTRIES` were not read (:data:`~.tree_state.CROWDED`)."""
        told, base = "the answer is partial", str(root).rstrip("/")
        cuts = [cut_short(root, told)] if self.truncated else []
        if self.state.summary().deep:
            cuts.append(cut_short(root, told, DEPTH_BOUND))
        return cuts + [
            crowded(f"{base}/{p}" if p else root, told) for p in self.state.summary().crowded
        ]


def walk(
    root: str,
    old: TreeState | None,
    since_ns: int,
    deployed_source: DeployedSource,
    *,
    watch: Watch | None = None,
    changed: Collection[str] | None = None,
    moved: Collection[str] = (),
    depth: int = MAX_DEPTH,
    confine: Sequence[str | os.PathLike[str]] = (),
) -> Walk:
    """Look at the tree under ``root`` again, from ``old`` (None: never looked at), down to
    ``depth`` folder levels (:data:`ENTRIES` for a folder of installed skills, 0 for one
    skill's folder). ``since_ns``: what changed after this (ns since the epoch) is not
    trusted yet.

    ``watch(folder)``: called before a folder is looked at (so that a change after the look
    is reported), whether it is watched; for a followed entry (a symlink of the root's), with
    the folders above its target and the symlinks on the way to it too (:func:`.tree_state.
    followed`: one renamed or re-pointed moves the target away unseen by the watch of the
    target's inode). ``changed`` (with a watch): the folders a watcher saw change since
    ``old`` was walked with it, ``moved`` those it saw moved or deleted themselves: only they
    (and all under ``moved``), the folders not watched and those whose stamp or SKILL.md was
    too recent to trust are looked at; the others are taken from ``old`` as they were. The
    result is what a full walk (``changed`` None) gives.
    ``confine`` (a plugin's folder, the folders a model may read for a ``path`` it gave:
    :attr:`~skillc_index.inventory.folders.Root.confined_to`): an entry of the root that is a
    symlink leading out of them (symlinks followed) is skipped and counted, never listed; a
    state walked under other bounds is walked anew (:attr:`TreeState.confine`)."""
    walker = _Walker(root, old, since_ns, deployed_source, watch, depth, confine)
    return walker.run(changed, moved)


class _Walker(FolderLister):
    def __init__(
        self,
        root: str,
        old: TreeState | None,
        since_ns: int,
        deployed_source: DeployedSource,
        watch: Watch | None = None,
        depth: int = MAX_DEPTH,
        confine: Sequence[str | os.PathLike[str]] = (),
    ) -> None:
        self.root = root.rstrip("/") or "/"
        self.depth = depth
        self.confine = tuple(sorted({os.path.realpath(folder) for folder in confine}))
        self.old = old
        self.since_ns = since_ns
        self.deployed_source = deployed_source
        self.watch = watch
        self.unwatched: set[str] = set()
        self.pending: list[int] = []
        self.removed: list[tuple[int, str]] = []
        self.changed = False
        self._fresh: list[tuple[str, int]] = []
        self._heap: list[int] | None = None  # a targeted walk's folders still to look at

    def full(self, path: str) -> str:
        return f"{self.root.rstrip('/')}/{path}" if path else self.root

    def _watch(self, path: str, link: int = 0) -> None:
        if self.watch is None:
            return
        full = self.full(path)
        if not (self.watch(full, *self.around(path)) if link & LINK else self.watch(full)):
            self.unwatched.add(path)

    def around(self, path: str) -> tuple[list[str], list[str]]:
        """What is watched with the followed entry ``path`` (:func:`followed`)."""
        return followed(self.state.real, path, self.state.links.get(path, ""))

    def run(self, changed: Collection[str] | None = None, moved: Collection[str] = ()) -> Walk:
        old = self.old
        self._watch("")
        try:
            real = os.path.realpath(self.root)
            root_stat = os.stat(self.root)
        except (OSError, ValueError):
            real, root_stat = "", None
        if root_stat is None or not stat_module.S_ISDIR(root_stat.st_mode):
            self.state = TreeState(real, self.depth, self.confine)
            if old is not None:
                self._remove_all(old)
            # changed only when something was there (a missing root is not saved each query)
            return Walk(self.state, old is None or bool(old.paths or old.real), [], self.removed)
        if old is None or (old.real, old.depth, old.confine) != (real, self.depth, self.confine):
            if old is not None:
                self._remove_all(old)
            old = TreeState(real, self.depth, self.confine)
            self.changed = True
        self.state = TreeState(real, self.depth, self.confine)
        self.state.links = dict(old.links)
        self.state.sources = dict(old.sources)
        self.state.dangling = set(old.dangling)
        if old.paths and resolved(dangling_paths(self.root, old)):
            # a dangling entry of the root leads somewhere: list the root again (stamp 0)
            import copy  # this branch only (a find's process imports scan.py)

            old = copy.copy(old)
            old.stamps = [0, *old.stamps[1:]]
        dirty = None
        if old.paths and changed is not None:
            dirty = self._dirty(old, root_stat, changed, moved)
        if not old.paths:
            self._walk_new("", root_stat)
        elif dirty is not None:
            start = self._unchanged_of(old, dirty)
            if start is None:
                self.state = old  # the folders looked at are as they were
            else:
                self._heap = [index for index in dirty if index >= start]  # sorted: a heap
                self._walk_known(old, start)
        else:
            if self.watch is not None:
                for path, full, kind in zip(
                    old.paths, old.full_paths(self.root), old.kinds, strict=True
                ):
                    if not (
                        self.watch(full, *self.around(path)) if kind & LINK else self.watch(full)
                    ):
                        self.unwatched.add(path)
            unchanged = self._unchanged(old)
            if unchanged == len(old.paths):
                self.state = old  # the common case: no folder changed
            else:
                self._walk_known(old, unchanged)
        if self.changed:
            self._prune_maps()
        positions = self.state.positions() if self.unwatched else {}
        self.state.unwatched = {path for path in self.unwatched if path in positions}  # not gone
        truncated = len(self.state.paths) >= MAX_FOLDERS
        return Walk(self.state, self.changed, self.pending, self.removed, truncated)

    def _dirty(
        self,
        old: TreeState,
        root_stat: os.stat_result,
        changed: Iterable[str],
        moved: Iterable[str],
    ) -> list[int] | None:
        """The indexes of the folders of ``old`` a targeted walk looks at, in order; None
        when it cannot tell (the root itself was moved, or changed unseen: a full walk)."""
        positions = old.positions()
        prefix = self.root.rstrip("/") + "/"

        def index_of(full: str) -> int | None:
            if full == self.root:
                return 0
            return positions.get(full[len(prefix) :]) if full.startswith(prefix) else None

        dirty: set[int] = set()
        for full in moved:
            index = index_of(full)
            if index == 0:
                return None
            if index is not None:
                dirty.update(range(index, old.subtree_end(index)))
        for full in changed:
            index = index_of(full)
            if index is not None:
                dirty.add(index)
        dirty.update(old.unsettled())
        if 0 not in dirty and stamp_of(root_stat) != old.stamps[0]:
            return None  # the root is another folder (a parent of it was moved)
        return sorted(dirty)

    def _unchanged_of(self, old: TreeState, dirty: list[int]) -> int | None:
        """:meth:`_unchanged` for the folders ``dirty`` only: the first whose stamp changed
        (None: none did), the skills before it whose SKILL.md changed queued."""
        for index in dirty:
            path = old.paths[index]
            kind = old.kinds[index]
            self._watch(path, kind)
            full = self.full(path)
            try:
                st = os.stat(full) if (kind & LINK or not index) else os.lstat(full)
                if not stat_module.S_ISDIR(st.st_mode) or stamp_of(st) != old.stamps[index]:
                    return index
                if kind & LINK and old.astray(path, st):
                    return index
                skill = kind & SKILL and not kind & STUB
                if skill and fingerprint(os.lstat(f"{full}/{SKILL_FILE}")) != old.fps[index]:
                    self.pending.append(index)
            except OSError:
                return index
        return None

    def _prune_maps(self) -> None:
        """Keep ``links`` and ``sources`` for the root's entries that still are such."""
        state = self.state
        entries = {
            path: kind
            for path, kind in zip(state.paths, state.kinds, strict=True)
            if path and "/" not in path
        }
        state.links = {p: r for p, r in state.links.items() if entries.get(p, 0) & LINK}
        state.sources = {p: r for p, r in state.sources.items() if entries.get(p, 0) & STUB}

    def _remove_all(self, old: TreeState) -> None:
        for index, skill_id in enumerate(old.ids):
            if skill_id or old.kinds[index] & SKILL:
                self.removed.append((skill_id, old.real_path(old.paths[index])))

    def _unchanged(self, old: TreeState) -> int:
        """How many folders of ``old``, from the first, are as they were (queueing the
        skills among them whose SKILL.md changed): one stat per folder and one per SKILL.md,
        nothing else. The hot loop of every query: :func:`stamp_of` and :func:`fingerprint`
        are inlined."""
        lstat, stat_ = os.lstat, os.stat
        stamps, kinds, fps = old.stamps, old.kinds, old.fps
        pending = self.pending
        directory, follow, check = stat_module.S_IFDIR, LINK, SKILL
        for index, full in enumerate(old.full_paths(self.root)):
            kind = kinds[index]
            try:
                st = stat_(full) if (kind & follow or not index) else lstat(full)
                if (st.st_mode & 0o170000) != directory or (
                    hash((st.st_ino, st.st_mtime_ns, st.st_ctime_ns)) or 1
                ) != stamps[index]:
                    return index
                if kind & follow and old.astray(old.paths[index], st):
                    return index
                if kind & check and not kind & STUB:
                    st = lstat(full + "/SKILL.md")  # a symlink is not followed (skipped)
                    fp = hash((st.st_ino, st.st_size, st.st_mtime_ns, st.st_ctime_ns)) or 1
                    if fp != fps[index]:
                        pending.append(index)
            except OSError:
                return index
        return len(old.paths)

    def _walk_known(self, old: TreeState, start: int) -> None:
        """Stat every folder the old state knows from ``start`` on (those before are as they
        were), list again those that changed. In a targeted walk (``_heap``), only the
        folders of the heap: the others are copied as they were."""
        state = self.state
        state.paths, state.stamps = old.paths[:start], old.stamps[:start]
        state.kinds, state.ids, state.fps = old.kinds[:start], old.ids[:start], old.fps[:start]
        gone: list[str] = []
        lstat, stat_ = os.lstat, os.stat
        is_dir = stat_module.S_ISDIR
        heap = self._heap
        order = range(start, len(old.paths)) if heap is None else self._targets(heap)
        copied = start
        for index in order:
            if index < copied:
                continue  # queued twice
            if index > copied:
                self._copy(old, copied, index)
            copied = index + 1
            path = old.paths[index]
            kind = old.kinds[index]
            if gone and any(f"{path}/".startswith(prefix) for prefix in gone):
                self._gone(old, index)
                continue
            if heap is not None:
                self._watch(path, kind)
            full = f"{self.root}/{path}" if path else self.root
            try:
                st = stat_(full) if (not path or kind & LINK) else lstat(full)
            except OSError:
                st = None
            if st is None or not is_dir(st.st_mode):
                if kind & LINK:
                    self._dangle(path)
                gone.append(path + "/")
                self._gone(old, index)
                self._queue(index + 1, old.subtree_end(index))
                continue
            stamp = stamp_of(st)
            skill_id, fp = old.ids[index], old.fps[index]
            relist = stamp != old.stamps[index]
            moved = kind & LINK and (relist or old.astray(path, st))
            if moved and self._link_moved(old, path):  # a link on its way re-pointed:
                gone.append(path + "/")  # the entry walked anew
                self._gone(old, index)
                self._queue(index + 1, old.subtree_end(index))
                self._walk_child(path, LINK)
                continue
            if relist:
                kind = self._relist(old, index, full, gone)
                if kind & (STUB | UNREADABLE):  # nothing under it is walked (as a new walk):
                    # a deployed skill stands for its source, an unreadable folder lists none
                    gone.append(f"{path}/" if path else "")
                    self._queue(index + 1, old.subtree_end(index))
                if (skill_id or old.kinds[index] & SKILL) and (not kind & SKILL or kind & STUB):
                    self.removed.append((skill_id, old.real_path(path)))
                    skill_id, fp = 0, 0
                elif skill_id:  # a skipped skill stays so while its SKILL.md is the same
                    kind |= old.kinds[index] & SKIPPED
            new_index = state.append(path, old.stamps[index], kind, skill_id, fp)
            if relist:
                state.stamps[new_index] = 0 if is_racy(st, self.since_ns) else stamp
                self.changed = True
                self._walk_children(new_index)
            if kind & SKILL and not kind & STUB:
                self._check_skill(new_index, full)
        if copied < len(old.paths):
            self._copy(old, copied, len(old.paths))

    @staticmethod
    def _targets(heap: list[int]) -> Iterator[int]:
        while heap:
            yield heapq.heappop(heap)

    def _queue(self, start: int, end: int) -> None:
        """A targeted walk looks at the folders from ``start`` to ``end`` too."""
        if self._heap is not None:
            for index in range(start, end):
                heapq.heappush(self._heap, index)

    def _copy(self, old: TreeState, start: int, end: int) -> None:
        """Take the folders of ``old`` from ``start`` to ``end`` as they were."""
        state = self.state
        state.paths += old.paths[start:end]
        state.stamps += old.stamps[start:end]
        state.kinds += old.kinds[start:end]
        state.ids += old.ids[start:end]
        state.fps += old.fps[start:end]

    def _gone(self, old: TreeState, index: int) -> None:
        self.changed = True
        if old.ids[index] or old.kinds[index] & SKILL:
            self.removed.append((old.ids[index], old.real_path(old.paths[index])))

    def _relist(self, old: TreeState, index: int, full: str, gone: list[str]) -> int:
        """List a known folder whose stamp changed: its flags now; its new subfolders (and
        those that changed from a symlink to a folder or back) are walked after it, and the
        known ones it no longer gives (a package record now names them) are gone, as a fresh
        walk never enters them."""
        path = old.paths[index]
        kind, children = self._list(path, full, old.kinds[index] & LINK)
        listed = {child for child, _ in children}
        below, end = index + 1, old.subtree_end(index)
        while below < end and not kind & (STUB | UNREADABLE):  # (those: the whole subtree)
            after = old.subtree_end(below)  # the next known child of the folder
            if old.paths[below] not in listed:
                gone.append(f"{old.paths[below]}/")
                self._queue(below, after)
            below = after
        known = old.positions()
        fresh: list[tuple[str, int]] = []
        for child, child_kind in children:
            before = known.get(child)
            if before is None:
                fresh.append((child, child_kind))
                continue
            same_link = old.kinds[before] & LINK == child_kind & LINK
            if same_link and not (child_kind & LINK and self._link_moved(old, child)):
                continue
            gone.append(f"{child}/")  # the old one and its subtree are gone; walked anew
            self._queue(before, old.subtree_end(before))
            fresh.append((child, child_kind))
        self._fresh = fresh
        return kind

    def _link_moved(self, old: TreeState, child: str) -> bool:
        """Whether the followed entry ``child`` leads to another real path than ``old``
        recorded (its own target, or a symlink on the way to it, re-pointed)."""
        try:
            return os.path.realpath(f"{self.root}/{child}") != old.links.get(child)
        except (OSError, ValueError):
            return True

    def _walk_children(self, parent_index: int) -> None:
        """Walk the new subfolders found by the last :meth:`_relist`."""
        fresh, self._fresh = self._fresh, []
        for child, child_kind in fresh:
            self._walk_child(child, child_kind)

    def _walk_child(self, child: str, child_kind: int) -> None:
        full = self.full(child)
        if child_kind & LINK:
            self._set_link(child)  # first: the folders above its target are watched too
        self._watch(child, child_kind)
        try:
            st = os.stat(full) if child_kind & LINK else os.lstat(full)
        except OSError:
            if child_kind & LINK:
                self._dangle(child)  # its target went since the listing
            return
        if not stat_module.S_ISDIR(st.st_mode):
            return
        if child_kind & LINK:
            target, real = self.state.links.get(child, ""), self.state.real
            if not target or real == target or real.startswith(f"{target.rstrip('/')}/"):
                return  # a link up the tree (`x -> ..`, `x -> /`): a loop, not followed
        self._walk_new(child, st, child_kind & LINK)

    def _dangle(self, path: str) -> None:
        """Record the root's symlink entry ``path`` as dangling if it leads nowhere now (its
        target moved or deleted since it was followed)."""
        full = self.full(path)
        if os.path.islink(full) and not os.path.exists(full):
            self.state.dangling.add(path)

    def _set_link(self, child: str) -> None:
        try:
            self.state.links[child] = os.path.realpath(self.full(child))
        except (OSError, ValueError):
            self.state.links.pop(child, None)

    def _walk_new(self, path: str, st: os.stat_result, link: int = 0) -> None:
        """Walk a folder the state does not know yet, and everything under it."""
        if len(self.state.paths) >= MAX_FOLDERS:
            return
        full = self.full(path)
        kind, children = self._list(path, full, link)
        stamp = 0 if is_racy(st, self.since_ns) else stamp_of(st)
        index = self.state.append(path, stamp, kind)
        self.changed = True
        if kind & SKILL and not kind & STUB:
            self._check_skill(index, full)
        for child, child_kind in children:
            self._walk_child(child, child_kind)

    def _check_skill(self, index: int, full: str) -> None:
        """Queue a skill folder whose SKILL.md is not the one indexed."""
        try:
            st = os.lstat(f"{full}/{SKILL_FILE}")
        except OSError:
            self.state.kinds[index] &= ~SKILL
            self.state.stamps[index] = 0  # list it again next time
            self.changed = True
            real = self.state.real_path(self.state.paths[index])
            self.removed.append((self.state.ids[index], real))
            self.state.ids[index] = self.state.fps[index] = 0
            return
        if fingerprint(st) != self.state.fps[index]:
            self.pending.append(index)
