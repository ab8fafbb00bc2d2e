"""``skc route install|uninstall|status`` (issue 15): the group and its three commands, each
made from its operation (:data:`~skillc_index.route.operations.ROUTE_INSTALL`,
:data:`~skillc_index.route.operations.ROUTE_UNINSTALL`,
:data:`~skillc_index.route.operations.ROUTE_STATUS`); the functions here only print the result as
text. Module level imports only click, the console conventions and the operation table; the
work loads when a command runs.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

import click

from skillc_index.console import CONTEXT_SETTINGS, Call, CommandGroup, command, verbose_option
from skillc_index.route.operations import (
    ROUTE_INSTALL,
    ROUTE_STATUS,
    ROUTE_UNINSTALL,
    RouteParams,
    RouteStatusParams,
)
from skillc_index.text import counted, printable

if TYPE_CHECKING:
    from collections.abc import Sequence

    from skillc_index.layout import Layout
    from skillc_index.route.result import RouteResult, SkillLeft

#: The router skill's name (``route.router_skill.ROUTER_NAME``; not imported for --help).
ROUTER_NAME = "skill-router"


@click.group("route", cls=CommandGroup, context_settings=CONTEXT_SETTINGS)
@verbose_option
def route_group() -> None:
    """Route an agent's skills through one skill.

    An agent lists the name and description of every skill in its skills folder, every
    session (see `skc list --budget`). `skc route install` moves the skills of one agent
    folder into the skillc store of the same scope, builds them, and leaves ONE skill in the
    folder, `skill-router`, which tells the agent to find the skill for its task with
    `skc find` (MCP: `skc_find`) and read it with `skc show`/`skc open`. `skc route uninstall`
    puts every skill back exactly where it was; `skc route status` shows what is routed.

    Nothing is deleted: skills move by rename, skillc's own deployments (a symlink to a
    runtime, a --copy stub) are parked in `.skillc/router/<agent>/`, and every move is
    recorded in `.skillc/router/<agent>.json` before it happens (run the command again to
    finish an interrupted one). Command line only: the MCP server has no tool for it, since
    it reorganises the folders the agent itself loads.

    \b
    Examples:
      skc list --budget                # what each agent folder costs the listing
      skc route install --dry-run      # what would move
      skc route install                # .claude/skills of this project
      skc route install --global --target codex
      skc route status
      skc route uninstall
    """


def _failed_status(result: RouteResult) -> int:
    """1 when a skill of an install or uninstall failed (each error on stderr), whatever
    became of the others, in every format: as a batch build one of whose skills failed."""
    return 1 if result.failures else 0


@command(ROUTE_INSTALL, status=_failed_status)
def route_install_command(result: RouteResult, call: Call[RouteParams]) -> None:
    """Move an agent folder's skills behind the router.

    Each skill folder goes to the store (`.skillc/skills/<name>`, or `~/.skillc/skills` with
    --global) and is built; skillc's own deployments are parked; the folder then holds only
    `skill-router`. A skill whose name the store already has, a symlink skillc did not make,
    a skill git tracks, or a skill that does not build stays where it is and is listed. Safe
    to repeat: routes what was added since. Exit status 1 when a skill failed (it does not
    build, say), after routing the others, each failure an error line, as for a build.

    \b
    Examples:
      skc route install --dry-run          # what would move
      skc route install                    # .claude/skills of this project
      skc route install --global -t codex  # ~/.agents/skills
    """
    _echo_moves(result, call.session.layout)


@command(ROUTE_UNINSTALL, status=_failed_status)
def route_uninstall_command(result: RouteResult, call: Call[RouteParams]) -> None:
    """Put the routed skills back and remove the router.

    Each skill goes back to the agent folder under its own name, as it was (a folder, or the
    symlink skillc made). One whose place in the folder is taken again, or that changed in
    the store (another folder under its name), stays where it is and is listed; the router
    stays as long as a skill is behind it (run uninstall again once its place is free).
    Exit status 1 when a skill could not be moved back, each an error line.

    \b
    Examples:
      skc route uninstall --dry-run
      skc route uninstall --global --format json
    """
    _echo_moves(result, call.session.layout)


@command(ROUTE_STATUS)
def route_status_command(result: RouteResult, call: Call[RouteStatusParams]) -> None:
    """Show what is routed for an agent folder.

    \b
    Examples:
      skc route status
      skc route status --global -t cursor --format json
    """
    from skillc_index.cli_list import echo_table

    layout = call.session.layout
    show = layout.display
    router = "router installed" if result.router else "no router"
    click.echo(f"{_where(result, layout)}: {router}, {counted(result.routed, 'skill')} behind it")
    rows = [[s.name, s.kind, s.action, show(s.destination)] for s in result.skills]
    if rows:
        echo_table(["SKILL", "KIND", "STATE", "WHERE"], rows)
    if result.left:
        click.echo(
            f"Not behind the router ({len(result.left)}): "
            + printable(", ".join(skill.name for skill in result.left))
        )


route_group.add_command(route_install_command)
route_group.add_command(route_uninstall_command)
route_group.add_command(route_status_command)


_ROUTE_VERBS = {
    "moved": "move",
    "parked": "park",
    "unlinked": "unlink",
    "restored": "restore",
}


def _where(result: RouteResult, layout: Layout) -> str:
    """The agent folder a result is about: ``claude (project) .claude/skills``."""
    return f"{result.agent} ({result.scope}) {layout.display(result.folder)}"


def _causes(left: Sequence[SkillLeft]) -> str:
    """The skills left in place, counted by why: ``not moved: 2, tracked by git: 1``."""
    from collections import Counter

    causes = Counter(skill.cause for skill in left)
    return ", ".join(f"{cause}: {n}" for cause, n in causes.items())


def _echo_moves(result: RouteResult, layout: Layout) -> None:
    """``install``'s and ``uninstall``'s text: a line per skill that moves (or would), one
    per skill left in place, and a summary."""
    show = layout.display
    where = _where(result, layout)
    would = result.dry_run
    for skill in result.skills:
        if skill.action in ("routed", "in-place"):
            continue
        action = f"would {_ROUTE_VERBS[skill.action]}" if would else skill.action
        one, other = skill.origin, skill.destination
        if result.command == "uninstall":
            one, other = other, one
        click.echo(printable(f"{action}: {show(one)} -> {show(other)}"))
    for left in result.left:
        click.echo(printable(f"left: {show(left.path)}: {left.reason}"))
    count = counted(result.routed, "skill")
    if result.command == "install" and result.router is None:
        if not result.left:
            click.echo(f"{where}: no skills to route")
            return
        n = len(result.left)
        routed = "would be routed" if would else "routed"
        click.echo(
            f"{where}: no skill {routed}, so no router; {counted(n, 'skill')} left in place "
            f"({_causes(result.left)})"
        )
        return
    if result.command == "install":
        lists = "would list" if would else "lists"
        router = f"{ROUTER_NAME}, for {count} in {show(result.store)}"
        # what the agent lists: the router and every skill left in the folder but the
        # user-only ones, which the model is never shown (they stay for the user's /name)
        listed = [skill for skill in result.left if skill.cause != "user-only"]
        kept = len(result.left) - len(listed)
        stay = "stays" if kept == 1 else "stay"
        also = f"; {counted(kept, 'user-only skill')} {stay}" if kept else ""
        if not listed:
            click.echo(f"{where} {lists} one skill, {router}{also}")
            return
        n = len(listed)
        click.echo(
            f"{where} {lists} {n + 1} skills: {router}, and {counted(n, 'skill')} left in place "
            f"({_causes(listed)}){also}"
        )
        return
    back = sum(1 for skill in result.skills if skill.action == "restored")
    nothing = not (
        back or result.left or result.routed or result.router_removed or result.runtimes_removed
    )
    if result.router is None and nothing:
        click.echo(f"{where}: no router to remove, nothing {'would be' if would else 'is'} routed")
        return
    behind = ", ".join(f"{s.name} ({s.cause})" for s in result.left if s.cause != "forgotten")
    behind = printable(behind)
    behind = f"{count} still behind it: {behind}"
    if result.router_removed:
        router = "the router would be removed" if would else "router removed"
    elif result.router is None:
        router = "no router to remove" + (f"; {behind}" if result.routed else "")
    elif result.routed:
        router = f"{'the router would be kept' if would else 'router kept'}: {behind}"
    else:  # not the router skillc wrote (a warning says so)
        router = "the router stays"
    text = f"{counted(back, 'skill')} {'would go' if would else 'put'} back; {router}"
    runtimes = len(result.runtimes_removed)
    if runtimes:
        verb = "would be removed" if would else "removed"
        text += f"; {counted(runtimes, 'runtime')} built by install {verb}"
    click.echo(f"{where}: {text}")
