"""The places a route concerns (:class:`RoutePlace`): the agent folder, the store of the same
scope, ``<base>/.skillc/router/`` with the manifest and the parked deployments, and the
router's place; the checks that each really lies within the project or the home folder
(symlinks followed), the lock a command holds while it changes them, and the links of other
agents' folders a route must not leave dangling (:func:`linked_from`).
"""

from __future__ import annotations

import contextlib
import os
import re
from collections.abc import Collection, Iterator, Sequence
from pathlib import Path
from typing import TYPE_CHECKING, NamedTuple

from skillc_index.atomic import ensure_dir
from skillc_index.diagnostics import Notice, SkillcError
from skillc_index.files import inside
from skillc_index.layout import SKILLC_DIR, Layout, Scope
from skillc_index.option_errors import UnknownTarget
from skillc_index.route import ROUTES_DIR
from skillc_index.route.manifest import MoveRecord, RouteManifest, read_route_manifest
from skillc_index.route.result import Kind, NoProjectToRoute, RouteBusy, RouteOutside
from skillc_index.route.router_skill import ROUTER_NAME
from skillc_index.targets import agent_targets

if TYPE_CHECKING:
    from skillc_index.config import Config
    from skillc_index.pinned import Pinned

__all__ = [
    "AGENT_NAME",
    "ROUTES_DIR",
    "RoutePins",
    "RoutePlace",
    "Routed",
    "check_agent_folder",
    "check_inside",
    "install_command",
    "linked_from",
    "made_by_route",
    "parked_gone",
    "parked_gone_all",
    "parked_gone_notice",
    "parking_folders",
    "parking_roots",
    "route_lock",
    "route_place",
    "routed_as",
    "routed_names",
    "routes_lock",
    "routes_of_folders",
]

#: A name an agent of ``[targets]`` may have to be routed (it names the manifest file).
AGENT_NAME = re.compile(r"[A-Za-z0-9][A-Za-z0-9_.-]*\Z")


def install_command(agent: str, scope: Scope) -> str | None:
    """``skc route install`` of the folder of target ``agent`` in ``scope`` (``-t cursor``,
    ``--global`` for the home folder's), as the program running spells it: what a listing
    over its budget is told to run; None for a ``[targets]`` name route does not take."""
    if not AGENT_NAME.match(agent):
        return None
    from skillc_index.helppage import program_command

    scoped = " --global" if scope == "global" else ""
    return program_command(f"route install -t {agent}{scoped}")


class RoutePlace(NamedTuple):
    """The folders of one agent's route in one scope."""

    agent: str
    scope: Scope
    base: Path
    folder: Path
    store: Path
    routes: Path
    """``<base>/.skillc/router``."""

    @property
    def manifest(self) -> Path:
        return self.routes / f"{self.agent}.json"

    @property
    def parking(self) -> Path:
        return self.routes / self.agent

    @property
    def router(self) -> Path:
        return self.folder / ROUTER_NAME

    def destination(self, name: str, kind: Kind) -> Path:
        return (self.store if kind == "folder" else self.parking) / name


def route_place(layout: Layout, config: Config, agent: str, global_: bool) -> RoutePlace:
    """The agent folder, store and manifest of ``agent`` in the scope; refuses (E100) an
    unknown agent, a project scope outside any project, any of them leading outside the
    project (or home) folder, and an agent folder that the project's own config sets
    (``[targets]``) outside the project, in either scope (``build`` refuses it too)."""
    scope: Scope = "global" if global_ else "project"
    if scope == "project" and layout.project_root is None:
        raise NoProjectToRoute(in_home=layout.cwd == layout.home)
    known = agent_targets(config.targets)
    if agent not in known or not AGENT_NAME.match(agent):
        raise UnknownTarget(agent, tuple(sorted(name for name in known if AGENT_NAME.match(name))))
    base = layout.base(scope)
    folder = known[agent].folder(scope, base, layout.home, layout)
    if folder is None:  # a home-only ("~/...") target asked for in the project
        has_one = (name for name, target in known.items() if target.project is not None)
        raise UnknownTarget(agent, tuple(sorted(has_one)))
    if agent in config.project_targets:  # a checkout's entry: inside the project, as for build
        from skillc_index.files import within

        project = layout.project_root
        if project is None or not within(folder, project):
            real = os.path.realpath(folder)
            problem = f"of the project's config leads outside the project, to {real}"
            raise RouteOutside("agent folder", layout.display(folder), problem)
    place = RoutePlace(
        agent,
        scope,
        base,
        folder,
        layout.store(scope),
        base / SKILLC_DIR / ROUTES_DIR,
    )
    checked = (
        ("store", place.store),
        ("runtime folder", layout.runtime_store(scope)),
        ("route folder", place.routes),
        ("parking folder", place.parking),  # a checkout's .skillc/router/<agent> link
    )
    for what, path in checked:
        check_inside(place, layout, what, path)
    check_agent_folder(place, layout, place.folder)
    return place


def check_inside(place: RoutePlace, layout: Layout, what: str, path: Path) -> str:
    """RouteOutside (E100) unless ``path`` really (symlinks followed) is in the base; its
    real path, as checked."""
    real = os.path.realpath(path)
    if not inside(real, os.path.realpath(place.base)):
        where = "project" if place.scope == "project" else "home folder"
        raise RouteOutside(what, layout.display(path), f"leads outside the {where}, to {real}")
    return real


def check_agent_folder(place: RoutePlace, layout: Layout, folder: Path) -> str:
    """The agent folder must be in the base, and not in skillc's own folder; its real path,
    as checked."""
    real = check_inside(place, layout, "agent folder", folder)
    if inside(real, os.path.realpath(place.base / SKILLC_DIR)):
        raise RouteOutside("agent folder", layout.display(folder), "is inside skillc's own folder")
    return real


class RoutePins:
    """The folders a route command moves skills between, each checked (:func:`check_inside`,
    :func:`check_agent_folder`) and opened over the real path checked when first used
    (:class:`~skillc_index.pinned.Pinned`): every move, link and removal then happens in the
    folder checked, whatever its path leads to meanwhile (an agent folder swapped for a
    symlink out of the project received the skills uninstall put back). One swapped before
    it is opened is RouteOutside (E100), nothing moved. Closed at the end of a ``with``."""

    def __init__(self, layout: Layout) -> None:
        self.layout = layout
        self.opened: dict[Path, Pinned] = {}

    def __enter__(self) -> RoutePins:
        return self

    def __exit__(self, *_exc: object) -> None:
        for folder in self.opened.values():
            folder.close()

    def agent(self, place: RoutePlace) -> Pinned:
        """The agent folder (made when missing: skills go back into it)."""
        return self._open(place, "agent folder", place.folder)

    def behind(self, place: RoutePlace, kind: Kind) -> Pinned:
        """Where a skill of ``kind`` is behind the router: the store, or the parking folder
        (made when missing)."""
        if kind == "folder":
            return self._open(place, "store", place.store)
        return self._open(place, "parking folder", place.parking)

    def _open(self, place: RoutePlace, what: str, path: Path) -> Pinned:
        if path not in self.opened:
            from skillc_index.pinned import Pinned

            if what == "agent folder":
                real = check_agent_folder(place, self.layout, path)
            else:
                real = check_inside(place, self.layout, what, path)
            try:
                self.opened[path] = Pinned.at(real, make=True, shown=path)
            except OSError as exc:  # a folder of it swapped for a symlink since the check
                why = f"changed while it was routed ({exc.strerror or exc})"
                raise RouteOutside(what, self.layout.display(path), why) from None
        return self.opened[path]


def route_lock(place: RoutePlace, layout: Layout) -> contextlib.AbstractContextManager[None]:
    """Hold an exclusive ``flock`` on the route folder while the command changes things
    (another route command of this scope gets :class:`RouteBusy`): :func:`routes_lock`."""
    return routes_lock(place.routes, layout)


@contextlib.contextmanager
def routes_lock(routes: Path, layout: Layout) -> Iterator[None]:
    """Hold an exclusive ``flock`` on the route folder ``routes`` (``<base>/.skillc/router``)
    while it changes (a route command, a build refreshing a parked copy): another holder
    gets :class:`RouteBusy`; unlocked where there is no ``flock``."""
    try:
        import fcntl
    except ImportError:  # pragma: no cover - Windows
        yield
        return
    ensure_dir(routes)
    fd = os.open(routes, os.O_RDONLY | getattr(os, "O_DIRECTORY", 0))
    try:
        try:
            fcntl.flock(fd, fcntl.LOCK_EX | fcntl.LOCK_NB)
        except BlockingIOError:
            raise RouteBusy(layout.display(routes)) from None
        except OSError:  # a file system without flock: run unlocked
            pass
        yield
    finally:
        os.close(fd)


def routed_as(place: RoutePlace) -> str | None:
    """Another agent whose recorded route is of this very folder, else None (a manifest that
    cannot be read is E999: what is routed cannot be known). Folders are compared as real
    paths: ``.claude/skills`` may be a link to ``.agents/skills``."""
    real = os.path.realpath(place.folder)
    for agent, recorded in _recorded(place.routes, strict=True):
        if agent != place.agent and os.path.realpath(place.base / recorded.folder) == real:
            return agent
    return None


def linked_from(layout: Layout, path: Path) -> str | None:
    """An entry of the same name as ``path`` that links to it (symlinks followed), in an agent
    folder (of the project's and the home's) or in an agent's parking folder
    ``.skillc/router/<agent>/`` (a parked link read from the agent folder it came from, where
    it goes back): what moving or removing ``path`` would leave dangling (an ``npx skills
    add`` link in ``.claude/skills`` to a folder of ``.agents/skills``, a ``skc build`` of
    another agent's to a runtime install built). None when there is none."""
    from skillc_index.build.deploy import link_target
    from skillc_index.inventory.folders import agent_folders

    real = os.path.realpath(path)
    found: list[tuple[Path, Path | None]] = [
        (root.path / path.name, None) for root in agent_folders(layout, None, nested=False)
    ]
    found += [(parking / path.name, folder) for parking, folder, _ in parking_folders(layout)]
    for entry, folder in found:
        with contextlib.suppress(OSError):  # a folder that cannot be read holds no link known
            if entry.is_symlink() and link_target(entry, folder) == real:
                return layout.display(entry)
    return None


def parking_folders(
    layout: Layout, scopes: Sequence[Scope] | None = None
) -> Iterator[tuple[Path, Path, str]]:
    """Each agent's parking folder of each scope (``scopes``: default all), with the agent
    folder its manifest names and the agent (one that cannot be read is left out: it holds
    nothing that can be read back)."""
    for place, _ in _routes(layout, layout.scopes() if scopes is None else scopes):
        yield place.parking, place.folder, place.agent


def _routes(
    layout: Layout, scopes: Sequence[Scope], unread: list[SkillcError] | None = None
) -> Iterator[tuple[RoutePlace, RouteManifest]]:
    """Each route of ``scopes`` recorded (its place, the agent folder its manifest names, and
    its manifest); one whose manifest cannot be read is left out (its E999 put in ``unread``
    when given)."""
    for scope in scopes:
        base = layout.base(scope)
        routes = base / SKILLC_DIR / ROUTES_DIR
        for agent, recorded in _recorded(routes, unread=unread):
            folder = base / recorded.folder
            yield RoutePlace(agent, scope, base, folder, layout.store(scope), routes), recorded


def _recorded(
    routes: Path, *, strict: bool = False, unread: list[SkillcError] | None = None
) -> Iterator[tuple[str, RouteManifest]]:
    """Each agent's route manifest in the route folder ``routes`` (``<agent>.json``), by
    agent name; one that cannot be read is left out (``strict``: E999; else its E999 put in
    ``unread`` when given)."""
    try:
        names = sorted(os.listdir(routes))  # noqa: PTH208
    except OSError:
        return
    for name in names:
        agent = name.removesuffix(".json")
        if agent == name or not AGENT_NAME.match(agent):
            continue
        try:
            recorded = read_route_manifest(routes / name)
        except SkillcError as exc:
            if strict:
                raise
            if unread is not None:
                unread.append(exc)
            continue
        if recorded is not None:
            yield agent, recorded


class Routed(NamedTuple):
    """One route of an agent folder, as what reads the folder meets it
    (:func:`routes_of_folders`)."""

    place: RoutePlace
    router: Path | None
    """The router skill in the agent folder (its folder holds
    :data:`~skillc_index.inventory.deployed.ROUTER_MARK`), None when it is not there."""
    sources: tuple[str, ...]
    """The store skills behind the router, each by the real path of its folder, as the
    inventory names a skill's source: a skill folder the route moved into the store, the
    store skill a deployment it parked stands for
    (:func:`~skillc_index.inventory.deployed.deployed_source`, a parked link read from the
    agent folder it came from); each at its recorded place
    (:func:`~skillc_index.route.manifest.is_ours`) and leading into the route's base (a
    manifest a checkout ships may name another project's skill, as
    :func:`~skillc_index.accesslog.moves.routed_moves` refuses too), in the manifest's order."""


def routes_of_folders(
    layout: Layout, folders: Collection[Path]
) -> tuple[list[Routed], list[SkillcError]]:
    """Each route of ``layout``'s scopes whose agent folder is one of ``folders`` (real paths
    compared: the folders an agent reads, :func:`~skillc_index.inventory.folders.
    folders_of_agent`), with its router and the skills behind it: what that agent meets
    through the router (``skc eval`` scores them); and the E999 of each route manifest that
    cannot be read, whose skills cannot be known."""
    from skillc_index.build.deploy import link_target
    from skillc_index.files import inside, real_path
    from skillc_index.inventory.deployed import ROUTER_MARK, deployed_source
    from skillc_index.route.manifest import is_ours

    wanted = {os.path.realpath(folder) for folder in folders}
    global_runtime = real_path(layout.runtime_store("global"))
    unread: list[SkillcError] = []
    found: list[Routed] = []
    for place, recorded in _routes(layout, layout.scopes(), unread):
        if os.path.realpath(place.folder) not in wanted:
            continue
        sources: list[str] = []
        base = real_path(place.base)
        for record in recorded.records:
            at = place.destination(record.name, record.kind)
            if not is_ours(record, at):
                continue
            # (a parked link's text is read from the agent folder)
            real = link_target(at, place.folder) if record.kind != "folder" else None
            real = real or os.path.realpath(at)
            if not inside(real, base):  # a manifest a checkout ships may name any folder
                continue
            source = real if record.kind == "folder" else deployed_source(real, layout)
            source = None if source is None else os.path.realpath(source)
            # its store skill too (`skills/s -> /elsewhere`), but what `build --global` built
            if source is not None and not (inside(source, base) or inside(real, global_runtime)):
                continue
            if source is not None and source not in sources:
                sources.append(source)
        router = place.router if (place.router / ROUTER_MARK).is_file() else None
        found.append(Routed(place, router, tuple(sources)))
    return found, unread


def routed_names(layout: Layout, scope: Scope) -> dict[str, Path]:
    """The skills behind a router of ``scope``, each with the agent folder routed: those a
    route recorded whose entry is at its place (the store folder moved there, or the
    deployment parked; :func:`~skillc_index.route.manifest.is_ours`); none for a scope
    ``layout`` has not. Read once for a batch of builds
    (:func:`~skillc_index.build.defaults.default_targets`): such a skill is built into the
    store, not deployed to the agent folder again (that undid the route)."""
    from skillc_index.route.manifest import is_ours

    if scope not in layout.scopes():
        return {}
    found: dict[str, Path] = {}
    for place, recorded in _routes(layout, [scope]):
        for record in recorded.records:
            if record.name not in found and is_ours(
                record, place.destination(record.name, record.kind)
            ):
                found[record.name] = place.folder
    return found


def parked_gone(place: RoutePlace, record: MoveRecord, layout: Layout) -> str | None:
    """Why the deployment ``record`` parked behind ``place``'s router (at its place there:
    :func:`~skillc_index.route.manifest.is_ours`) stands for a store skill that is gone
    (renamed or deleted since ``route install`` parked it), in the listing's words
    (:func:`~skillc_index.inventory.entries.deployment_gone`: how to remove it); None for a
    folder moved into the store, one not at its place, or one whose skill is there. No agent
    loads it: ``route status`` calls it ``gone``, ``route uninstall`` does not put it back
    (an agent would list a skill that is not there), ``skc list`` warns of it."""
    from skillc_index.build.deploy import link_target
    from skillc_index.inventory.entries import deployment_gone
    from skillc_index.route.manifest import is_ours

    parked = place.destination(record.name, record.kind)
    if record.kind != "deployment" or not is_ours(record, parked):
        return None
    real = link_target(parked, place.folder)  # (None: skillc's copy, read where it is)
    return deployment_gone(str(parked), layout, real)


def parked_gone_notice(place: RoutePlace, record: MoveRecord, why: str, layout: Layout) -> Notice:
    """The warning of ``route status`` and ``skc list`` of the deployment ``record`` parked
    behind ``place``'s router whose store skill is gone (``why``: :func:`parked_gone`)."""
    return Notice(
        f"{layout.display(place.destination(record.name, record.kind))} (parked) is {why}"
    )


def parked_gone_all(layout: Layout) -> Iterator[Notice]:
    """The warning of each deployment parked behind a router of ``layout``'s scopes whose
    store skill is gone (:func:`parked_gone`, :func:`parked_gone_notice`): ``skc list``'s."""
    for place, recorded in _routes(layout, layout.scopes()):
        for record in recorded.records:
            why = parked_gone(place, record, layout)
            if why is not None:
                yield parked_gone_notice(place, record, why, layout)


def parking_roots(layout: Layout, scope: Scope) -> dict[str, Path]:
    """The parking folders of ``scope``'s routes (:func:`parking_folders`), by agent: none
    for a scope ``layout`` has not (a project scope outside any project)."""
    scopes = [scope] if scope in layout.scopes() else []
    return {agent: folder for folder, _, agent in parking_folders(layout, scopes)}


def made_by_route(place: RoutePlace, layout: Layout) -> tuple[Path, ...]:
    """skillc's folders a route install makes where there are none, deepest first: the store,
    the runtime store and ``.skillc`` itself (of the home folder); the manifest records
    those install made (``made``), and uninstall removes each once it is empty again."""
    return (place.store, layout.runtime_store(place.scope), place.base / SKILLC_DIR)
