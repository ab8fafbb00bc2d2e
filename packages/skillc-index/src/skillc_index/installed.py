"""What is installed: the agent skills folders skillc knows, project and home, the skills of
installed Claude Code plugins, and the folders ``skc find`` searches.

One table (:data:`KNOWN_TARGETS`: each agent's project and home folder) for deploy targets,
``skc find`` (which skills an agent may be given) and ``skc list --budget`` (what an agent's
skill listing costs). Public module: the gateway's catalog and skillc-index's listing both
read it. Standard library only.
"""

from __future__ import annotations

import os
from collections.abc import Mapping
from pathlib import Path
from typing import TYPE_CHECKING, Any, Literal, NamedTuple

from skillc_index.layout import (
    KNOWN_TARGETS,
    META_DIR,
    SKILL_FILE,
    AgentTarget,
    Layout,
    Scope,
    agent_targets,
)

if TYPE_CHECKING:
    from skillc_index.config import Config

__all__ = [
    "KNOWN_TARGETS",
    "MAX_PLUGIN_RECORDS_BYTES",
    "ROUTER_MARK",
    "ROUTING_ROOTS_VARIABLE",
    "AgentFolder",
    "AgentTarget",
    "Root",
    "agent_folders",
    "agent_targets",
    "deployed_source",
    "plugin_skill_folders",
    "routing_roots",
    "search_roots",
    "trusted_targets",
]

#: The file in the router skill's folder (``skc route``) that marks it as skillc's: ``skc find``
#: does not list the router itself.
ROUTER_MARK = ".skillc-router.json"


class AgentFolder(NamedTuple):
    """One agent skills folder: ``<project root or working directory>/<rel>`` (scope
    ``project``) or ``<home>/<rel>`` (scope ``global``)."""

    agent: str
    """The target name (``claude``, ``agents``, a ``[targets]`` name from config)."""
    scope: Scope
    path: Path
    """Absolute, not resolved: the folder as the agent names it (it may not exist)."""


def trusted_targets(layout: Layout, config: Config) -> dict[str, str]:
    """The config's ``[targets]`` that the commands reading agent folders (``find``, ``list
    --budget``, ``stats``) take: every one of the home config, and of the project's own
    ``config.toml`` only those whose folder is really inside the project. A checkout is
    somebody else's: its ``evil = "/"`` must not make every ``skc find`` walk the disk, as it
    may not make a build write there."""
    targets = dict(config.targets)
    project = layout.project_root
    untrusted = [name for name in config.project_targets if name in targets]
    if untrusted:
        from skillc_index.files import within  # only for a project that sets targets

        for name in untrusted:  # where a build would deploy to: Layout.target_root
            root = layout.target_root(name, "project", targets)
            if project is None or not within(root, project):
                del targets[name]
    return targets


def agent_folders(
    layout: Layout, configured: Mapping[str, str] | None = None
) -> tuple[AgentFolder, ...]:
    """Every known agent skills folder (:data:`KNOWN_TARGETS`), project ones first, each
    path once (under the first name that has it: ``agents`` and ``codex`` share one).

    The project base is the skillc project root, else the working directory. ``configured``
    is the config's ``[targets]`` table: names there override or add to the built-in ones
    (ADR-0002); a value starting with ``~`` is a home folder only.
    """
    table = agent_targets(configured)
    project_base = layout.project_root or layout.cwd
    seen: set[Path] = set()
    folders: list[AgentFolder] = []
    scopes: tuple[Scope, ...] = ("project", "global")
    if project_base == layout.home:  # no stat: find runs this on every query
        scopes = ("global",)  # the home folder is never a project: its folders are global
    for scope in scopes:
        for agent, target in table.items():
            path = target.folder(scope, project_base, layout.home)
            if path is not None and path not in seen:
                seen.add(path)
                folders.append(AgentFolder(agent, scope, path))
    return tuple(folders)


# -- installed Claude Code plugins ---------------------------------------------------------

#: Claude Code's record of installed plugins, relative to the home folder.
PLUGIN_RECORDS = ".claude/plugins/installed_plugins.json"
#: A larger record is not read (real ones hold a few KB per plugin).
MAX_PLUGIN_RECORDS_BYTES = 4 * 1024 * 1024


def plugin_skill_folders(layout: Layout) -> tuple[Path, ...]:
    """The ``skills`` folder of each installed Claude Code plugin that has one, each once.

    Claude Code records its installed plugins in ``~/.claude/plugins/installed_plugins.json``
    (``$SKILLC_HOME`` replaces the home folder): ``{"version": 2, "plugins": {"name@market":
    [{"scope": "user", "installPath": "...", "projectPath": "..."}]}}`` (version 1 holds one
    record per plugin instead of a list). Each record's ``installPath`` is the plugin's folder;
    its skills are ``<installPath>/skills/<name>/SKILL.md``. A ``project`` or ``local`` record
    counts only for its own project (``projectPath`` is the project root, else the working
    directory). Only what a record names is searched: its ``skills`` folder, never a path
    leading out of it (a relative ``installPath``, a ``skills`` symlink to elsewhere). The
    other skill paths a plugin's ``plugin.json`` may declare are not read. A missing,
    unreadable, oversized (:data:`MAX_PLUGIN_RECORDS_BYTES`) or malformed file is no plugins.
    """
    records = _plugin_records(layout.home / PLUGIN_RECORDS)
    here = str(layout.project_root or layout.cwd)
    found: list[Path] = []
    for record in records:
        scope = record.get("scope", "user")
        if scope in ("project", "local") and record.get("projectPath") != here:
            continue
        install = record.get("installPath")
        if not isinstance(install, str) or not install or "\0" in install:
            continue
        if install == "~" or install.startswith("~/"):
            base = layout.home / install[2:]
        elif Path(install).is_absolute():
            base = Path(install)
        else:
            continue  # a relative install path names nothing certain
        folder = base / "skills"
        real_base = os.path.realpath(base)
        if not os.path.realpath(folder).startswith(real_base.rstrip(os.sep) + os.sep):
            continue  # a skills folder that is a symlink out of the plugin
        if folder not in found:
            found.append(folder)
    return tuple(found)


def _plugin_records(path: Path) -> list[dict[str, Any]]:
    """The install records of ``installed_plugins.json`` (both versions of the file)."""
    from skillc_index.bounded_json import read_json_bounded

    try:
        value = read_json_bounded(path, max_bytes=MAX_PLUGIN_RECORDS_BYTES)
    except (OSError, ValueError):
        return []
    plugins = value.get("plugins") if isinstance(value, dict) else None
    if not isinstance(plugins, dict):
        return []
    records: list[dict[str, Any]] = []
    for entry in plugins.values():
        for record in entry if isinstance(entry, list) else [entry]:
            if isinstance(record, dict):
                records.append(record)
    return records


# -- what skc find searches -----------------------------------------------------------------

RootKind = Literal["store", "agent", "plugin", "path"]

#: The environment variable holding the default of ``skc find --path``: folders separated
#: by ``os.pathsep`` (the skill-routing benchmark sets it to its library folders).
ROUTING_ROOTS_VARIABLE = "SKILL_ROUTING_ROOTS"


class Root(NamedTuple):
    """A folder ``skc find`` searches: every folder under it holding a ``SKILL.md`` is a
    skill. In an agent folder (``kind`` ``agent``), each entry is a skill the agent is given."""

    path: Path
    """Absolute, not resolved (it may not exist)."""
    kind: RootKind
    scope: Scope | None = None
    """``project`` or ``global`` for a store or an agent folder."""


def search_roots(layout: Layout, configured: Mapping[str, str] | None = None) -> tuple[Root, ...]:
    """What is installed: the project and global source stores, every agent folder (project
    then home, ``configured`` being the config's ``[targets]``), then the skills folders of
    the installed Claude Code plugins; each path once."""
    roots = [Root(layout.store(scope), "store", scope) for scope in layout.scopes()]
    roots += [
        Root(folder.path, "agent", folder.scope) for folder in agent_folders(layout, configured)
    ]
    roots += [Root(path, "plugin") for path in plugin_skill_folders(layout)]
    seen: set[Path] = set()
    unique: list[Root] = []
    for root in roots:
        if root.path not in seen:
            seen.add(root.path)
            unique.append(root)
    return tuple(unique)


def routing_roots(env: Mapping[str, str] | None = None) -> tuple[str, ...]:
    """The folders of ``$SKILL_ROUTING_ROOTS`` (``os.pathsep``-separated, empty parts
    dropped); ``()`` when it is unset or empty."""
    value = (os.environ if env is None else env).get(ROUTING_ROOTS_VARIABLE, "")
    return tuple(part for part in value.split(os.pathsep) if part)


def deployed_source(
    real: str, layout: Layout, *, copy: bool | None = None, gone: bool = False, strict: bool = False
) -> str | None:
    """The store skill a skill that skillc deployed into an agent folder stands for (the real
    path of its folder), else None. ``real`` is the real path of the agent folder's entry: a
    deployed link resolves to ``<base>/.skillc/runtime/<name>``, whose source is
    ``<base>/.skillc/skills/<name>``; a deployed copy (``skc build --copy``) holds
    ``.skillc-meta/`` and its manifest names its store skill, looked for in the project store
    first when the copy is inside the project, else in the global store first. ``copy``:
    whether ``real`` holds ``.skillc-meta/``, when the caller knows (None: look). A source
    without a SKILL.md is none, unless ``gone``: a deployed link's source is then named all
    the same (its runtime stands for a skill that is no longer there). ``skc find`` and ``skc
    sync --from claude-code`` both use this. With ``strict``, a copy whose manifest is there
    but cannot be read or is not valid (too large, too deep: a stranger's) raises
    :class:`ValueError` or :class:`OSError` (``find`` skips and counts it) instead of standing
    for no source."""
    head, _, name = real.rpartition("/")
    if head.endswith("/.skillc/runtime"):
        source = f"{head[: -len('/runtime')]}/skills/{name}"
        if gone or os.path.isfile(f"{source}/{SKILL_FILE}"):  # noqa: PTH113
            return source
    if copy is None:
        copy = os.path.isdir(f"{real}/{META_DIR}")  # noqa: PTH112
    if not copy:
        return None
    from skillc_index.build.manifest import load_manifest, read_manifest

    manifest = load_manifest(Path(real)) if strict else read_manifest(Path(real))
    if manifest is None or "/" in manifest.skill or manifest.skill in ("", ".", ".."):
        return None
    scopes = list(layout.scopes())
    root = layout.project_root
    if root is None or not real.startswith(f"{root}/"):
        scopes.reverse()
    for scope in scopes:
        store_skill = layout.store(scope) / manifest.skill
        if (store_skill / SKILL_FILE).is_file():
            return os.path.realpath(store_skill)
    return None
