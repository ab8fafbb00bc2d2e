"""The MCP Streamable HTTP transport (``skc mcp --http HOST:PORT``): a team server.

One endpoint, ``/mcp``. Each POST carries one JSON-RPC message and is answered with one JSON
object (or 202 Accepted for a notification), except a ``subscriptions/listen`` request, which is
answered with an event stream; GET opens a legacy session's event stream (change
notifications: :mod:`skillc_mcp._http_streams`). The messages are answered by the same
:class:`~skillc_mcp._protocol.Server` as on stdio: one dispatcher, two transports.

Both protocol eras: the ``initialize`` handshake opens a session (``Mcp-Session-Id``, a random
id; DELETE ends it; an unknown or expired id is 404, so the client starts again), and each
later legacy request names it; a 2026-07-28 request carries its version in ``_meta`` and needs
no session (that revision has none), and must mirror its version, method and name in the
``MCP-Protocol-Version``, ``Mcp-Method`` and ``Mcp-Name`` headers (400 -32020 otherwise). A
legacy request's ``MCP-Protocol-Version`` header, when sent, must name a version this server
speaks: 400 otherwise.

Security (the transport specification's "Security Warning"; the checks are in
:mod:`skillc_mcp._http_guard`):

- The address is loopback by default; any other address needs tokens (E061 otherwise).
- With tokens, every request needs ``Authorization: Bearer <token>`` (compared in constant
  time); a refusal is 401 with a fixed body; no token is ever logged or sent back.
- A ``Host`` that is not accepted is 421, an ``Origin`` that is not accepted 403 (DNS
  rebinding). Without tokens, a connection from another user of the machine is 403.
- What users may do: the tools read (``skc_init`` and ``skc_build`` only with
  ``allow_writes``, ``--allow-writes``), and never a hidden file (``hidden: true``).
- Bounds: a request's head must come within 10 s, at most 512 connections are open, 64 of
  one peer (:mod:`skillc_mcp._http_conn`); a body over :data:`MAX_BODY` bytes is 413 (read
  no further), one not all come within :data:`BODY_SECONDS` 408; at most ``workers``
  requests run at a time and ``max_waiting`` more wait (or send their body), of them
  ``max_user_requests`` of one user, beyond that 503 with ``Retry-After``; at most
  ``max_sessions`` sessions, ``max_user_sessions`` of one user (a new one ends that user's
  least recently used), each ending after ``session_idle`` seconds unused (an
  ``initialize`` refused or failed opens none).

SIGINT and SIGTERM stop the server cleanly: it stops accepting, lets running calls finish,
writes the queued access-log rows, and exits with 128 + the signal number, all within one
deadline (:mod:`skillc_mcp._http_stop`).

The access log records the user: each token name has its own tool runner whose run id ends
in ``@<name>``; ``skc sync --to`` uploads those rows under that name as their user.

This module imports only the standard library; :func:`~skillc_mcp._http_serve.serve_http`
(in a module of its own) imports uvicorn (the ``http`` extra) when it starts.
"""

from __future__ import annotations

import asyncio
import json
import secrets
import sys
import threading
import time
from collections import OrderedDict
from collections.abc import Awaitable, Callable, Mapping, MutableMapping, Sequence
from concurrent.futures import ThreadPoolExecutor
from typing import TYPE_CHECKING, Any

from skillc_mcp._http_guard import (
    MAX_USER_REQUESTS,
    Gate,
    Shares,
    header_refusal,
    message_meta,
)
from skillc_mcp._http_stop import Calls, Stop, cut_response
from skillc_mcp._http_streams import Cancels, Hub, Stream, send_reply, serve_stream
from skillc_mcp._protocol import (
    INVALID_REQUEST,
    METHOD_NOT_FOUND,
    MODERN_VERSIONS,
    PARSE_ERROR,
    UNSUPPORTED_PROTOCOL_VERSION,
    VERSION_KEY,
    ProtocolError,
    Server,
    error_response,
    valid_id,
)
from skillc_mcp._skills import LockedSkills

if TYPE_CHECKING:
    from typing import TextIO

    from skillc_mcp._skills import SkillsMethods
    from skillc_mcp._tools import ToolRunner

ENDPOINT = "/mcp"
MAX_BODY = 1 << 20
"""The largest request body read (1 MiB, as the stdio server's longest line); larger is 413."""
WORKERS = 4
MAX_WAITING = 64
MAX_SESSIONS = 1000
MAX_USER_SESSIONS = 100
"""A user's sessions, at most: a new one ends that user's least recently used (one token
holder's ``initialize`` burst filled the 1,000 and locked every other user out)."""
SESSION_IDLE_SECONDS = 3600.0
BODY_SECONDS = 30.0
"""A request's body must all come within this long (408 otherwise)."""
CLIENT_WENT = 499
"""The status of a request whose client went before its response (nginx's): a call it
cancelled (``--log-requests`` says ``cancelled``, as the stdio server's log does)."""

Scope = MutableMapping[str, Any]
Message = MutableMapping[str, Any]
Receive = Callable[[], Awaitable[Message]]
Send = Callable[[Message], Awaitable[None]]

_NOT_ACCEPTABLE = b'{"error":"not acceptable: subscriptions/listen answers with an event stream"}'


# -- sessions -----------------------------------------------------------------------------


class _Session:
    __slots__ = ("server", "stream", "used", "user")

    def __init__(self, server: Server, user: str | None) -> None:
        self.server = server
        self.user = user
        self.used = time.monotonic()
        self.stream: Stream | None = None
        """Its open GET event stream, if any."""


class App:
    """The ASGI application: ``/mcp`` over :class:`Server` (see the module docstring)."""

    def __init__(
        self,
        *,
        tokens: Mapping[str, bytes] | None = None,
        allowed_origins: Sequence[str] = (),
        allowed_hosts: Sequence[str] = (),
        loopback: bool = True,
        allowed_targets: Sequence[str] = (),
        allow_writes: bool = False,
        workers: int = WORKERS,
        max_waiting: int = MAX_WAITING,
        max_sessions: int = MAX_SESSIONS,
        max_user_sessions: int = MAX_USER_SESSIONS,
        max_user_requests: int = MAX_USER_REQUESTS,
        session_idle: float = SESSION_IDLE_SECONDS,
        max_body: int = MAX_BODY,
        log_requests: bool = False,
        refusals_log: TextIO | None = None,
    ) -> None:
        self.gate = Gate(tokens or {}, allowed_origins, allowed_hosts, loopback)
        self._allowed_targets = tuple(allowed_targets)
        self._allow_writes = allow_writes
        self._pool = ThreadPoolExecutor(workers, thread_name_prefix="skillc-mcp-http")
        self._calls = Calls()  # those given to the pool and not done: close waits for them
        self._requests = Shares(max_user_requests, workers + max_waiting)  # a user's, all
        self.max_sessions = max_sessions
        self.max_user_sessions = max_user_sessions
        self.session_idle = session_idle
        self.max_body = max_body
        self._log_requests = log_requests
        self._sessions: OrderedDict[str, _Session] = OrderedDict()
        self._runners: dict[str | None, ToolRunner] = {}
        self._stateless: dict[str | None, Server] = {}
        self._skills = LockedSkills(refusals_log)
        self._cancels = Cancels()
        self._lock = threading.RLock()  # _route holds it while it makes a session's runner
        self._hub = Hub(self._skills.snapshot, self._skills.watch_fd, self._in_pool)
        self._skills.on_change = self._hub.poke
        self.stop = Stop()

    def _in_pool(self, call: Callable[[], Any]) -> Awaitable[Any]:
        return self._calls.submit(self._pool, call)

    # -- shared state -------------------------------------------------------------------

    def _runner(self, user: str | None) -> ToolRunner:
        with self._lock:
            runner = self._runners.get(user)
            if runner is None:
                from skillc_index.accesslog.store import new_run_id
                from skillc_mcp._tools import ToolRunner

                run_id = new_run_id() if user is None else f"{new_run_id()}@{user}"
                runner = ToolRunner(
                    run_id=run_id,
                    allowed_targets=self._allowed_targets,
                    writes=self._allow_writes,
                    hidden=False,
                )
                self._runners[user] = runner
            return runner

    def _server(self, user: str | None) -> Server:
        skills: SkillsMethods = self._skills  # type: ignore[assignment]  # same methods
        # the runner is made by the first call that needs it, in that call's guard (a kit
        # removed since the start says to restart the server, not a failed request)
        server = Server(make_tools=lambda: self._runner(user), skills=skills)
        server.notifies = self._hub.can_watch
        return server

    def _stateless_server(self, user: str | None) -> Server:
        server = self._stateless.get(user)
        if server is None:
            server = self._stateless[user] = self._server(user)
        return server

    def _new_session(self, user: str | None) -> str | None:
        now = time.monotonic()
        while self._sessions:
            oldest = next(iter(self._sessions.values()))
            if now - oldest.used <= self.session_idle:
                break
            self._end_session(next(iter(self._sessions)))
        mine = [key for key, session in self._sessions.items() if session.user == user]
        if len(mine) >= self.max_user_sessions:  # the user's least recently used ends
            self._end_session(mine[0])
        if len(self._sessions) >= self.max_sessions:
            return None
        session_id = secrets.token_urlsafe(24)
        self._sessions[session_id] = _Session(self._server(user), user)
        return session_id

    def _session(self, session_id: str, user: str | None) -> _Session | None:
        session = self._sessions.get(session_id)
        if session is None or session.user != user:
            return None
        now = time.monotonic()
        if now - session.used > self.session_idle:
            self._end_session(session_id)
            return None
        session.used = now
        self._sessions.move_to_end(session_id)
        return session

    def _end_session(self, session_id: str) -> None:
        """End a session (under the lock, on the event loop), and its event stream with it
        (an expired session's stream stayed open, held its place and got notes)."""
        ended = self._sessions.pop(session_id, None)
        if ended is not None and ended.stream is not None:
            ended.stream.end()

    def stopping(self) -> None:
        """The server stops (from a signal handler): every event stream ends, and the rest
        as :mod:`skillc_mcp._http_stop` says."""
        self.stop.begin()
        self._hub.end_all()

    def close(self) -> bool:
        """Let running calls finish (until the stop's deadline, when it has one), then write
        the access-log rows; whether every call finished. Nothing here waits past the
        deadline: the access-log writers get the time left until it (one may sit in SQLite's
        busy wait on a log another process holds), none with a call still running; the
        served skills are closed only if their lock comes by then (a ``skills/list``
        running holds it), and a runner's find catalogs stay open (its call may be reading
        one)."""
        deadline = self.stop.deadline
        self._pool.shutdown(wait=deadline is None, cancel_futures=True)
        finished = self._calls.wait(deadline)
        for runner in self._runners.values():
            writing = None if deadline is None else max(0.0, deadline - time.monotonic())
            runner.close(catalogs=finished, timeout=writing if finished else 0.0)
        left = None if finished or deadline is None else max(0.0, deadline - time.monotonic())
        self._skills.close(left)
        return finished

    # -- ASGI -------------------------------------------------------------------------------

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        if scope["type"] == "lifespan":
            await self._lifespan(receive, send)
            return
        if scope["type"] != "http":
            return
        start = time.perf_counter()
        headers: dict[str, str] = {}
        for key, value in scope.get("headers", ()):
            headers.setdefault(key.decode("latin-1").lower(), value.decode("latin-1"))
        status, user, what = await self._request(scope, headers, receive, send)
        if self._log_requests:
            ms = (time.perf_counter() - start) * 1000
            who = user or "-"
            shown = "cancelled" if status == CLIENT_WENT else status  # as on stdio
            line = f"skillc-mcp: {who} {scope['method']} {what} {shown} {ms:.1f} ms"
            print(line, file=sys.stderr, flush=True)

    async def _lifespan(self, receive: Receive, send: Send) -> None:
        while True:
            message = await receive()
            if message["type"] == "lifespan.startup":
                self.stop.bind()
                await send({"type": "lifespan.startup.complete"})
            elif message["type"] == "lifespan.shutdown":
                await send({"type": "lifespan.shutdown.complete"})
                return

    async def _request(
        self, scope: Scope, headers: dict[str, str], receive: Receive, send: Send
    ) -> tuple[int, str | None, str]:
        """Answer one request; (status, user, what for the log)."""
        if scope.get("path") != ENDPOINT:
            body = b'{"error":"not found: the MCP endpoint is /mcp"}'
            return await reply(send, 404, body), None, "-"
        refused = self.gate.refuse(scope, headers)
        if refused is not None:  # Host, Origin, the peer's user: no CORS header
            return await reply(send, *refused), None, "-"
        send = self.gate.cross_origin(send, headers)
        user, refused = self.gate.admit(scope, headers)
        if refused is not None:  # a CORS preflight, the token
            return await reply(send, *refused), None, "-"
        method = scope["method"]
        refusal = header_refusal(headers, None) if method != "POST" else None
        if refusal is not None:
            return await _json(send, 400, error_response(None, refusal)), user, method
        if method == "DELETE":
            session_id = headers.get("mcp-session-id", "")
            with self._lock:
                session = self._session(session_id, user)
                if session is not None:
                    self._end_session(session_id)
            return await reply(send, 404 if session is None else 204, b""), user, "DELETE"
        if method == "GET":
            return await self._get(headers, receive, send, user), user, "GET"
        if method != "POST":
            extra = [(b"allow", b"GET, POST, DELETE")]
            return await reply(send, 405, b'{"error":"method not allowed"}', extra), user, method
        return await self._post(headers, receive, send, user)

    async def _get(
        self, headers: dict[str, str], receive: Receive, send: Send, user: str | None
    ) -> int:
        """A legacy session's event stream (one at a time)."""
        from skillc_mcp._listen import legacy_notes

        if "text/event-stream" not in headers.get("accept", ""):
            return await reply(send, 406, b'{"error":"not acceptable: GET is an event stream"}')
        session_id = headers.get("mcp-session-id")
        if session_id is None:
            body = b'{"error":"Mcp-Session-Id header required (initialize first)"}'
            return await reply(send, 400, body)
        with self._lock:
            session = self._session(session_id, user)
            opened = session is not None and session.stream is None and self._hub.can_watch
            if session is not None and opened:
                subscribed = session.server.subscriptions
                session.stream = Stream(
                    lambda changes: legacy_notes(changes, subscribed),
                    None,
                    user,
                    lambda: tuple(subscribed),
                )
        if session is None:
            return await reply(send, 404, b'{"error":"Session not found: initialize again"}')
        if not opened or session.stream is None:
            return await reply(send, 409, b'{"error":"conflict: the session has its stream"}')
        try:
            return await serve_stream(self._hub, session.stream, [], send, receive, [])
        finally:
            session.stream = None

    async def _post(
        self, headers: dict[str, str], receive: Receive, send: Send, user: str | None
    ) -> tuple[int, str | None, str]:
        length = headers.get("content-length", "")
        if length.isdigit() and int(length) > self.max_body:
            return await _too_large(send, self.max_body), user, "-"
        with self._lock:  # a request counts from its body on: bodies held are bounded too
            busy = not self._requests.take(user)
        if busy:
            error = error_response(None, ProtocolError(INVALID_REQUEST, "busy: too many requests"))
            return await _json(send, 503, error, [(b"retry-after", b"1")]), user, "-"
        extra: list[tuple[bytes, bytes]] = []
        made = None
        try:
            body = await _body(receive, self.max_body, self.stop)
            if isinstance(body, int):
                if body == 503:  # the server stops
                    stopping = b'{"error":"unavailable: the server stops"}'
                    return await reply(send, 503, stopping, [(b"connection", b"close")]), user, "-"
                if body == 413:
                    return await _too_large(send, self.max_body), user, "-"
                if body == 408:
                    timeout = b'{"error":"request timeout: the body did not come"}'
                    return await reply(send, 408, timeout, [(b"connection", b"close")]), user, "-"
                return body, user, "-"
            content_type = headers.get("content-type", "").partition(";")[0].strip().lower()
            if content_type != "application/json":
                body_ = b'{"error":"unsupported media type: send application/json"}'
                return await reply(send, 415, body_), user, "-"
            from skillc_mcp._cut import dropped, read_message

            try:  # no JSON: -32700; nested too deep: a Cut, answered with its id
                parsed = read_message(bytes(body), self.max_body)
            except ValueError as exc:
                error = error_response(None, ProtocolError(PARSE_ERROR, f"Parse error: {exc}"))
                return await _json(send, 400, error), user, "-"
            what = _what(parsed)
            if dropped(parsed) is not None:  # a notification nested too deep: never acted on
                return await reply(send, 400, b""), user, what
            refusal = header_refusal(headers, parsed)
            if refusal is not None:
                return await _json(send, 400, error_response(_id_of(parsed), refusal)), user, what
            accept = headers.get("accept", "")
            if what == "subscriptions/listen" and "text/event-stream" not in accept:
                return await reply(send, 406, _NOT_ACCEPTABLE), user, what
            with self._lock:
                server, status, problem, made = self._route(parsed, headers, user)
            if made is not None:
                extra.append((b"mcp-session-id", made.encode("ascii")))
            if server is None:
                if status == 503:
                    extra.append((b"retry-after", b"60"))
                error = error_response(_id_of(parsed), ProtocolError(INVALID_REQUEST, problem))
                return await _json(send, status, error, extra), user, what
            session = headers.get("mcp-session-id") if made is None else None
            if self._cancels.notified(session, parsed):  # no thread to wait for
                return await reply(send, 202, b"", extra), user, what
            stop = threading.Event()  # a batch leaves its calls not yet run when set
            answered: list[Any] = []  # a batch's responses so far: those a cut keeps
            running = self._calls.submit(self._pool, server.handle, parsed, stop.is_set, answered)
            with self.stop.batch(stop):  # the server's stop ends a batch, and cuts a call
                waited = asyncio.ensure_future(self.stop.until_cut(running))
                went, noted = await self._cancels.watch(session, parsed, waited, receive, stop.set)
            response = running.result() if running.done() else cut_response(parsed, answered)
            if made is not None and (response is None or "error" in response):
                with self._lock:  # an initialize that failed opens no session
                    self._end_session(made)
                extra.clear()
        finally:
            with self._lock:
                self._requests.give_back(user)
        if went:
            return CLIENT_WENT, user, what
        if response is None:
            return await reply(send, 202, b"", extra), user, what
        if isinstance(response, dict) and "method" in response:  # a listen's: its stream follows
            from skillc_mcp._listen import Listen

            listen = Listen.from_ack(response)
            stream = Stream(listen.notes, listen.end(), user, lambda: listen.uris)
            status = await serve_stream(self._hub, stream, [response], send, receive, extra)
            return status, user, what
        status = await _json(send, _status(parsed, response), response, extra)  # noted: ignored
        return (CLIENT_WENT if noted else status), user, what

    def _route(
        self, message: object, headers: Mapping[str, str], user: str | None
    ) -> tuple[Server | None, int, str, str | None]:
        """The server that answers ``message`` (under the lock), or (None, status, why); and
        the session an ``initialize`` opens (it ends if the initialize fails)."""
        if isinstance(message, dict) and message.get("method") == "initialize":
            session_id = self._new_session(user)
            if session_id is None:
                return None, 503, f"busy: {self.max_sessions} sessions are open", None
            return self._sessions[session_id].server, 200, "", session_id
        session_id = headers.get("mcp-session-id")
        if session_id is not None:
            session = self._session(session_id, user)
            if session is None:
                return None, 404, "Session not found: initialize again", None
            return session.server, 200, "", None
        if (  # a 2026-07-28 client's notification (notifications/cancelled) has no _meta
            _is_modern(message)
            or headers.get("mcp-protocol-version") in MODERN_VERSIONS
            or not isinstance(message, dict)
        ):
            return self._stateless_server(user), 200, "", None
        return None, 400, "Bad Request: Mcp-Session-Id header required (initialize first)", None


def _is_modern(message: object) -> bool:
    return VERSION_KEY in message_meta(message)


def _status(message: object, response: object) -> int:
    """The HTTP status of a dispatched response: 200, but for a 2026-07-28 request's errors
    the transport specification gives one (clients tell the eras apart by them): an unknown
    method is 404 (-32601), a version not spoken 400 (-32022). A legacy request's is 200."""
    if not _is_modern(message) or not isinstance(response, dict):
        return 200
    error = response.get("error")
    code = error.get("code") if isinstance(error, dict) else None
    if code == METHOD_NOT_FOUND:
        return 404
    return 400 if code == UNSUPPORTED_PROTOCOL_VERSION else 200


def _id_of(message: object) -> object:
    """The id to answer ``message``'s refusal with: its own when it is a valid one (a string
    or an integer), else null (``NaN`` or ``1e400`` made replies that were not JSON)."""
    return valid_id(message.get("id")) if isinstance(message, dict) else None


async def _body(receive: Receive, limit: int, stop: Stop) -> bytearray | int:
    """The request's body, or a status: 413 past ``limit`` bytes, 408 when it has not all
    come within :data:`BODY_SECONDS` (a client that sends it slowly, or not at all, held a
    place and its bytes for as long as it stayed), :data:`CLIENT_WENT` when the client went,
    503 when the server stops meanwhile (such a client held the stop for 30 s)."""
    body = bytearray()

    async def read() -> int:
        more = True
        while more:
            message = await receive()
            if message["type"] == "http.disconnect":
                return CLIENT_WENT
            body.extend(message.get("body", b""))
            more = message.get("more_body", False)
            if len(body) > limit:
                return 413
        return 0

    came, status = await stop.before(read(), BODY_SECONDS)
    if not came:
        return 503 if stop.started else 408
    return status or body


def _what(message: object) -> str:
    """The method (and tool) of a message, for ``--log-requests``: no argument values, and
    control characters escaped (:func:`~skillc_index.printable`: a name holding a newline
    made up a line of its own)."""
    from skillc_index import printable

    if not isinstance(message, dict):
        return "(batch)" if isinstance(message, list) else "(invalid)"
    method = message.get("method")
    if not isinstance(method, str):
        return "(response)"
    params = message.get("params")
    if method == "tools/call" and isinstance(params, dict) and isinstance(params.get("name"), str):
        return printable(f"{method} {params['name']}"[:200])
    return printable(method[:200])


async def reply(
    send: Send, status: int, body: bytes, extra: Sequence[tuple[bytes, bytes]] = ()
) -> int:
    headers = [(b"content-length", str(len(body)).encode("ascii")), *extra]
    if body:
        headers.append((b"content-type", b"application/json"))
    start = {"type": "http.response.start", "status": status, "headers": headers}
    await send_reply(send, start, body)  # within a write deadline, as an event stream's
    return status


async def _json(
    send: Send,
    status: int,
    message: dict[str, Any] | list[dict[str, Any]],
    extra: Sequence[tuple[bytes, bytes]] = (),
) -> int:
    from skillc_mcp._stdio import encode

    return await reply(send, status, encode(message), extra)


async def _too_large(send: Send, limit: int) -> int:
    body = json.dumps({"error": f"request body larger than {limit} bytes"}).encode("ascii")
    return await reply(send, 413, body, [(b"connection", b"close")])
