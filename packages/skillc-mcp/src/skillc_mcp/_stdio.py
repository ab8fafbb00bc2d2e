"""The MCP stdio transport: one JSON-RPC message per line on stdin, one per line on stdout.

Only protocol messages may reach stdout. :func:`claim_stdio` moves the protocol onto private
copies of file descriptors 0 and 1, points descriptor 1 at stderr and descriptor 0 at the null
device, and makes ``sys.stdout`` stderr: a stray ``print``, a C extension or a child process
writes to the log, never to the wire, and cannot eat the client's input. Logs go to stderr.

A reader thread parses lines as they arrive while the main thread answers them in order. The
reader notes ``notifications/cancelled`` at once, so a request cancelled before it runs is
never run, and one cancelled while it runs gets no response (MCP cancellation: the receiver
should not answer a cancelled request). The server exits when stdin reaches end of file,
after answering what it had already read.

Memory is bounded whatever the client does. A line longer than :data:`MAX_LINE` bytes is
answered with -32600 and skipped in pieces, never held whole. The reader hands at most
:data:`MAX_PENDING` messages (:data:`MAX_PENDING_BYTES` of lines) to the main thread and then
stops reading until it catches up; the main thread blocks writing a reply the client does not
read. So a client that writes and never reads fills the pipes and is made to wait
(backpressure), instead of growing the server.

SIGTERM and SIGINT (:func:`serve_stdio` in the main thread) end the server cleanly: a tool
call that runs is finished (a build is never cut in half), a reply the client does not read is
given up, the queued access-log rows are written, and the exit status is 128 + the signal
number. A second signal ends the process at once.

Once a client has called a skill method (or asked to be told, with ``subscriptions/listen``
or ``resources/subscribe``), a third thread sleeps on the skills' watcher (inotify) and, when
something changed, has the main thread look between two answers and send the change
notifications of :mod:`skillc_mcp._listen` (:meth:`Connection._check`). The look after an
answer is made at once (what the next request reads is fresh), but the notifications are
spaced (:class:`skillc_mcp._listen.Throttle`): one of each kind per :data:`SETTLE_SECONDS`,
the last one held sent when that time is over, requests or not. At most
:data:`MAX_LISTENS` listen streams are open at once; a stream ends when the client cancels
its request, and on SIGTERM/SIGINT with the request's response, unless the signal gave up a
reply the client did not read: the wire may then end in part of a line, and nothing more is
written to it.
"""

from __future__ import annotations

import json
import os
import sys
import threading
import time
from collections import deque
from typing import TYPE_CHECKING, Any, BinaryIO

from skillc_mcp._cut import dropped, read_message
from skillc_mcp._protocol import (
    INTERNAL_ERROR,
    INVALID_REQUEST,
    PARSE_ERROR,
    ProtocolError,
    Response,
    Server,
    error_response,
    request_id_of,
    valid_id,
)

if TYPE_CHECKING:
    from skillc_mcp._listen import Listen, Throttle

MAX_LINE = 1 << 20
"""The longest request line read (1 MiB, its LF or CRLF excluded); a longer one is -32600.
Requests of this server are a few hundred bytes; parsed, 1 MiB of JSON can take 25 MB."""
MAX_PENDING = 16
"""Messages read ahead of the one being answered, at most."""
MAX_PENDING_BYTES = 2 * MAX_LINE
"""Bytes of lines read ahead, at most (one line is always let through)."""
_SKIP_CHUNK = 1 << 16

MAX_LISTENS = 32
"""``subscriptions/listen`` streams open at once on one connection, at most."""

_EOF = object()
_CHECK = object()
"""Queued by the watcher thread: the served skills may have changed (see :meth:`_check`)."""
_IDLE = object()
"""What :meth:`_Inbox.get` gives when its timeout passed with nothing queued."""

SETTLE_SECONDS = 0.2
"""After a first sign of change, how long the watcher thread lets a burst of writes (an
editor's save, a copied folder) settle before the main thread looks: one notification. Also
the time within which at most one notification of each kind is sent (a burst of saves while
a client reads: the look after each answer sees a change each time)."""


class _Rejected:
    """A line answered with a JSON-RPC error and id null: not JSON (-32700), too long (-32600)."""

    def __init__(self, code: int, message: str) -> None:
        self.code = code
        self.message = message


class _Stopped(Exception):
    """Raised by the signal handler to end :meth:`Connection.serve` (SIGTERM, SIGINT)."""

    def __init__(self, signum: int) -> None:
        super().__init__(signum)
        self.signum = signum


class _Inbox:
    """The bounded queue from the reader thread to the main thread: :meth:`put` waits while
    :data:`MAX_PENDING` messages or :data:`MAX_PENDING_BYTES` bytes wait to be answered."""

    def __init__(self) -> None:
        self._items: deque[tuple[object, int]] = deque()
        self._bytes = 0
        self._changed = threading.Condition()

    def put(self, item: object, size: int = 0) -> None:
        with self._changed:
            while self._items and (
                len(self._items) >= MAX_PENDING or self._bytes + size > MAX_PENDING_BYTES
            ):
                self._changed.wait()
            self._items.append((item, size))
            self._bytes += size
            self._changed.notify_all()

    def get(self, timeout: float | None = None) -> object:
        """The next item, waiting for one; :data:`_IDLE` when ``timeout`` seconds passed
        with none."""
        with self._changed:
            if not self._items and timeout is not None:
                self._changed.wait(timeout)  # once: a put notifies, the caller asks again
                if not self._items:
                    return _IDLE
            while not self._items:
                self._changed.wait()
            item, size = self._items.popleft()
            self._bytes -= size
            self._changed.notify_all()
            return item


def claim_stdio() -> tuple[BinaryIO, BinaryIO]:
    """Take stdin and stdout for the protocol; return (wire in, wire out).

    The copies made by :func:`os.dup` are not inherited by child processes (PEP 446). The wire
    out is unbuffered: a reply given up on a signal leaves nothing to flush at exit.
    """
    sys.stdout.flush()
    wire_in = os.fdopen(os.dup(0), "rb")
    wire_out = os.fdopen(os.dup(1), "wb", buffering=0)
    os.dup2(2, 1)
    null = os.open(os.devnull, os.O_RDONLY)
    try:
        os.dup2(null, 0)
    finally:
        os.close(null)
    sys.stdout = sys.stderr
    return wire_in, wire_out


def encode(message: dict[str, Any] | list[dict[str, Any]]) -> bytes:
    """One line of UTF-8 JSON. Text that is not valid Unicode (a file name in a foreign
    encoding) is written with ``\\u`` escapes instead, so the line is always valid UTF-8."""
    text = json.dumps(message, ensure_ascii=False, separators=(",", ":"))
    try:
        return text.encode("utf-8") + b"\n"
    except UnicodeEncodeError:
        return json.dumps(message, separators=(",", ":")).encode("ascii") + b"\n"


class Connection:
    """One client on a pair of byte streams."""

    def __init__(
        self,
        wire_in: BinaryIO,
        wire_out: BinaryIO,
        server: Server | None = None,
        *,
        log_requests: bool = False,
    ) -> None:
        self._in = wire_in
        self._out = wire_out
        self.server = server or Server()
        self._log_requests = log_requests
        self._inbox = _Inbox()
        self._lock = threading.Lock()
        self._pending: set[str | int] = set()
        self._cancelled: set[str | int] = set()
        self._busy = True
        """The main thread runs a tool, writes the access log or has not started serving: a
        signal then only marks the stop, which the main thread sees when it is done."""
        self._stop: int | None = None
        """The signal that asked the server to stop, once one did."""
        self.server.notifies = sys.platform.startswith("linux")  # where skills can be watched
        self._watching: threading.Thread | None = None
        self._looked = threading.Event()
        self._ending = threading.Event()
        self._quit: tuple[int, int] | None = None  # a pipe that wakes the watcher thread to end
        self._listens: dict[str | int, Listen] = {}
        """The open ``subscriptions/listen`` streams, by request id (main thread only)."""
        self._throttle: Throttle | None = None
        """Spaces the change notifications (made with the first look that had some)."""
        self._given_up = False
        """A signal stopped a write the client did not read: the wire may end in part of a
        line (and is full), so nothing more is written to it."""

    def send(self, message: dict[str, Any] | list[dict[str, Any]]) -> None:
        try:
            data = encode(message)
        except (TypeError, ValueError) as exc:  # a result that is not JSON: a bug, reported
            error = ProtocolError(INTERNAL_ERROR, f"Internal error: {exc}")
            request_id = message.get("id") if isinstance(message, dict) else None
            data = encode(error_response(request_id, error))
        view = memoryview(data)
        # What each write took, stored by C code (list.extend over map): the signal handler
        # runs only between bytecodes, so a _Stopped raised just after a write returns cannot
        # lose its count, and a reply written whole is not taken for a cut one.
        counts: list[int | None] = []

        def sent() -> int:
            return sum(len(data) if n is None else n for n in counts)

        try:
            while sent() < len(data):  # an unbuffered pipe may take part of it
                counts.extend(map(self._out.write, (view[sent() :],)))
        except _Stopped:
            if sent() < len(data):
                self._given_up = True  # maybe mid-line: the wire takes nothing more
            raise
        self._out.flush()

    def stop(self, signum: int) -> None:
        """Ask :meth:`serve` to end (from a signal handler in the main thread): at once when
        it waits for input or for the client to read, else after the running call."""
        self._stop = signum
        if not self._busy:
            raise _Stopped(signum)

    def _read_line(self) -> bytes | int | None:
        """The next line without its line ending (LF or CRLF), its length (line ending
        excluded) when that is more than :data:`MAX_LINE` (the line is skipped, never held
        whole), or None at end of input."""
        line = self._in.readline(MAX_LINE + 2)  # room for the longest line and a CRLF
        if not line:
            return None
        size, tail = len(line), line[-2:]
        if size == MAX_LINE + 2 and not tail.endswith(b"\n"):  # too long: skip it in pieces
            while piece := self._in.readline(_SKIP_CHUNK):
                size, tail = size + len(piece), (tail + piece)[-2:]
                if piece.endswith(b"\n"):
                    break
        size -= 2 if tail == b"\r\n" else 1 if tail.endswith(b"\n") else 0
        return line[:size] if size <= MAX_LINE else size

    def _read(self) -> None:
        """The reader thread: parse each line, note requests and cancellations, queue them."""
        try:
            while (line := self._read_line()) is not None:
                if isinstance(line, int):
                    error = f"Invalid Request: line of {line} bytes, longer than {MAX_LINE}"
                    self._inbox.put(_Rejected(INVALID_REQUEST, error))
                    continue
                if not line.strip():
                    continue
                try:  # strict UTF-8: an encoded surrogate (ED A0 80) is no UTF-8 either
                    message = read_message(line.decode("utf-8-sig"), MAX_LINE)
                except ValueError as exc:  # bad UTF-8, no JSON (nested too deep: a Cut)
                    self._inbox.put(_Rejected(PARSE_ERROR, f"Parse error: {exc}"))
                    continue
                request_id = request_id_of(message)
                with self._lock:
                    if request_id is not None:
                        self._pending.add(request_id)
                    elif _is_cancellation(message):
                        target = valid_id(message["params"].get("requestId"))
                        if target in self._pending:
                            self._cancelled.add(target)
                self._inbox.put(message, len(line))
        except (OSError, ValueError):
            pass  # stdin closed under us: same as end of file
        finally:
            self._inbox.put(_EOF)

    def serve(self) -> int:
        """Answer messages until end of input: the exit status, 0 (128 + the signal number
        after :meth:`stop`)."""
        threading.Thread(target=self._read, name="skillc-mcp-stdin", daemon=True).start()
        try:
            self._busy = False
            while self._stop is None:
                wait = None if self._throttle is None else self._throttle.wait()
                if wait == 0:
                    self._send_held()  # the trailing notifications of a burst
                    continue
                item = self._inbox.get(wait)
                if item is _IDLE:
                    continue
                if item is _EOF:
                    return 0
                if isinstance(item, _Rejected):
                    self.send(error_response(None, ProtocolError(item.code, item.message)))
                    continue
                if item is _CHECK:
                    self._check()
                    continue
                self._answer(item)
            return 128 + self._stop
        except _Stopped as stopped:
            return 128 + stopped.signum
        except BrokenPipeError:
            return 0  # the client is gone
        finally:
            self._busy = True  # a signal now only marks the stop: the rows get written
            self._end_watching()
            if self._stop is not None and not self._given_up:
                self._end_listens()
            self.server.close()

    def _end_listens(self) -> None:
        """The server stops: each open stream gets its request's response (a graceful end),
        unless the stop cut a reply the client did not read (then nothing more is written)."""
        try:
            self._send_held(force=True)  # a stream's last notice comes before its end
            for listen in self._listens.values():
                self.send(listen.end())
        except OSError:
            pass  # the client is gone
        self._listens.clear()

    # -- change notifications ------------------------------------------------------------------

    def _check(self) -> None:
        """In the main thread (the served skills are not thread-safe): send
        the change notifications when the skills changed, and start the
        watcher thread once there is something to watch. Run after each answer and when the
        watcher thread asks (:data:`_CHECK`); it only reads events already queued."""
        self._busy = True  # a signal only marks the stop until the watcher thread runs
        try:
            notes = self.server.notifications(self._listens.values())
            if self._watching is None:
                fd = self.server.watch_fd()
                if fd is not None:
                    self._quit = os.pipe()
                    watching = threading.Thread(
                        target=self._watch,
                        args=(fd, self._quit[0]),
                        name="skillc-mcp-watch",
                        daemon=True,
                    )
                    watching.start()
                    self._watching = watching
        finally:
            self._busy = False
            self._looked.set()
        if notes and self._throttle is None:
            from skillc_mcp._listen import Throttle

            self._throttle = Throttle(SETTLE_SECONDS)
        if self._throttle is not None:  # each with its stream: the Listen, not its id
            from skillc_mcp._listen import stream_id

            owned = []
            for note in notes:
                sid = stream_id(note)
                owned.append((None if sid is None else self._listens.get(sid), note))
            notes = [note for _, note in self._throttle.offer(owned)]
        for note in notes:
            self.send(note)

    def _send_held(self, *, force: bool = False) -> None:
        """Send the notifications the throttle held whose time has come (all: ``force``),
        but not to a stream cancelled meanwhile (nor to a new one reusing its request id: the
        stream held for is the :class:`~skillc_mcp._listen.Listen` itself) or for a URI
        unsubscribed meanwhile."""
        if self._throttle is None:
            return
        from skillc_mcp._listen import UPDATED

        for owner, note in self._throttle.flush(force=force):
            if owner is not None:
                if self._listens.get(owner.id) is owner:
                    self.send(note)
                continue
            unsubscribed = note.get("params", {}).get("uri") not in self.server.subscriptions
            if note["method"] == UPDATED and unsubscribed:
                continue
            self.send(note)

    def _watch(self, fd: int, quit_fd: int) -> None:
        """The watcher thread: sleep in :func:`select.poll` until the skills' watcher has
        events (or the server ends), let them settle, ask the main thread to look, and wait
        until it has (it reads the events, so the descriptor is quiet again): no busy loop,
        nothing on the request path."""
        import select

        poller = select.poll()
        poller.register(fd, select.POLLIN)
        poller.register(quit_fd, select.POLLIN)
        while True:
            ready = dict(poller.poll())
            if quit_fd in ready or ready.get(fd, 0) & (select.POLLERR | select.POLLNVAL):
                return
            if self._ending.wait(SETTLE_SECONDS):
                return
            self._looked.clear()
            self._inbox.put(_CHECK)
            self._looked.wait()
            if self._ending.is_set():
                return

    def _end_watching(self) -> None:
        if self._quit is None:
            return
        read_end, write_end = self._quit
        self._quit = None
        self._ending.set()
        os.write(write_end, b"x")
        self._looked.set()
        if self._watching is not None:
            self._watching.join(SETTLE_SECONDS + 1)
        os.close(write_end)
        os.close(read_end)

    def _answer(self, message: object) -> None:
        request_id = request_id_of(message)
        if _is_cancellation(message):  # an open listen stream just stops (no response)
            target = valid_id(message["params"].get("requestId"))  # type: ignore[index]
            if target is not None:
                self._listens.pop(target, None)
        with self._lock:
            skip = request_id in self._cancelled
        start = time.perf_counter()
        self._busy = True
        try:
            response = None if skip else self.server.handle(message)
        finally:
            self._busy = False
        with self._lock:
            if request_id is not None:
                self._pending.discard(request_id)
                skip = request_id in self._cancelled  # also when cancelled while it ran
                self._cancelled.discard(request_id)
        if self._log_requests:
            _log_request(message, response, time.perf_counter() - start, skip)
        if self._stop is not None:
            raise _Stopped(self._stop)  # the signal came during the call: no reply
        if response is not None and not skip:
            if request_id is not None and isinstance(response, dict) and "method" in response:
                # a listen's acknowledgement
                from skillc_mcp._listen import Listen

                if len(self._listens) >= MAX_LISTENS:
                    error = ProtocolError(INTERNAL_ERROR, "Subscription limit reached")
                    response = error_response(request_id, error)
                else:
                    self._listens[request_id] = Listen.from_ack(response)
            self.send(response)
        if self.server.notifies and _is_skill_method(message):
            self._check()  # the answer may have read the watcher's events: look now


def _log_request(message: object, response: Response, seconds: float, skipped: bool) -> None:
    """``--log-requests``: one line per message on stderr: method (tool), id, outcome,
    milliseconds; control characters escaped (a method, tool or id holding a newline made up
    a line of its own)."""
    from skillc_index import printable

    if not isinstance(message, dict) or isinstance(response, list):
        return  # a batch: its messages are not told apart
    method = message.get("method", "(response)")
    params = message.get("params")
    if method == "tools/call" and isinstance(params, dict):
        method = f"{method} {params.get('name')}"
    outcome = "cancelled" if skipped else "notification"
    if response is None and (refused := dropped(message)) is not None:
        outcome = f"error {refused.code}"  # refused as a request so deep is (no answer sent)
    if response is not None and not skipped:  # a cancelled call's response is not sent
        result = response.get("result")
        if "error" in response:
            outcome = f"error {response['error'].get('code')}"
        elif isinstance(result, dict) and result.get("isError"):
            outcome = "tool error"
        else:
            outcome = "ok"
    request_id = message.get("id", "-")
    print(
        printable(f"skillc-mcp: {method} [{request_id}] {outcome} {seconds * 1000:.1f} ms"),
        file=sys.stderr,
        flush=True,
    )


def _is_skill_method(message: object) -> bool:
    from skillc_mcp._protocol import SKILL_METHODS

    watching = ("subscriptions/listen", "resources/subscribe")
    return isinstance(message, dict) and (
        message.get("method") in SKILL_METHODS or message.get("method") in watching
    )


def _is_cancellation(message: object) -> bool:
    """Whether ``message`` is a ``notifications/cancelled`` to act on (not one nested past
    the bound: :func:`~skillc_mcp._cut.dropped`)."""
    return (
        isinstance(message, dict)
        and dropped(message) is None
        and message.get("method") == "notifications/cancelled"
        and "id" not in message
        and isinstance(message.get("params"), dict)
    )


def serve_stdio(server: Server | None = None, *, log_requests: bool = False) -> int:
    """Serve MCP on this process's stdin and stdout until end of input or SIGTERM/SIGINT;
    the exit status (0 at end of input, 128 + the signal number after a signal)."""
    import signal

    wire_in, wire_out = claim_stdio()
    connection = Connection(wire_in, wire_out, server, log_requests=log_requests)
    if threading.current_thread() is not threading.main_thread():
        return connection.serve()  # signal handlers belong to the main thread

    def on_signal(signum: int, _frame: object) -> None:
        signal.signal(signum, signal.SIG_DFL)  # a second one ends the process at once
        connection.stop(signum)

    signals = (signal.SIGTERM, signal.SIGINT)
    previous = {signum: signal.signal(signum, on_signal) for signum in signals}
    try:
        return connection.serve()
    finally:
        for signum, handler in previous.items():
            signal.signal(signum, handler)
