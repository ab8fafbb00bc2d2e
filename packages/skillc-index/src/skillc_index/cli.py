"""Command line of skillc-index: ``init``, ``list``, ``build``, ``package`` and ``route`` (and the
``skillc-index`` script).

Each command is made from its operation (:mod:`skillc_index.operations`) in a module of its
own, :mod:`skillc_index.cli_init`, :mod:`skillc_index.cli_list`, :mod:`skillc_index.cli_build`
and :mod:`skillc_index.cli_route` (the ``route`` group of three); they are registered with
``skc`` through the ``skillc.commands`` entry points and available as ``skillc-index
<command>``, whose group loads the module of the command named only. Module level imports
only click and the console conventions, so ``skc --help`` and ``skc list --help`` stay fast.
"""

from __future__ import annotations

from collections.abc import Sequence

import click

from skillc_index.console import CONTEXT_SETTINGS, CommandGroup, run, verbose_option

#: The commands, each loaded when named.
LAZY = {
    "init": "skillc_index.cli_init:init_command",
    "list": "skillc_index.cli_list:list_command",
    "build": "skillc_index.cli_build:build_command",
    "package": "skillc_index.cli_package:package_command",
    "route": "skillc_index.cli_route:route_group",
}


@click.group("skillc-index", cls=CommandGroup, lazy=LAZY, context_settings=CONTEXT_SETTINGS)
@click.version_option(package_name="skillc-index", message="%(package)s %(version)s")
@verbose_option
def cli() -> None:
    """skillc-index: create, list and compile Agent Skills.

    The same commands are available as `skc init`, `skc list`, ... when the `skillc`
    umbrella is installed.

    \b
    Examples:
      skillc-index init my-skill     # create .skillc/skills/my-skill/SKILL.md
      skillc-index build my-skill    # compile it, deploy it to .claude/skills
      skillc-index list              # the skills of this project and the global store
      skillc-index build --help      # a command's options and examples
    """


def main(argv: Sequence[str] | None = None) -> int:
    """Console script entry point: ``skillc-index``; ``argv`` defaults to ``sys.argv[1:]``.
    Returns the exit code (the script exits with it)."""
    return run(cli, argv, prog_name="skillc-index")
