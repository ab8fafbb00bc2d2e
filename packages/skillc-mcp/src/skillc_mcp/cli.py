"""Command line of skillc-mcp: ``skc mcp`` and the ``skillc-mcp`` console script.

One click command serves both (registered with ``skc`` through the ``skillc.commands`` entry
point). A client starts the server for every session, so the path to the first response is
kept short: the usual command line (no arguments) does not get here at all
(:mod:`skillc_mcp.quick` serves it without click); this module imports only click and the
kit's console conventions (``-v/--verbose`` means what it means in every command), and the
command body only the protocol modules; the libraries behind the tools load on the first call
that needs them.
"""

from __future__ import annotations

from collections.abc import Sequence

import click

from skillc_index.console import CONTEXT_SETTINGS, is_verbose, non_empty, verbose_option
from skillc_index.helppage import Command


@click.command("mcp", cls=Command, context_settings=CONTEXT_SETTINGS)
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
    callback=non_empty,  # '' (an unset variable) would be the working folder
    help="Let skc_build deploy to this folder or below it, besides the agent folders (repeatable).",
)
@click.option(
    "--log-requests",
    is_flag=True,
    help="Log every request (method, tool, milliseconds) on stderr.",
)
@click.option(
    "--http",
    "http",
    metavar="HOST:PORT",
    help="Serve over Streamable HTTP on this address instead of stdio (needs skillc-mcp[http]); "
    "an address that is not loopback needs --tokens; without them only your user is served.",
)
@click.option(
    "--tokens",
    "tokens",
    metavar="FILE",
    type=click.Path(dir_okay=False),
    help="With --http: bearer tokens, one name:token per line (default: $SKILLC_MCP_TOKENS).",
)
@click.option(
    "--allow-origin",
    "allow_origins",
    metavar="ORIGIN",
    multiple=True,
    help="With --http: also accept requests from this browser Origin (repeatable).",
)
@click.option(
    "--allow-host",
    "allow_hosts",
    metavar="NAME",
    multiple=True,
    help="With --http: accept requests whose Host header names NAME (repeatable); a loopback "
    "address accepts loopback names only unless given, any other address any name unless given.",
)
@click.option(
    "--proxy",
    "proxies",
    metavar="ADDRESS",
    multiple=True,
    help="With --http: the address (or network) of a reverse proxy in front of the server "
    "(repeatable): its connections are not held to one client's share.",
)
@click.option(
    "--allow-writes",
    is_flag=True,
    help="With --http: let the users run skc_init and skc_build, which write to this "
    "machine's stores and agent folders (default: the tools that only read).",
)
@verbose_option
@click.version_option(package_name="skillc-mcp", message="%(package)s %(version)s")
def mcp_command(
    cwd: str | None,
    allow_targets: tuple[str, ...],
    log_requests: bool,
    http: str | None,
    tokens: str | None,
    allow_origins: tuple[str, ...],
    allow_hosts: tuple[str, ...],
    proxies: tuple[str, ...],
    allow_writes: bool,
) -> int:
    """Start MCP server.

    Serve skillc's commands as MCP tools (skc_init, skc_list, skc_build, skc_lint,
    skc_outline, skc_show, skc_open, skc_sources, skc_search, skc_find, skc_eval, skc_stats)
    over stdio
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
      skc mcp --http 127.0.0.1:8765   # a local HTTP server (http://127.0.0.1:8765/mcp)
      skc mcp --http 0.0.0.0:8765 --tokens /etc/skillc/tokens   # a team server
      skc mcp --http 127.0.0.1:8765 --tokens FILE --proxy 127.0.0.1   # behind Caddy/nginx

    Over HTTP the tools only read (skc_init and skc_build need --allow-writes) and never
    serve a hidden file; on either transport a path a tool is given must lie in the
    project, the working folder, the home folder or a folder of installed skills.
    """
    from skillc_index.arguments import MAX_TARGETS

    repeated = (
        ("allow_target", allow_targets),
        ("allow_origin", allow_origins),
        ("allow_host", allow_hosts),
        ("proxy", proxies),
    )
    for name, values in repeated:  # each as build's targets (E100 before anything starts)
        if len(values) > MAX_TARGETS:
            from skillc_index.option_errors import TooManyItems

            raise TooManyItems(name, len(values), MAX_TARGETS)
    import sys

    from skillc_mcp.quick import serve

    refusals_log = sys.stderr if is_verbose() else None  # the skills left out, and why
    if http is None:
        if tokens is not None or allow_origins or allow_hosts or proxies or allow_writes:
            raise click.UsageError(
                "--tokens, --allow-origin, --allow-host, --proxy and --allow-writes go with --http"
            )
        return serve(
            cwd,
            log_requests=log_requests,
            allowed_targets=allow_targets,
            refusals_log=refusals_log,
        )
    import os

    from skillc_mcp._http_serve import serve_http

    folders = [os.path.abspath(os.path.expanduser(p)) for p in allow_targets]  # noqa: PTH100, PTH111
    tokens_file = None if tokens is None else os.path.abspath(tokens)  # noqa: PTH100
    if cwd is not None:
        os.chdir(cwd)
    return serve_http(
        http,
        tokens_file=tokens_file,
        allowed_origins=allow_origins,
        allowed_hosts=allow_hosts,
        allowed_targets=folders,
        allow_writes=allow_writes,
        log_requests=log_requests,
        refusals_log=refusals_log,
        proxies=proxies,
    )


def main(argv: Sequence[str] | None = None) -> int:
    """The click command with the kit's error conventions; ``argv`` defaults to
    ``sys.argv[1:]``. Returns the exit code. The ``skillc-mcp`` script
    (:func:`skillc_mcp.quick.main`) runs it when given arguments."""
    from skillc_index.console import run

    return run(mcp_command, argv, prog_name="skillc-mcp")
