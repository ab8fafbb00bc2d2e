"""Change notification for a long-running catalog (the MCP server): Linux inotify via ctypes.

A process that answers many ``find`` queries (``skc mcp``, a Python program) would stat every
searched folder and SKILL.md before each answer: at 20,000 skills that is about 50,000 stats,
200 ms. With a :class:`Watcher`, the catalog watches each folder before it looks at it;
:meth:`Watcher.changed` then names the folders with events since it was last asked
(:class:`Changes`), and the next walk looks again only at those (:func:`.scan.walk` with
``changed``); while there were none, the last answer's set of skills is reused. A queue
overflow makes :meth:`~Watcher.changed` answer None (it cannot tell): the next query makes the
full pass (which is always correct), never a stale answer. A folder that cannot be watched
is one the caller looks at on every walk.

A followed entry (a root's symlink to a skill elsewhere, ``~/repo/skills/x``) is watched as
its target's inode; a folder above that target renamed or deleted (``mv repo repo-old``, a
re-clone) is no event of that inode. So each such entry is watched with the folders above
its target (:meth:`Watcher.watch` with ``above``), for their own move or deletion only: one
watch per distinct folder, shared by the entries under it, at most :data:`MAX_ABOVE` of them.
Such an event reports the entries under that folder moved (their target looked at again).
Past the bound, an entry whose folders above cannot all be watched is reported not watched:
the caller looks at it on every walk (one stat), as at any folder it could not watch.

What counts as an event: any entry of a watched folder created, deleted, moved, written or
changed in its attributes, and the folder itself deleted or moved. An entry created,
deleted or moved, and a folder moved or deleted, are reported as moved: whatever is at that
path now, and everything under it, is looked at again (the watch of an inode that left its
path is dropped; whatever is there now is watched when it is walked). For a searched folder
that does not exist yet, its nearest existing parent is watched for the one name that leads
to it (and for one that does, its parent for its name: a symlink re-pointed); a file
(:meth:`Watcher.watch_file`: a configuration file) is watched the same way, by its name in
its folder, so that what else is written there is no event of it; a file that is a symlink
(a dotfile manager's ``~/.claude/settings.json -> ~/dotfiles/...``: a write through it is
no event of its folder) also by the name of its target, and of each link on the way, in
theirs.

Only on Linux (``inotify_init1`` from the C library); elsewhere :func:`open_watcher` returns
None and every query makes the full pass.
"""

from __future__ import annotations

import ctypes
import errno
import os
import struct
import sys
from collections.abc import Iterable
from pathlib import Path
from typing import NamedTuple

__all__ = ["Changes", "Watcher", "open_watcher"]

_IN_MODIFY = 0x2
_IN_ATTRIB = 0x4
_IN_CLOSE_WRITE = 0x8
_IN_MOVED_FROM = 0x40
_IN_MOVED_TO = 0x80
_IN_CREATE = 0x100
_IN_DELETE = 0x200
_IN_DELETE_SELF = 0x400
_IN_MOVE_SELF = 0x800
_IN_Q_OVERFLOW = 0x4000
_IN_IGNORED = 0x8000
_IN_ONLYDIR = 0x1000000
_IN_MASK_ADD = 0x20000000  # add to a folder's mask, never replace what another root asked
_IN_NONBLOCK = 0o4000
_IN_CLOEXEC = 0o2000000
_TREE_MASK = (
    _IN_MODIFY | _IN_ATTRIB | _IN_CLOSE_WRITE | _IN_MOVED_FROM | _IN_MOVED_TO | _IN_CREATE
    | _IN_DELETE | _IN_DELETE_SELF | _IN_MOVE_SELF | _IN_ONLYDIR
)  # fmt: skip
_ENTRY_MASK = _IN_MOVED_FROM | _IN_MOVED_TO | _IN_CREATE | _IN_DELETE
_ABOVE_MASK = _IN_DELETE_SELF | _IN_MOVE_SELF | _IN_ONLYDIR
_SELF = _IN_IGNORED | _IN_DELETE_SELF | _IN_MOVE_SELF
_PARENT_MASK = _IN_MOVED_TO | _IN_CREATE | _IN_DELETE_SELF | _IN_MOVE_SELF | _IN_ONLYDIR
_LINK_MASK = _PARENT_MASK | _IN_MOVED_FROM | _IN_DELETE  # a link on the way: re-pointed or gone
_EVENT = struct.Struct("iIII")  # wd, mask, cookie, len (then the name, NUL-padded)
#: A process watches at most this many folders, and at most a quarter of the kernel's
#: per-user limit (``/proc/sys/fs/inotify/max_user_watches``: editors and dev servers need
#: the rest); past it, or when the kernel refuses a watch, the watcher gives up for good and
#: every query makes the full pass.
MAX_WATCHES = 200_000
#: At most this many folders above the targets of followed entries are watched (in the
#: budget above too); past it, an entry needing another is looked at on every walk.
MAX_ABOVE = 10_000


def _watch_budget() -> int:
    try:
        with open("/proc/sys/fs/inotify/max_user_watches", encoding="ascii") as handle:
            limit = int(handle.read().strip())
    except (OSError, ValueError):
        limit = 8192  # the kernel's old default
    return min(MAX_WATCHES, limit // 4)


class Changes(NamedTuple):
    """What a :class:`Watcher` saw since it was last asked."""

    folders: set[str]
    """Watched folders with an event: one of their entries was created, deleted, moved,
    written or changed in its attributes, or the folder's own attributes changed (and, for a
    searched folder that does not exist, the folder itself when it may have appeared)."""
    moved: set[str]
    """Folders that were moved, deleted or replaced (watched ones, and entries of watched
    folders that came or went): whatever is at their path now, and everything under it, is
    to be looked at again (the watches of those moved or deleted are dropped)."""


class Watcher:
    """One inotify instance and the folders it watches (see the module)."""

    def __init__(self, libc: ctypes.CDLL, fd: int) -> None:
        self._libc = libc
        self._fd = fd
        self._paths: dict[int, set[str]] = {}  # wd -> the folders it watches (by path)
        self._wds: dict[str, int] = {}  # folder -> its wd
        # wd of a missing folder's nearest existing parent (or a watched file's folder) ->
        # the name in it that leads to the folder (the file) -> the paths it leads to
        self._missing: dict[int, dict[str, set[str]]] = {}
        # wd of a folder above a followed entry's target -> the entries (by path) above whose
        # targets it is; and each such folder's wd (watched once, whatever the entries)
        self._above: dict[int, set[str]] = {}
        self._above_wds: dict[str, int] = {}
        # a watched file that is a symlink -> the (wd, name) its target and the links on the
        # way to it are watched as (dropped when it leads elsewhere: one target at a time)
        self._targets: dict[str, set[tuple[int, str]]] = {}
        self._budget = _watch_budget()
        self._unsure = False  # a missing folder's parent could not be watched
        self.broken = False
        """The queue overflowed or could not be read: trust nothing, :meth:`reset`."""
        self.exhausted = False
        """The kernel refused a watch for want of room, or the budget is spent: give up."""

    @property
    def watches(self) -> int:
        """The inotify watches it holds (a folder, or the parent of missing ones, each)."""
        return len(self._paths) + len(self._missing) + len(self._above)

    @property
    def budget(self) -> int:
        """The most it takes (a quarter of the kernel's per-user watches)."""
        return self._budget

    def watch(self, folder: str, above: Iterable[str] = (), links: Iterable[str] = ()) -> bool:
        """Watch ``folder`` (whatever inode is at its path now), and for a followed entry the
        folders ``above`` its target (for their own move or deletion: see the module) and the
        symlinks met on the way to it (``links``: :func:`.tree_state.link_chain`), each by its
        name in its folder: one re-pointed, removed or made reports ``folder`` changed;
        whether all are watched (not: gone meanwhile, unreadable, no room...: the caller
        looks at it again each time)."""
        if self.broken or self.exhausted:
            return False
        for link in links:  # before the folder: a change meanwhile is an event
            parent, _, name = link.rpartition("/")
            self._watch_name(folder, parent, name, _LINK_MASK)
        wd = self._add(folder, _TREE_MASK)
        if wd < 0:
            return False
        before = self._wds.get(folder)
        if before != wd:
            if before is not None:
                self._paths.get(before, set()).discard(folder)
            self._wds[folder] = wd
            self._paths.setdefault(wd, set()).add(folder)
        return all(self._watch_above(path, folder) for path in above)

    def _watch_above(self, path: str, entry: str) -> bool:
        wd = self._above_wds.get(path)
        if wd is None:
            if len(self._above_wds) >= MAX_ABOVE or self.exhausted:
                return False
            wd = self._add(path, _ABOVE_MASK)
            if wd < 0:
                return False
            self._above_wds[path] = wd
        self._above.setdefault(wd, set()).add(entry)
        return True

    def watch_missing(self, folder: str) -> None:
        """Watch the nearest existing parent of ``folder`` for the name that leads to it (an
        event there reports ``folder`` itself changed): for a folder that does not exist, its
        making, however many levels are missing (``.claude`` made where ``.claude/skills``
        is watched for); for one that does, its replacement (a symlink re-pointed, ``ln
        -sfn``: :meth:`watch` follows the old target's inode)."""
        parent, _, child = folder.rstrip("/").rpartition("/")
        self._watch_name(folder, parent, child, _PARENT_MASK)

    def watch_file(self, path: str) -> None:
        """Watch the file ``path`` (it may not exist, nor its folder) by its name in its
        folder: its creation, writes, removal or replacement (and its folder's) report
        ``path`` itself changed, other names of the folder nothing (a configuration file:
        ``.skillc/config.toml``, in a folder other programs write to). When it is a symlink,
        its target too, the same way (written through the link; gone, or not made yet:
        its nearest existing folder), and the links met on the way to it by their names
        (re-pointed: :func:`.tree_state.link_chain`, at most ``MAX_LINKS``); what the last
        call watched for another target is dropped. One lstat, and for a link two realpaths
        and the chain's lstats: a caller calls it when it reads the file, not per query."""
        path = path.rstrip("/")
        folder, _, name = path.rpartition("/")
        own = self._watch_name(path, folder, name, _TREE_MASK)
        watched: set[tuple[int, str]] = set()
        if Path(path).is_symlink():
            from skillc_gateway.catalog.tree_state import link_chain

            for link in link_chain(os.path.realpath(folder or "/"), name):
                parent, _, child = link.rpartition("/")
                watched.add(self._watch_name(path, parent, child, _LINK_MASK))
            parent, _, child = os.path.realpath(path).rpartition("/")
            watched.add(self._watch_name(path, parent, child, _TREE_MASK))
        watched.discard((-1, ""))
        for wd, child in self._targets.pop(path, set()) - watched - {own}:
            self._unwatch_name(path, wd, child)
        if watched:
            self._targets[path] = watched

    def _watch_name(self, reported: str, parent: str, child: str, mask: int) -> tuple[int, str]:
        """Watch the nearest existing folder from ``parent`` up for the name (``child``,
        or the one leading to ``parent``) that leads to ``reported``: its watch and that
        name (``(-1, "")``: not watched)."""
        while parent and not Path(parent).is_dir():
            parent, _, child = parent.rstrip("/").rpartition("/")
        if not (parent and child) or self.broken or self.exhausted:
            return -1, ""
        wd = self._add(parent, mask)
        if wd < 0:
            self._unsure = True
            return -1, ""
        self._missing.setdefault(wd, {}).setdefault(child, set()).add(reported.rstrip("/"))
        return wd, child

    def _unwatch_name(self, reported: str, wd: int, child: str) -> None:
        """Undo :meth:`_watch_name` of ``child`` for ``reported`` (the folder's watch too,
        when nothing else holds it)."""
        names = self._missing.get(wd)
        leads = None if names is None else names.get(child)
        if names is None or leads is None:
            return
        leads.discard(reported)
        if not leads:
            del names[child]
        if not names:
            del self._missing[wd]
            if wd not in self._paths and wd not in self._above:
                self._libc.inotify_rm_watch(self._fd, wd)

    def _add(self, folder: str, mask: int) -> int:
        wd: int = self._libc.inotify_add_watch(self._fd, os.fsencode(folder), mask | _IN_MASK_ADD)
        full = len(self._paths) + len(self._missing) > self._budget
        if full or (wd < 0 and ctypes.get_errno() == errno.ENOSPC):
            self.exhausted = True
        return wd

    def changed(self) -> Changes | None:
        """What happened since the last call; None when the watcher cannot tell (the queue
        overflowed, a parent could not be watched): every folder is to be looked at."""
        folders: set[str] = set()
        moved: set[str] = set()
        unsure, self._unsure = self._unsure, False
        while not self.broken:
            try:
                data = os.read(self._fd, 65536)
            except BlockingIOError:
                break
            except OSError:
                self.broken = True
                break
            offset = 0
            while offset + _EVENT.size <= len(data):
                wd, mask, _cookie, length = _EVENT.unpack_from(data, offset)
                raw = data[offset + _EVENT.size : offset + _EVENT.size + length]
                offset += _EVENT.size + length
                if mask & _IN_Q_OVERFLOW:
                    self.broken = True
                    break
                missing = self._missing.get(wd)
                if missing is not None:
                    name = os.fsdecode(raw.rstrip(b"\0"))
                    if mask & (_IN_IGNORED | _IN_DELETE_SELF | _IN_MOVE_SELF) or not name:
                        for leads in missing.values():  # the parent itself went: all of them
                            folders.update(leads)
                        if mask & _IN_IGNORED:
                            del self._missing[wd]
                    else:
                        folders.update(missing.get(name, ()))
                if wd in self._above and mask & _SELF:
                    moved.update(self._drop_above(wd, mask))  # their targets moved or went
                paths = self._paths.get(wd)
                if paths is None:
                    continue
                if mask & _SELF:
                    # its path holds something else now, or nothing: watched again if found
                    moved.update(paths)
                    for path in paths:
                        if self._wds.get(path) == wd:
                            del self._wds[path]
                    del self._paths[wd]
                    if not mask & _IN_IGNORED:
                        self._libc.inotify_rm_watch(self._fd, wd)
                else:
                    folders.update(paths)
                    if mask & _ENTRY_MASK:  # an entry came, went or was replaced
                        name = os.fsdecode(raw.rstrip(b"\0"))
                        moved.update(f"{path.rstrip('/')}/{name}" for path in paths)
        if self.broken or unsure:
            return None
        return Changes(folders, moved)

    def _drop_above(self, wd: int, mask: int) -> set[str]:
        """Forget the folder above targets watched as ``wd`` (it moved or went) and those
        under it (their paths lead elsewhere now): each is watched again, at its path, when
        an entry under it is looked at again. The entries under them."""
        gone = tuple(f"{path}/" for path, known in self._above_wds.items() if known == wd)
        entries: set[str] = set()
        for path in [path for path in self._above_wds if f"{path}/".startswith(gone)]:
            known = self._above_wds.pop(path)
            entries |= self._above.pop(known, set())
            if known not in self._paths and (known != wd or not mask & _IN_IGNORED):
                self._libc.inotify_rm_watch(self._fd, known)
        self._above.pop(wd, None)
        return entries

    def fileno(self) -> int:
        """The inotify descriptor: readable while events wait for :meth:`changed` (for a
        thread that waits on it with :func:`select.poll` instead of asking in a loop)."""
        return self._fd

    def reset(self) -> None:
        """Forget every watch (folders are watched again as they are walked)."""
        for wd in {*self._paths, *self._missing, *self._above}:
            self._libc.inotify_rm_watch(self._fd, wd)
        self._above.clear()
        self._above_wds.clear()
        self._targets.clear()
        self._paths.clear()
        self._wds.clear()
        self._missing.clear()
        self.broken = False
        self.changed()  # drain what the removals queued
        self._unsure = False

    def close(self) -> None:
        """Close the inotify instance (the kernel drops its watches)."""
        os.close(self._fd)


def open_watcher() -> Watcher | None:
    """A watcher, or None where inotify is not available."""
    if not sys.platform.startswith("linux"):
        return None
    from skillc_index.cores import c_library

    libc = c_library()
    if libc is None:
        return None
    try:
        fd = libc.inotify_init1(_IN_NONBLOCK | _IN_CLOEXEC)
    except (OSError, AttributeError):
        return None
    if fd < 0:
        return None
    return Watcher(libc, fd)
