"""Command line of skillc-index: ``init``, ``list`` and ``build`` (and the ``skillc-index`` script).

The commands are registered with ``skc`` through the ``skillc.commands`` entry points; this
module imports only click and :mod:`skillc_index.console` at import time, and the library
inside each command body, so ``skc --help`` and ``skc list --help`` stay fast.
"""

from __future__ import annotations

from collections.abc import Sequence
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
    run,
    verbose_option,
)

if TYPE_CHECKING:
    pass


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

    \b
    Examples:
      skc init                   # make this folder a skillc project
      skc init my-skill          # .skillc/skills/my-skill/SKILL.md
      skc init my-skill --global # ~/.skillc/skills/my-skill/SKILL.md
    """
    from skillc_index._scaffold import NameNeeded
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
    else:
        click.echo(f"Created {result.scope} skill '{name}': {layout.display(result.path)}/SKILL.md")


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
@format_option()
@verbose_option
def list_command(
    scope: str,
    status: str,
    limit: int | None,
    pattern: str | None,
    check_obsolete: bool,
    output_format: str,
) -> None:
    """List all skillc-managed skills.

    Skills come from the project store (`.skillc/skills/`, found by walking up from the
    current folder) and then the global store (`~/.skillc/skills/`), project first, each by
    name. STATUS is `normal` (built), `not-built`, or with --check-obsolete `obsolete`
    (sources changed since the last build).

    \b
    Examples:
      skc list
      skc list --scope global --pattern 'py*'
      skc list --check-obsolete --status obsolete
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
    )
    result = perform(LIST, params, output_format, session)
    if result is None:
        return
    layout = session.layout
    if not result.skills:
        click.echo("No skills found." if result.total == 0 else "No skills match.")
        return
    verbose = is_verbose()
    header = ["SKILL", "SCOPE", "STATUS"] + (["SOURCE"] if verbose else [])
    rows = [
        [e.name, e.scope, e.status] + ([layout.display(e.source_path)] if verbose else [])
        for e in result.skills
    ]
    widths = [max(len(row[i]) for row in [header, *rows]) for i in range(len(header) - 1)]
    for row in [header, *rows]:
        cells = [cell.ljust(width) for cell, width in zip(row, widths, strict=False)] + [row[-1]]
        click.echo("  ".join(cells).rstrip())
    if result.filtered > len(result.skills):
        click.echo(f"... ({result.filtered - len(result.skills)} more)")


@click.command("build", context_settings=CONTEXT_SETTINGS)
@click.argument("skill")
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
    help="Agents to deploy to, comma-separated or repeated (default: claude). Known: claude, "
    "codex, copilot, cursor, gemini, kiro, opencode, trae, and [targets] from config; a value "
    "with a '/' is a folder.",
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
    skill: str,
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

    \b
    Examples:
      skc build my-skill                      # .claude/skills/my-skill -> the runtime
      skc build ./drafts/my-skill             # import into .skillc/skills/, then build
      skc build my-skill --target claude,cursor
      skc build my-skill --global --copy
      skc build my-skill --format json
    """
    from skillc_index.operations import BUILD, BuildParams

    params = BuildParams(skill, global_, target, copy, force)
    with DelayedProgress("Indexing") as progress:
        session = cli_session(progress=progress)
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


def main(argv: Sequence[str] | None = None) -> int:
    """Console script entry point: ``skillc-index``; ``argv`` defaults to ``sys.argv[1:]``.
    Returns the exit code (the script exits with it)."""
    return run(cli, argv, prog_name="skillc-index")
