"""The runtimes ``route install`` builds (issue 34): each skill it moves into the store is
compiled into ``<runtime store>/<name>``; ``uninstall`` removes the ones install created, and
only those, once their skill is back in the agent folder.

Which runtimes install created is recorded in the route manifest (``runtimes``) *before* they
are built (:func:`runtimes_to_build`: the names whose runtime is not there), so a killed run
loses no record and a runtime that was there before install (a build of the user's, the
access log of reads through the agent folder) is never one of them. A runtime whose skill is
still behind the router, or whose name the store holds again (another skill), is kept.

A runtime that was there before install is recorded with what it held then
(:func:`runtimes_held`); uninstall takes out of it what install added (the stub, the
manifest, the store skill's index: :func:`restore_runtime`), so the skill read through the
agent folder again finds its runtime as it was, never a stub of a store skill that is gone.

Removing a runtime (:func:`remove_runtime`) removes the folder skillc made: the stub, the
manifest, the search indexes. Its access log goes too, unless agents used the skill while it
was routed (rows of :data:`~skillc_index.accesslog.USE_COMMANDS`: usage nobody may have
uploaded to a team store yet): then the log, and only it, stays. A runtime that is a symlink
or not a folder is not skillc's to remove.
"""

from __future__ import annotations

import contextlib
import os
import shutil
from collections.abc import Collection, Iterable, Iterator, Mapping
from pathlib import Path
from typing import NamedTuple

from skillc_index.atomic import abandoned
from skillc_index.diagnostics import Notice
from skillc_index.files import within
from skillc_index.layout import META_DIR, Layout
from skillc_index.route.manifest import MoveRecord, RouteManifest, lexists
from skillc_index.route.place import RoutePlace, linked_from
from skillc_index.route.result import RoutedSkill

__all__ = [
    "RuntimeRemoval",
    "remove_built_runtimes",
    "remove_runtime",
    "restore_runtime",
    "runtime_of",
    "runtimes_held",
    "runtimes_to_build",
]


class RuntimeRemoval(NamedTuple):
    """A runtime install built, removed by uninstall (or, in a dry run, that would be)."""

    path: Path
    kept_log: Path | None
    """Its access log, kept: agents used the skill while it was routed (a dry run does not
    look)."""
    error: str | None = None
    """Why it could not be removed (what is left of it stays)."""


def runtime_of(place: RoutePlace, layout: Layout, name: str) -> Path:
    """The runtime of the store skill ``name`` of the route's scope (RFC-0007)."""
    return layout.runtime_store(place.scope) / name


def runtimes_to_build(
    place: RoutePlace, layout: Layout, names: Iterable[str], recorded: Iterable[str]
) -> tuple[str, ...]:
    """The runtimes install creates: those ``recorded`` already, and each of ``names`` (the
    skills it compiles) whose runtime is not there now."""
    created = list(dict.fromkeys(recorded))
    for name in names:
        if name not in created and not lexists(runtime_of(place, layout, name)):
            created.append(name)
    return tuple(created)


def runtimes_held(
    place: RoutePlace,
    layout: Layout,
    names: Iterable[str],
    created: Iterable[str],
    recorded: Mapping[str, tuple[str, ...]],
) -> dict[str, tuple[str, ...]]:
    """What each runtime install will compile into that is there already holds: those
    ``recorded`` already (by the run that first saw them), and each of ``names`` whose
    runtime is a folder there now, not one install ``created``."""
    held = dict(recorded)
    skip = set(created)
    for name in names:
        runtime = runtime_of(place, layout, name)
        if name in held or name in skip or runtime.is_symlink() or not runtime.is_dir():
            continue
        with contextlib.suppress(OSError):
            held[name] = tuple(sorted(rel for rel, _ in _entries(runtime)))
    return held


def _entries(runtime: Path) -> Iterator[tuple[str, bool]]:
    """The entries of ``runtime`` (relative; those of its ``.skillc-meta/`` folder as
    ``.skillc-meta/<name>``), each with whether it is a folder (not a link to one)."""
    for entry in os.scandir(runtime):
        is_dir = entry.is_dir(follow_symlinks=False)
        if entry.name == META_DIR and is_dir:
            for inner in os.scandir(entry.path):
                yield f"{META_DIR}/{inner.name}", inner.is_dir(follow_symlinks=False)
        else:
            yield entry.name, is_dir


def remove_runtime(
    place: RoutePlace, layout: Layout, name: str, *, dry_run: bool = False
) -> RuntimeRemoval | None:
    """Remove the runtime install built for ``name`` (see the module); None when there is
    nothing of skillc's to remove (gone already, a symlink, not a folder, or leading out of
    the runtime store)."""
    from skillc_index.accesslog import primary_log
    from skillc_index.accesslog.store import holds_use

    runtime = runtime_of(place, layout, name)
    if not within(runtime, layout.runtime_store(place.scope)):
        return None
    if not dry_run:  # the folders a build killed during install left (skillc's own)
        for staging in abandoned(runtime.parent, f"{runtime.name}.build"):
            shutil.rmtree(staging, ignore_errors=True)
    if runtime.is_symlink() or not runtime.is_dir():
        return None
    if dry_run:  # the log is not opened: reading it could leave its WAL files behind
        return RuntimeRemoval(runtime, None)
    log = primary_log(runtime)
    kept = log if holds_use(log) else None
    try:
        if kept is None:
            shutil.rmtree(runtime)
        else:
            _remove_all_but(runtime, log)
    except OSError as exc:
        return RuntimeRemoval(runtime, kept, exc.strerror or str(exc))
    return RuntimeRemoval(runtime, kept)


def _remove_all_but(runtime: Path, log: Path, held: Collection[str] = ()) -> None:
    """Empty ``runtime`` of everything but the access log ``log`` (and its WAL files) and
    the entries ``held`` (as :func:`_entries` names them)."""
    from skillc_index.accesslog.schema import DB_FILES

    keep = {*held, *(f"{META_DIR}/{log.name}{suffix}" for suffix in DB_FILES)}
    for rel, is_dir in list(_entries(runtime)):
        if rel not in keep:
            _remove(runtime / rel, is_dir)


def restore_runtime(
    place: RoutePlace, layout: Layout, name: str, held: Collection[str]
) -> str | None:
    """Take out of the runtime of ``name``, there before install, what install added: each
    entry not ``held`` then (the stub, the manifest, the store skill's index), but its access
    log (uses of the skill while it was routed). Returns why it could not, or None."""
    from skillc_index.accesslog import primary_log

    runtime = runtime_of(place, layout, name)
    if not within(runtime, layout.runtime_store(place.scope)):
        return None
    if runtime.is_symlink() or not runtime.is_dir():
        return None
    try:
        _remove_all_but(runtime, primary_log(runtime), held)
    except OSError as exc:
        return exc.strerror or str(exc)
    return None


def _remove(path: Path, is_dir: bool) -> None:
    if is_dir:
        shutil.rmtree(path)
    else:
        path.unlink()


def remove_built_runtimes(
    place: RoutePlace,
    layout: Layout,
    manifest: RouteManifest,
    skills: list[RoutedSkill],
    remaining: list[MoveRecord],
    notices: list[Notice],
    *,
    dry_run: bool,
) -> tuple[tuple[Path, ...], tuple[str, ...], dict[str, tuple[str, ...]]]:
    """Remove the runtimes install built (``manifest.runtimes``), and take out of those that
    were there before (``manifest.runtimes_held``) what install added, once their skill is
    back in the agent folder: not behind the router any more, and no skill of that name in
    the store (one that changed in the store, or came since, has its own use of the
    runtime). Returns the runtimes removed (or, in a dry run, that would be; a dry run
    changes none), and the names still recorded in each list."""
    behind = {record.name for record in remaining}
    back = {s.name for s in skills if s.kind == "folder" and s.action in ("restored", "in-place")}
    removed: list[Path] = []
    kept: list[str] = []
    kept_held = {name: held for name, held in manifest.runtimes_held.items() if name in behind}
    for name, held in manifest.runtimes_held.items():
        if dry_run or name in behind or lexists(place.store / name):
            continue  # the store holds a skill of that name: its runtime is that skill's
        if _deployed(place, layout, name, notices):
            continue
        error = restore_runtime(place, layout, name, held)
        if error is not None:
            runtime = runtime_of(place, layout, name)
            notices.append(Notice(f"the runtime {runtime} was not restored ({error})"))
    for name in manifest.runtimes:
        if name in behind:
            kept.append(name)
            continue
        if lexists(place.store / name) and not (dry_run and name in back):
            continue  # the store holds a skill of that name: its runtime is that skill's
        if _deployed(place, layout, name, notices):
            continue
        outcome = remove_runtime(place, layout, name, dry_run=dry_run)
        if outcome is None:
            continue
        if outcome.error is not None:
            notices.append(Notice(f"the runtime {outcome.path} was not removed ({outcome.error})"))
            continue
        removed.append(outcome.path)
        if outcome.kept_log is not None:
            notices.append(
                Notice(
                    f"kept the access log {outcome.kept_log}: agents used '{name}' while it "
                    "was routed"
                )
            )
    return tuple(removed), tuple(kept), kept_held


def _deployed(place: RoutePlace, layout: Layout, name: str, notices: list[Notice]) -> bool:
    """Whether an agent folder's entry, or an agent's parked one, links to the runtime of
    ``name``: a build deployed it meanwhile (removed or changed, that one broke; a warning
    says it is kept)."""
    linked = linked_from(layout, runtime_of(place, layout, name))
    if linked is not None:
        notices.append(Notice(f"kept the runtime of '{name}': {linked} links to it"))
        return True
    return False
