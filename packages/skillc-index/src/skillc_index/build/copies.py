"""The copies of skillc's own in agent folders (RFC-0001:C-DEPLOYMENT): what one is
(:func:`is_skillc_copy`: nothing in it but what a copy deployment writes, unedited) and the
copies made before (:func:`copy_deployments`): a build refreshes, besides the targets it is
given, every copy of skillc's own of the skill in the agent folders of its scope (an earlier
``--copy``, or a target reading another dialect), so that no agent keeps loading an older
build; it creates none, and ``list`` calls the skill ``stale`` while one of them holds another
build than the runtime (:func:`stale_copies`). A copy's manifest records the target it was
written for (``target``), and a refresh writes it for that target again: a folder several
targets share (``.agents/skills``, a ``.claude/skills`` linked to it) keeps its dialect.
Asked with the runtime, :func:`copy_deployments` gives the links to it too (a build plans
them again: a link shows the source's frontmatter, so a target whose dialect now changes
something gets a copy) and the copies edited since skillc wrote them (never written: a
build says it leaves them out of date, :func:`edited_copy`).
:mod:`skillc_index.build.deploy` gives these functions too.
"""

from __future__ import annotations

import os
from collections.abc import Collection, Mapping
from pathlib import Path
from typing import Literal, NamedTuple

from skillc_index.build.agent_folders import AgentFolders
from skillc_index.build.manifest import MANIFEST_FILE, Manifest, read_manifest, recorded_source
from skillc_index.diagnostics import Notice
from skillc_index.digests import file_sha256
from skillc_index.layout import META_DIR, SKILL_FILE, Layout, Scope

__all__ = [
    "Copy",
    "copy_deployments",
    "deployed_targets",
    "edited_copy",
    "is_skillc_copy",
    "not_refreshed",
    "same_build",
    "stale_copies",
]


class Copy(NamedTuple):
    """A copy of skillc's own made before (:func:`copy_deployments`)."""

    targets: tuple[str, ...]
    """The targets it may be refreshed as: the one its manifest records and those it was
    written for too, else every target sharing its folder."""
    recorded: bool
    """Whether its manifest records the target it was written for (not guessed)."""
    kind: Literal["copy", "link", "edited"] = "copy"
    """``link``: a link to the runtime (its targets: every target sharing its folder);
    ``edited``: a copy skillc wrote from this source, edited since (never refreshed)."""


def is_skillc_copy(path: Path, skill: str, manifest: Manifest | None = None) -> bool:
    """A folder holding nothing but what a copy deployment of ``skill`` writes: a manifest of
    that skill, the very stub that manifest records (its SHA-256) and, for a target reading
    another dialect, the side files it records (``target_files``: path -> SHA-256), as regular
    files. Decided from what skillc wrote, not from names: a folder edited since is not it.
    Each file is hashed as it is read (a stranger's 300 MB ``SKILL.md`` costs no memory).
    ``manifest``: the folder's, when the caller has read it."""
    meta = path / META_DIR
    try:
        names = {entry.name for entry in os.scandir(path)}
        if META_DIR not in names or meta.is_symlink():
            return False
        meta_names = {entry.name for entry in os.scandir(meta)}
        stub = path / SKILL_FILE
        if meta_names != {MANIFEST_FILE} or stub.is_symlink() or not stub.is_file():
            return False
        manifest = read_manifest(path) if manifest is None else manifest
        if manifest is None or manifest.skill != skill:
            return False
        recorded = manifest.extra.get("target_files", {})
        if not isinstance(recorded, dict) or not all(
            isinstance(rel, str) and isinstance(digest, str) for rel, digest in recorded.items()
        ):
            return False
        tops = {rel.split("/", 1)[0] for rel in recorded}
        if names != {SKILL_FILE, META_DIR, *tops} or _files_under(path, tops) != set(recorded):
            return False
        hashes = {SKILL_FILE: manifest.extra.get("stub_sha256"), **recorded}
        return all(file_sha256(str(path / rel)) == digest for rel, digest in hashes.items())
    except OSError:
        return False


def _files_under(path: Path, tops: Collection[str]) -> set[str] | None:
    """The regular files under ``path``'s entries ``tops`` (relative paths), or None when one
    of them is a symlink or anything but a folder or a regular file."""
    found: set[str] = set()
    pending = [*tops]
    while pending:
        rel = pending.pop()
        full = path / rel
        if full.is_symlink():
            return None
        if full.is_dir():
            pending.extend(f"{rel}/{entry.name}" for entry in os.scandir(full))
        elif full.is_file():
            found.add(rel)
        else:
            return None
    return found


def _copies(
    skill: str, source: Path | None, folders: AgentFolders, runtime: Path | None = None
) -> dict[Path, tuple[Copy, Manifest | None]]:
    """:func:`copy_deployments`, each copy with its manifest (read once; None for a link);
    ``source`` None: whatever source each copy records. ``runtime``: the links to it and the
    copies edited since skillc wrote them too (:attr:`Copy.kind`)."""
    found: dict[Path, tuple[Copy, Manifest | None]] = {}
    real_source: str | None = None
    real_runtime = None if runtime is None else os.path.realpath(runtime)
    for path, targets in folders.holding(skill).items():
        if path.is_symlink():  # a link to the runtime: its manifest is the runtime's
            if real_runtime is not None and _leads_to(path, real_runtime):
                found[path] = (Copy(targets, False, "link"), None)
            continue
        manifest = read_manifest(path)
        built_from = None if manifest is None else manifest.extra.get("source_path")
        if manifest is None or not isinstance(built_from, str):
            continue
        if source is not None:
            real_source = os.path.realpath(source) if real_source is None else real_source
            if os.path.realpath(built_from) != real_source and not _source_gone(manifest, skill):
                continue
        recorded, shared = manifest.extra.get("target"), manifest.extra.get("shared")
        also = [name for name in shared if name in targets] if isinstance(shared, list) else []
        held = Copy((recorded, *also), True) if recorded in targets else Copy(targets, False)
        if is_skillc_copy(path, skill, manifest):
            found[path] = (held, manifest)
        elif real_runtime is not None and manifest.skill == skill:
            found[path] = (held._replace(kind="edited"), manifest)
    return found


def _leads_to(link: Path, real_runtime: str) -> bool:
    """Whether the symlink ``link`` leads to the runtime whose real path is ``real_runtime``."""
    from skillc_index.build.deploy import link_target

    return link_target(link) == real_runtime


def _source_gone(manifest: Manifest, skill: str) -> bool:
    """Whether the store skill ``skill`` a copy's ``manifest`` records as its source is gone:
    its project (or the home) moved since, or it was deleted. Such a copy in the agent
    folders of a scope is the copy of that scope's skill of the name (a copy of another
    project's skill, still there, is not)."""
    recorded = recorded_source(manifest, skill)
    return recorded is not None and not os.path.isfile(f"{recorded}/{SKILL_FILE}")  # noqa: PTH113


def copy_deployments(
    skill: str,
    scope: Scope,
    source: Path,
    layout: Layout,
    configured: Mapping[str, str] | None = None,
    *,
    runtime: Path | None = None,
) -> dict[Path, Copy]:
    """The copies of skillc's own of ``skill`` (:func:`is_skillc_copy`) built from ``source``
    (their manifest's ``source_path``, or a store skill of the name that is gone, the project
    moved: not another project's skill of that name) in the agent
    folders its scope deploys into (:class:`AgentFolders`), path -> the targets it may be
    refreshed as: the one its manifest records (``target``, the copy's since this was
    written) and those it was written for too (``shared``, of a folder several targets given
    share: :mod:`skillc_index.build.readers`), else every target sharing its folder (one,
    unless a folder is shared: an older copy, :attr:`Copy.recorded` false). A copy in a
    folder given as a path is not looked for: a build refreshes it when the path is given
    again. With ``runtime`` (a build), the links to it too, each with every target sharing
    its folder (a build plans them again, as ``build --all`` does: a link shows the source's
    frontmatter, so one whose target's dialect now changes something becomes a copy), and
    the copies of skillc's built from ``source`` edited since (``edited``: a build leaves
    them as they are, and says so: :func:`edited_copy`)."""
    copies = _copies(skill, source, AgentFolders(scope, layout, configured), runtime)
    return {path: held for path, (held, _) in copies.items()}


def deployed_targets(
    skill: str,
    scope: Scope,
    source: Path,
    runtime: Path,
    layout: Layout,
    configured: Mapping[str, str] | None = None,
) -> tuple[str, ...]:
    """The targets ``skill`` is deployed to in the agent folders of ``scope``: each folder
    holding a link to ``runtime`` (every target sharing that folder: the build deploys it
    once, as the one keeping the most fields, :mod:`skillc_index.build.readers`) or a
    copy of skillc's own built from ``source`` (:func:`copy_deployments`: the target it
    records, and those it records it was written for too), in the order of the targets.
    What ``build --all`` builds a skill for when it is given no target: the targets it was
    built for, not the default one over them."""
    found: dict[str, None] = {}
    for held in copy_deployments(
        skill, scope, source, layout, configured, runtime=runtime
    ).values():
        if held.kind == "link":  # every target of its folder: the build deploys the one
            found.update(dict.fromkeys(held.targets))  # keeping the most fields
        elif held.kind == "copy":  # the targets it was written for, else the first sharing it
            found.update(dict.fromkeys(held.targets if held.recorded else held.targets[:1]))
    return tuple(found)


def same_build(here: Manifest | None, there: Manifest | None) -> bool:
    """Whether a copy's manifest ``here`` records the build of the runtime's ``there``."""
    if here is None or there is None:
        return False
    return (here.built_at, here.source_hash) == (there.built_at, there.source_hash)


def stale_copies(
    skill: str, source: Path | None, runtime: Path, folders: AgentFolders
) -> tuple[dict[Path, Manifest], Manifest | None]:
    """The copies of :func:`copy_deployments` (in ``folders``, a scope's agent folders; of
    any source with ``source`` None) that hold another build than ``runtime``'s (made before
    its last build, by a build that did not refresh them), each with its manifest; and the
    runtime's manifest, read only when there is a copy (None when not read, or it cannot be),
    which a refresh of them all writes from (:func:`copy_manifest`)."""
    copies = _copies(skill, source, folders)
    built = read_manifest(runtime) if copies else None
    stale = {
        path: here
        for path, (_, here) in copies.items()
        if here is not None and not same_build(here, built)
    }
    return stale, built


def not_refreshed(layout: Layout, path: Path, why: str, what: str = "copy") -> Notice:
    """The warning of a copy made before (``what``: or a link to the runtime) that a build
    could not refresh (when it was planned, or written; one parked behind a router): the
    build was not asked to deploy there, so it goes on."""
    return Notice(f"{what} {layout.display(path)} not refreshed: {why}")


def edited_copy(
    layout: Layout, path: Path, held: Copy, built: Manifest | None, skill: str, scope: Scope
) -> Notice | None:
    """The warning of a copy skillc wrote, edited since (``held``: :func:`copy_deployments`'s,
    kind ``edited``), that holds another build than the runtime's (``built``, its manifest):
    the build leaves it as it is (an edited file is never overwritten without consent), so
    its agent reads the older build; the warning says how to take the new one: the command
    that builds ``skill`` in its ``scope`` (``--global`` for a global build: without it, the
    project's agent folders) for the copy's target with ``--force``, as the program running
    spells it. None when it holds the runtime's build (nothing to refresh)."""
    if same_build(read_manifest(path), built):
        return None
    from shlex import quote

    from skillc_index.helppage import program_command

    scoped = " --global" if scope == "global" else ""
    target = quote(held.targets[0])
    command = program_command(f"build {quote(skill)}{scoped} --target {target} --force")
    return not_refreshed(
        layout,
        path,
        "edited since skillc wrote it (left as it is: its agent reads the older build); "
        f"run {command} to move it aside and deploy the new build",
    )
