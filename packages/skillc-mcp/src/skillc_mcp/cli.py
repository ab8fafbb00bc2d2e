"""Command line of skillc-mcp: ``skc mcp`` and the ``skillc-mcp`` console script.

One click command serves both (registered with ``skc`` through the ``skillc.commands`` entry
point). A client starts the server for every session, so the path to the first response is
kept short: this module imports only click (``skc`` has loaded it already) and the command
body only the protocol modules; the libraries behind the tools load on the first call that
needs them.
"""

from __future__ import annotations

import sys
from collections.abc import Sequence
from typing import Any

import click

# The kit's settings (skillc_index.console.CONTEXT_SETTINGS), not imported from there: that
# module and the diagnostics registry would cost every server start a few milliseconds.
CONTEXT_SETTINGS: dict[str, Any] = {"help_option_names": ["-h", "--help"], "max_content_width": 100}
_VERBOSE_KEY = "skillc.verbose"  # the ctx.meta key of skillc_index.console.verbose_option


def _set_verbose(ctx: click.Context, _param: click.Parameter, value: bool) -> bool:
    if value:
        ctx.meta[_VERBOSE_KEY] = True
    return value


@click.command("mcp", context_settings=CONTEXT_SETTINGS)
@click.option(
    "--cwd",
    metavar="DIR",
    type=click.Path(exists=True, file_okay=False),
    help="Serve the project of this folder (default: the working directory).",
)
@click.option(
    "--allow-target",
    "allow_targets",
    metavar="DIR",
    multiple=True,
    type=click.Path(file_okay=False),
    help="Let skc_build deploy to this folder or below it, besides the agent folders (repeatable).",
)
@click.option(
    "-v",
    "--verbose",
    is_flag=True,
    expose_value=False,
    is_eager=True,
    callback=_set_verbose,
    help="Log every request (method, tool, milliseconds) on stderr.",
)
@click.version_option(package_name="skillc-mcp", message="%(package)s %(version)s")
@click.pass_context
def mcp_command(ctx: click.Context, cwd: str | None, allow_targets: tuple[str, ...]) -> int:
    """Start MCP server.

    Serve skillc's commands as MCP tools (skc_init, skc_list, skc_build, skc_lint,
    skc_outline, skc_show, skc_open, skc_sources, skc_search, skc_find, skc_stats) over stdio
    until the client closes stdin. Both protocol eras: the initialize handshake (2024-11-05 to
    2025-11-25) and the stateless 2026-07-28 revision (server/discover, per-request _meta).
    Only protocol messages go to stdout; logs go to stderr. Tool calls are logged in the
    access log like CLI commands. skc_build deploys only to the agent folders (the built-in
    targets and the [targets] of ~/.skillc/config.toml) unless --allow-target names more.

    \b
    Client configuration (Claude Code, Cursor, ...):
      {"mcpServers": {"skillc": {"command": "skc", "args": ["mcp"]}}}

    \b
    Examples:
      skc mcp                         # serve the project of the working directory
      skc mcp --cwd ~/code/webapp     # for clients that cannot set the working directory
      skc mcp --allow-target ~/agents # skc_build may also deploy under ~/agents
      claude mcp add skillc -- skc mcp
    """
    verbose = bool(ctx.meta.get(_VERBOSE_KEY))
    return serve(cwd, verbose=verbose, allowed_targets=allow_targets)


def serve(
    cwd: str | None = None, *, verbose: bool = False, allowed_targets: tuple[str, ...] = ()
) -> int:
    """Run the server on stdin/stdout in ``cwd``; the exit status when the client leaves.
    ``allowed_targets`` are folders (relative to the working directory before ``cwd``) where
    ``skc_build`` may deploy besides the agent folders."""
    import os

    from skillc_mcp import __version__
    from skillc_mcp._stdio import serve_stdio

    server = None
    if allowed_targets:
        from skillc_mcp._protocol import Server
        from skillc_mcp._tools import ToolRunner

        folders = [os.path.abspath(os.path.expanduser(p)) for p in allowed_targets]  # noqa: PTH100, PTH111
        server = Server(tools=ToolRunner(allowed_targets=folders))
    if cwd is not None:
        os.chdir(cwd)
    try:
        here = os.getcwd()  # noqa: PTH109 - no pathlib on the way to the first response
    except FileNotFoundError:
        from skillc_index import SkillDirectoryNotFound

        where = os.environ.get("PWD") or "."
        raise SkillDirectoryNotFound(where, "the working directory was removed") from None
    print(f"skillc-mcp {__version__}: serving MCP on stdio in {here}", file=sys.stderr)
    return serve_stdio(server, verbose=verbose)


def main(argv: Sequence[str] | None = None) -> int:
    """Console script entry point: ``skillc-mcp`` (the same command as ``skc mcp``);
    ``argv`` defaults to ``sys.argv[1:]``. Returns the exit code (the script exits with it)."""
    from skillc_index.console import run

    return run(mcp_command, argv, prog_name="skillc-mcp")
