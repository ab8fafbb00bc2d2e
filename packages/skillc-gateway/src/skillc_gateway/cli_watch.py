"""``skc watch``: the find server of ``skc find`` (issue 15), in the foreground or the
background, stopped or asked how it is. CLI only (:data:`skillc_index.console.CLI_ONLY`
says why): a long-running process for a terminal, not a call with a result.

Module level imports only click and the console conventions; the server loads when it
runs.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

import click

from skillc_index.console import (
    CONTEXT_SETTINGS,
    cli_session,
    count_range,
    format_option,
    print_json,
    verbose_option,
)
from skillc_index.helppage import Command, program_command

if TYPE_CHECKING:
    from skillc_index.operation import Session


@click.command("watch", cls=Command, context_settings=CONTEXT_SETTINGS)
@click.option(
    "--detach",
    is_flag=True,
    help="Run in the background (replacing a running server of other code); print its pid "
    "once it answers.",
)
@click.option("--stop", is_flag=True, help="Stop the find server of this skillc home.")
@click.option("--status", is_flag=True, help="Say whether one runs, since when, what it did.")
@click.option(
    "--idle",
    type=count_range(0),
    metavar="SECONDS",
    help="Exit after this long without a query (0: never) [default: 3600 with --detach, else 0].",
)
@click.option("--lock-fd", type=int, hidden=True)  # the home's lock, taken by skc find
@click.option("--build", multiple=True, hidden=True)  # folders skc find searched: built first
@format_option()
@verbose_option
def watch_command(
    detach: bool,
    stop: bool,
    status: bool,
    idle: int | None,
    lock_fd: int | None,
    build: tuple[str, ...],
    output_format: str,
) -> int:
    """Keep the catalog warm for find.

    Runs a find server for the skillc home ($SKILLC_HOME, else ~): one process that keeps
    the catalog of the find command in memory, told of every change to the searched folders
    as it happens (inotify), and answers find over a Unix socket (~/.skillc/find.sock,
    yours only). A find then costs little more than starting Python: no catalog to load, no
    folders to look at again. The answers are the same as without it; when none runs, or
    it does not answer, find answers itself. It runs in the foreground until Ctrl-C
    (or SIGTERM); --detach starts it in the background (its log: ~/.skillc/find.log). CLI
    only; the MCP server keeps its own catalog warm.

    \b
    Examples:
      skc watch                   # in this terminal, until Ctrl-C
      skc watch --detach          # in the background; stops after an idle hour
      skc watch --detach --idle 0 # ... never idle-stops
      skc watch --status --format json
      skc watch --stop
    """
    from skillc_gateway.catalog import lifecycle
    from skillc_gateway.catalog.protocol import socket_path
    from skillc_index import Layout

    if detach + stop + status > 1:
        raise click.UsageError("--detach, --stop and --status exclude each other")
    if idle is not None and (stop or status):
        raise click.UsageError("--idle goes with running a server, not --stop or --status")
    if (lock_fd is not None or build) and (detach or stop or status):
        raise click.UsageError("--lock-fd and --build go with running a server in the foreground")
    session = cli_session(Layout.discover())
    session.config  # noqa: B018 - loaded for its warnings (a relative SKILLC_HOME: ignored)
    layout = session.layout
    if status:
        _watch_status(
            lifecycle.server_status(layout) or lifecycle.silent_status(layout), output_format
        )
    elif stop:
        pid = lifecycle.stop_server(layout)
        if output_format == "json":
            print_json({"stopped": pid is not None, "pid": pid})
        else:
            click.echo("No find server was running." if pid is None else f"Stopped pid {pid}.")
    elif detach:
        idle_seconds = lifecycle.DETACHED_IDLE_SECONDS if idle is None else idle
        pid = lifecycle.start_detached(layout, idle_seconds)
        if output_format == "json":
            print_json({"pid": pid, "socket": str(socket_path(layout))})
        else:
            click.echo(pid)
    else:
        return _watch_foreground(session, idle or 0, lock_fd, build)
    return 0


def _watch_foreground(
    session: Session, idle: int, lock_fd: int | None = None, build: tuple[str, ...] = ()
) -> int:
    """The find server in this process, until stopped or idle (what --detach runs too): the
    exit status, 128 + the signal's number when SIGINT or SIGTERM stopped it (130, 143), as
    ``skc mcp`` and any command Ctrl-C stops give, else 0."""
    import os

    from skillc_gateway.catalog.server import FindServer
    from skillc_index.clock import utc_now
    from skillc_index.inventory.folders import trusted_targets

    def log(line: str) -> None:
        click.echo(f"{utc_now()} skc watch[{os.getpid()}]: {line}", err=True)

    layout = session.layout
    targets = trusted_targets(layout, session.config)
    finder = FindServer(
        layout, idle=idle, configured=targets, log=log, lock_fd=lock_fd, build=build
    )
    finder.open()
    try:
        log(f"serving skc find for {layout.home} on {finder.path}")
        finder.serve()
    finally:
        finder.close()
        log(f"stopped; queries answered: {finder.queries}")
    return 0 if finder.stop_signal is None else 128 + finder.stop_signal


def _watch_status(status: dict[str, object], output_format: str) -> None:
    if output_format == "json":
        print_json(status)
        return
    other_user = status.get("other_user")
    if not status["running"] and isinstance(other_user, dict):
        from skillc_gateway.catalog.client import ForeignLock

        click.echo(
            f"No find server of yours runs for this skillc home ({status['home']}): "
            f"{ForeignLock(**other_user)}; {program_command('find')} answers itself. A "
            "skillc home of your own (SKILLC_HOME) can have one."
        )
        return
    if not status["running"] and status.get("unreachable"):
        held = f" (pid {status['silent_pid']} holds it)" if status.get("silent_pid") else ""
        click.echo(
            f"Cannot reach the find server of this skillc home ({status['home']}){held}: "
            f"{status['unreachable']}; {program_command('find')} answers itself."
        )
        return
    if not status["running"] and status.get("silent_pid"):
        pid = status["silent_pid"]
        click.echo(
            f"A find server (pid {pid}) holds this skillc home ({status['home']}) but does "
            f"not answer: {program_command('find')} answers itself. If it is stopped, "
            f"'kill -CONT {pid}' resumes it; 'kill {pid}' ends it."
        )
        return
    if not status["running"] and status.get("other_listener"):
        click.echo(
            f"No find server runs for this skillc home ({status['home']}): another process "
            f"answers on {status['socket']}, and none can start until it stops."
        )
        return
    if not status["running"]:
        click.echo(f"No find server runs for this skillc home ({status['home']}).")
        return
    from skillc_gateway.find_socket import PROTOCOL

    if status.get("protocol") != PROTOCOL:  # of another skillc: it says little more
        from skillc_gateway.catalog.client import other_version

        said = other_version(status)
        click.echo(f"{said[0].upper()}{said[1:]}.")
        click.echo(f"socket: {status['socket']}")
        return
    since = status.get("since") or "an unknown time"  # (RFC 3339: lifecycle.server_status)
    roots = status["roots"] if isinstance(status["roots"], list) else []
    version = f" (skillc-gateway {status['version']})" if "version" in status else ""
    click.echo(f"find server: pid {status['pid']}{version}, running since {since}")
    if not status.get("serves", True):
        detach, stop = program_command("watch --detach"), program_command("watch --stop")
        click.echo(
            "runs other code (installed or edited since it started): it answers no find of "
            f"this installation; '{detach}' replaces it, '{stop}' stops it"
        )
    click.echo(f"socket: {status['socket']}")
    click.echo(f"queries answered: {status['queries']}")
    idle = status["idle"]
    click.echo(f"idle stop: {'never' if not idle else f'after {idle} s without a query'}")
    watches, budget = status.get("watches"), status.get("watch_budget")
    click.echo(
        f"folders watched (inotify): {watches:,} of at most {budget:,}"
        if isinstance(watches, int) and isinstance(budget, int)
        else "folders watched (inotify): none (a catalog watches from its second find on; "
        "without a watcher each find looks at every folder again)"
    )
    click.echo(f"ranker: {status.get('ranker', 'lexical')}")
    waiting = status.get("vectors_waiting")
    if isinstance(waiting, dict):
        names, bodies = waiting.get("names", 0), waiting.get("bodies", 0)
        click.echo(
            f"vectors to compute: {names:,} names', {bodies:,} bodies'"
            if names or bodies
            else "vectors to compute: none (every skill's are in)"
        )
    heads_waiting = status.get("heads_waiting")
    if isinstance(heads_waiting, int):
        click.echo(
            f"words' best rows to store: {heads_waiting:,}"
            if heads_waiting
            else "words' best rows to store: none"
        )
    click.echo(f"folders searched: {len(roots)}")
    for root in roots:
        click.echo(f"  {root}")
