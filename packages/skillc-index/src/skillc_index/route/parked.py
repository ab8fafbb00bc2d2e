"""The ``--copy`` stubs parked behind a router (``<base>/.skillc/router/<agent>/<name>``),
kept holding their runtime's build (:func:`refresh_parked`): a build of the skill and
``route install`` refresh them where they are, so that ``route uninstall`` puts back the
stub agents should load, not the one an older build (an older skillc) wrote; ``list`` calls
the skill ``stale`` while one holds another build
(:func:`~skillc_index.build.deploy.stale_copies` over the parking folders).
"""

from __future__ import annotations

import contextlib
from collections.abc import Collection
from pathlib import Path
from typing import TYPE_CHECKING

from skillc_index.diagnostics import SkillcError
from skillc_index.layout import SKILL_FILE

if TYPE_CHECKING:
    from skillc_index.build.agent_folders import AgentFolders
    from skillc_index.layout import Layout, Scope

__all__ = ["refresh_parked", "refresh_route"]


def refresh_parked(
    skill: str,
    scope: Scope,
    source: Path,
    runtime: Path,
    layout: Layout,
    *,
    locked: bool = False,
    folders: AgentFolders | None = None,
) -> list[tuple[Path, str]]:
    """Refresh, where it is, each copy of ``skill`` (built from ``source``) parked behind a
    router of ``scope`` that holds another build than ``runtime``: the runtime's stub and
    its manifest, written into the folder together (both or neither), which stays (the
    route's manifest knows it by its device and inode). Under the route folder's lock
    (``locked``: the caller holds it), and only a copy of skillc's own as ``--copy`` writes
    it, looked at again under the lock (:func:`~skillc_index.build.deploy.is_skillc_copy`:
    never a file of the user's). ``folders``: the scope's parking folders, when the caller
    has them. Returns the copies not refreshed, each with why (a target's own copy, for
    another dialect: the build after ``route uninstall`` refreshes it)."""
    from skillc_index.build.agent_folders import AgentFolders
    from skillc_index.build.deploy import stale_copies
    from skillc_index.diagnostics import format_diagnostic
    from skillc_index.route.place import parking_roots, routes_lock

    if folders is None:
        folders = AgentFolders.of_roots(parking_roots(layout, scope))
    failed: list[tuple[Path, str]] = []
    for path in stale_copies(skill, source, runtime, folders):
        lock = contextlib.nullcontext() if locked else routes_lock(path.parent.parent, layout)
        try:
            with lock:
                why = _rewrite(path, skill, runtime, path.parent.name)
        except OSError as exc:
            why = exc.strerror or str(exc)
        except SkillcError as exc:  # a route command holds the lock
            why = format_diagnostic(exc.diagnostic).splitlines()[0]
        if why is not None:
            failed.append((path, why))
    return failed


def refresh_route(
    parking: Path, scope: Scope, names: Collection[str], layout: Layout
) -> list[tuple[Path, str]]:
    """``route install``'s :func:`refresh_parked` (the caller holds the lock) of the copies
    parked in ``parking`` under ``names``, each against the runtime of the build it is a
    copy of: the one of ``scope`` (a build deploys into its own scope's agent folders)."""
    from skillc_index.build.agent_folders import AgentFolders
    from skillc_index.build.manifest import read_manifest
    from skillc_index.route.place import parking_roots

    folders = AgentFolders.of_roots(parking_roots(layout, scope))  # read once for all
    failed: list[tuple[Path, str]] = []
    for name in names:
        path = parking / name
        manifest = None if path.is_symlink() else read_manifest(path)
        source = None if manifest is None else manifest.extra.get("source_path")
        if manifest is not None and isinstance(source, str):
            runtime = layout.runtime_store(scope) / manifest.skill
            failed += refresh_parked(
                manifest.skill, scope, Path(source), runtime, layout, locked=True, folders=folders
            )
    return failed


def _rewrite(path: Path, skill: str, runtime: Path, agent: str) -> str | None:
    """Write the runtime's stub and manifest into the parked copy ``path`` (for the target
    its manifest records, else ``agent``'s); None when done or nothing is to be done (it
    holds the build, or it is not skillc's copy any more), else why not."""
    from skillc_index.atomic import write_files_atomic
    from skillc_index.build.deploy import _holds, _is_stub_copy, copy_manifest, is_skillc_copy
    from skillc_index.build.manifest import manifest_bytes, manifest_path, read_manifest

    manifest = read_manifest(path)
    if manifest is None or not is_skillc_copy(path, skill, manifest):
        return None  # moved back, or changed since: not skillc's to write
    if not _is_stub_copy(manifest):
        return "a copy for another dialect is refreshed once `skc route uninstall` puts it back"
    recorded = manifest.extra.get("target")
    target = recorded if isinstance(recorded, str) else agent
    if _holds(path, runtime, target):
        return None
    stub = (runtime / SKILL_FILE).read_bytes()
    built = manifest_bytes(copy_manifest(runtime, target, {}))
    # both or neither: a new stub beside the old manifest is no copy of skillc's any more
    write_files_atomic([(path / SKILL_FILE, stub, None), (manifest_path(path), built, None)])
    return None
