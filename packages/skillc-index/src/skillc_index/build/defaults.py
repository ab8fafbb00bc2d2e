"""The default targets of a skill: what a build given no ``--target`` deploys it to
(:func:`default_targets`), for ``build --all`` and a single ``skc build`` alike."""

from __future__ import annotations

import os
from collections.abc import Mapping
from pathlib import Path

from skillc_index.layout import SKILLC_DIR, Layout, Scope

__all__ = ["BEHIND_ROUTER", "DEPLOYED_NOWHERE", "behind_router", "default_targets", "routed"]

#: Why a store skill of ``--all`` was deployed nowhere (:func:`default_targets`).
DEPLOYED_NOWHERE = "its default target's folder is the one it was imported from"
#: ... and why one behind a router was (the agent folder routed).
BEHIND_ROUTER = "it is behind the router of {folder} (skc route)"


def routed(layout: Layout, scope: Scope) -> Mapping[str, Path]:
    """The skills behind a router of ``scope``, each with the agent folder routed
    (:func:`~skillc_index.route.place.routed_names`); none, and no route module loaded, when
    the scope has no route folder."""
    from skillc_index.route import ROUTES_DIR

    if scope not in layout.scopes() or not (layout.base(scope) / SKILLC_DIR / ROUTES_DIR).is_dir():
        return {}
    from skillc_index.route.place import routed_names

    return routed_names(layout, scope)


def behind_router(
    name: str, scope: Scope, layout: Layout, names: Mapping[str, Path] | None = None
) -> str | None:
    """Why the skill ``name`` of ``scope`` is deployed to no default target (a text,
    :data:`BEHIND_ROUTER`) when a route of that scope has it behind its router: deployed to
    the agent folder again, it undid the route. ``names``: :func:`routed`'s, read once for a
    batch (None: read now)."""
    folder = (routed(layout, scope) if names is None else names).get(name)
    return None if folder is None else BEHIND_ROUTER.format(folder=layout.display(folder))


def default_targets(
    copy: Path,
    scope: Scope,
    store_scope: Scope,
    layout: Layout,
    configured: Mapping[str, str] | None,
    names: Mapping[str, Path] | None = None,
) -> tuple[tuple[str, ...], str | None]:
    """The targets the store skill ``copy`` (of ``store_scope``) is built for in ``scope``
    when given none, and why it is deployed nowhere (None: it is deployed). Its targets are
    those it is deployed to in the agent folders of ``scope``
    (:func:`~skillc_index.build.copies.deployed_targets`: a skill built with ``--target
    cursor`` is not deployed to the default target too, over the very folder it was imported
    from say); ``()`` (the default target) for one deployed nowhere, but one behind a router
    of the scope (:func:`behind_router`, ``names``) or whose default target's folder is the
    one it was imported from (:data:`DEPLOYED_NOWHERE`: the skill is there already, its own
    source), deployed nowhere."""
    from skillc_index.build.copies import deployed_targets
    from skillc_index.build.deploy import parse_targets
    from skillc_index.import_record import import_origin

    runtime = layout.runtime_store(scope) / copy.name
    deployed = deployed_targets(copy.name, scope, copy, runtime, layout, configured)
    if deployed:
        return deployed, None
    why = behind_router(copy.name, scope, layout, names)
    if why is not None:
        return (), why
    origin = import_origin(copy, store_scope, layout, bounded=False)
    if origin is None:
        return (), None
    for target in parse_targets(()):
        try:
            there = layout.target_root(target, scope, configured) / copy.name
        except ValueError:  # a project scope with no project: the build says so
            return (), None
        if os.path.realpath(there) == os.fspath(origin):
            return (), DEPLOYED_NOWHERE
    return (), None
