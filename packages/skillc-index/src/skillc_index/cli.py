"""Command line of skillc-index: ``init`` and ``list`` (and the ``skillc-index`` script).

The commands are registered with ``skc`` through the ``skillc.commands`` entry points; this
module imports only click and :mod:`skillc_index.console` at import time, and the library
inside each command body, so ``skc --help`` and ``skc list --help`` stay fast.
"""

from __future__ import annotations

import click

from skillc_index.console import (
    CONTEXT_SETTINGS,
    format_option,
    is_verbose,
    print_json,
    report_all,
    run,
    verbose_option,
)


@click.command("init", context_settings=CONTEXT_SETTINGS)
@click.argument("name", required=False)
@click.option(
    "--global", "global_store", is_flag=True, help="Create the skill in the global store."
)
@format_option()
@verbose_option
def init_command(name: str | None, global_store: bool, output_format: str) -> None:
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
    from skillc_index._layout import Layout
    from skillc_index._scaffold import init_project, init_skill

    layout = Layout.discover()
    if name is None:
        if global_store:
            raise click.UsageError("--global needs a skill NAME")
        result = init_project(layout)
    else:
        result = init_skill(name, layout, global_store=global_store)
    if output_format == "json":
        print_json(result.to_dict())
    elif result.kind == "project":
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
@click.option("--limit", type=click.IntRange(min=0), help="Show at most this many skills.")
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
    from skillc_index._layout import Layout
    from skillc_index._listing import list_skills

    layout = Layout.discover()
    result = list_skills(
        layout,
        scope=scope,  # type: ignore[arg-type]  # click.Choice guarantees the literal
        status=status,  # type: ignore[arg-type]
        pattern=pattern,
        limit=limit,
        check_obsolete=check_obsolete,
    )
    report_all(result.notices)
    if output_format == "json":
        print_json(result.to_dict())
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
    widths = [max(len(row[i]) for row in [header, *rows]) for i in range(len(header) - 1)]
    for row in [header, *rows]:
        cells = [cell.ljust(width) for cell, width in zip(row, widths, strict=False)] + [row[-1]]
        click.echo("  ".join(cells).rstrip())
    if result.filtered > len(result.skills):
        click.echo(f"... ({result.filtered - len(result.skills)} more)")


@click.group("skillc-index", context_settings=CONTEXT_SETTINGS)
@click.version_option(package_name="skillc-index", message="%(package)s %(version)s")
@verbose_option
def cli() -> None:
    """skillc-index: create, list and compile Agent Skills.

    The same commands are available as `skc init`, `skc list`, ... when the `skillc`
    umbrella is installed.
    """


cli.add_command(init_command)
cli.add_command(list_command)


def main() -> None:
    """Console script entry point: ``skillc-index``."""
    run(cli, prog_name="skillc-index")
