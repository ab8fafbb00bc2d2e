"""The find server's client: what ``skc find`` asks first (:func:`ask`), and the requests
``skc watch --status`` and ``--stop`` send (:func:`request`).

The client uses only a socket that is ours, 0600, and served by a process of ours
(``SO_PEERCRED``), and waits for its reply only while a process holds the home's lock
(:func:`request`). A server that does not answer a find of this process, or refuses it (a
server of other code: :func:`.protocol.code_id`), is not asked again by it; one that kept it
waiting its whole time is not asked by other processes either for :data:`SILENT_SECONDS` (a
record beside the socket). A server whose process is stopped
(Ctrl-Z, SIGSTOP, a debugger) is not waited for.

On ``skc find``'s path: this module imports only the standard library at module level
(``_socket``, not :mod:`socket`, which costs more) and the wire format (:mod:`.protocol`),
none of the catalog machinery.
"""

from __future__ import annotations

import os
import time
from collections.abc import Sequence
from pathlib import Path
from typing import TYPE_CHECKING, Any, NamedTuple

from skillc_gateway.catalog import FINISH_WITHIN, Elsewhere, FindResult
from skillc_gateway.catalog.protocol import (
    LOCK_NAME,
    MAX_REPLY_BYTES,
    MAX_VERSION_CHARS,
    PROTOCOL,
    decode_result,
    encode_message,
    find_request,
    open_home_file,
    peer,
    silent_record,
    socket_path,
)
from skillc_gateway.find_socket import refused, socket_stamp
from skillc_index import FindServerError, Layout, SkillcError, loads_bounded

if TYPE_CHECKING:
    from skillc_index.inventory.folders import Root

__all__ = [
    "ANSWER_MARGIN_SECONDS",
    "CONNECT_SECONDS",
    "PROBE_SECONDS",
    "RETRY_SECONDS",
    "SILENT_SECONDS",
    "answers",
    "ask",
    "claim_lock",
    "declined",
    "foreign_lock",
    "holder_named",
    "lock_holder",
    "named_pid",
    "other_code",
    "other_version",
    "process_stopped",
    "refused_as_other_code",
    "request",
    "unreachable",
    "usable",
]

#: The client gives up connecting after this long (a server that does not accept is stuck).
CONNECT_SECONDS = 0.5
#: While it waits for a reply, the client looks this often whether the server's process is
#: stopped (Ctrl-Z, SIGSTOP, a debugger): then it answers itself at once.
POLL_SECONDS = 0.25
#: On top of the longest the catalog indexes for (its time budget, stretched to finish), for
#: the reply to arrive.
ANSWER_MARGIN_SECONDS = 5.0
#: A server that kept a client waiting its whole time is not asked by other processes either
#: for this long (:func:`~.protocol.silent_record` records its socket's stamp): a stuck server
#: would cost every ``skc find`` its wait. Once answering again, the server removes the record.
SILENT_SECONDS = 300.0


def other_code() -> str:
    """Why a server refused a find (``skc find -v``): a server of other code (an upgrade, an
    edited checkout since it started: :func:`~.protocol.code_id`; an older one says so in other
    words), which ``skc watch --detach`` (as the program the user ran writes it) replaces."""
    from skillc_index.helppage import program_command

    return f"the find server runs other code: '{program_command('watch --detach')}' replaces it"


def ask(
    layout: Layout, query: str, limit: int, roots: Sequence[Root], budget: float
) -> FindResult | None:
    """The find server's answer, or None when there is none to be had: no server, a socket
    that is not ours, a server that does not answer in time or refuses the find (of other
    code: :func:`~.protocol.code_id`; then it is not asked again by this process) or answers
    something else. :class:`~skillc_gateway.catalog.Elsewhere` when
    the server builds the catalog of these skills and leaves the answer from their files to
    this process (it decided so from the catalog it holds: this process does not decide
    again from a catalog that the build fills meanwhile); the same request again from this
    process (the quick path's, then its click command's) is not sent again."""
    where = _askable(layout)
    if where is None:
        return None
    message = find_request(layout, query, limit, roots, budget)
    told = (*where, encode_message(message))
    if told in _told:
        raise Elsewhere()
    timeout = budget * FINISH_WITHIN + ANSWER_MARGIN_SECONDS
    started = time.monotonic()
    reply = request(layout, message, timeout)
    if reply is None:
        _silent[where] = unreachable(layout) or "the find server did not answer"
        if time.monotonic() - started >= timeout:  # it kept this process waiting: stuck
            _mark_silent(*where)
        return None
    if "other_version" in reply:  # it answers none of this code's finds, nor builds for it
        _silent[where] = other_version(reply["other_version"])
        _other_code.add(where)
        return None
    if not reply.get("ok"):
        if reply.get("elsewhere") is True:
            _told.add(told)
            raise Elsewhere()
        # refused, and asked no more: a server of other code (an old one, that does not know
        # the request's code, says "this server runs skillc-gateway ..."), or a request it
        # takes for bad
        error = str(reply.get("error", ""))
        other = error.startswith("this server runs ")
        _silent[where] = other_code() if other else f"the find server refused it: {error}"
        if other:
            _other_code.add(where)
        return None
    try:
        return decode_result(reply["result"])
    except (KeyError, TypeError, ValueError):
        return None


def declined(layout: Layout) -> str | None:
    """Why the find server of ``layout``'s home answered no find of this process (for
    ``skc find -v``), None when none was asked or it answered."""
    path = str(socket_path(layout))
    stamp = socket_stamp(path)
    return None if stamp is None else _silent.get((path, stamp))


def refused_as_other_code(layout: Layout) -> bool:
    """Whether the find server of ``layout``'s home refused a find of this process as a
    server of other code (:func:`ask`): it builds nothing for this code."""
    path = str(socket_path(layout))
    stamp = socket_stamp(path)
    return stamp is not None and (path, stamp) in _other_code


def usable(layout: Layout) -> bool:
    """Whether :func:`ask` may ask the find server of ``layout``'s home: its socket is one a
    server of ours made, and that server has not failed to answer this process."""
    return _askable(layout) is not None


def _askable(layout: Layout) -> tuple[str, tuple[int, int]] | None:
    """The find server's socket (path and stamp) when :func:`ask` may ask it, else None."""
    path = str(socket_path(layout))
    stamp = socket_stamp(path)
    if stamp is None or (path, stamp) in _silent:
        return None
    if _marked_silent(path, stamp):
        _silent[path, stamp] = "the find server kept another find waiting: not asked"
        return None
    return path, stamp


def _marked_silent(path: str, stamp: tuple[int, int]) -> bool:
    """Whether the record beside the socket says its server (``stamp``) kept a client
    waiting lately. Only a regular file is read, opened without blocking: a FIFO there hung
    every ``skc find`` (anything else is no record)."""
    from skillc_index.files import regular_fd

    record = silent_record(path)
    try:
        with os.fdopen(regular_fd(record, None, record), "rb") as file:
            ino, ctime, since = file.read(128).split()
        marked = (int(ino), int(ctime)) == stamp
        return marked and 0 <= time.time() - float(since) < SILENT_SECONDS
    except (OSError, ValueError, SkillcError):
        return False


def _mark_silent(path: str, stamp: tuple[int, int]) -> None:
    """Record that the server of the socket ``path`` (``stamp``) did not answer in time."""
    import contextlib

    from skillc_index.files import regular_fd

    staged = Path(f"{silent_record(path)}.{os.getpid()}")
    try:  # made 0600, as every file of the home (it was 0644)
        made = regular_fd(
            str(staged), None, str(staged), flags=os.O_WRONLY | os.O_CREAT | os.O_EXCL
        )
        with os.fdopen(made, "w", encoding="ascii") as file:
            file.write(f"{stamp[0]} {stamp[1]} {int(time.time())}\n")
        staged.replace(silent_record(path))
    except OSError:
        with contextlib.suppress(OSError):
            staged.unlink()


def request(layout: Layout, message: dict[str, Any], timeout: float) -> dict[str, Any] | None:
    """Send ``message`` to the find server of ``layout``'s home; its reply (one of another
    protocol version as :func:`_other_version` gives it), or None (no usable server, no
    reply within ``timeout`` seconds, a server whose
    process is stopped, or no reply within :data:`POLL_SECONDS` while nobody holds the
    home's lock). A server of this home holds the lock from before it listens until it no
    longer does (and none can take a lock that is no regular file), so what keeps a request
    waiting without it is another program's socket, not waited on for 35 s (``skc find``,
    ``skc watch --status``, ``--stop``, ``--detach``); the lock is looked at only then, not
    on the way of a reply that comes at once."""
    import _socket

    path = str(socket_path(layout))
    if socket_stamp(path) is None:
        return None
    data = encode_message(message)
    try:
        sock = _socket.socket(_socket.AF_UNIX, _socket.SOCK_STREAM)
    except OSError as exc:  # a sandbox that refuses Unix sockets (Claude Code's)
        _refused(path, "socket", exc)
        return None
    try:
        sock.settimeout(CONNECT_SECONDS)
        try:
            sock.connect(path)
        except OSError as exc:  # refused whatever the socket (Codex's sandbox), or no server
            _refused(path, "connect", exc)
            raise
        pid, uid = peer(sock)
        if uid != os.getuid():
            return None
        deadline = time.monotonic() + timeout
        sock.settimeout(timeout)
        sock.sendall(data)
        sock.shutdown(_socket.SHUT_WR)
        chunks: list[bytes] = []
        size = 0
        while True:
            left = deadline - time.monotonic()
            if left <= 0:
                return None
            sock.settimeout(min(left, POLL_SECONDS))
            try:
                chunk = sock.recv(1 << 16)
            except TimeoutError:
                if process_stopped(pid) or not _held(layout):
                    return None
                continue
            if not chunk:
                break
            size += len(chunk)
            if size > MAX_REPLY_BYTES:
                return None
            chunks.append(chunk)
        reply = loads_bounded(b"".join(chunks), max_bytes=MAX_REPLY_BYTES)
    except (OSError, ValueError):
        return None
    finally:
        sock.close()
    version = reply.get("version") if isinstance(reply, dict) else None
    if not isinstance(version, int) or isinstance(version, bool):
        return None
    return reply if version == PROTOCOL else _other_version(reply, version, pid)


def _other_version(reply: dict[str, Any], version: int, pid: int) -> dict[str, Any]:
    """A reply of another protocol ``version`` (a find server of another skillc, older or
    newer) as :func:`request` returns it: ``ok`` (a ``stop`` honoured), the server's ``pid``
    (the socket's peer, not what the reply says) and ``other_version`` (:func:`other_version`:
    ``protocol``, ``version``, ``pid``) with what the envelope every version keeps said
    (:func:`~.protocol.other_version_reply`); nothing else of it is read."""
    named = reply.get("skillc_gateway")
    if not (isinstance(named, str) and 0 < len(named) <= MAX_VERSION_CHARS and named.isprintable()):
        named = None
    other = {"protocol": version, "version": named, "pid": pid}
    return {"version": PROTOCOL, "ok": reply.get("ok") is True, "pid": pid, "other_version": other}


def other_version(other: dict[str, Any]) -> str:
    """What is said of a find server of another protocol version (``other``, as
    :func:`_other_version` gives it): ``skc find -v``, ``skc watch --status``."""
    from skillc_index.helppage import program_command

    named = f", skillc-gateway {other['version']}" if other.get("version") else ""
    remedy = (  # a newer one is not replaced unasked; an older one is, as one of other code
        f"upgrade skillc, or stop it ('{program_command('watch --stop')}')"
        if other["protocol"] > PROTOCOL
        else f"'{program_command('watch --detach')}' replaces it"
    )
    return (
        f"a find server of another skillc (protocol {other['protocol']}{named}) runs as pid "
        f"{other['pid']}: {remedy}"
    )


#: The sockets (path) this process may not reach whatever their server (a sandbox that
#: refuses Unix sockets: :func:`.find_socket.refused`), and why (:func:`unreachable`).
_unreachable: dict[str, str] = {}


def _refused(path: str, call: str, exc: OSError) -> None:
    why = refused(call, exc)
    if why is not None:
        _unreachable[path] = why


def unreachable(layout: Layout) -> str | None:
    """Why this process cannot reach the find server of ``layout``'s home whatever it does
    (it may use no Unix socket: :func:`.find_socket.refused`), found by a :func:`request`;
    None when none found it so. ``skc watch`` then waits for no server and says why."""
    return _unreachable.get(str(socket_path(layout)))


#: The sockets (path, inode and ctime) whose server did not answer a find of this process or
#: refused it, which does not ask them again: ``skc find``'s quick path and its click command
#: would each wait for a stuck server. A server started since has a socket of its own.
_silent: dict[tuple[str, tuple[int, int]], str] = {}  # and why (:func:`declined`)
#: Those of :data:`_silent` whose server refused a find as other code
#: (:func:`refused_as_other_code`).
_other_code: set[tuple[str, tuple[int, int]]] = set()
#: The finds (socket and request) whose server said to answer from the files: asked again by
#: this process (``skc find``'s click command after its quick path), the answer is the same,
#: and the server would walk the folders again, or index the rest of them in that request.
_told: set[tuple[str, tuple[int, int], bytes]] = set()


def answers(path: str) -> bool:
    """Whether some process accepts connections on the socket ``path`` (within
    :data:`CONNECT_SECONDS`), whoever it is."""
    import _socket

    try:
        probe = _socket.socket(_socket.AF_UNIX, _socket.SOCK_STREAM)
    except OSError:  # a sandbox that refuses Unix sockets: none answers this process
        return False
    try:
        probe.settimeout(CONNECT_SECONDS)
        probe.connect(path)
    except OSError:
        return False
    finally:
        probe.close()
    return True


def lock_holder(path: Path) -> str | None:
    """The pid written in the find-server lock ``path`` while a process holds it (``?`` when
    none is written, or what is there is no pid: :func:`holder_named`), else None.
    FindServerError when it is no regular file (a FIFO there is never waited on:
    :func:`~.protocol.open_home_file`)."""
    import fcntl

    try:
        fd = open_home_file(path, os.O_RDONLY)
    except OSError:
        return None
    try:
        fcntl.flock(fd, fcntl.LOCK_SH | fcntl.LOCK_NB)
    except BlockingIOError:
        return holder_named(fd)
    finally:
        os.close(fd)
    return None


#: The most digits of a pid read from the find-server lock (a ``pid_t``: below 2**31).
MAX_PID_DIGITS = 10


def named_pid(text: str | None) -> int | None:
    """The process id ``text`` names (the find-server lock's words, :func:`lock_holder`'s):
    ASCII digits only, at most :data:`MAX_PID_DIGITS`, a ``pid_t`` above 0; else None (none,
    ``?``, or no pid: ``str.isdigit`` takes ``²``, which ``int`` refuses)."""
    word = (text or "").strip()
    if not (word.isascii() and word.isdigit() and len(word) <= MAX_PID_DIGITS):
        return None
    pid = int(word)
    return pid if 0 < pid < 2**31 else None


def holder_named(fd: int) -> str:
    """The pid the find-server lock open as ``fd`` names (:func:`named_pid`), ``?`` when it
    names none: information only (a pid left there by a process gone may be another's)."""
    pid = named_pid(os.pread(fd, 32, 0).decode(errors="replace"))
    return "?" if pid is None else str(pid)


#: How long a process that takes the find-server lock tries again while a client's probe
#: holds it (:func:`claim_lock`).
PROBE_SECONDS = 2.0
#: How long :func:`claim_lock` waits again when taking the lock failed after it had it
#: shared: a client's look may have taken it in that gap (``flock`` lets a shared lock go
#: before it takes it exclusively).
RETRY_SECONDS = 0.5


def claim_lock(fd: int, path: Path) -> None:
    """Take the find-server lock ``path`` (open as ``fd``) for a server: an exclusive
    ``flock``. BlockingIOError at once when another holds it exclusively: a server runs or
    starts. Held shared, it is a client's look (:func:`lock_holder`: for the time of a
    read; no client holds it over a query): tried again for up to :data:`PROBE_SECONDS`
    (:func:`skillc_index.locks.flock_within`, ``owned``). The lock itself tells which,
    never the pid in the file: one a server left there may be another process's by now (a
    client's look then gave E060 "already runs (pid N)" at once); a server started at the
    instant of a ``--status`` or a find's probe died with E060 "already runs (pid ?)".
    Held shared all that time, it is no look of skillc's but another program's (``flock
    -s``): FindServerError saying so (it said "already runs (pid ?)", none running). The
    last try takes it shared, then exclusively: ``flock`` converts a lock by letting it go
    first (not atomic), so a server starting, or a client's look, may take it in that gap;
    the lock is asked again which (a server: BlockingIOError; a look: waited for again, for
    up to :data:`RETRY_SECONDS`), rather than every such failure being another program's."""
    import errno

    from skillc_index.locks import flock_within

    for wait in (PROBE_SECONDS, RETRY_SECONDS):
        if flock_within(fd, wait, owned=True) or _converted(fd):
            return
        if _held_exclusively(fd):  # a server runs or starts (it may have taken the gap)
            raise BlockingIOError(errno.EAGAIN, os.strerror(errno.EAGAIN))
    raise FindServerError(  # waited for both tries: the real wait, not the first's alone
        f"another process (no find server) has held {path} shared for over "
        f"{PROBE_SECONDS + RETRY_SECONDS:g} s: start the find server once it lets go"
    )


def _converted(fd: int) -> bool:
    """Whether the lock on ``fd``, taken shared (False at once when held exclusively), was
    then had exclusively: its other holders let go just now. Not had: ``fd`` holds none."""
    import fcntl

    from skillc_index.locks import flock_within

    if not flock_within(fd, 0, shared=True):
        return False
    try:
        fcntl.flock(fd, fcntl.LOCK_EX | fcntl.LOCK_NB)
    except BlockingIOError:
        fcntl.flock(fd, fcntl.LOCK_UN)  # (Linux let it go already; other systems keep it)
        return False
    return True


def _held_exclusively(fd: int) -> bool:
    """Whether another open file holds the lock of ``fd`` exclusively (a shared lock is
    refused); ``fd`` holds none after."""
    import fcntl

    from skillc_index.locks import flock_within

    if not flock_within(fd, 0, shared=True):
        return True
    fcntl.flock(fd, fcntl.LOCK_UN)
    return False


#: The most of ``/proc/locks`` read looking for a lock (about 10,000 locks).
MAX_LOCKS_BYTES = 1 << 20


class ForeignLock(NamedTuple):
    """A skillc home's find-server lock that is another user's file (a home two users share:
    ``SKILLC_HOME`` in a shared folder): this user can neither open it nor take it, so it
    cannot tell from the lock whether a server runs (:func:`lock_holder`), nor start one."""

    path: str
    uid: int
    user: str
    """The owner's name, or its uid when it has none."""
    held: bool | None
    """Whether a process holds it (``/proc/locks``); None when that cannot be told."""

    def __str__(self) -> str:
        who = f"another user (uid {self.uid}, {self.user})"
        if self.held:
            return f"a find server of {who} holds {self.path}"
        unheld = ", held by no process" if self.held is False else ""
        return f"{self.path} belongs to {who}{unheld}"


def foreign_lock(path: Path) -> ForeignLock | None:
    """The find-server lock ``path`` when it is a regular file of another user than this
    process's (who, and whether some process holds it: a flock of its inode in
    ``/proc/locks``, read up to :data:`MAX_LOCKS_BYTES`), else None (ours, or none)."""
    import stat

    try:
        st = os.lstat(path)
    except OSError:
        return None
    if not stat.S_ISREG(st.st_mode) or st.st_uid == os.getuid():
        return None
    try:
        import pwd

        user = pwd.getpwuid(st.st_uid).pw_name
    except (ImportError, KeyError):
        user = str(st.st_uid)
    return ForeignLock(str(path), st.st_uid, user, locked(st, kind=b"FLOCK"))


def locked(*files: os.stat_result, kind: bytes = b"") -> bool | None:
    """Whether a process holds (or waits for) a lock of ``kind`` (``FLOCK``, ``POSIX``...;
    any when empty) on one of ``files`` (their inode number), as ``/proc/locks`` says, read
    up to :data:`MAX_LOCKS_BYTES`; None when that cannot be told (no ``/proc/locks``, or one
    not read whole). Each open connection to a SQLite database in WAL mode holds a POSIX lock
    on its ``-shm`` file (the byte that says a connection is open).

    The inode alone is matched, not the device: ``/proc/locks`` prints the file system's
    device, which on a btrfs subvolume (or an overlayfs over several) is not the ``st_dev``
    ``stat`` says, so matching it found no lock there (an older catalog in use was removed).
    A file of the same inode number on another file system held by a lock only says held
    where none is: a catalog kept for a later open to remove, a find-server lock of another
    user told held (:func:`foreign_lock`: what its readers do when it cannot be told)."""
    import re

    try:
        with open("/proc/locks", "rb") as locks:
            table = locks.read(MAX_LOCKS_BYTES)
    except OSError:
        return None
    # "1: FLOCK  ADVISORY  WRITE <pid> <major>:<minor>:<inode> 0 EOF" (a waiter: "1: -> FLOCK")
    inodes = {st.st_ino for st in files}
    word = b" " + kind + b" " if kind else b""
    held = any(
        word in line and int(lock[1]) in inodes
        for line in table.splitlines()
        if (lock := re.search(rb" [0-9a-f]+:[0-9a-f]+:([0-9]+) ", line))
    )
    return None if not held and len(table) >= MAX_LOCKS_BYTES else held  # (not read whole)


def _held(layout: Layout) -> bool:
    """Whether a process holds the find-server lock of ``layout``'s home (:func:`request`)."""
    try:
        return lock_holder(layout.global_dir / LOCK_NAME) is not None
    except FindServerError:  # a FIFO or a link there: no server of this home could take it
        return False


def process_stopped(pid: int | None) -> bool:
    """Whether the process ``pid`` is stopped (``T``, or ``t`` under a debugger) and so
    answers nothing until it is resumed; False when that cannot be told, or ``pid`` is None
    (a lock that names none: :func:`named_pid`)."""
    from skillc_index.cores import process_state

    return pid is not None and process_state(pid) in ("T", "t")
