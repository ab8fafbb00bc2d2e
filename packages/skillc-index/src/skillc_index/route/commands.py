"""``route install`` and ``route status`` (:func:`route_install`, :func:`route_status`), each
a :class:`~skillc_index.route.result.RouteResult`, and the steps ``route uninstall``
(:mod:`skillc_index.route.uninstall`) shares with install: a move between the folders pinned,
the access log told of it, the checks before anything changes. How a route works is told in
:mod:`skillc_index.route`."""

from __future__ import annotations

import errno
import os
from collections.abc import Sequence
from pathlib import Path
from typing import TYPE_CHECKING

from skillc_index.command_errors import ForeignFolder, GitCannotTell
from skillc_index.diagnostics import Notice, SkillcError
from skillc_index.layout import Layout, ResolvedSkill
from skillc_index.programs import skc_missing
from skillc_index.route.manifest import (
    MoveRecord,
    RouteManifest,
    folder_content,
    is_ours,
    lexists,
    read_route_manifest,
    seen,
    write_route_manifest,
)
from skillc_index.route.place import (
    RoutePins,
    RoutePlace,
    check_agent_folder,
    made_by_route,
    parked_gone,
    parked_gone_notice,
    route_lock,
    route_place,
    routed_as,
)
from skillc_index.route.plan import (
    EntryPlan,
    behind,
    classify,
    folder_readers,
    holds_skill,
    not_moved,
    redeployed,
    scan_folder,
    unbuilt,
    why_not_built,
)
from skillc_index.route.result import (
    Action,
    FolderRoutedAs,
    RoutedElsewhere,
    RoutedSkill,
    RouteNotKnown,
    RouteResult,
    SkillLeft,
)
from skillc_index.route.router_skill import (
    ROUTER_NAME,
    router_staged,
    router_state_of,
    router_text,
    sha256_hex,
    write_router,
)
from skillc_index.route.runtimes import (
    remove_runtime,
    restore_runtime,
    runtime_of,
    runtimes_held,
    runtimes_to_build,
)

if TYPE_CHECKING:
    from skillc_index.config import Config
    from skillc_index.operation import Session
    from skillc_index.pinned import Pinned

__all__ = ["route_install", "route_status"]


# -- install --------------------------------------------------------------------------------


def _compile(
    place: RoutePlace, layout: Layout, config: Config, name: str
) -> tuple[ResolvedSkill, bool, str]:
    """Compile the store skill ``name``; returns its :class:`ResolvedSkill`, whether
    anything was (re)built and its source hash."""
    from skillc_index.build.compiler import compile_skill
    from skillc_index.build.skill import _check_source
    from skillc_index.layout import runtime_for

    source = Path(os.path.realpath(place.store / name))
    scope, runtime, in_store = runtime_for(source, layout)
    skill = ResolvedSkill(runtime.name, source, scope, runtime, in_store)  # the entry's name
    _check_source(source, name)
    compiled = compile_skill(skill, tokenizer_setting=config.tokenizer)
    return skill, not compiled.up_to_date, compiled.source_hash


def _move(origin: Pinned, destination: Pinned, name: str) -> None:
    """Move the entry ``name`` of ``origin`` to ``destination``, where the name must be free
    (looked at just before); both folders opened once (:class:`RoutePins`)."""
    origin.rename(name, destination, name, replace=False)


def _take_redeployed(
    agent: Pinned, record: MoveRecord, destination: Path, layout: Layout
) -> Path | None:
    """Remove the deployment of ``record``'s skill that :func:`redeployed` found at its
    place in the agent folder ``agent``, decided again once it is moved aside (one rename,
    in the folder checked): the entry removed is the one looked at, never a folder the user
    put there since the first look. None once removed; else what was there is renamed back
    and its path returned (the hidden backup's when its place was taken meanwhile)."""
    here = agent.path
    try:
        aside = agent.move_aside(record.name)
    except FileNotFoundError:  # gone meanwhile: its place is free
        return None
    except OSError:
        return here / record.name
    # read by path: only while the path leads to the folder opened, before and after
    if (
        agent.same(here)
        and redeployed(here / aside, record, destination, layout)
        and agent.same(here)
    ):
        agent.remove(aside)
        return None
    try:
        agent.rename(aside, agent, record.name, replace=False)
    except OSError:
        return here / aside
    return here / record.name


def _log_move(
    place: RoutePlace, layout: Layout, name: str, old: Path, new: Path, notices: list[Notice]
) -> None:
    """Record in the access log of the skill ``name`` that its folder moved from ``old``
    (gone now) to ``new``, as its rows name them (real paths): the uses logged under the old
    folder count as the new one's (:mod:`skillc_index.accesslog.moves`); no row is changed."""
    from skillc_index.accesslog.moves import record_move

    before = Path(os.path.realpath(old.parent)) / old.name
    after = Path(os.path.realpath(new))
    notice = record_move(layout, runtime_of(place, layout, name), before, after)
    if notice is not None:
        notices.append(notice)


def route_install(
    session: Session, agent: str = "claude", *, global_: bool = False, dry_run: bool = False
) -> RouteResult:
    """Put the skills of ``agent``'s folder (the home folder's with ``global_``) behind the
    router. Safe to repeat: a second run routes what was added since and finishes what an
    interrupted run left. Its warnings end with one when ``skc``, which the router (and the
    stubs behind it) tell agents to run, is not on ``PATH``. See :mod:`skillc_index.route`."""
    layout, config = session.layout, session.config
    place = route_place(layout, config, agent, global_)
    result, _ = _install(session, place)  # a dry run: a refusal is raised before any change
    if result.router is None:  # nothing to route: what the dry run found is the run's
        return result._replace(dry_run=dry_run)
    if not dry_run:
        # skillc's folders not there yet (the lock makes .skillc): uninstall removes them again
        absent = [f for f in made_by_route(place, layout) if not lexists(f)]
        with route_lock(place, layout), RoutePins(layout) as pins:
            try:  # the router first (a full disk fails there), renamed in last
                folder = pins.agent(place) if place.folder.is_dir() else None
                with router_staged(folder, place, result.routed) as staged:
                    result, gone = _install(session, place, absent=absent, pins=pins, staged=staged)
            except BaseException:  # stopped (Ctrl-C, an error) before its manifest: no
                if not lexists(place.manifest):  # route, nor the empty folders it made
                    from skillc_index.route.uninstall import _remove_empty

                    made = [os.path.relpath(folder, place.base) for folder in absent]
                    _remove_empty(place, layout, made)
                raise
        if gone is not None:  # no skill could be routed: nothing of the route is left
            from skillc_index.route.uninstall import _forget

            _forget(place, layout, gone)
    missing = skc_missing("the router")
    return result if missing is None else result._replace(notices=(*result.notices, missing))


def _not_routed_as_another(place: RoutePlace) -> None:
    """FolderRoutedAs (E100) when ``place``'s folder is routed under another agent's name
    (``agents`` and ``codex`` share ``.agents/skills``; one route per folder): install
    refuses it, and status and uninstall say it (status said "0 skills behind it" and that
    the router was edited, uninstall that nothing was routed). Folders are the same when
    their real paths are (one agent's may be a symlink to another's). An agent with a route
    of its own recorded goes on: two routes of one folder (made before the check compared
    real paths) are undone one by one."""
    if lexists(place.manifest):
        return
    other = routed_as(place)
    if other is not None:
        raise FolderRoutedAs(os.path.relpath(place.folder, place.base), other)


def _known_again(place: RoutePlace, layout: Layout, manifest: RouteManifest | None) -> None:
    """RouteNotKnown (E100), before anything changes, when entries are at the places the
    route recorded and none is what it moved (:func:`is_ours`), behind the router or back in
    the folder: forgetting them all removed the router and left the agent none of them."""
    records = manifest.records if manifest else ()
    places = [(place.destination(r.name, r.kind), place.folder / r.name) for r in records]
    if not any(lexists(there) for there, _ in places) or any(
        is_ours(r, there) or is_ours(r, here)
        for r, (there, here) in zip(records, places, strict=True)
    ):
        return
    raise RouteNotKnown(layout.display(place.manifest), len(records))


def _install(
    session: Session,
    place: RoutePlace,
    *,
    absent: Sequence[Path] = (),
    pins: RoutePins | None = None,
    staged: str | None = None,
) -> tuple[RouteResult, RouteManifest | None]:
    """The install, and the manifest it removed when no skill could be routed after all
    (every move failed, every skill moved was put back): then no router is written either.
    ``pins``: the folders it moves between (without them it is a dry run: what it would
    do, nothing changed); ``staged``: the router made ahead in the agent folder
    (:func:`router_staged`), which it renames in."""
    layout, config = session.layout, session.config
    dry_run = pins is None
    old = read_route_manifest(place.manifest)
    folder_rel = os.path.relpath(place.folder, place.base)
    if old is not None and old.folder != folder_rel:
        raise RoutedElsewhere(place.agent, old.folder, folder_rel)
    _not_routed_as_another(place)
    _known_again(place, layout, old)
    # what is behind the router already (at its recorded place, the recorded entry)
    routed = [
        record
        for record in (old.records if old else ())
        if is_ours(record, place.destination(record.name, record.kind))
    ]
    routed_names = {record.name for record in routed}
    plans: list[EntryPlan] = []
    left: list[SkillLeft] = []
    router_state = router_state_of(place.router, old.router_sha256 if old else None)
    if old is None and router_state == "edited":
        router_state = "other"  # no route of ours here: a router skillc never wrote
    scan = scan_folder(place)
    dialects = folder_readers(place, layout, config.targets)
    for name in scan.names:
        if name == ROUTER_NAME and router_state in ("ours", "edited"):
            continue
        try:
            found = classify(place, layout, name, routed_names, dialects)
        except OSError as exc:
            scan.skip(name, exc)
            continue
        if isinstance(found, SkillLeft):
            left.append(found)
        elif found is not None:
            plans.append(found)
    if plans:  # what git tracks stays: moving it would show as deleted (one git run)
        from skillc_index._git import GitUnanswered, tracked

        try:
            kept = tracked(place.folder, [plan.name for plan in plans]) or set()
        except GitUnanswered as exc:  # what git might track is not moved (fail closed)
            first = plans[0].name
            raise GitCannotTell(first, layout.display(place.folder / first), exc) from None
        left += [
            SkillLeft(plan.name, place.folder / plan.name, "tracked by git", "tracked by git")
            for plan in plans
            if plan.name in kept
        ]
        plans = [plan for plan in plans if plan.name not in kept]
    if (
        lexists(place.router)
        and router_state == "other"
        and ROUTER_NAME not in {plan.name for plan in plans}
    ):
        raise ForeignFolder(ROUTER_NAME, layout.display(place.router))
    notices = scan.warnings(place)
    if old is None and not plans:  # nothing routed, nothing to route: no router either
        return RouteResult(
            "install", place.agent, place.scope, place.folder, place.store, place.manifest,
            None, 0, (), tuple(left), dry_run, tuple(notices),
        ), None  # fmt: skip
    _check_writable(place, layout, plans, router_state)
    skills = [
        RoutedSkill(
            r.name, r.kind, place.folder / r.name, place.destination(r.name, r.kind), "routed"
        )
        for r in routed
    ]
    if router_state == "edited":
        notices.append(Notice(f"the router {place.router} was edited; it is left as it is"))
    if pins is None:  # a dry run
        skills += [
            RoutedSkill(p.name, p.kind, place.folder / p.name, behind(place, p), p.action)
            for p in plans
        ]
        count = sum(1 for s in skills if s.action != "unlinked")
        return RouteResult(
            "install", place.agent, place.scope, place.folder, place.store, place.manifest,
            place.router, count, tuple(skills), tuple(left), True, tuple(notices),
        ), None  # fmt: skip

    # 1. the manifest first: every move it may see is recorded before it happens, and every
    # runtime it will build where there is none (uninstall removes those)
    records = [*routed]
    records += [MoveRecord(p.name, p.kind, *p.identity) for p in plans if p.action != "unlinked"]
    router_sha = old.router_sha256 if old else None
    created = runtimes_to_build(
        place,
        layout,
        [record.name for record in records if record.kind == "folder"],
        old.runtimes if old else (),
    )
    moving = [p.name for p in plans if p.kind == "folder" and p.action != "unlinked"]
    held = runtimes_held(place, layout, moving, created, old.runtimes_held if old else {})
    made = (*(old.made if old else ()), *(os.path.relpath(f, place.base) for f in absent))
    made = tuple(dict.fromkeys(made))
    # the lines an earlier run added to .gitignore stay recorded (a run killed after this
    # write forgot them, and uninstall left them)
    ignored = old.gitignore if old else ()
    newline = old.gitignore_newline if old else False
    installing = RouteManifest(
        folder_rel, "installing", tuple(records), router_sha, created, held, made, ignored, newline
    )
    write_route_manifest(place.manifest, place.agent, installing)

    # 2. the moves, one rename each, in the folders checked (opened once)
    done: list[EntryPlan] = []
    for plan in plans:
        origin = place.folder / plan.name
        try:
            agent = pins.agent(place)
            entry = agent.lstat(plan.name)
            if entry is None or (entry.st_dev, entry.st_ino) != plan.identity:
                raise FileNotFoundError(errno.ENOENT, "changed while routing", str(origin))
            if plan.action == "unlinked":
                agent.remove(plan.name)  # a symlink, or a copy of skillc's own (checked above)
            else:
                _move(agent, pins.behind(place, plan.kind), plan.name)
                if plan.kind == "folder":
                    _log_move(place, layout, plan.name, origin, place.store / plan.name, notices)
        except OSError as exc:
            why = "on another file system" if exc.errno == errno.EXDEV else exc.strerror or str(exc)
            left.append(not_moved(plan.name, origin, why, layout))
            continue
        done.append(plan)

    # 3. compile what is in the store; one that does not compile goes back where it was
    failed: set[str] = set()
    hashes: dict[str, str] = {}  # what each compiled store skill holds (MoveRecord.content)
    new = {p.name for p in done}
    for record in [*routed, *(MoveRecord(p.name, p.kind, *p.identity) for p in done)]:
        if record.kind != "folder":
            continue
        try:
            skill, built, hashes[record.name] = _compile(place, layout, config, record.name)
        except (SkillcError, OSError) as exc:
            origin = place.folder / record.name
            source = Path(os.path.realpath(place.store / record.name))
            reason = why_not_built(exc, source, layout)[0]
            if record.name in new:
                try:
                    _move(pins.behind(place, "folder"), pins.agent(place), record.name)
                except OSError:
                    pass
                else:
                    _log_move(
                        place, layout, record.name, place.store / record.name, origin, notices
                    )
                    failed.add(record.name)
                    left.append(unbuilt(record.name, origin, exc, layout, source, put_back=True))
                    if record.name in created:  # what the failed build left of its runtime
                        remove_runtime(place, layout, record.name)
                    elif record.name in held:
                        restore_runtime(place, layout, record.name, held[record.name])
                    continue
            notices.append(Notice(f"routed skill '{record.name}' is not built: {reason}"))
            continue
        if built:
            args = {"global": place.scope == "global", "target": [], "copy": False, "force": False}
            session.log.record(layout, skill, "build", args)

    # 4. the router, counting what is behind it; the copies parked hold their runtime's build
    final = [
        seen(
            r,
            place.destination(r.name, r.kind),
            folder_content(hashes[r.name]) if r.name in hashes else None,
        )
        for r in records
        if r.name not in failed and is_ours(r, place.destination(r.name, r.kind))
    ]
    from skillc_index.route.parked import refresh_route

    notices += refresh_route(place.scope, [r.name for r in final if r.kind == "deployment"], layout)
    created = tuple(
        name for name in created if lexists(runtime_of(place, layout, name)) and name not in failed
    )
    if not final and not created and not lexists(place.router):  # no router for no skill
        place.manifest.unlink()
        gone = RouteManifest(folder_rel, "installed", (), None, (), {}, made, ignored, newline)
        return RouteResult(
            "install", place.agent, place.scope, place.folder, place.store, place.manifest,
            None, 0, (), tuple(left), False, tuple(notices),
        ), gone  # fmt: skip
    if router_state != "edited":
        text = router_text(len(final), place.agent, place.scope)
        router_sha = sha256_hex(text.encode("utf-8"))
        if router_state != "ours" or router_sha != (old.router_sha256 if old else None):
            if router_state_of(place.router, old.router_sha256 if old else None) in (
                "absent",
                "ours",
            ):
                write_router(pins.agent(place), text, staged)
            else:  # a skill of that name could not be moved away
                router_sha = old.router_sha256 if old else None
                notices.append(Notice(f"the router is not written: {place.router} is taken"))
    held = {name: entries for name, entries in held.items() if name not in failed}
    state = RouteManifest(
        folder_rel, "installed", tuple(final), router_sha, created, held, made, ignored, newline
    )
    if place.scope == "project":
        state = _ignore_route(place, layout, state, notices)
    write_route_manifest(place.manifest, place.agent, state)
    moved = {p.name: p for p in done}
    skills += [
        RoutedSkill(p.name, p.kind, place.folder / p.name, behind(place, p), p.action)
        for p in moved.values()
        if p.name not in failed
    ]
    return RouteResult(
        "install", place.agent, place.scope, place.folder, place.store, place.manifest,
        place.router, len(final), tuple(skills), tuple(left), False, tuple(notices),
    ), None  # fmt: skip


def _check_writable(
    place: RoutePlace, layout: Layout, plans: Sequence[EntryPlan], router_state: str
) -> None:
    """FolderNotWritable (E999), by the dry run as by the run and before anything changes,
    for a folder install must write: ``.skillc/router`` (the manifest), the agent folder (a
    move out of it, the router) and the store (a skill folder moved in); uninstall, the
    first two (``router_state`` "absent": the manifest and the moves back)."""
    from skillc_index.build.deploy import check_writable

    check_writable(place.routes, layout, "route folder")
    if plans or router_state == "absent":
        check_writable(place.folder, layout)
    if any(plan.kind == "folder" and plan.action == "moved" for plan in plans):
        check_writable(place.store, layout, "store")


def _ignore_route(
    place: RoutePlace, layout: Layout, state: RouteManifest, notices: list[Notice]
) -> RouteManifest:
    """Add to the project's ``.gitignore`` what route generates there, a line each, as
    ``init`` and ``build`` add theirs (:func:`~skillc_index.build.scaffold.ignore_folders`):
    ``/.skillc/router/`` (the manifest, device and inode numbers, parked deployments) and
    the router's folder, each by its real path, which git sees (not a ``.claude/skills``
    linking to ``.agents/skills``). Returns ``state`` with what this added (``.gitignore``
    in ``made`` when it made the file; whether it ended the file's last line first, which
    uninstall takes out again); an unwritable file, or git that cannot answer, is a warning."""
    from pathlib import PurePath

    from skillc_index.build.scaffold import GITIGNORE, ignore_folders
    from skillc_index.diagnostics import warning_reason

    base = os.path.realpath(place.base)
    generated = [
        PurePath(os.path.relpath(os.path.realpath(path), base)).as_posix()
        for path in (place.routes, place.router)
    ]
    try:
        added = ignore_folders(place.base, (), layout, generated=generated)
    except SkillcError as exc:
        why = warning_reason(exc)
        notices.append(Notice(f".gitignore not updated: {why}"))
        return state
    notices.extend(Notice(text) for text in added.unanswered)  # as init warns
    if not added.lines:
        return state
    return state._replace(
        made=(*state.made, GITIGNORE) if added.made else state.made,
        gitignore=tuple(dict.fromkeys((*state.gitignore, *added.lines))),
        gitignore_newline=state.gitignore_newline or added.newline,
    )


# -- status ---------------------------------------------------------------------------------


def route_status(session: Session, agent: str = "claude", *, global_: bool = False) -> RouteResult:
    """What is routed for ``agent``'s folder: each recorded skill (``routed``: behind the
    router; ``in-place``: back in the folder; ``missing``; ``gone``: a parked deployment
    whose store skill is gone, a warning saying how to remove it), the router, and in ``left`` the
    skills of the folder that are not behind it (added since: ``install`` routes them)."""
    layout, config = session.layout, session.config
    place = route_place(layout, config, agent, global_)
    _not_routed_as_another(place)
    manifest = read_route_manifest(place.manifest)
    if manifest is not None:
        place = place._replace(folder=place.base / manifest.folder)
        check_agent_folder(place, layout, place.folder)
    skills: list[RoutedSkill] = []
    notices: list[Notice] = []
    for record in manifest.records if manifest else ():
        origin = place.folder / record.name
        destination = place.destination(record.name, record.kind)
        gone = parked_gone(place, record, layout)
        if gone is not None:  # no agent loads it, the router counts it not
            action: Action = "gone"
            notices.append(parked_gone_notice(place, record, gone, layout))
        elif is_ours(record, destination):
            action = "routed"
        elif is_ours(record, origin):
            action = "in-place"
        else:
            action = "missing"
        skills.append(RoutedSkill(record.name, record.kind, origin, destination, action))
    router_state = router_state_of(place.router, manifest.router_sha256 if manifest else None)
    scan = scan_folder(place)
    left: list[SkillLeft] = []
    for name in scan.names:
        if name == ROUTER_NAME and router_state in ("ours", "edited"):
            continue
        try:
            if holds_skill(place.folder / name):
                why = "not behind the router"
                left.append(SkillLeft(name, place.folder / name, why, why))
        except OSError as exc:
            scan.skip(name, exc)
    notices[:0] = scan.warnings(place)
    if router_state == "edited":
        notices.append(Notice(f"the router {place.router} was edited since skillc wrote it"))
    return RouteResult(
        "status", place.agent, place.scope, place.folder, place.store, place.manifest,
        place.router if router_state in ("ours", "edited") else None,
        sum(1 for skill in skills if skill.action == "routed"),
        tuple(skills), tuple(left), False, tuple(notices),
    )  # fmt: skip
