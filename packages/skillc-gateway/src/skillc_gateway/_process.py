"""Passing signals on to a started program: what ``run``
(:func:`skillc_gateway._runner.run_in_group`) and ``exec``
(:func:`skillc_gateway._exec.exec_in_skill`) share.

:func:`forwarded_signals` passes SIGTERM, SIGHUP and SIGQUIT sent to this process on to the
program while it runs; :func:`signals_held` holds them and SIGINT back while a program's end
is cleaned up, and :meth:`Forwarding.starting` while it starts.
"""

from __future__ import annotations

import contextlib
import os
import signal
import subprocess
import threading
import time
from collections.abc import Callable, Iterator, Sequence
from typing import Any

__all__ = [
    "FORWARDED",
    "HELD_AT_MOST",
    "Forwarding",
    "Stopped",
    "ended",
    "forwarded_signals",
    "raise_held",
    "send_checked",
    "signals_held",
]

#: Signals passed on to a started program while this process waits for it (SIGINT from a
#: terminal reaches ``exec``'s command itself; ``run``'s tool, in a session of its own, is
#: killed as the ``KeyboardInterrupt`` goes on).
FORWARDED = ("SIGTERM", "SIGHUP", "SIGQUIT")


class Stopped(SystemExit):
    """A forwarded signal (:data:`FORWARDED`) ended the wait of :func:`forwarded_signals`
    with ``stop``: this process ends as the signal ends a process, 128 + its number (the
    command line's exit status: 143, 129, 131), once the program it was passed on to is gone."""

    def __init__(self, signum: int) -> None:
        super().__init__(128 + signum)
        self.signum = signum


Sender = Callable[[int], None]


class Forwarding:
    """The signals of :func:`forwarded_signals` and where they go: :meth:`start` is called
    with a sender (a function of a signal's number: ``process.send_signal``) once the program
    started; with ``stop``, the first signal sent on raises :class:`Stopped` until
    :meth:`settle`."""

    def __init__(self, stop: bool) -> None:
        self.stop = stop
        self.senders: list[Sender] = []
        self.missed: list[int] = []

    def before_start(self) -> int | None:
        """The number of a signal that came before the program started (none is started
        then: it would only be sent that signal), or None. With ``stop``, :class:`Stopped`
        is raised instead (called again when the start failed: 128+N, not 127)."""
        if not self.missed:
            return None
        if self.stop:
            self.stop = False
            raise Stopped(self.missed[0])
        return self.missed[0]

    @contextlib.contextmanager
    def starting(self) -> Iterator[None]:
        """While the block starts the program (``subprocess.Popen``: the fork, then the
        exec awaited), SIGINT and the forwarded signals are held (:func:`signals_held`): a
        Ctrl-C there raised ``KeyboardInterrupt`` out of ``Popen`` after the fork, and the
        program, started but never handed back, ran on (``run``'s, in a session of its own,
        misses the terminal's SIGINT). Once the block is done the forwarded ones are the
        program's (sent on by :meth:`start`; :meth:`before_start` when it did not start) and
        a SIGINT is raised (``KeyboardInterrupt``), where the caller's cleanup, which covers
        the block, kills the program. A third signal lets go at once, as there."""
        with signals_held() as came:
            try:
                yield
            finally:
                self.missed += [number for number in came if number != signal.SIGINT]
                if signal.SIGINT in came:
                    raise KeyboardInterrupt

    def start(self, sender: Sender) -> None:
        """Send the program's signals to ``sender``, first those that came before it started
        (between the fork and this call), not lost."""
        self.senders.append(sender)
        while self.missed:  # a signal handled during this loop is sent by forward itself
            self.send(self.missed.pop(0), [sender])

    def settle(self) -> None:
        """No :class:`Stopped` from now on (the program's end is being cleaned up: no
        exception may cut that short); signals are still sent on."""
        self.stop = False

    def send(self, signum: int, senders: Sequence[Sender]) -> None:
        for sender in senders:
            with contextlib.suppress(ProcessLookupError):
                sender(signum)
        if self.stop and senders:
            self.stop = False
            raise Stopped(signum)

    def forward(self, signum: int, _frame: object) -> None:
        if not self.senders:
            self.missed.append(signum)
        self.send(signum, self.senders)


@contextlib.contextmanager
def forwarded_signals(*, stop: bool = False) -> Iterator[Forwarding]:
    """While the block runs, :data:`FORWARDED` signals are sent on to the started program
    (:class:`Forwarding`, set before the program starts: a signal that comes before
    :meth:`~Forwarding.start` is sent then).

    Without ``stop`` (``exec``) SIGINT does not end this process (the command gets its own
    from the terminal and decides) and the block goes on waiting for the program's answer.
    With ``stop`` (``run``) SIGINT is left as it is (a ``KeyboardInterrupt``), and the first
    forwarded signal, once sent on, raises :class:`Stopped` in the block (later ones are only
    sent on): the block ends the program and lets it go on. A signal ignored here stays so
    (a background job's, as a shell leaves it). Handlers can only be set from the main
    thread; elsewhere nothing changes (nothing is sent on)."""
    forwarding = Forwarding(stop)
    if threading.current_thread() is not threading.main_thread():
        forwarding.stop = False
        yield forwarding
        return
    names = FORWARDED if stop else ("SIGINT", *FORWARDED)
    saved: dict[int, Any] = {}
    for name in names:
        signum = getattr(signal, name, None)
        if signum is None or signal.getsignal(signum) == signal.SIG_IGN:
            continue  # ignored (a background job): the program inherits that, as from a shell
        handler = (lambda *_: None) if name == "SIGINT" else forwarding.forward
        saved[signum] = signal.signal(signum, handler)
    try:
        yield forwarding
    finally:
        for signum, previous in saved.items():
            signal.signal(signum, previous)


#: How many signals :func:`signals_held` holds back; one more lets go at once.
HELD_AT_MOST = 2


@contextlib.contextmanager
def signals_held() -> Iterator[list[int]]:
    """While the block runs, SIGINT and the :data:`FORWARDED` signals wait: each that comes
    is noted in the list the block gets, for the caller to raise once its cleanup is done
    (:func:`raise_held`). The cleanup of a program's end (its group killed, waited for) is so
    not cut short by a second Ctrl-C; a third signal (:data:`HELD_AT_MOST`) lets go, raised
    in the block at once: a program that will not die (stuck in the kernel) never makes this
    process immune. The handlers are swapped inside the ``try``: whatever interrupts the
    swap, each is put back. Python's handlers are swapped, not the thread's signal mask: any
    thread of the process (a reader of the program's output) may receive a signal, and the
    main thread then runs its handler all the same. In the main thread only (elsewhere no
    handler runs in the block); a signal ignored stays so."""
    came: list[int] = []
    if threading.current_thread() is not threading.main_thread():
        yield came
        return

    def hold(number: int, _frame: object) -> None:
        came.append(number)
        if len(came) > HELD_AT_MOST:
            raise_held(came)

    saved: dict[int, Any] = {}
    try:
        for name in ("SIGINT", *FORWARDED):
            signum = getattr(signal, name, None)
            if signum is None or signal.getsignal(signum) in (signal.SIG_IGN, None):
                continue
            saved[signum] = signal.getsignal(signum)  # first: put back even if cut short here
            signal.signal(signum, hold)
        yield came
    finally:
        for signum, previous in saved.items():
            signal.signal(signum, previous)


def raise_held(came: Sequence[int]) -> None:
    """What the signals :func:`signals_held` held ask for, raised: :class:`Stopped` for the
    first forwarded one (128+N), else ``KeyboardInterrupt`` for a SIGINT (SIGINT last: a
    SIGTERM ends the command line as 143 whatever came with it); nothing when none came."""
    forwarded = [number for number in came if number != signal.SIGINT]
    if forwarded:
        raise Stopped(forwarded[0])
    if came:
        raise KeyboardInterrupt


def ended(process: subprocess.Popen[bytes], timeout: float | None) -> bool:
    """Wait at most ``timeout`` seconds (None: as long as it takes) for the child ``process``
    to end, and whether it did, without reaping it (``waitid`` with ``WNOWAIT``): while it is
    a zombie its pid, and the group id it leads, are nobody else's, so ``killpg`` of that
    group reaches only what is left of its own (once reaped, the kernel may give the pid to
    another process, another group's leader). Waits on its pidfd where there is one (Linux
    5.3+), else looks every 20 ms. A child already reaped has ended. Where Python has no
    ``os.waitid`` (macOS before 3.13) it is reaped as it ends (``Popen.wait``) and its group
    killed after, as before (:func:`~skillc_gateway._runner._unreaped`)."""
    import select

    if not hasattr(os, "waitid"):
        try:
            process.wait(timeout)
        except subprocess.TimeoutExpired:
            return False
        return True
    pid = process.pid
    deadline = None if timeout is None else time.monotonic() + timeout
    try:
        watched: int | None = os.pidfd_open(pid)
    except (AttributeError, OSError):  # (gone already: waitid says so)
        watched = None
    try:
        while True:
            try:
                if os.waitid(os.P_PID, pid, os.WEXITED | os.WNOWAIT | os.WNOHANG) is not None:
                    return True
            except ChildProcessError:  # reaped already
                return True
            left = None if deadline is None else deadline - time.monotonic()
            if left is not None and left <= 0:
                return False
            if watched is not None:
                select.select([watched], [], [], left)
            else:
                time.sleep(0.02 if left is None else min(0.02, left))
    finally:
        if watched is not None:
            os.close(watched)


def send_checked(pid: int, signum: int, still: Callable[[int], bool]) -> None:
    """``signum`` to the process ``pid`` while ``still(pid)`` says it is the one meant (its
    environment holds a run's marker): through a pidfd opened first (Linux 5.3+), so a pid
    freed and given to another process between the check and the signal is never signalled;
    elsewhere ``os.kill`` after the check. ``ProcessLookupError`` when it is gone."""
    send = getattr(signal, "pidfd_send_signal", None)
    try:
        handle = os.pidfd_open(pid) if send is not None else None
    except (AttributeError, OSError) as exc:
        if isinstance(exc, ProcessLookupError):
            raise
        handle = None
    try:
        if still(pid):
            if handle is not None and send is not None:
                send(handle, signum)
            else:
                os.kill(pid, signum)
    finally:
        if handle is not None:
            os.close(handle)
