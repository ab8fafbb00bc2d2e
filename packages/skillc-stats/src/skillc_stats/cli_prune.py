"""``skc stats prune`` (retention), made from its operation
(:data:`skillc_stats.operations.PRUNE`): the function here only prints the result as text.
``skc stats`` hands its command line here when its first word is ``prune``
(:class:`skillc_stats.cli_stats._SkillOrAll`).
"""

from __future__ import annotations

from typing import TYPE_CHECKING

import click

from skillc_index import printable
from skillc_index.console import Call, command
from skillc_stats.operations import PRUNE, PruneParams

if TYPE_CHECKING:
    from skillc_stats._prune import PruneReport


def _status(result: PruneReport) -> int:
    """1 when a log could not be pruned: a retention job must not take it for done."""
    return 1 if any(log.failed for log in result.logs) else 0


@command(PRUNE, status=_status)
def prune_command(result: PruneReport, call: Call[PruneParams]) -> None:
    """Delete access rows older than TIME.

    From the runtime logs of this folder's stores (the project's and the global one), or
    with --from from the team store, whose daily counts stay (reports over whole days are
    unchanged; the rows of the days pruned are gone). A later `skc sync --to` uploads no row
    twice. An administrator's command: try --dry-run first.

    \b
    Examples:
      skc stats prune --before 90d --dry-run
      skc stats prune --before 2026-01-01
      skc stats prune --before 2025-07-01 --from team
    """
    from skillc_index import counted

    verb = "Would prune" if result.dry_run else "Pruned"
    where = result.store or counted(sum(1 for log in result.logs if not log.skipped), "log")
    click.echo(f"{verb} {counted(result.rows, 'row')} older than {result.before} from {where}")
    for log in result.logs:
        if log.skipped:
            click.echo(printable(f"Skipped {log.path}: {log.skipped}"))
