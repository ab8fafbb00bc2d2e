"""Command line of skillc-gateway: how agents (and people) read a skill on demand.

``outline``, ``open``, ``sources`` (RFC-0002, :mod:`skillc_gateway.cli_files`), ``show`` and
``search`` (RFC-0002, RFC-0004, :mod:`skillc_gateway.cli_sections`), ``find``
(:mod:`skillc_gateway.cli_find`), ``tools`` and ``run`` for tool-defining skills (spec/003,
:mod:`skillc_gateway.cli_tools`): each made from its operation
(:mod:`skillc_gateway.operations`). ``watch`` (:mod:`skillc_gateway.cli_watch`) and ``exec``
(:mod:`skillc_gateway.cli_exec`) are CLI only (:data:`skillc_index.console.CLI_ONLY` says
why). They are registered with ``skc`` through the ``skillc.commands`` entry points and
available as ``skillc-gateway <command>``, whose group loads the module of the command named
only. Module level imports only click and the console conventions: agents run these many
times a session.
"""

from __future__ import annotations

import sys
from collections.abc import Sequence

import click

from skillc_index.console import (
    CONTEXT_SETTINGS,
    CommandGroup,
    handle_exception,
    run,
    verbose_option,
)
from skillc_index.streams import buffer_stdout, utf8_process

#: The commands, each loaded when named: ``skc show`` or ``skillc-gateway find`` loads its
#: own command's module only (the find client none of the others).
LAZY = {
    "outline": "skillc_gateway.cli_files:outline_command",
    "show": "skillc_gateway.cli_sections:show_command",
    "open": "skillc_gateway.cli_files:open_command",
    "sources": "skillc_gateway.cli_files:sources_command",
    "search": "skillc_gateway.cli_sections:search_command",
    "find": "skillc_gateway.cli_find:find_command",
    "eval": "skillc_gateway.cli_eval:eval_command",
    "tools": "skillc_gateway.cli_tools:tools_command",
    "run": "skillc_gateway.cli_tools:run_command",
    "exec": "skillc_gateway.cli_exec:exec_command",
    "watch": "skillc_gateway.cli_watch:watch_command",
}


@click.group("skillc-gateway", cls=CommandGroup, lazy=LAZY, context_settings=CONTEXT_SETTINGS)
@click.version_option(package_name="skillc-gateway", message="%(package)s %(version)s")
@verbose_option
def cli() -> None:
    """skillc-gateway: read Agent Skills on demand.

    The same commands are available as `skc outline`, `skc show`, ... when the `skillc`
    umbrella is installed.

    \b
    Examples:
      skillc-gateway find "fill in a PDF form"   # the installed skills for a task
      skillc-gateway outline my-skill            # the sections of a skill
      skillc-gateway show my-skill --section "Installation"
      skillc-gateway find --help                 # a command's options and examples
    """


def main(argv: Sequence[str] | None = None) -> int:
    """Console script entry point: ``skillc-gateway``; ``argv`` defaults to ``sys.argv[1:]``.
    Returns the exit code (the script exits with it). ``find`` takes its quick path first,
    as under ``skc`` (:mod:`skillc_gateway.find_quick`)."""
    if argv is None:
        utf8_process()
    args = list(sys.argv[1:] if argv is None else argv)
    buffer_stdout()
    try:
        code = None
        if args[:1] == ["find"]:
            from skillc_gateway import find_quick

            code = find_quick.run(args[1:], program="skillc-gateway")
    except BaseException as exc:  # as run() does for the click command
        return handle_exception(exc, args)
    return run(cli, args, prog_name="skillc-gateway") if code is None else code
