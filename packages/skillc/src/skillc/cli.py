"""``skc``: the umbrella command (RFC-0007:C-COMMANDS), assembled from entry points.

Commands are found in the ``skillc.commands`` entry-point group of the installed
distributions. Finding them reads a few small metadata files and imports nothing; only the
module of the command that runs is imported. ``skc --help`` shows the RFC-0007 summaries for
the commands the spec defines, so listing them needs no import either.
"""

from __future__ import annotations

import os
import sys
from collections.abc import Sequence
from importlib import import_module

import click

ENTRY_POINT_GROUP = "skillc.commands"
DISTRIBUTIONS = (
    "skillc",
    "skillc-index",
    "skillc-lint",
    "skillc-gateway",
    "skillc-stats",
    "skillc-mcp",
)

#: RFC-0007:C-COMMANDS: the registry's order and one-line descriptions. Each command's own
#: docstring starts with the same line (a test keeps them in step).
SUMMARIES: dict[str, str] = {
    "init": "Initialize project or create skill.",
    "list": "List all skillc-managed skills.",
    "build": "Compile skill to runtime format.",
    "lint": "Validate skill authoring quality.",
    "outline": "List all sections in a skill.",
    "show": "Retrieve section content.",
    "open": "Retrieve file content.",
    "sources": "List source files (tree-style).",
    "search": "Search skill content.",
    "stats": "Usage analytics.",
    "sync": "Merge fallback logs to primary.",
    "mcp": "Start MCP server.",
    # Beyond RFC-0007: the skills for a task, from every installed skill (issue 15).
    "find": "Find the skills for a task.",
    # Beyond RFC-0007: the commands of tool-defining (gibb.eri.sh) skills.
    "tools": "List the tools a skill defines.",
    "run": "Run a tool of a skill.",
    "exec": "Run a command in a skill's folder.",
    # Beyond RFC-0007: a find server that keeps the catalog warm (issue 15).
    "watch": "Keep the catalog warm for skc find.",
    # Beyond RFC-0007: skill routing (issue 15).
    "route": "Route an agent's skills through one skill.",
}

CONTEXT_SETTINGS = {"help_option_names": ["-h", "--help"], "max_content_width": 100}


def _entry_point_section(text: str) -> dict[str, str]:
    """``name = module:attr`` lines of the ``[skillc.commands]`` section of an entry_points.txt."""
    found: dict[str, str] = {}
    inside = False
    for raw in text.splitlines():
        line = raw.strip()
        if line.startswith("["):
            inside = line == f"[{ENTRY_POINT_GROUP}]"
        elif inside and "=" in line and not line.startswith(("#", ";")):
            name, _, value = line.partition("=")
            found.setdefault(name.strip(), value.split("[")[0].strip())
    return found


def discover_commands() -> dict[str, str]:
    """Installed commands: name -> ``module:attr``, first distribution on ``sys.path`` wins.

    The same lookup ``importlib.metadata.entry_points`` performs, without importing it (that
    module alone costs more than click): scan each path entry for ``*.dist-info`` folders and
    read their ``entry_points.txt``.
    """
    commands: dict[str, str] = {}
    seen: set[str] = set()
    for entry in sys.path:
        try:
            names = os.listdir(entry or ".")  # noqa: PTH208 - no pathlib on the --help path
        except OSError:
            continue
        for name in names:
            if not name.endswith((".dist-info", ".egg-info")):
                continue
            project = name.partition("-")[0].lower().replace(".", "_")
            if project in seen:
                continue
            seen.add(project)
            try:
                path = os.path.join(entry or ".", name, "entry_points.txt")  # noqa: PTH118
                with open(path, encoding="utf-8") as handle:
                    text = handle.read()
            except OSError:
                continue
            if ENTRY_POINT_GROUP in text:
                for command, target in _entry_point_section(text).items():
                    commands.setdefault(command, target)
    return commands


def _ordered(names: list[str]) -> list[str]:
    known = [name for name in SUMMARIES if name in names]
    return known + sorted(name for name in names if name not in SUMMARIES)


class CommandsFromEntryPoints(click.Group):
    """A group whose subcommands are loaded lazily from the ``skillc.commands`` entry points."""

    def __init__(self, *args: object, **kwargs: object) -> None:
        super().__init__(*args, **kwargs)  # type: ignore[arg-type]
        self._targets: dict[str, str] | None = None

    @property
    def targets(self) -> dict[str, str]:
        if self._targets is None:
            self._targets = discover_commands()
        return self._targets

    def list_commands(self, ctx: click.Context) -> list[str]:
        return _ordered(list(self.targets))

    def get_command(self, ctx: click.Context, cmd_name: str) -> click.Command | None:
        target = self.targets.get(cmd_name)
        if target is None:
            return None
        module_name, _, attr = target.partition(":")
        obj: object = import_module(module_name)
        for part in attr.split("."):
            obj = getattr(obj, part)
        if not isinstance(obj, click.Command):
            raise TypeError(f"entry point {cmd_name} = {target} is not a click command")
        return obj

    def resolve_command(
        self, ctx: click.Context, args: list[str]
    ) -> tuple[str | None, click.Command | None, list[str]]:
        """An unknown command names the closest ones, from the names alone (nothing imported)."""
        if args and args[0] not in self.targets:
            from skillc_index.console import check_command_name

            check_command_name(ctx, args[0], self.list_commands(ctx))
        return super().resolve_command(ctx, args)

    def format_commands(self, ctx: click.Context, formatter: click.HelpFormatter) -> None:
        """List commands from their names and RFC-0007 summaries, without importing them."""
        rows = [(name, SUMMARIES.get(name, "")) for name in self.list_commands(ctx)]
        if rows:
            with formatter.section("Commands"):
                formatter.write_dl(rows)


def _print_versions(ctx: click.Context, _param: click.Parameter, value: bool) -> None:
    if not value or ctx.resilient_parsing:
        return
    from importlib.metadata import PackageNotFoundError, version

    for dist in DISTRIBUTIONS:
        try:
            click.echo(f"{dist} {version(dist)}")
        except PackageNotFoundError:
            continue
    ctx.exit(0)


def _set_verbose(ctx: click.Context, _param: click.Parameter, value: bool) -> None:
    if value:
        ctx.meta["skillc.verbose"] = True  # the key skillc_index.console.is_verbose reads


@click.group(
    "skc",
    cls=CommandsFromEntryPoints,
    context_settings=CONTEXT_SETTINGS,
    epilog="Run 'skc COMMAND --help' for a command's options and examples.",
)
@click.option(
    "--version",
    is_flag=True,
    expose_value=False,
    is_eager=True,
    callback=_print_versions,
    help="Show the version of each installed skillc distribution.",
)
@click.option(
    "-v",
    "--verbose",
    is_flag=True,
    expose_value=False,
    is_eager=True,
    callback=_set_verbose,
    help="Show more detail (paths; a traceback on internal errors).",
)
def cli() -> None:
    """skc: the development kit for Agent Skills.

    \b
    Examples:
      skc init my-skill      # create .skillc/skills/my-skill/SKILL.md
      skc list               # the skills of this project and the global store
    """


def main(argv: Sequence[str] | None = None) -> int:
    """Console script entry point: ``skc``; ``argv`` defaults to ``sys.argv[1:]``. Returns
    the exit code (the script exits with it).

    Errors go through skillc-index's console conventions (E100 for usage errors, exit 1);
    that module is imported only when something goes wrong, so ``skc --help`` loads no
    other distribution of the kit.
    """
    args = list(sys.argv[1:] if argv is None else argv)
    try:
        code = cli.main(args, prog_name="skc", standalone_mode=False)
    except BaseException as exc:
        from skillc_index.console import handle_exception

        code = handle_exception(exc, args)
    return code if isinstance(code, int) else 0
