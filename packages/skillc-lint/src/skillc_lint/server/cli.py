"""``skillc-lint server``: the command that starts the language server.

A command of the ``skillc-lint`` console script only (:func:`skillc_lint.cli.main` hands it
the arguments after ``server``): an editor starts it and talks LSP over its stdin and
stdout, so it is no operation (nothing for ``skc`` or an MCP client to call).
"""

from __future__ import annotations

from collections.abc import Sequence

import click

from skillc_index.console import run
from skillc_index.helppage import Command


@click.command(name="server", cls=Command, context_settings={"help_option_names": ["-h", "--help"]})
@click.option(
    "--profile",
    "profiles",
    multiple=True,
    metavar="NAME",
    help="Lint for a skill dialect too: claude-code, skillli, gibberish (repeatable or "
    "comma-separated); the config's [lint] profiles otherwise.",
)
@click.option(
    "--stdio",
    is_flag=True,
    help="Speak LSP over stdin and stdout (the default and only transport; accepted "
    "because editors pass it).",
)
def server_command(profiles: tuple[str, ...], stdio: bool) -> int:
    """Run skillc-lint as a language server for editors (LSP over stdio).

    Diagnostics as you type in SKILL.md and the Markdown files of a skill, quick fixes
    from the safe fixers, hover and completion of frontmatter fields, links and
    go-to-definition for relative links and #anchors, the outline, and workspace
    diagnostics. Needs the lsp extra: pip install 'skillc-lint[lsp]'.

    \b
    Examples:
      skillc-lint server --stdio                          # what an editor starts
      skillc-lint server --profile claude-code --stdio    # and Claude Code's rules
    """
    from skillc_lint import PROFILES, UnknownProfile
    from skillc_lint.server import serve

    names = [part.strip() for value in profiles for part in value.split(",") if part.strip()]
    for name in names:
        if name not in PROFILES:
            raise UnknownProfile(name, PROFILES)
    return serve(names)


def main(argv: Sequence[str] | None = None) -> int:
    """``skillc-lint server [OPTIONS]``: the exit code."""
    return run(server_command, argv, prog_name="skillc-lint server")
