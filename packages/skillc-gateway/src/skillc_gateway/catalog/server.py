"""The find server (``skc watch``) and its client (what ``skc find`` asks first).

A new ``skc find`` process pays, before it answers, for importing the catalog machinery and
for looking at every searched folder again (about 50,000 stats at 20,000 skills). The find
server is one long-running process per skillc home that keeps a :class:`~.engine.Catalog`
warm (with its change watcher: nothing is looked at again while nothing changed) and answers
``skc find`` over a Unix socket in the skillc home, ``.skillc/find.sock``; it is optional, as
git's fsmonitor daemon is. The answer is the one the client would compute itself: the client
sends everything it depends on (the query, the limit, the folders it computed to search, its
working directory's layout) and the server runs :meth:`Catalog.find
<skillc_gateway.catalog.engine.Catalog.find>` on them (a server of another skillc-gateway
version refuses: the client answers itself). Freshness is the same as in process:
the watcher reads the kernel's queue at each query, so a change finished before the request
was sent is seen.

Protocol: one request per connection, a JSON object of at most :data:`MAX_REQUEST_BYTES`
(the client then shuts its side down), one JSON reply, then the server closes. Every request
and reply carries ``version`` (:data:`PROTOCOL`); ``op`` is ``find``, ``status`` or ``stop``.
Nothing in a request is ever executed: it names folders to read and words to rank. The
socket is created mode 0600 under a restrictive umask, and the server answers only peers of
its own user (``SO_PEERCRED``); the client uses only a socket that is ours, 0600, and served
by a process of ours. Requests are answered one at a time.

The client half (:func:`ask`) is on ``skc find``'s path: this module imports only the
standard library at module level (``_socket``, not :mod:`socket`, which costs more), and the
engine only where the server runs.
"""

from __future__ import annotations

import json
import os
import stat
import time
from collections.abc import Callable, Sequence
from pathlib import Path
from typing import TYPE_CHECKING, Any

from skillc_gateway.catalog import (
    BUDGET_SECONDS,
    FINISH_WITHIN,
    FindResult,
    FoundSkill,
    SectionHit,
)
from skillc_index import Diagnostic, FindServerError, Layout, Notice, loads_bounded

if TYPE_CHECKING:
    import socket
    import subprocess

    from skillc_index.installed import Root

__all__ = [
    "MAX_REQUEST_BYTES",
    "PROTOCOL",
    "FindServer",
    "ask",
    "request",
    "server_status",
    "silent_status",
    "socket_path",
    "start_detached",
    "start_for_later",
    "stop_server",
    "usable",
]

#: The version of the request and reply format; a server answers only its own.
PROTOCOL = 1
SOCKET_NAME = "find.sock"
LOCK_NAME = "find.lock"
LOG_NAME = "find.log"
#: A longer request is refused (the longest real one: a 10,000-character query, 256 roots).
MAX_REQUEST_BYTES = 256 * 1024
#: The most folders one request may name (``--path`` allows 16; what is installed, a few
#: dozen agent and plugin folders).
MAX_ROOTS = 256
#: A reply is at most this long (100 skills, each with its sections and duplicates).
MAX_REPLY_BYTES = 64 * 1024 * 1024
#: ``sun_path`` holds 108 bytes, the last a NUL.
MAX_SOCKET_PATH = 107
#: The client gives up connecting after this long (a server that does not accept is stuck).
CONNECT_SECONDS = 0.5
#: While it waits for a reply, the client looks this often whether the server's process is
#: stopped (Ctrl-Z, SIGSTOP, a debugger): then it answers itself at once.
POLL_SECONDS = 0.25
#: On top of the longest the catalog indexes for (its time budget, stretched to finish), for
#: the reply to arrive.
ANSWER_MARGIN_SECONDS = 5.0
#: The longest a server answering a find (one at a time) may keep another request waiting.
_BUSY_SECONDS = BUDGET_SECONDS * FINISH_WITHIN + ANSWER_MARGIN_SECONDS
#: A connection that sends nothing for this long is dropped.
READ_SECONDS = 5.0
#: ``skc watch --detach`` exits after this long without a query, unless told otherwise; so
#: does a server ``skc find`` started.
DETACHED_IDLE_SECONDS = 3600
#: ``skc find`` starts a find server when it answered itself, whole, over this many skills
#: or more (about 10 ms of stats a thousand skills: below it, a process of its own pays
#: little for looking at every folder again), unless ``$SKILLC_FIND_SERVER`` turns it off
#: (:func:`~skillc_gateway.catalog.switched_off`).
AUTO_START_SKILLS = 1000
#: The root folders ``--status`` lists (the most recently asked about).
STATUS_ROOTS = 100
_ROOT_KINDS = frozenset({"store", "agent", "plugin", "path"})
_SCOPES = frozenset({"project", "global"})


def socket_path(layout: Layout) -> Path:
    """Where the find server of ``layout``'s skillc home listens."""
    return layout.global_dir / SOCKET_NAME


# -- the client ------------------------------------------------------------------------------


def ask(
    layout: Layout, query: str, limit: int, roots: Sequence[Root], budget: float
) -> FindResult | None:
    """The find server's answer, or None when there is none to be had: no server, a socket
    that is not ours, a server that does not answer in time (then it is not asked again by
    this process) or answers something else."""
    from skillc_gateway import __version__
    from skillc_gateway.catalog import switched_off

    where = _askable(layout)
    if where is None:
        return None
    message = {
        "op": "find",
        "skillc_gateway": __version__,
        "home": str(layout.home),
        "cwd": str(layout.cwd),
        "project_root": None if layout.project_root is None else str(layout.project_root),
        "query": query,
        "limit": limit,
        "budget": budget,
        # the semantic step as this process's environment wants it (the server's may differ)
        "semantic": not switched_off("SKILLC_FIND_SEMANTIC"),
        "roots": [[str(root.path), root.kind, root.scope] for root in roots],
    }
    timeout = budget * FINISH_WITHIN + ANSWER_MARGIN_SECONDS
    started = time.monotonic()
    reply = request(layout, message, timeout)
    if reply is None:
        _silent.add(where)
        if time.monotonic() - started >= timeout:  # it kept this process waiting: stuck
            _mark_silent(*where)
        return None
    if not reply.get("ok"):
        return None
    try:
        return decode_result(reply["result"])
    except (KeyError, TypeError, ValueError):
        return None


def usable(layout: Layout) -> bool:
    """Whether :func:`ask` may ask the find server of ``layout``'s home: its socket is one a
    server of ours made, and that server has not failed to answer this process."""
    return _askable(layout) is not None


def _askable(layout: Layout) -> tuple[str, tuple[int, int]] | None:
    """The find server's socket (path and stamp) when :func:`ask` may ask it, else None."""
    path = str(socket_path(layout))
    stamp = _socket_stamp(path)
    if stamp is None or (path, stamp) in _silent:
        return None
    if _marked_silent(path, stamp):
        _silent.add((path, stamp))
        return None
    return path, stamp


#: A server that kept a client waiting its whole time is not asked by other processes either
#: for this long (``<socket>.silent`` records its socket's stamp): a stuck server would cost
#: every ``skc find`` its wait. Once answering again, the server removes the record.
SILENT_SECONDS = 300.0


def _marked_silent(path: str, stamp: tuple[int, int]) -> bool:
    try:
        with open(f"{path}.silent", "rb") as file:
            ino, ctime, since = file.read(128).split()
        marked = (int(ino), int(ctime)) == stamp
        return marked and 0 <= time.time() - float(since) < SILENT_SECONDS
    except (OSError, ValueError):
        return False


def _mark_silent(path: str, stamp: tuple[int, int]) -> None:
    """Record that the server of the socket ``path`` (``stamp``) did not answer in time."""
    import contextlib

    staged = Path(f"{path}.silent.{os.getpid()}")
    try:
        with staged.open("x", encoding="ascii") as file:
            file.write(f"{stamp[0]} {stamp[1]} {int(time.time())}\n")
        staged.replace(f"{path}.silent")
    except OSError:
        with contextlib.suppress(OSError):
            staged.unlink()


def request(layout: Layout, message: dict[str, Any], timeout: float) -> dict[str, Any] | None:
    """Send ``message`` to the find server of ``layout``'s home; its reply, or None (no
    usable server, no reply of this protocol within ``timeout`` seconds, or a server whose
    process is stopped)."""
    import _socket

    path = str(socket_path(layout))
    if _socket_stamp(path) is None:
        return None
    data = json.dumps({"version": PROTOCOL, **message}).encode()
    sock = _socket.socket(_socket.AF_UNIX, _socket.SOCK_STREAM)
    try:
        sock.settimeout(CONNECT_SECONDS)
        sock.connect(path)
        pid, uid = _peer(sock)
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
                if _stopped(pid):
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
    if not isinstance(reply, dict) or reply.get("version") != PROTOCOL:
        return None
    return reply


#: The sockets (path, inode and ctime) whose server did not answer a find of this process,
#: which does not ask them again: ``skc find``'s quick path and its click command would each
#: wait for a stuck server. A server started since has a socket of its own.
_silent: set[tuple[str, tuple[int, int]]] = set()


def _socket_stamp(path: str) -> tuple[int, int] | None:
    """The inode and ctime of ``path`` when it is a socket a find server of ours made (ours
    and mode 0600, not a link; a length a socket can have), else None."""
    if not _fits(path):
        return None
    try:
        st = os.lstat(path)
    except OSError:
        return None
    usable = stat.S_ISSOCK(st.st_mode) and st.st_uid == os.getuid() and not st.st_mode & 0o077
    return (st.st_ino, st.st_ctime_ns) if usable else None


def _stopped(pid: int) -> bool:
    """Whether the process ``pid`` is stopped (``T``, or ``t`` under a debugger) and so
    answers nothing until it is resumed; False when that cannot be told."""
    try:
        with open(f"/proc/{pid}/stat", "rb") as file:
            state = file.read(4096).rpartition(b")")[2].split()[:1]
    except OSError:
        return False
    return state in ([b"T"], [b"t"])


def _peer(sock: Any) -> tuple[int, int]:
    """The process id and user id at the other end of a Unix socket ((-1, -1): unknown)."""
    import _socket
    import struct

    option = getattr(_socket, "SO_PEERCRED", None)
    if option is None:  # not Linux: no server either (see FindServer)
        return -1, -1
    credentials = sock.getsockopt(_socket.SOL_SOCKET, option, struct.calcsize("3i"))
    pid, uid, _gid = struct.unpack("3i", credentials)
    return int(pid), int(uid)


# -- the answer on the wire --------------------------------------------------------------------


def encode_result(result: FindResult) -> dict[str, Any]:
    """``result`` as JSON values, every field kept (``to_dict`` rounds the score and leaves
    out ``in_store``, which the text output needs)."""
    return {
        "query": result.query,
        "skills": [
            [
                skill.name,
                skill.description,
                skill.path,
                list(skill.deployed_to),
                skill.score,
                [list(section) for section in skill.sections],
                list(skill.duplicates),
                skill.in_store,
            ]
            for skill in result.skills
        ],
        "searched": result.searched,
        "skipped": result.skipped,
        "partial": result.partial,
        "ranker": result.ranker,
        "warnings": [
            {"text": warning.text, "level": warning.level}
            if isinstance(warning, Notice)
            else {"code": warning.code, "params": dict(warning.params), "detail": warning.detail}
            for warning in result.warnings
        ],
    }


def decode_result(data: dict[str, Any]) -> FindResult:
    """The :class:`FindResult` :func:`encode_result` wrote (TypeError, ValueError or
    KeyError for anything else)."""
    skills = tuple(
        FoundSkill(
            name=_string(name),
            description=_string(description),
            path=_string(path),
            deployed_to=tuple(_string(item) for item in deployed),
            score=float(score),
            sections=tuple(
                SectionHit(_string(file), _string(heading), _integer(line))
                for file, heading, line in sections
            ),
            duplicates=tuple(_string(item) for item in duplicates),
            in_store=_boolean(in_store),
        )
        for name, description, path, deployed, score, sections, duplicates, in_store in data[
            "skills"
        ]
    )
    warnings: list[Diagnostic | Notice] = []
    for warning in data["warnings"]:
        if "code" in warning:
            params = {_string(key): _string(value) for key, value in warning["params"].items()}
            code, detail = _string(warning["code"]), _string(warning["detail"])
            warnings.append(Diagnostic(code, params, detail))
        else:
            level = warning["level"]
            if level not in ("warning", "info", "error"):
                raise ValueError(level)
            warnings.append(Notice(_string(warning["text"]), level))
    return FindResult(
        query=_string(data["query"]),
        skills=skills,
        searched=_integer(data["searched"]),
        skipped=_integer(data["skipped"]),
        partial=_boolean(data["partial"]),
        warnings=tuple(warnings),
        ranker=_string(data["ranker"]),
    )


def _string(value: object) -> str:
    if not isinstance(value, str):
        raise TypeError(value)
    return value


def _integer(value: object) -> int:
    if not isinstance(value, int) or isinstance(value, bool):
        raise TypeError(value)
    return value


def _boolean(value: object) -> bool:
    if not isinstance(value, bool):
        raise TypeError(value)
    return value


# -- the server --------------------------------------------------------------------------------


class _BadRequest(Exception):
    pass


class FindServer:
    """One find server for ``layout``'s skillc home (see the module): :meth:`open` takes the
    home's server lock and listens, :meth:`serve` answers until stopped (:meth:`stop`, a
    ``stop`` request, SIGTERM or SIGINT) or ``idle`` seconds without a query (0: never),
    :meth:`close` removes the socket (its own only) and frees the lock. ``log`` receives
    one line per event worth keeping (start, refused peers, failures, stop)."""

    def __init__(
        self,
        layout: Layout,
        *,
        idle: float = 0,
        configured: dict[str, str] | None = None,
        log: Callable[[str], None] = lambda line: None,
        lock_fd: int | None = None,
    ) -> None:
        self.layout = layout
        self.lock_fd = lock_fd  # the home's lock, taken for this server by skc find
        self.path = socket_path(layout)
        self.idle = idle
        self.configured = configured
        self.log = log
        self.since = time.time()
        self.queries = 0
        self.find_seconds = 0.0  # spent in Catalog.find, all queries
        self.roots: dict[str, None] = {}  # the folders asked about, most recent last
        self._last = time.monotonic()
        self._stopping = False
        self._refused: set[str] = set()  # the bad requests logged (each said once)
        self._wake: int | None = None  # written to wake serve() up
        self._lock: int | None = None
        self._listener: socket.socket | None = None
        self._identity: tuple[int, int] | None = None  # the socket file we made

    # -- starting and stopping -----------------------------------------------------------------

    def open(self) -> None:
        """Take the lock of the home's find server and listen on its socket (a socket left
        by a server that died is replaced). Raises :class:`FindServerError`."""
        import socket

        if not hasattr(socket, "SO_PEERCRED"):
            raise FindServerError("the find server needs Linux (it checks its peers' user id)")
        path = str(self.path)
        if not _fits(path):
            raise FindServerError(_too_long(path))
        self.path.parent.mkdir(parents=True, exist_ok=True)
        lock = self.path.parent / LOCK_NAME
        self._lock = _take_lock(lock) if self.lock_fd is None else _adopt_lock(lock, self.lock_fd)
        try:
            self._listen(path)
        except BaseException:
            self.close()
            raise

    def _listen(self, path: str) -> None:
        import socket

        try:
            st = os.lstat(path)
        except FileNotFoundError:
            pass
        else:
            if not stat.S_ISSOCK(st.st_mode):
                raise FindServerError(f"{path} exists and is not a socket: remove it first")
            if _answers(path):
                raise FindServerError(f"another process answers on {path}")
            Path(path).unlink()  # left by a server that died: nobody answers on it
        listener = socket.socket(socket.AF_UNIX, socket.SOCK_STREAM)
        old = os.umask(0o177)
        try:
            listener.bind(path)
        except OSError as exc:
            listener.close()
            raise FindServerError(f"cannot listen on {path}: {exc.strerror or exc}") from None
        finally:
            os.umask(old)
        os.chmod(path, 0o600)  # noqa: PTH101 - the umask made it so; said twice
        st = os.lstat(path)
        self._identity = (st.st_dev, st.st_ino)
        listener.listen(16)
        self._listener = listener

    def close(self) -> None:
        """Stop listening; remove the socket if it is still the one this server made."""
        if self._listener is not None:
            self._listener.close()
            self._listener = None
        if self._identity is not None:
            try:
                st = os.lstat(self.path)
                if (st.st_dev, st.st_ino) == self._identity:
                    self.path.unlink()
            except OSError:
                pass
            self._identity = None
        if self._lock is not None:
            os.close(self._lock)  # frees the lock
            self._lock = None

    def stop(self) -> None:
        """Ask :meth:`serve` to return (from a signal handler or another thread too)."""
        self._stopping = True
        wake = self._wake
        if wake is not None:
            from contextlib import suppress

            with suppress(OSError):  # full: it is awake already
                os.write(wake, b"\0")

    # -- serving -------------------------------------------------------------------------------

    def _warm_up(self) -> None:
        """Import the engine, open the catalog and make a first pass over what is
        installed (as seen from the server's own layout), so that the first query finds them
        ready. A failure is logged: queries make their own passes."""
        from skillc_gateway.catalog import find_roots
        from skillc_gateway.catalog.engine import Catalog
        from skillc_index.installed import routing_roots

        try:
            roots = find_roots(self.layout, routing_roots(), self.configured)
            Catalog.shared(self.layout).find("warm up", roots, 1)
        except Exception as exc:
            self.log(f"warming up failed: {type(exc).__name__}: {exc}")

    def serve(self) -> None:
        """Warm up, then answer requests, one at a time, until stopped or
        idle (see the class)."""
        import select
        import signal

        listener = self._listener
        if listener is None:
            raise RuntimeError("serve() before open()")
        wake_read, wake_write = os.pipe()
        os.set_blocking(wake_read, False)
        os.set_blocking(wake_write, False)
        self._wake = wake_write
        handlers: dict[signal.Signals, Any] = {}
        previous_wakeup: int | None = None
        try:
            previous_wakeup = signal.set_wakeup_fd(wake_write)
            for number in (signal.SIGTERM, signal.SIGINT):
                if signal.getsignal(number) is not signal.SIG_IGN:  # nohup, `cmd &` keep it
                    handlers[number] = signal.signal(number, lambda *_: self.stop())
        except ValueError:  # not the main thread: stop() and idle only
            pass
        try:
            self._warm_up()
            self.log(
                "ready" + (f"; stops after {self.idle:g} s without a query" if self.idle else "")
            )
            self._last = time.monotonic()
            while not self._stopping:
                timeout = None
                if self.idle:
                    timeout = self._last + self.idle - time.monotonic()
                    if timeout <= 0:
                        self.log(f"no query for {self.idle:g} s: stopping")
                        break
                ready, _, _ = select.select([listener.fileno(), wake_read], [], [], timeout)
                if wake_read in ready:
                    while True:
                        try:
                            if not os.read(wake_read, 512):
                                break
                        except BlockingIOError:
                            break
                if listener.fileno() in ready and not self._stopping:
                    try:
                        connection, _ = listener.accept()
                    except OSError:
                        continue
                    with connection:
                        self._answer(connection)
        finally:
            for number, handler in handlers.items():
                signal.signal(number, handler)
            if previous_wakeup is not None:
                signal.set_wakeup_fd(previous_wakeup)
            self._wake = None
            os.close(wake_read)
            os.close(wake_write)

    def _answer(self, connection: socket.socket) -> None:
        pid = 0
        try:
            pid, uid = _peer(connection)
            if uid != os.getuid():
                self.log(f"refused a connection from user {uid} (pid {pid})")
                return
            connection.settimeout(READ_SECONDS)
            reply = self._reply(_read(connection), connection)
            connection.sendall(json.dumps({"version": PROTOCOL, **reply}).encode())
        except OSError as exc:
            self.log(f"a client (pid {pid}) went away: {exc}")
        else:  # answering: a record that this server did not answer (_mark_silent) goes
            import contextlib

            with contextlib.suppress(OSError):
                self.path.with_name(f"{self.path.name}.silent").unlink(missing_ok=True)

    def _reply(self, data: bytes | None, connection: socket.socket) -> dict[str, Any]:
        try:
            if data is None:
                raise _BadRequest(f"the request is longer than {MAX_REQUEST_BYTES} bytes")
            try:
                message = loads_bounded(data, max_bytes=MAX_REQUEST_BYTES)
            except ValueError:
                raise _BadRequest("the request is not JSON") from None
            if not isinstance(message, dict) or message.get("version") != PROTOCOL:
                raise _BadRequest(f"this server speaks version {PROTOCOL} only")
            op = message.get("op")
            if op == "find" and _hung_up(connection):  # it gave up waiting (we were stopped)
                return {"ok": False, "error": "the client is gone"}
            if op == "find":
                return {"ok": True, "result": encode_result(self._find(message))}
            if op == "status":
                return {"ok": True, "status": self.status()}
            if op == "stop":
                self.log("stop requested")
                self.stop()
                return {"ok": True, "pid": os.getpid()}
            raise _BadRequest(f"unknown op {op!r}")
        except _BadRequest as exc:
            if str(exc) not in self._refused and len(self._refused) < 100:
                self._refused.add(str(exc))  # a client of another version asks on and on
                self.log(f"bad request: {exc} (said once)")
            return {"ok": False, "error": str(exc)}
        except Exception as exc:  # the client answers in process; the server goes on
            self.log(f"find failed: {type(exc).__name__}: {exc}")
            return {"ok": False, "error": f"{type(exc).__name__}: {exc}"}

    def _find(self, message: dict[str, Any]) -> FindResult:
        from skillc_gateway import __version__
        from skillc_gateway._limits import limit_fits, query_fits
        from skillc_gateway.catalog.engine import Catalog
        from skillc_index.installed import Root

        if message.get("skillc_gateway") != __version__:  # the server runs what was installed
            raise _BadRequest(f"this server runs skillc-gateway {__version__}: restart it")
        if message.get("home") != str(self.layout.home):
            raise _BadRequest(f"this server serves the skillc home {self.layout.home}")
        query, limit, budget = message.get("query"), message.get("limit"), message.get("budget")
        if not query_fits(query):
            raise _BadRequest("bad query")
        if not limit_fits(limit):
            raise _BadRequest("bad limit")
        if not isinstance(budget, int | float) or not 0 < budget <= BUDGET_SECONDS:
            raise _BadRequest("bad budget")
        semantic = message.get("semantic")
        if not isinstance(semantic, bool):
            raise _BadRequest("bad semantic")
        cwd, project = message.get("cwd"), message.get("project_root")
        if not _absolute(cwd) or not (project is None or _absolute(project)):
            raise _BadRequest("bad layout")
        given = message.get("roots")
        if not isinstance(given, list) or len(given) > MAX_ROOTS:
            raise _BadRequest("bad roots")
        roots: list[Root] = []
        for item in given:
            if not (
                isinstance(item, list)
                and len(item) == 3
                and _absolute(item[0])
                and item[1] in _ROOT_KINDS
                and (item[2] is None or item[2] in _SCOPES)
            ):
                raise _BadRequest("bad roots")
            roots.append(Root(Path(item[0]), item[1], item[2]))
        project_root = None if project is None else Path(project)
        layout = Layout(Path(str(cwd)), self.layout.home, project_root)
        start = time.perf_counter()
        result = Catalog.shared(layout).find(
            query, roots, limit, budget=float(budget), semantic=semantic
        )
        self._last = time.monotonic()
        self.find_seconds += time.perf_counter() - start
        self.queries += 1
        for root in roots:
            self.roots.pop(str(root.path), None)
            self.roots[str(root.path)] = None
        while len(self.roots) > STATUS_ROOTS:
            del self.roots[next(iter(self.roots))]
        return result

    def status(self) -> dict[str, Any]:
        """What ``skc watch --status`` shows."""
        from skillc_gateway import __version__
        from skillc_gateway.catalog import rank
        from skillc_gateway.catalog.engine import Catalog

        watches = Catalog.shared(self.layout).watches()
        return {
            "running": True,
            "pid": os.getpid(),
            "version": __version__,
            "since": self.since,
            "home": str(self.layout.home),
            "socket": str(self.path),
            "queries": self.queries,
            "find_seconds": round(self.find_seconds, 6),
            "idle": self.idle,
            "roots": list(self.roots),
            "watches": None if watches is None else watches[0],
            "watch_budget": None if watches is None else watches[1],
            "ranker": rank.ranker(True),  # for a client that wants the semantic step
        }


def _fits(path: str) -> bool:
    """Whether a socket can have ``path``: ``sun_path`` holds :data:`MAX_SOCKET_PATH` bytes."""
    return len(os.fsencode(path)) <= MAX_SOCKET_PATH


def _too_long(path: str) -> str:
    return (
        f"the socket path {path} is {len(os.fsencode(path))} bytes long; a Unix socket's "
        f"path holds at most {MAX_SOCKET_PATH}: set SKILLC_HOME to a shorter folder"
    )


def _take_lock(path: Path) -> int:
    """The home's find-server lock (held while the server runs); FindServerError when another
    server holds it."""
    import fcntl

    try:
        fd = os.open(path, os.O_RDWR | os.O_CREAT | os.O_CLOEXEC, 0o600)
    except OSError as exc:
        raise FindServerError(f"cannot open {path}: {exc.strerror or exc}") from None
    try:
        fcntl.flock(fd, fcntl.LOCK_EX | fcntl.LOCK_NB)
    except BlockingIOError:
        holder = os.read(fd, 32).decode(errors="replace").strip()
        os.close(fd)
        raise FindServerError(
            f"a find server already runs for this skillc home (pid {holder or '?'}); "
            "'skc watch --stop' stops it"
        ) from None
    os.ftruncate(fd, 0)
    os.write(fd, f"{os.getpid()}\n".encode())
    return fd


def _adopt_lock(path: Path, fd: int) -> int:
    """The home's find-server lock ``path``, taken for this server by the ``skc find`` that
    started it and inherited as ``fd``: checked to be that file and held, then marked with
    this pid. FindServerError otherwise."""
    import fcntl

    try:
        held, named = os.fstat(fd), path.stat()
        if (held.st_dev, held.st_ino) != (named.st_dev, named.st_ino):
            raise FindServerError(f"--lock-fd {fd} is not {path}")
        fcntl.flock(fd, fcntl.LOCK_EX | fcntl.LOCK_NB)  # held already by this open file
    except OSError as exc:
        raise FindServerError(f"--lock-fd {fd}: {exc.strerror or exc}") from None
    os.set_inheritable(fd, False)
    os.ftruncate(fd, 0)
    os.write(fd, f"{os.getpid()}\n".encode())
    return fd


def _answers(path: str) -> bool:
    """Whether some process accepts connections on the socket ``path``."""
    import socket

    with socket.socket(socket.AF_UNIX, socket.SOCK_STREAM) as probe:
        probe.settimeout(CONNECT_SECONDS)
        try:
            probe.connect(path)
        except OSError:
            return False
    return True


def _read(connection: socket.socket) -> bytes | None:
    """The request: everything up to the client's shutdown; None past the size limit."""
    chunks: list[bytes] = []
    size = 0
    while True:
        chunk = connection.recv(1 << 16)
        if not chunk:
            return b"".join(chunks)
        size += len(chunk)
        if size > MAX_REQUEST_BYTES:
            return None
        chunks.append(chunk)


def _hung_up(connection: socket.socket) -> bool:
    """Whether the client closed its end (it shuts down only its writing side to send)."""
    import select

    poller = select.poll()
    poller.register(connection.fileno(), select.POLLIN)
    return any(events & select.POLLHUP for _, events in poller.poll(0))


def _absolute(value: object) -> bool:
    return isinstance(value, str) and value.startswith("/") and "\0" not in value


# -- managing the server (skc watch --detach / --stop / --status) -------------------------------


def server_status(layout: Layout) -> dict[str, Any] | None:
    """What the find server of ``layout``'s home says of itself, or None when none answers."""
    reply = request(layout, {"op": "status"}, _BUSY_SECONDS)
    status = None if reply is None else reply.get("status")
    return status if isinstance(status, dict) else None


def silent_status(layout: Layout) -> dict[str, Any]:
    """What ``skc watch --status`` shows when no find server answers: ``silent_pid`` is the
    pid of one that holds the home's lock all the same (stopped, or stuck), else None."""
    holder = _lock_holder(layout.global_dir / LOCK_NAME)
    return {
        "running": False,
        "home": str(layout.home),
        "socket": str(socket_path(layout)),
        "silent_pid": int(holder) if holder is not None and holder.isdigit() else None,
    }


def stop_server(layout: Layout, timeout: float = 30.0) -> int | None:
    """Stop the find server of ``layout``'s home and wait until it is gone: its pid, None
    when none ran. FindServerError when one holds the home's lock but does not answer."""
    reply = request(layout, {"op": "stop"}, _BUSY_SECONDS)
    lock = layout.global_dir / LOCK_NAME
    if reply is None or not reply.get("ok"):
        holder = _lock_holder(lock)
        if holder is not None and holder.isdigit() and _stopped(int(holder)):
            raise FindServerError(
                f"the find server (pid {holder}) is stopped: it stops once resumed "
                f"('kill -CONT {holder}'), or 'kill {holder}' ends it now"
            )
        if holder is not None:
            raise FindServerError(f"the find server (pid {holder}) does not answer: kill it")
        return None
    deadline = time.monotonic() + timeout
    while _lock_holder(lock) is not None:
        if time.monotonic() > deadline:
            raise FindServerError(f"the find server (pid {reply.get('pid')}) did not stop in time")
        time.sleep(0.02)
    pid = reply.get("pid")
    return pid if isinstance(pid, int) else 0


def start_detached(layout: Layout, idle: float, timeout: float = 60.0) -> int:
    """Start a find server for ``layout``'s home in the background (a new session, stdin
    from /dev/null, its output appended to ``find.log`` in the skillc home) and wait until it
    answers: its pid. FindServerError when one runs already or it does not start."""
    path = str(socket_path(layout))
    if not _fits(path):
        raise FindServerError(_too_long(path))
    running = server_status(layout)
    if running is not None:
        raise FindServerError(
            f"a find server already runs for this skillc home (pid {running.get('pid')}); "
            "'skc watch --stop' stops it"
        )
    child = _spawn(layout, idle)
    log_path = layout.global_dir / LOG_NAME
    deadline = time.monotonic() + timeout
    while True:
        if child.poll() is not None:
            raise FindServerError(f"the find server did not start: {_last_line(log_path)}")
        status = server_status(layout)
        if status is not None and status.get("pid") == child.pid:
            child.returncode = 0  # it lives on on its own: no "still running" warning
            return child.pid
        if time.monotonic() > deadline:
            raise FindServerError(f"the find server ({child.pid}) does not answer; see {log_path}")
        time.sleep(0.05)


def start_for_later(layout: Layout) -> int | None:
    """Start a find server for ``layout``'s home in the background, without waiting for it,
    when one can start: Linux, a skillc home that can be written, a socket path that fits
    and is free or a socket, and the home's server lock taken here (not held by a running
    server, of this version or another, nor by another ``skc find`` starting one); the lock
    is handed to the server (``watch --lock-fd``), so that of concurrent finds one starts
    one. Its pid, or None when none was started. ``skc find`` calls it after answering a
    large library itself (:data:`AUTO_START_SKILLS`), so that the next finds are answered
    warm; the server stops after :data:`DETACHED_IDLE_SECONDS` without a query."""
    import fcntl
    import sys

    home, sock = layout.global_dir, socket_path(layout)
    if not sys.platform.startswith("linux") or not os.access(home, os.W_OK | os.X_OK):
        return None
    if not _fits(str(sock)):
        return None
    try:
        if not stat.S_ISSOCK(os.lstat(sock).st_mode):
            return None  # a file in its place: the server would refuse it
    except FileNotFoundError:
        pass
    except OSError:
        return None
    try:
        lock = os.open(home / LOCK_NAME, os.O_RDWR | os.O_CREAT | os.O_CLOEXEC, 0o600)
    except OSError:
        return None
    try:
        fcntl.flock(lock, fcntl.LOCK_EX | fcntl.LOCK_NB)
        child = _spawn(layout, DETACHED_IDLE_SECONDS, lock)
    except OSError:  # held (BlockingIOError), or no process could be made
        return None
    finally:
        os.close(lock)  # the server holds it now, through the same open file
    child.returncode = 0  # it lives on on its own: no "still running" warning
    return child.pid


def _spawn(layout: Layout, idle: float, lock: int | None = None) -> subprocess.Popen[bytes]:
    """``skc watch --idle IDLE`` for ``layout``'s home, in a new session of its own (stdin
    from /dev/null, its output appended to ``find.log`` in the skillc home, working in
    ``/``: ``python -m`` puts its working directory first on the module path), handed the
    home's server ``lock`` when one was taken for it. OSError when the log cannot be opened
    or the process not made."""
    import subprocess
    import sys

    layout.global_dir.mkdir(parents=True, exist_ok=True)
    log = os.open(
        layout.global_dir / LOG_NAME, os.O_WRONLY | os.O_CREAT | os.O_APPEND | os.O_CLOEXEC, 0o600
    )
    argv = [sys.executable, "-m", "skillc_gateway", "watch", "--idle", f"{idle:g}"]
    if lock is not None:
        argv += ["--lock-fd", str(lock)]
    try:
        child = subprocess.Popen(
            argv,
            stdin=subprocess.DEVNULL,
            stdout=log,
            stderr=log,
            cwd="/",
            env={**os.environ, "SKILLC_HOME": str(layout.home), "PYTHONSAFEPATH": "1"},
            start_new_session=True,
            pass_fds=() if lock is None else (lock,),
        )
    finally:
        os.close(log)
    return child


def _lock_holder(path: Path) -> str | None:
    """The pid written in the find-server lock ``path`` while a server holds it, else None."""
    import fcntl

    try:
        fd = os.open(path, os.O_RDONLY | os.O_CLOEXEC)
    except OSError:
        return None
    try:
        fcntl.flock(fd, fcntl.LOCK_SH | fcntl.LOCK_NB)
    except BlockingIOError:
        return os.read(fd, 32).decode(errors="replace").strip() or "?"
    finally:
        os.close(fd)
    return None


def _last_line(path: Path) -> str:
    """The last line of the log at ``path``, without the ``error[E060]: find server: `` the
    message it is quoted in says again."""
    import re

    try:
        lines = path.read_text(encoding="utf-8", errors="replace").strip().splitlines()
    except OSError:
        return "no log"
    return re.sub(r"^error\[E\d+\]: (find server: )?", "", lines[-1]) if lines else "no output"
