"""What skillc deployed into agent folders: the store skill an entry stands for
(:func:`deployed_source`), and the router of ``skc route`` (:data:`ROUTER_MARK`), which is
no skill of the inventory. Standard library only (a copy's manifest is read on demand)."""

from __future__ import annotations

import os
from pathlib import Path
from typing import TYPE_CHECKING

from skillc_index.layout import META_DIR, SKILL_FILE, Layout

if TYPE_CHECKING:
    from skillc_index.build.manifest import Manifest
    from skillc_index.layout import Scope

__all__ = ["ROUTER_MARK", "ROUTER_NAME", "copied_from", "deployed_source"]

#: The file in the router skill's folder (``skc route``) that marks it as skillc's: the
#: inventory (and so ``skc find``) does not hold the router itself.
ROUTER_MARK = ".skillc-router.json"
#: The router skill's folder name in the agent folder (and its ``name``): only a folder of
#: that name holding :data:`ROUTER_MARK` is the router (a skill shipping the mark is found).
ROUTER_NAME = "skill-router"


def deployed_source(
    real: str, layout: Layout, *, copy: bool | None = None, gone: bool = False, strict: bool = False
) -> str | None:
    """The store skill a skill that skillc deployed into an agent folder stands for (the real
    path of its folder), else None. ``real`` is the real path of the agent folder's entry: a
    deployed link resolves to ``<base>/.skillc/runtime/<name>``, whose source is
    ``<base>/.skillc/skills/<name>``; a deployed copy (``skc build --copy``) holds
    ``.skillc-meta/`` and its manifest names its store skill, looked for in the project store
    first when the copy is inside the project, else in the global store first (then, for a
    copy in a home agent folder, the project skill its manifest's ``source_path`` names, as
    for the global runtime: ``build --global --copy``); it stands for
    that skill only while it holds nothing but what skillc wrote there (the stub and side
    files its manifest records, unedited: :func:`~skillc_index.build.deploy.is_skillc_copy`),
    so a folder of a checkout with a manifest of its own never passes for another skill that
    the agent does not load. ``copy``:
    whether ``real`` holds ``.skillc-meta/``, when the caller knows (None: look). A source
    without a SKILL.md is none, unless ``gone``: a deployment's source is then named all
    the same (its runtime, or skillc's copy, stands for a skill that is no longer there): a
    link's ``<base>/.skillc/skills/<name>``, a copy's in the store of its first scope; for
    the global runtime and a copy in a home agent folder, the project skill its manifest's
    ``source_path`` names (built ``--global``: its project may have moved). The inventory,
    ``skc find`` and resolution by path all use this. With ``strict``, a copy whose manifest
    is there but cannot be read or is not valid (too large, too deep: a stranger's) raises
    :class:`ValueError` or :class:`OSError` (the entry is skipped and counted) instead of
    standing for no source."""
    head, _, name = real.rpartition("/")
    if head.endswith("/.skillc/runtime"):
        source = f"{head[: -len('/runtime')]}/skills/{name}"
        if os.path.isfile(f"{source}/{SKILL_FILE}"):  # noqa: PTH113
            return os.path.realpath(source)  # (a store's link: the folder it leads to)
        if head == str(layout.runtime_store("global")):
            from skillc_index.build.manifest import read_manifest, recorded_source

            manifest = read_manifest(Path(real))
            built = _built_globally(manifest, name)
            if built is not None:
                return built
            if gone:  # a project skill built --global names its own store skill
                return recorded_source(manifest, name) or source
        if gone:
            return source
    if copy is None:
        copy = os.path.isdir(f"{real}/{META_DIR}")  # noqa: PTH112
    if not copy:
        return None
    from skillc_index.build.manifest import load_manifest, read_manifest, recorded_source

    manifest = load_manifest(Path(real)) if strict else read_manifest(Path(real))
    if manifest is None or "/" in manifest.skill or manifest.skill in ("", ".", ".."):
        return None
    from skillc_index.build.deploy import is_skillc_copy

    if not is_skillc_copy(Path(real), manifest.skill, manifest):
        return None
    scopes = _scopes_of(real, layout)
    for scope in scopes:
        store_skill = layout.store(scope) / manifest.skill
        if (store_skill / SKILL_FILE).is_file():
            return os.path.realpath(store_skill)
        if scope == "global" and _in_home_agent_folder(real, layout):
            built = _built_globally(manifest, manifest.skill)
            if built is not None:
                return built
    if not gone:
        return None
    home_copy = scopes[0] == "global" and _in_home_agent_folder(real, layout)
    recorded = recorded_source(manifest, manifest.skill) if home_copy else None
    return recorded or str(layout.store(scopes[0]) / manifest.skill)


def copied_from(real: str, name: str, layout: Layout) -> Path:
    """The runtime a copy deployment (at the real path ``real``) of the store skill ``name``
    was copied from: the project runtime's for a copy inside the project, else the global
    runtime's (:func:`deployed_source`'s first scope)."""
    return layout.runtime_store(_scopes_of(real, layout)[0]) / name


def _scopes_of(real: str, layout: Layout) -> list[Scope]:
    """The scopes whose stores a copy at ``real`` is looked for in: the project's first for
    a copy inside the project, else the global one first."""
    scopes = list(layout.scopes())
    root = layout.project_root
    if root is None or not real.startswith(f"{root}/"):
        scopes.reverse()
    return scopes


def _in_home_agent_folder(real: str, layout: Layout) -> bool:
    """Whether ``real`` is an entry of a built-in agent folder of the home folder (where
    ``skc build --global --copy`` deploys; no checkout writes there, as for the global
    runtime)."""
    from skillc_index.targets import KNOWN_TARGETS

    parent = os.path.dirname(real)  # noqa: PTH120
    folders = {str(layout.home / target.home) for target in KNOWN_TARGETS.values()}
    folders |= {  # and where a variable moved an agent's (``$CLAUDE_CONFIG_DIR/skills``)
        str(target.folder("global", layout.home, layout.home, layout))
        for target in KNOWN_TARGETS.values()
        if target.own_home is not None
    }
    return parent in folders or parent in {os.path.realpath(folder) for folder in folders}


def _built_globally(manifest: Manifest | None, name: str) -> str | None:
    """The project store skill that ``skc build --global`` built into the global runtime or a
    copy of it in a home agent folder (the only deployments whose source may sit in another
    base's store), as their ``manifest``'s ``source_path`` names it: a store skill of that
    name that is there; else None. Read only for those, which no checkout writes."""
    from skillc_index.build.manifest import recorded_source

    built_from = recorded_source(manifest, name)
    if built_from is None or not os.path.isfile(f"{built_from}/{SKILL_FILE}"):  # noqa: PTH113
        return None
    return os.path.realpath(built_from)
