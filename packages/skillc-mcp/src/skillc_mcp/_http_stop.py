"""The HTTP transport's stop (SIGINT, SIGTERM): one deadline, :data:`STOP_SECONDS`.

When the signal comes the server stops accepting and ends the event streams; a body still
coming is given up (503), a batch runs no more calls (those left are -32603, those done
keep their responses), and a call running gets until :data:`CUT_SECONDS`: one that has not
finished then is answered -32603 (its thread cannot be stopped). A connection still open
at :data:`CLOSE_SECONDS` (a client that reads no reply) is closed, uvicorn's graceful
timeout is :data:`STOP_SECONDS`, and the access-log rows are written once the worker calls
are done or that deadline has passed (nothing waits past it, the Skills extension's lock
included): the process then exits, whatever thread still runs. Before, a call over 30 s
got HTTP 500, uvicorn printed a ``CancelledError`` traceback, and the process waited for
the call anyway.
"""

from __future__ import annotations

import asyncio
import threading
import time
from collections.abc import Callable, Iterator, Sequence
from concurrent.futures import Executor
from contextlib import contextmanager
from typing import Any, TypeVar

from skillc_mcp._protocol import (
    INTERNAL_ERROR,
    NOT_RUN,
    ProtocolError,
    Response,
    error_response,
    request_id_of,
)

T = TypeVar("T")

STOP_SECONDS = 30.0
"""The server's stop takes at most this long after the signal."""
CUT_SECONDS = STOP_SECONDS - 3
"""A call still running this long after the signal is answered -32603."""
CLOSE_SECONDS = STOP_SECONDS - 2
"""A connection still open this long after the signal is closed (its response given up)."""


class Stop:
    """The stop's state. Its events are made on the server's event loop (:meth:`bind`, at
    the lifespan's startup); without them no stop is watched."""

    def __init__(self) -> None:
        self.started = False
        self.deadline: float | None = None
        """When the stop must be over (:func:`time.monotonic`), once it started."""
        self._started: asyncio.Event | None = None
        self._cut: asyncio.Event | None = None
        self._batches: set[threading.Event] = set()
        self._loop: asyncio.AbstractEventLoop | None = None

    def bind(self) -> None:
        """Note the running event loop (the server's)."""
        self._loop = asyncio.get_running_loop()
        self._started, self._cut = asyncio.Event(), asyncio.Event()

    def begin(self) -> None:
        """The signal came (from its handler, any thread)."""
        if self.deadline is None:
            self.deadline = time.monotonic() + STOP_SECONDS
        if self._loop is not None:
            self._loop.call_soon_threadsafe(self._begin)

    def _begin(self) -> None:
        if self.started or self._loop is None or self._started is None or self._cut is None:
            return
        self.started = True
        self._started.set()
        for stop in self._batches:
            stop.set()
        self._loop.call_later(CUT_SECONDS, self._cut.set)

    @contextmanager
    def batch(self, stop: threading.Event) -> Iterator[None]:
        """While a call runs: ``stop`` is set when the server stops (a batch runs no more)."""
        self._batches.add(stop)
        if self.started:
            stop.set()
        try:
            yield
        finally:
            self._batches.discard(stop)

    async def until_cut(self, running: asyncio.Future[Any]) -> None:
        """Wait until ``running`` is done or the stop cuts it."""
        if self._cut is None:
            await asyncio.wait({running})
            return
        cut = asyncio.ensure_future(self._cut.wait())
        try:
            await asyncio.wait({running, cut}, return_when=asyncio.FIRST_COMPLETED)
        finally:
            cut.cancel()

    async def before(self, awaitable: Any, timeout: float) -> tuple[bool, Any]:
        """(True, its result) when ``awaitable`` ends within ``timeout`` seconds and before
        the stop starts, else (False, None)."""
        from skillc_mcp._http_streams import ended_within

        task = await ended_within(awaitable, timeout, self._started)
        if task.done() and not task.cancelled():
            return True, task.result()
        return False, None


def cut_response(
    message: object, answered: Sequence[Response] = ()
) -> dict[str, Any] | list[dict[str, Any]] | None:
    """The answer to ``message`` whose call the stop cut: -32603 "stopped before this call
    finished" (``data: {"ran": "unknown"}``) for the call running, and for a batch's
    messages after it, which never ran, -32603 "not run" (``data: {"ran": false}``, as a
    batch stopped between calls says); a batch's first messages answered already
    (``answered``, one each) keep their responses (those calls ran, and their uses are
    logged)."""
    cut = ProtocolError(
        INTERNAL_ERROR,
        "Internal error: the server stopped before this call finished",
        {"ran": "unknown"},
    )
    if not isinstance(message, list):
        request_id = request_id_of(message)
        return None if request_id is None else error_response(request_id, cut)
    done = list(answered)[: len(message)]
    responses = [each for each in done if isinstance(each, dict)]
    not_run = ProtocolError(INTERNAL_ERROR, NOT_RUN, {"ran": False})
    for position, each in enumerate(message[len(done) :]):
        request_id = request_id_of(each)
        if request_id is not None:  # the first one left is the one running
            responses.append(error_response(request_id, not_run if position else cut))
    return responses or None


class Calls:
    """The calls given to the worker threads and not yet done (counted without the pool's
    private ``_threads``): :meth:`wait` for them until the stop's deadline."""

    def __init__(self) -> None:
        self._pending = 0
        self._done = threading.Condition()

    def submit(self, pool: Executor, call: Callable[..., T], *args: Any) -> asyncio.Future[T]:
        """``call(*args)`` in ``pool``, counted until it is done or cancelled (from the
        event loop)."""
        future = pool.submit(call, *args)  # a pool shut down raises: nothing counted
        with self._done:
            self._pending += 1
        future.add_done_callback(self._one_done)  # at once when it is done already
        return asyncio.wrap_future(future)

    def _one_done(self, _future: object) -> None:
        with self._done:
            self._pending -= 1
            self._done.notify_all()

    def wait(self, deadline: float | None) -> bool:
        """Wait until every call is done, or until ``deadline`` (:func:`time.monotonic`;
        None: no end); whether every one is."""
        with self._done:
            while self._pending:
                left = None if deadline is None else deadline - time.monotonic()
                if left is not None and left <= 0:
                    return False
                self._done.wait(left)
            return True


def close_connections(connections: Any, loop: asyncio.AbstractEventLoop) -> None:
    """At :data:`CLOSE_SECONDS` after the stop started, close ``connections`` (uvicorn's
    protocols) still open: their buffered replies are dropped (a client that read none held
    the stop for uvicorn's 30 s, which then logged an error)."""

    def close() -> None:
        for connection in list(connections):
            transport = getattr(connection, "transport", None)
            if transport is not None:  # abort: a close waits for the client to read
                transport.abort()

    loop.call_later(CLOSE_SECONDS, close)
