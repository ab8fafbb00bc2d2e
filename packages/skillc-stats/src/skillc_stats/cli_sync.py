"""``skc sync`` (RFC-0007:C-SYNC), made from its operation
(:data:`skillc_stats.operations.SYNC`): the function here only prints the result as text.
Module level imports only click, the console conventions and the operation table; the
work loads when the command runs.
"""

from __future__ import annotations

import click

from skillc_index import printable
from skillc_index.console import Call, command
from skillc_index.streams import INTERRUPTED
from skillc_stats.operations import SYNC, SyncParams, SyncResult


def _status(result: SyncResult) -> int:
    """1 when a skill or a log could not be synced (the others are), 130 when Ctrl-C ended the
    upload (what it stored is said on stderr), in every format."""
    return INTERRUPTED if result.interrupted else 0 if result.ok else 1


@command(SYNC, status=_status)
def sync_command(result: SyncResult, call: Call[SyncParams]) -> None:
    """Merge fallback logs to primary.

    When a command cannot write a skill's runtime log (a read-only sandbox), it logs to
    `.skillc/logs/<skill>/` in the project's root instead (the working directory's outside a
    project), wherever in the project it ran. `sync` copies those rows into
    each skill's runtime log, skipping rows already there, and removes the local copy once
    the rows are safely stored. With SKILL, only that skill's local logs. Exit status 1 if
    any skill could not be synced; the others are synced anyway.

    With `--from claude-code`, `sync` reads Claude Code's session transcripts instead (only
    what was added since the last run) and logs each activation of an installed skill
    (`activate`) and each read of a file inside a skill folder (`read`) in that skill's
    runtime log, for `skc stats`. Nothing is imported twice.

    With --to: upload the rows of the runtime logs (this project's and the global ones) to
    a team store, a PostgreSQL database, with this user and machine; each row once, however
    often it runs or wherever it was interrupted. The fallback logs are merged first.

    \b
    Examples:
      skc sync
      skc sync --dry-run
      skc sync rust
      skc sync --project ~/code/webapp --format json
      skc sync --from claude-code
      skc sync --from claude-code --claude-dir ~/work-claude --format json
      skc sync --to team
      skc sync --to postgresql://stats@db.example.com/skills
    """
    from skillc_stats._report import sync_line, transcript_lines, upload_lines

    if result.imported is not None:
        for line in transcript_lines(result.imported):
            click.echo(printable(line))  # skill names come from the transcripts
        return
    merged = result.merged
    assert merged is not None
    if call.params.to is None and not merged.skills:
        click.echo("No local logs to sync")
    for synced in merged.skills:
        if synced.error is None:  # the others' errors are the result's warnings
            click.echo(sync_line(synced, merged.dry_run))
    result.check()  # an upload that failed: its error, after the rows merged before it
    if result.uploaded is not None and not result.uploaded.interrupted:  # (said on stderr)
        for line in upload_lines(result.uploaded):
            click.echo(line)
