"""Command line of skillc-stats: the ``skillc-stats`` console script."""

from __future__ import annotations

import click

from skillc_index.console import CONTEXT_SETTINGS, run, verbose_option


@click.group("skillc-stats", context_settings=CONTEXT_SETTINGS)
@click.version_option(package_name="skillc-stats", message="%(package)s %(version)s")
@verbose_option
def cli() -> None:
    """skillc-stats: access logs and usage analytics for Agent Skills (stats, sync).

    The analytics commands arrive with their own issue; this release ships the package and
    its console script.
    """


def main() -> None:
    """Console script entry point: ``skillc-stats``."""
    run(cli, prog_name="skillc-stats")
