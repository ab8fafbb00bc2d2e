"""The find server's socket and lock (:class:`~.server.FindServer` uses them): the home's
server lock (taken, or adopted from the ``skc find`` that started the server), the listening
socket (bound mode 0600), the connections accepted whose request is not whole yet, each read
as it comes and dropped at its own deadline (:class:`Pending`), whether a client hung up,
and whether a request waits (a turn of the build or of the fill ends for it)."""

from __future__ import annotations

import os
import stat
import time
from collections.abc import Callable, Collection, Sequence
from pathlib import Path
from typing import TYPE_CHECKING

from skillc_gateway.catalog.protocol import MAX_REQUEST_BYTES, already_runs, open_home_file
from skillc_index import FindServerError

if TYPE_CHECKING:
    import socket

__all__ = [
    "MAX_PENDING",
    "Pending",
    "Request",
    "adopt_lock",
    "bind_socket",
    "free_lock",
    "hung_up",
    "take_lock",
    "waiting",
]


def bind_socket(path: str) -> tuple[socket.socket, tuple[int, int]]:
    """A Unix socket bound at ``path``, mode 0600 (a socket left by a server that died is
    replaced), and the file's identity (device, inode): the server removes only its own.
    Raises :class:`FindServerError`."""
    import socket

    try:
        st = os.lstat(path)
    except FileNotFoundError:
        pass
    else:
        if not stat.S_ISSOCK(st.st_mode):
            raise FindServerError(f"{path} exists and is not a socket: remove it first")
        from skillc_gateway.catalog.client import answers

        if answers(path):
            raise FindServerError(f"another process answers on {path}")
        Path(path).unlink()  # left by a server that died: nobody answers on it
    from skillc_gateway.find_socket import refused

    try:  # a sandbox may refuse Unix sockets: E060 saying so
        listener = socket.socket(socket.AF_UNIX, socket.SOCK_STREAM)
    except OSError as exc:
        why = refused("socket", exc) or exc.strerror or exc
        raise FindServerError(f"cannot listen on {path}: {why}") from None
    old = os.umask(0o177)
    try:
        listener.bind(path)
    except OSError as exc:
        listener.close()
        why = refused("bind", exc) or exc.strerror or exc
        raise FindServerError(f"cannot listen on {path}: {why}") from None
    finally:
        os.umask(old)
    os.chmod(path, 0o600)  # noqa: PTH101 - the umask made it so; said twice
    st = os.lstat(path)
    return listener, (st.st_dev, st.st_ino)


def take_lock(path: Path) -> int:
    """The home's find-server lock (held while the server runs: :func:`.client.claim_lock`);
    FindServerError when another server holds it or it is no regular file (a symlink is not
    followed)."""
    from skillc_gateway.catalog.client import claim_lock, holder_named

    try:
        fd = open_home_file(path, os.O_RDWR | os.O_CREAT)
    except OSError as exc:
        raise FindServerError(f"cannot open {path}: {exc.strerror or exc}") from None
    try:
        claim_lock(fd, path)
    except BlockingIOError:
        holder = holder_named(fd)
        os.close(fd)
        raise FindServerError(already_runs(holder)) from None
    except BaseException:  # held shared too long (FindServerError)
        os.close(fd)
        raise
    os.ftruncate(fd, 0)
    os.write(fd, f"{os.getpid()}\n".encode())
    return fd


def adopt_lock(path: Path, fd: int) -> int:
    """The home's find-server lock ``path``, taken for this server by the ``skc find`` that
    started it and inherited as ``fd``: checked to be that file and held, then marked with
    this pid. FindServerError otherwise."""
    import fcntl

    try:
        held, named = os.fstat(fd), os.lstat(path)  # a symlink put there since is not it
        if (held.st_dev, held.st_ino) != (named.st_dev, named.st_ino):
            raise FindServerError(f"--lock-fd {fd} is not {path}")
        fcntl.flock(fd, fcntl.LOCK_EX | fcntl.LOCK_NB)  # held already by this open file
    except OSError as exc:
        raise FindServerError(f"--lock-fd {fd}: {exc.strerror or exc}") from None
    os.set_inheritable(fd, False)
    os.ftruncate(fd, 0)
    os.write(fd, f"{os.getpid()}\n".encode())
    return fd


def free_lock(fd: int) -> None:
    """Let go of the home's find-server lock this server holds as ``fd``, its pid cleared
    from the file first (no other process writes it meanwhile: it is held exclusively): a
    pid left there once the server is gone may be another process's later, named as the
    server's by a message (:func:`.client.holder_named`)."""
    import contextlib

    with contextlib.suppress(OSError):
        os.ftruncate(fd, 0)
    os.close(fd)


#: The accepted connections whose request is not whole yet that the server holds at once
#: (:class:`Pending`); past them it accepts none until one is answered or dropped: the next
#: wait in the listener's backlog.
MAX_PENDING = 16


class Request:
    """An accepted connection of ``pid`` and what it sent so far, to be whole by
    ``deadline`` (``time.monotonic()``)."""

    __slots__ = ("chunks", "connection", "deadline", "pid", "size")

    def __init__(self, connection: socket.socket, pid: int, deadline: float) -> None:
        self.connection, self.pid, self.deadline = connection, pid, deadline
        self.chunks: list[bytes] = []
        self.size = 0


class Pending:
    """The accepted connections whose request is not whole yet (at most
    :data:`MAX_PENDING`), each read as its bytes come, without blocking: the server waits on
    all of them at once (:meth:`fds`), answers whichever sent its whole request (everything
    up to the client's shutdown: :meth:`read`) and drops each that did not within its own
    ``seconds`` (:meth:`expired`; :data:`.server.READ_SECONDS`). One at a time, the request
    of one connection read within 5 s, eight that sent nothing held every find 35 s (and a
    client sending a byte now and then, one at a time, for as long as it went on)."""

    def __init__(self, seconds: float) -> None:
        self.seconds = seconds
        self._held: dict[int, Request] = {}  # by descriptor, in the order accepted

    def __len__(self) -> int:
        return len(self._held)

    def full(self) -> bool:
        return len(self._held) >= MAX_PENDING

    def add(self, connection: socket.socket, pid: int) -> None:
        """Hold ``connection`` (of the process ``pid``) until its request is whole."""
        connection.setblocking(False)
        request = Request(connection, pid, time.monotonic() + self.seconds)
        self._held[connection.fileno()] = request

    def fds(self) -> list[int]:
        return list(self._held)

    def watched(self, listener: int, wake: int | None = None) -> list[int]:
        """What the server waits on for its next request: the wake-up descriptor ``wake``
        (a stop), the connections held and ``listener``, but not while :meth:`full` (it
        accepts none then: the listener ready for a connection it leaves in the backlog
        ended every turn of the build and of the fill at once, and the server spun)."""
        wakes = [] if wake is None else [wake]
        return [*wakes, *self._held, *([] if self.full() else [listener])]

    def timeout(self) -> float | None:
        """Seconds until the nearest deadline (0 past it); None when none is held."""
        if not self._held:
            return None
        return max(0.0, min(r.deadline for r in self._held.values()) - time.monotonic())

    def read(self, ready: Collection[int]) -> list[tuple[Request, bytes | OSError | None]]:
        """What came on the held connections among ``ready``: the requests now whole, in the
        order accepted, each with its bytes (None past the size limit: it is not read on;
        the error when the connection failed), no longer held (the caller answers and
        closes them)."""
        done: list[tuple[Request, bytes | OSError | None]] = []
        for fd in [fd for fd in self._held if fd in ready]:
            request = self._held[fd]
            try:
                if not _received(request):
                    continue  # more to come
            except OSError as exc:
                done.append((request, exc))
                continue
            whole = request.size <= MAX_REQUEST_BYTES
            done.append((request, b"".join(request.chunks) if whole else None))
        for request, _ in done:
            del self._held[request.connection.fileno()]
        return done

    def expired(self) -> list[Request]:
        """The connections whose request was not whole by its deadline, no longer held (the
        caller closes them). Each is read one last time first, without blocking: a request
        that came whole while the server was busy past its deadline (answering another, a
        turn of its work) is kept, and answered by the next :meth:`read` (its descriptor
        stays ready: the client shut its side down); it was dropped as timed out."""
        now = time.monotonic()
        gone: list[Request] = []
        for request in [r for r in self._held.values() if r.deadline <= now]:
            try:
                if _received(request):
                    continue  # whole: read() answers it
            except OSError:
                pass  # failed: dropped with the others
            gone.append(request)
        for request in gone:
            del self._held[request.connection.fileno()]
        return gone

    def close(self) -> None:
        for request in self._held.values():
            request.connection.close()
        self._held.clear()


def _received(request: Request) -> bool:
    """Read what ``request``'s connection holds, without blocking; whether the request is
    done: whole (the client shut its side down) or past the size limit (not read on)."""
    while True:
        try:
            chunk = request.connection.recv(1 << 16)
        except BlockingIOError:
            return False
        if not chunk:
            return True
        request.size += len(chunk)
        if request.size > MAX_REQUEST_BYTES:
            return True
        request.chunks.append(chunk)


def hung_up(connection: socket.socket) -> bool:
    """Whether the client closed its end (it shuts down only its writing side to send)."""
    import select

    poller = select.poll()
    poller.register(connection.fileno(), select.POLLIN)
    return any(events & select.POLLHUP for _, events in poller.poll(0))


def waiting(fds: Sequence[int], after: float = 0.0) -> Callable[[], bool]:
    """Whether something waits on one of ``fds`` (a look that does not block), from ``after``
    seconds on (False before): a turn of the build or of the fill ends for it. The server's
    are :meth:`Pending.watched`."""
    import select

    fds = list(fds)
    start = time.monotonic() + after
    return lambda: time.monotonic() >= start and bool(select.select(fds, [], [], 0)[0])
