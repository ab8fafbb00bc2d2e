"""The one way to log a command: :class:`AccessLog` (RFC-0007:C-LOGGING).

Every front end (the CLI, the MCP server, an embedder) logs through an :class:`AccessLog`:
:meth:`AccessLog.logged` resolves the skill and writes one row when the block ends, with the
error when one escapes; :meth:`AccessLog.record` writes a row for a skill resolved elsewhere
(a build, a lint run); :meth:`AccessLog.record_failure` writes the row of a command that
failed before it had its skill (a build that raised), when the skill resolves to one of a
store (a folder in no store gets no row: nothing was imported).

Rows are written at once (the CLI: one process, one command) or queued (``queued=True``, the
MCP server): a background thread writes them when the calls pause (:data:`QUIET_SECONDS`),
all the rows queued by then in one transaction per log, or during calls that do not pause
every :data:`MAX_DELAY_SECONDS` (or :data:`MAX_ROWS` rows); :meth:`flush` writes them at once
and waits, :meth:`close` writes them and stops the thread (and so does the interpreter's exit
when close() was skipped); after close() rows are written at once. A row written while the next
call runs took the time of half a ``skc_show`` from it (issue 32); a process killed before a
pause loses its queued rows. Problems with logging never fail a command: they go to ``warn`` as
W002 and W003, W003 once per :class:`AccessLog`; W002 each time for the CLI (one command),
once per log destination for a queued log (a server: its every call said it), until that
destination is written again.
"""

from __future__ import annotations

import threading
from collections.abc import Callable, Iterable, Iterator, Mapping, Sequence
from contextlib import contextmanager
from typing import TYPE_CHECKING, Any

if TYPE_CHECKING:
    import sqlite3
    from pathlib import Path
    from queue import Queue

    from skillc_index.accesslog.store import AccessRecord
    from skillc_index.diagnostics import Diagnostic, Notice
    from skillc_index.layout import Layout, ResolvedSkill
    from skillc_index.spelling import Spelling

Warn = Callable[[Iterable["Diagnostic | Notice"]], None]
"""Where warnings go: the CLI prints them, the MCP server writes them to its log."""

_Job = tuple["Layout", "Path", "AccessRecord"]

#: A queued log writes its rows once no call logged one for this long (seconds)...
QUIET_SECONDS = 0.05
#: ... and, while calls keep coming, at the latest this long after the first row waiting...
MAX_DELAY_SECONDS = 1.0
#: ... or once this many rows wait.
MAX_ROWS = 256
#: The writer thread keeps an idle connection open to this many logs, the last written
#: (fewer under a low descriptor limit: :func:`held_logs`).
HELD_LOGS = 16


def held_logs() -> int:
    """How many logs the writer thread holds open: :data:`HELD_LOGS`, or an eighth of the
    process's soft descriptor limit when that is fewer (a held log takes about 4: at most
    half of them), and at least 1; under ``ulimit -n 64`` 16 held logs took them all."""
    try:
        import resource
    except (ImportError, OSError):  # not on Windows; no descriptor left to load it
        return HELD_LOGS
    soft, _hard = resource.getrlimit(resource.RLIMIT_NOFILE)
    if soft == resource.RLIM_INFINITY:
        return HELD_LOGS
    return max(1, min(HELD_LOGS, soft // 8))


_FLUSH = object()
"""Queued by :meth:`AccessLog.flush`: write what waits now."""


class AccessLog:
    """Logs commands; see the module docstring. Each row is logged for a :class:`Layout`
    (its working folder is the row's ``cwd``; its project holds the fallback logs).

    ``run_id`` tags the rows (default: ``$SKC_RUN_ID`` or a new id per row for the CLI, one
    id for a whole queued session).
    """

    def __init__(
        self,
        warn: Warn,
        *,
        run_id: str | None = None,
        queued: bool = False,
        spelling: Spelling | None = None,
    ) -> None:
        self._warn = warn
        self._spelling = spelling
        """How the front end names parameters, for the ``error`` column (:func:`error_line`)."""
        self._reported: set[str] = set()
        self._disabled: set[tuple[Path, Path]] = set()
        """The log destinations (runtime, fallback log) a queued log said W002 of."""
        self._queued = queued
        self._run_id = run_id
        self._queue: Queue[_Job | object | None] | None = None
        if queued:  # the CLI writes at once and does not import queue
            from queue import Queue

            self._queue = Queue()
        self._thread: threading.Thread | None = None
        self._closed = False
        self._lock = threading.Lock()

    @property
    def run_id(self) -> str:
        """This log's run id (created on first use when none was given)."""
        if self._run_id is None:
            from skillc_index.accesslog.store import new_run_id

            self._run_id = new_run_id()
        return self._run_id

    # -- logging a command ---------------------------------------------------------------

    @contextmanager
    def logged(
        self,
        layout: Layout,
        command: str,
        skill: str,
        args: Mapping[str, Any],
        *,
        stores_only: bool = False,
        warn: Warn | None = None,
    ) -> Iterator[ResolvedSkill]:
        """Resolve ``skill`` and log ``command`` when the block ends.

        The row stores ``args`` as they are when the block ends (a command may add to a dict
        it passed, such as search's ``result_count``). A resolution failure (E001/E010)
        raises before anything is logged: there is no runtime to log to. An error inside the
        block is recorded in the row's ``error`` column and raised on. The resolution's
        notices (W001 for a name several skills have, a folder shadowing a store skill) go
        to ``warn`` first (default: this log's). ``stores_only``: a bare name is looked up in
        the stores only (commands that run a skill's code).
        """
        from skillc_index.diagnostics import error_line
        from skillc_index.layout import resolve_skill

        resolved = resolve_skill(skill, layout, stores_only=stores_only)
        (self.warn if warn is None else warn)(resolved.notices)
        error: str | None = None
        try:
            yield resolved
        except BaseException as exc:
            error = error_line(exc, self._spelling)
            raise
        finally:
            self.record(layout, resolved, command, args, error)

    def record(
        self,
        layout: Layout,
        skill: ResolvedSkill,
        command: str,
        args: Mapping[str, Any],
        error: str | None = None,
    ) -> None:
        """Log one row for ``command`` on a resolved skill. Never raises."""
        from skillc_index.accesslog.store import AccessRecord

        run_id = self.run_id if (self._queued or self._run_id) else ""
        record = AccessRecord.for_skill(layout, skill, command, args, error, run_id)
        if not (self._queued and self._submit((layout, skill.runtime, record))):
            self._write(layout, skill.runtime, record)

    def record_failure(
        self,
        layout: Layout,
        command: str,
        skill: str,
        args: Mapping[str, Any],
        exc: BaseException,
        *,
        force_global: bool = False,
    ) -> None:
        """Log a command that failed with ``exc`` before it had its skill (a build), in the
        log of ``skill`` when it resolves to a skill of a store (or imported into one);
        nothing when it does not resolve (no runtime to log to) or is a folder in no store
        (nothing was imported: no runtime folder is made for it, as ``lint`` of such a folder;
        DECISIONS.md)."""
        from skillc_index.diagnostics import SkillcError, error_line
        from skillc_index.layout import resolve_skill

        try:
            resolved = resolve_skill(skill, layout, force_global=force_global)
        except SkillcError:
            return
        if not (resolved.in_store or resolved.imported_from):
            return
        self.record(layout, resolved, command, args, error_line(exc, self._spelling))

    # -- warnings --------------------------------------------------------------------------

    def warn(self, diagnostics: Iterable[Diagnostic | Notice]) -> None:
        """Pass ``diagnostics`` on to ``warn``; W003 (stale fallback logs) only once."""
        shown = []
        for diagnostic in diagnostics:
            code = getattr(diagnostic, "code", None)
            if code == "W003":
                if code in self._reported:
                    continue
                self._reported.add(code)
            shown.append(diagnostic)
        if shown:
            self._warn(shown)

    # -- the sinks ---------------------------------------------------------------------------

    def _write(
        self, layout: Layout, runtime: Path, record: AccessRecord, *more: AccessRecord
    ) -> None:
        from skillc_index.accesslog.store import log_access

        diagnostics: Sequence[Diagnostic | Notice] = log_access(
            layout, runtime, record, *more
        ).diagnostics
        if self._queued:
            diagnostics = self._once_per_destination(layout, runtime, record, diagnostics)
        self.warn(diagnostics)

    def _once_per_destination(
        self,
        layout: Layout,
        runtime: Path,
        record: AccessRecord,
        diagnostics: Sequence[Diagnostic | Notice],
    ) -> Sequence[Diagnostic | Notice]:
        """``diagnostics`` without a W002 said already of the same destination (the skill's
        runtime, and its fallback log from this layout), which is said again once a row
        was written there since."""
        disabled = [d for d in diagnostics if getattr(d, "code", None) == "W002"]
        if not (disabled or self._disabled):
            return diagnostics
        from skillc_index.accesslog.store import fallback_log

        where = (runtime, fallback_log(layout, record.skill))
        if not disabled:
            self._disabled.discard(where)
            return diagnostics
        if where in self._disabled:
            return [d for d in diagnostics if d not in disabled]
        self._disabled.add(where)
        return diagnostics

    def _submit(self, job: _Job) -> bool:
        """Queue ``job`` for the writer thread, started on first use (with :meth:`close`
        registered to run at the interpreter's exit if nothing calls it first); False once
        closed: the caller writes the row itself."""
        with self._lock:
            if self._closed:
                return False
            if self._thread is None:
                import atexit

                self._thread = threading.Thread(
                    target=self._drain, name="skillc-access-log", daemon=True
                )
                self._thread.start()
                atexit.register(self.close)
            assert self._queue is not None  # queued
            self._queue.put(job)  # under the lock: never behind close()'s None
        return True

    def _drain(self) -> None:
        """The writer thread: the rows in order, when the calls pause (see the module
        docstring), each run of rows for one log in one transaction on its own connection
        (the identity checks against ``sync`` need it), plus one idle connection for each of
        the :func:`held_logs` logs written last, so a row's connection is never the last to
        close and SQLite does not checkpoint the WAL after every write (about 1.5 ms each);
        the least recently written one is closed, between transactions, when one more would
        be held (a connection per log ever written took 4 descriptors each, until the server
        ran out of them)."""
        import sys
        import time
        from collections import OrderedDict
        from itertools import groupby
        from queue import Empty

        from skillc_index.accesslog.store import hold_log

        queue = self._queue
        assert queue is not None  # queued
        held: OrderedDict[Path, sqlite3.Connection | None] = OrderedDict()  # oldest first
        most = held_logs()
        try:
            while True:
                jobs: list[object] = [queue.get()]
                deadline = time.monotonic() + MAX_DELAY_SECONDS
                while jobs[-1] is not None and jobs[-1] is not _FLUSH and len(jobs) < MAX_ROWS:
                    wait = min(QUIET_SECONDS, deadline - time.monotonic())
                    if wait <= 0:
                        break
                    try:
                        jobs.append(queue.get(timeout=wait))
                    except Empty:  # the calls paused
                        break
                rows = [job for job in jobs if isinstance(job, tuple)]
                try:
                    for (layout, runtime), run in groupby(rows, key=lambda job: job[:2]):
                        records = [record for _layout, _runtime, record in run]
                        try:
                            if runtime in held:
                                held.move_to_end(runtime)
                            else:  # None when it cannot be had: fallback
                                while len(held) >= most:  # idle: their rows are written
                                    _runtime, oldest = held.popitem(last=False)
                                    if oldest is not None:
                                        oldest.close()
                                held[runtime] = hold_log(layout, runtime)
                            self._write(layout, runtime, *records)
                        except Exception as exc:  # logging never fails a call, nor the writer
                            message = f"skillc: access log: {type(exc).__name__}: {exc}"
                            print(message, file=sys.stderr, flush=True)
                finally:
                    for _job in jobs:
                        queue.task_done()
                if jobs[-1] is None:  # close(): its rows are written
                    return
        finally:
            for connection in held.values():
                if connection is not None:
                    connection.close()

    def flush(self) -> None:
        """Write every row logged so far now, and wait until they are written."""
        if self._queue is not None:
            with self._lock:
                if self._thread is not None:
                    self._queue.put(_FLUSH)
            self._queue.join()

    def close(self, timeout: float | None = None) -> bool:
        """Write what is queued, then stop the writer thread (if one runs); the rows logged
        after this are written at once. ``timeout``: wait for the writer at most that many
        seconds (a stop's deadline: it may sit in SQLite's busy wait on a log another process
        holds); whether it is done (if not, it goes on writing in the background)."""
        with self._lock:
            self._closed = True
            thread, self._thread = self._thread, None
            if thread is not None and self._queue is not None:
                self._queue.put(None)
        if thread is None:
            return True
        import atexit

        atexit.unregister(self.close)
        thread.join(None if timeout is None else max(0.0, timeout))
        return not thread.is_alive()
