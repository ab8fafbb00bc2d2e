"""The lock of an index built on demand in a skill's runtime (:mod:`.cache`), and the
folder it is made in: :class:`RuntimeLock` (an exclusive ``flock`` on
``<runtime>/.skillc-meta/search-<hash16>.lock``, removed only by its maker) and
:func:`meta_folder` (made only where a write stays in the runtime's base)."""

from __future__ import annotations

import os
from pathlib import Path
from typing import TYPE_CHECKING

from skillc_index.layout import META_DIR, SKILLC_DIR

if TYPE_CHECKING:
    from skillc_index.layout import ResolvedSkill

__all__ = ["RuntimeLock", "meta_folder"]


#: How often a lock is opened again after its file went (removed by its maker) or was made
#: again between two opens, before the build goes on unlocked (renames keep it correct).
_REOPENS = 8


class RuntimeLock:
    """The lock of a build on demand in a skill's runtime: an exclusive ``flock`` on
    ``<runtime>/.skillc-meta/search-<hash16>.lock``, as :class:`~skillc_index.locks.
    FileLock` takes it (waited for up to :data:`.cache.LOCK_WAIT_S`, then on, unlocked), and what
    this run made for it, which :meth:`undo` removes when the runtime could not take the
    index: the file (``made``: created with ``O_EXCL``, not guessed by a look before) and the
    folders (``top``: the folder above those :func:`meta_folder` made; None: none). The
    file is removed only by its maker, while it holds it and the path still names the file
    it locked; a locker that got the lock on a file no longer at its path (removed meanwhile)
    opens the path again (its folders made again) and waits anew: two never hold it at
    once, one on the removed file and one on a new one. OSError when it cannot be made."""

    def __init__(self, runtime: Path, name: str) -> None:
        self.runtime = runtime
        self.held = False
        self.made = False
        self.fd = -1
        self.meta, self.top = self._folder()
        self.path = self.meta / name
        try:
            self.fd, self.made = open_lock(self.path)
        except OSError:
            self.undo(None)
            raise

    def _folder(self) -> tuple[Path, Path | None]:
        found = meta_folder(self.runtime)
        if found is None:
            raise OSError(f"{self.runtime} cannot be written, or leads out of its base")
        return found

    def __enter__(self) -> None:
        from skillc_index.index.cache import LOCK_WAIT_S
        from skillc_index.locks import flock_within

        for _ in range(_REOPENS):
            self.held = flock_within(self.fd, LOCK_WAIT_S)
            if not self.held or self._named():
                return
            try:  # removed by its maker while this waited: the path's file is the lock now
                top = self._folder()[1]
                fd, made = open_lock(self.path)
            except OSError:  # the runtime cannot be written now: on, unlocked
                break
            self.top = self.top or top
            os.close(self.fd)
            self.fd, self.made = fd, made
        self.held = False

    def __exit__(self, *_exc: object) -> None:
        os.close(self.fd)  # releases the lock

    def _named(self) -> bool:
        """Whether the path still names the file this lock has open."""
        try:
            now = self.path.lstat()
        except OSError:
            return False
        had = os.fstat(self.fd)
        return (now.st_dev, now.st_ino) == (had.st_dev, had.st_ino)

    def undo(self, skill: ResolvedSkill | None) -> None:
        """Remove what this run made, when the runtime holds no index of ``skill`` at the end
        of an attempt (a full disk, a runtime that lets a lock file be made but nothing
        else, E002: the index went to the private runtime, or nowhere): the lock file, made
        by this run, held and still at its path; then the folders made for it, each only
        while empty. Nothing else, nothing this run did not make (so folders stay, empty,
        when another run made its lock file in them between the two steps). Called while it
        is held."""
        from skillc_index.atomic import remove_made
        from skillc_index.index.schema import index_path

        if skill is not None and index_path(self.runtime, skill.source).exists():
            return
        if self.made and self.held and self._named():
            from contextlib import suppress

            with suppress(OSError):
                self.path.unlink()
            self.made = False
        if self.top is not None:
            remove_made(self.top, self.meta)
            self.top = None


def open_lock(path: Path) -> tuple[int, bool]:
    """A descriptor of the lock file ``path`` (never through a symlink), and whether this
    call created it (``O_EXCL``); OSError when it can be neither opened nor created."""
    flags = os.O_RDWR | getattr(os, "O_NOFOLLOW", 0) | getattr(os, "O_CLOEXEC", 0)
    for _ in range(_REOPENS):
        try:
            return os.open(path, flags | os.O_CREAT | os.O_EXCL, 0o666), True
        except FileExistsError:
            pass
        try:
            return os.open(path, flags), False
        except FileNotFoundError:  # removed between the two: made again
            continue
    return os.open(path, flags | os.O_CREAT, 0o666), False


def meta_folder(runtime: Path) -> tuple[Path, Path | None] | None:
    """``runtime/.skillc-meta``, created, when a write there stays in the runtime's base (the
    project or skillc home: ``<base>/.skillc/runtime/<name>``; a checkout may ship a
    symlink leading elsewhere), else None; with the folder above those made for it (None:
    it was there)."""
    from skillc_index.atomic import ensure_dir, nearest_existing
    from skillc_index.files import within

    meta = runtime / META_DIR
    base = runtime.parent.parent.parent if runtime.parent.parent.name == SKILLC_DIR else runtime
    if not within(meta, base):
        return None
    try:
        top = nearest_existing(meta)
        ensure_dir(meta)
    except OSError:
        return None
    if not within(meta, base):
        return None
    return meta, None if top == meta else top
