"""``sync`` (RFC-0007:C-SYNC): move fallback access logs into each skill's primary log.

When a command cannot write its skill's runtime log (a read-only sandbox, a locked log), the
row goes to ``<project root>/.skillc/logs/<skill>/.skillc-meta/logs.db`` (the working
directory's when there is no project; RFC-0007:C-LOGGING). ``sync`` finds those databases
(under the project root, and under the folder it runs in, where earlier versions wrote
them), copies their rows into the primary logs and removes each fallback folder once its
rows are safely there. Per skill:

1. the fallback lock of the folder it was found in is taken, exclusively
   (:func:`skillc_index.fallback_lock`: every command writing a fallback log holds it
   shared, for one row), so no logging process has the database open while its rows are
   read and it is removed; after :data:`SYNC_LOCK_TIMEOUT_MS` (only a stopped process holds
   it that long) that log is E042 and kept;
2. each row goes to the runtime of the source folder it names (``skill_path``), resolved as
   the command that wrote it resolved it (:func:`skillc_index.runtime_for`, from the
   synced folder's point of view), but only when that skill is known: it is installed (a
   store, a known agent skills folder, project or home, an installed plugin: the inventory
   of :mod:`skillc_index.inventory`; outside the stores, under a name that passes the name
   rule), or its runtime folder already exists (it was built or logged before). A fallback
   log is a file in a checkout, and anyone can write one; rows for other paths are
   *skipped*: counted (by the index, per ``skill_path``: never read), reported, and left in
   the fallback log, and no runtime folder is ever created for them;
3. the rows each destination lacks are added in one transaction per destination, then
   committed, with the record of the fallback they came from (its identity, the highest
   ``id`` copied: :mod:`skillc_index.accesslog.merge`): rows above it are new, even rows
   identical to ones copied before (a session under one run id, logging again in the same
   second into a new fallback). The others, and all rows of a fallback without an identity,
   are compared: a row's identity is all its columns but ``id``; rows are counted, so two
   identical accesses in the same second stay two rows and a repeated copy adds nothing;
4. only when every destination has committed is the fallback folder removed, or, when
   rows were skipped, the copied rows deleted from it (it keeps the skipped ones, and is
   marked so: :func:`skillc_index.accesslog.mark_skipped`, W003 then quiet). A crash
   or an error before that leaves it in place; the next ``sync`` copies only what is missing.

A fallback log in a folder another user owns (its ``.skillc/``, ``logs/``, the skill's
folder, ``.skillc-meta/`` or ``logs.db``: :func:`skillc_index.project.foreign_below`) is
not this user's: never merged (anyone may plant forged rows in a shared ``/tmp``) nor
removed. Nothing outside the synced project (or the skillc home, for global runtimes) is read,
written or removed through a symlink: a fallback log or a destination whose real path
leaves its base is E042 or E041. A source is read when its ``access_log`` has the
RFC-0007 columns and it holds no trigger and no view (another implementation's log is moved
like skillc's; only the RFC's columns are read), but for one a newer skillc wrote (its
``log_identity`` and a newer ``user_version``: E042 saying so, kept as it is); a
destination is written only when its
schema is skillc's own (:class:`skillc_index.accesslog.ForeignLog` otherwise, E042 or E041
saying why: a trigger or a view never runs).

Skills are independent: one failing (E041 destination not writable, E042 source not
readable, E999 the disk failing: no room left, an I/O error, wherever it struck) does not stop
the others. Two ``sync`` runs at once are safe: the second finds the
rows already home and adds nothing, or finds the folder gone (merged by the other while it
waited for the lock) and reports 0 entries for it.

A command that wants to log while sync holds the lock waits for it (at most 10 s, then W002)
and then writes into a new fallback. Without the lock, checking which file a connection
holds cannot be made sound: SQLite opens the database, its ``-wal`` and its ``-shm`` by
name at different times, and a new file at the same path often gets the removed one's inode
number. The folder is still renamed before it is removed, so a crash midway leaves only a
hidden folder, never synced again.
"""

from __future__ import annotations

import errno
import os
import shutil
import sqlite3
import time
from collections.abc import Mapping
from contextlib import closing, suppress
from dataclasses import dataclass
from pathlib import Path
from typing import TYPE_CHECKING, Any, NamedTuple, cast

from skillc_index import (
    META_DIR,
    SKILL_FILE,
    InternalError,
    Layout,
    NoLocalLogs,
    SkillcError,
    SyncDestinationNotWritable,
    SyncSourceNotReadable,
    diagnostic_json,
    runtime_for,
    skill_name_problem,
)
from skillc_index.accesslog import (
    LOG_FILE,
    FallbackLocked,
    empty_log,
    fallback_lock,
    mark_skipped,
    misplaced,
    open_log,
    primary_log,
    runtime_base,
)
from skillc_index.accesslog.merge import (
    FallbackRows,
    Identity,
    begin_merge,
    copy_missing,
    count_missing,
    drop_merged,
    read_identities,
)
from skillc_index.accesslog.schema import DB_FILES, check_not_newer, unwritable_file
from skillc_index.accesslog.store import SKIPPED_FILE, skipped_mark
from skillc_index.atomic import disk_failure, nearest_existing, not_writable
from skillc_index.sqlite import damaged

_SKILL_PATH = 4  # position of skill_path in an Identity

if TYPE_CHECKING:
    from skillc_index.build.shapes import ErrorShape
    from skillc_stats.shapes import LocalSyncShape, SkillSyncShape


def error_json(error: SkillcError | None) -> ErrorShape | None:
    """A skill's or a log's error in ``sync``'s JSON as in every JSON of the kit (a batch
    build's, skillc-lint's): ``{"code", "message"[, "detail"]}`` (``diagnostic_json``)."""
    return None if error is None else cast("ErrorShape", diagnostic_json(error.diagnostic))


def state_dir(layout: Layout) -> Path:
    """``<skillc home>/.skillc/imports/``: the state of every ``sync`` that only saves work
    (how far ``--from`` read each transcript, the rows a ``--to`` store refused), one
    folder."""
    return layout.global_dir / "imports"


def read_state(path: Path, version: int, max_bytes: int) -> dict[str, Any] | None:
    """The object a state file of :func:`state_dir` holds when it is of ``version``; None for
    a missing, oversized (over ``max_bytes``), damaged or other version's file (the state only
    saves work: everything is done again)."""
    from skillc_index import read_json_bounded

    try:
        value = read_json_bounded(path, max_bytes=max_bytes)
    except (OSError, ValueError):
        return None
    return value if isinstance(value, dict) and value.get("version") == version else None


@dataclass(frozen=True)
class SkillSync:
    """What ``sync`` did (or, in a dry run, would do) for one skill's fallback log."""

    skill: str
    source: Path
    """The fallback database."""
    entries: int
    """Rows added to the primary logs (dry run: rows that would be added)."""
    destinations: tuple[Path, ...]
    """The primary log databases its rows belong in."""
    removed: bool
    """Whether the fallback folder was removed."""
    error: SkillcError | None = None
    """E041, E042 or E999 when this skill could not be synced; its fallback log is kept."""
    skipped: int = 0
    """Rows left in the fallback log: their skill is not installed and has no runtime folder."""

    @property
    def ok(self) -> bool:
        return self.error is None

    def to_dict(self) -> SkillSyncShape:
        return {
            "skill": self.skill,
            "source": str(self.source),
            "entries": self.entries,
            "destinations": [str(path) for path in self.destinations],
            "removed": self.removed,
            "skipped": self.skipped,
            "error": error_json(self.error),
        }


@dataclass(frozen=True)
class SyncReport:
    """The result of :func:`sync_logs`: one :class:`SkillSync` per fallback log, by name."""

    root: Path
    """The folder whose ``.skillc/logs/`` was scanned."""
    dry_run: bool
    skills: tuple[SkillSync, ...]

    @property
    def ok(self) -> bool:
        return all(skill.ok for skill in self.skills)

    def to_dict(self) -> LocalSyncShape:
        return {
            "root": str(self.root),
            "dry_run": self.dry_run,
            "skills": [skill.to_dict() for skill in self.skills],
        }


def sync_layout(root: Path | None = None, env: Mapping[str, str] | None = None) -> Layout:
    """The layout seen from the synced folder, as the commands that logged there saw it (a
    ``.skillc/`` holding only the fallback's ``logs/`` is not a project: see
    :func:`skillc_index.layout.find_project_root`)."""
    return Layout.discover(root, env)


@dataclass(frozen=True)
class _Fallback:
    """One fallback log found: its ``<base>/.skillc/logs`` folder and the skill's name."""

    logs_root: Path
    skill: str

    @property
    def base(self) -> Path:
        return self.logs_root.parent.parent

    @property
    def path(self) -> Path:
        return self.logs_root / self.skill / META_DIR / LOG_FILE


def fallback_logs(layout: Layout) -> list[_Fallback]:
    """``<base>/.skillc/logs/<skill>/.skillc-meta/logs.db`` of each skill, by folder then
    name (see :attr:`skillc_index.Layout.fallback_logs_roots`), but for those in a folder
    another user owns (:func:`skillc_index.project.foreign_below`): their rows are not this
    user's to merge (forged ones, in a shared ``/tmp``), nor their files to remove."""
    from skillc_index.project import foreign_below

    found: list[_Fallback] = []
    for logs_root in layout.fallback_logs_roots:
        try:
            entries = os.scandir(logs_root)
            names = sorted(entry.name for entry in entries if entry.is_dir())
        except OSError:
            continue
        for name in names:
            fallback = _Fallback(logs_root, name)
            path = fallback.path
            if (
                not name.startswith(".")
                and (path.exists() or path.is_symlink())
                and foreign_below(fallback.base, path) is None
            ):
                found.append(fallback)
    return found


class _Known:
    """The skills whose rows ``sync`` moves, seen from the synced folder: the installed
    skills (:func:`skillc_index.inventory.entries.installed_skills`: the stores, every
    known agent skills folder, project and home, and installed plugins' skills; listed on
    first need, once per ``sync``) and any skill whose runtime folder exists."""

    def __init__(self, layout: Layout) -> None:
        self.layout = layout
        self._installed: frozenset[str] | None = None

    def installed(self, source: str) -> bool:
        """Whether ``source`` (a real path, as rows record it) is an installed skill."""
        if self._installed is None:
            from skillc_index import load_config
            from skillc_index.inventory.entries import installed_skills
            from skillc_index.inventory.folders import trusted_targets

            try:
                targets: dict[str, str] | None = trusted_targets(
                    self.layout, load_config(self.layout)
                )
            except (SkillcError, OSError):  # a broken config: the built-in folders
                targets = None
            found = installed_skills(self.layout, targets).skills
            self._installed = frozenset(str(skill.source) for skill in found)
        return source in self._installed

    def runtime(self, skill_path: str) -> Path | None:
        """The runtime folder rows of ``skill_path`` belong in (RFC-0007:C-RESOLUTION, as the
        command that logged them resolved it: :func:`skillc_index.runtime_for`), or ``None``
        when that skill is unknown here: not installed (or installed under a name that fails
        the name rule) and without a runtime folder (``ValueError``: not an absolute path,
        so no row skillc writes)."""
        source = Path(skill_path)
        if not source.is_absolute() or not source.name:
            raise ValueError(f"row without a skill path: {skill_path!r}")
        if source.name in (".", "..") or "\0" in skill_path:
            return None
        _, runtime, in_store = runtime_for(source, self.layout)
        try:
            if runtime.is_dir() or (in_store and (source / SKILL_FILE).is_file()):
                return runtime
            if skill_name_problem(source.name) is None and self.installed(skill_path):
                return runtime
        except (OSError, ValueError):
            pass
        return None


class _Plan(NamedTuple):
    """Where a fallback log's rows go: per primary log, its runtime and rows; and the rows
    that stay (``skipped``); and the ``skill_path`` values of the rows that go."""

    groups: dict[Path, tuple[Path, FallbackRows]]
    skipped: int
    merged_paths: frozenset[str]


def _destinations(known: _Known, db: sqlite3.Connection, begin: bool = False) -> _Plan:
    """The rows of the fallback log ``db`` split by the primary log each belongs in, and how
    many belong in none: those are counted, never read (:func:`read_identities`); ``begin``:
    with the log's write lock (:func:`begin_merge`). ``ValueError``: a row without an
    absolute ``skill_path`` is not one skillc writes; ``NewerLog``
    (:func:`~skillc_index.accesslog.schema.check_not_newer`): a newer skillc wrote the log (its
    columns and tables this version cannot read would be lost with it)."""
    check_not_newer(db)  # a newer skillc's log: neither merged nor removed (NewerLog, E042)
    runtimes: dict[str, Path] = {}  # (the known folders' only: a log can name any number)

    def known_folder(skill_path: str) -> bool:
        runtime = known.runtime(skill_path)
        if runtime is not None:
            runtimes[skill_path] = runtime
        return runtime is not None

    rows = (begin_merge if begin else read_identities)(db, known_folder)
    split: dict[Path, tuple[Path, list[tuple[Identity, int]]]] = {}
    for identity, count in rows.identities:
        runtime = runtimes[identity[_SKILL_PATH]]
        split.setdefault(primary_log(runtime), (runtime, []))[1].append((identity, count))
    # each part keeps where its rows came from (their log's identity and ids)
    groups = {
        path: (runtime, rows._replace(identities=part)) for path, (runtime, part) in split.items()
    }
    return _Plan(groups, rows.skipped, frozenset(runtimes))


def _misplaced_destination(layout: Layout, destination: Path, runtime: Path) -> SkillcError | None:
    """E041 when writing ``destination`` would land outside its base (a symlinked runtime)."""
    base = runtime_base(layout, runtime)
    if not misplaced(destination, base):
        return None
    where = "the project" if base == layout.project_root else f"'{layout.display(base)}'"
    return SyncDestinationNotWritable(layout.display(destination), f"it lies outside {where}")


def _source_problem(layout: Layout, fallback: _Fallback) -> SkillcError | None:
    """E042 when the fallback log lies outside the folder it was found in (symlinks)."""
    if not misplaced(fallback.path, fallback.base):
        return None
    where = "the project" if fallback.base == layout.project_root else "the synced folder"
    return SyncSourceNotReadable(layout.display(fallback.path), f"it lies outside {where}")


def _fixed_source(layout: Layout, fallback: _Fallback) -> SkillcError | None:
    """E999 ``cannot remove local logs '<folder>': <why>`` when the fallback log can be
    read but not updated or emptied (its folder, its ``.skillc-meta`` or its files
    read-only, another user's): found before anything is copied, by ``--dry-run`` too. It
    was E042 "not readable" with SQLite's "attempt to write a readonly database", which
    ``--dry-run`` never saw."""
    folder = fallback.logs_root / fallback.skill
    denied = None
    for path in (folder, fallback.path.parent):  # .skillc/logs read-only: E999 once copied
        if denied is None and path.is_dir():
            denied = not_writable(path)
    if denied is None and unwritable_file(fallback.path) is not None:
        denied = os.strerror(errno.EACCES)
    if denied is None:
        return None
    return InternalError(f"cannot remove local logs '{layout.display(folder)}': {denied}")


def _disk_failure(layout: Layout, path: Path, exc: Exception) -> SkillcError | None:
    """E999 with the reason when ``exc`` is the disk failing (no room left, an I/O error)
    while ``path`` was read or written (:func:`skillc_index.atomic.disk_failure`): not the
    log's fault, so neither E042 nor E041 (RFC-0005: IO errors are E999). On a full disk even
    reading the fallback fails (SQLite grows its ``-shm`` file: ``disk I/O error``), and that
    was E042 "not readable" without a reason. None for any other failure."""
    reason = disk_failure(exc, path)
    if reason is None:
        return None
    return InternalError(f"cannot sync '{layout.display(path)}': {reason}")


def _unreadable(layout: Layout, source: Path, exc: Exception) -> SkillcError:
    """E042 with why: not skillc's, not a database, a row skillc never writes (E999 for the
    disk failing)."""
    failed = _disk_failure(layout, source, exc)
    if failed is not None:
        return failed
    return SyncSourceNotReadable(layout.display(source), _why(exc))


def _unwritable(layout: Layout, destination: Path, exc: Exception) -> SkillcError:
    """E041 with why (E999 for the disk failing)."""
    failed = _disk_failure(layout, destination, exc)
    if failed is not None:
        return failed
    return SyncDestinationNotWritable(layout.display(destination), _why(exc))


def _reason(exc: Exception) -> str:
    """What went wrong, in a line: an ``OSError``'s message, any other's text."""
    return (exc.strerror if isinstance(exc, OSError) else None) or str(exc)


def _writable(path: Path) -> bool:
    """Whether ``path`` (a database, maybe not there yet) could be written: the dry run's
    stand-in for trying."""
    if path.exists():
        return path.is_file() and os.access(path, os.W_OK)
    folder = nearest_existing(path.parent)
    return folder.is_dir() and os.access(folder, os.W_OK | os.X_OK)


def _remove(fallback: _Fallback) -> None:
    """Remove ``<base>/.skillc/logs/<skill>/``, then ``logs/`` and ``.skillc/`` if that left
    them empty (so the fallback leaves no trace that would make the folder look like a
    project). Only what skillc wrote goes: a folder that holds anything else (a file put
    there by hand), or that is a symlink, loses only the log's own files and ``sync``'s mark
    (:func:`~skillc_index.accesslog.mark_skipped`)."""
    folder = fallback.logs_root / fallback.skill
    if skipped_mark(fallback.path) is not None:  # sync's mark (a folder of its name is kept)
        fallback.path.with_name(SKIPPED_FILE).unlink(missing_ok=True)
    if _only_the_log(folder, fallback.path):
        # Renamed first: a removal cut short leaves a hidden folder, never half a log.
        doomed = folder.with_name(f".{folder.name}.removed-{os.getpid()}-{time.monotonic_ns()}")
        try:
            folder.rename(doomed)
        except FileNotFoundError:  # a concurrent sync removed it first: the rows are home
            pass
        else:
            shutil.rmtree(doomed, ignore_errors=True)  # hidden names are never synced again
    else:
        for suffix in DB_FILES:
            Path(f"{fallback.path}{suffix}").unlink(missing_ok=True)
        for empty in (fallback.path.parent, folder):
            try:
                empty.rmdir()
            except OSError:  # a symlink, or not empty: kept
                break
    for empty in (fallback.logs_root, fallback.logs_root.parent):
        try:
            empty.rmdir()
        except OSError:  # not empty (other skills, a real project): keep it
            break


def _only_the_log(folder: Path, log: Path) -> bool:
    """Whether ``folder`` is a real folder holding nothing but the fallback ``log`` (and
    SQLite's files beside it) in its ``.skillc-meta``."""
    names = {log.name + suffix for suffix in DB_FILES}
    try:
        if folder.is_symlink() or os.listdir(folder) != [log.parent.name]:  # noqa: PTH208
            return False
        meta = log.parent
        return not meta.is_symlink() and set(os.listdir(meta)) <= names  # noqa: PTH208
    except OSError:
        return False


def _why(exc: Exception) -> str:
    """The hint of an E041 or E042: what went wrong, and what to do when the log (a runtime
    log written to, or the fallback log read) is damaged."""
    reason = _reason(exc)
    if damaged(exc):
        return f"{reason}; move the damaged log away and sync again (a new log is started)"
    return reason


def _dry_run(known: _Known, fallback: _Fallback) -> SkillSync:
    layout = known.layout
    skill, source = fallback.skill, fallback.path
    problem = _source_problem(layout, fallback) or _fixed_source(layout, fallback)
    if problem is not None:
        return SkillSync(skill, source, 0, (), False, problem)
    if empty_log(source):  # no table (its schema never written): nothing to sync
        return SkillSync(skill, source, 0, (), False)
    try:
        with closing(open_log(source)) as db:
            plan = _destinations(known, db)
    except (sqlite3.Error, OSError, ValueError) as exc:
        return SkillSync(skill, source, 0, (), False, _unreadable(layout, source, exc))
    entries = 0
    targets = tuple(plan.groups)
    for destination, (runtime, part) in plan.groups.items():
        error = _misplaced_destination(layout, destination, runtime)
        if error is None and not _writable(destination):
            error = SyncDestinationNotWritable(layout.display(destination))
        if error is None:
            try:
                entries += count_missing(destination, part)
            except (sqlite3.Error, OSError) as exc:
                error = _unwritable(layout, destination, exc)
        if error is not None:
            return SkillSync(skill, source, entries, targets, False, error, plan.skipped)
    return SkillSync(skill, source, entries, targets, False, None, plan.skipped)


#: How long ``sync`` waits for the writers of a fallback log (each holds it for one row).
SYNC_LOCK_TIMEOUT_MS = 30_000


def _sync(known: _Known, fallback: _Fallback) -> SkillSync:
    layout = known.layout
    skill, source = fallback.skill, fallback.path
    problem = _source_problem(layout, fallback) or _fixed_source(layout, fallback)
    if problem is not None:
        return SkillSync(skill, source, 0, (), False, problem)
    # Exclusive: no command appends to it meanwhile (see the module docstring). Each holds
    # the lock for one row, so a long wait means a stopped process (say, Ctrl-Z): give up
    # on this log then, rather than hang.
    try:
        with fallback_lock(fallback.base, exclusive=True, timeout_ms=SYNC_LOCK_TIMEOUT_MS):
            return _sync_locked(known, fallback)
    except FallbackLocked:
        seconds = f"{SYNC_LOCK_TIMEOUT_MS / 1000:g} s"
        reason = (
            f"another process holds its lock, a flock on '{fallback.base}' "
            f"(waited {seconds}: a stopped skc, or a process of any user who may read that "
            "folder); try again when it is done"
        )
        problem = SyncSourceNotReadable(layout.display(source), reason)
        return SkillSync(skill, source, 0, (), False, problem)


def _sync_locked(known: _Known, fallback: _Fallback) -> SkillSync:
    layout = known.layout
    skill, source = fallback.skill, fallback.path
    if not os.path.lexists(source):  # another sync merged it while this one waited
        return SkillSync(skill, source, 0, (), True)
    if empty_log(source):  # made, never given its table (out of descriptors, a full disk)
        try:
            _remove(fallback)
        except OSError as exc:
            return SkillSync(skill, source, 0, (), False, _unreadable(layout, source, exc))
        return SkillSync(skill, source, 0, (), True)
    try:
        db = open_log(source, write=True)
    except (sqlite3.Error, OSError) as exc:
        return SkillSync(skill, source, 0, (), False, _unreadable(layout, source, exc))
    try:
        try:
            plan = _destinations(known, db, begin=True)  # the write lock: see the module docstring
        except (sqlite3.Error, OSError, ValueError) as exc:
            return SkillSync(skill, source, 0, (), False, _unreadable(layout, source, exc))
        entries = 0
        targets = tuple(plan.groups)
        for destination, (runtime, part) in plan.groups.items():
            error = _misplaced_destination(layout, destination, runtime)
            if error is None:
                try:
                    entries += copy_missing(destination, part)
                except (sqlite3.Error, OSError) as exc:
                    error = _unwritable(layout, destination, exc)
            if error is not None:
                return SkillSync(skill, source, entries, targets, False, error, plan.skipped)
        if plan.skipped:
            # Keep the log with the rows that belong nowhere; drop the ones now home.
            try:
                drop_merged(db, plan.merged_paths)
            except sqlite3.Error as exc:
                error = InternalError(f"cannot update local logs '{layout.display(source)}': {exc}")
                return SkillSync(skill, source, entries, targets, False, error, plan.skipped)
            db.close()  # (its last changes are in the file: the time marked is final)
            with suppress(OSError):  # unmarked: W003 goes on saying to sync
                mark_skipped(source)
            return SkillSync(skill, source, entries, targets, False, None, plan.skipped)
        try:
            _remove(fallback)
        except OSError:
            db.close()  # some systems (Windows) do not remove an open file: retry unlocked
            try:
                _remove(fallback)
            except OSError as exc:
                folder = layout.display(fallback.logs_root / skill)
                reason = exc.strerror or str(exc)
                failed = InternalError(f"cannot remove local logs '{folder}': {reason}")
                return SkillSync(skill, source, entries, targets, False, failed)
        return SkillSync(skill, source, entries, targets, True)
    finally:
        db.close()


def sync_logs(
    skill: str | None = None,
    *,
    project: str | os.PathLike[str] | None = None,
    dry_run: bool = False,
    env: Mapping[str, str] | None = None,
) -> SyncReport:
    """Move the fallback access logs under ``project`` (default: the current directory; the
    fallback logs of its project root and its own) into their skills' primary logs
    (RFC-0007:C-SYNC); only ``skill``'s when given.

    ``env`` stands in for ``os.environ`` (``SKILLC_HOME``). ``dry_run`` writes and removes
    nothing and reports how many rows would be added. Raises ``NoSyncFolder`` (E100) when
    ``project`` is no folder, :class:`NoLocalLogs` (E040) when ``skill`` is given and has
    no fallback log; with no ``skill`` and no fallback logs
    the report is simply empty. Per-skill failures are in each :class:`SkillSync`'s
    ``error``; they never stop the other skills. Rows of unknown skills are counted in
    ``skipped`` and stay in their fallback log.
    """
    from skillc_index.accesslog.errors import sync_folder

    layout = sync_layout(None if project is None else sync_folder(project, "project"), env)
    found = fallback_logs(layout)
    if skill is not None:
        found = [fallback for fallback in found if fallback.skill == skill]
        if not found:
            raise NoLocalLogs()
    run = _dry_run if dry_run else _sync
    known = _Known(layout)
    return SyncReport(layout.cwd, dry_run, tuple(run(known, fallback) for fallback in found))
