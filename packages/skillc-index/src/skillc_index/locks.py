"""Locks between processes: an exclusive or shared ``flock`` on a lock file or a folder,
waited for a bounded time (:func:`flock_within`), after which the holder goes on unlocked
(what is written stays correct without it: :mod:`.atomic`'s renames).
"""

from __future__ import annotations

import os
from collections.abc import Iterator
from contextlib import AbstractContextManager, contextmanager, nullcontext, suppress
from pathlib import Path

__all__ = ["FileLock", "flock_within", "locked_folder"]


class FileLock:
    """An exclusive ``flock`` on a lock file (created, never removed: removing a lock file
    races with its next user), or with ``folder`` on an existing folder itself (nothing
    made), waited for up to ``wait_s`` seconds, after which the holder goes on unlocked (as
    where there is no ``flock``): a lock keeps processes from doing the same work at once,
    and what they write stays correct without it (renames). Opening the file (``OSError``)
    is what tells a folder cannot be written."""

    def __init__(self, path: Path, wait_s: float, *, folder: bool = False) -> None:
        cloexec = getattr(os, "O_CLOEXEC", 0)
        if folder:
            self.fd = os.open(path, os.O_RDONLY | getattr(os, "O_DIRECTORY", 0) | cloexec)
        else:
            flags = os.O_RDWR | os.O_CREAT | getattr(os, "O_NOFOLLOW", 0) | cloexec
            self.fd = os.open(path, flags, 0o666)
        self.wait_s = wait_s

    def __enter__(self) -> None:
        flock_within(self.fd, self.wait_s)  # not had in time: on, unlocked

    def __exit__(self, *_exc: object) -> None:
        os.close(self.fd)  # releases the lock


def flock_within(fd: int, wait_s: float, *, shared: bool = False, owned: bool = False) -> bool:
    """Take an exclusive (or ``shared``) ``flock`` on ``fd``, trying again for up to
    ``wait_s`` seconds (``math.inf``: until it is had), never blocked in the kernel: False
    when another open file held it all that time (any process that may open the file, or
    read the folder, can take one: the wait is bounded so that none can hang a command),
    True when it is held, or where there is no ``flock`` (Windows, a file system without
    it: run unlocked). Closing ``fd`` releases it. With ``owned`` (a lock held by its owner
    for as long as it runs, by others shared for a read), it is waited for only while held
    shared: False at once when held exclusively; with no ``flock`` its OSError is raised."""
    try:
        import fcntl
    except ImportError:  # pragma: no cover - Windows: renames keep it correct
        return True
    import time

    mode = (fcntl.LOCK_SH if shared else fcntl.LOCK_EX) | fcntl.LOCK_NB
    deadline = time.monotonic() + wait_s
    pause = 0.001
    while True:
        try:
            fcntl.flock(fd, mode)
            return True
        except BlockingIOError:
            if time.monotonic() >= deadline or (owned and not flock_within(fd, 0, shared=True)):
                return False  # (owned: a shared lock refused, it is held exclusively)
            if owned:
                fcntl.flock(fd, fcntl.LOCK_UN)  # the shared lock just had: readers hold it
            time.sleep(pause)
            pause = min(pause * 2, 0.01)
        except OSError:  # a file system without flock (ENOLCK, EINVAL): run unlocked
            if owned:  # (never two owners)
                raise
            return True


@contextmanager
def locked_folder(folder: Path, wait_s: float, *, make: bool = False) -> Iterator[None]:
    """A :class:`FileLock` on ``folder`` itself (nothing written in it), held for the
    ``with`` block: two processes writing there take turns. With ``make``, a folder not there
    yet is made first (its parents too), and removed again, with the parents made for it,
    if still empty at the end (a run that wrote nothing leaves nothing). Unlocked, as
    :class:`FileLock` is where there is no ``flock``, when the folder cannot be made or
    opened: the block's own writes say why."""
    from skillc_index import atomic  # the folders made: its concept (and tests patch it there)

    made: Path | None = None  # the folder above those this run made
    lock: AbstractContextManager[None] = nullcontext()
    try:
        if make and not os.path.lexists(folder):
            top = atomic.nearest_existing(folder)
            with suppress(FileExistsError):  # made by another at once: locked all the same
                folder.mkdir(parents=True)
                made = top
        lock = FileLock(folder, wait_s, folder=True)
    except OSError:
        pass
    try:
        with lock:
            yield
    finally:
        if made is not None:
            atomic.remove_made(made, folder)
