"""The installed plugins whose skills their agent loads (the inventory's folders of kind
``plugin``, :mod:`.folders`' list, 4): Claude Code's (the install records
(:data:`PLUGIN_RECORDS`), the settings that turn a plugin on (:func:`plugins_turned_on`),
the marketplaces Claude Code knows (:data:`KNOWN_MARKETPLACES`) and each plugin's manifest
(:data:`PLUGIN_MANIFEST`)), then Codex's (:func:`codex_plugin_folders`: its plugin cache
and its ``config.toml``). Standard library only (TOML through
:func:`~skillc_index.config.read_toml`).
"""

from __future__ import annotations

import os
import re
from pathlib import Path
from typing import TYPE_CHECKING, Any

from skillc_index.inventory.folders import (
    MANAGED_SETTINGS_VARIABLE,
    NESTED_AGENT,
    PARENT_AGENT,
    Root,
    agent_variable,
    claude_home,
    codex_home,
    project_base,
)

if TYPE_CHECKING:
    from collections.abc import Iterable

    from skillc_index.layout import Layout, Scope

__all__ = [
    "CODEX_CONFIG",
    "CODEX_PLUGIN_CACHE",
    "CODEX_PLUGIN_MANIFESTS",
    "KNOWN_MARKETPLACES",
    "MANAGED_SETTINGS",
    "MAX_CODEX_PLUGINS",
    "MAX_DECLARED_SKILLS",
    "MAX_PLUGIN_MANIFEST_BYTES",
    "MAX_PLUGIN_RECORDS_BYTES",
    "MAX_SETTINGS_BYTES",
    "MAX_VERSION_ENTRIES",
    "PLUGIN_MANIFEST",
    "PLUGIN_RECORDS",
    "check_not_plugin_copy",
    "codex_plugin_folders",
    "codex_plugins_on",
    "codex_version_order",
    "in_plugins_folder",
    "known_marketplaces",
    "managed_settings_file",
    "manifest_problem",
    "plugin_config_files",
    "plugin_folders",
    "plugin_settings_files",
    "plugin_version_parts",
    "plugin_watched",
    "plugins_turned_on",
    "settings_files",
]

#: Claude Code's record of installed plugins, relative to its folder (:func:`claude_home`).
PLUGIN_RECORDS = "plugins/installed_plugins.json"
#: The marketplaces Claude Code knows (``{"<marketplace>": {"source": ...}}``), beside it.
KNOWN_MARKETPLACES = "plugins/known_marketplaces.json"
#: A plugin's manifest, relative to its folder (optional: Claude Code finds ``skills/``
#: without one).
PLUGIN_MANIFEST = ".claude-plugin/plugin.json"

#: A larger record is not read (real ones hold a few KB per plugin); the bound of
#: :data:`KNOWN_MARKETPLACES` too.
MAX_PLUGIN_RECORDS_BYTES = 4 * 1024 * 1024
#: A larger manifest is no manifest (real ones are a few KiB; skillc-lint's SKL611 bound).
MAX_PLUGIN_MANIFEST_BYTES = 1 << 20


def plugin_folders(layout: Layout, *, every: bool = False) -> tuple[Root, ...]:
    """The ``skills`` folders of the installed plugins their agent loads, as roots of kind
    ``plugin``: Claude Code's (:func:`claude_plugin_folders`; with ``every``, each installed
    one, loaded or not), then Codex's (:func:`codex_plugin_folders`, those Codex loads: a
    Claude Code transcript never names them)."""
    return (*claude_plugin_folders(layout, every=every), *codex_plugin_folders(layout))


def claude_plugin_folders(layout: Layout, *, every: bool = False) -> tuple[Root, ...]:
    """The ``skills`` folder of each installed Claude Code plugin that Claude Code loads and
    that has one, each once, as roots of kind ``plugin`` (the ``claude`` agent's).

    Claude Code records its installed plugins in ``plugins/installed_plugins.json`` of its
    folder (:func:`claude_home`: ``$CLAUDE_CONFIG_DIR``, else ``~/.claude``): ``{"version": 2,
    "plugins": {"name@market": [{"scope": "user", "installPath": "...", "projectPath":
    "..."}]}}`` (version 1 holds one record per plugin instead of a list). Each record's
    ``installPath`` is the plugin's folder; its skills are
    ``<installPath>/skills/<name>/SKILL.md``, named ``name:<skill>`` (or
    ``name@marketplace:<skill>``). A ``project`` or ``local`` record counts only for its own
    project (``projectPath`` is the project root, else the working directory) and is of
    scope ``project``; a ``user`` record is ``global``. The roots are in Claude Code's
    settings precedence: ``local`` records first, then ``project``, then ``user`` ones (the
    file's order within each): a plugin installed at two scopes resolves to its project's.
    Only what a record names is searched: its ``skills`` folder, never a path leading out of
    it (a relative ``installPath``, a ``skills`` symlink to elsewhere). The other skill
    paths a plugin's ``plugin.json`` may declare are not read. A missing,
    unreadable, oversized (:data:`MAX_PLUGIN_RECORDS_BYTES`) or malformed file is no plugins.

    Claude Code loads a plugin only when its settings turn it on
    (:func:`plugins_turned_on`: installed and not ``true`` in ``enabledPlugins`` is not
    loaded), when its marketplace is one it knows (:func:`known_marketplaces`: a record left
    behind by a marketplace removed is "not found in marketplace"), and when its manifest is
    a JSON object (:func:`manifest_problem`): the others are left out, but for one whose
    manifest is bad, whose root is there with :attr:`Root.unloaded` (the listing skips it with
    a warning, a name lookup says why). With ``every``, each installed plugin's folder,
    loaded or not (what Claude Code loaded before: a transcript's uses of it).
    """
    here = str(layout.project_root or layout.cwd)
    found: list[Root] = []
    seen: set[Path] = set()
    records = _plugin_records(claude_home(layout) / PLUGIN_RECORDS)
    on = plugins_turned_on(layout) if records and not every else frozenset()
    markets = known_marketplaces(layout) if records and not every else None
    precedence = {"local": 0, "project": 1}  # then user records: Claude Code's order
    records.sort(key=lambda item: precedence.get(str(item[1].get("scope")), 2))
    for key, record in records:
        name, _, market = key.partition("@")
        if not every and (key not in on or (markets is not None and market not in markets)):
            continue
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
        if folder not in seen:
            seen.add(folder)
            where: Scope = "project" if scope in ("project", "local") else "global"
            root = Root(folder, "plugin", where, NESTED_AGENT, name or key, market or None)
            unnamed = _prefix_problem(name, "its name") or (
                market and _prefix_problem(market, "its marketplace's name")
            )
            problem = None if every else manifest_problem(base)
            if unnamed:
                why = f"the plugin {key}, whose skills skillc cannot name: {unnamed}"
                root = root._replace(unloaded=why)
            elif problem is not None:
                why = f"the plugin {key}, which Claude Code fails to load: {problem}"
                root = root._replace(unloaded=why)
            found.append(root)
    return tuple(found)


def manifest_problem(plugin: Path) -> str | None:
    """Why Claude Code fails to load the plugin in the folder ``plugin`` (``its ... is not
    valid JSON (...)``): its
    :data:`PLUGIN_MANIFEST` cannot be read, is not JSON within
    :data:`MAX_PLUGIN_MANIFEST_BYTES`, or is not a JSON object; None when it is one, or when
    there is none (a manifest is optional). What it declares is not checked (``skc lint``'s
    SKL611 does): a ``"skills"`` path is not read (the ``skills`` folder is)."""
    from skillc_index.bounded_json import read_json_bounded

    try:
        data = read_json_bounded(plugin / PLUGIN_MANIFEST, max_bytes=MAX_PLUGIN_MANIFEST_BYTES)
    except (FileNotFoundError, NotADirectoryError):
        return None
    except OSError as exc:
        problem = f"cannot be read ({exc.strerror or exc})"
    except ValueError as exc:
        problem = f"is not valid JSON ({exc})"
    else:
        if isinstance(data, dict):
            return None
        problem = "is not a JSON object"
    return f"its {PLUGIN_MANIFEST} {problem}"


def plugin_watched(
    layout: Layout, roots: Iterable[Root]
) -> tuple[tuple[Path, ...], tuple[Path, ...]]:
    """What a long-running process (the MCP server's served skills) watches, once it has
    read ``roots`` (the inventory's folders), to see the plugins the agents load change
    (with :func:`plugin_config_files`, watched before): the files, each by its name in its
    folder, there or not (the manifest, :data:`PLUGIN_MANIFEST`, of each Claude Code plugin
    among ``roots``, loaded or left out for it, :func:`manifest_problem`; each
    :data:`CODEX_PLUGIN_MANIFESTS` of the version Codex loads of each plugin its config
    turns on), then the folders, there or not (Codex's :data:`CODEX_PLUGIN_CACHE`, and each
    such plugin's folder of versions in it: a version installed or removed)."""
    files = [
        root.path.parent / PLUGIN_MANIFEST
        for root in roots
        if root.kind == "plugin" and root.agent == NESTED_AGENT
    ]
    folders = [codex_home(layout) / CODEX_PLUGIN_CACHE]
    for _key, _name, _market, plugin in _codex_plugins_turned_on(layout):
        folders.append(plugin)
        version = _codex_version(plugin)
        if version is not None:
            files += (plugin / version / manifest for manifest in CODEX_PLUGIN_MANIFESTS)
    return tuple(files), tuple(folders)


def known_marketplaces(layout: Layout) -> frozenset[str] | None:
    """The marketplaces Claude Code knows (the keys of :data:`KNOWN_MARKETPLACES` of
    :func:`claude_home`); None when the file is not there, cannot be read or is no JSON
    object (then no plugin is left out for its marketplace)."""
    from skillc_index.bounded_json import read_json_bounded

    path = claude_home(layout) / KNOWN_MARKETPLACES
    try:
        value = read_json_bounded(path, max_bytes=MAX_PLUGIN_RECORDS_BYTES)
    except (OSError, ValueError):
        return None
    return frozenset(value) if isinstance(value, dict) else None


def in_plugins_folder(path: str, layout: Layout) -> bool:
    """Whether the real path ``path`` is in Claude Code's plugins folder (``plugins`` of
    :func:`claude_home`, beside :data:`PLUGIN_RECORDS`: where it installs every plugin,
    ``cache/`` and, before, ``marketplaces/``) or Codex's plugin cache
    (:data:`CODEX_PLUGIN_CACHE` of :func:`codex_home`, where it copies each plugin it
    installs; not the rest of ``$CODEX_HOME/plugins``, where the user may keep plugins of
    their own, ``~/.codex/plugins/my-plugin``), as written or as it really leads: a
    test of a few system calls, where :func:`plugin_folders` reads the records and the
    settings (about 0.4 ms with a few plugins)."""
    return _plugins_agent(path, layout) is not None


def _plugins_agent(path: str, layout: Layout) -> str | None:
    """The agent (``Claude Code``, ``Codex``) whose plugins folder holds the real path
    ``path`` (:func:`in_plugins_folder`); None for a path of neither."""
    from skillc_index.files import inside

    for agent, folder in (
        ("Claude Code", (claude_home(layout) / PLUGIN_RECORDS).parent),
        ("Codex", codex_home(layout) / CODEX_PLUGIN_CACHE),  # a user's own plugins beside it
    ):
        if inside(path, str(folder)) or inside(path, os.path.realpath(folder)):
            return agent
    return None


def check_not_plugin_copy(path: Path | str, layout: Layout) -> None:
    """E100 (:class:`~skillc_index.command_errors.InstalledPluginCopy`) when ``path`` really
    (symlinks followed) is in Claude Code's plugins folder or Codex's plugin cache
    (:func:`in_plugins_folder`): its copy of an installed plugin, which the next update
    replaces. No skillc write lands there (``lint --fix``, ``eval``'s trigger cases:
    :func:`~.folders.check_write_place`)."""
    agent = _plugins_agent(os.path.realpath(path), layout)
    if agent is not None:
        from skillc_index.command_errors import InstalledPluginCopy

        raise InstalledPluginCopy(layout.display(Path(path)), agent)


def plugin_version_parts(folder: str) -> tuple[str, str] | None:
    """The text of a skill folder in Claude Code's plugin cache before and after its version:
    ``(".../plugins/cache/<marketplace>/<plugin>/", "/skills/<skill>")`` for
    ``.../plugins/cache/<marketplace>/<plugin>/<version>/skills/<skill>`` (each version of a
    plugin is a folder of its own there, the older ones deleted some days after an update);
    None for any other folder. A plugin skill's rows logged under any version count for it
    (:func:`skillc_index.accesslog.reader.add_versions`)."""
    parts = folder.split(os.sep)  # noqa: PTH206 (a logged folder's text, as it is)
    if len(parts) < 8 or parts[-7:-5] != ["plugins", "cache"] or parts[-2] != "skills":
        return None
    if not all(parts[-5:]) or parts[-3] in (".", ".."):
        return None
    head, tail = os.sep.join(parts[:-3]), os.sep.join(parts[-2:])  # noqa: PTH118
    return head + os.sep, os.sep + tail


#: The most of a Claude Code settings file read (skillc's bound for JSON others write).
MAX_SETTINGS_BYTES = 1 << 20


def settings_files(layout: Layout) -> tuple[Path, ...]:
    """Claude Code's settings files that apply here, the weakest first: the user's
    (``settings.json`` of :func:`claude_home`), then the project's shared and personal ones
    (none outside a project). Here, beside
    :func:`plugins_turned_on` (a plugin skill's ``show`` reads them), not in
    :mod:`skillc_index.listing.overrides`, which writes them."""
    found = [claude_home(layout) / "settings.json"]
    base = project_base(layout)
    if base is not None:
        found += [base / ".claude" / "settings.json", base / ".claude" / "settings.local.json"]
    return tuple(found)


#: Claude Code's managed settings file, an organization's, per platform (code.claude.com/docs
#: /en/settings, "Settings files": system-level ``managed-settings.json``): it outranks every
#: other settings file. On Windows ``C:\Program Files\ClaudeCode`` (Claude Code 2.1.2
#: deprecated ``C:\ProgramData\ClaudeCode``; later releases no longer read it). Settings
#: given by the claude.ai console or by MDM (plist, registry) are not files skillc can read.
MANAGED_SETTINGS = {
    "darwin": "/Library/Application Support/ClaudeCode/managed-settings.json",
    "win32": "C:\\Program Files\\ClaudeCode\\managed-settings.json",
    "linux": "/etc/claude-code/managed-settings.json",  # and WSL
}


def managed_settings_file(layout: Layout) -> Path | None:
    """The managed settings file read: the one ``$SKILLC_CLAUDE_MANAGED_SETTINGS`` names
    (:data:`~skillc_index.inventory.folders.MANAGED_SETTINGS_VARIABLE`: the layout's
    environment's, :func:`~skillc_index.inventory.folders.agent_variable`, else the
    process's, even beside an embedder's ``env`` without it: one file of the machine; when
    set and not empty, a relative one from the working directory: for tests and admins),
    else this platform's :data:`MANAGED_SETTINGS` file (None on a platform it names none)."""
    import sys

    named = agent_variable(layout, MANAGED_SETTINGS_VARIABLE)
    named = named or os.environ.get(MANAGED_SETTINGS_VARIABLE)
    if named:
        return layout.cwd / named
    found = MANAGED_SETTINGS.get(sys.platform)
    return None if found is None else Path(found)


def plugin_settings_files(layout: Layout) -> tuple[Path, ...]:
    """The settings files that turn Claude Code's plugins on here, the weakest first:
    :func:`settings_files`, then the :func:`managed_settings_file` (whether it is there or
    not): what :func:`plugins_turned_on` reads."""
    managed = managed_settings_file(layout)
    return (*settings_files(layout), *([managed] if managed else []))


def plugin_config_files(layout: Layout) -> tuple[Path, ...]:
    """The files that turn the agents' plugins on here, there or not: Claude Code's
    (:func:`plugin_settings_files`), then Codex's :data:`CODEX_CONFIG`; what a long-running
    process watches before it reads them (:func:`plugin_watched`: the rest)."""
    return (*plugin_settings_files(layout), codex_home(layout) / CODEX_CONFIG)


def plugins_turned_on(layout: Layout) -> frozenset[str]:
    """The plugins (``name@marketplace``) that Claude Code's settings turn on here, the only
    ones it loads: those whose ``enabledPlugins`` value is ``true`` in the strongest of the
    settings files that set it (the organization's :func:`managed_settings_file`, then
    :func:`settings_files`: the project's ``.claude/settings.local.json``, then its
    ``.claude/settings.json``, then the user's ``settings.json`` of :func:`claude_home`).
    ``/plugin install`` sets it ``true`` in the
    file of the install's scope; a plugin installed and named in none of them, or not
    ``true`` in the strongest, is not loaded (anthropics/claude-code#20661). A settings file
    that cannot be read sets nothing; one whose other keys are odd (a ``skillOverrides``
    that ``list --apply`` refuses) still does."""
    from skillc_index.bounded_json import read_json_bounded

    enabled: dict[str, object] = {}
    for path in plugin_settings_files(layout):  # the weakest first
        try:
            data = read_json_bounded(path, max_bytes=MAX_SETTINGS_BYTES)
        except (OSError, ValueError):
            continue
        value = data.get("enabledPlugins") if isinstance(data, dict) else None
        if isinstance(value, dict):
            enabled.update(value)
    return frozenset(key for key, value in enabled.items() if value is True)


def _plugin_records(path: Path) -> list[tuple[str, dict[str, Any]]]:
    """The install records of ``installed_plugins.json`` (both versions of the file), each
    with the key it is under (``name@marketplace``)."""
    from skillc_index.bounded_json import read_json_bounded

    try:
        value = read_json_bounded(path, max_bytes=MAX_PLUGIN_RECORDS_BYTES)
    except (OSError, ValueError):
        return []
    plugins = value.get("plugins") if isinstance(value, dict) else None
    if not isinstance(plugins, dict):
        return []
    records: list[tuple[str, dict[str, Any]]] = []
    for key, entry in plugins.items():
        for record in entry if isinstance(entry, list) else [entry]:
            if isinstance(record, dict):
                records.append((str(key), record))
    return records


# -- Codex's plugins -----------------------------------------------------------------------

#: Codex's user configuration, relative to its home (:func:`codex_home`): the plugins it
#: turns on (a project's is not read for them).
CODEX_CONFIG = "config.toml"
#: Codex's plugin cache, relative to its home (:func:`codex_home`):
#: ``<marketplace>/<plugin>/<version>/``, one folder per installed version.
CODEX_PLUGIN_CACHE = "plugins/cache"
#: A Codex plugin's manifest, relative to its folder, in the order Codex looks (the first
#: that is a file is the manifest: a bad one is not passed over for the next).
CODEX_PLUGIN_MANIFESTS = (".codex-plugin/plugin.json", ".claude-plugin/plugin.json")
#: The most ``[plugins]`` entries of Codex's config read, and of version folders of a
#: plugin looked at (real ones: a few of each).
MAX_CODEX_PLUGINS = 256

#: A plugin id's parts, as Codex validates them (``PluginId::parse``): ASCII letters,
#: digits, ``_`` and ``-`` (a plugin's name may hold dots between them).
_MARKET = re.compile(r"[A-Za-z0-9_-]+")
_PLUGIN = re.compile(r"[A-Za-z0-9_-]+(?:\.[A-Za-z0-9_-]+)*")
#: A version folder Codex takes (``validate_plugin_version_segment``).
_VERSION = re.compile(r"[A-Za-z0-9_.+-]+")
#: A namespace skillc can name skills with (``plugin:skill``, read back by
#: :func:`~.resolve.plugin_parts`): no ``:``, ``@``, path separator or blank
#: (:func:`_prefix_problem`).
_NAMESPACE = re.compile(r"[^\s:@/\\]{1,128}")


def _prefix_problem(value: str, what: str) -> str | None:
    """Why ``value`` (``what`` names it: a plugin's name, its marketplace's) cannot be put
    before the ``:`` of ``plugin:skill`` or ``plugin@marketplace:skill`` (read back by
    :func:`~.resolve.plugin_parts`) nor be the first segment of its skills' ``skill://``
    URIs (:mod:`.uris`): it is not :data:`_NAMESPACE`, or is ``.`` or ``..``; None when it
    can. The one check of Claude Code's plugins (:func:`claude_plugin_folders`) and Codex's
    (:func:`_codex_roots`): the roots of a plugin failing it are :attr:`Root.unloaded`."""
    if _NAMESPACE.fullmatch(value) and value not in (".", ".."):
        return None
    return (
        f"{what} {value[:80]!r} is no plugin:skill prefix (no ':', '@', '/', '\\' or blank, "
        "not '.' or '..', at most 128 characters)"
    )


def codex_plugins_on(config: dict[str, Any]) -> bool:
    """Whether Codex's user ``config.toml`` (parsed) leaves its plugins on: its ``plugins``
    feature (``[features] plugins``, else the selected ``profile``'s ``[profiles.<name>.
    features]``, which wins) is on unless set ``false`` (a stable feature, on by default
    since Codex made it one; openai/codex ``features``: ``Feature::Plugins``)."""
    on = True
    for table in (config, _profile(config)):
        features = table.get("features") if isinstance(table, dict) else None
        value = features.get("plugins") if isinstance(features, dict) else None
        if isinstance(value, bool):
            on = value
    return on


def _profile(config: dict[str, Any]) -> object:
    """The profile table ``config``'s ``profile`` selects, else None."""
    name, profiles = config.get("profile"), config.get("profiles")
    return profiles.get(name) if isinstance(name, str) and isinstance(profiles, dict) else None


def codex_plugin_folders(layout: Layout) -> tuple[Root, ...]:
    """The skills folders of each Codex plugin Codex loads, as roots of kind ``plugin`` of
    the ``codex`` agent, scope ``global`` (openai/codex ``core/src/plugins``: ``PluginStore``,
    ``load_plugin``).

    Codex installs a plugin ``name@marketplace`` into
    ``$CODEX_HOME/plugins/cache/<marketplace>/<name>/<version>`` (:data:`CODEX_PLUGIN_CACHE`;
    the ``local`` version when there is one, else the last in Codex's order,
    :func:`codex_version_order`: a link is no version folder) and loads it when the user's
    ``config.toml`` of :func:`codex_home` (never a project's) has
    ``[plugins."name@marketplace"] enabled = true`` and its plugins are on
    (:func:`codex_plugins_on`). Its skills are the entries of
    ``skills/`` and of the folder its manifest's ``"skills"`` names (``./<folder>``, at any
    depth in the plugin: ``./a/b``), or of the folders a list there names instead
    (:func:`_codex_skills_folders`), named
    ``<manifest name>:<skill>`` (Codex's namespace: the manifest's ``name``, or the
    version folder's name when it is blank). A folder that leads out of the plugin (a
    link) is not read. A plugin without a valid manifest (:data:`CODEX_PLUGIN_MANIFESTS`,
    a JSON object of at most :data:`MAX_PLUGIN_MANIFEST_BYTES`), which Codex fails to load,
    is there with :attr:`Root.unloaded`. A missing, unreadable or invalid config is no
    plugins; at most :data:`MAX_CODEX_PLUGINS` entries are read, in Codex's order (by id).
    """
    found: list[Root] = []
    for key, name, market, plugin in _codex_plugins_turned_on(layout):
        version = _codex_version(plugin)
        if version is not None:
            found += _codex_roots(plugin / version, key, name, market)
    return tuple(found)


def _codex_plugins_turned_on(layout: Layout) -> list[tuple[str, str, str, Path]]:
    """Each plugin Codex's :data:`CODEX_CONFIG` turns on (:func:`codex_plugin_folders`), in
    Codex's order: its id, name, marketplace and folder in the cache (its versions' folders,
    there or not); none when the cache is not there."""
    from skillc_index.files import is_folder

    home = codex_home(layout)
    cache = home / CODEX_PLUGIN_CACHE
    if not is_folder(cache):  # the common case: no TOML is read
        return []
    from skillc_index.config import read_toml

    config = read_toml(home / CODEX_CONFIG)
    entries = config.get("plugins") if config is not None else None
    if not isinstance(entries, dict) or not codex_plugins_on(config or {}):
        return []
    found: list[tuple[str, str, str, Path]] = []
    for key in sorted(entries)[:MAX_CODEX_PLUGINS]:
        value = entries[key]
        if not isinstance(value, dict) or value.get("enabled") is not True:
            continue
        name, at, market = key.rpartition("@")
        if at and _PLUGIN.fullmatch(name) and _MARKET.fullmatch(market):
            found.append((key, name, market, cache / market / name))
    return found


def _codex_version(plugin: Path) -> str | None:
    """The version folder of ``plugin`` Codex loads (``active_plugin_version``): ``local``
    when there is one, else the last in Codex's order (:func:`codex_version_order`: 1.10.0
    after 1.9.0); None when there is none. Every entry is looked at up to
    :data:`MAX_VERSION_ENTRIES` (a ``local`` among them is found wherever the listing puts
    it), the first :data:`MAX_CODEX_PLUGINS` version folders compared."""
    from functools import cmp_to_key

    versions: list[str] = []
    try:
        with os.scandir(plugin) as listing:
            for _, entry in zip(range(MAX_VERSION_ENTRIES), listing, strict=False):
                name = entry.name
                if name in (".", "..") or not _VERSION.fullmatch(name):
                    continue
                if not entry.is_dir(follow_symlinks=False):
                    continue
                if name == "local":
                    return name
                if len(versions) < MAX_CODEX_PLUGINS:
                    versions.append(name)
    except OSError:
        return None
    return max(versions, key=cmp_to_key(codex_version_order), default=None)


#: The most entries of a plugin's cache folder looked at for its versions.
MAX_VERSION_ENTRIES = 4096
#: A Semantic Versioning 2.0.0 version, as the Rust ``semver`` crate Codex uses parses one:
#: no leading zeros in a number or a numeric pre-release identifier.
_SEMVER = re.compile(
    r"(0|[1-9]\d*)\.(0|[1-9]\d*)\.(0|[1-9]\d*)"
    r"(?:-((?:0|[1-9]\d*|\d*[A-Za-z-][0-9A-Za-z-]*)(?:\.(?:0|[1-9]\d*|\d*[A-Za-z-][0-9A-Za-z-]*))*))?"
    r"(?:\+([0-9A-Za-z-]+(?:\.[0-9A-Za-z-]+)*))?"
)


def codex_version_order(left: str, right: str) -> int:
    """Codex's order of two version folders (openai/codex ``compare_plugin_versions``): as
    Semantic Versioning orders them when both are such versions (``1.9.0`` before
    ``1.10.0``, a pre-release before its release, then the build metadata), else as text
    (``1.10`` before ``1.9``): -1, 0 or 1. Stricter than
    :func:`skillc_index.package.version._lower` (``2024.1`` is a version there, text here),
    as Codex's ``semver`` crate is."""
    one, other = _semver_key(left), _semver_key(right)
    if one is None or other is None:
        return (left > right) - (left < right)
    return (one > other) - (one < other)


_Ident = tuple[int, int, str]


def _semver_key(
    version: str,
) -> tuple[tuple[int, ...], tuple[_Ident, ...], tuple[_Ident, ...]] | None:
    """``version``'s Semantic Versioning precedence (numbers, pre-release, build metadata: no
    pre-release after every pre-release, no build before any), None for no such version."""
    found = _SEMVER.fullmatch(version)
    if found is None:
        return None

    def idents(text: str | None, none: _Ident) -> tuple[_Ident, ...]:
        if text is None:
            return (none,)
        return tuple((0, int(p), "") if p.isdigit() else (1, 0, p) for p in text.split("."))

    numbers = (int(found[1]), int(found[2]), int(found[3]))
    return numbers, idents(found[4], (2, 0, "")), idents(found[5], (-1, 0, ""))


def _codex_roots(base: Path, key: str, name: str, market: str) -> list[Root]:
    """The roots of the Codex plugin ``key`` installed in ``base`` (its version folder)."""
    manifest, problem = _codex_manifest(base)
    why = None if problem is None else f"the plugin {key}, which Codex fails to load: {problem}"
    namespace = name
    if manifest is not None:
        declared = manifest.get("name", "")
        namespace = declared if isinstance(declared, str) and declared.strip() else base.name
        unnamed = _prefix_problem(namespace, "its manifest's name")
        if unnamed is not None:  # Codex loads it: skillc cannot name its skills
            why = f"the plugin {key}, whose skills skillc cannot name (Codex loads them): {unnamed}"
            namespace = name
    folders = _codex_skills_folders(base, manifest.get("skills") if manifest else None)
    real_base = os.path.realpath(base).rstrip(os.sep) + os.sep
    roots: list[Root] = []
    for folder in dict.fromkeys(folders):
        if not os.path.realpath(folder).startswith(real_base):
            continue  # a skills folder that is a link out of the plugin
        root = Root(folder, "plugin", "global", PARENT_AGENT, namespace, market)
        if why is not None:
            root = root._replace(unloaded=why)
            roots.append(root)
            break
        roots.append(root)
    return roots


#: The most entries of a manifest's ``"skills"`` list read (real ones: one or two).
MAX_DECLARED_SKILLS = 32


def _codex_skills_folders(base: Path, declared: object) -> list[Path]:
    """The skills folders of the Codex plugin in ``base`` whose manifest's ``"skills"`` is
    ``declared`` (openai/codex ``plugin_skill_roots``): ``skills/`` and the folder a string
    names; the folders a list names (its first :data:`MAX_DECLARED_SKILLS`) instead of
    ``skills/``, which is read when none of them is valid. Each a ``./`` path inside the
    plugin (:func:`_plugin_path`); the caller drops one that really leads out of it."""
    if isinstance(declared, list):
        named = [_plugin_path(base, item) for item in declared[:MAX_DECLARED_SKILLS]]
        found = [folder for folder in named if folder is not None]
        if found:
            return list(dict.fromkeys(found))
    folders = [base / "skills"]
    if isinstance(declared, str) and (folder := _plugin_path(base, declared)) is not None:
        folders.append(folder)
    return list(dict.fromkeys(folders))


def _plugin_path(base: Path, path: object) -> Path | None:
    """The path ``path`` of a Codex manifest names in the plugin ``base``, as Codex reads it
    (``resolve_manifest_path``): ``./`` and one or more names (``./a/b``; a ``.`` within
    dropped, ``..``, a root or a leading ``.`` refused); None for any other value."""
    if not isinstance(path, str) or not path.startswith("./") or len(path) > 1024:
        return None
    rest = path[2:]
    if not rest or rest.startswith("/") or "\0" in rest:
        return None
    parts = rest.split("/")
    if parts[0] == "." or ".." in parts:
        return None
    names = [part for part in parts if part not in ("", ".")]
    return base.joinpath(*names) if names else None


def _codex_manifest(base: Path) -> tuple[dict[str, Any] | None, str | None]:
    """The manifest of the Codex plugin in ``base`` (the first of
    :data:`CODEX_PLUGIN_MANIFESTS` that is a file), or why there is none Codex takes."""
    from skillc_index.bounded_json import read_json_bounded
    from skillc_index.files import is_file

    for relative in CODEX_PLUGIN_MANIFESTS:
        path = base / relative
        if not is_file(path):
            continue
        try:
            data = read_json_bounded(path, max_bytes=MAX_PLUGIN_MANIFEST_BYTES)
        except OSError as exc:
            return None, f"its {relative} cannot be read ({exc.strerror or exc})"
        except ValueError as exc:
            return None, f"its {relative} is not valid JSON ({exc})"
        if not isinstance(data, dict) or not isinstance(data.get("name", ""), str):
            return None, f"its {relative} is not a plugin manifest (a JSON object)"
        return data, None
    return None, f"it has no {CODEX_PLUGIN_MANIFESTS[0]}"
