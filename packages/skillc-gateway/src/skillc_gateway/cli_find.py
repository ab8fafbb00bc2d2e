"""The catalog's commands: ``find`` (the skills for a task, issue 15) and ``watch`` (its find
server, CLI only).

A module of their own: ``skc find`` is what an agent runs before any other command, often
once per task, and its process time counts; importing it defines no other command. Module
level imports only click and the console conventions. With a find server running, the usual
command lines do not get here: :mod:`skillc_gateway.find_quick` answers them without click.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

import click

from skillc_gateway._limits import DEFAULT_FIND_LIMIT, MAX_FIND_LIMIT
from skillc_gateway.find_output import plural, print_answer
from skillc_index.console import (
    CONTEXT_SETTINGS,
    cli_session,
    count_range,
    format_option,
    is_verbose,
    print_json,
    report_all,
    verbose_option,
)

if TYPE_CHECKING:
    from skillc_index import Layout


# A query may start with "-" ("-fno-strict-aliasing"): unknown options are taken as words.
@click.command("find", context_settings={**CONTEXT_SETTINGS, "ignore_unknown_options": True})
@click.argument("query")
@click.option(
    "--limit",
    type=count_range(1, MAX_FIND_LIMIT),
    default=DEFAULT_FIND_LIMIT,
    show_default=True,
    help="Most skills.",
)
@click.option(
    "--path",
    "path",
    multiple=True,
    metavar="DIR",
    help="Only the skills under this folder (repeatable) [default: $SKILL_ROUTING_ROOTS, "
    "else every installed skill].",
)
@format_option()
@verbose_option
def find_command(query: str, limit: int, path: tuple[str, ...], output_format: str) -> None:
    """Find the skills for a task.

    Ranks the installed skills for QUERY, a task in words, best first: the project and
    global stores, the agents' skills folders (project and home: .claude/skills,
    .agents/skills, ...) and installed Claude Code plugins; a deployed skill counts as its
    source. Each result names the skill's folder and the section to read first. The catalog
    (~/.skillc/catalog.db) is brought up to date from file stats before every answer.

    When a find server runs for the skillc home (`skc watch --detach`), it answers instead:
    the same answer, without this process importing the catalog or looking at every folder
    again (it is told of changes as they happen). Without one, find answers itself; when
    it searched 1,000 skills or more, it then starts one in the background for the next
    finds (it stops after an idle hour; SKILLC_FIND_SERVER=0: never). With -v, find says
    on stderr which of the two answered, and with which ranker.

    \b
    Examples:
      skc find "fill in a PDF form"
      skc find "review this pull request" --limit 3 --format json
      skc find "deploy to kubernetes" --path .skillc/skills  # the project store only
    """
    from skillc_gateway.catalog import find_skills
    from skillc_index.inventory.folders import trusted_targets

    session = cli_session()
    # operations.FIND's run, asking the find server first (the MCP server answers itself)
    result = find_skills(
        session.layout,
        query,
        limit=limit,
        paths=path,
        configured=trusted_targets(session.layout, session.config),
        server=True,
    )
    report_all(result.warnings)
    if is_verbose():
        where = "the find server (skc watch)" if result.served else "this process"
        click.echo(f"find: answered by {where}; ranker: {result.ranker}", err=True)
        click.echo(
            f"find: {plural(result.searched, 'skill')} searched; {result.skipped} skipped "
            "(unreadable or invalid skills, folders that could not be listed)",
            err=True,
        )
    if not (result.served or result.partial or result.warnings):
        _start_server(session.layout, result.searched)  # first: a reader may stop reading
    print_answer(session.layout, result, output_format)


def _start_server(layout: Layout, searched: int) -> None:
    """After answering a large library itself, start a find server in the background for
    the next finds (``lifecycle.AUTO_START_SKILLS``; ``$SKILLC_FIND_SERVER=0``: never), and
    say so once on stderr."""
    from skillc_gateway.catalog import lifecycle, switched_off

    if searched < lifecycle.AUTO_START_SKILLS or switched_off("SKILLC_FIND_SERVER"):
        return
    pid = lifecycle.start_for_later(layout)
    if pid is not None:
        from skillc_index import Notice
        from skillc_index.console import report

        text = (
            f"started a find server for the next finds (pid {pid}; it stops after an idle "
            "hour, 'skc watch --stop' stops it now, SKILLC_FIND_SERVER=0 starts none)"
        )
        report(Notice(text, "info"))


@click.command("watch", context_settings=CONTEXT_SETTINGS)
@click.option(
    "--detach", is_flag=True, help="Run in the background; print its pid once it answers."
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
@format_option()
@verbose_option
def watch_command(
    detach: bool,
    stop: bool,
    status: bool,
    idle: int | None,
    lock_fd: int | None,
    output_format: str,
) -> None:
    """Keep the catalog warm for skc find.

    Runs a find server for the skillc home ($SKILLC_HOME, else ~): one process that keeps
    the catalog of `skc find` in memory, told of every change to the searched folders as it
    happens (inotify), and answers `skc find` over a Unix socket (~/.skillc/find.sock,
    yours only). A find then costs little more than starting Python: no catalog to load, no
    folders to look at again. The answers are the same as without it; when none runs, or
    it does not answer, `skc find` answers itself. It runs in the foreground until Ctrl-C
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
    if lock_fd is not None and (detach or stop or status):
        raise click.UsageError("--lock-fd goes with running a server in the foreground")
    layout = Layout.discover()
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
        _watch_foreground(layout, idle or 0, lock_fd)


def _watch_foreground(layout: Layout, idle: int, lock_fd: int | None = None) -> None:
    """The find server in this process, until stopped or idle (what --detach runs too)."""
    import os
    import time

    from skillc_gateway.catalog.server import FindServer
    from skillc_index.inventory.folders import trusted_targets

    def log(line: str) -> None:
        stamp = time.strftime("%Y-%m-%dT%H:%M:%S%z")
        click.echo(f"{stamp} skc watch[{os.getpid()}]: {line}", err=True)

    session = cli_session(layout)
    targets = trusted_targets(layout, session.config)
    finder = FindServer(layout, idle=idle, configured=targets, log=log, lock_fd=lock_fd)
    finder.open()
    try:
        log(f"serving skc find for {layout.home} on {finder.path}")
        finder.serve()
    finally:
        finder.close()
        log(f"stopped; queries answered: {finder.queries}")


def _watch_status(status: dict[str, object], output_format: str) -> None:
    if output_format == "json":
        print_json(status)
        return
    if not status["running"] and status.get("silent_pid"):
        pid = status["silent_pid"]
        click.echo(
            f"A find server (pid {pid}) holds this skillc home ({status['home']}) but does "
            f"not answer: skc find answers itself. If it is stopped, 'kill -CONT {pid}' "
            f"resumes it; 'kill {pid}' ends it."
        )
        return
    if not status["running"]:
        click.echo(f"No find server runs for this skillc home ({status['home']}).")
        return
    import time

    since = time.strftime("%Y-%m-%d %H:%M:%S", time.localtime(float(str(status["since"]))))
    roots = status["roots"] if isinstance(status["roots"], list) else []
    version = f" (skillc-gateway {status['version']})" if "version" in status else ""
    click.echo(f"find server: pid {status['pid']}{version}, running since {since}")
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
    click.echo(f"folders searched: {len(roots)}")
    for root in roots:
        click.echo(f"  {root}")
