"""``route install``, ``route uninstall`` and ``route status`` as operations
(:mod:`skillc_index.operation`): their parameters records and functions (issue 15). They are
no MCP tools (``no_tool`` says why); each skill a route builds is logged as its build."""

from __future__ import annotations

from typing import TYPE_CHECKING, Annotated

from skillc_index.operation import WRITES, Operation, Param, Session
from skillc_index.record import Record

if TYPE_CHECKING:
    from skillc_index.route.result import RouteResult

__all__ = [
    "ROUTE_INSTALL",
    "ROUTE_STATUS",
    "ROUTE_UNINSTALL",
    "RouteParams",
    "RouteStatusParams",
    "route_install",
    "route_status",
    "route_uninstall",
]


_RouteGlobal = Annotated[
    bool,
    Param(
        "The agent's folder in the home folder (its skills go to ~/.skillc/skills); default: "
        "the project's.",
        flags=("-g", "--global"),
    ),
]


_RouteTarget = Annotated[
    str,
    Param(
        "The agent whose skills folder is routed: claude, agents (.agents/skills), codex, "
        "copilot, cursor, gemini, kiro, opencode, trae, or a [targets] name from config.",
        min_length=1,
        flags=("-t", "--target"),
        metavar="AGENT",
        show_default=True,
        once=True,  # one agent folder per run: -t claude -t codex is E100, not codex alone
    ),
]


class RouteParams(Record):
    """``route install`` and ``route uninstall``: which agent folder, and whether to only
    say what would move."""

    global_: _RouteGlobal = False
    target: _RouteTarget = "claude"
    dry_run: Annotated[
        bool, Param("Show what would move; change nothing.", flags=("-n", "--dry-run"))
    ] = False


class RouteStatusParams(Record):
    """``route status``: which agent folder."""

    global_: _RouteGlobal = False
    target: _RouteTarget = "claude"


def route_install(session: Session, params: RouteParams) -> RouteResult:
    """:func:`skillc_index.route.commands.route_install`; not logged (each skill it builds
    is, as a build)."""
    from skillc_index.route.commands import route_install

    return route_install(session, params.target, global_=params.global_, dry_run=params.dry_run)


def route_uninstall(session: Session, params: RouteParams) -> RouteResult:
    """:func:`skillc_index.route.uninstall.route_uninstall`; not logged."""
    from skillc_index.route.uninstall import route_uninstall

    return route_uninstall(session, params.target, global_=params.global_, dry_run=params.dry_run)


def route_status(session: Session, params: RouteStatusParams) -> RouteResult:
    """:func:`skillc_index.route.commands.route_status`; not logged."""
    from skillc_index.route.commands import route_status

    return route_status(session, params.target, global_=params.global_)


#: Why the MCP server has no route tool.
_ROUTE_NO_TOOL = (
    "it reorganises the skills folders the agent itself loads (moves its skills behind the "
    "router, or back): a person decides that, on the command line"
)


ROUTE_INSTALL: Operation[RouteParams, RouteResult] = Operation(
    name="route install",
    title="Route an agent folder's skills through the router",
    description="Move the skills of an agent skills folder into the skillc store of the same "
    "scope, build them, and leave one skill, skill-router, in the folder.",
    params=RouteParams,
    run=route_install,
    output="skillc_index.route.shapes:RouteShape",
    annotations=WRITES,
    no_tool=_ROUTE_NO_TOOL,
)


ROUTE_UNINSTALL: Operation[RouteParams, RouteResult] = Operation(
    name="route uninstall",
    title="Put the routed skills back",
    description="Put every skill routed from an agent skills folder back where it was, and "
    "remove the router.",
    params=RouteParams,
    run=route_uninstall,
    output="skillc_index.route.shapes:RouteShape",
    annotations=WRITES,
    no_tool=_ROUTE_NO_TOOL,
)


ROUTE_STATUS: Operation[RouteStatusParams, RouteResult] = Operation(
    name="route status",
    title="What is routed",
    description="What is routed for an agent skills folder: the skills behind the router, "
    "the router, and the skills not behind it.",
    params=RouteStatusParams,
    run=route_status,
    output="skillc_index.route.shapes:RouteShape",
    no_tool=_ROUTE_NO_TOOL,
)
