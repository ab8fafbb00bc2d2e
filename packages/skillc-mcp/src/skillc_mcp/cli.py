"""Command line of skillc-mcp: the ``skillc-mcp`` console script."""

from __future__ import annotations

import click

from skillc_index.console import CONTEXT_SETTINGS, run, verbose_option


@click.group("skillc-mcp", context_settings=CONTEXT_SETTINGS)
@click.version_option(package_name="skillc-mcp", message="%(package)s %(version)s")
@verbose_option
def cli() -> None:
    """skillc-mcp: the MCP server that exposes skillc's commands as tools for agents.

    The server arrives with its own issue; this release ships the package and its console script.
    """


def main() -> None:
    """Console script entry point: ``skillc-mcp``."""
    run(cli, prog_name="skillc-mcp")
