"""Command line of skillc-lint: the ``skillc-lint`` console script."""

from __future__ import annotations

import click

from skillc_index.console import CONTEXT_SETTINGS, run, verbose_option


@click.group("skillc-lint", context_settings=CONTEXT_SETTINGS)
@click.version_option(package_name="skillc-lint", message="%(package)s %(version)s")
@verbose_option
def cli() -> None:
    """skillc-lint: validate Agent Skills against the authoring standard (RFC-0008).

    The linter arrives with its own issue; this release ships the package and its console script.
    """


def main() -> None:
    """Console script entry point: ``skillc-lint``."""
    run(cli, prog_name="skillc-lint")
