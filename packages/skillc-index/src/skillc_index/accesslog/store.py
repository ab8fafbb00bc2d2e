"""Writing the access log (RFC-0007:C-LOGGING): where a row goes, and how it gets there.

Every command that resolves a skill records one row, from the CLI and the MCP server alike
(through :class:`~skillc_index.accesslog.AccessLog`); skillc-stats reads the rows and
``sync`` moves fallback rows home. The database itself is :mod:`.schema`. Writing
is built for several agents at once: WAL journal, a busy timeout, one short transaction per
row, so concurrent processes lose no row. Logging never fails a command: problems come back
as W002/W003 diagnostics (and plain warnings) for the front end to print.

A log is written only where skillc put it, and only if skillc made it (issue 13):

- the primary log's busy timeout is short (:data:`PRIMARY_BUSY_TIMEOUT_MS`): a log another
  process keeps locked (a long write transaction) sends the row to the fallback instead of
  stalling the command (the fallback, the row's last chance, waits as long as ``sync`` may
  hold it);
- the fallback is ``<project root>/.skillc/logs/`` (the working directory's when there is no
  project), where ``skc sync`` run from the root finds it;
- a database whose schema is not skillc's is :class:`~.schema.ForeignLog`: never written
  (readers take it when nothing in it would run: :func:`~.schema.check_log`);
- a log whose real path leaves its base (the project for project runtimes, the skillc home
  for global ones), through a symlinked ``.skillc/runtime``, ``runtime/<name>``,
  ``.skillc-meta`` or ``logs.db``, is not opened: the row goes to the fallback, with a warning.
- a fallback log in a folder another user owns (``/tmp/.skillc/logs`` made by someone else
  to read the queries: :func:`~skillc_index.project.foreign_below`) is not written, with a
  warning;
- a fallback log is written only under :func:`fallback_lock` (shared), which ``sync`` holds
  exclusively while it copies and removes one: a writer never races the removal.
- no log is made in a project whose ``.skillc/`` is gone (:func:`project_removed`: removed
  after the command, before its queued row was written): the row is dropped, the folder not
  made again.
"""

from __future__ import annotations

import os
import sqlite3
import stat
import time
from collections.abc import Callable, Iterator, Mapping, Sequence
from contextlib import closing, contextmanager, nullcontext
from pathlib import Path
from types import MappingProxyType
from typing import Any

from skillc_index.accesslog.schema import (
    BUSY_TIMEOUT_MS,
    INSERT_ROW,
    LOG_FILE,
    PRIMARY_BUSY_TIMEOUT_MS,
    STALE_AFTER_SECONDS,
    ForeignLog,
    NewerLog,
    connect,
    misplaced,
)
from skillc_index.clock import utc_now
from skillc_index.diagnostics import Diagnostic, Notice, logging_disabled, stale_local_logs
from skillc_index.layout import META_DIR, Layout, ResolvedSkill, runtime_for
from skillc_index.project import foreign_below, owner_name
from skillc_index.record import Record
from skillc_index.sqlite import damaged, writing
from skillc_index.text import cut, valid_utf8


def new_run_id(env: Mapping[str, str] | None = None) -> str:
    """``$SKC_RUN_ID`` if set, else ``YYYYMMDDTHHMMSSZ-<4 hex>`` (RFC-0007:C-LOGGING).

    An ``@`` of ``$SKC_RUN_ID`` is written ``%40``: ``<run>@<token name>`` marks the rows
    ``skc mcp --http`` logs for a token's user, whom a team store counts them under
    (``nightly@ci.example.com`` put a CI job's rows under a user ``ci.example.com``)."""
    env = os.environ if env is None else env
    given = env.get("SKC_RUN_ID")
    if given:
        return given.replace("@", "%40")
    # os.urandom, not secrets: the same randomness without importing random, hmac and base64
    return time.strftime("%Y%m%dT%H%M%SZ", time.gmtime()) + "-" + os.urandom(2).hex()


_NO_ARGS: Mapping[str, Any] = MappingProxyType({})


#: A text of a row's ``args`` (at any depth) or its ``error`` longer than this is cut
#: (:func:`~skillc_index.text.cut`) when the row is written: the longest a command takes (a
#: section, a query) stays whole; a 900,000-character skill name wrote it twice, 1.8 MB a call.
MAX_LOGGED_CHARS = 10_000


def _logged(value: Any) -> Any:
    """``value`` (a row's args) with its texts cut to :data:`MAX_LOGGED_CHARS`."""
    if isinstance(value, str):
        return cut(value, MAX_LOGGED_CHARS)
    if isinstance(value, (list, tuple)):
        return [_logged(item) for item in value]
    if isinstance(value, Mapping):
        return {key: _logged(item) for key, item in value.items()}
    return value


class AccessRecord(Record):
    """One row of ``access_log``."""

    command: str
    skill: str
    skill_path: str
    cwd: str
    args: Mapping[str, Any] = _NO_ARGS
    error: str | None = None
    timestamp: str = ""
    """Empty: the time the row is written."""
    run_id: str = ""
    """Empty: ``$SKC_RUN_ID`` or a new run id, when the row is written."""

    @classmethod
    def for_skill(
        cls,
        layout: Layout,
        skill: ResolvedSkill,
        command: str,
        args: Mapping[str, Any],
        error: str | None = None,
        run_id: str = "",
    ) -> AccessRecord:
        """The row for ``command`` run on a resolved skill from ``layout``'s working folder."""
        return cls(
            command, skill.name, str(skill.source), str(layout.cwd), dict(args), error, "", run_id
        )

    def values(self) -> tuple[str | None, ...]:
        import json  # only when a row is written

        args = json.dumps(_logged(self.args), sort_keys=True, ensure_ascii=False, default=str)
        row = (
            self.timestamp or utc_now(),
            self.run_id or new_run_id(),
            self.command,
            self.skill,
            self.skill_path,
            self.cwd,
            args,
            None if self.error is None else cut(self.error, MAX_LOGGED_CHARS),
        )
        return tuple(None if v is None else valid_utf8(v) for v in row)


def insert(
    path: Path,
    records: list[AccessRecord],
    busy_timeout_ms: int = BUSY_TIMEOUT_MS,
) -> None:
    """Append rows in one short transaction (a fallback log under :func:`fallback_lock`)."""
    rows: list[Sequence[Any]] = [record.values() for record in records]
    write_log(path, INSERT_ROW, rows, busy_timeout_ms)


def write_log(
    path: Path,
    statement: str,
    values: list[Sequence[Any]],
    busy_timeout_ms: int = BUSY_TIMEOUT_MS,
) -> None:
    """Run ``statement`` once for each of ``values`` on the log at ``path`` (made when
    missing, :func:`~.schema.connect`; :class:`ForeignLog` when not
    skillc's) in one short transaction: how rows and moves (:func:`~.moves.record_move`) are
    written."""
    with closing(connect(path, busy_timeout_ms)) as db, writing(db):
        db.executemany(statement, values)


def prune_rows(path: Path, before: str, *, dry_run: bool = False) -> int:
    """Delete the rows of the log at ``path`` older than ``before`` (RFC 3339 UTC, as rows
    store times; a row of another form, another tool's ``09:30:00-02:00``, is kept: its age
    cannot be told by its text, and nothing is deleted by a guess) in one transaction; return
    how many (``dry_run``: would be, nothing written). The log keeps its identity and
    ``AUTOINCREMENT`` never gives a deleted id again, so an upload to a team store sends none
    of the rows left twice. Raises
    :class:`~.schema.ForeignLog` for a log that is not skillc's (never written)."""
    from skillc_index.accesslog.reader import UTC_DAY, second_floor
    from skillc_index.accesslog.schema import open_log

    before = second_floor(before)  # a row at ``...10:00:00.500Z`` is not older than 10:00:00
    older = f"FROM access_log WHERE timestamp < ? AND {UTC_DAY} IS NOT NULL"
    if dry_run:
        db = open_log(path)
        try:
            return int(db.execute(f"SELECT COUNT(*) {older}", (before,)).fetchone()[0])
        finally:
            db.close()
    with closing(connect(path)) as db, writing(db):
        deleted = db.execute(f"DELETE {older}", (before,)).rowcount
    return int(deleted)


class FallbackLocked(TimeoutError):
    """:func:`fallback_lock` waited its whole timeout."""


@contextmanager
def fallback_lock(
    base: Path, *, exclusive: bool = False, timeout_ms: int | None = BUSY_TIMEOUT_MS
) -> Iterator[None]:
    """Hold the lock of the fallback logs under ``base/.skillc/logs``: shared to write one,
    exclusive to copy one and remove it (``sync``).

    SQLite alone cannot make removing a database safe for a process writing it: the
    database, its ``-wal`` and its ``-shm`` are opened by name, one after the other, so a
    writer racing the removal (and a new fallback made at the same path, often with the same
    inode number) can commit into files that are gone, or checkpoint one database's journal
    into another: rows are lost. Under this lock nobody writes in a folder being removed.

    The lock is an advisory ``flock`` on ``base`` itself (the project root or the working
    directory, which skillc never removes), so it leaves no file behind. Where it cannot be
    had (no ``fcntl``, a filesystem without ``flock``, a folder that cannot be opened), the
    block runs unlocked. :class:`FallbackLocked` when ``timeout_ms`` passes first (a command
    must not stall; ``None``: wait, as ``sync`` does, for holders that each hold it for one
    row).
    """
    import math

    from skillc_index.locks import flock_within

    try:  # Windows: no folder opens (and one holding an open file cannot be renamed anyway)
        fd = os.open(base, os.O_RDONLY | getattr(os, "O_DIRECTORY", 0))
    except OSError:
        yield
        return
    try:
        wait_s = math.inf if timeout_ms is None else timeout_ms / 1000
        if not flock_within(fd, wait_s, shared=not exclusive):
            raise FallbackLocked(f"the local logs of '{base}' stayed locked")
        yield  # closing the descriptor releases the lock
    finally:
        os.close(fd)


def holds_use(log: Path) -> bool:
    """Whether the access log ``log`` holds a use (a row of
    :data:`~skillc_index.accesslog.reader.USE_COMMANDS`: an agent's read or activation). One
    that cannot be read, or is not skillc's own, is taken as if it did: usage is never deleted
    on a guess; but a database that holds no table at all holds no use (a build killed before
    it wrote the log's tables left it so). Opened for writing (nothing is written): closing
    the last connection then removes the WAL files a reader would leave behind."""
    from skillc_index.accesslog.kinds import USE_COMMANDS, _among
    from skillc_index.accesslog.schema import open_log
    from skillc_index.sqlite import connect as sqlite_connect

    if not os.path.lexists(log):
        return False
    try:
        with closing(open_log(log, write=True, own=True)) as db:
            statement = f"SELECT 1 FROM access_log WHERE {_among(USE_COMMANDS)} LIMIT 1"
            return db.execute(statement, USE_COMMANDS).fetchone() is not None
    except (sqlite3.Error, OSError):
        pass
    try:
        with closing(sqlite_connect(log, mode="rw", timeout_ms=BUSY_TIMEOUT_MS)) as db:
            return db.execute("SELECT 1 FROM sqlite_master LIMIT 1").fetchone() is not None
    except (sqlite3.Error, OSError):
        return True


def primary_log(runtime: Path) -> Path:
    return runtime / META_DIR / LOG_FILE


def primary_log_finder(layout: Layout) -> Callable[[str], Path]:
    """``log(source)``: the primary log of a skill's canonical source folder
    (RFC-0007:C-RESOLUTION), the runtime store worked out once per parent folder
    (``runtime_for`` resolves the stores): for reading the logs of many installed skills. A
    source that an entry of a store of the layout links to is a skill of that store, its
    runtime named after the entry (:func:`~skillc_index.inventory.links.store_entry`), whatever its
    folder's other skills are: worked out on its own (the stores' links read once)."""
    from skillc_index.inventory.links import folder_links

    stores: dict[str, Path] = {}
    linked: set[str] = set()
    for scope in layout.scopes():
        linked.update(folder_links(layout.store(scope)))

    def log(source: str) -> Path:
        parent, name = os.path.split(source)
        if source in linked:
            return primary_log(runtime_for(Path(source), layout)[1])
        store = stores.get(parent)
        if store is None:
            store = stores[parent] = runtime_for(Path(source), layout)[1].parent
        return primary_log(store / name)

    return log


def former_logs(folder: str, log: Path, layout: Layout) -> list[Path]:
    """The primary logs other than ``log`` (its own) that hold rows of the skill at
    ``folder`` from before its runtime was named after its store entry: a store's link to a
    folder of another name (``alpha-x -> repoA/skill``) had the runtime ``<runtime
    store>/skill``, the project's when read from a project, else the global one
    (:func:`~skillc_index.layout.runtime_for`). Those of this layout's scopes that are there;
    none for any other skill (its runtime has its folder's name). Left in place, never
    written: their rows are counted as the skill's (``logs_of``), those of other skills'
    folders in them as theirs."""
    name = os.path.basename(folder)  # noqa: PTH119 (a logged path, as a string)
    if log.parent.parent.name == name:
        return []
    found = (primary_log(layout.runtime_store(scope) / name) for scope in layout.scopes())
    return [path for path in found if path != log and path.is_file()]


def scope_logs(folder: str, log: Path, layout: Layout) -> list[Path]:
    """The primary logs other than ``log`` (its own) that may hold rows of the skill at
    ``folder`` under this layout's scopes: the log of that name (the folder's, and its
    runtime's) in the project and the global runtime store, those that are there. A skill in
    no store logs to the runtime of the project it is used in, else to the global one
    (DECISIONS, runtime): a home agent skill used outside any project, or a project's agent
    skill used before ``skc init``, has its rows in the global runtime, read from the
    project too. Only rows naming ``folder`` (``skill_path``) are its; a row is in one
    primary log (``sync`` moves, never copies), so summing them counts each once. Those of
    :func:`former_logs` among them. Left in place, never written. Only for a skill in no
    store: a store skill logs to its store's runtime (the other scope's log of its name is
    another skill's)."""
    names = dict.fromkeys((log.parent.parent.name, os.path.basename(folder)))  # noqa: PTH119
    found = (
        primary_log(layout.runtime_store(scope) / name)
        for scope in layout.scopes()
        for name in names
    )
    return [path for path in dict.fromkeys(found) if path != log and path.is_file()]


def fallback_log(layout: Layout, skill: str) -> Path:
    return layout.fallback_log_dir(skill) / LOG_FILE


#: Beside a fallback log, the mark of a ``sync`` that kept in it only rows it could not move
#: (skipped: a skill not installed and never built): an empty file whose time is the log's.
SKIPPED_FILE = "skipped"


def mark_skipped(log: Path) -> None:
    """Mark the fallback ``log`` as ``sync`` leaves it holding only rows it skipped (under the
    exclusive :func:`fallback_lock`, the log closed): the log's time set two seconds back (no
    later write, which sets it to its own time, can leave it there) and :data:`SKIPPED_FILE`
    given the same time, so that W003 stays quiet until the log changes
    (:func:`stale_fallback`). A symlink, a FIFO or a folder of that name is left as it is
    (then W003 still shows). ``OSError`` when it cannot be done."""
    seen = log.stat().st_mtime_ns - 2_000_000_000
    mark = log.with_name(SKIPPED_FILE)
    flags = os.O_WRONLY | os.O_CREAT | getattr(os, "O_NONBLOCK", 0) | getattr(os, "O_NOFOLLOW", 0)
    fd = os.open(mark, flags, 0o644)
    try:
        if stat.S_ISREG(os.fstat(fd).st_mode):
            os.utime(log, ns=(seen, seen))
            os.utime(fd if os.utime in os.supports_fd else mark, ns=(seen, seen))
    finally:
        os.close(fd)


def stale_fallback(log: Path) -> bool:
    """Whether the fallback ``log`` is stale (W003): it was last written over an hour ago, and
    not as the last ``sync`` that looked at it left it holding only rows it skipped
    (:func:`mark_skipped`: ``sync`` already says those are skipped; running it again would not
    move them). A new row changes the log's time: W003 is back an hour later."""
    try:
        written = log.stat().st_mtime_ns
    except OSError:
        return False
    if time.time() - written / 1e9 <= STALE_AFTER_SECONDS:
        return False
    mark = skipped_mark(log)
    return mark is None or mark.st_mtime_ns != written


def skipped_mark(log: Path) -> os.stat_result | None:
    """The status of :data:`SKIPPED_FILE` beside the fallback ``log`` when it is a mark (a
    regular file, not a symlink), else None."""
    try:
        mark = log.with_name(SKIPPED_FILE).lstat()
    except OSError:
        return None
    return mark if stat.S_ISREG(mark.st_mode) else None


def runtime_base(layout: Layout, runtime: Path) -> Path:
    """The folder a runtime's log must stay in: the project root for a project runtime, the
    skillc home for a global one, the runtime itself for one the caller made up."""
    for scope in layout.scopes():
        if runtime.parent == layout.runtime_store(scope):
            return layout.base(scope)
    return runtime


def _outside(layout: Layout, base: Path) -> str:
    if base == layout.project_root:
        return "the project"
    if base == layout.home:
        return "the skillc home"
    if base == layout.cwd:
        return "the working directory"
    return f"'{layout.display(base)}'"


def project_removed(layout: Layout, base: Path) -> bool:
    """Whether ``base`` is ``layout``'s project root and its ``.skillc/`` is gone: removed
    (``rm -rf .skillc``) since the layout was read, as before the MCP server's queued row of
    a call is written. No log is made there: its folders would make the folder a skillc
    project again (the project root is the first folder holding ``.skillc/``)."""
    store = layout.project_dir
    return base == layout.project_root and store is not None and not store.is_dir()


def writable_primary(layout: Layout, runtime: Path) -> Path | None:
    """``runtime``'s primary log when skillc may write it: None when it is :func:`misplaced`
    (it leaves its base) or its project was removed (:func:`project_removed`)."""
    path = primary_log(runtime)
    base = runtime_base(layout, runtime)
    return None if misplaced(path, base) or project_removed(layout, base) else path


def hold_log(layout: Layout, runtime: Path) -> sqlite3.Connection | None:
    """A connection to ``runtime``'s primary log for a long-lived writer to keep open, or
    ``None`` when it cannot be had (misplaced, foreign, not writable, its project removed:
    ``log_access`` then falls back on its own)."""
    path = writable_primary(layout, runtime)
    if path is None:
        return None
    try:
        return connect(path, PRIMARY_BUSY_TIMEOUT_MS)
    except (OSError, sqlite3.Error):
        return None


class LogOutcome(Record):
    """Where a row went (``None``: nowhere) and what to tell the user."""

    path: Path | None
    diagnostics: tuple[Diagnostic | Notice, ...] = ()


def log_access(
    layout: Layout, runtime: Path, record: AccessRecord, *more: AccessRecord
) -> LogOutcome:
    """Write ``record`` to the runtime's log, else to the fallback log; ``more`` rows of the
    same skill in the same transaction (a queued log writes the rows that came while it
    wrote the last ones together: one connection for a burst of calls).

    RFC-0007:C-LOGGING, EAFP: the primary database is tried first; if it cannot be written
    (read-only sandbox, permissions, locked by another process for longer than
    :data:`PRIMARY_BUSY_TIMEOUT_MS`), the row goes to ``<project root or cwd>/.skillc/logs/<skill>/
    .skillc-meta/logs.db``. A log that lies outside its base, is not skillc's
    (:class:`ForeignLog`) or is a fallback in a folder another user owns
    (:func:`~skillc_index.project.foreign_below`: planted to read the queries) is not
    touched, and a warning says so. W002 when both fail, except when the fallback was
    refused so (the warning then says the use was not logged and why: ``skc sync``, which
    W002 advises, would refuse that log too, and there is nothing else to merge); W003 when
    fallback logs for this
    skill are stale (:func:`stale_fallback`), unless another user's (``sync`` leaves those
    alone). A log in a removed project
    (:func:`project_removed`) is not made: the row goes nowhere, with no W002 (there is
    nothing to sync). Never raises.
    """
    diagnostics: list[Diagnostic | Notice] = []
    fallback = fallback_log(layout, record.skill)
    if stale_fallback(fallback) and foreign_below(layout.fallback_base, fallback) is None:
        diagnostics.append(stale_local_logs(record.skill))  # (not another user's: not to sync)
    refused: list[str] = []
    fallback_refused: str | None = None  # why the fallback log was not touched
    removed = False
    for path, base, wait_ms in (
        (primary_log(runtime), runtime_base(layout, runtime), PRIMARY_BUSY_TIMEOUT_MS),
        (fallback, layout.fallback_base, BUSY_TIMEOUT_MS),
    ):
        if project_removed(layout, base):
            removed = True
            continue
        shown = layout.display(path)
        if misplaced(path, base):
            refused.append(f"access log '{shown}' lies outside {_outside(layout, base)}")
            fallback_refused = refused[-1] if path == fallback else fallback_refused
            continue
        planted = foreign_below(base, path) if path == fallback else None
        if planted is not None:
            where = str(planted) if planted == base else layout.display(planted)
            others = " and writable by others" if planted == base else ""
            refused.append(
                f"access log '{shown}' is in '{where}', which is owned by another user "
                f"({owner_name(planted)}){others}"
            )
            fallback_refused = refused[-1]
            continue
        try:
            # sync removes fallback logs: written only under its lock
            with fallback_lock(base, timeout_ms=wait_ms) if path == fallback else nullcontext():
                insert(path, [record, *more], wait_ms)
        except NewerLog as exc:  # sync refuses a newer fallback log too (E042)
            refused.append(f"access log '{shown}' was {exc}")
            fallback_refused = refused[-1] if path == fallback else fallback_refused
            continue
        except ForeignLog as exc:
            refused.append(f"access log '{shown}' is not skillc's ({exc.what})")
            fallback_refused = refused[-1] if path == fallback else fallback_refused
            continue
        except sqlite3.DatabaseError as exc:
            if path != fallback and damaged(exc) and str(path) not in _SAID_DAMAGED:
                _SAID_DAMAGED.add(str(path))  # once a process: each row of a server has it
                refused.append(
                    f"access log '{shown}' is damaged ({exc}): move it away (a new one is "
                    "started), then `skc sync` moves the rows logged meanwhile into it"
                )
            continue
        except (OSError, sqlite3.Error, ValueError):  # ValueError: text SQLite cannot store
            continue
        written = f"; logged to '{shown}'" if path == fallback else ""
        notices = [Notice(f"{problem}{written}") for problem in refused]
        return LogOutcome(path, (*notices, *diagnostics))
    if fallback_refused is not None and not removed:  # nothing went anywhere sync reads
        primary = layout.display(primary_log(runtime))
        refused.remove(fallback_refused)
        refused.append(
            f"this use was not logged: access log '{primary}' could not be written, and "
            f"{fallback_refused}"
        )
        return LogOutcome(None, (*(Notice(problem) for problem in refused), *diagnostics))
    notices = [Notice(problem) for problem in refused]
    return LogOutcome(None, (*notices, *diagnostics, *([] if removed else [logging_disabled()])))


#: The runtime logs found damaged in this process (:func:`log_access` says so once each).
_SAID_DAMAGED: set[str] = set()
