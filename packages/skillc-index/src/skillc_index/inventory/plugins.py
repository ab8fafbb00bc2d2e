"""The installed Claude Code plugins whose skills Claude Code loads (the inventory's folders
of kind ``plugin``, :mod:`.folders`' list, 4): the install records
(:data:`PLUGIN_RECORDS`), the settings that turn a plugin on (:func:`plugins_turned_on`),
the marketplaces Claude Code knows (:data:`KNOWN_MARKETPLACES`) and each plugin's manifest
(:data:`PLUGIN_MANIFEST`). Standard library only.
"""

from __future__ import annotations

import os
from pathlib import Path
from typing import TYPE_CHECKING, Any

from skillc_index.inventory.folders import NESTED_AGENT, Root, claude_home, project_base

if TYPE_CHECKING:
    from skillc_index.layout import Layout, Scope

__all__ = [
    "KNOWN_MARKETPLACES",
    "MAX_PLUGIN_MANIFEST_BYTES",
    "MAX_PLUGIN_RECORDS_BYTES",
    "MAX_SETTINGS_BYTES",
    "PLUGIN_MANIFEST",
    "PLUGIN_RECORDS",
    "check_not_plugin_copy",
    "in_plugins_folder",
    "known_marketplaces",
    "manifest_problem",
    "plugin_folders",
    "plugin_version_parts",
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
            problem = None if every else manifest_problem(base)
            root = Root(folder, "plugin", where, NESTED_AGENT, name or key, market or None)
            if problem is not None:
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
    ``cache/`` and, before, ``marketplaces/``), as written or as it really leads: a test of a
    few system calls, where :func:`plugin_folders` reads the records and the settings (about
    0.4 ms with a few plugins)."""
    from skillc_index.files import inside

    folder = (claude_home(layout) / PLUGIN_RECORDS).parent
    return inside(path, str(folder)) or inside(path, os.path.realpath(folder))


def check_not_plugin_copy(path: Path | str, layout: Layout) -> None:
    """E100 (:class:`~skillc_index.command_errors.InstalledPluginCopy`) when ``path`` really
    (symlinks followed) is in Claude Code's plugins folder (:func:`in_plugins_folder`): its
    copy of an installed plugin, which the next update replaces. No skillc write lands there
    (``lint --fix``, ``eval``'s trigger cases: :func:`~.folders.check_write_place`)."""
    if in_plugins_folder(os.path.realpath(path), layout):
        from skillc_index.command_errors import InstalledPluginCopy

        raise InstalledPluginCopy(layout.display(Path(path)))


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


def plugins_turned_on(layout: Layout) -> frozenset[str]:
    """The plugins (``name@marketplace``) that Claude Code's settings turn on here, the only
    ones it loads: those whose ``enabledPlugins`` value is ``true`` in the strongest of the
    settings files that set it (:func:`settings_files`: the project's
    ``.claude/settings.local.json``, then its ``.claude/settings.json``, then the user's
    ``settings.json`` of :func:`claude_home`). ``/plugin install`` sets it ``true`` in the
    file of the install's scope; a plugin installed and named in none of them, or not
    ``true`` in the strongest, is not loaded (anthropics/claude-code#20661). A settings file
    that cannot be read sets nothing; one whose other keys are odd (a ``skillOverrides``
    that ``list --apply`` refuses) still does."""
    from skillc_index.bounded_json import read_json_bounded

    enabled: dict[str, object] = {}
    for path in settings_files(layout):  # the weakest first
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
