"""Starting and stopping the find server of a skillc home, and asking it how it is
(``skc watch --detach``, ``--stop``, ``--status``; ``skc find`` starting one for later).

The server holds the home's lock (``.skillc/find.lock``, its pid written in it) for as long as
it runs: one server per home, and a server that does not answer (stopped, stuck) is still
known by its lock. A server started in the background runs in a session of its own, its
output appended to ``.skillc/find.log``, and stops after :data:`DETACHED_IDLE_SECONDS`
without a query unless told otherwise.
"""

from __future__ import annotations

import errno
import os
import stat
import time
from collections.abc import Sequence
from pathlib import Path
from typing import TYPE_CHECKING, Any

from skillc_gateway.catalog import BUDGET_SECONDS, FINISH_WITHIN
from skillc_gateway.catalog.client import (
    ANSWER_MARGIN_SECONDS,
    answers,
    claim_lock,
    foreign_lock,
    lock_holder,
    named_pid,
    process_stopped,
    refused_as_other_code,
    request,
    unreachable,
)
from skillc_gateway.catalog.protocol import (
    LOCK_NAME,
    LOG_NAME,
    PROTOCOL,
    already_runs,
    code_id,
    fits,
    open_home_file,
    socket_path,
    too_long,
)
from skillc_index import FindServerError, Layout

if TYPE_CHECKING:
    import subprocess

__all__ = [
    "AUTO_START_SKILLS",
    "DETACHED_IDLE_SECONDS",
    "MAX_LOG_BYTES",
    "START_SECONDS",
    "can_serve",
    "server_status",
    "silent_status",
    "start_detached",
    "start_for_later",
    "stop_server",
]

#: ``find.log`` past this size is moved to ``find.log.1`` when the next server starts
#: (:func:`_bound_log`; each server writes a bounded number of lines to it:
#: :data:`.server.LOG_LINES`).
MAX_LOG_BYTES = 1 << 20
#: ``skc watch --detach`` exits after this long without a query, unless told otherwise; so
#: does a server ``skc find`` started.
DETACHED_IDLE_SECONDS = 3600
#: ``skc find`` starts a find server when it answered itself, whole, over this many skills
#: or more (about 10 ms of stats a thousand skills: below it, a process of its own pays
#: little for looking at every folder again), unless ``$SKILLC_FIND_SERVER`` turns it off
#: (:func:`~skillc_gateway.find_socket.switched_off`).
AUTO_START_SKILLS = 1000
#: The longest a server answering a find (one at a time) may keep another request waiting.
BUSY_SECONDS = BUDGET_SECONDS * FINISH_WITHIN + ANSWER_MARGIN_SECONDS
#: Said when the home's lock is another user's (:func:`.client.foreign_lock`).
_NOT_YOURS = "no find server of yours can start in this skillc home (set SKILLC_HOME to your own)"
#: How long ``--stop`` and ``--status`` wait for a server that is starting (it holds the
#: home's lock, and does not listen yet: Python and its imports) before they say it does not
#: answer; one that ``skc find`` started a moment before is stopped, not left running.
START_SECONDS = 10.0


def server_status(layout: Layout) -> dict[str, Any] | None:
    """What the find server of ``layout``'s home says of itself, or None when none answers;
    with ``serves``: whether it answers the finds of this process's code (one started before
    an upgrade or an edit of the checkout, at the same version, refuses them:
    :func:`~.protocol.code_id`; one older than this field says no code). Its start time
    ``since`` is RFC 3339 UTC with ``Z`` whatever the server sent (older ones sent epoch
    seconds: :func:`~skillc_index.clock.as_utc_timestamp`), None when it sent no time;
    ``protocol``: its :data:`~.protocol.PROTOCOL`. A server of another protocol version (of
    another skillc, older or newer) answers no request of this one but a ``stop``: ``running``
    true, ``serves`` false, its ``protocol``, ``version`` (null when it does not say) and
    ``pid`` (:func:`.client.other_version`), ``home`` and ``socket``."""
    from skillc_index.clock import as_utc_timestamp

    reply = _ask(layout, {"op": "status"})
    if reply is not None and "other_version" in reply:  # of another skillc: what it says
        other = reply["other_version"]
        home, sock = str(layout.home), str(socket_path(layout))
        return {"running": True, "serves": False, **other, "home": home, "socket": sock}
    status = None if reply is None else reply.get("status")
    if not isinstance(status, dict):
        return None
    status["serves"] = status.get("code") == code_id()
    status["protocol"] = PROTOCOL
    status["since"] = as_utc_timestamp(status.get("since"))
    return status


def _ask(layout: Layout, message: dict[str, Any]) -> dict[str, Any] | None:
    """The find server's reply to ``message``, waiting up to :data:`START_SECONDS` for a
    server that is starting: one whose process holds the home's lock, is not stopped, and
    whose socket refused the request at once (not made yet, or a dead server's that it is
    about to replace). None when none answers: no server, or one that kept the request
    waiting (stuck), or stopped. While nobody holds the lock, what answers on the socket is
    no server of this home: its reply is waited for :data:`.client.POLL_SECONDS` only
    (:func:`.client.request`)."""
    lock = layout.global_dir / LOCK_NAME
    deadline = time.monotonic() + START_SECONDS
    while True:
        asked = time.monotonic()
        reply = request(layout, message, BUSY_SECONDS)
        if reply is not None or unreachable(layout):  # a sandbox's: no use waiting
            return reply
        holder = lock_holder(lock)
        now = time.monotonic()
        if holder is None or now >= deadline or now - asked >= BUSY_SECONDS:
            return None
        if process_stopped(named_pid(holder)):
            return None
        time.sleep(0.05)


def silent_status(layout: Layout) -> dict[str, Any]:
    """What ``skc watch --status`` shows when no find server answers: ``silent_pid`` is the
    pid of one that holds the home's lock all the same (stopped, or stuck), else None;
    ``other_listener``: whether, with nobody holding the lock, another process answers on
    the socket (no find server of this home, and none can start while it does);
    ``other_user``: the lock, when it is another user's file (a home two users share: its
    ``uid``, ``user``, and ``held`` by a process, null when that cannot be told), else
    None (:func:`.client.foreign_lock`); ``unreachable``: why this process can reach no find
    server whatever it does (a sandbox that refuses Unix sockets: :func:`.client.unreachable`),
    else None."""
    lock = layout.global_dir / LOCK_NAME
    holder = lock_holder(lock)
    foreign = foreign_lock(lock)
    sock = str(socket_path(layout))
    return {
        "running": False,
        "home": str(layout.home),
        "socket": sock,
        "silent_pid": named_pid(holder),
        "other_listener": holder is None and foreign is None and answers(sock),
        "other_user": None if foreign is None else foreign._asdict(),
        "unreachable": unreachable(layout),
    }


def stop_server(layout: Layout, timeout: float = 30.0) -> int | None:
    """Stop the find server of ``layout``'s home and wait until it is gone: its pid, None
    when none ran. FindServerError when one holds the home's lock but does not answer. One
    of another protocol version that refuses the ``stop`` is sent SIGTERM (:func:`_terminate`)."""
    reply = _ask(layout, {"op": "stop"})
    lock = layout.global_dir / LOCK_NAME
    if reply is not None and not reply.get("ok") and "other_version" in reply:
        reply = _terminate(lock, reply["pid"])  # one that refuses another version's stop
    if reply is None or not reply.get("ok"):
        holder = lock_holder(lock)
        if process_stopped(named_pid(holder)):
            raise FindServerError(
                f"the find server (pid {holder}) is stopped: it stops once resumed "
                f"('kill -CONT {holder}'), or 'kill {holder}' ends it now"
            )
        why = unreachable(layout)
        if holder is not None and why is not None:
            raise FindServerError(f"cannot reach the find server (pid {holder}): {why}")
        if holder is not None:
            raise FindServerError(f"the find server (pid {holder}) does not answer: kill it")
        foreign = foreign_lock(lock)
        if foreign is not None and foreign.held:
            raise FindServerError(f"{foreign}: only that user can stop it")
        return None
    deadline = time.monotonic() + timeout
    while lock_holder(lock) is not None:
        if time.monotonic() > deadline:
            raise FindServerError(f"the find server (pid {reply.get('pid')}) did not stop in time")
        time.sleep(0.02)
    pid = reply.get("pid")
    return pid if isinstance(pid, int) else 0


def _terminate(lock: Path, pid: int) -> dict[str, Any] | None:
    """Stop by SIGTERM (as Ctrl-C: it removes its socket) the find server ``pid`` that
    answered on this home's socket in another protocol version and refused its ``stop``
    (one older than :func:`~.protocol.other_version_reply`), once it is proven this home's
    server: the socket's peer, of this user (``SO_PEERCRED``), is the process whose pid the
    home's held lock says. The reply a ``stop`` would have had, or None when not proven."""
    import signal

    if pid <= 0 or lock_holder(lock) != str(pid):
        return None
    try:
        os.kill(pid, signal.SIGTERM)
    except OSError:
        return None
    return {"ok": True, "pid": pid}


def start_detached(layout: Layout, idle: float, timeout: float = 60.0) -> int:
    """Start a find server for ``layout``'s home in the background (a new session, stdin
    from /dev/null, its output appended to ``find.log`` in the skillc home) and wait until it
    answers: its pid. A running server of other code (``serves`` false: it answers none of
    this code's finds) is stopped first, through its socket (as ``--stop``), and replaced.
    FindServerError when one of this code runs already, another user's lock file is there
    (held, or that cannot be told: named, with its owner), another process answers on the
    socket with nobody holding the home's lock (the server would refuse it), or it does not
    start (naming the file that could not be opened)."""
    path = str(socket_path(layout))
    if not fits(path):
        raise FindServerError(too_long(path))
    running = server_status(layout)
    if running is not None and running["serves"]:
        raise FindServerError(already_runs(running.get("pid")))
    lock = layout.global_dir / LOCK_NAME
    foreign = foreign_lock(lock)
    if running is not None:
        stop_server(layout)
    elif foreign is not None and foreign.held is not False:
        raise FindServerError(f"{foreign}: {_NOT_YOURS}")
    elif lock_holder(lock) is None and answers(path):
        raise FindServerError(f"another process answers on {path}")
    log_path = layout.global_dir / LOG_NAME
    try:
        logged = log_path.stat().st_size  # what the child writes comes after
    except OSError:
        logged = 0
    try:
        child = _spawn_locked(layout, idle)
    except BlockingIOError:  # another started first (a find's, a second --detach)
        holder = lock_holder(layout.global_dir / LOCK_NAME)
        raise FindServerError(already_runs(holder or "?")) from None
    except OSError as exc:
        foreign = foreign_lock(lock)
        if isinstance(exc, PermissionError) and foreign is not None:
            raise FindServerError(f"the find server did not start: {foreign}") from None
        where = f"{exc.filename}: " if exc.filename else ""  # the home, its lock or its log
        reason = exc.strerror or str(exc)
        if exc.errno in (errno.EROFS, errno.EACCES, errno.EPERM):  # a home that is not writable
            reason += ": set SKILLC_HOME to a writable folder"
        raise FindServerError(f"the find server did not start: {where}{reason}") from None
    deadline = time.monotonic() + timeout
    while True:
        if child.poll() is not None:
            reason = _last_line(log_path, logged, child.pid)
            raise FindServerError(f"the find server did not start: {reason}")
        status = server_status(layout)
        if status is not None and status.get("pid") == child.pid:
            child.returncode = 0  # it lives on on its own: no "still running" warning
            return child.pid
        if time.monotonic() > deadline:
            raise FindServerError(f"the find server ({child.pid}) does not answer; see {log_path}")
        time.sleep(0.05)


def start_for_later(
    layout: Layout, build: Sequence[str] = (), *, serves: bool | None = None
) -> int | None:
    """Start a find server for ``layout``'s home in the background, without waiting for it,
    when one can start: Linux, a skillc home that can be written, a socket path that fits
    and is free or a socket, and the home's server lock taken here (not held by a running
    server, of this version or another, nor by another ``skc find`` starting one); the lock
    is handed to the server (``watch --lock-fd``), so that of concurrent finds one starts
    one. Its pid, or None when none was started. ``skc find`` calls it after answering a
    large library itself (:data:`AUTO_START_SKILLS`), so that the next finds are answered
    warm; the server stops after :data:`DETACHED_IDLE_SECONDS` without a query. ``build``:
    the folders (absolute) the find searched, whose skills the server indexes first.
    ``serves``: what :func:`can_serve` said of the home, when the caller asked it already
    (the find operation, once a find); else it is asked here."""
    if not (can_serve(layout) if serves is None else serves):
        return None
    try:
        child = _spawn_locked(layout, DETACHED_IDLE_SECONDS, build)
    except (OSError, FindServerError):  # held (BlockingIOError), not a file of ours, no process
        return None
    child.returncode = 0  # it lives on on its own: no "still running" warning
    return child.pid


def can_serve(layout: Layout) -> bool:
    """Whether a find server can start, or runs, for ``layout``'s home: Linux, a skillc home
    that can be written (or made: a first find asks before it makes it), a socket path that
    fits and is free or a socket (a file in its place: a server would refuse it), whose
    server did not refuse this process's find as other code (one started before an upgrade:
    it builds nothing for this code, and holds the lock a new one would take), and a process
    that may listen on a Unix socket in the socket's folder (:func:`_may_listen`: not in a
    sandbox that refuses them, asked last). When not,
    nobody but the process that finds builds the catalog
    (:func:`~skillc_gateway.catalog.find_skills`)."""
    import sys

    from skillc_index.atomic import nearest_existing
    from skillc_index.layout import in_no_home

    home, sock = layout.global_dir, socket_path(layout)
    if in_no_home(home):  # nothing is made there (root could): no lock, log or socket
        return False
    try:
        made = nearest_existing(home)  # where the home's folders would be made
    except OSError:
        return False
    if not sys.platform.startswith("linux") or not os.access(made, os.W_OK | os.X_OK):
        return False
    if not fits(str(sock)):
        return False
    try:
        if not stat.S_ISSOCK(os.lstat(sock).st_mode):
            return False
    except FileNotFoundError:
        return _may_listen(sock.parent if sock.parent.is_dir() else made)
    except OSError:
        return False
    # as .client.ask found this socket's server
    return not refused_as_other_code(layout) and _may_listen(sock.parent)


def _may_listen(folder: Path) -> bool:
    """Whether this process, and so a server it starts, may listen on a Unix socket in
    ``folder`` (the socket's, or the nearest that exists of a home not made yet): one made,
    bound to a path there (a name no longer than the socket's, of this process's id) and
    removed, then closed, about 50 µs. A sandbox may refuse it (``socket`` or ``bind``:
    :func:`~skillc_gateway.find_socket.refused`; a socket file in the home: Landlock, a
    read-only bind mount, where an address of Linux's abstract namespace, no file, was let
    through): a server started there would die at once, each find starting another; asked
    only when a find would start one."""
    import _socket
    import contextlib

    probe_path = str(folder / f".{os.getpid():x}.p")  # fits where find.sock fits
    try:
        probe = _socket.socket(_socket.AF_UNIX, _socket.SOCK_STREAM)
    except OSError:
        return False
    try:
        probe.bind(probe_path)
    except OSError as exc:  # in use: a probe of a process killed with this id, not removed
        return exc.errno == errno.EADDRINUSE
    else:
        with contextlib.suppress(OSError):
            os.unlink(probe_path)  # the one this probe made  # noqa: PTH108
    finally:
        probe.close()
    return True


def _spawn_locked(
    layout: Layout, idle: float, build: Sequence[str] = ()
) -> subprocess.Popen[bytes]:
    """:func:`_spawn` holding the home's find-server lock, taken here and handed over (``watch
    --lock-fd``) with the server's pid written in it at once (the server writes it again when
    it opens): from before the server starts, a client asking (``lock_holder``, ``--stop``,
    ``--status``) finds it held and knows the server by its pid, and no probe of a client
    holds it at the instant the server would take it (one did: E060 "already runs", with the
    pid an earlier server left in the file). The file is emptied as it is taken, before the
    process is made: until its pid is written, a client reads none (``?``), never the pid
    an earlier server left there (another process's by now: ``--stop`` said "the find
    server (pid N) does not answer: kill it" of it). BlockingIOError when it is held already (a
    server runs or starts), OSError when it cannot be opened or no process made,
    FindServerError when it or the log is not a regular file (:func:`.protocol.open_home_file`)
    or another program holds it shared too long (:func:`.client.claim_lock`)."""
    import contextlib

    layout.global_dir.mkdir(parents=True, exist_ok=True)
    path = layout.global_dir / LOCK_NAME
    lock = open_home_file(path, os.O_RDWR | os.O_CREAT)
    try:
        claim_lock(lock, path)  # a client's probe holding it an instant is waited for
        with contextlib.suppress(OSError):
            os.ftruncate(lock, 0)  # held: no earlier server's pid is read meanwhile
        child = _spawn(layout, idle, lock, build)
        with contextlib.suppress(OSError):  # over nothing, or the same pid the server wrote
            os.pwrite(lock, f"{child.pid}\n".encode(), 0)
    finally:
        os.close(lock)  # the server holds it now, through the same open file
    return child


def _spawn(layout: Layout, idle: float, lock: int, build: Sequence[str]) -> subprocess.Popen[bytes]:
    """``skc watch --idle IDLE`` for ``layout``'s home (its folder made by the caller), in a
    new session of its own (stdin from /dev/null, its output appended to ``find.log`` in the
    skillc home, working in ``/``: ``python -m`` puts its working directory first on the
    module path), handed the home's server ``lock`` (:func:`_spawn_locked`). OSError when the
    log cannot be opened or the process not made, FindServerError when it is not a regular
    file."""
    import subprocess
    import sys

    kept = _bound_log(layout.global_dir / LOG_NAME)
    log = open_home_file(layout.global_dir / LOG_NAME, os.O_WRONLY | os.O_CREAT | os.O_APPEND)
    if kept:  # said in the log itself, once for the server to come
        from skillc_index.clock import utc_now

        os.write(log, f"{utc_now()} skc find[{os.getpid()}]: {kept}\n".encode())
    argv = [sys.executable, "-m", "skillc_gateway", "watch", "--idle", f"{idle:g}"]
    argv += ["--lock-fd", str(lock)]
    for folder in build:  # built first (it answered from their files)
        argv += ["--build", folder]
    try:
        child = subprocess.Popen(
            argv,
            stdin=subprocess.DEVNULL,
            stdout=log,
            stderr=log,
            cwd="/",
            env={**os.environ, "SKILLC_HOME": str(layout.home), "PYTHONSAFEPATH": "1"},
            start_new_session=True,
            pass_fds=(lock,),
        )
    finally:
        os.close(log)
    return child


def _bound_log(path: Path) -> str:
    """Past :data:`MAX_LOG_BYTES`, move the log ``path`` to ``<path>.1`` (the one before
    dropped) before a server appends to it (it grew without end: a line for each client that
    hangs up). So each of the two holds what was there under :data:`MAX_LOG_BYTES` plus
    what one server wrote (:data:`.server.LOG_LINES` lines of at most
    :data:`.server.LOG_LINE_CHARS` characters, about 1 MB, and a few of its stop; the lines
    of the ``skc watch`` in the foreground go to its stderr, not there). Only regular files
    are moved or replaced (a symlink, a FIFO there is left: :func:`.protocol.open_home_file`
    refuses it): why the log past its bound was not moved aside, for the caller to log
    (the bound is off until it is fixed); "" otherwise."""
    older = Path(f"{path}.1")
    why = f"{path} is past {MAX_LOG_BYTES:,} bytes and not moved aside"
    try:
        found = os.lstat(path)
        if not stat.S_ISREG(found.st_mode) or found.st_size <= MAX_LOG_BYTES:
            return ""
        try:
            if not stat.S_ISREG(os.lstat(older).st_mode):
                return f"{why}: {older} is no regular file (remove it)"
        except FileNotFoundError:
            pass
        path.replace(older)
    except FileNotFoundError:
        return ""  # no log yet (or moved meanwhile)
    except OSError as exc:
        return f"{why}: {exc.strerror or exc}"
    return ""


def _last_line(path: Path, start: int, pid: int) -> str:
    """The last line process ``pid`` wrote to the log at ``path`` (shared by every server of
    the home) from byte ``start`` on: another server's lines (``<time> skc watch[<its
    pid>]: ...``) are not its. Without the ``error[E060]: find server: `` the message it is
    quoted in says again."""
    import re

    try:
        with path.open("rb") as handle:
            size = os.fstat(handle.fileno()).st_size
            handle.seek(start if start <= size else 0)  # moved aside since (:func:`_bound_log`)
            text = handle.read().decode("utf-8", errors="replace")
    except OSError:
        return "no log"
    other = re.compile(r"\S+ skc (?:watch|find)\[(\d+)\]: ")  # find: _spawn's note
    lines = [
        line
        for line in text.strip().splitlines()
        if (match := other.match(line)) is None or match.group(1) == str(pid)
    ]
    return re.sub(r"^error\[E\d+\]: (find server: )?", "", lines[-1]) if lines else "no output"
