"""Importing a skill given by a path into a source store (ADR-0001, ADR-0002, RFC-0007 ``build``).

``skc build ./somewhere/my-skill`` copies the folder to ``<store>/my-skill`` (the project store
inside a project, else the global store; the global store with ``--global``) and builds that
copy. The copy holds the skill's files as :func:`~skillc_index._files.walk_skill` sees them:
hidden names are left out and symlinks (which stay inside the skill) become regular files.

An existing store copy is never replaced without ``force``, unless it already holds exactly
the same files (same source hash): then the import is a no-op. A path that is itself in a
store is never imported. The new copy is assembled in a hidden temporary folder of the store
and renamed into place, so a store never holds half a skill.
"""

from __future__ import annotations

import os
from dataclasses import dataclass
from pathlib import Path
from typing import Literal

from skillc_index._atomic import staging_dir
from skillc_index._diagnostics import SkillExists
from skillc_index._files import SkillFiles, source_hash
from skillc_index._layout import SKILL_FILE, Layout, ResolvedSkill

__all__ = ["ImportPlan", "in_a_store", "perform_import", "plan_import"]

ImportAction = Literal["copy", "replace", "unchanged"]


@dataclass(frozen=True)
class ImportPlan:
    """What importing a path will do (decided before anything is written)."""

    origin: Path
    """Canonical path of the folder given on the command line."""
    destination: Path
    """``<store>/<name>``."""
    action: ImportAction
    files: SkillFiles

    def imported(self, skill: ResolvedSkill) -> ResolvedSkill:
        """``skill`` as it resolves once the import is done: from the store copy."""
        source = Path(os.path.realpath(self.destination))
        return ResolvedSkill(skill.name, source, skill.scope, skill.runtime, True)


def in_a_store(source: Path, layout: Layout) -> bool:
    """Whether a canonical source folder sits directly in the project or the global store."""
    stores = [layout.store(scope) for scope in layout.scopes()]
    return any(source.parent == Path(os.path.realpath(store)) for store in stores)


def _is_empty_folder(path: Path) -> bool:
    try:
        return path.is_dir() and not path.is_symlink() and not any(path.iterdir())
    except OSError:
        return False


def plan_import(
    skill: ResolvedSkill, layout: Layout, files: SkillFiles, *, force: bool
) -> ImportPlan:
    """Decide how ``skill`` (found by path, outside the stores) goes into its scope's store.

    Raises :class:`SkillExists` (E050) when the store already holds a different skill of that
    name and ``force`` is not given.
    """
    destination = layout.store(skill.scope) / skill.name
    origin = skill.source
    hint = (
        f"the {skill.scope} store already holds a different '{skill.name}' "
        f"({layout.display(destination)}); use --force to replace it with "
        f"{layout.display(origin)}"
    )
    if not destination.exists() and not destination.is_symlink():
        return ImportPlan(origin, destination, "copy", files)
    if destination.is_symlink() and os.path.realpath(destination) == str(origin):
        return ImportPlan(origin, destination, "unchanged", files)
    if (
        destination.is_dir()
        and not destination.is_symlink()
        and (destination / SKILL_FILE).is_file()
        and source_hash(destination) == source_hash(origin, files.files)
    ):
        return ImportPlan(origin, destination, "unchanged", files)
    if _is_empty_folder(destination):
        return ImportPlan(origin, destination, "replace", files)
    if not force:
        raise SkillExists(skill.name, hint)
    return ImportPlan(origin, destination, "replace", files)


def perform_import(plan: ImportPlan) -> None:
    """Copy the files into a temporary folder of the store, then rename it into place
    (the previous copy, if any, is removed only once the new one is complete)."""
    if plan.action == "unchanged":
        return
    import shutil

    store = plan.destination.parent
    name = plan.destination.name
    staging = staging_dir(store, f"{name}.import")
    try:
        made = {staging}
        for rel in plan.files.files:
            target = staging / rel
            if target.parent not in made:
                target.parent.mkdir(parents=True, exist_ok=True)
                made.update((target.parent, *target.parent.parents))
            shutil.copy2(plan.origin / rel, target)  # keeps mtimes: as old as its source
        if plan.destination.is_symlink() or plan.destination.is_file():
            plan.destination.unlink()
        if not plan.destination.is_dir():
            staging.replace(plan.destination)
            return
        old = staging_dir(store, f"{name}.old", sweep=False)  # may hold the only copy
        plan.destination.replace(old / name)
        try:
            staging.replace(plan.destination)
        except OSError:
            (old / name).replace(plan.destination)  # put the previous copy back
            old.rmdir()
            raise
        shutil.rmtree(old, ignore_errors=True)
    finally:
        shutil.rmtree(staging, ignore_errors=True)
