"""Retention (``skc stats prune --before DATE``): the access rows older than a date deleted
from this machine's runtime logs, or from the team store (``--from``), the rollups kept.

**Nothing is uploaded twice after a prune.** A local log keeps its identity and its ids are
never given again (``AUTOINCREMENT``), so the next ``sync --to`` sends only the rows above the
highest the store holds, as before. A log still reconciling rows an earlier version sent
(:attr:`~skillc_index.accesslog.identity.LogIdentity.previous_upto`: its rows are compared
with the store's by content) is left alone until an upload has settled it, and a log skillc
does not write (another implementation's, a log reached through a symlink) is never
written. In the team store, the last row of each log stays (the next upload of that log
starts after it), and the date is recorded as a horizon below which no upload adds a row:
a row pruned is never taken, nor counted in the rollups, again.
"""

from __future__ import annotations

import sqlite3
from contextlib import closing
from pathlib import Path
from typing import TYPE_CHECKING, NamedTuple

from skillc_index import Layout

if TYPE_CHECKING:
    from skillc_index import Notice
    from skillc_stats.shapes import PruneShape


class PrunedLog(NamedTuple):
    path: str
    rows: int
    skipped: str | None = None
    """Why this log was left as it is (None: pruned)."""
    failed: bool = False
    """Left as it is because it could not be pruned (read or written): the exit status is 1,
    where a log left by choice (outside its store, not reconciled yet) is no failure."""


class PruneReport(NamedTuple):
    """What ``skc stats prune`` deleted (``dry_run``: would delete)."""

    before: str
    dry_run: bool
    store: str | None
    """The team store pruned (its URL masked); None: the local logs."""
    rows: int
    logs: tuple[PrunedLog, ...] = ()

    @property
    def warnings(self) -> tuple[Notice, ...]:
        """Nothing to warn of: a log left as it is is a line of the report."""
        return ()

    def to_dict(self) -> PruneShape:
        return {
            "before": self.before,
            "dry_run": self.dry_run,
            "store": self.store,
            "rows": self.rows,
            "logs": [log._asdict() for log in self.logs],  # type: ignore[misc]
        }


def _skip_reason(path: Path, layout: Layout) -> str | None:
    """Why the log at ``path`` must not be pruned, if it must not."""
    from skillc_index.accesslog import (
        ForeignLog,
        check_schema,
        misplaced,
        open_log,
        read_identity,
        runtime_base,
    )

    if misplaced(path, runtime_base(layout, path.parent.parent)):
        return "it lies outside its store (a symlink): never written"
    with closing(open_log(path)) as db:
        try:
            check_schema(db)
        except ForeignLog as exc:
            return f"{exc}: never written"
        identity = read_identity(db)
    if identity is None or identity.previous_upto:
        from skillc_index.helppage import program_command  # (the program run: skc, skillc-stats)

        return (
            "rows an earlier version uploaded are not reconciled yet: run "
            f"'{program_command('sync --to')}' first (it settles them once the store holds a "
            "row of the log's own after them)"
        )
    return None


def prune_logs(layout: Layout, before: str, *, dry_run: bool = False) -> PruneReport:
    """Delete the rows older than ``before`` from every runtime log of ``layout``'s stores."""
    from skillc_index.accesslog import prune_rows
    from skillc_stats._log_keys import local_logs

    found: list[PrunedLog] = []
    for path in local_logs(layout):
        shown = str(path)
        try:
            reason = _skip_reason(path, layout)
            if reason is not None:
                found.append(PrunedLog(shown, 0, reason))
                continue
            found.append(PrunedLog(shown, prune_rows(path, before, dry_run=dry_run)))
        except (sqlite3.Error, OSError) as exc:  # a read-only runtime or log, a full disk
            from skillc_index.atomic import failure_reason

            why = failure_reason(exc, path)
            found.append(PrunedLog(shown, 0, f"cannot prune it: {why}", failed=True))
    return PruneReport(before, dry_run, None, sum(log.rows for log in found), tuple(found))


def prune_store(url: str, before: str, *, dry_run: bool = False) -> PruneReport:
    """Delete the rows older than ``before`` from the team store at ``url`` (the last row of
    each log kept), and record ``before`` as the horizon of uploads."""
    from skillc_index.accesslog.reader import second_floor
    from skillc_stats import _team_sql as sql
    from skillc_stats._team import TeamStore

    bound = second_floor(before)  # as a local log's prune_rows: a fraction is not older
    with TeamStore(url, write=not dry_run) as store:
        try:
            if dry_run:
                row = store.db.execute(sql.COUNT_PRUNED, (bound,)).fetchone()
                rows = int(row[0]) if row else 0
            else:
                with store.db.transaction():
                    # alone under the horizon's lock: the batches being inserted are waited
                    # for (deleted too), those after read the new horizon (_team_sql)
                    store.db.execute(sql.TAKE_HORIZON, (sql.HORIZON_KEY,))
                    rows = store.db.execute(sql.PRUNE, (bound,)).rowcount
                    store.db.execute(sql.SET_HORIZON, (bound,))
        except store.driver_error as exc:
            raise store.failure(exc) from None
    return PruneReport(before, dry_run, store.shown, rows)
