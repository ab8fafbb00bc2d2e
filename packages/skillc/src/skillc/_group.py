"""The ``skc`` click group: the commands of the ``skillc.commands`` entry points, loaded
lazily (:mod:`skillc.cli` imports it when no quick path answered)."""

from __future__ import annotations

import click

from skillc.cli import DISTRIBUTIONS, SUMMARIES, _target, discover_commands

CONTEXT_SETTINGS = {"help_option_names": ["-h", "--help"], "max_content_width": 100}


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
        obj = _target(target)
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

    def parse_args(self, ctx: click.Context, args: list[str]) -> list[str]:
        """Parse the command line; ``--help`` or ``--version`` printed to a reader that has
        gone ends quietly (``console.closed_pipe``), before click's ``main`` makes it exit 1."""
        try:
            return super().parse_args(ctx, args)
        except BrokenPipeError:
            from skillc_index.streams import closed_pipe  # only on this path

            raise click.exceptions.Exit(closed_pipe()) from None

    def invoke(self, ctx: click.Context) -> object:
        """Run the command, stdout buffered (``console.buffer_stdout``), a closed pipe its
        quiet status (``console.closed_pipe``) before click's ``main`` makes it an exit 1."""
        from skillc_index.streams import buffer_stdout, closed_pipe  # each command imports it

        buffer_stdout()
        try:
            return super().invoke(ctx)
        except BrokenPipeError:
            raise click.exceptions.Exit(closed_pipe()) from None

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
