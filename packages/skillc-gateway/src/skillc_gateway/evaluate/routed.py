"""The skills an agent meets through the router of ``skc route``, for the library ``skc eval``
scores (:func:`~.agent_library.library_of`), and the installed skills with trigger cases it meets
neither way.

After ``skc route install`` an agent folder lists one skill, the router, and the skills it
held are in the store: the agent lists none of them, it finds them with ``skc find``. So each
route of a folder the agent reads (:func:`skillc_index.route.place.routes_of_folders`) puts
its router in the library as a listed skill and the skills behind it as ``routed`` ones,
ranked as ``find`` ranks them (:meth:`.library.Library.rank_of`). A route manifest that
cannot be read is a warning (which skills it routed cannot be known), and so is every
installed skill with trigger cases left out of the library (:func:`unscored_notice`): a run
never passes over them in silence.
"""

from __future__ import annotations

import os
from collections.abc import Collection, Mapping, Sequence
from pathlib import Path
from typing import TYPE_CHECKING, NamedTuple

if TYPE_CHECKING:
    from skillc_index import Notice
    from skillc_index.inventory.entries import Location
    from skillc_index.layout import Layout, Scope

__all__ = [
    "AgentRoutes",
    "agent_routes",
    "of_other_agents",
    "routed_elsewhere",
    "routes_of",
    "unscored_notice",
]

#: The skills :func:`unscored_notice` names; it counts the others.
NAMED = 5


class AgentRoutes(NamedTuple):
    """What an agent meets through the routers of the folders it reads."""

    routers: dict[str, tuple[Path, Scope]]
    """Each router skill, by the real path of its folder: its folder and its scope."""
    sources: dict[str, Scope]
    """Each skill behind a router, by the real path of its store folder (as the inventory
    names a skill's source), with the scope of its route."""
    notices: list[Notice]
    """A warning for each route manifest that cannot be read."""


def agent_routes(agent: str, layout: Layout, configured: Mapping[str, str]) -> AgentRoutes:
    """The routes of the folders ``agent`` reads
    (:func:`~skillc_index.inventory.folders.folders_of_agent`), in every scope."""
    from skillc_index.inventory.folders import folders_of_agent

    return routes_of(layout, folders_of_agent(agent, layout, configured))


def routed_elsewhere(agent: str, layout: Layout, configured: Mapping[str, str]) -> set[str]:
    """The skills behind the routers of folders ``agent`` does not read (other agents'), by
    the real path of their store folder: installed for those agents, none of ``agent``'s to
    warn of (:func:`unscored_notice`). A manifest that cannot be read is left out here
    (:func:`agent_routes` warns of it)."""
    from skillc_index.inventory.folders import folders_of_agent
    from skillc_index.route.place import parking_folders, routes_of_folders

    mine = {os.path.realpath(folder) for folder in folders_of_agent(agent, layout, configured)}
    folders = [folder for _, folder, _ in parking_folders(layout)]
    theirs = [folder for folder in folders if os.path.realpath(folder) not in mine]
    if not theirs:
        return set()
    routes, _ = routes_of_folders(layout, theirs)
    return {source for route in routes for source in route.sources}


def routes_of(layout: Layout, folders: Collection[Path]) -> AgentRoutes:
    """The routes of ``folders`` (agent folders, a ``--path`` given), in every scope."""
    from skillc_index import Notice
    from skillc_index.route.place import routes_of_folders

    routes, unread = routes_of_folders(layout, folders)
    routers: dict[str, tuple[Path, Scope]] = {}
    sources: dict[str, Scope] = {}
    for route in routes:
        if route.router is not None:
            routers[os.path.realpath(route.router)] = (route.router, route.place.scope)
        for source in route.sources:
            sources.setdefault(source, route.place.scope)
    notices = [
        Notice(f"{exc.diagnostic.message}; the skills behind its router are not scored")
        for exc in unread
    ]
    return AgentRoutes(routers, sources, notices)


def unscored_notice(agent: str, names: Sequence[str]) -> Notice:
    """The warning of the installed skills (``names``) with trigger cases that ``agent``
    neither lists nor finds through a router: their cases are not scored. Only ``agent``'s
    (:func:`of_other_agents`: a skill installed only for other agents is theirs)."""
    from skillc_index import Notice
    from skillc_index.text import counted

    shown = ", ".join(names[:NAMED]) + (
        f" and {len(names) - NAMED:,} more" if len(names) > NAMED else ""
    )
    return Notice(
        f"{counted(len(names), 'installed skill')} with trigger cases not scored: {agent} "
        f"neither lists {'it' if len(names) == 1 else 'them'} nor reaches "
        f"{'it' if len(names) == 1 else 'them'} through a router of skc route ({shown}); "
        "skc eval --path FOLDER scores the skills of a folder"
    )


def of_other_agents(locations: Sequence[Location], key: str, elsewhere: Collection[str]) -> bool:
    """Whether an installed skill that an agent neither lists nor reaches through its router
    (at ``locations``, its source ``key``) is installed only for other agents: in their
    folders (a Claude Code plugin's is Claude's), or behind their router (``elsewhere``:
    :func:`routed_elsewhere`). A store skill deployed nowhere is no agent's: every agent's run
    warns of it (a checkout without the route's gitignored manifest)."""
    return key in elsewhere or any(location.agent is not None for location in locations)
