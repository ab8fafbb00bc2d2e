"""The find server (``skc watch``): one process per skillc home that keeps the catalog warm
and answers ``skc find``.

A new ``skc find`` process pays, before it answers, for importing the catalog machinery and
for looking at every searched folder again (about 50,000 stats at 20,000 skills). The find
server is one long-running process per skillc home that keeps a :class:`~.engine.Catalog`
warm (with its change watcher: nothing is looked at again while nothing changed) and answers
``skc find`` over a Unix socket in the skillc home, ``.skillc/find.sock``; it is optional, as
git's fsmonitor daemon is. The answer is the one the client would compute itself: the client
sends everything it depends on (:mod:`.protocol`) and the server runs :meth:`Catalog.find
<skillc_gateway.catalog.engine.Catalog.find>` on them (a server of other code refuses,
another skillc-gateway version or the same version's modules changed since it started:
:func:`.protocol.code_id`; the client answers itself). Freshness is the same as in process: the
watcher reads the kernel's queue at each query, so a change finished before the request was
sent is seen.

The socket is created mode 0600 under a restrictive umask, and the server answers only peers
of its own user (``SO_PEERCRED``). Requests are answered one at a time, in the order they
are whole: the server waits on every connection it holds at once (:class:`.server_socket.
Pending`), so one that sends nothing keeps no other waiting. The modules around
it: :mod:`.server_socket` (its lock and socket), :mod:`.protocol` (the wire format),
:mod:`.client` (what ``skc find`` asks first) and :mod:`.lifecycle` (starting, stopping,
asking how it is).
"""

from __future__ import annotations

import os
import time
from collections.abc import Callable, Sequence
from pathlib import Path
from typing import TYPE_CHECKING, Any

from skillc_gateway.catalog import FindResult, server_socket
from skillc_gateway.catalog.protocol import (
    LOCK_NAME,
    MAX_REQUEST_BYTES,
    PROTOCOL,
    BadRequest,
    code_id,
    encode_message,
    encode_result,
    fits,
    other_version_reply,
    peer,
    read_find_request,
    silent_record,
    socket_path,
    too_long,
)
from skillc_index import FindServerError, Layout, loads_bounded
from skillc_index.clock import utc_now

if TYPE_CHECKING:
    import socket

    from skillc_gateway.catalog.engine import Catalog
    from skillc_index.inventory.folders import Root

__all__ = [
    "BUILD_AT_LEAST",
    "BUILD_SECONDS",
    "FILL_SECONDS",
    "GONE_LOGGED",
    "LOG_LINES",
    "READ_SECONDS",
    "STATUS_ROOTS",
    "FindServer",
]

#: A connection that has not sent its whole request within this long is dropped (and one
#: that does not take its reply within this long).
READ_SECONDS = 5.0
#: The lines of each kind that may come once a request (a client that went away, a find
#: that failed, a prepare that failed, a peer of another user refused) a server logs, at
#: most: a script asking on and on grew its log without end.
GONE_LOGGED = 100
#: The lines a server logs, at most, each cut at :data:`LOG_LINE_CHARS` characters (its
#: stop said past them): with ``find.log`` moved aside past
#: :data:`~.lifecycle.MAX_LOG_BYTES` when the next server starts, what one writes is bounded.
LOG_LINES = 1000
LOG_LINE_CHARS = 1000
#: The root folders ``--status`` lists (the most recently asked about).
STATUS_ROOTS = 100
#: Between two requests, the server indexes what its catalog lacks in turns of about this
#: long (a request that comes meanwhile ends the turn once it has indexed for
#: :data:`BUILD_AT_LEAST`: it waits for that, the skill and the transaction in hand only;
#: while the catalog lacks many of its skills, it is answered from their files:
#: :mod:`.first_answer`, here once the server has read them, by the client before).
BUILD_SECONDS = 0.5
#: What a turn of the build indexes at least, requests waiting or not: finds that come one
#: after the other do not hold the build back for as long as they come. After finds answered
#: from the skills' files, the turn indexes at least as long as those answers took (at most
#: :data:`BUILD_SECONDS`): the build that makes them cheap gets half the server's time.
BUILD_AT_LEAST = 0.1
#: Between two requests, the server computes missing vectors in turns of about this long
#: (a request that comes meanwhile ends the turn: it waits for the batch in hand only).
FILL_SECONDS = 0.25
#: With nothing left to fill, the server looks this often whether another process wrote the
#: catalog (an MCP server indexing an edited skill: the words' heads it deleted, the vectors
#: of its new texts); one ``PRAGMA data_version`` a look. And at any time this often whether
#: its socket is still its own (:meth:`FindServer._reachable`): it stops when it is not.
RECHECK_SECONDS = 2.0


class FindServer:
    """One find server for ``layout``'s skillc home (see the module): :meth:`open` takes the
    home's server lock and listens, :meth:`serve` answers until stopped (:meth:`stop`, a
    ``stop`` request, SIGTERM or SIGINT), ``idle`` seconds without a query (0: never) or
    once its socket is gone or another's (:attr:`stop_signal` says which signal stopped it);
    :meth:`close` removes the socket (its own only) and frees the lock. ``log`` receives
    one line per event worth keeping (start, refused peers, failures, stop), a bounded
    number (:meth:`log`)."""

    def __init__(
        self,
        layout: Layout,
        *,
        idle: float = 0,
        configured: dict[str, str] | None = None,
        log: Callable[[str], None] = lambda line: None,
        lock_fd: int | None = None,
        build: Sequence[str] = (),
    ) -> None:
        self.layout = layout
        self.lock_fd = lock_fd  # the home's lock, taken for this server by skc find
        self.build = tuple(build)
        """Folders the ``skc find`` that started this server searched (absolute): their
        skills are indexed first, then the installed ones."""
        self.path = socket_path(layout)
        self.idle = idle
        self.configured = configured
        self._log = log
        self._lines = 0  # logged (:meth:`log`)
        self._kinds: dict[str, int] = {}  # logged, by kind (:meth:`_capped`)
        self.since = utc_now()  # RFC 3339 UTC, as --status prints it
        self.queries = 0
        self.find_seconds = 0.0  # spent in Catalog.find, all queries
        self.roots: dict[str, None] = {}  # the folders asked about, most recent last
        self._last = time.monotonic()
        self._stopping = False
        self.stop_signal: int | None = None
        """The signal that stopped :meth:`serve` (SIGINT, SIGTERM); None when it was not one."""
        self._refused: set[str] = set()  # the bad requests logged (each said once)
        self._wake: int | None = None  # written to wake serve() up
        self._woken: int | None = None  # its end read by serve() (a stop ends a turn too)
        self._lock: int | None = None
        self._listener: socket.socket | None = None
        self._pending = server_socket.Pending(READ_SECONDS)
        """The connections accepted whose request is not whole yet."""
        self._identity: tuple[int, int] | None = None  # the socket file we made
        self._building: list[tuple[Root, ...]] = []
        """Roots whose skills the catalog lacks, indexed between requests (:meth:`_build`)."""
        self._reading: tuple[Root, ...] | None = None
        """Roots whose skills' files are to be read for the finds while they are built."""
        self._read: tuple[Root, ...] | None = None
        """The roots whose skills' files were read last (:meth:`_read_files`)."""
        self._answers = False
        """Whether the finds over :attr:`_read` are answered from what was read (False: not
        read yet, or reading them failed)."""
        self._grown = False
        """Whether the build took more than one turn, or the skills' files were read, since
        the memory was last given back (:meth:`_give_back`)."""
        self._owed = 0.0
        """Seconds spent answering from the files since the last turn of the build: that
        turn indexes as long before a request ends it (:data:`BUILD_AT_LEAST`)."""
        from skillc_gateway.find_socket import switched_off

        self.semantic = not switched_off("SKILLC_FIND_SEMANTIC")
        """Whether the server fills what the semantic step reads between requests (the
        vectors, its model loaded, and the words' best rows): as its own environment says,
        and from the first find that wants the step on."""

    # -- starting and stopping -----------------------------------------------------------------

    def open(self) -> None:
        """Take the lock of the home's find server and listen on its socket (a socket left
        by a server that died is replaced). Raises :class:`FindServerError`."""
        import socket

        if not hasattr(socket, "SO_PEERCRED"):
            raise FindServerError("the find server needs Linux (it checks its peers' user id)")
        path = str(self.path)
        if not fits(path):
            raise FindServerError(too_long(path))
        code_id()  # the code it started with: it answers the finds of that code only
        self.path.parent.mkdir(parents=True, exist_ok=True)
        lock = self.path.parent / LOCK_NAME
        self._lock = (
            server_socket.take_lock(lock)
            if self.lock_fd is None
            else server_socket.adopt_lock(lock, self.lock_fd)
        )
        try:
            listener, self._identity = server_socket.bind_socket(path)
            listener.listen(16)
            self._listener = listener
        except BaseException:
            self.close()
            raise

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
            server_socket.free_lock(self._lock)  # its pid cleared
            self._lock = None

    def _reachable(self) -> bool:
        """Whether the home's socket is still the one this server made: when it is gone (the
        home's ``.skillc`` removed) or another's (a second server started since), no
        ``skc find`` reaches this one and ``skc watch --stop`` cannot stop it."""
        try:
            st = os.lstat(self.path)
        except OSError:
            return False
        return (st.st_dev, st.st_ino) == self._identity

    def stop(self) -> None:
        """Ask :meth:`serve` to return (from a signal handler or another thread too)."""
        self._stopping = True
        wake = self._wake
        if wake is not None:
            from contextlib import suppress

            with suppress(OSError):  # full: it is awake already
                os.write(wake, b"\0")

    def _stop_on_signal(self, number: int, _frame: object) -> None:
        self.stop_signal = number
        self.stop()

    # -- serving -------------------------------------------------------------------------------

    def _warm_up(self, listener: int) -> None:
        """Import the engine, open the catalog and make a first pass over the folders the
        ``skc find`` that started it searched (:attr:`build`), then over what is installed
        (as seen from the server's own layout), indexing for :data:`BUILD_SECONDS` at most,
        or until a request comes on ``listener``:
        the rest is built between requests (:meth:`_build`); while the catalog lacks many
        of a request's skills, it is answered from their files (:mod:`.first_answer`): here
        once this process has read them (:meth:`_read_files`), before that by its client in
        its own process, and the build goes on. The folders the ``skc find`` searched are
        read at once when that turn leaves many of their skills: that find answered from the
        files, and the next ones will. A failure is logged: queries make their own passes."""
        from skillc_gateway.catalog import find_roots
        from skillc_gateway.catalog.first_answer import FIRST_SKILLS
        from skillc_index.inventory.folders import routing_roots

        for paths in (self.build, routing_roots()) if self.build else (routing_roots(),):
            try:
                self._building.append(find_roots(self.layout, paths, self.configured))
            except Exception as exc:
                self.log(f"warming up failed: {type(exc).__name__}: {exc}")
        if self._building:
            first = self._building[0]
            if self._build(listener) >= FIRST_SKILLS and self.build:
                self._reading = first

    def _build(self, listener: int) -> int:
        """Index for about :data:`BUILD_SECONDS` what the catalog lacks of the first roots
        waiting to be built (the installed skills', those of a request answered from the
        files), or until a request comes on ``listener``; they stop waiting once indexed
        whole (and their skills' files read for the finds meanwhile are let go). The skills
        left of them. A failure is logged, and they stop."""
        from skillc_gateway.catalog.engine import Catalog

        roots = self._building[0]
        least = min(BUILD_SECONDS, max(BUILD_AT_LEAST, self._owed))
        self._owed = 0.0
        try:
            catalog = Catalog.shared(self.layout)
            waiting = server_socket.waiting(self._pending.watched(listener, self._woken), least)
            catalog.build(roots, BUILD_SECONDS, waiting)
        except Exception as exc:
            self.log(f"building the catalog failed: {type(exc).__name__}: {exc}")
            del self._building[0]
            if roots == self._read:  # no longer built: nor answered from their files
                self._forget_files()
            return 0
        if not catalog.left:
            del self._building[0]
            if roots == self._read:  # the catalog answers for them now (it let go of the files)
                self._forget_files()
            if not self._building and self._grown:
                self._give_back(catalog)
        else:
            self._grown = True
        return catalog.left

    def _give_back(self, catalog: Catalog) -> None:
        """Once the catalog holds every skill it lacked: give back the memory the build took
        (:func:`.memory.give_back_memory`), logged with the resident size before and after.
        The server would otherwise keep it for as long as it runs (212 MB at 2,324 skills,
        where one started over the built catalog holds 35 MB)."""
        from skillc_gateway.catalog.memory import give_back_memory, resident

        self._grown = False
        before = resident()
        give_back_memory(catalog.db)
        self.log(f"catalog built; memory given back: {before} -> {resident()} resident")

    def _read_files(self) -> None:
        """Read the skills of :attr:`_reading` (roots whose finds are left to the files while
        they are built) as a first answer reads them, into its catalog in memory
        (:mod:`.first_answer`, kept by this process), not into the catalog: the finds over
        those roots that come until they are built are then answered here from what was read
        (a few hundred ms), not each by its client reading every file again (seconds each,
        on the core the build needs). One list of roots at a time, through the one catalog
        connection of this process (a second one's opening reads the file, and closing that
        file drops the locks SQLite holds on it in this process). A failure is logged; those
        finds are then left to their clients, as before."""
        from skillc_gateway.catalog import Stopped
        from skillc_gateway.catalog.engine import Catalog

        roots, self._reading = self._reading, None
        if roots is None:
            return
        self._forget_files()
        self._read, self._grown = roots, True
        start = time.perf_counter()
        try:  # given up between two skills once the server is to stop (Ctrl-C, SIGTERM)
            found = Catalog.shared(self.layout).read(roots, lambda: self._stopping)
        except Stopped:
            self._read = None
            return
        except Exception as exc:
            self.log(f"reading the skills' files failed: {type(exc).__name__}: {exc}")
            return
        self._answers = True
        self.log(
            f"read {found.searched:,} skills' files in {time.perf_counter() - start:.1f} s: "
            "finds over them are answered from those until they are built"
        )

    def _forget_files(self) -> None:
        """Give up the skills read by :meth:`_read_files`."""
        from skillc_gateway.catalog import first_answer

        self._read, self._answers = None, False
        first_answer.forget()

    def _fill(self, listener: int) -> bool | None:
        """Store some of the words' best rows the catalog lacks (:mod:`.heads`), else compute
        some of its missing vectors (the semantic step's, the model loaded once, by this
        process only), for about :data:`FILL_SECONDS`, or until a request comes on
        ``listener`` (the turn ends with the batch in hand); whether some are still missing.
        A failure is logged, and None stops the filling until the next request (and the looks
        every :data:`RECHECK_SECONDS`: a failing fill is not logged every 2 s). Nothing while
        :attr:`semantic` is off: no model is loaded for finds that rank by the words alone."""
        from skillc_gateway.catalog import fill
        from skillc_gateway.catalog.engine import Catalog

        if not self.semantic:
            return False
        waiting = server_socket.waiting(self._pending.watched(listener, self._woken))
        try:
            catalog = Catalog.shared(self.layout)
            return fill.fill_heads(catalog, FILL_SECONDS, waiting) or fill.fill_vectors(
                catalog, FILL_SECONDS, waiting
            )
        except Exception as exc:
            self.log(f"filling the catalog failed: {type(exc).__name__}: {exc}")
            return None

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
        self._wake, self._woken = wake_write, wake_read
        handlers: dict[signal.Signals, Any] = {}
        previous_wakeup: int | None = None
        try:
            previous_wakeup = signal.set_wakeup_fd(wake_write)
            for number in (signal.SIGTERM, signal.SIGINT):
                if signal.getsignal(number) is not signal.SIG_IGN:  # nohup, `cmd &` keep it
                    handlers[number] = signal.signal(number, self._stop_on_signal)
        except ValueError:  # not the main thread: stop() and idle only
            pass
        try:
            self._warm_up(listener.fileno())
            self.log(
                "ready" + (f"; stops after {self.idle:g} s without a query" if self.idle else "")
            )
            self._last = time.monotonic()
            # the catalog's heads and vectors may be missing: filled between requests (None:
            # the last fill failed, not tried again until the next request)
            filling: bool | None = True
            look = time.monotonic() + RECHECK_SECONDS
            pending = self._pending
            while not self._stopping:
                timeout = pending.timeout()  # the nearest deadline of a request not whole
                now = time.monotonic()
                if self.idle:
                    if self._last + self.idle <= now:
                        self.log(f"no query for {self.idle:g} s: stopping", stop=True)
                        break
                    left = self._last + self.idle - now
                    timeout = left if timeout is None else min(timeout, left)
                if now >= look:
                    look = now + RECHECK_SECONDS
                    if not self._reachable():
                        self.log(f"{self.path} is gone or another's: stopping", stop=True)
                        break
                if filling or self._building or self._reading:
                    timeout = 0
                elif timeout is None or timeout > RECHECK_SECONDS:
                    timeout = RECHECK_SECONDS  # another process's writes, the socket still ours
                # past MAX_PENDING held, the next connections wait in the listener's backlog
                fds = pending.watched(listener.fileno(), wake_read)
                ready, _, _ = select.select(fds, [], [], timeout)
                # each at its own deadline, whatever comes (read one last time: a request
                # whole in time is answered, the server busy past its deadline or not)
                for request in pending.expired():
                    with request.connection:
                        self._gone(request.pid, "timed out")
                if self._reading and not ready:
                    self._read_files()  # for the finds while the words are built
                    continue
                if self._building and not ready:
                    self._build(listener.fileno())  # the words first: the vectors after
                    continue
                if not ready and filling is not None:  # or: did another process write it?
                    filling = self._fill(listener.fileno())
                    continue
                if wake_read in ready:
                    while True:
                        try:
                            if not os.read(wake_read, 512):
                                break
                        except BlockingIOError:
                            break
                if listener.fileno() in ready and not self._stopping:
                    fd = self._accept(listener)
                    if fd is not None:
                        ready.append(fd)  # a request sent whole at once: answered now
                for request, data in pending.read(ready):
                    with request.connection:
                        self._answer(request.connection, request.pid, data)
                    filling = True  # what it indexed may lack its vectors
        finally:
            pending.close()
            if self._read is not None:
                self._forget_files()
            for number, handler in handlers.items():
                signal.signal(number, handler)
            if previous_wakeup is not None:
                signal.set_wakeup_fd(previous_wakeup)
            self._wake = self._woken = None
            os.close(wake_read)
            os.close(wake_write)

    def _accept(self, listener: socket.socket) -> int | None:
        """Accept a connection: held until its request is whole (:attr:`_pending`), its
        descriptor returned; a peer of another user's is refused, and logged."""
        try:
            connection, _ = listener.accept()
        except OSError:
            return None
        try:
            pid, uid = peer(connection)
        except OSError as exc:
            connection.close()
            self._gone(0, exc)
            return None
        if uid != os.getuid():
            connection.close()
            self._capped("user", f"refused a connection from user {uid} (pid {pid})")
            return None
        self._pending.add(connection, pid)
        return connection.fileno()

    def _answer(self, connection: socket.socket, pid: int, data: bytes | OSError | None) -> None:
        """Answer the request ``data`` of the process ``pid`` (None: past the size limit; an
        error: its connection failed, logged)."""
        try:
            if isinstance(data, OSError):
                raise data
            reply = self._reply(data, connection)
            if reply is None:  # a prepare: its client reads no reply
                return
            connection.settimeout(READ_SECONDS)  # for the whole reply (sendall)
            connection.sendall(encode_message(reply))
        except OSError as exc:
            self._gone(pid, exc)
        else:  # answering: a record that this server did not answer (_mark_silent) goes
            import contextlib

            with contextlib.suppress(OSError):
                Path(silent_record(self.path)).unlink(missing_ok=True)

    def _reply(self, data: bytes | None, connection: socket.socket) -> dict[str, Any] | None:
        try:
            if data is None:
                raise BadRequest(f"the request is longer than {MAX_REQUEST_BYTES} bytes")
            try:
                message = loads_bounded(data, max_bytes=MAX_REQUEST_BYTES)
            except ValueError:
                raise BadRequest("the request is not JSON") from None
            if not isinstance(message, dict) or message.get("version") != PROTOCOL:
                reply, stop = other_version_reply(message)  # stop: whatever its version
                if stop:
                    version = message.get("version")
                    self.log(f"stop requested (protocol {version!r})", stop=True)
                    self.stop()
                else:
                    self._refuse(BadRequest(reply["error"]))
                return reply
            op = message.get("op")
            # a find whose client gave up waiting (we were stopped)
            if op == "find" and server_socket.hung_up(connection):
                return {"ok": False, "error": "the client is gone"}
            if op == "find":
                from skillc_gateway.catalog import Elsewhere

                try:
                    found = self._find(message)
                except Elsewhere:  # the client answers from the files, the build goes on
                    error = "building the catalog: answer from the files"
                    return {"ok": False, "elsewhere": True, "error": error}
                return {"ok": True, "result": encode_result(found)}
            if op == "prepare":  # a find of this query comes: its vector meanwhile
                try:
                    self._prepare(message)
                except BadRequest as exc:
                    self._refuse(exc)
                except Exception as exc:  # the find computes it all the same
                    why = f"{type(exc).__name__}: {exc}"
                    self._capped("prepare", f"preparing a find failed: {why}")
                return None  # no reply: its client does not wait for one
            if op == "status":
                return {"ok": True, "status": self.status()}
            if op == "stop":
                self.log("stop requested", stop=True)
                self.stop()
                return {"ok": True, "pid": os.getpid()}
            raise BadRequest(f"unknown op {op!r}")
        except BadRequest as exc:
            self._refuse(exc)
            return {"ok": False, "error": str(exc)}
        except Exception as exc:  # the client answers in process; the server goes on
            self._capped("find", f"find failed: {type(exc).__name__}: {exc}")
            return {"ok": False, "error": f"{type(exc).__name__}: {exc}"}

    def log(self, line: str, *, stop: bool = False, tail: str = "") -> None:
        """Log ``line`` and its ``tail`` (cut at :data:`LOG_LINE_CHARS` together, the tail
        whole), the first :data:`LOG_LINES` of this server, the last of them saying the next
        are not; a ``stop`` line (why it stops: at most a few) past them too."""
        self._lines += 1
        if self._lines == LOG_LINES and not stop:
            tail += "; the next lines are not logged (LOG_LINES)"
        elif self._lines > LOG_LINES and not stop:
            return
        room = LOG_LINE_CHARS - len(tail)
        self._log((line if len(line) <= room else line[: room - 1] + "…") + tail)

    def _capped(self, kind: str, line: str) -> None:
        """Log ``line`` of ``kind``, the first :data:`GONE_LOGGED` of this server, the last
        of them saying the next are not."""
        count = self._kinds[kind] = self._kinds.get(kind, 0) + 1
        if count <= GONE_LOGGED:
            self.log(line, tail="; the next are not logged" if count == GONE_LOGGED else "")

    def _gone(self, pid: int, why: object) -> None:
        """Log a client that went away (:meth:`_capped`): a script that connects and leaves
        on and on grew its log without end."""
        self._capped("gone", f"a client (pid {pid}) went away: {why}")

    def _refuse(self, exc: BadRequest) -> None:
        """Log a bad request, each kind once (a client of another version asks on and on)."""
        if str(exc) not in self._refused and len(self._refused) < 100:
            self._refused.add(str(exc))
            self.log(f"bad request: {exc} (said once)")

    def _find(self, message: dict[str, Any]) -> FindResult:
        from skillc_gateway.catalog import Elsewhere
        from skillc_gateway.catalog.engine import Catalog

        layout, query, limit, budget, semantic, roots = read_find_request(message, self.layout.home)
        self.semantic = self.semantic or semantic
        start = time.perf_counter()
        try:
            result = Catalog.shared(layout).find(
                query, roots, limit, budget=budget, semantic=semantic, first=True, elsewhere=True
            )
        except Elsewhere:
            # the catalog lacks many of these skills: built between the next requests; the
            # answer from their files is made here once they were read (:meth:`_read_files`),
            # else by the client in its own process (each answer here that read every file
            # took this process from the build: 25 requests in a row, 6 s each over 4,061
            # skills, made a 24 s build take 150 s)
            if roots not in self._building:
                self._building.append(roots)
            if not self._answers or roots != self._read:
                if self._read is None and self._reading is None:
                    self._reading = roots  # read next: the finds after this one answered here
                raise
            try:
                result = Catalog.shared(layout).find(
                    query, roots, limit, budget=budget, semantic=semantic, first=True, told=True
                )
            except Exception:
                self._forget_files()  # read again for the next find left to the files
                raise
            self._owed += time.perf_counter() - start  # the next turn of the build as long
        finally:
            self._last = time.monotonic()
        self.find_seconds += time.perf_counter() - start
        self.queries += 1
        for root in roots:
            self.roots.pop(str(root.path), None)
            self.roots[str(root.path)] = None
        while len(self.roots) > STATUS_ROOTS:
            del self.roots[next(iter(self.roots))]
        return result

    def _prepare(self, message: dict[str, Any]) -> None:
        """A ``prepare`` (:func:`skillc_gateway.find_socket.tell_ahead`): what the find of its
        query to come computes from the text alone, started in the model's thread
        (:meth:`Catalog.prepare <skillc_gateway.catalog.engine.Catalog.prepare>`); no reply.
        The semantic step as the client wants it: it tells only when it does. Nothing while
        the server builds the catalog's words: the find may then be answered from the files
        by its client, which would leave the vector unused."""
        from skillc_gateway._limits import query_fits
        from skillc_gateway.catalog.engine import Catalog

        query = message.get("query")
        if not query_fits(query):
            raise BadRequest("bad query")
        if not self._building:
            Catalog.shared(self.layout).prepare(query, semantic=True)

    def status(self) -> dict[str, Any]:
        """What ``skc watch --status`` shows."""
        from skillc_gateway import __version__
        from skillc_gateway.catalog import embedding, heads, postings, semantic
        from skillc_gateway.catalog.engine import Catalog

        catalog = Catalog.shared(self.layout)
        watches = catalog.watches()
        waiting = heads_waiting = None
        installed = embedding.available(True)
        if installed and self.semantic:  # the vectors and heads this server stores, to come
            names, bodies = postings.waiting_vectors(catalog.db)
            waiting = {"names": names, "bodies": bodies}
            heads_waiting = heads.missing(catalog.db)
        if self.semantic:  # for a client that wants the step (the model is loaded to fill)
            ranker = semantic.ranker(True)
        else:  # not loaded for a status: the first find that wants the step loads it
            ranker = "lexical+semantic" if installed else "lexical"
        return {
            "running": True,
            "pid": os.getpid(),
            "version": __version__,
            "code": code_id(),  # the finds it answers: those of this code (serves, --status)
            "since": self.since,
            "home": str(self.layout.home),
            "socket": str(self.path),
            "queries": self.queries,
            "find_seconds": round(self.find_seconds, 6),
            "idle": self.idle,
            "roots": list(self.roots),
            "watches": None if watches is None else watches[0],
            "watch_budget": None if watches is None else watches[1],
            "ranker": ranker,
            "building": bool(self._building),  # indexing between requests: not all warm yet
            "vectors_waiting": waiting,
            "heads_waiting": heads_waiting,
        }
