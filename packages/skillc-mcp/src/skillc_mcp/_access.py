"""Access-log rows written off the response path (RFC-0007:C-LOGGING).

Writing a row costs an SQLite transaction, so the server queues the row and a writer thread
stores it while the response is already on its way. Each row is written on its own connection
(the identity checks against ``sync`` need it); the writer also keeps one idle connection per
log for the session, so a row's connection is never the last to close and SQLite does not
checkpoint the WAL after every row. Rows are written in order, by
:func:`skillc_index.log_access` (primary log, else the fallback);
:meth:`AccessLogWriter.flush` waits for the queue to empty (``skc_stats`` reads the log, and
the server flushes before it exits).
"""

from __future__ import annotations

import sys
import threading
from collections.abc import Callable, Iterable
from queue import Queue
from typing import TYPE_CHECKING

if TYPE_CHECKING:
    import sqlite3
    from pathlib import Path

    from skillc_index import AccessRecord, Diagnostic, Layout, Notice

Job = tuple["Layout", "Path", "AccessRecord"]


class AccessLogWriter:
    """A queue of rows and the thread that writes them; ``warn`` gets W002/W003."""

    def __init__(self, warn: Callable[[Iterable[Diagnostic | Notice]], None]) -> None:
        self._warn = warn
        self._queue: Queue[Job | None] = Queue()
        self._thread: threading.Thread | None = None
        self._lock = threading.Lock()

    def submit(self, layout: Layout, runtime: Path, record: AccessRecord) -> None:
        with self._lock:
            if self._thread is None:
                self._thread = threading.Thread(
                    target=self._run, name="skillc-mcp-access-log", daemon=True
                )
                self._thread.start()
        self._queue.put((layout, runtime, record))

    def _run(self) -> None:
        from skillc_index import hold_log, log_access

        held: dict[Path, sqlite3.Connection | None] = {}
        try:
            while True:
                job = self._queue.get()
                try:
                    if job is None:
                        return
                    layout, runtime, record = job
                    if runtime not in held:
                        # One idle connection per log for the session: a row's own connection
                        # is then never the last one to close, so SQLite does not checkpoint
                        # the WAL after every row (about 1.5 ms each).
                        # None when it cannot be had: log_access falls back on its own
                        held[runtime] = hold_log(layout, runtime)
                    self._warn(log_access(layout, runtime, record).diagnostics)
                except Exception as exc:  # logging never fails a call, nor stops the writer
                    message = f"skillc-mcp: access log: {type(exc).__name__}: {exc}"
                    print(message, file=sys.stderr, flush=True)
                finally:
                    self._queue.task_done()
        finally:
            for connection in held.values():
                if connection is not None:
                    connection.close()

    def flush(self) -> None:
        """Wait until every row submitted so far is written."""
        self._queue.join()

    def close(self) -> None:
        """Write what is queued, then stop the thread."""
        with self._lock:
            thread, self._thread = self._thread, None
        if thread is not None:
            self._queue.put(None)
            thread.join()
