"""Command line of skillc-index: ``init``, ``list`` and ``build`` (and the ``skillc-index`` script).

The commands are registered with ``skc`` through the ``skillc.commands`` entry points; this
module imports only click and :mod:`skillc_index.console` at import time, and the library
inside each command body, so ``skc --help`` and ``skc list --help`` stay fast.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from typing import TYPE_CHECKING

import click

from skillc_index.console import (
    CONTEXT_SETTINGS,
    CommandGroup,
    DelayedProgress,
    cli_session,
    count_range,
    format_option,
    is_verbose,
    perform,
    print_json,
    report_all,
    run,
    verbose_option,
)
from skillc_index.text import printable

if TYPE_CHECKING:
    from skillc_index.layout import Layout
    from skillc_index.listing.budget import FolderBudget
    from skillc_index.operation import Session
    from skillc_index.route.result import RouteResult

#: The router skill's name (``route.router_skill.ROUTER_NAME``; not imported for --help).
ROUTER_NAME = "skill-router"


@click.command("init", context_settings=CONTEXT_SETTINGS)
@click.argument("name", required=False)
@click.option("--global", "global_", is_flag=True, help="Create the skill in the global store.")
@format_option()
@verbose_option
def init_command(name: str | None, global_: bool, output_format: str) -> None:
    """Initialize project or create skill.

    Without NAME, create `.skillc/skills/` in the current folder (safe to repeat). With NAME,
    create `.skillc/skills/NAME/SKILL.md` in the project (or, with --global, in
    `~/.skillc/skills/`), from a minimal template. An existing SKILL.md is never overwritten.
    A new project's `.gitignore` gets `.skillc/runtime/`, `.skillc/logs/` and
    `.claude/skills/` (where builds put symlinks), each only where git tracks nothing in it.

    \b
    Examples:
      skc init                   # make this folder a skillc project
      skc init my-skill          # .skillc/skills/my-skill/SKILL.md
      skc init my-skill --global # ~/.skillc/skills/my-skill/SKILL.md
    """
    from skillc_index.build.scaffold import NameNeeded
    from skillc_index.operations import INIT, InitParams

    session = cli_session()
    try:
        result = perform(INIT, InitParams(name, global_), output_format, session)
    except NameNeeded:
        raise click.UsageError("--global needs a skill NAME") from None
    if result is None:
        return
    layout = session.layout
    if result.kind == "project":
        where = layout.display(result.path.parent)
        if result.created:
            click.echo(
                f"Initialized skillc project: {where}/ (skill sources go in {where}/skills/)"
            )
        else:
            click.echo(f"skillc project already initialized: {where}/")
    elif result.kind == "global":
        where = layout.display(result.path)
        click.echo(
            f"This is the skillc home, not a project: its store {where}/ is the global store "
            f"({'created' if result.created else 'already there'}); run 'skc init' in a "
            "project folder to make a project"
        )
    else:
        click.echo(f"Created {result.scope} skill '{name}': {layout.display(result.path)}/SKILL.md")
    if result.gitignore:
        click.echo(f"Added to .gitignore: {', '.join(result.gitignore)}")


@click.command("list", context_settings=CONTEXT_SETTINGS)
@click.option(
    "--scope",
    type=click.Choice(["project", "global", "all"]),
    default="all",
    show_default=True,
    help="Which store to list.",
)
@click.option(
    "--status",
    type=click.Choice(["normal", "not-built", "obsolete", "all"]),
    default="all",
    show_default=True,
    help="Only skills with this build status (obsolete implies --check-obsolete).",
)
@click.option("--limit", type=count_range(0), help="Show at most this many skills.")
@click.option("--pattern", metavar="GLOB", help="Only skills whose name matches this glob.")
@click.option(
    "--check-obsolete",
    is_flag=True,
    help="Compare source hashes with the last build to find obsolete runtimes (slower).",
)
@click.option(
    "--budget",
    is_flag=True,
    help="Show instead what each agent skills folder (project and home) costs the agent's "
    "skill listing: estimated tokens against the budget ([budget] in config; default 1% of a "
    "200,000-token context) and the descriptions the agent would drop.",
)
@format_option()
@verbose_option
def list_command(
    scope: str,
    status: str,
    limit: int | None,
    pattern: str | None,
    check_obsolete: bool,
    budget: bool,
    output_format: str,
) -> None:
    """List all skillc-managed skills.

    Skills come from the project store (`.skillc/skills/`, found by walking up from the
    current folder) and then the global store (`~/.skillc/skills/`), project first, each by
    name. STATUS is `normal` (built), `not-built`, or with --check-obsolete `obsolete`
    (sources changed since the last build).

    With --budget, a table per agent skills folder instead: the skills the agent lists, the
    estimated tokens of their names and descriptions (4 characters a token) against the
    listing budget, and the skills whose descriptions the agent would drop, the first
    dropped first (the JSON adds a `budget` list, one object per folder, to the listing).
    --pattern and --limit then choose the rows shown; each heading prices the whole folder.

    \b
    Examples:
      skc list
      skc list --scope global --pattern 'py*'
      skc list --check-obsolete --status obsolete
      skc list --budget
      skc list --format json
    """
    from skillc_index.operations import LIST, ListParams

    session = cli_session()
    params = ListParams(
        scope,  # type: ignore[arg-type]  # click.Choice guarantees the literal
        status,  # type: ignore[arg-type]
        limit,
        pattern,
        check_obsolete,
        budget,
    )
    result = perform(LIST, params, output_format, session)
    if result is None:
        return
    layout = session.layout
    if result.budget is not None:
        _echo_budgets(result.budget, layout, pattern, limit)
        return
    if not result.skills:
        click.echo("No skills found." if result.total == 0 else "No skills match.")
        return
    verbose = is_verbose()
    header = ["SKILL", "SCOPE", "STATUS"] + (["SOURCE"] if verbose else [])
    rows = [
        [e.name, e.scope, e.status] + ([layout.display(e.source_path)] if verbose else [])
        for e in result.skills
    ]
    _echo_table(header, rows)
    if result.filtered > len(result.skills):
        click.echo(f"... ({result.filtered - len(result.skills)} more)")


def _echo_table(header: list[str], rows: list[list[str]]) -> None:
    """Columns padded to their widest cell (the last one is not padded); a name's control
    characters shown as escapes."""
    rows = [[printable(cell) for cell in row] for row in rows]
    widths = [max(len(row[i]) for row in [header, *rows]) for i in range(len(header) - 1)]
    for row in [header, *rows]:
        cells = [cell.ljust(width) for cell, width in zip(row, widths, strict=False)] + [row[-1]]
        click.echo("  ".join(cells).rstrip())


def _echo_budgets(
    folders: Sequence[FolderBudget], layout: Layout, pattern: str | None, limit: int | None
) -> None:
    """``list --budget``'s text: a heading and a table per agent folder, its rows the skills
    that match ``pattern``, at most ``limit`` of them (the heading prices the whole folder)."""
    from fnmatch import fnmatchcase

    if not folders:
        click.echo("No agent skills folders found.")
        return
    for number, folder in enumerate(folders):
        if number:
            click.echo()
        if folder.error is not None:
            where = f"{folder.agent} ({folder.scope}) {layout.display(folder.path)}"
            click.echo(f"{where}: cannot be listed ({folder.error})")
            continue
        share = folder.tokens * 100 // max(folder.budget_tokens, 1)
        count = len(folder.entries)
        click.echo(
            f"{folder.agent} ({folder.scope}) {layout.display(folder.path)}: "
            f"{count} skill{'' if count == 1 else 's'}, ~{folder.tokens:,} tokens of "
            f"{folder.budget_tokens:,} ({share}%)"
        )
        rows = [
            [
                entry.name,
                f"{tokens:,}",
                entry.kind,
                "name only" if index >= folder.kept and entry.described else "full",
            ]
            for index, (entry, tokens) in enumerate(zip(folder.entries, folder.shares, strict=True))
            if pattern is None or fnmatchcase(entry.name, pattern)
        ]
        shown = rows if limit is None else rows[:limit]
        if shown:
            _echo_table(["SKILL", "TOKENS", "KIND", "LISTED"], shown)
        if len(shown) < count:
            click.echo(f"... ({count - len(shown)} more)")
        if folder.dropped:
            n = len(folder.dropped)
            click.echo(
                f"{n} description{'' if n == 1 else 's'} dropped, the first dropped first: "
                + printable(", ".join(folder.dropped))
            )


@click.command("build", context_settings=CONTEXT_SETTINGS)
@click.argument("skills", nargs=-1, metavar="SKILL...")
@click.option(
    "--all",
    "all_",
    is_flag=True,
    help="Build every skill of the project and global stores (a skill imported from a folder "
    "is imported again from it).",
)
@click.option(
    "-g",
    "--global",
    "global_",
    is_flag=True,
    help="Compile to the global runtime (~/.skillc/runtime/) and deploy to the home agent "
    "folders, whatever the source.",
)
@click.option(
    "-t",
    "--target",
    "target",
    multiple=True,
    metavar="AGENTS",
    help="Agents to deploy to, comma-separated or repeated (default: claude). Known: agents "
    "(.agents/skills), claude, codex, copilot, cursor, gemini, kiro, opencode, trae, and "
    "[targets] from config; a value with a '/' is a folder.",
)
@click.option(
    "--copy", is_flag=True, help="Copy the stub into agent folders instead of symlinking."
)
@click.option(
    "-f",
    "--force",
    is_flag=True,
    help="Replace a different skill of the same name in the store when importing a path, "
    "and move aside (never delete) a folder skillc did not make at a deployment destination.",
)
@format_option()
@verbose_option
def build_command(
    skills: tuple[str, ...],
    all_: bool,
    global_: bool,
    target: tuple[str, ...],
    copy: bool,
    force: bool,
    output_format: str,
) -> None:
    """Compile skill to runtime format.

    SKILL is a skill name (looked up in the project store, then the global store) or a path to
    a folder holding SKILL.md; a path outside the stores is first imported (copied) into the
    project store, or the global store outside a project. The runtime
    (`.skillc/runtime/SKILL/`) gets the stub SKILL.md that points agents to the gateway, the
    manifest and the search index; each target agent folder then gets a symlink to it.
    Building an unchanged skill only re-checks it.

    Several skills, a folder of skills (`skills/`: every skill folder under it, at any depth,
    hidden ones such as skills/.curated/ included; version control, virtual environments,
    node_modules, caches and skillc's runtime left out) or --all are built in parallel, one process
    per core, with a summary; one failure does not stop the others, and the exit status is 1
    when any failed.

    \b
    Examples:
      skc build my-skill                      # .claude/skills/my-skill -> the runtime
      skc build ./drafts/my-skill             # import into .skillc/skills/, then build
      skc build my-skill --target claude,cursor
      skc build my-skill --global --copy
      skc build my-skill --format json
      skc build skills/                       # every skill under skills/
      skc build --all                         # every skill of the stores
    """
    if not skills and not all_:
        raise click.UsageError("Missing argument 'SKILL...'.")
    from skillc_index.build.batch import is_folder_of_skills

    session = cli_session()
    if all_ or len(skills) > 1 or is_folder_of_skills(skills[0], session.layout):
        _build_batch(session, skills, all_, global_, target, copy, force, output_format)
        return
    from skillc_index.operations import BUILD, BuildParams

    params = BuildParams(skills[0], global_, target, copy, force)
    with DelayedProgress("Indexing") as progress:
        session.progress = progress
        result = perform(BUILD, params, output_format, session)
    if result is None:
        return
    layout = session.layout
    compiled = result.compiled
    index = compiled.index
    if result.imported_from is not None:
        action = {"copy": "imported", "replace": "replaced", "unchanged": "already imported"}
        click.echo(
            f"Import:  {layout.display(result.imported_from)} -> "
            f"{layout.display(compiled.source)} ({action[result.import_action or 'copy']})"
        )
    click.echo(f"Source:  {layout.display(compiled.source)} ({result.scope})")
    if compiled.up_to_date:
        state = "up to date"
    elif index.counts is None:
        state = "built; index up to date"
    else:
        count = index.counts.sections
        state = f"built; index {index.action}: {count} section{'' if count == 1 else 's'}"
    click.echo(f"Runtime: {layout.display(compiled.runtime)} ({state})")
    if is_verbose():
        click.echo(f"Index:   {layout.display(index.path)} ({index.tokenizer})")
        if index.reason:
            click.echo(f"         reason: {index.reason}")
    for deployment in result.deployments:
        unchanged = ", unchanged" if deployment.action == "unchanged" else ""
        click.echo(
            f"Deploy:  {deployment.target} -> {layout.display(deployment.path)} "
            f"({deployment.method}{unchanged})"
        )


_STATUS = {"built": "built", "up-to-date": "up to date", "failed": "failed"}


def _build_batch(
    session: Session,
    skills: tuple[str, ...],
    all_: bool,
    global_: bool,
    target: tuple[str, ...],
    copy: bool,
    force: bool,
    output_format: str,
) -> None:
    """``skc build`` of several skills: one line per skill, the summary, and the exit
    status 1 when any failed (each failure an error line naming the skill, on stderr)."""
    from skillc_index.build.batch import batch_jobs, build_skills
    from skillc_index.build.deploy import parse_targets
    from skillc_index.diagnostics import CLI_SPELLING, format_diagnostic

    layout = session.layout
    config = session.config  # loaded here, its notices warned once
    for name in parse_targets(target):  # an unknown target stops the batch before it starts
        layout.target_root(name, "global", config.targets)
    jobs = batch_jobs(skills, layout, all_skills=all_, spelling=CLI_SPELLING)
    if not jobs:
        raise click.UsageError("no skills to build: the stores hold none")
    with DelayedProgress("Building", delay=0.5) as progress:
        result = build_skills(
            jobs,
            layout,
            targets=target,
            copy=copy,
            force=force,
            force_global=global_,
            spelling=CLI_SPELLING,
            progress=progress,
        )
    report_all(result.warnings)
    for item in result.items:
        if item.error is not None:
            first, *rest = format_diagnostic(item.error).split("\n")
            severity, _, message = first.partition(": ")
            click.echo("\n".join([f"{severity}: {item.job.label}: {message}", *rest]), err=True)
    if output_format == "json":
        print_json(result.to_dict())
    else:
        width = max(len(item.job.name) for item in result.items)
        for item in result.items:
            where = (
                layout.display(item.result.compiled.runtime)
                if item.result is not None
                else item.job.label
            )
            click.echo(printable(f"{_STATUS[item.status]:<10}  {item.job.name:<{width}}  {where}"))
        summary = result.summary()
        click.echo(
            f"{summary['skills']} skill{_s(summary['skills'])}: {summary['built']} built, "
            f"{summary['up_to_date']} up to date, {summary['failed']} failed"
        )
    if result.failed:
        raise click.exceptions.Exit(1)


@click.group("route", cls=CommandGroup, context_settings=CONTEXT_SETTINGS)
@verbose_option
def route_group() -> None:
    """Route an agent's skills through one skill.

    An agent lists the name and description of every skill in its skills folder, every
    session (see `skc list --budget`). `skc route install` moves the skills of one agent
    folder into the skillc store of the same scope, builds them, and leaves ONE skill in the
    folder, `skill-router`, which tells the agent to find the skill for its task with
    `skc find` (MCP: `skc_find`) and read it with `skc show`/`skc open`. `skc route uninstall`
    puts every skill back exactly where it was; `skc route status` shows what is routed.

    Nothing is deleted: skills move by rename, skillc's own deployments (a symlink to a
    runtime, a --copy stub) are parked in `.skillc/router/<agent>/`, and every move is
    recorded in `.skillc/router/<agent>.json` before it happens (run the command again to
    finish an interrupted one). Command line only: the MCP server has no tool for it, since
    it reorganises the folders the agent itself loads.

    \b
    Examples:
      skc list --budget                # what each agent folder costs the listing
      skc route install --dry-run      # what would move
      skc route install                # .claude/skills of this project
      skc route install --global --target codex
      skc route status
      skc route uninstall
    """


def _route_options(func: Callable[..., None]) -> Callable[..., None]:
    func = click.option(
        "-t",
        "--target",
        default="claude",
        show_default=True,
        metavar="AGENT",
        help="The agent whose skills folder is routed: claude, agents (.agents/skills), codex, "
        "copilot, cursor, gemini, kiro, opencode, trae, or a [targets] name from config.",
    )(func)
    return click.option(
        "-g",
        "--global",
        "global_",
        is_flag=True,
        help="The agent's folder in the home folder (its skills go to ~/.skillc/skills); "
        "default: the project's.",
    )(func)


_dry_run_option = click.option(
    "-n", "--dry-run", is_flag=True, help="Show what would move; change nothing."
)


@route_group.command("install", context_settings=CONTEXT_SETTINGS)
@_route_options
@_dry_run_option
@format_option()
@verbose_option
def route_install_command(target: str, global_: bool, dry_run: bool, output_format: str) -> None:
    """Move an agent folder's skills behind the router.

    Each skill folder goes to the store (`.skillc/skills/<name>`, or `~/.skillc/skills` with
    --global) and is built; skillc's own deployments are parked; the folder then holds only
    `skill-router`. A skill whose name the store already has, a symlink skillc did not make,
    a skill git tracks, or a skill that does not build stays where it is and is listed. Safe
    to repeat: routes what was added since.

    \b
    Examples:
      skc route install --dry-run          # what would move
      skc route install                    # .claude/skills of this project
      skc route install --global -t codex  # ~/.agents/skills
    """
    from skillc_index.route.commands import route_install

    session = cli_session()
    result = route_install(session, target, global_=global_, dry_run=dry_run)
    _echo_route(result, session.layout, output_format)


@route_group.command("uninstall", context_settings=CONTEXT_SETTINGS)
@_route_options
@_dry_run_option
@format_option()
@verbose_option
def route_uninstall_command(target: str, global_: bool, dry_run: bool, output_format: str) -> None:
    """Put the routed skills back and remove the router.

    Each skill goes back to the agent folder under its own name, as it was (a folder, or the
    symlink skillc made). One whose place in the folder is taken again, or that changed in
    the store (another folder under its name), stays where it is and is listed; the router
    stays as long as a skill is behind it (run uninstall again once its place is free).

    \b
    Examples:
      skc route uninstall --dry-run
      skc route uninstall --global --format json
    """
    from skillc_index.route.commands import route_uninstall

    session = cli_session()
    result = route_uninstall(session, target, global_=global_, dry_run=dry_run)
    _echo_route(result, session.layout, output_format)


@route_group.command("status", context_settings=CONTEXT_SETTINGS)
@_route_options
@format_option()
@verbose_option
def route_status_command(target: str, global_: bool, output_format: str) -> None:
    """Show what is routed for an agent folder.

    \b
    Examples:
      skc route status
      skc route status --global -t cursor --format json
    """
    from skillc_index.route.commands import route_status

    session = cli_session()
    result = route_status(session, target, global_=global_)
    _echo_route(result, session.layout, output_format)


_ROUTE_VERBS = {
    "moved": "move",
    "parked": "park",
    "unlinked": "unlink",
    "restored": "restore",
}


def _echo_route(result: RouteResult, layout: Layout, output_format: str) -> None:
    """``route``'s output: JSON, or a line per skill and a summary."""
    from skillc_index.console import print_json, report_all

    report_all(result.warnings)
    if output_format == "json":
        print_json(result.to_dict())
        return
    show = layout.display
    where = f"{result.agent} ({result.scope}) {show(result.folder)}"
    if result.command == "status":
        router = "router installed" if result.router else "no router"
        click.echo(f"{where}: {router}, {result.routed} skill{_s(result.routed)} behind it")
        rows = [[s.name, s.kind, s.action, show(s.destination)] for s in result.skills]
        if rows:
            _echo_table(["SKILL", "KIND", "STATE", "WHERE"], rows)
        if result.left:
            click.echo(
                f"Not behind the router ({len(result.left)}): "
                + printable(", ".join(skill.name for skill in result.left))
            )
        return
    would = result.dry_run
    for skill in result.skills:
        if skill.action in ("routed", "in-place"):
            continue
        action = f"would {_ROUTE_VERBS[skill.action]}" if would else skill.action
        one, other = skill.origin, skill.destination
        if result.command == "uninstall":
            one, other = other, one
        click.echo(printable(f"{action}: {show(one)} -> {show(other)}"))
    for left in result.left:
        click.echo(printable(f"left: {show(left.path)}: {left.reason}"))
    count = f"{result.routed} skill{_s(result.routed)}"
    if result.command == "install" and result.router is None:
        click.echo(f"{where}: no skills to route")
        return
    if result.command == "install":
        lists = "would list" if would else "lists"
        router = f"{ROUTER_NAME}, for {count} in {show(result.store)}"
        if not result.left:
            click.echo(f"{where} {lists} one skill, {router}")
            return
        # what the agent lists: the router and every skill left in the folder
        from collections import Counter

        causes = Counter(skill.cause for skill in result.left)
        why = ", ".join(f"{cause}: {n}" for cause, n in causes.items())
        n = len(result.left)
        click.echo(
            f"{where} {lists} {n + 1} skills: {router}, and {n} skill{_s(n)} left in place ({why})"
        )
        return
    back = sum(1 for skill in result.skills if skill.action == "restored")
    nothing = not (back or result.left or result.routed or result.router_removed)
    if result.router is None and nothing:
        click.echo(f"{where}: no router to remove, nothing {'would be' if would else 'is'} routed")
        return
    behind = ", ".join(f"{s.name} ({s.cause})" for s in result.left if s.cause != "forgotten")
    behind = printable(behind)
    behind = f"{count} still behind it: {behind}"
    if result.router_removed:
        router = "the router would be removed" if would else "router removed"
    elif result.router is None:
        router = "no router to remove" + (f"; {behind}" if result.routed else "")
    elif result.routed:
        router = f"{'the router would be kept' if would else 'router kept'}: {behind}"
    else:  # not the router skillc wrote (a warning says so)
        router = "the router stays"
    text = f"{back} skill{_s(back)} {'would go' if would else 'put'} back; {router}"
    click.echo(f"{where}: {text}")


def _s(count: int) -> str:
    return "" if count == 1 else "s"


@click.group("skillc-index", cls=CommandGroup, context_settings=CONTEXT_SETTINGS)
@click.version_option(package_name="skillc-index", message="%(package)s %(version)s")
@verbose_option
def cli() -> None:
    """skillc-index: create, list and compile Agent Skills.

    The same commands are available as `skc init`, `skc list`, ... when the `skillc`
    umbrella is installed.
    """


cli.add_command(init_command)
cli.add_command(list_command)
cli.add_command(build_command)
cli.add_command(route_group)


def main(argv: Sequence[str] | None = None) -> int:
    """Console script entry point: ``skillc-index``; ``argv`` defaults to ``sys.argv[1:]``.
    Returns the exit code (the script exits with it)."""
    return run(cli, argv, prog_name="skillc-index")
