"""The CPUs this process may run on: the one answer for every pool of workers in the kit
(``build``'s processes, ``skillc-lint``'s, the gateway's threads that compute vectors), the
making of a pool of processes where the system may give none (:func:`process_pool`), and
the end of a pool's worker process with its parent (:func:`end_with_parent`), whether the
process that made a temporary file still runs (:func:`running`), Ctrl-C left
to the parent (:func:`workers_starting`, :func:`worker_ignores_interrupts`), and the C
library the kit calls through ctypes (:func:`c_library`)."""

from __future__ import annotations

import os
import sys
from collections.abc import Callable, Iterator
from contextlib import contextmanager, suppress
from typing import TYPE_CHECKING, TypeVar

if TYPE_CHECKING:
    import ctypes
    from multiprocessing.process import BaseProcess

    from skillc_index.diagnostics import Notice

__all__ = [
    "c_library",
    "end_with_parent",
    "process_pool",
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


#: How much later than an entry's last change (:func:`_changed_at`) a process may seem to
#: have started and still be taken for its maker: ``/proc/stat``'s boot time is in whole
#: seconds, and a clock set forward meanwhile makes a start look later than it was.
_START_SLACK_S = 5.0


def running(pid: int, since: float | None = None) -> bool:
    """Whether a process ``pid`` runs (one of another user counts: it may be ours) that may
    have made an entry changed last at ``since`` (its ``st_ctime``). Where ``/proc`` tells
    (Linux), a zombie (ended, its parent gone without reaping it, as in a container whose
    init reaps none) runs no more, and one started after ``since`` (and
    :data:`_START_SLACK_S`) is another that took the pid: a killed build's staging folder
    was kept for good by either."""
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
    found = _process_start(pid)
    if found is None:
        return True
    state, started = found
    if state in ("Z", "X"):
        return False
    return since is None or started is None or started <= since + _START_SLACK_S


def _process_start(pid: int) -> tuple[str, float | None] | None:
    """The state of process ``pid`` (``R``, ``S``, ``Z``...) and when it started (seconds
    since the epoch; None when the boot time is unknown), from ``/proc``; None where there is
    no ``/proc`` or the process is gone."""
    try:
        with open(f"/proc/{pid}/stat", "rb") as handle:
            text = handle.read(4096)
    except OSError:
        return None
    fields = text[text.rfind(b")") + 2 :].split()  # past "pid (name) ": name may hold spaces
    try:
        ticks = int(fields[19])  # starttime, field 22: clock ticks after the boot
        boot = _boot_time()
        hertz = os.sysconf("SC_CLK_TCK")
    except (IndexError, ValueError, OSError):
        return (fields[0].decode("ascii", "replace"), None) if fields else None
    return fields[0].decode("ascii", "replace"), None if boot is None else boot + ticks / hertz


_BOOT: list[float | None] = []  # read once (_boot_time)


def _boot_time() -> float | None:
    """When the system booted (``btime`` of ``/proc/stat``, seconds since the epoch)."""
    if not _BOOT:
        found = None
        with suppress(OSError, ValueError), open("/proc/stat", "rb") as handle:
            for line in handle:
                if line.startswith(b"btime "):
                    found = float(line.split()[1])
                    break
        _BOOT.append(found)
    return _BOOT[0]


def _exit_after(parent: BaseProcess) -> None:
    parent.join()
    os._exit(1)
