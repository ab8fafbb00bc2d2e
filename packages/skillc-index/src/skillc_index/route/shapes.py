"""The JSON shape of ``route install``, ``route uninstall`` and ``route status``: what
``--format json`` prints, a ``TypedDict`` that
:meth:`RouteResult.to_dict <skillc_index.route.result.RouteResult.to_dict>` returns (the MCP
server serves no route tool: the operations' ``no_tool`` says why).

Imported by type checkers, never by a command's run. A shape with keys that are Python
keywords (``from``) is written in the functional form. No ``from __future__ import
annotations``, as the other shapes of the package: the annotations are evaluated as the
classes are made.
"""

from typing import Annotated, Literal, TypedDict

__all__ = ["RouteShape", "RoutedSkillShape", "SkillLeftShape"]


RoutedSkillShape = TypedDict(
    "RoutedSkillShape",
    {
        "name": str,
        "kind": Literal["folder", "deployment"],
        "from": str,
        "to": str,
        "action": Literal[
            "moved", "parked", "unlinked", "routed", "restored", "in-place", "missing", "gone"
        ],
    },
)
"""One skill behind the router or put back (:class:`~skillc_index.route.result.RoutedSkill`):
where it is in the agent folder (``from``) and behind the router (``to``)."""


class SkillLeftShape(TypedDict):
    """A skill left where it is, and why."""

    name: str
    path: str
    reason: str


class RouteShape(TypedDict):
    """What a route command did (or, with ``dry_run``, would do)."""

    command: Literal["install", "uninstall", "status"]
    agent: str
    scope: Literal["project", "global"]
    folder: str
    store: str
    manifest: str
    router: str | None
    routed: int
    dry_run: bool
    router_removed: bool
    runtimes_removed: Annotated[
        list[str],
        "uninstall: the runtimes route install built for the skills put back, removed (their "
        "access log kept where agents used the skill while routed).",
    ]
    skills: list[RoutedSkillShape]
    left: list[SkillLeftShape]
