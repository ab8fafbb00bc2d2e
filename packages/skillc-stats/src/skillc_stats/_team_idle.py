"""How long an upload's session sat idle inside its transaction (:class:`IdleClock`, fed by
the connection's cursors: :func:`timed_cursors`), and the cause an E043 names when that was
the server's idle timeout (:func:`idle_hint`). The driver is imported only by
:func:`timed_cursors`, called once a connection is open."""

from __future__ import annotations

import time
from collections.abc import Iterator
from contextlib import contextmanager
from typing import Any


class IdleClock:
    """When the last statement of the transaction open finished, and when the one running
    began: the session sits idle in between (the server's ``idle_in_transaction_session_timeout``
    counts that time, never a statement's own, a slow ``COPY`` included)."""

    def __init__(self) -> None:
        self.finished: float | None = None  # (None: no transaction open)
        self.running: float | None = None

    def begin(self) -> None:
        """A transaction began: idle from now until its first statement."""
        self.finished, self.running = time.monotonic(), None

    def end(self) -> None:
        self.finished = self.running = None

    @contextmanager
    def statement(self) -> Iterator[None]:
        """One statement: it began now; it finished when it returns (one that raised keeps
        the time it began, when the session stopped being idle). Outside a transaction:
        nothing kept."""
        if self.finished is None:
            yield
            return
        self.running = time.monotonic()
        yield
        self.finished, self.running = time.monotonic(), None

    def idle(self) -> float | None:
        """The seconds the session sat idle in its transaction before the statement running
        (until now between statements); None outside a transaction."""
        if self.finished is None:
            return None
        until = time.monotonic() if self.running is None else self.running
        return until - self.finished


def timed_cursors(clock: IdleClock) -> Any:
    """A ``cursor_factory`` for a psycopg connection whose statements ``clock`` times: each
    ``execute`` and each ``COPY``, its rows streamed included (a statement waiting for data:
    never idle)."""
    import psycopg

    class Timed(psycopg.Cursor[Any]):
        def execute(self, *args: Any, **kwargs: Any) -> Any:
            with clock.statement():
                return super().execute(*args, **kwargs)

        @contextmanager
        def copy(self, *args: Any, **kwargs: Any) -> Iterator[Any]:
            with clock.statement(), super().copy(*args, **kwargs) as copy:
                yield copy

    return Timed


#: PostgreSQL's own message for it (in English), which an older psycopg gives without the
#: SQLSTATE when it read the message while the session sat idle ("consuming input failed").
_SERVER_SAYS = "terminating connection due to idle-in-transaction timeout"


def idle_hint(reason: str, exc: BaseException, idle: float | None, timeout: str) -> str:
    """``reason`` (a driver's message), with the cause when the server ended the session for
    sitting idle in a transaction ``timeout`` (``"30s"``): the server says so (SQLSTATE
    25P03, or its message without it: :data:`_SERVER_SAYS`), or it closed the connection of
    a session that had sat ``idle`` (seconds: :meth:`IdleClock.idle`, given when the
    connection is broken) at least that long (libpq often loses the server's message then,
    saying only "server closed the connection unexpectedly")."""
    if getattr(exc, "sqlstate", None) == "25P03" or _SERVER_SAYS in reason:
        held = ""
    elif idle is not None and idle >= float(timeout.removesuffix("s")):
        held = f"its transaction had sat idle {idle:.0f} s: "
    else:
        return reason
    return (
        f"{reason} ({held}the server ends a session left idle {timeout} inside a transaction, "
        "idle_in_transaction_session_timeout: this process was stopped or suspended in one; "
        "run the command again, what an upload stored stays)"
    )
