"""``route uninstall`` (:func:`route_uninstall`): each routed skill put back, the route undone."""

from __future__ import annotations

import contextlib
import os
from collections.abc import Collection
from pathlib import Path
from typing import TYPE_CHECKING

from skillc_index.diagnostics import Notice
from skillc_index.layout import Layout
from skillc_index.route.commands import (
    _check_writable,
    _known_again,
    _log_move,
    _move,
    _not_routed_as_another,
    _take_redeployed,
)
from skillc_index.route.manifest import (
    MoveRecord,
    RouteManifest,
    is_ours,
    lexists,
    read_route_manifest,
    write_route_manifest,
)
from skillc_index.route.place import (
    RoutePins,
    RoutePlace,
    check_agent_folder,
    made_by_route,
    parked_gone,
    route_lock,
    route_place,
)
from skillc_index.route.plan import (
    not_moved,
    redeployed,
)
from skillc_index.route.result import (
    RoutedSkill,
    RouteResult,
    SkillLeft,
)
from skillc_index.route.router_skill import (
    ROUTER_NAME,
    router_state_of,
    router_text,
    sha256_hex,
    sweep_router,
    write_router,
)
from skillc_index.route.runtimes import remove_built_runtimes

if TYPE_CHECKING:
    from skillc_index.operation import Session

__all__ = ["route_uninstall"]


def route_uninstall(
    session: Session, agent: str = "claude", *, global_: bool = False, dry_run: bool = False
) -> RouteResult:
    """Put every routed skill of ``agent``'s folder back where it was and remove the router.
    What cannot go back (its place is taken) stays behind the router, is reported, and stays
    in the manifest for a later run; the router stays too while any skill is behind it (its
    count updated). One that changed in the store is reported and forgotten, and so is a
    parked deployment whose store skill is gone (renamed or deleted: :func:`~skillc_index.
    route.place.parked_gone`), left where it is, never deployed again. Nothing routed:
    nothing to do."""
    layout, config = session.layout, session.config
    place = route_place(layout, config, agent, global_)
    _not_routed_as_another(place)
    if dry_run or not lexists(place.manifest):
        return _uninstall(session, place, dry_run=dry_run)[0]
    with route_lock(place, layout), RoutePins(layout) as pins:
        result, done = _uninstall(session, place, dry_run=False, pins=pins)
    if done is not None:  # nothing is routed any more
        _forget(place, layout, done)
    return result


def _forget(place: RoutePlace, layout: Layout, gone: RouteManifest) -> None:
    """Once nothing is routed and the manifest ``gone`` is removed: take out what the route
    made (:func:`_remove_empty`) and the lines it added to ``.gitignore``."""
    _remove_empty(place, layout, gone.made)
    if gone.gitignore:
        from skillc_index.build.scaffold import GITIGNORE, unignore_lines

        unignore_lines(
            place.base,
            gone.gitignore,
            remove_empty=GITIGNORE in gone.made,
            newline=gone.gitignore_newline,
        )


def _remove_empty(place: RoutePlace, layout: Layout, made: Collection[str]) -> None:
    """Once nothing is routed: remove the parking folder and ``.skillc/router``, and of
    skillc's folders the ones install ``made`` (never one that was there before), each only
    when it is empty."""
    store, runtimes, skillc = made_by_route(place, layout)
    for folder in (store, runtimes, place.parking, place.routes, skillc):
        if folder in (place.parking, place.routes) or os.path.relpath(folder, place.base) in made:
            with contextlib.suppress(OSError):
                folder.rmdir()


def _uninstall(
    session: Session, place: RoutePlace, *, dry_run: bool, pins: RoutePins | None = None
) -> tuple[RouteResult, RouteManifest | None]:
    """The uninstall, and the manifest once it is gone (nothing is routed any more); its
    moves, removals and router in the folders ``pins`` opens (None for a dry run)."""
    layout = session.layout
    manifest = read_route_manifest(place.manifest)
    if manifest is None:
        return RouteResult(
            "uninstall", place.agent, place.scope, place.folder, place.store, place.manifest,
            None, 0, (), (), dry_run,
        ), None  # fmt: skip
    folder = place.base / manifest.folder  # where the skills were, whatever config says now
    check_agent_folder(place, layout, folder)
    place = place._replace(folder=folder)
    _known_again(place, layout, manifest)
    _check_writable(place, layout, (), "absent")  # the manifest, the moves back: before any
    router_state = router_state_of(place.router, manifest.router_sha256)
    if pins is not None and folder.is_dir():  # a router a killed install staged, left there
        with contextlib.suppress(OSError):
            sweep_router(pins.agent(place))
    skills: list[RoutedSkill] = []
    left: list[SkillLeft] = []
    remaining: list[MoveRecord] = []
    notices: list[Notice] = []

    # looked at before any folder leaves the store: a deployment of a folder this run puts
    # back is not one of a skill that is gone
    orphans = {r.name: why for r in manifest.records if (why := parked_gone(place, r, layout))}

    def put_back(record: MoveRecord) -> None:
        origin = folder / record.name
        destination = place.destination(record.name, record.kind)
        here = RoutedSkill(record.name, record.kind, origin, destination, "restored")
        if not is_ours(record, destination):
            if is_ours(record, origin):
                skills.append(here._replace(action="in-place"))
            else:
                why = "not at its place behind the router any more; forgotten"
                left.append(SkillLeft(record.name, destination, why, "forgotten"))
            return
        if record.name in orphans:  # put back, agents would list a skill that is not there
            why = f"{orphans[record.name]}; not put back, left where it is and forgotten"
            left.append(SkillLeft(record.name, destination, why, "its skill is gone"))
            return
        if lexists(origin):
            kept: Path | None = origin  # what is at the skill's place, when it is taken
            if redeployed(origin, record, destination, layout):
                if record.kind == "deployment":  # the parked deployment is the duplicate
                    if pins is not None:
                        pins.behind(place, record.kind).remove(record.name)
                    skills.append(here._replace(action="in-place"))
                    return
                # the folder goes back in place of its deployment, checked again aside
                kept = None  # (a dry run: it would)
                if pins is not None:
                    kept = _take_redeployed(pins.agent(place), record, destination, layout)
            if kept is not None:  # (a folder of the user's, put there since the look too)
                now = "" if kept == origin else f" (what was there is now {kept})"
                why = f"{origin} is taken{now}; left behind the router"
                left.append(SkillLeft(record.name, destination, why, "its place is taken"))
                remaining.append(record)
                return
        if pins is not None:
            try:
                _move(pins.behind(place, record.kind), pins.agent(place), record.name)
            except OSError as exc:
                why = exc.strerror or str(exc)
                left.append(not_moved(record.name, destination, why, layout, back=True))
                remaining.append(record)
                return
            if record.kind == "folder":
                _log_move(place, layout, record.name, destination, origin, notices)
        skills.append(here)

    # a routed skill named like the router goes back only once the router is gone
    last = [r for r in manifest.records if r.name == ROUTER_NAME and router_state == "ours"]
    for record in manifest.records:
        if record not in last:
            put_back(record)
    # the router stays while any skill is behind it: it is what points the agent to them
    removed = router_state == "ours" and not remaining
    if removed and pins is not None:
        pins.agent(place).remove(ROUTER_NAME)
    for record in last:
        if removed:
            put_back(record)
        else:
            why = f"{place.router} is the router's place; left behind the router"
            left.append(SkillLeft(record.name, place.destination(record.name, record.kind), why,
                                  "its place is the router's"))  # fmt: skip
            remaining.append(record)
    if router_state in ("edited", "other"):
        notices.append(
            Notice(f"{place.router} is not the router skillc wrote (edited since?); left as it is")
        )
    runtimes, kept_runtimes, kept_held = remove_built_runtimes(
        place, layout, manifest, skills, remaining, notices, dry_run=dry_run
    )
    router = None if removed or router_state == "absent" else place.router
    router_sha = manifest.router_sha256
    if router_state == "ours" and remaining and pins is not None:  # it counts what is behind
        text = router_text(len(remaining), place.agent, place.scope)
        if sha256_hex(text.encode("utf-8")) != router_sha:
            write_router(pins.agent(place), text)
            router_sha = sha256_hex(text.encode("utf-8"))
    gone: RouteManifest | None = None
    if not dry_run:
        if remaining or router is not None:
            state = manifest._replace(
                state="installed", records=tuple(remaining), router_sha256=router_sha,
                runtimes=kept_runtimes, runtimes_held=kept_held,
            )  # fmt: skip
            write_route_manifest(place.manifest, place.agent, state)
        else:
            place.manifest.unlink()
            gone = manifest
    return RouteResult(
        "uninstall", place.agent, place.scope, folder, place.store, place.manifest,
        router, len(remaining), tuple(skills), tuple(left), dry_run, tuple(notices), removed,
        runtimes,
    ), gone  # fmt: skip
