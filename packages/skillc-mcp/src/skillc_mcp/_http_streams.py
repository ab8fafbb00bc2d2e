"""Event streams of the HTTP transport: change notifications to clients that asked for them.

- ``POST`` of a 2026-07-28 ``subscriptions/listen`` request is answered with an event stream
  (``text/event-stream``): the acknowledgement first, then the stream's notifications as the
  served skills change, and the request's response when the server stops.
- ``GET`` with a legacy session's ``Mcp-Session-Id`` opens that session's stream (one at a
  time): ``notifications/resources/list_changed``, and ``notifications/resources/updated`` for
  the URIs it subscribed to. It ends with the session (DELETE) or the server.

One :class:`Hub` watches the served skills for every stream: the skills' watcher (inotify) wakes
the event loop, which lets a burst of writes settle, reads the skills once in a worker thread
and hands what changed (:func:`skillc_mcp._listen.compare`) to each stream. A request that read
the skills first (and so took the watcher's events) pokes the hub as well. A stream whose
client does not read falls behind by at most :data:`MAX_BACKLOG` changes and is then ended,
and one whose client takes no write for :data:`SEND_SECONDS` (its socket's buffer full) is
given up, as is a write that waits when the stream ends (the server stops): such a client
held its stream's place, and the server's stop, for as long as it stayed connected; an idle
stream gets a comment line every :data:`KEEPALIVE_SECONDS` so proxies keep it open.
"""

from __future__ import annotations

import asyncio
import sys
from collections.abc import Awaitable, Callable, Iterable, MutableMapping
from functools import partial
from typing import TYPE_CHECKING, Any

from skillc_mcp._failures import log_failure
from skillc_mcp._http_guard import Shares
from skillc_mcp._stdio import SETTLE_SECONDS

if TYPE_CHECKING:
    from skillc_gateway.served_entry import Snapshot
    from skillc_mcp._listen import Changes

Message = MutableMapping[str, Any]
Receive = Callable[[], Awaitable[Message]]
Send = Callable[[Message], Awaitable[None]]

MAX_STREAMS = 256
"""Event streams open at once, at most (beyond: 503)."""
MAX_USER_STREAMS = 32
"""Event streams one user (token) has open at once, at most (beyond: 503): one token holder's
256 ``subscriptions/listen`` streams left the rest of the team none."""
MAX_BACKLOG = 64
SEND_SECONDS = 30.0
KEEPALIVE_SECONDS = 25.0
_END = None


class Stream:
    """One open event stream: what to send for a change, and how it ends."""

    def __init__(
        self,
        notes: Callable[[Changes], list[dict[str, Any]]],
        last: dict[str, Any] | None,
        user: str | None = None,
        uris: Callable[[], Iterable[str]] = tuple,
    ) -> None:
        self.notes = notes
        self.uris = uris
        """The resources it is subscribed to (their skills are built for it)."""
        self.user = user
        """Whose stream it is (a token's name; None without tokens), for its share."""
        self.last = last
        """The message that ends the stream on purpose (a listen's response), if any."""
        self.queue: asyncio.Queue[Changes | None] = asyncio.Queue()
        self.ended = False
        self.stopped = asyncio.Event()
        """Set when the stream ends: a write that waits for the client is given up."""

    def push(self, item: Changes) -> None:
        if self.ended:
            return
        if self.queue.qsize() >= MAX_BACKLOG:  # fallen behind: ended (the client listens again)
            self.last = None
            self.end()
            return
        self.queue.put_nowait(item)

    def end(self) -> None:
        """End the stream: what waits is dropped, the end comes next."""
        if self.ended:
            return
        self.ended = True
        self.stopped.set()
        while not self.queue.empty():
            self.queue.get_nowait()
        self.queue.put_nowait(_END)


class Hub:
    """Watches the served skills for the open streams (see the module)."""

    def __init__(
        self,
        snapshot: Callable[[Iterable[str]], Snapshot],
        watch_fd: Callable[[], int | None],
        run: Callable[[Callable[[], Any]], Awaitable[Any]],
        max_streams: int = MAX_STREAMS,
        max_user_streams: int = MAX_USER_STREAMS,
    ) -> None:
        self._snapshot = snapshot
        self._watch_fd = watch_fd
        self._run = run
        self.shares = Shares(max_user_streams, max_streams)
        """The streams open, and each user's."""
        self.streams: set[Stream] = set()
        self._seen: Snapshot | None = None
        """The served skills of the last look (those built: a stream builds none)."""
        self._fd: int | None = None
        self._loop: asyncio.AbstractEventLoop | None = None
        self._looking = False
        self._again = False
        self._task: asyncio.Future[None] | None = None

    @property
    def can_watch(self) -> bool:
        return sys.platform.startswith("linux")

    async def open(self, stream: Stream) -> bool:
        """Add ``stream``; False when all the streams :attr:`shares` allows are open, or all
        its user's are."""
        if not self.shares.take(stream.user):
            return False
        self.streams.add(stream)
        if self._loop is None:  # the first stream: read the skills, then watch them
            try:
                self._seen = await self._run(partial(self._snapshot, stream.uris()))
            except BaseException:
                self.close(stream)
                raise
            self._loop = asyncio.get_running_loop()
            self._fd = self._watch_fd()
            if self._fd is not None:
                self._loop.add_reader(self._fd, self._wake)
        return True

    def close(self, stream: Stream) -> None:
        if stream in self.streams:
            self.streams.discard(stream)
            self.shares.give_back(stream.user)

    def poke(self) -> None:
        """Look again soon (from any thread): a request read the skills, and their changes."""
        if self._loop is not None:
            self._loop.call_soon_threadsafe(self._wake)

    def end_all(self) -> None:
        """End every stream (from any thread: the server stops)."""
        if self._loop is not None:
            self._loop.call_soon_threadsafe(self._end_all)

    def _end_all(self) -> None:
        for stream in list(self.streams):
            stream.end()

    def _wake(self) -> None:
        if self._looking:
            self._again = True
            return
        self._looking = True
        if self._fd is not None and self._loop is not None:
            self._loop.remove_reader(self._fd)  # until the look has read the events
        self._task = asyncio.ensure_future(self._look())

    async def _look(self) -> None:
        try:
            while True:
                self._again = False
                await asyncio.sleep(SETTLE_SECONDS)
                try:  # (the import too: a changed kit is logged, and the reader added back)
                    from skillc_mcp._listen import NOTHING, compare_snapshots

                    wanted = {uri for stream in list(self.streams) for uri in stream.uris()}
                    snapshot = await self._run(partial(self._snapshot, wanted))
                except Exception as exc:  # a bug, a layout that cannot be read, a changed kit
                    log_failure(exc)
                    break
                seen = self._seen
                changes = NOTHING if seen is None else compare_snapshots(seen, snapshot)
                self._seen = snapshot
                if changes.listed:
                    for stream in list(self.streams):
                        stream.push(changes)
                if not self._again:
                    break
        finally:
            self._looking = False
            if self._fd is not None and self._loop is not None:
                self._loop.add_reader(self._fd, self._wake)


def _event(message: dict[str, Any]) -> bytes:
    from skillc_mcp._stdio import encode

    return b"event: message\ndata: " + encode(message).rstrip(b"\n") + b"\n\n"


async def serve_stream(
    hub: Hub,
    stream: Stream,
    first: list[dict[str, Any]],
    send: Send,
    receive: Receive,
    extra: list[tuple[bytes, bytes]],
) -> int:
    """Send the event stream (``first``, then ``stream``'s changes) until it ends or the
    client goes; the status (503 when too many streams are open)."""
    if not await hub.open(stream):
        from skillc_mcp._http import reply

        body = b'{"error":"busy: too many event streams are open"}'
        return await reply(send, 503, body, [*extra, (b"retry-after", b"5")])
    headers = [
        (b"content-type", b"text/event-stream"),
        (b"cache-control", b"no-cache"),
        *extra,
    ]
    gone: asyncio.Future[Any] = asyncio.ensure_future(_disconnected(receive))
    item: asyncio.Future[Any] = asyncio.ensure_future(stream.queue.get())
    try:
        await send({"type": "http.response.start", "status": 200, "headers": headers})
        for message in first:
            if not await _sent(send, _event(message), stream):
                return 200
        while True:
            done, _ = await asyncio.wait(
                {item, gone}, timeout=KEEPALIVE_SECONDS, return_when=asyncio.FIRST_COMPLETED
            )
            if gone in done:
                return 200
            if item not in done:
                if not await _sent(send, b": keepalive\n\n", stream):
                    return 200
                continue
            changes = item.result()
            if changes is _END:
                body = b"" if stream.last is None else _event(stream.last)
                await _sent(send, body, None)
                return 200
            item = asyncio.ensure_future(stream.queue.get())
            body = b"".join(_event(note) for note in stream.notes(changes))
            if body and not await _sent(send, body, stream):
                return 200
    finally:
        hub.close(stream)
        gone.cancel()
        item.cancel()


async def _sent(send: Send, body: bytes, stream: Stream | None) -> bool:
    """Send ``body`` of the stream (its last, without ``stream``); whether it was sent: not
    when the client took no write for :data:`SEND_SECONDS` (its last one within
    ``SETTLE_SECONDS``), nor when ``stream`` ended meanwhile. The stream is then given up
    (its connection closes without the rest of the response)."""
    message = {"type": "http.response.body", "body": body, "more_body": stream is not None}
    timeout = SEND_SECONDS if stream is not None else SETTLE_SECONDS
    return await sent_within(send, message, timeout, None if stream is None else stream.stopped)


async def sent_within(
    send: Send, message: Message, timeout: float | None = None, stop: asyncio.Event | None = None
) -> bool:
    """Send ``message``; whether it was sent within ``timeout`` seconds (:data:`SEND_SECONDS`
    by default) and before ``stop``: a client that reads nothing holds no more than a
    socket's buffer for longer."""
    sending = await ended_within(send(message), SEND_SECONDS if timeout is None else timeout, stop)
    return sending.done() and not sending.cancelled() and sending.exception() is None


async def ended_within(
    awaitable: Awaitable[Any], timeout: float, stop: asyncio.Event | None = None
) -> asyncio.Future[Any]:
    """``awaitable`` as a task, awaited at most ``timeout`` seconds and not past ``stop``
    being set: cancelled when it has not ended by then (the caller reads ``done()``)."""
    task = asyncio.ensure_future(awaitable)
    waits: set[asyncio.Future[Any]] = {task}
    if stop is not None:
        waits.add(asyncio.ensure_future(stop.wait()))
    try:
        await asyncio.wait(waits, timeout=timeout, return_when=asyncio.FIRST_COMPLETED)
    finally:
        for waiting in waits:
            if not waiting.done():
                waiting.cancel()
    return task


REPLY_CHUNK = 1 << 16
"""A plain response's body is sent in pieces of this many bytes, each within
:data:`SEND_SECONDS` (:func:`send_reply`)."""


async def send_reply(send: Send, start: Message, body: bytes) -> bool:
    """Send a plain (not event-stream) response, its body in :data:`REPLY_CHUNK` pieces, each
    within :data:`SEND_SECONDS`, as a stream's; whether all was sent. A client that read no
    reply held it whole (1.3 GB for six replies) for as long as it stayed connected: it is
    given up (the connection closes without the rest)."""
    if not await sent_within(send, start):
        return False
    pieces = range(0, len(body), REPLY_CHUNK) if body else range(1)
    for at in pieces:
        more = at + REPLY_CHUNK < len(body)
        message = {"type": "http.response.body", "body": body[at : at + REPLY_CHUNK]}
        if not await sent_within(send, {**message, "more_body": more}):
            return False
    return True


class Cancels:
    """The calls of legacy sessions running now, and whether their client cancelled them
    with ``notifications/cancelled`` (the SDK's legacy era does, and may leave the call's
    connection open: :func:`client_went` sees nothing then). On the event loop only."""

    def __init__(self) -> None:
        self._running: dict[tuple[str, object], bool] = {}

    def notified(self, session: str | None, message: object) -> bool:
        """Whether ``message`` is a cancellation on legacy session ``session``; the call it
        names, running, is noted as cancelled (no thread: answered at once)."""
        from skillc_mcp._protocol import valid_id
        from skillc_mcp._stdio import _is_cancellation

        if session is None or not _is_cancellation(message):
            return False
        key = (session, valid_id(message["params"].get("requestId")))  # type: ignore[index]
        if key in self._running:
            self._running[key] = True
        return True

    async def watch(
        self,
        session: str | None,
        message: object,
        running: asyncio.Future[Any],
        receive: Receive,
        gone: Callable[[], None] | None = None,
    ) -> tuple[bool, bool]:
        """Wait until ``running`` (the call of ``message``) is done: whether its client went
        (:func:`client_went`, which calls ``gone`` then), and whether it cancelled it by a
        notification meanwhile."""
        from skillc_mcp._protocol import request_id_of

        request_id = None if session is None else request_id_of(message)
        if session is None or request_id is None:
            return await client_went(running, receive, gone), False
        key = (session, request_id)
        self._running[key] = False
        try:
            went = await client_went(running, receive, gone)
        finally:
            noted = self._running.pop(key, False)
        return went, noted


async def client_went(
    running: asyncio.Future[Any], receive: Receive, on_gone: Callable[[], None] | None = None
) -> bool:
    """Wait until ``running`` (a call in the pool) is done; whether the client went meanwhile
    (it cancelled the request: its connection closed). ``on_gone`` is called then (a batch
    leaves its calls not yet run); the call running is not stopped (a thread is not): it
    finishes, holding its place among the running requests, and its response is dropped."""
    gone: asyncio.Future[Any] = asyncio.ensure_future(_disconnected(receive))
    try:
        await asyncio.wait({running, gone}, return_when=asyncio.FIRST_COMPLETED)
        went = gone.done() and not gone.cancelled() and gone.exception() is None
        if went:
            if on_gone is not None:
                on_gone()
            await asyncio.wait({running})
        return went
    finally:
        gone.cancel()


async def _disconnected(receive: Receive) -> None:
    while (await receive())["type"] != "http.disconnect":
        pass
