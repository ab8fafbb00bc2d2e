"""Change notification for a long-running catalog (the MCP server): Linux inotify via ctypes.

A process that answers many ``find`` queries (``skc mcp``, a Python program) would stat every
searched folder and SKILL.md before each answer: at 20,000 skills that is about 50,000 stats,
150 ms. With a :class:`Watcher`, the catalog watches every folder it walked; while nothing
happened in them since the last full pass, the pass is skipped and the last answer's set of
skills is reused. Any event, a queue overflow or a watch that could not be added sends the
next query back to the full pass (which is always correct), never to a stale answer.

What counts as an event: any entry of a watched folder created, deleted, moved, written or
changed in its attributes, and the folder itself deleted or moved. For a searched folder that
does not exist yet, its nearest existing parent is watched for the one name that leads to it.

Only on Linux (``inotify_init1`` from the C library); elsewhere :func:`open_watcher` returns
None and every query makes the full pass.
"""

from __future__ import annotations

import ctypes
import ctypes.util
import errno
import os
import struct
import sys
from collections.abc import Iterable
from pathlib import Path

__all__ = ["Watcher", "open_watcher"]

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
_PARENT_MASK = _IN_MOVED_TO | _IN_CREATE | _IN_DELETE_SELF | _IN_MOVE_SELF | _IN_ONLYDIR
_EVENT = struct.Struct("iIII")  # wd, mask, cookie, len (then the name, NUL-padded)
#: A process watches at most this many folders, and at most a quarter of the kernel's
#: per-user limit (``/proc/sys/fs/inotify/max_user_watches``: editors and dev servers need
#: the rest); past it, or when the kernel refuses a watch, the watcher gives up for good and
#: every query makes the full pass.
MAX_WATCHES = 200_000


def _watch_budget() -> int:
    try:
        with open("/proc/sys/fs/inotify/max_user_watches", encoding="ascii") as handle:
            limit = int(handle.read().strip())
    except (OSError, ValueError):
        limit = 8192  # the kernel's old default
    return min(MAX_WATCHES, limit // 4)


class Watcher:
    """One inotify instance and the folders it watches (see the module)."""

    def __init__(self, libc: ctypes.CDLL, fd: int) -> None:
        self._libc = libc
        self._fd = fd
        self._names: dict[int, set[str] | None] = {}  # wd -> the child names that count (None: any)
        self._budget = _watch_budget()
        self.broken = False
        """A watch could not be added, or the queue overflowed: trust nothing, make passes."""
        self.exhausted = False
        """The kernel refused a watch for want of room, or the budget is spent: give up."""

    def watch(self, folders: Iterable[str], missing: Iterable[str] = ()) -> None:
        """Watch ``folders`` (every event counts) and, for each folder of ``missing`` that
        does not exist, its nearest existing parent (events naming the next step only)."""
        for folder in folders:
            self._add(folder, _TREE_MASK, None)
        for folder in missing:
            child = ""
            while folder and not Path(folder).is_dir():
                folder, _, child = folder.rstrip("/").rpartition("/")
            if folder and child:
                self._add(folder, _PARENT_MASK, child)

    def _add(self, folder: str, mask: int, name: str | None) -> None:
        if self.broken:
            return
        wd = self._libc.inotify_add_watch(self._fd, os.fsencode(folder), mask | _IN_MASK_ADD)
        if wd < 0:  # gone meanwhile, the kernel's watch limit, no permission...
            self.broken = True
            self.exhausted = ctypes.get_errno() == errno.ENOSPC
            return
        if name is None:
            self._names[wd] = None
        else:
            names = self._names.setdefault(wd, set())
            if names is not None:
                names.add(name)
        if len(self._names) > self._budget:
            self.broken = self.exhausted = True

    def changed(self) -> bool:
        """Whether anything that counts happened since the last call (or the watcher
        cannot tell)."""
        changed = self.broken
        while True:
            try:
                data = os.read(self._fd, 65536)
            except BlockingIOError:
                break
            except OSError:
                self.broken = True
                return True
            offset = 0
            while offset + _EVENT.size <= len(data):
                wd, mask, _cookie, length = _EVENT.unpack_from(data, offset)
                raw = data[offset + _EVENT.size : offset + _EVENT.size + length]
                offset += _EVENT.size + length
                if mask & _IN_Q_OVERFLOW:
                    self.broken = True
                    changed = True
                    continue
                if mask & _IN_IGNORED:  # the folder went away (its parent's event counts)
                    self._names.pop(wd, None)
                    changed = True
                    continue
                names = self._names.get(wd)
                if names is None or os.fsdecode(raw.rstrip(b"\0")) in names:
                    changed = True
        return changed

    def reset(self) -> None:
        """Forget every watch (the next :meth:`watch` starts afresh)."""
        for wd in list(self._names):
            self._libc.inotify_rm_watch(self._fd, wd)
        self._names.clear()
        self.changed()  # drain what the removals queued
        self.broken = False

    def close(self) -> None:
        """Close the inotify instance (the kernel drops its watches)."""
        os.close(self._fd)


def open_watcher() -> Watcher | None:
    """A watcher, or None where inotify is not available."""
    if not sys.platform.startswith("linux"):
        return None
    try:
        libc = ctypes.CDLL(ctypes.util.find_library("c") or "libc.so.6", use_errno=True)
        fd = libc.inotify_init1(_IN_NONBLOCK | _IN_CLOEXEC)
    except (OSError, AttributeError):
        return None
    if fd < 0:
        return None
    return Watcher(libc, fd)
