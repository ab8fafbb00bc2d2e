"""The CPUs this process may run on: the one answer for every pool of workers in the kit
(``build``'s processes, ``skillc-lint``'s, the gateway's threads that compute vectors), the
making of a pool of processes where the system may give none (:func:`process_pool`), and
the end of a pool's worker process with its parent (:func:`end_with_parent`), whether the
process that made a temporary file or folder still runs (:func:`running`,
:func:`maker_gone`, the folders held: :func:`mkdir_held`), Ctrl-C left
to the parent (:func:`workers_starting`, :func:`worker_ignores_interrupts`), and the C
library the kit calls through ctypes (:func:`c_library`)."""

from __future__ import annotations

import errno
import os
import sys
from collections.abc import Callable, Iterator
from contextlib import contextmanager, suppress
from typing import TYPE_CHECKING, TypeVar

if TYPE_CHECKING:
    import ctypes
    from multiprocessing.process import BaseProcess
    from pathlib import Path

    from skillc_index.diagnostics import Notice

__all__ = [
    "c_library",
    "end_with_parent",
    "maker_gone",
    "mkdir_held",
    "process_pool",
    "process_state",
    "release",
    "running",
    "usable_cores",
    "worker_ignores_interrupts",
    "workers_starting",
]

T = TypeVar("T")


def usable_cores() -> int:
    """The CPUs this process may run on (its affinity mask where the system has one)."""
    try:
        return len(os.sched_getaffinity(0))
    except AttributeError:  # macOS, Windows
        return os.cpu_count() or 1


def process_pool(
    make: Callable[[], T], doing: str, warn: Callable[[Notice], None] | None = None
) -> T | None:
    """``make()``: a pool of worker processes and the locks it shares with them; None where
    the system gives no shared semaphore (a sandbox, a container with no writable
    ``/dev/shm``: ``OSError``; a platform with no ``sem_open``: ``ImportError``,
    ``NotImplementedError``), said once through ``warn`` as ``warning: no process pool
    (<reason>): <doing> one at a time``. The caller then does the work in this process."""
    try:
        return make()
    except (OSError, ImportError, NotImplementedError) as exc:
        if warn is not None:
            from skillc_index.diagnostics import Notice

            reason = (exc.strerror if isinstance(exc, OSError) else None) or str(exc)
            warn(Notice(f"no process pool ({reason or type(exc).__name__}): {doing} one at a time"))
        return None


@contextmanager
def workers_starting() -> Iterator[None]:
    """The block that starts a pool's worker processes (its first ``submit``, ``map``):
    SIGINT held (blocked) in this thread meanwhile, so that each worker starts with it
    blocked until it ignores it (:func:`worker_ignores_interrupts`, its initializer's first
    call); a Ctrl-C meanwhile is this process's once the block ends (a ``KeyboardInterrupt``
    there). Ctrl-C signals the terminal's whole process group: one that reached a worker
    forked a moment before printed a traceback of its ``KeyboardInterrupt`` (in an at-fork
    hook, in its initializer's imports) and broke the pool (``BrokenProcessPool``, E999).
    Nothing held where there is no ``pthread_sigmask`` (Windows)."""
    import signal

    if not hasattr(signal, "pthread_sigmask"):  # pragma: no cover - Windows
        yield
        return
    held = signal.pthread_sigmask(signal.SIG_BLOCK, {signal.SIGINT})
    try:
        yield
    finally:
        signal.pthread_sigmask(signal.SIG_SETMASK, held)


def worker_ignores_interrupts() -> None:
    """In a worker process of a pool (its initializer, first): SIGINT ignored, then no longer
    held (:func:`workers_starting`; one that came since the fork is dropped): Ctrl-C is the
    parent's to handle, which lets the running work finish and starts none."""
    import signal

    signal.signal(signal.SIGINT, signal.SIG_IGN)
    if hasattr(signal, "pthread_sigmask"):
        signal.pthread_sigmask(signal.SIG_UNBLOCK, {signal.SIGINT})


def end_with_parent() -> None:
    """In a worker process of a pool (its initializer, first): end it when the process that
    started the pool ends, however that ended. A parent killed (SIGTERM, SIGKILL) never tells
    its pool, and a worker, holding the write end of its queue's pipe, waited for work for
    ever, idle, its files open. A worker the parent forked (or spawned) itself is killed by
    the kernel on Linux (``PR_SET_PDEATHSIG`` through ctypes, no thread; a parent gone before
    that ends it at once: its parent pid changed). Elsewhere, and for a forkserver's workers
    (their parent is the forkserver, which the workers keep alive), a daemon thread waits for
    the end of the parent (the sentinel :mod:`multiprocessing` gives the worker). Nothing
    outside a :mod:`multiprocessing` child."""
    import multiprocessing

    parent = multiprocessing.parent_process()
    if parent is None:
        return
    if os.getppid() == parent.pid and _killed_with_parent():
        if os.getppid() != parent.pid:
            os._exit(1)
        return
    import threading

    threading.Thread(target=_exit_after, args=(parent,), daemon=True).start()


def _killed_with_parent() -> bool:
    """Whether the kernel now sends this process SIGKILL when its parent ends (Linux)."""
    if sys.platform != "linux":
        return False
    import signal

    try:
        libc = c_library()
        if libc is None:
            return False
        prctl = libc.prctl
        return bool(prctl(1, signal.SIGKILL, 0, 0, 0) == 0)  # 1: PR_SET_PDEATHSIG
    except (OSError, AttributeError):  # no C library found, or no prctl in it
        return False


_LIBC: list[ctypes.CDLL | None] = []  # loaded once (c_library)


def c_library() -> ctypes.CDLL | None:
    """The C library, loaded once for the process (``use_errno``: ``ctypes.get_errno()``
    says a call's error), as the program links it, else found by name; None where there is
    none to load (no dynamic C library: the callers do without). The one home of the kit's
    calls into libc: ``prctl`` (:func:`end_with_parent`), inotify (the gateway's change
    watcher), ``malloc_trim`` (its find server's memory given back)."""
    if not _LIBC:
        import ctypes

        libc: ctypes.CDLL | None = None
        try:
            libc = ctypes.CDLL(None, use_errno=True)
        except OSError:
            import ctypes.util

            try:
                libc = ctypes.CDLL(ctypes.util.find_library("c") or "libc.so.6", use_errno=True)
            except OSError:
                libc = None
        _LIBC.append(libc)
    return _LIBC[0]


def running(pid: int) -> bool:
    """Whether a process ``pid`` runs (one of another user counts: it may be ours). Where
    ``/proc`` tells (Linux), a zombie (ended, its parent gone without reaping it, as in a
    container whose init reaps none) runs no more: a killed build's staging folder was kept
    for good. A process that took the pid since counts as running: whether an entry's maker
    still runs is :func:`maker_gone`'s question."""
    if pid == os.getpid():
        return True
    try:
        os.kill(pid, 0)
    except ProcessLookupError:
        return False
    except OverflowError:
        return True
    except PermissionError:
        pass
    return process_state(pid) not in ("Z", "X")


def process_state(pid: int) -> str | None:
    """The state of process ``pid`` (``R``, ``S``, ``T``, ``Z``...), the third field of
    ``/proc/<pid>/stat`` (past ``pid (name)``, a name that may hold spaces and parentheses);
    None where there is no ``/proc`` or the process is gone. The kit's one reader of it."""
    try:
        with open(f"/proc/{pid}/stat", "rb") as handle:
            text = handle.read(4096)
    except OSError:
        return None
    fields = text.rpartition(b")")[2].split()[:1]
    return fields[0].decode("ascii", "replace") if fields else None


#: The folders this process made and holds locked (:func:`mkdir_held`), by path: the
#: descriptor whose ``flock`` says their maker still runs.
_HELD: dict[str, int] = {}
_CLOEXEC = getattr(os, "O_CLOEXEC", 0)
#: How a folder is opened to be locked (read-only: ``flock`` needs an open file, not O_PATH).
_LOCKED = os.O_RDONLY | getattr(os, "O_DIRECTORY", 0) | getattr(os, "O_NOFOLLOW", 0) | _CLOEXEC


def mkdir_held(path: Path, folder: int | None = None) -> None:
    """Make the new folder ``path`` (its name in the folder of the descriptor ``folder``,
    when given) held by this process: an exclusive ``flock`` on it, kept until
    :func:`release` or the end of the process, however it ends (the kernel drops it), which
    :func:`maker_gone` tries. It is made under another name (``~`` added, which no sweep
    takes) and locked there, then renamed: a sweep never sees it unlocked.
    ``FileExistsError`` when ``path`` is taken. Where there is no ``flock`` (Windows), only
    made."""
    where = str(path) if folder is None else path.name
    try:
        import fcntl
    except ImportError:  # pragma: no cover - Windows: a sweep asks os.kill only
        os.mkdir(where, dir_fd=folder)
        return
    early = f"{where}~"
    os.mkdir(early, dir_fd=folder)
    fd = -1
    try:
        fd = os.open(early, _LOCKED, dir_fd=folder)
        with suppress(OSError):  # a file system without flock: unlocked, kept while we run
            fcntl.flock(fd, fcntl.LOCK_EX | fcntl.LOCK_NB)
        if _exists(where, folder):  # a rename would replace an empty folder there
            raise FileExistsError(errno.EEXIST, os.strerror(errno.EEXIST), str(path))
        os.rename(early, where, src_dir_fd=folder, dst_dir_fd=folder)
    except BaseException:
        if fd >= 0:
            os.close(fd)
        with suppress(OSError):
            os.rmdir(early, dir_fd=folder)
        raise
    _HELD[str(path)] = fd


def _exists(name: str, folder: int | None) -> bool:
    try:
        os.stat(name, dir_fd=folder, follow_symlinks=False)
    except FileNotFoundError:
        return False
    return True


def release(path: Path) -> None:
    """Stop holding the folder ``path`` (:func:`mkdir_held`): renamed into place, or being
    removed; nothing for one not held."""
    fd = _HELD.pop(str(path), None)
    if fd is not None:
        os.close(fd)


def maker_gone(pid: int, folder: int | Path, name: str) -> bool:
    """Whether the process that made the entry ``name`` of ``folder`` (a path, or a
    descriptor of it), ``pid`` by its name, is gone: ``pid`` runs no more
    (:func:`running`), or the entry is a folder no process holds (:func:`mkdir_held`: the
    pid is another's since). A file, or a folder that cannot be locked (no ``flock``), is
    its maker's while ``pid`` runs: no clock is asked (a clock set, a file server's, made a
    live build's folder look older than its process)."""
    if not running(pid):
        return True
    if pid == os.getpid():
        return False
    try:
        import fcntl
    except ImportError:  # pragma: no cover - Windows
        return False
    try:
        if isinstance(folder, int):
            fd = os.open(name, _LOCKED, dir_fd=folder)
        else:
            fd = os.open(folder / name, _LOCKED)
    except OSError:  # not a folder, or unreadable: kept
        return False
    try:
        fcntl.flock(fd, fcntl.LOCK_EX | fcntl.LOCK_NB)
    except OSError:  # held by its maker, or no flock on this file system: kept
        return False
    finally:
        os.close(fd)
    return True


def _exit_after(parent: BaseProcess) -> None:
    parent.join()
    os._exit(1)
