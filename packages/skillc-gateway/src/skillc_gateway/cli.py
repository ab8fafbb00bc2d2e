"""Command line of skillc-gateway: the ``skillc-gateway`` console script."""

from __future__ import annotations

import click

from skillc_index.console import CONTEXT_SETTINGS, run, verbose_option


@click.group("skillc-gateway", context_settings=CONTEXT_SETTINGS)
@click.version_option(package_name="skillc-gateway", message="%(package)s %(version)s")
@verbose_option
def cli() -> None:
    """skillc-gateway: read Agent Skills on demand (outline, show, open, sources, search).

    The gateway commands arrive with their own issue; this release ships the package and
    its console script.
    """


def main() -> None:
    """Console script entry point: ``skillc-gateway``."""
    run(cli, prog_name="skillc-gateway")
