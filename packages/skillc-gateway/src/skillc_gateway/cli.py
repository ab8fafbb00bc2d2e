"""Command line of skillc-gateway: how agents (and people) read a skill on demand.

``outline``, ``open`` and ``sources`` (RFC-0002); registered with ``skc`` through the
``skillc.commands`` entry points and available as ``skillc-gateway <command>``. Module level
imports only click and the console conventions: agents run these many times a session.
"""

from __future__ import annotations

import click

from skillc_index.console import (
    CONTEXT_SETTINGS,
    access_logged,
    format_option,
    print_json,
    run,
    verbose_option,
)


@click.command("outline", context_settings=CONTEXT_SETTINGS)
@click.argument("skill")
@click.option(
    "--level", type=click.IntRange(1, 6), help="Only headings of this level or higher (1-6)."
)
@format_option()
@verbose_option
def outline_command(skill: str, level: int | None, output_format: str) -> None:
    """List all sections in a skill.

    Every `.md` file of the skill, in path order, with its headings indented by level. Read
    a section with `skc show SKILL --section "<heading>"`.

    \b
    Examples:
      skc outline my-skill
      skc outline my-skill --level 2
      skc outline ./path/to/skill --format json
    """
    from skillc_gateway._outline import outline

    with access_logged("outline", skill, {"level": level}) as (resolved, _):
        headings = outline(resolved, level=level)
    if output_format == "json":
        print_json({"skill": resolved.name, "headings": [h.to_dict() for h in headings]})
        return
    current = None
    for heading in headings:
        if heading.file != current:
            current = heading.file
            click.echo(current)
        click.echo(f"{'  ' * heading.level}{'#' * heading.level} {heading.text}")


@click.command("open", context_settings=CONTEXT_SETTINGS)
@click.argument("skill")
@click.argument("path")
@click.option("--max-lines", type=click.IntRange(min=0), help="Show at most this many lines.")
@format_option()
@verbose_option
def open_command(skill: str, path: str, max_lines: int | None, output_format: str) -> None:
    """Retrieve file content.

    Prints PATH (relative to the skill root, any file type) exactly as it is. Paths that lead
    outside the skill, by `..`, an absolute path or a symlink, are refused (E012).

    \b
    Examples:
      skc open my-skill references/api.md
      skc open my-skill data/terms.txt --max-lines 20
    """
    from skillc_gateway._reader import open_file

    with access_logged("open", skill, {"path": path, "max_lines": max_lines}) as (resolved, _):
        content = open_file(resolved, path, max_lines=max_lines)
    if output_format == "json":
        print_json({"skill": resolved.name, **content.to_dict()})
        return
    click.echo(content.text, nl=False)
    if content.text and not content.text.endswith("\n"):
        click.echo()
    if content.more_lines:
        click.echo(f"... ({content.more_lines} more lines)")


@click.command("sources", context_settings=CONTEXT_SETTINGS)
@click.argument("skill")
@click.option("--depth", type=click.IntRange(min=1), help="Show this many levels of the tree.")
@click.option("--dir", "directory", metavar="PATH", help="Only the tree under this folder.")
@click.option(
    "--limit",
    type=click.IntRange(min=0),
    default=100,
    show_default=True,
    help="Show at most this many entries.",
)
@click.option("--pattern", metavar="GLOB", help="Only files matching this glob (e.g. '*.md').")
@format_option()
@verbose_option
def sources_command(
    skill: str,
    depth: int | None,
    directory: str | None,
    limit: int,
    pattern: str | None,
    output_format: str,
) -> None:
    """List source files (tree-style).

    Folders first, then files, in path order; hidden files and folders are not sources.

    \b
    Examples:
      skc sources my-skill
      skc sources my-skill --depth 2
      skc sources my-skill --dir references --pattern '*.md'
      skc sources my-skill --format json
    """
    from skillc_gateway._sources import source_tree

    args = {"depth": depth, "dir": directory, "limit": limit, "pattern": pattern}
    with access_logged("sources", skill, args) as (resolved, _):
        tree = source_tree(resolved, depth=depth, directory=directory, limit=limit, pattern=pattern)
    if output_format == "json":
        print_json({"skill": resolved.name, "tree": tree.to_dict()})
        return
    for line in tree.lines():
        click.echo(line)


@click.group("skillc-gateway", context_settings=CONTEXT_SETTINGS)
@click.version_option(package_name="skillc-gateway", message="%(package)s %(version)s")
@verbose_option
def cli() -> None:
    """skillc-gateway: read Agent Skills on demand.

    The same commands are available as `skc outline`, `skc show`, ... when the `skillc`
    umbrella is installed.
    """


for _command in (outline_command, open_command, sources_command):
    cli.add_command(_command)


def main() -> None:
    """Console script entry point: ``skillc-gateway``."""
    run(cli, prog_name="skillc-gateway")
