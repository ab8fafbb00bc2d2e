"""The find server's socket as ``skc find`` meets it first, before it imports the catalog:
where it is, whether a server of ours made it, how a message goes on the wire, and a request's
text told ahead (:func:`tell_ahead`).

``skc find``'s quick path (:mod:`.find_quick`) imports the catalog's client, reads the
configuration and computes the folders to search (10-15 ms) before it can send its find
(:mod:`.catalog.protocol`). With the semantic extra, the longest part of the server's answer
to a new request is the request's embedding (15-20 ms on two cores), which depends on its
text alone. So the quick path first tells the server the text (a ``prepare`` request, which
gets no reply), and the server starts embedding it in its model's thread while the client
goes on (:meth:`.catalog.engine.Catalog.prepare`): the find that follows finds the vector
computed or on its way. A ``prepare`` changes no answer; a client that cannot send one (no
server, a socket that is not ours) asks its find as before.

The environment's switches of ``find`` (:func:`switched_off`) are read here too: the
catalog's modules import them from here. Only ``os`` and ``typing`` are imported at module
level (``skc`` has both loaded by then; ``_socket`` and ``json`` when a request is told).
"""

from __future__ import annotations

import os
from collections.abc import Mapping
from typing import Any

__all__ = [
    "MAX_SOCKET_PATH",
    "PROTOCOL",
    "SOCKET_NAME",
    "encode_message",
    "fits",
    "home_socket",
    "peer",
    "refused",
    "socket_stamp",
    "switched_off",
    "tcp_peer_uid",
    "tell_ahead",
]

#: The version of the request and reply format; a server answers only its own.
PROTOCOL = 1
#: The socket's name in the skillc home's ``.skillc`` folder.
SOCKET_NAME = "find.sock"
#: ``sun_path`` holds 108 bytes, the last a NUL.
MAX_SOCKET_PATH = 107
#: The most of each of the kernel's tables of TCP sockets (``/proc/net/tcp``, ``tcp6``) read
#: looking for a connection's peer (about 100,000 sockets).
MAX_TCP_TABLE = 16 << 20


_OFF = ("0", "off", "false", "no")
_ON = ("1", "on", "true", "yes")
#: The invalid settings warned about in this process (a find reads its switches many times).
_WARNED: set[tuple[str, str]] = set()


def switched_off(variable: str) -> bool:
    """Whether the environment variable ``variable`` turns something off: ``0``, ``off``,
    ``false`` or ``no`` (case and spaces aside); ``SKILLC_FIND_SEMANTIC``,
    ``SKILLC_FIND_SERVER``. ``1``, ``on``, ``true``, ``yes`` or nothing leave it on; any
    other value is warned about on stderr (once a process) and ignored, as RFC-0009 says
    (``disabled`` left a find server running an hour in a CI job that meant to start none)."""
    raw = os.environ.get(variable, "")
    value = raw.strip().lower()
    if value in _OFF:
        return True
    if value and value not in _ON and (variable, raw) not in _WARNED:
        _WARNED.add((variable, raw))
        import sys

        sys.stderr.write(
            f"warning: environment variable {variable}={raw!r} is not one of "
            f"{', '.join(_OFF + _ON)}; ignored\n"
        )
    return False


def home_socket(env: Mapping[str, str] | None = None) -> str:
    """The find server's socket of the skillc home that :func:`skillc_index.homes.home_dir`
    finds (``$SKILLC_HOME``, else the user's home folder, resolved), without :mod:`pathlib`
    (``protocol.socket_path`` of a layout gives the same path: a test holds them together)."""
    env = os.environ if env is None else env
    # os.path, not skillc-index's home_dir: importing pathlib and the layout module would
    # be 7-12 ms of the quick path before it can tell (the find follows about 12 ms after)
    # (a relative $SKILLC_HOME is ignored, as home_dir does; a relative $HOME, rare, asks it)
    for given in (env.get("SKILLC_HOME") or ".", "~"):
        home = os.path.expanduser(given)  # noqa: PTH111
        if os.path.isabs(home):  # noqa: PTH117
            break
    else:
        from skillc_index.homes import home_dir

        home = str(home_dir(env))
    return os.path.join(os.path.realpath(home), ".skillc", SOCKET_NAME)  # noqa: PTH118


def fits(path: str) -> bool:
    """Whether a socket can have ``path``: ``sun_path`` holds :data:`MAX_SOCKET_PATH` bytes."""
    return len(os.fsencode(path)) <= MAX_SOCKET_PATH


def socket_stamp(path: str) -> tuple[int, int] | None:
    """The inode and ctime of ``path`` when it is a socket a find server of ours made (ours
    and mode 0600, not a link; a length a socket can have), else None."""
    import stat

    if not fits(path):
        return None
    try:
        st = os.lstat(path)
    except OSError:
        return None
    usable = stat.S_ISSOCK(st.st_mode) and st.st_uid == os.getuid() and not st.st_mode & 0o077
    return (st.st_ino, st.st_ctime_ns) if usable else None


def peer(sock: Any) -> tuple[int, int]:
    """The process id and user id at the other end of a Unix socket ((-1, -1): unknown)."""
    import _socket
    import struct

    option = getattr(_socket, "SO_PEERCRED", None)
    if option is None:  # not Linux: no server either (see FindServer)
        return -1, -1
    credentials = sock.getsockopt(_socket.SOL_SOCKET, option, struct.calcsize("3i"))
    pid, uid, _gid = struct.unpack("3i", credentials)
    return int(pid), int(uid)


def tcp_peer_uid(local: tuple[Any, ...], remote: tuple[Any, ...]) -> int | None:
    """The user id at the other end of a TCP connection on this machine (a loopback one),
    ``local`` and ``remote`` its addresses as this end's ``getsockname`` and ``getpeername``
    give them: the owner of the peer's socket, read from the kernel's table of TCP sockets
    (``/proc/net/tcp``, ``tcp6`` for IPv6: the entry whose local address is ``remote`` and
    whose remote address is ``local``, the ``uid`` column), as :func:`peer` reads a Unix
    socket's. -1 when no entry says (a peer on another machine, a table read up to
    :data:`MAX_TCP_TABLE` bytes without it), None when the user cannot be told (not Linux,
    no ``/proc``). Read a line at a time up to the entry found: a server asks it for each
    connection, and a busy machine's table is megabytes."""
    import _socket
    import sys

    v6 = ":" in local[0]
    family = _socket.AF_INET6 if v6 else _socket.AF_INET

    def entry(address: tuple[Any, ...]) -> str:  # as the kernel prints it: 32-bit words
        packed = _socket.inet_pton(family, address[0])  # in the machine's byte order
        words = (packed[i : i + 4] for i in range(0, len(packed), 4))
        host = "".join(f"{int.from_bytes(w, sys.byteorder):08X}" for w in words)
        return f"{host}:{address[1]:04X}"

    try:
        needle = f": {entry(remote)} {entry(local)} "
    except (OSError, ValueError, TypeError):
        return -1
    try:
        table = open("/proc/net/tcp6" if v6 else "/proc/net/tcp", "rb")  # noqa: SIM115
    except OSError:
        return None
    found, left = needle.encode("ascii"), MAX_TCP_TABLE
    with table:  # line by line, up to the first entry that says (not the whole table)
        while left > 0 and (line := table.readline(left)):
            left -= len(line)
            start = line.find(found)  # ": local remote st tx:rx tr:when retrnsmt uid ..."
            fields = line[start:].split() if start >= 0 else []
            if len(fields) > 7 and fields[3] != b"06" and fields[7].isdigit():  # 06: TIME_WAIT,
                return int(fields[7])  # which has no owner
    return -1


def encode_message(message: dict[str, Any]) -> bytes:
    """A request or a reply as it goes on the wire, :data:`PROTOCOL` added."""
    import json

    return json.dumps({"version": PROTOCOL, **message}).encode()


def tell_ahead(query: str) -> None:
    """Tell the home's find server that a find of ``query`` comes (a ``prepare``: the server
    computes the request's vector meanwhile), when the semantic step is wanted and the socket
    is one a server of ours made (and it is still ours once connected); it never waits (a
    server whose queue is full is not told), nothing is read back, and nothing is said of a
    failure: the find that follows asks the server, or answers itself, as it would have."""
    from skillc_gateway._limits import query_fits

    if switched_off("SKILLC_FIND_SEMANTIC") or not query_fits(query):
        return
    path = home_socket()
    if socket_stamp(path) is None:
        return
    import _socket

    try:  # socket() too: a sandbox may refuse Unix sockets (:func:`refused`)
        sock = _socket.socket(_socket.AF_UNIX, _socket.SOCK_STREAM)
    except OSError:
        return
    try:
        sock.setblocking(False)
        sock.connect(path)
        if peer(sock)[1] == os.getuid():
            sock.sendall(encode_message({"op": "prepare", "query": query}))
    except OSError:
        pass
    finally:
        sock.close()


def refused(call: str, exc: OSError) -> str | None:
    """Why this process may use no Unix socket, when ``exc`` (of the ``call`` ``socket``,
    ``connect`` or ``bind``) says it was refused whatever the socket: EPERM or EACCES, as a
    sandbox's filter gives (Claude Code's refuses ``socket(AF_UNIX)``, Codex's ``connect``
    and ``bind``); None for any other failure. What the find server's client says when it
    cannot reach a server (``skc watch --status``, ``find -v``), and why ``skc find`` starts
    none (:func:`.catalog.lifecycle.can_serve`)."""
    if not isinstance(exc, PermissionError):
        return None
    return (
        f"this process may not use Unix sockets ({call}(): {exc.strerror or exc}), as in a "
        "sandbox that refuses them: allow them there, or run this outside it"
    )
