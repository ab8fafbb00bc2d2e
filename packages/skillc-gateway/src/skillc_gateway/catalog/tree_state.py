"""What the catalog knows of the tree under one root, and the stat stamps it is kept by.

A :class:`TreeState` holds every folder under a root with the stat stamp it had when it was
listed (:func:`stamp_of`), its flags (:data:`SKILL`, :data:`LINK`, :data:`STUB`,
:data:`UNREADABLE`, :data:`SKIPPED`, :data:`CROWDED`, :data:`DEEP`), and for a skill folder its
catalog id and the fingerprint of the ``SKILL.md`` that was indexed (:func:`fingerprint`). A
folder or file changed within the last :data:`RACY_NS` (:func:`is_racy`) is recorded as
unknown, so a second change within the file system's timestamp granularity is never missed.
A state is saved in the catalog's database as bytes (:meth:`TreeState.dumps`,
:meth:`TreeState.loads`).

The walk that makes and updates a state is :func:`.scan.walk`.
"""

# Paths are str here, not pathlib: the roots are looked at by every query.
# ruff: noqa: PTH110, PTH115, PTH116

from __future__ import annotations

import marshal
import operator
import os
import stat as stat_module
from collections.abc import Iterable
from itertools import compress, repeat
from typing import NamedTuple

__all__ = [
    "CROWDED",
    "DEEP",
    "LINK",
    "RACY_NS",
    "SKILL",
    "SKIPPED",
    "STUB",
    "UNREADABLE",
    "Summary",
    "TreeState",
    "dangling_paths",
    "fingerprint",
    "folders_above",
    "followed",
    "is_racy",
    "link_chain",
    "resolved",
    "root_stamps",
    "stamp_of",
]


#: A folder or file whose last change is this recent (in ns) is looked at again next time.
RACY_NS = 2_000_000_000

# Flags of a folder in a TreeState.
SKILL = 1
"""It holds a SKILL.md that is not a folder (one that is no regular file is skipped)."""
LINK = 2
"""An entry of the root that is a symlink to a folder (followed; real path in ``links``)."""
STUB = 4
"""An entry of the root that is a deployed skillc skill (its source in ``sources``)."""
UNREADABLE = 8
"""It could not be listed."""
SKIPPED = 16
"""Its SKILL.md could not be read, or is invalid (set by the catalog)."""
CROWDED = 32
"""Its listing was cut at :data:`skillc_index.walk.MAX_ENTRIES` entries: the folders past
them are not walked (the answer says so: :meth:`.scan.Walk.cuts`)."""
DEEP = 64
"""A folder at the depth bound (:data:`skillc_index.walk.MAX_DEPTH`) of a walk that searches
that deep: it holds folders the walk would enter, which are not walked (the answer says so,
as the walk of ``build`` and ``lint`` does: :func:`skillc_index.cut_short`)."""

_STATE_VERSION = 11  # 2: the walk enters hidden folders; 3: the walk's depth; 4: dangling;
# 5: a plugin's links out of it skipped; 6: what skc package wrote (.skillc-package.json)
# skipped; 7: a folder's listing cut at MAX_ENTRIES (CROWDED); 8: folders past the depth (DEEP);
# 9: a --path folder's links out of it skipped (a state that followed one is walked anew);
# 10: the folders a root's links are confined to (a model's path: the folders it may read),
# a twelfth field (a state of 9 is walked anew); 11: a skill's evals/ (its tests) not walked


class TreeState:
    """What the catalog knows of the tree under one root, as parallel lists: each folder's
    path relative to the root (``''`` for the root, ``/``-separated), the stamp it had when
    it was listed (0: list it again), its flags, and for a skill folder its catalog id and
    the fingerprint of the SKILL.md indexed (0: none). ``links`` maps a followed symlink
    entry to its real path, ``sources`` a deployed entry to its source's real path;
    ``dangling`` holds the root's symlink entries that lead nowhere (a target moved or not
    there yet: looked at by every walk); ``depth`` the folder levels walked and ``confine``
    the real folders its root's linked entries were kept in (``()``: followed anywhere; a
    model's ``path`` root and the same folder given on the command line differ): a state of
    another depth or confinement is walked again whole, never taken for the other's."""

    __slots__ = (
        "_fulls",
        "_positions",
        "_summary",
        "confine",
        "dangling",
        "depth",
        "fps",
        "ids",
        "kinds",
        "links",
        "paths",
        "real",
        "sources",
        "stamps",
        "unwatched",
    )

    def __init__(self, real: str, depth: int, confine: tuple[str, ...] = ()) -> None:
        self.depth = depth
        self.confine = confine
        self._summary: Summary | None = None
        self._fulls: tuple[str, list[str]] | None = None
        self._positions: dict[str, int] | None = None
        self.real = real
        self.paths: list[str] = []
        self.stamps: list[int] = []
        self.kinds: list[int] = []
        self.ids: list[int] = []
        self.fps: list[int] = []
        self.links: dict[str, str] = {}
        self.sources: dict[str, str] = {}
        self.dangling: set[str] = set()
        self.unwatched: set[str] = set()
        """The folders a watcher could not watch when this state was walked (looked at by
        every targeted walk; not saved)."""

    def append(self, path: str, stamp: int, kind: int, skill_id: int = 0, fp: int = 0) -> int:
        self.paths.append(path)
        self.stamps.append(stamp)
        self.kinds.append(kind)
        self.ids.append(skill_id)
        self.fps.append(fp)
        return len(self.paths) - 1

    def full_paths(self, root: str) -> list[str]:
        """The path of each folder under ``root`` (computed once per state and root)."""
        if self._fulls is None or self._fulls[0] != root:
            prefix = root.rstrip("/") + "/"
            self._fulls = (root, [prefix + path if path else root for path in self.paths])
        return self._fulls[1]

    def positions(self) -> dict[str, int]:
        """Each folder's index by its path (computed once per state)."""
        if self._positions is None:
            self._positions = {path: index for index, path in enumerate(self.paths)}
        return self._positions

    def subtree_end(self, index: int) -> int:
        """The index after the last folder under the one at ``index`` (a folder's subtree
        follows it, in one run)."""
        paths = self.paths
        if not paths[index]:
            return len(paths)
        prefix = paths[index] + "/"
        end = index + 1
        while end < len(paths) and paths[end].startswith(prefix):
            end += 1
        return end

    def unsettled(self) -> set[int]:
        """The folders to look at again whatever a watcher says: those not watched, those
        whose stamp is 0 (changed too recently to trust it), and the skills whose SKILL.md
        was not indexed or too recent (fingerprint 0)."""
        count = range(len(self.paths))
        found = set(compress(count, map(operator.not_, self.stamps))) if 0 in self.stamps else set()
        masked = map(operator.and_, self.kinds, repeat(SKILL | STUB))
        unsure = map(operator.add, masked, map(bool, self.fps))  # SKILL (1) + a fingerprint
        found.update(compress(count, map(operator.eq, unsure, repeat(SKILL))))
        if self.unwatched:
            positions = self.positions()
            found.update(positions[path] for path in self.unwatched if path in positions)
        return found

    def summary(self) -> Summary:
        """Where the skill folders, deployed entries, unreadable and crowded folders are,
        and whether a folder holds folders past the depth (computed once per state: the
        folders do not change, only their ids and flags)."""
        if self._summary is None:
            skills: list[tuple[int, str]] = []
            others: list[int] = []
            crowded: list[str] = []
            deep: list[str] = []
            for index, kind in enumerate(self.kinds):
                if kind & (CROWDED | DEEP):
                    if kind & DEEP:
                        deep.append(self.paths[index])
                    if kind & CROWDED:
                        crowded.append(self.paths[index])
                if kind & STUB or kind & UNREADABLE:
                    others.append(index)
                elif kind & SKILL:
                    skills.append((index, self.real_path(self.paths[index])))
            held = {self.paths[index] for index, _ in skills}
            self._summary = Summary(
                skills, others, crowded, any(not _in(path, held) for path in deep)
            )
        return self._summary

    def real_path(self, path: str) -> str:
        """The real path of the folder at ``path`` (relative to the root)."""
        if not path:
            return self.real
        first, _, rest = path.partition("/")
        base = self.links.get(first)
        if base is None:
            return f"{self.real.rstrip('/')}/{path}"
        return f"{base}/{rest}" if rest else base

    def astray(self, path: str, st: os.stat_result) -> bool:
        """Whether the real path recorded for the followed entry ``path`` (``st``: its
        target's stat, through the entry) is no way to that target now: gone, or another
        folder (a symlink on the way, ``links/current``, re-pointed). One stat."""
        try:
            there = os.stat(self.links[path])
        except (KeyError, OSError, ValueError):
            return True
        return (there.st_ino, there.st_dev) != (st.st_ino, st.st_dev)

    def dumps(self) -> bytes:
        return marshal.dumps(
            (
                _STATE_VERSION,
                self.real,
                self.paths,
                self.stamps,
                self.kinds,
                self.ids,
                self.fps,
                self.links,
                self.sources,
                self.depth,
                self.dangling,
                self.confine,
            )
        )

    @classmethod
    def loads(cls, blob: bytes) -> TreeState | None:
        """The state in ``blob``; None when it is not one this version wrote."""
        try:
            value = marshal.loads(blob)
        except (EOFError, ValueError, TypeError):
            return None
        if not (isinstance(value, tuple) and len(value) == 12 and value[0] == _STATE_VERSION):
            return None
        state = cls(value[1], value[9], tuple(value[11]))
        (state.paths, state.stamps, state.kinds, state.ids, state.fps) = value[2:7]
        state.links, state.sources, state.dangling = value[7], value[8], value[10]
        return state


class Summary(NamedTuple):
    skills: list[tuple[int, str]]
    """``(index, real path)`` of each skill folder (not deployed entries)."""
    others: list[int]
    """Indexes of the deployed entries and the unreadable folders."""
    crowded: list[str]
    """The path (relative to the root) of each folder whose listing was cut (:data:`CROWDED`)."""
    deep: bool = False
    """A folder holds folders past the walk's depth, not walked (:data:`DEEP`)."""


def stamp_of(st: os.stat_result) -> int:
    return hash((st.st_ino, st.st_mtime_ns, st.st_ctime_ns)) or 1


def fingerprint(st: os.stat_result) -> int:
    """A SKILL.md's stat fingerprint: inode, size, modification and change times."""
    return hash((st.st_ino, st.st_size, st.st_mtime_ns, st.st_ctime_ns)) or 1


def is_racy(st: os.stat_result, since_ns: int) -> bool:
    """Whether ``st`` changed too recently (after ``since_ns``) to trust its stamp."""
    return max(st.st_mtime_ns, st.st_ctime_ns) >= since_ns


def root_stamps(roots: Iterable[str]) -> tuple[int, ...]:
    """Each root's stamp as its walk records it (the first of its state's stamps), 0 for
    one that is missing or no folder: one stat each. A root whose stamp is not the one of
    the last walk is another folder, or changed (what a watcher cannot see: a folder
    above it renamed moves its watches along with it)."""
    stamps: list[int] = []
    for root in roots:
        try:
            st = os.stat(root)
        except (OSError, ValueError):
            stamps.append(0)
            continue
        stamps.append(stamp_of(st) if stat_module.S_ISDIR(st.st_mode) else 0)
    return tuple(stamps)


def dangling_paths(root: str, state: TreeState) -> list[str]:
    """The path of each entry of ``root`` that ``state`` holds as a dangling symlink."""
    prefix = root.rstrip("/") + "/"
    return [prefix + path for path in state.dangling]


def resolved(entries: Iterable[str]) -> bool:
    """Whether one of ``entries`` (symlinks that led nowhere: :func:`dangling_paths`) leads
    somewhere now: one stat each (a target back at its path is no event of a watched folder)."""
    return any(os.path.exists(entry) for entry in entries)


def _in(path: str, skills: set[str]) -> bool:
    """Whether the folder ``path`` is one of ``skills`` or lies in one (the root's ``""``
    too): past the depth, a skill's own folders are its files, which the index's walk for
    skills never enters either, not skills left out (:data:`DEEP`)."""
    while True:
        if path in skills:
            return True
        if not path:
            return False
        path = path.rpartition("/")[0]


def folders_above(target: str, root: str, home: str | None = None) -> list[str]:
    """The folders above ``target``, the real path of a followed entry of the folder whose
    real path is ``root``: from the target's parent up to, not including, ``home`` (a real
    path; None: the user's home, :func:`_real_home`), the file system's root and ``root`` or a
    folder holding it (one of those moved, the root is another folder too:
    :func:`.tree_state.root_stamps`). One of them renamed or deleted takes the target away
    unseen by the watch of its inode: :meth:`.watch.Watcher.watch` watches them (``above``)."""
    if home is None:
        home = _real_home()
    folders: list[str] = []
    folder = target.rpartition("/")[0]
    while folder and folder != home and folder != root and not root.startswith(f"{folder}/"):
        folders.append(folder)
        folder = folder.rpartition("/")[0]
    return folders


def followed(real: str, name: str, target: str) -> tuple[list[str], list[str]]:
    """What a watcher watches with the followed entry ``name`` (a symlink) of the folder
    whose real path is ``real``, besides its target (whose real path is ``target``): the
    folders above that target and above each symlink met on the way to it
    (:func:`folders_above`), and those symlinks (:func:`link_chain`): ``above`` and ``links``
    of :meth:`.watch.Watcher.watch`."""
    above = folders_above(target, real) if target else []
    links = link_chain(real, name)
    for link in links:
        above += [folder for folder in folders_above(link, real) if folder not in above]
    return above, links


#: At most this many symlinks are followed resolving one entry (:func:`link_chain`), as the
#: kernel does (``ELOOP``).
MAX_LINKS = 40
#: At most this many parts of the paths met are looked at resolving one entry
#: (:func:`link_chain`): 39 links each padded with 4 KB of ``d/..`` took 62,000 lstats, at
#: every full pass of the catalog and every look of the served skills.
MAX_PARTS = 4096


def link_chain(folder: str, name: str) -> list[str]:
    """The symlinks met on the way from the entry ``name`` of the folder whose real path is
    ``folder`` (a followed entry: a symlink) to its target, past the entry itself: each as
    the real path of its folder and its name (``~/.claude/skills/x -> ~/links/current/x``,
    ``~/links/current -> rel/v2``: ``[~/links/current]``). One of them re-pointed takes the
    entry elsewhere, and is no event of the watches of the entry's folder or its target
    (:meth:`.watch.Watcher.watch` watches them by name, ``links``). An lstat per part of the
    paths met and a readlink per link, no file read; where the way stops (a part missing, a
    loop past :data:`MAX_LINKS`, more than :data:`MAX_PARTS` parts: the chain unknown),
    the links met so far."""
    links: list[str] = []
    current = folder.rstrip("/")  # a real path ("" is the file system's root)
    pending = [name]  # the parts still to resolve, the next one last
    hops = parts = 0
    while pending:
        part = pending.pop()
        parts += 1
        if parts > MAX_PARTS:
            return links
        if part in ("", "."):
            continue
        if part == "..":
            current = current.rpartition("/")[0]
            continue
        path = f"{current}/{part}"
        try:
            if not stat_module.S_ISLNK(os.lstat(path).st_mode):
                current = path
                continue
            target = os.readlink(path)
        except (OSError, ValueError):
            return links
        hops += 1
        if hops > MAX_LINKS:
            return links
        if hops > 1 and path not in links:  # (a loop meets one again)
            links.append(path)
        if target.startswith("/"):
            current = ""
        pending.extend(reversed(target.split("/")))
    return links


_REAL_HOME = ("", "")  # $HOME, and the real path of the home folder it gave


def _real_home() -> str:
    """The real path of the user's home folder (:func:`~skillc_index.homes.user_home`),
    resolved once for each value of ``$HOME`` (the catalog's walks and the served skills
    ask it of every followed entry)."""
    global _REAL_HOME  # (one for the process, kept while $HOME stands)
    variable = os.environ.get("HOME", "")
    if _REAL_HOME[0] != variable or not _REAL_HOME[1]:
        from skillc_index.homes import user_home

        _REAL_HOME = (variable, os.path.realpath(user_home()))
    return _REAL_HOME[1]
