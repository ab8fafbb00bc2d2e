"""The find server's socket and lock (:class:`~.server.FindServer` uses them): the home's
server lock (taken, or adopted from the ``skc find`` that started the server), the listening
socket (bound mode 0600), a request read whole within a deadline, whether its client hung
up, and whether a request waits (a turn of the build or of the fill ends for it)."""

from __future__ import annotations

import os
import stat
import time
from collections.abc import Callable
from pathlib import Path
from typing import TYPE_CHECKING

from skillc_gateway.catalog.protocol import MAX_REQUEST_BYTES, already_runs, open_home_file
from skillc_index import FindServerError

if TYPE_CHECKING:
    import socket

__all__ = ["adopt_lock", "bind_socket", "hung_up", "read_request", "take_lock", "waiting"]


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
    """The home's find-server lock (held while the server runs); FindServerError when another
    server holds it or it is no regular file (a symlink is not followed)."""
    import fcntl

    try:
        fd = open_home_file(path, os.O_RDWR | os.O_CREAT)
    except OSError as exc:
        raise FindServerError(f"cannot open {path}: {exc.strerror or exc}") from None
    try:
        fcntl.flock(fd, fcntl.LOCK_EX | fcntl.LOCK_NB)
    except BlockingIOError:
        holder = os.read(fd, 32).decode(errors="replace").strip()
        os.close(fd)
        raise FindServerError(already_runs(holder or "?")) from None
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


def read_request(connection: socket.socket, seconds: float) -> bytes | None:
    """The request: everything up to the client's shutdown; None past the size limit.
    TimeoutError past ``seconds`` in all (:data:`.server.READ_SECONDS`): a client sending a
    byte now and then holds the server (it answers one at a time) no longer than one that
    sends nothing."""
    deadline = time.monotonic() + seconds
    chunks: list[bytes] = []
    size = 0
    while True:
        left = deadline - time.monotonic()
        if left <= 0:
            raise TimeoutError("timed out")  # as the socket's own timeout says
        connection.settimeout(left)
        chunk = connection.recv(1 << 16)
        if not chunk:
            return b"".join(chunks)
        size += len(chunk)
        if size > MAX_REQUEST_BYTES:
            return None
        chunks.append(chunk)


def hung_up(connection: socket.socket) -> bool:
    """Whether the client closed its end (it shuts down only its writing side to send)."""
    import select

    poller = select.poll()
    poller.register(connection.fileno(), select.POLLIN)
    return any(events & select.POLLHUP for _, events in poller.poll(0))


def waiting(listener: int, after: float = 0.0) -> Callable[[], bool]:
    """Whether a request waits on ``listener`` (a look that does not block), from ``after``
    seconds on (False before): a turn of the build or of the fill ends for it."""
    import select

    start = time.monotonic() + after
    return lambda: time.monotonic() >= start and bool(select.select([listener], [], [], 0)[0])
