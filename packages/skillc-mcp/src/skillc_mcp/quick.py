"""``skc mcp`` and ``skillc-mcp`` without click: the command line MCP clients run.

A client starts the server for every session and waits for its answer to ``initialize``, and
importing click costs about as much as starting Python. So ``skc`` offers its command line to
:func:`run` first (the ``skillc.quick`` entry point of ``mcp``: skillc's README), and the
``skillc-mcp`` script is :func:`main`: given no arguments, the form client configurations use,
the server starts here; anything else (``--cwd``, ``--allow-target``, ``--log-requests``,
``-v``, ``--help``, ``--version``) runs the click command (:mod:`skillc_mcp.cli`), which then
serves through :func:`serve` too. Nothing of the kit's libraries loads before the first tool
call (with no arguments; the click command imports the kit's console conventions).
"""

from __future__ import annotations

import os
import sys
from collections.abc import Sequence

__all__ = ["main", "run", "serve"]


def run(args: list[str]) -> int | None:
    """``skc mcp ARGS``: the server's exit status when it served (no arguments), else None
    (nothing was done: the click command runs)."""
    if args:
        return None
    return serve()


def main(argv: Sequence[str] | None = None) -> int:
    """Console script entry point: ``skillc-mcp`` (the same command as ``skc mcp``);
    ``argv`` defaults to ``sys.argv[1:]``. Returns the exit code (the script exits with it)."""
    args = list(sys.argv[1:] if argv is None else argv)
    if args:
        from skillc_mcp.cli import main as click_main

        return click_main(args)
    try:
        return serve()
    except BaseException as exc:  # as the click command's errors are (skillc_index.console)
        from skillc_index.console import handle_exception

        return handle_exception(exc, args)


def serve(
    cwd: str | None = None, *, log_requests: bool = False, allowed_targets: Sequence[str] = ()
) -> int:
    """Run the server on stdin/stdout in ``cwd``; the exit status when the client leaves.
    ``log_requests``: a line on stderr per request (``--log-requests``). ``allowed_targets``
    are folders (relative to the working directory before ``cwd``) where ``skc_build`` may
    deploy besides the agent folders."""
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
    return serve_stdio(server, log_requests=log_requests)
