"""Command line of skillc-stats: ``stats`` (RFC-0003) and ``sync`` (RFC-0007:C-SYNC).

Registered with ``skc`` through the ``skillc.commands`` entry points and available as
``skillc-stats <command>``. Module level imports only click and the console conventions;
the work is imported inside each command.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import cast

import click

from skillc_index import printable
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
@click.argument("skill", required=False)
@click.option(
    "--all",
    "all_",
    is_flag=True,
    help="Every installed skill at once: uses, projects and last use of each, the unused "
    "ones (to prune) first.",
)
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
@click.option(
    "--from",
    "from_",
    metavar="URL",
    help="Read the team store: a postgresql:// URL, or 'team' for the configured one "
    "([stats] url in the global config.toml, or SKILLC_STATS_URL).",
)
@click.option(
    "--user",
    multiple=True,
    metavar="NAME",
    help="With --from: only accesses of user NAME. Repeat for several.",
)
@click.option(
    "--machine",
    multiple=True,
    metavar="NAME",
    help="With --from: only accesses from machine NAME (its host name). Repeat for several.",
)
@format_option()
@verbose_option
def stats_command(
    skill: str | None,
    all_: bool,
    group_by: str,
    since: str | None,
    until: str | None,
    project: tuple[str, ...],
    from_: str | None,
    user: tuple[str, ...],
    machine: tuple[str, ...],
    output_format: str,
) -> None:
    """Usage analytics.

    Counts how agents used SKILL, from the access log in its runtime
    (`.skillc-meta/logs.db`): a summary (the default: totals, top sections, sections never
    read, accesses by command), or accesses grouped by section, file, command, project
    (the working directory of the access), error (failed lookups) or search query. Filters
    apply before counting; a log without matching accesses is an empty result, not an error.

    With --all instead of SKILL: one line per installed skill (stores, agent skills
    folders, plugins) with its uses, projects and last use, the skills nobody used first.
    With --from: the same reports over the team store that `skc sync --to` fills, a skill
    being every skill of its name, of every user and machine (or those of --user, --machine).

    \b
    Examples:
      skc stats my-skill
      skc stats my-skill --group-by sections
      skc stats my-skill --group-by search --since 7d
      skc stats my-skill --since 2026-01-01 --until 2026-01-31T23:59:59Z
      skc stats my-skill --project ~/code/webapp --project ~/code/cli --format json
      skc stats --all --since 30d
      skc stats --all --from team --user alice
      skc stats my-skill --from postgresql://stats@db.example.com/skills --machine ci-1
    """
    from skillc_index import InvalidOption
    from skillc_stats._report import stats_lines
    from skillc_stats.operations import STATS, GroupBy, StatsParams

    if (skill is None) != all_:
        raise InvalidOption("give either SKILL or --all" if all_ else "missing SKILL (or --all)")
    # --group-by is a plain string: the operation checks it (E030, not a usage error)
    params = StatsParams(
        skill, cast("GroupBy", group_by), since, until, project, from_, user, machine
    )
    result = perform(STATS, params, output_format)
    if result is not None:
        for line in stats_lines(result):
            click.echo(printable(line))  # sections and skill names come from the logs


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
@click.option(
    "--to",
    metavar="URL",
    help="Upload this machine's access rows to the team store instead: a postgresql:// URL, "
    "or 'team' for the configured one. Rows already there are not sent again.",
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
    to: str | None,
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
    if from_agent is not None:
        if to is not None:
            raise click.UsageError("use one of --from and --to (import, then upload)", ctx)
        _sync_from(ctx, skill, project, dry_run, claude_dir, output_format)
        return
    if claude_dir is not None:
        raise click.UsageError("--claude-dir goes with --from claude-code", ctx)
    from skillc_stats._report import sync_line
    from skillc_stats._sync import sync_logs

    if to is not None:
        if skill is not None or dry_run:
            from skillc_index import InvalidOption

            raise InvalidOption("--to uploads every log: it takes no SKILL and no --dry-run")
        ctx.exit(_upload(to, project, output_format))

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
            click.echo(printable(line))
    for warning in result.warnings:
        report(warning)
    for imported in result.skills:
        if imported.error is not None:
            report(imported.error.diagnostic)
    if not result.ok:
        ctx.exit(1)


def _upload(to: str, project: str | None, output_format: str) -> int:
    """``sync --to``: merge the fallback logs, then upload; the exit status."""
    from skillc_index import Layout
    from skillc_index.console import cli_session
    from skillc_stats._report import sync_line, upload_lines
    from skillc_stats._sync import sync_logs
    from skillc_stats._team import team_url, upload_logs

    session = cli_session()
    url = team_url(to, session.config.stats_url, "--to")
    merged = sync_logs(project=project)
    for synced in merged.skills:
        if synced.error is not None:
            report(synced.error.diagnostic)
        elif output_format != "json":
            click.echo(sync_line(synced, False))
    layout = Layout.discover(project) if project else session.layout
    result = upload_logs(url, layout)
    if output_format == "json":
        print_json({**result.to_dict(), "merged": merged.to_dict()})
    for log in result.logs:
        if log.error is not None:
            report(log.error.diagnostic)
    if output_format != "json":
        for line in upload_lines(result):
            click.echo(line)
    return 0 if result.ok and merged.ok else 1


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
