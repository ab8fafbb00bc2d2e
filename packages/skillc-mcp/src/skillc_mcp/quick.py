"""``skc mcp`` and ``skillc-mcp`` without click: the command line MCP clients run.

A client starts the server for every session and waits for its answer to ``initialize``, and
importing click costs about as much as starting Python. So ``skc`` offers its command line to
:func:`run` first (the ``skillc.quick`` entry point of ``mcp``: skillc's README), and the
``skillc-mcp`` script is :func:`main`: given no arguments, the form client configurations use,
or the options a configuration may add (``--cwd DIR``, ``--allow-target DIR``, repeated,
``--log-requests``; as ``--name value`` or ``--name=value``), the server starts here. Anything
else (``-v``, ``--help``, ``--version``, a value click would refuse, such as a ``--cwd`` that
is not a readable folder, a shell's completion) runs the click command
(:mod:`skillc_mcp.cli`), which then serves through :func:`serve` too. Nothing of the kit's
libraries loads before the first tool call.
"""

from __future__ import annotations

import os
import sys
from collections.abc import Sequence
from typing import TYPE_CHECKING

if TYPE_CHECKING:
    from typing import TextIO

__all__ = ["main", "parse", "run", "serve"]

#: The variable a shell's completion script sets for ``skillc-mcp`` (click's
#: ``_{PROG_NAME}_COMPLETE``, as :func:`skillc_index.console.run` reads it for the command).
COMPLETE_VARIABLE = "_SKILLC_MCP_COMPLETE"


def run(args: list[str]) -> int | None:
    """``skc mcp ARGS``: the server's exit status when it served (a command line
    :func:`parse` reads), else None (nothing was done: the click command runs)."""
    parsed = parse(args)
    if parsed is None:
        return None
    cwd, allowed_targets, log_requests = parsed
    return serve(cwd, log_requests=log_requests, allowed_targets=allowed_targets)


def main(argv: Sequence[str] | None = None) -> int:
    """Console script entry point: ``skillc-mcp`` (the same command as ``skc mcp``);
    ``argv`` defaults to ``sys.argv[1:]``. Returns the exit code (the script exits with it)."""
    if argv is None and not sys.flags.utf8_mode and sys.getfilesystemencoding() != "utf-8":
        from skillc_index.streams import utf8_process  # the C locale with PYTHONUTF8=0...

        utf8_process()
    args = list(sys.argv[1:] if argv is None else argv)
    if sys.stdin is None or sys.stdout is None or sys.stderr is None:  # `<&-`, `>&-`...
        from skillc_index.streams import open_closed_streams

        open_closed_streams()
    # a shell's TAB (``_SKILLC_MCP_COMPLETE=bash_source``...) is click's, never a server
    parsed = None if os.environ.get(COMPLETE_VARIABLE) else parse(args)
    if parsed is None:  # click's command, a Ctrl-C while it loads quiet (streams.script)
        from skillc_index.streams import script

        return script("skillc_mcp.cli", args)
    cwd, allowed_targets, log_requests = parsed
    try:
        return serve(cwd, log_requests=log_requests, allowed_targets=allowed_targets)
    except BaseException as exc:  # as the click command's errors are (skillc_index.console)
        from skillc_index.console import handle_exception

        return handle_exception(exc, args)


def parse(args: Sequence[str]) -> tuple[str | None, tuple[str, ...], bool] | None:
    """``(cwd, allowed targets, log requests)`` of a command line of the options a client
    configuration uses, each value one the click command takes as it is; else None (the
    click command reads it: ``-v``, ``--help``, a repeated ``--cwd``, a value it refuses,
    more ``--allow-target`` than it takes)."""
    cwd: str | None = None
    targets: list[str] = []
    log_requests = False
    rest = iter(args)
    for arg in rest:
        name, equals, value = arg.partition("=")
        if name == "--log-requests" and not equals:
            log_requests = True
            continue
        if name not in ("--cwd", "--allow-target"):
            return None
        if not equals:
            value = next(rest, "-")
        if value.startswith("-") or not _folder_or_none(value, must_exist=name == "--cwd"):
            return None
        if name == "--allow-target":
            targets.append(value)
        elif cwd is None:
            cwd = value
        else:
            return None
    if targets:  # too many: click's command refuses them (E100)
        from skillc_index.arguments import MAX_TARGETS

        if len(targets) > MAX_TARGETS:
            return None
    return cwd, tuple(targets), log_requests


def _folder_or_none(path: str, *, must_exist: bool) -> bool:
    """Whether ``click.Path(exists=must_exist, file_okay=False)`` takes ``path`` as it is: a
    readable folder, or (unless ``must_exist``) nothing at all."""
    import stat

    try:
        st = os.stat(path)  # noqa: PTH116 - as click.Path reads it
    except OSError:
        return not must_exist and path != ""
    return stat.S_ISDIR(st.st_mode) and os.access(path, os.R_OK)


def serve(
    cwd: str | None = None,
    *,
    log_requests: bool = False,
    allowed_targets: Sequence[str] = (),
    refusals_log: TextIO | None = None,
) -> int:
    """Run the server on stdin/stdout in ``cwd``; the exit status when the client leaves.
    ``log_requests``: a line on stderr per request (``--log-requests``). ``allowed_targets``
    are folders (relative to the working directory before ``cwd``) where ``skc_build`` may
    deploy besides the agent folders. ``refusals_log``: where the skills left out are said
    (``-v``: :class:`~skillc_mcp._skills.SkillsMethods`)."""
    from skillc_mcp import __version__
    from skillc_mcp._stdio import serve_stdio

    server = None
    if allowed_targets or refusals_log is not None:
        from skillc_mcp._protocol import Server
        from skillc_mcp._skills import SkillsMethods
        from skillc_mcp._tools import ToolRunner

        folders = [os.path.abspath(os.path.expanduser(p)) for p in allowed_targets]  # noqa: PTH100, PTH111
        server = Server(
            tools=ToolRunner(allowed_targets=folders) if folders else None,
            skills=SkillsMethods(log=refusals_log) if refusals_log is not None else None,
        )
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
