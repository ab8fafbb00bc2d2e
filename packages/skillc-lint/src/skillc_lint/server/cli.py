"""``skillc-lint server``: the command that starts the language server.

A command of the ``skillc-lint`` console script only (:func:`skillc_lint.cli.main` hands it
the arguments after ``server``): an editor starts it and talks LSP over its stdin and
stdout, so it is no operation (nothing for ``skc`` or an MCP client to call).

Ctrl-C (SIGINT) ends the server at once with exit status 130 (:func:`_end_interrupted`).
"""

from __future__ import annotations

import signal
from collections.abc import Sequence
from types import FrameType

import click

from skillc_index.console import run, verbose_option
from skillc_index.helppage import Command
from skillc_index.streams import INTERRUPTED


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
@verbose_option
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
    previous = signal.signal(signal.SIGINT, _end_interrupted)
    try:
        return serve(names)
    finally:
        signal.signal(signal.SIGINT, previous)


def _end_interrupted(_signum: int, _frame: FrameType | None) -> None:
    """Ctrl-C (SIGINT): the server ends at once with :data:`~skillc_index.streams.INTERRUPTED`
    (130), its streams flushed. Not by a ``KeyboardInterrupt``: pygls takes one for the end
    of the session and joins its thread reading stdin, which waits for the client's next
    message for ever (and, the interpreter ending around it, aborted with exit 134: "Fatal
    Python error: _enter_buffered_busy"). The server keeps nothing on disk to finish."""
    import contextlib
    import os
    import sys

    for stream in (sys.stdout, sys.stderr):
        with contextlib.suppress(Exception):  # a write of the main thread it interrupted
            stream.flush()
    os._exit(INTERRUPTED)


def main(argv: Sequence[str] | None = None) -> int:
    """``skillc-lint server [OPTIONS]``: the exit code."""
    return run(server_command, argv, prog_name="skillc-lint server")
