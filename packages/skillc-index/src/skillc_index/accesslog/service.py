"""The one way to log a command: :class:`AccessLog` (RFC-0007:C-LOGGING).

Every front end (the CLI, the MCP server, an embedder) logs through an :class:`AccessLog`:
:meth:`AccessLog.logged` resolves the skill and writes one row when the block ends, with the
error when one escapes; :meth:`AccessLog.record` writes a row for a skill resolved elsewhere
(a build, a lint run); :meth:`AccessLog.record_failure` writes the row of a command that
failed before it had its skill (a build that raised), when the skill resolves.

Rows are written at once (the CLI: one process, one command) or queued (``queued=True``, the
MCP server: a background thread writes them while the reply is on its way; :meth:`flush` waits
for them, :meth:`close` stops the thread). Problems with logging never fail a command: they
go to ``warn`` as W002 each time and W003 once per :class:`AccessLog`.
"""

from __future__ import annotations

import threading
from collections.abc import Callable, Iterable, Iterator, Mapping
from contextlib import contextmanager
from typing import TYPE_CHECKING, Any

if TYPE_CHECKING:
    import sqlite3
    from pathlib import Path
    from queue import Queue

    from skillc_index._diagnostics import Diagnostic, Notice
    from skillc_index._layout import Layout, ResolvedSkill
    from skillc_index.accesslog.store import AccessRecord

Warn = Callable[[Iterable["Diagnostic | Notice"]], None]
"""Where warnings go: the CLI prints them, the MCP server writes them to its log."""

_Job = tuple["Layout", "Path", "AccessRecord"]


class AccessLog:
    """Logs commands; see the module docstring. Each row is logged for a :class:`Layout`
    (its working folder is the row's ``cwd``; its project holds the fallback logs).

    ``run_id`` tags the rows (default: ``$SKC_RUN_ID`` or a new id per row for the CLI, one
    id for a whole queued session).
    """

    def __init__(self, warn: Warn, *, run_id: str | None = None, queued: bool = False) -> None:
        self._warn = warn
        self._reported: set[str] = set()
        self._queued = queued
        self._run_id = run_id
        self._queue: Queue[_Job | None] | None = None
        if queued:  # the CLI writes at once and does not import queue
            from queue import Queue

            self._queue = Queue()
        self._thread: threading.Thread | None = None
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
    ) -> Iterator[ResolvedSkill]:
        """Resolve ``skill`` and log ``command`` when the block ends.

        The row stores ``args`` as they are when the block ends (a command may add to a dict
        it passed, such as search's ``result_count``). A resolution failure (E001/E010)
        raises before anything is logged: there is no runtime to log to. An error inside the
        block is recorded in the row's ``error`` column and raised on. The resolution's
        notices (a folder shadowing a store skill) are warned first. ``stores_only``: a bare
        name is looked up in the stores only (commands that run a skill's code).
        """
        from skillc_index._diagnostics import error_line
        from skillc_index._layout import resolve_skill

        resolved = resolve_skill(skill, layout, stores_only=stores_only)
        self.warn(resolved.notices)
        error: str | None = None
        try:
            yield resolved
        except BaseException as exc:
            error = error_line(exc)
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
        if self._queued:
            self._submit((layout, skill.runtime, record))
        else:
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
        log of ``skill`` when it resolves; nothing when it does not (no runtime to log to)."""
        from skillc_index._diagnostics import SkillcError, error_line
        from skillc_index._layout import resolve_skill

        try:
            resolved = resolve_skill(skill, layout, force_global=force_global)
        except SkillcError:
            return
        self.record(layout, resolved, command, args, error_line(exc))

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

    def _write(self, layout: Layout, runtime: Path, record: AccessRecord) -> None:
        from skillc_index.accesslog.store import log_access

        self.warn(log_access(layout, runtime, record).diagnostics)

    def _submit(self, job: _Job) -> None:
        with self._lock:
            if self._thread is None:
                self._thread = threading.Thread(
                    target=self._drain, name="skillc-access-log", daemon=True
                )
                self._thread.start()
        assert self._queue is not None  # queued
        self._queue.put(job)

    def _drain(self) -> None:
        """The writer thread: rows in order, each on its own connection (the identity checks
        against ``sync`` need it), plus one idle connection per log for the session, so a
        row's connection is never the last to close and SQLite does not checkpoint the WAL
        after every row (about 1.5 ms each)."""
        import sys

        from skillc_index.accesslog.store import hold_log

        queue = self._queue
        assert queue is not None  # queued
        held: dict[Path, sqlite3.Connection | None] = {}
        try:
            while True:
                job = queue.get()
                try:
                    if job is None:
                        return
                    layout, runtime, record = job
                    if runtime not in held:  # None when it cannot be had: the row falls back
                        held[runtime] = hold_log(layout, runtime)
                    self._write(layout, runtime, record)
                except Exception as exc:  # logging never fails a call, nor stops the writer
                    message = f"skillc: access log: {type(exc).__name__}: {exc}"
                    print(message, file=sys.stderr, flush=True)
                finally:
                    queue.task_done()
        finally:
            for connection in held.values():
                if connection is not None:
                    connection.close()

    def flush(self) -> None:
        """Wait until every row logged so far is written."""
        if self._queue is not None:
            self._queue.join()

    def close(self) -> None:
        """Write what is queued, then stop the writer thread (if one runs)."""
        with self._lock:
            thread, self._thread = self._thread, None
        if thread is not None and self._queue is not None:
            self._queue.put(None)
            thread.join()
