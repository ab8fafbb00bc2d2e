"""``sync`` (RFC-0007:C-SYNC): move fallback access logs into each skill's primary log.

When a command cannot write its skill's runtime log (a read-only sandbox), the row goes to
``<cwd>/.skillc/logs/<skill>/.skillc-meta/logs.db`` (RFC-0007:C-LOGGING). ``sync`` finds
those databases under a folder, copies their rows into the primary logs and removes each
fallback folder once its rows are safely there. Per skill:

1. the fallback log is opened and its write lock taken, so no logging process adds a row
   between reading the rows and removing the database (see the limit below);
2. each row goes to the runtime of the source folder it names (``skill_path``), resolved as
   the command that wrote it resolved it (:func:`skillc_index._layout.runtime_for`, from the
   synced folder's point of view);
3. the rows each destination lacks are added in one transaction per destination, then
   committed. A row's identity is all its columns but ``id``; rows are counted, so two
   identical accesses in the same second stay two rows and a repeated copy adds nothing;
4. only when every destination has committed is the fallback folder removed. A crash or an
   error before that leaves it in place; the next ``sync`` copies only what is missing.

Skills are independent: one failing (E041 destination not writable, E042 source not
readable) does not stop the others. Two ``sync`` runs at once are safe: the second finds the
rows already home (or the folder gone) and adds nothing.

A logging process that opened the fallback before the folder was removed notices (its
writer checks, holding the lock and after committing, that the file is still the one at its
path) and writes its row again into a new fallback; the counted identities above keep that
from doubling a row sync already copied. The folder is renamed before it is removed, so a
writer recreating it meanwhile cannot make the removal fail.
"""

from __future__ import annotations

import os
import shutil
import sqlite3
import time
from collections.abc import Mapping
from contextlib import closing
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from skillc_index import (
    InternalError,
    Layout,
    NoLocalLogs,
    SkillcError,
    SyncDestinationNotWritable,
    SyncSourceNotReadable,
    format_diagnostic,
)
from skillc_index._access_log import fallback_log, open_log, primary_log
from skillc_index._layout import runtime_for
from skillc_stats._log_queries import (
    FallbackRows,
    Identity,
    copy_missing,
    count_missing,
    read_identities,
)

_SKILL_PATH = 4  # position of skill_path in an Identity


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

    @property
    def ok(self) -> bool:
        return self.error is None

    def to_dict(self) -> dict[str, Any]:
        return {
            "skill": self.skill,
            "source": str(self.source),
            "entries": self.entries,
            "destinations": [str(path) for path in self.destinations],
            "removed": self.removed,
            "error": None if self.error is None else format_diagnostic(self.error.diagnostic),
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

    def to_dict(self) -> dict[str, Any]:
        return {
            "root": str(self.root),
            "dry_run": self.dry_run,
            "skills": [skill.to_dict() for skill in self.skills],
        }


def sync_layout(root: Path | None = None, env: Mapping[str, str] | None = None) -> Layout:
    """The layout seen from the synced folder, as the commands that logged there saw it (a
    ``.skillc/`` holding only the fallback's ``logs/`` is not a project: see
    :func:`skillc_index.find_project_root`)."""
    return Layout.discover(root, env)


def fallback_logs(layout: Layout) -> dict[str, Path]:
    """``<cwd>/.skillc/logs/<skill>/.skillc-meta/logs.db`` of each skill, by name."""
    try:
        entries = os.scandir(layout.fallback_logs_root)
        names = sorted(entry.name for entry in entries if entry.is_dir())
    except OSError:
        return {}
    found: dict[str, Path] = {}
    for name in names:
        path = fallback_log(layout, name)
        if not name.startswith(".") and (path.exists() or path.is_symlink()):
            found[name] = path
    return found


def _destinations(layout: Layout, rows: FallbackRows) -> dict[Path, FallbackRows]:
    """The rows split by the primary log each belongs in (``ValueError``: a row without an
    absolute ``skill_path`` belongs nowhere)."""
    split: dict[Path, list[tuple[Identity, int]]] = {}
    runtimes: dict[str, Path] = {}
    for identity, count in rows.identities:
        skill_path = identity[_SKILL_PATH]
        if skill_path not in runtimes:
            source = Path(skill_path)
            if not source.is_absolute() or not source.name:
                raise ValueError(f"row without a skill path: {skill_path!r}")
            runtimes[skill_path] = primary_log(runtime_for(source, layout)[1])
        split.setdefault(runtimes[skill_path], []).append((identity, count))
    return {path: FallbackRows(part) for path, part in split.items()}


def _writable(path: Path) -> bool:
    """Whether ``path`` (a database, maybe not there yet) could be written: the dry run's
    stand-in for trying."""
    if path.exists():
        return path.is_file() and os.access(path, os.W_OK)
    folder = path.parent
    while not folder.exists() and folder != folder.parent:
        folder = folder.parent
    return folder.is_dir() and os.access(folder, os.W_OK | os.X_OK)


def _remove(layout: Layout, skill: str) -> None:
    """Remove ``<cwd>/.skillc/logs/<skill>/``, then ``logs/`` and ``.skillc/`` if that left
    them empty (so the fallback leaves no trace that would make the folder look like a
    project)."""
    folder = layout.fallback_logs_root / skill
    # Renamed first, under the lock: a writer recreating the folder meanwhile (its rows go to
    # a new file) can neither make the removal fail nor lose rows into the folder removed.
    doomed = folder.with_name(f".{folder.name}.removed-{os.getpid()}-{time.monotonic_ns()}")
    try:
        folder.rename(doomed)
    except FileNotFoundError:  # a concurrent sync removed it first: the rows are home
        pass
    else:
        shutil.rmtree(doomed, ignore_errors=True)  # hidden names are never synced again
    for empty in (layout.fallback_logs_root, layout.fallback_logs_root.parent):
        try:
            empty.rmdir()
        except OSError:  # not empty (other skills, a real project): keep it
            break


def _why(exc: Exception) -> str:
    """The hint of an E041: what went wrong, and what to do when the log is damaged."""
    if not isinstance(exc, sqlite3.DatabaseError):
        return (exc.strerror if isinstance(exc, OSError) else None) or str(exc)
    reason = str(exc)
    if "malformed" in reason or "not a database" in reason:
        return f"{reason}; move the damaged log away and sync again (a new log is started)"
    return reason


def _dry_run(layout: Layout, skill: str, source: Path) -> SkillSync:
    shown = layout.display(source)
    try:
        with closing(open_log(source)) as db:
            rows = read_identities(db)
        groups = _destinations(layout, rows)
    except (sqlite3.Error, OSError, ValueError):
        return SkillSync(skill, source, 0, (), False, SyncSourceNotReadable(shown))
    entries = 0
    for destination, part in groups.items():
        error = SyncDestinationNotWritable(layout.display(destination))
        if not _writable(destination):
            return SkillSync(skill, source, entries, tuple(groups), False, error)
        try:
            entries += count_missing(destination, part)
        except (sqlite3.Error, OSError) as exc:
            error = SyncDestinationNotWritable(layout.display(destination), _why(exc))
            return SkillSync(skill, source, entries, tuple(groups), False, error)
    return SkillSync(skill, source, entries, tuple(groups), False)


def _sync(layout: Layout, skill: str, source: Path) -> SkillSync:
    shown = layout.display(source)
    try:
        db = open_log(source, write=True)
    except (sqlite3.Error, OSError):
        return SkillSync(skill, source, 0, (), False, SyncSourceNotReadable(shown))
    try:
        try:
            db.execute("BEGIN IMMEDIATE")  # the write lock: see the module docstring
            groups = _destinations(layout, read_identities(db))
        except (sqlite3.Error, OSError, ValueError):
            return SkillSync(skill, source, 0, (), False, SyncSourceNotReadable(shown))
        entries = 0
        for destination, part in groups.items():
            try:
                entries += copy_missing(destination, part)
            except (sqlite3.Error, OSError) as exc:
                error = SyncDestinationNotWritable(layout.display(destination), _why(exc))
                return SkillSync(skill, source, entries, tuple(groups), False, error)
        try:
            _remove(layout, skill)
        except OSError:
            db.close()  # some systems (Windows) do not remove an open file: retry unlocked
            try:
                _remove(layout, skill)
            except OSError as exc:
                folder = layout.display(layout.fallback_logs_root / skill)
                reason = exc.strerror or str(exc)
                failed = InternalError(f"cannot remove local logs '{folder}': {reason}")
                return SkillSync(skill, source, entries, tuple(groups), False, failed)
        return SkillSync(skill, source, entries, tuple(groups), True)
    finally:
        db.close()


def sync_logs(
    skill: str | None = None,
    *,
    project: str | os.PathLike[str] | None = None,
    dry_run: bool = False,
    env: Mapping[str, str] | None = None,
) -> SyncReport:
    """Move the fallback access logs under ``project`` (default: the current directory) into
    their skills' primary logs (RFC-0007:C-SYNC); only ``skill``'s when given.

    ``env`` stands in for ``os.environ`` (``SKILLC_HOME``). ``dry_run`` writes and removes
    nothing and reports how many rows would be added. Raises :class:`NoLocalLogs` (E040)
    when ``skill`` is given and has no fallback log; with no ``skill`` and no fallback logs
    the report is simply empty. Per-skill failures are in each :class:`SkillSync`'s
    ``error``; they never stop the other skills.
    """
    layout = sync_layout(None if project is None else Path(project), env)
    found = fallback_logs(layout)
    if skill is not None:
        if skill not in found:
            raise NoLocalLogs()
        found = {skill: found[skill]}
    run = _dry_run if dry_run else _sync
    return SyncReport(layout.cwd, dry_run, tuple(run(layout, n, p) for n, p in found.items()))
