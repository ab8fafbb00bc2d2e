"""Command line of skillc-stats: ``stats`` (RFC-0003) and ``sync`` (RFC-0007:C-SYNC).

Each command is made from its operation (:mod:`skillc_stats.operations`) in a module of its
own, :mod:`skillc_stats.cli_stats` and :mod:`skillc_stats.cli_sync`; they are registered
with ``skc`` through the ``skillc.commands`` entry points and available as ``skillc-stats
<command>``, whose group loads the module of the command named only. Module level imports
only click and the console conventions.
"""

from __future__ import annotations

from collections.abc import Sequence

import click

from skillc_index.console import CONTEXT_SETTINGS, CommandGroup, run, verbose_option

#: The commands, each loaded when named.
LAZY = {
    "stats": "skillc_stats.cli_stats:stats_command",
    "sync": "skillc_stats.cli_sync:sync_command",
}


@click.group("skillc-stats", cls=CommandGroup, lazy=LAZY, context_settings=CONTEXT_SETTINGS)
@click.version_option(package_name="skillc-stats", message="%(package)s %(version)s")
@verbose_option
def cli() -> None:
    """skillc-stats: usage analytics of Agent Skills (stats) and fallback log sync (sync).

    The same commands are `skc stats` and `skc sync` when the `skillc` umbrella is
    installed.

    \b
    Examples:
      skillc-stats stats my-skill            # how agents used my-skill
      skillc-stats stats --all --since 30d   # every installed skill, the unused first
      skillc-stats sync --from claude-code   # import Claude Code's transcripts
      skillc-stats stats --help              # a command's options and examples
    """


def main(argv: Sequence[str] | None = None) -> int:
    """Console script entry point: ``skillc-stats``; ``argv`` defaults to ``sys.argv[1:]``.
    Returns the exit code (the script exits with it)."""
    return run(cli, argv, prog_name="skillc-stats")
