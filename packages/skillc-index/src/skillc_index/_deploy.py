"""Deployment from the runtime (SSOT) into agent folders (RFC-0001:C-DEPLOYMENT, ADR-0002).

Each target gets ``<agent folder>/<name>``: a symlink to the runtime (the default), or with
``copy`` a folder holding a copy of the stub (``SKILL.md``) and of the manifest
(``.skillc-meta/manifest.json``, which marks the folder as skillc's own). Where a symlink
cannot be created, a copy is made and a warning returned.

What may be replaced at a destination: a symlink (always, RFC-0001), a copy made by an
earlier ``--copy`` build of the same skill (nothing in it but what skillc put there), and
anything else only with ``force``. Every conflict is found by :func:`plan_deployments`
before the build writes anything.
"""

from __future__ import annotations

import os
from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import Literal

from skillc_index._atomic import ensure_dir, staging_dir, temporary_path
from skillc_index._diagnostics import InvalidOption, Notice, SkillExists
from skillc_index._layout import META_DIR, SKILL_FILE, Layout, Scope
from skillc_index._manifest import MANIFEST_FILE, manifest_path, read_manifest

__all__ = ["DeployPlan", "Deployment", "deploy", "parse_targets", "plan_deployments"]

Existing = Literal["nothing", "symlink", "skillc-copy", "other"]
Method = Literal["symlink", "copy"]
DeployAction = Literal["created", "replaced", "unchanged"]


@dataclass(frozen=True)
class DeployPlan:
    """One destination and what is there now."""

    target: str
    path: Path
    existing: Existing


@dataclass(frozen=True)
class Deployment:
    """One deployment done."""

    target: str
    path: Path
    method: Method
    action: DeployAction

    def to_dict(self) -> dict[str, str]:
        return {
            "target": self.target,
            "path": str(self.path),
            "method": self.method,
            "action": self.action,
        }


def parse_targets(values: Sequence[str]) -> list[str]:
    """``["claude,cursor", "codex"]`` -> ``["claude", "cursor", "codex"]`` (duplicates
    dropped); ``["claude"]`` when nothing is given. E100 for an empty name."""
    targets: list[str] = []
    for value in values:
        for part in value.split(","):
            name = part.strip()
            if not name:
                raise InvalidOption(f"empty target name in --target '{value}'")
            if name not in targets:
                targets.append(name)
    return targets or ["claude"]


def _is_skillc_copy(path: Path, skill: str) -> bool:
    """A folder holding nothing but what a ``--copy`` deployment of ``skill`` writes."""
    try:
        names = {entry.name for entry in os.scandir(path)}
        meta = path / META_DIR
        meta_names = {entry.name for entry in os.scandir(meta)} if meta.is_dir() else set()
    except OSError:
        return False
    if names != {SKILL_FILE, META_DIR} or meta_names != {MANIFEST_FILE}:
        return False
    manifest = read_manifest(path)
    return manifest is not None and manifest.skill == skill


def _existing(path: Path, skill: str) -> Existing:
    if path.is_symlink():
        return "symlink"
    if not path.exists():
        return "nothing"
    if path.is_dir() and _is_skillc_copy(path, skill):
        return "skillc-copy"
    return "other"


def _inside(path: Path, folder: Path) -> bool:
    return path == folder or folder in path.parents


def plan_deployments(
    targets: Sequence[str],
    *,
    skill: str,
    scope: Scope,
    runtime: Path,
    source: Path,
    layout: Layout,
    configured: Mapping[str, str] | None = None,
    force: bool = False,
) -> list[DeployPlan]:
    """Resolve each target to ``<agent folder>/<skill>`` and check what is there.

    Raises :class:`InvalidOption` (E100) for an unknown target or a destination inside the
    skill's own source or runtime, and :class:`SkillExists` (E050) for a destination holding
    something skillc did not put there, unless ``force``.
    """
    plans: list[DeployPlan] = []
    seen: set[Path] = set()
    for target in targets:
        root = layout.target_root(target, scope, configured)
        path = root / skill
        real = Path(os.path.realpath(path.parent)) / skill
        if real in seen:
            continue
        seen.add(real)
        for folder in (runtime, source):
            if _inside(real, Path(os.path.realpath(folder))):
                raise InvalidOption(
                    f"target '{target}' would deploy into the skill's own folder "
                    f"({layout.display(real)})"
                )
        existing = _existing(path, skill)
        if existing == "other" and not force:
            raise SkillExists(
                skill,
                f"{layout.display(path)} exists and was not made by skillc; "
                "use --force to replace it",
            )
        plans.append(DeployPlan(target, path, existing))
    return plans


def _remove(path: Path) -> None:
    if path.is_symlink() or not path.is_dir():
        path.unlink()
    else:
        import shutil

        shutil.rmtree(path)


def _copy_into(path: Path, runtime: Path) -> None:
    """A fresh ``--copy`` folder at ``path`` (built beside it, then renamed in)."""
    import shutil

    staging = staging_dir(path.parent, f"{path.name}.deploy")
    try:
        shutil.copyfile(runtime / SKILL_FILE, staging / SKILL_FILE)
        (staging / META_DIR).mkdir()
        shutil.copyfile(manifest_path(runtime), manifest_path(staging))
        if path.exists() or path.is_symlink():
            _remove(path)
        staging.replace(path)
    finally:
        shutil.rmtree(staging, ignore_errors=True)


def _link(path: Path, runtime: Path) -> None:
    """Point ``path`` at the runtime: a symlink made beside it, renamed over the old one."""
    temporary = temporary_path(path.parent, f"{path.name}.link")
    temporary.symlink_to(runtime, target_is_directory=True)
    try:
        if path.is_dir() and not path.is_symlink():
            _remove(path)  # a skillc copy, or a folder replaced with --force
        temporary.replace(path)
    except BaseException:
        temporary.unlink(missing_ok=True)
        raise


def deploy(
    plan: DeployPlan, runtime: Path, *, copy: bool = False
) -> tuple[Deployment, Notice | None]:
    """Carry out one planned deployment of ``runtime``; returns it and a warning, if any."""
    path = plan.path
    ensure_dir(path.parent)
    action: DeployAction = "created" if plan.existing == "nothing" else "replaced"
    if not copy:
        if plan.existing == "symlink" and str(path.readlink()) == str(runtime):
            return Deployment(plan.target, path, "symlink", "unchanged"), None
        try:
            _link(path, runtime)
            return Deployment(plan.target, path, "symlink", action), None
        except OSError as exc:
            notice = Notice(
                f"cannot create a symlink at {path} ({exc.strerror or exc}); copied instead"
            )
    else:
        notice = None
    _copy_into(path, runtime)
    return Deployment(plan.target, path, "copy", action), notice
