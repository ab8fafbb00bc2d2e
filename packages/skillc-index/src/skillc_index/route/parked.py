"""What a build keeps current behind a router. The ``--copy`` stubs parked there
(``<base>/.skillc/router/<agent>/<name>``), kept holding their runtime's build
(:func:`refresh_parked`): a build of the skill and ``route install`` refresh them where they
are, so that ``route uninstall`` puts back the stub agents should load, not the one an older
build (an older skillc) wrote; ``list`` calls the skill ``stale`` while one holds another
build (:func:`~skillc_index.build.deploy.stale_copies` over the parking folders). And the
manifest's record of a skill folder moved into the store (:func:`refresh_moved`): what it
holds as a build of it compiled it, as ``route install`` records it. And the router's text
(:func:`refresh_routers`): a router an older skillc wrote is written again as this one writes
it, as ``route install`` would.
"""

from __future__ import annotations

from collections.abc import Collection, Mapping
from pathlib import Path
from typing import TYPE_CHECKING

from skillc_index.diagnostics import Notice, SkillcError, warning_reason
from skillc_index.layout import SKILL_FILE

if TYPE_CHECKING:
    from skillc_index.build.agent_folders import AgentFolders
    from skillc_index.build.manifest import Manifest
    from skillc_index.layout import Layout, Scope
    from skillc_index.pinned import Pinned
    from skillc_index.route.manifest import MoveRecord, RouteManifest
    from skillc_index.route.place import RoutePlace

__all__ = ["refresh_moved", "refresh_parked", "refresh_route", "refresh_routers"]


def refresh_parked(
    skill: str,
    scope: Scope,
    source: Path | None,
    runtime: Path,
    layout: Layout,
    *,
    locked: bool = False,
    folders: AgentFolders | None = None,
) -> list[Notice]:
    """Refresh, where it is, each copy of ``skill`` (built from ``source``; None: from any)
    parked behind a router of ``scope`` that holds another build than ``runtime``: the
    runtime's stub and its manifest, written into the folder together (both or neither),
    which stays (the route's manifest knows it by its device and inode). Under the route
    folder's lock (``locked``: the caller holds it; else taken once, when a copy is stale),
    and only a copy of skillc's own as ``--copy`` writes it, looked at under the lock
    (:func:`~skillc_index.build.deploy.is_skillc_copy`: never a file of the user's).
    ``folders``: the scope's parking folders, when the caller has them. Returns a warning for
    each copy not refreshed, saying why (a target's own copy, for another dialect: the build
    after ``route uninstall`` refreshes it)."""
    from skillc_index.layout import SKILLC_DIR
    from skillc_index.route import ROUTES_DIR

    if folders is None and (
        scope not in layout.scopes() or not (layout.base(scope) / SKILLC_DIR / ROUTES_DIR).is_dir()
    ):
        return []  # no route in the scope: nothing parked (a build imports no route module)
    from skillc_index.build.agent_folders import AgentFolders
    from skillc_index.build.deploy import not_refreshed, stale_copies
    from skillc_index.route.place import parking_roots, routes_lock

    if folders is None:
        folders = AgentFolders.of_roots(parking_roots(layout, scope))
    stale, built = stale_copies(skill, source, runtime, folders)
    if locked or not stale:
        return _rewrite_all(stale, built, runtime, layout)
    try:
        with routes_lock(next(iter(stale)).parent.parent, layout):  # looked at again in it
            return _rewrite_all(*stale_copies(skill, source, runtime, folders), runtime, layout)
    except (OSError, SkillcError) as exc:  # a route command holds the lock, a full disk
        why = warning_reason(exc)
    return [not_refreshed(layout, path, why) for path in stale]


def refresh_route(scope: Scope, names: Collection[str], layout: Layout) -> list[Notice]:
    """``route install``'s :func:`refresh_parked` (the caller holds the lock) of the copies
    parked under ``names``, each against the runtime of its name in ``scope`` (a build
    deploys into its own scope's agent folders)."""
    from skillc_index.build.agent_folders import AgentFolders
    from skillc_index.route.place import parking_roots

    folders = AgentFolders.of_roots(parking_roots(layout, scope))  # read once for all
    notices: list[Notice] = []
    for name in names:
        runtime = layout.runtime_store(scope) / name
        notices += refresh_parked(name, scope, None, runtime, layout, locked=True, folders=folders)
    return notices


def refresh_moved(
    skill: str, scope: Scope, source: Path, source_hash: str, layout: Layout
) -> list[Notice]:
    """Record what the store folder ``skill`` of ``scope`` (built from ``source``) holds now,
    ``source_hash`` as a build compiled it, in each installed route of ``scope`` that moved it
    there, while it is the folder moved (its recorded device and inode): a copy of the
    project gives it a new inode, and the route knows it again by what it holds
    (:func:`~skillc_index.route.manifest.is_ours`), which an edit of the user's own skill
    changed (``route install`` records it again; a build did not, and the copy called the
    skill ``missing``, ``uninstall`` forgot it). Each manifest is read again and written
    under the route folder's lock; a warning when they are not (a route command at work)."""
    import os

    from skillc_index.layout import SKILLC_DIR
    from skillc_index.route import ROUTES_DIR

    if scope not in layout.scopes():
        return []
    routes = layout.base(scope) / SKILLC_DIR / ROUTES_DIR
    moved = layout.store(scope) / skill
    if not routes.is_dir() or os.path.realpath(source) != os.path.realpath(moved):
        return []  # no route in the scope, or a skill built from elsewhere
    from skillc_index.route.manifest import folder_content, read_route_manifest
    from skillc_index.route.place import parking_roots, routes_lock

    content = folder_content(source_hash)
    try:
        agents = [agent for agent in parking_roots(layout, scope) if _stale_record(
            read_route_manifest(routes / f"{agent}.json"), skill, moved, content
        )]  # fmt: skip
        if agents:
            with routes_lock(routes, layout):
                for agent in agents:  # read again under the lock
                    _record_moved(routes / f"{agent}.json", agent, skill, moved, content)
        return []
    except (OSError, SkillcError) as exc:  # a route command holds the lock; a manifest not valid
        why = warning_reason(exc)
    where = layout.display(routes)
    return [Notice(f"the route's record of '{skill}' in {where} not refreshed: {why}")]


def refresh_routers(layout: Layout) -> list[Notice]:
    """Write again each installed route's router (every scope of ``layout``) whose text is
    not the one this skillc writes for its skills (:func:`~skillc_index.route.router_skill.
    router_text`, counting the manifest's records: an older skillc wrote it), as ``route
    install`` writes it (:func:`~skillc_index.route.router_skill.write_router`: assembled
    beside it, renamed in), its new digest recorded in the manifest: only a router of
    skillc's, as recorded (``ours``: never one edited since, nor a folder of the user's),
    looked at again under the route folder's lock, in the agent folder as checked
    (:class:`~skillc_index.route.place.RoutePins`). A build calls it once. A warning for each
    router not refreshed (a route command at work, a full disk)."""
    from skillc_index.layout import SKILLC_DIR
    from skillc_index.route import ROUTES_DIR

    scopes = [s for s in layout.scopes() if (layout.base(s) / SKILLC_DIR / ROUTES_DIR).is_dir()]
    if not scopes:
        return []  # no route: nothing to look at (a build imports no more route modules)
    from skillc_index.route.place import RoutePins, _routes, routes_lock

    notices: list[Notice] = []
    for place, recorded in _routes(layout, scopes):
        if _older_router(place.router, place.agent, place.scope, recorded) is None:
            continue
        try:
            with routes_lock(place.routes, layout), RoutePins(layout) as pins:
                _write_router(place, pins.agent(place))  # read again under the lock
            continue
        except (OSError, SkillcError) as exc:  # a route command holds the lock; a bad manifest
            why = warning_reason(exc)
        notices.append(Notice(f"the router {layout.display(place.router)} not refreshed: {why}"))
    return notices


def _older_router(
    router: Path, agent: str, scope: Scope, manifest: RouteManifest | None
) -> str | None:
    """The text this skillc writes for the router of the installed route ``manifest`` when
    the router at ``router`` is skillc's as recorded but holds another text, else None."""
    from skillc_index.route.router_skill import router_state_of, router_text, sha256_hex

    if manifest is None or manifest.state != "installed" or manifest.router_sha256 is None:
        return None
    text = router_text(len(manifest.records), agent, scope)
    if sha256_hex(text.encode("utf-8")) == manifest.router_sha256:
        return None
    return text if router_state_of(router, manifest.router_sha256) == "ours" else None


def _write_router(place: RoutePlace, folder: Pinned) -> None:
    """Write the router of ``place`` again in the agent folder ``folder``, then its digest
    in the manifest, while :func:`_older_router` says it is older (read again: the caller
    holds the route folder's lock)."""
    from skillc_index.route.manifest import read_route_manifest, write_route_manifest
    from skillc_index.route.router_skill import sha256_hex, write_router

    manifest = read_route_manifest(place.manifest)
    text = _older_router(place.router, place.agent, place.scope, manifest)
    if manifest is None or text is None:
        return
    write_router(folder, text)
    digest = sha256_hex(text.encode("utf-8"))
    write_route_manifest(place.manifest, place.agent, manifest._replace(router_sha256=digest))


def _stale_record(
    manifest: RouteManifest | None, skill: str, moved: Path, content: str
) -> MoveRecord | None:
    """The record of the installed route ``manifest`` of the skill folder ``skill`` moved to
    ``moved`` that does not record ``content``, while the folder there is the one moved (its
    device and inode: what it holds is ``content``, which the record does not hold), else
    None."""
    from skillc_index.route.manifest import identity_of

    if manifest is None or manifest.state != "installed":
        return None
    for record in manifest.records:
        if record.name == skill and record.kind == "folder" and record.content != content:
            return record if identity_of(moved) == (record.dev, record.ino) else None
    return None


def _record_moved(path: Path, agent: str, skill: str, moved: Path, content: str) -> None:
    """Write the manifest ``path`` with its stale record of ``skill`` (:func:`_stale_record`)
    as the folder ``moved`` is now, holding ``content``."""
    from skillc_index.route.manifest import read_route_manifest, seen, write_route_manifest

    manifest = read_route_manifest(path)
    stale = _stale_record(manifest, skill, moved, content)
    if manifest is None or stale is None:
        return
    records = tuple(
        seen(record, moved, content) if record == stale else record for record in manifest.records
    )
    write_route_manifest(path, agent, manifest._replace(records=records))


def _rewrite_all(
    stale: Mapping[Path, Manifest], built: Manifest | None, runtime: Path, layout: Layout
) -> list[Notice]:
    """:func:`_rewrite` each copy of ``stale`` (path -> its manifest) from the runtime's
    manifest ``built``, read once for all; a warning for each copy not refreshed."""
    from skillc_index.build.deploy import not_refreshed

    notices: list[Notice] = []
    for path, manifest in stale.items():
        try:
            why = _rewrite(path, manifest, built, runtime, path.parent.name)
        except OSError as exc:
            why = exc.strerror or str(exc)
        if why is not None:
            notices.append(not_refreshed(layout, path, why))
    return notices


def _rewrite(
    path: Path, manifest: Manifest, built: Manifest | None, runtime: Path, agent: str
) -> str | None:
    """Write the runtime's stub and manifest (``built``) into the parked copy ``path`` of
    skillc's own, whose manifest is ``manifest`` (for the target it records, else
    ``agent``'s); None when done, else why not."""
    from skillc_index.atomic import write_files_atomic
    from skillc_index.build.deploy import _is_stub_copy, copy_manifest
    from skillc_index.build.manifest import manifest_bytes, manifest_path

    if not _is_stub_copy(manifest):
        return "a copy for another dialect is refreshed once `skc route uninstall` puts it back"
    if built is None:  # none to write from (none read, or not one): as a missing file
        raise FileNotFoundError(manifest_path(runtime))
    recorded = manifest.extra.get("target")
    target = recorded if isinstance(recorded, str) else agent
    stub = (runtime / SKILL_FILE).read_bytes()
    data = manifest_bytes(copy_manifest(built, target, {}))
    # both or neither: a new stub beside the old manifest is no copy of skillc's any more
    write_files_atomic([(path / SKILL_FILE, stub, None), (manifest_path(path), data, None)])
    return None
