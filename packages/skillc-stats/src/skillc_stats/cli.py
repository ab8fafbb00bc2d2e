"""Command line of skillc-stats: ``stats`` (RFC-0003) and ``sync`` (RFC-0007:C-SYNC).

Registered with ``skc`` through the ``skillc.commands`` entry points and available as
``skillc-stats <command>``. Module level imports only click and the console conventions;
the work is imported inside each command.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import cast

import click

from skillc_index.console import (
    CONTEXT_SETTINGS,
    CommandGroup,
    format_option,
    perform,
    print_json,
    report,
    run,
    verbose_option,
)


@click.command("stats", context_settings=CONTEXT_SETTINGS)
@click.argument("skill")
@click.option(
    "--group-by",
    default="summary",
    show_default=True,
    metavar="TYPE",
    help="What to count: summary, sections, files, commands, projects, errors or search.",
)
@click.option(
    "--since",
    metavar="TIME",
    help="Only accesses at or after TIME: 2026-01-30T10:00:00Z, 2026-01-30 (the start of "
    "that day, UTC) or 7d (seven days ago).",
)
@click.option(
    "--until",
    metavar="TIME",
    help="Only accesses at or before TIME (the same forms; a date means its start).",
)
@click.option(
    "--project",
    multiple=True,
    metavar="PATH",
    help="Only accesses made in PATH or a folder below it. Repeat for several (any matches).",
)
@format_option()
@verbose_option
def stats_command(
    skill: str,
    group_by: str,
    since: str | None,
    until: str | None,
    project: tuple[str, ...],
    output_format: str,
) -> None:
    """Usage analytics.

    Counts how agents used SKILL, from the access log in its runtime
    (`.skillc-meta/logs.db`): a summary (the default: totals, top sections, sections never
    read, accesses by command), or accesses grouped by section, file, command, project
    (the working directory of the access), error (failed lookups) or search query. Filters
    apply before counting; a log without matching accesses is an empty result, not an error.

    \b
    Examples:
      skc stats my-skill
      skc stats my-skill --group-by sections
      skc stats my-skill --group-by search --since 7d
      skc stats my-skill --since 2026-01-01 --until 2026-01-31T23:59:59Z
      skc stats my-skill --project ~/code/webapp --project ~/code/cli --format json
    """
    from skillc_stats._report import stats_lines
    from skillc_stats.operations import STATS, GroupBy, StatsParams

    # --group-by is a plain string: the operation checks it (E030, not a usage error)
    params = StatsParams(skill, cast("GroupBy", group_by), since, until, project)
    result = perform(STATS, params, output_format)
    if result is not None:
        for line in stats_lines(result):
            click.echo(line)


@click.command("sync", context_settings=CONTEXT_SETTINGS)
@click.argument("skill", required=False)
@click.option(
    "--project",
    type=click.Path(exists=True, file_okay=False),
    metavar="PATH",
    help="Sync the fallback logs of PATH (PATH/.skillc/logs/) instead of the current folder.",
)
@click.option("--dry-run", is_flag=True, help="Show what would be synced; change nothing.")
@click.option(
    "--from",
    "from_agent",
    type=click.Choice(["claude-code"]),
    help="Import skill activations and skill-file reads from an agent's own session records "
    "instead (claude-code: the transcripts under ~/.claude/projects).",
)
@click.option(
    "--claude-dir",
    type=click.Path(exists=True, file_okay=False),
    metavar="PATH",
    help="Claude Code's data folder for --from claude-code (default: $CLAUDE_CONFIG_DIR, "
    "else ~/.claude).",
)
@format_option()
@verbose_option
@click.pass_context
def sync_command(
    ctx: click.Context,
    skill: str | None,
    project: str | None,
    dry_run: bool,
    from_agent: str | None,
    claude_dir: str | None,
    output_format: str,
) -> None:
    """Merge fallback logs to primary.

    When a command cannot write a skill's runtime log (a read-only sandbox), it logs to
    `.skillc/logs/<skill>/` in the working directory instead. `sync` copies those rows into
    each skill's runtime log, skipping rows already there, and removes the local copy once
    the rows are safely stored. With SKILL, only that skill's local logs. Exit status 1 if
    any skill could not be synced; the others are synced anyway.

    With `--from claude-code`, `sync` reads Claude Code's session transcripts instead (only
    what was added since the last run) and logs each activation of an installed skill
    (`activate`) and each read of a file inside a skill folder (`read`) in that skill's
    runtime log, for `skc stats`. Nothing is imported twice.

    \b
    Examples:
      skc sync
      skc sync --dry-run
      skc sync rust
      skc sync --project ~/code/webapp --format json
      skc sync --from claude-code
      skc sync --from claude-code --claude-dir ~/work-claude --format json
    """
    if from_agent is not None:
        _sync_from(ctx, skill, project, dry_run, claude_dir, output_format)
        return
    if claude_dir is not None:
        raise click.UsageError("--claude-dir goes with --from claude-code", ctx)
    from skillc_stats._report import sync_line
    from skillc_stats._sync import sync_logs

    result = sync_logs(skill, project=project, dry_run=dry_run)
    if output_format == "json":
        print_json(result.to_dict())
    elif not result.skills:
        click.echo("No local logs to sync")
    for synced in result.skills:
        if synced.error is not None:
            report(synced.error.diagnostic)
        elif output_format != "json":
            click.echo(sync_line(synced, dry_run))
    if not result.ok:
        ctx.exit(1)


def _sync_from(
    ctx: click.Context,
    skill: str | None,
    project: str | None,
    dry_run: bool,
    claude_dir: str | None,
    output_format: str,
) -> None:
    """``sync --from claude-code``: import the transcripts' skill usage."""
    if skill is not None or project is not None:
        given = "SKILL" if skill is not None else "--project"
        raise click.UsageError(f"--from imports every installed skill; drop {given}", ctx)
    from skillc_stats._report import transcript_lines
    from skillc_stats._transcripts import sync_transcripts

    result = sync_transcripts(claude_folder=claude_dir, dry_run=dry_run)
    if output_format == "json":
        print_json(result.to_dict())
    else:
        for line in transcript_lines(result):
            click.echo(line)
    for warning in result.warnings:
        report(warning)
    for imported in result.skills:
        if imported.error is not None:
            report(imported.error.diagnostic)
    if not result.ok:
        ctx.exit(1)


@click.group("skillc-stats", cls=CommandGroup, context_settings=CONTEXT_SETTINGS)
@click.version_option(package_name="skillc-stats", message="%(package)s %(version)s")
@verbose_option
def cli() -> None:
    """skillc-stats: usage analytics of Agent Skills (stats) and fallback log sync (sync).

    The same commands are `skc stats` and `skc sync` when the `skillc` umbrella is
    installed.
    """


for _command in (stats_command, sync_command):
    cli.add_command(_command)


def main(argv: Sequence[str] | None = None) -> int:
    """Console script entry point: ``skillc-stats``; ``argv`` defaults to ``sys.argv[1:]``.
    Returns the exit code (the script exits with it)."""
    return run(cli, argv, prog_name="skillc-stats")
