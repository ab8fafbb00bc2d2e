"""A skill's name resolved past the stores (RFC-0007:C-RESOLUTION continued, DECISIONS
"Paths and resolution"): :func:`skillc_index.resolve_skill` looks at a path, the project
store and the global store, and only when none holds the name asks :func:`resolve_installed`,
which looks in the project's agent folders (its own, then Codex's and Claude Code's from the
working directory up, then its nested Claude Code folders), the home folder's agent folders,
the installed Claude Code and Codex plugins' skills, then Codex's bundled system skills. A
name found in a store never gets here: ``skc show`` of a store skill looks at no agent folder.

``plugin:skill`` names a plugin's skill (the plugins' only), ``plugin@marketplace:skill``
that of the plugin of that marketplace (Claude Code's plugin id: two marketplaces may each
have a plugin of one name); when that plugin has no such skill (or there is no plugin of
that name), it is a folder's name (``foo:bar``, looked for in every folder as any other
name). A name that several distinct skills have (not a skill
and its deployments: one source is one skill) resolves to the first in that order, with
W001 listing them and how to name another (a plugin's skill by the shortest of its names
that no other candidate has, else by its path).
"""

from __future__ import annotations

import os
from pathlib import Path
from typing import TYPE_CHECKING

from skillc_index.inventory.entries import (
    InstalledSkill,
    Location,
    Skipped,
    distinct,
    group,
    location_of,
)
from skillc_index.inventory.folders import Root, installed_folders, trusted_targets
from skillc_index.inventory.nested import nested_notices
from skillc_index.inventory.plugins import in_plugins_folder, plugin_folders
from skillc_index.layout import SKILL_FILE

if TYPE_CHECKING:
    from collections.abc import Callable, Iterator, Sequence

    from skillc_index.diagnostics import Diagnostic
    from skillc_index.layout import Layout, ResolvedSkill

__all__ = [
    "gone_links",
    "installed_names",
    "installed_or_not_found",
    "near_skill_names",
    "plugin_called",
    "plugin_key_names",
    "plugin_parts",
    "read_back",
    "reading_name",
    "reading_names",
    "resolve_installed",
    "skill_names",
]


def _configured(layout: Layout) -> dict[str, str]:
    from skillc_index.config import load_config

    return trusted_targets(layout, load_config(layout))


def _lookups(
    skill: str,
    layout: Layout,
    plugins_only: bool = False,
    plugins: tuple[Root, ...] | None = None,
    folders: Sequence[Root] | None = None,
) -> Iterator[tuple[str, Sequence[Root]]]:
    """The names to look for, each with the folders to look in, in order: for ``plugin:skill``
    that plugin's skill first; then (not ``plugins_only``) the name as it is, a folder's
    (``foo:bar``, a folder name a plugin named ``foo`` does not have), in every agent folder
    and plugin (``plugins``, ``folders``: the plugins' roots and every one, when the caller
    read them: :func:`_installed_roots`)."""
    if plugins is None:  # once: it reads the install records, settings
        plugins = plugin_folders(layout)
    if parts := plugin_parts(skill):
        plugin, market, name = parts
        yield name, [r for r in plugins if r.plugin == plugin and market in ("", r.marketplace)]
    if plugins_only:
        return
    yield (
        skill,
        list(installed_folders(layout, _configured(layout), plugins))
        if folders is None
        else folders,
    )


#: The plugins' roots and every installed folder's, in resolution order (:func:`_lookups`).
Installed = tuple[tuple[Root, ...], list[Root]]


def _installed_roots(layout: Layout) -> Installed:
    """The roots :func:`_lookups` looks in, read once for several names."""
    plugins = plugin_folders(layout)
    return plugins, list(installed_folders(layout, _configured(layout), plugins))


def plugin_parts(skill: str) -> tuple[str, str, str] | None:
    """``plugin:skill`` or ``plugin@marketplace:skill`` (Claude Code's plugin id) read as
    (plugin, marketplace or "", skill); None for a name without ``:``."""
    plugin, colon, name = skill.partition(":")
    if not colon:
        return None
    plugin, _, market = plugin.partition("@")
    return plugin, market, name


def _entry_name(name: str) -> bool:
    """Whether ``name`` can be an entry of a folder (not empty, ``.``, ``..`` or a path)."""
    return bool(name) and name not in (".", "..") and "/" not in name and os.sep not in name


def _found(name: str, roots: Sequence[Root], layout: Layout) -> Iterator[Location]:
    """The skills named ``name`` in ``roots`` (each a folder's entry), in their order (each
    root looked at when the next is asked for)."""
    if not _entry_name(name):
        return
    from skillc_index.files import entry_named

    for root in roots:
        location = location_of(root, entry_named(root.path, name), layout)
        if isinstance(location, Location):
            yield location


def installed_or_not_found(
    skill: str, layout: Layout, force_global: bool, stores_only: bool, a_file: str = ""
) -> ResolvedSkill:
    """:func:`~skillc_index.resolve_skill`'s step 4 for a name no store holds: the installed
    skill :func:`resolve_installed` finds; with ``stores_only`` (``run``), only a plugin's
    skill named ``plugin:skill`` (one the user installed, never a folder's). Else E001, with
    the near names (the stores' only with ``stores_only``, and none for a ``plugin:skill``
    name there: a near store name runs another skill's code) and the entries the listing
    skips, and ``a_file``: the hint that the name is a file of the working folder."""
    from skillc_index.diagnostics import SkillNotFound
    from skillc_index.layout import shown

    plugin = plugin_parts(skill) is not None
    if plugin or not stores_only:
        installed = resolve_installed(
            skill, layout, force_global=force_global, plugins_only=stores_only
        )
        if installed is not None:
            return installed
    suggestions = (
        () if plugin and stores_only else near_skill_names(skill, layout, installed=not stores_only)
    )
    gone = "" if stores_only else gone_links(skill, layout)
    cut = "" if stores_only else "; ".join(notice.text for notice in nested_notices())
    hints = (gone, a_file, _no_home_folder(layout), cut)
    raise SkillNotFound(shown(skill), suggestions, "; ".join(filter(None, hints)))


def _no_home_folder(layout: Layout) -> str:
    """E001's hint when the user's home folder is not there (``HOME=/nonexistent``, a uid
    without an entry in the password database and no ``HOME``: a sandbox), whose skills
    (its agents' folders, the skillc home in it) were not looked for; else ""."""
    from skillc_index.files import is_folder
    from skillc_index.homes import user_home

    home = layout.own_home or user_home()
    if is_folder(home):
        return ""
    return (
        f"no home folder ({home}): the skills under it were not searched; set HOME to the "
        "home folder (or SKILLC_HOME to the skillc home)"
    )


def resolve_installed(
    skill: str, layout: Layout, *, force_global: bool = False, plugins_only: bool = False
) -> ResolvedSkill | None:
    """The installed skill named ``skill`` beyond the stores (see the module), resolved as
    its folder's path would be (:func:`skillc_index.resolve_skill`: a deployment stands for
    its store skill, its runtime is the project's runtime, else the global one); None when
    no agent folder or plugin holds it. With ``plugins_only``, a ``plugin:skill`` name's
    plugin skill only."""
    from skillc_index.layout import _from_folder

    plugins = plugin_folders(layout)  # read once, for the lookups and the name alike
    for name, roots in _lookups(skill, layout, plugins_only, plugins):
        found = list(_found(name, roots, layout))
        if found:
            break
    else:
        return None
    skills = group(found)
    real = skills[0].locations[0].real
    resolved = _from_folder(name, real, layout, force_global, False, plugins)
    if len(skills) > 1:
        resolved = resolved._replace(notices=(*resolved.notices, _ambiguous(skill, skills, layout)))
    return resolved


def plugin_called(
    source: Path, entry: str, layout: Layout, plugins: tuple[Root, ...] | None = None
) -> str | None:
    """The name that reads the folder ``source`` again when it is an installed plugin's skill
    (``entry`` in a plugin's ``skills``, or ``source``'s own name): ``devkit:pdf-tools``, as
    :func:`skill_names` names it among the plugins' skills of its name, ``skc list`` too;
    None for a folder of no plugin. :func:`~skillc_index.resolve_skill` gives it to every
    folder it reads, by name, path or ``skill://`` URI: a reply's ``skill`` reads it again
    (``plugins``: the plugins' roots, when the caller read them; else read only for a folder
    in Claude Code's plugins folder or Codex's plugin cache,
    :func:`~.plugins.in_plugins_folder`: a skill given by
    its path elsewhere costs no reading of the plugins' records)."""
    real = os.path.realpath(source)
    if plugins is None:
        if not in_plugins_folder(real, layout):
            return None
        plugins = plugin_folders(layout)  # () at once when no plugin is installed
    if not plugins:
        return None
    for name in dict.fromkeys((entry, source.name)):
        skills = group(_found(name, list(plugins), layout))
        for found, called in zip(skills, skill_names(skills), strict=True):
            if str(found.source) == real:
                return called
    return None


def read_back(
    skill: str, source: Path, layout: Layout, force_global: bool, plain: bool
) -> ResolvedSkill:
    """The folder ``source`` given by its path (``skill``; ``plain``: a bare word, a folder of
    the working directory that name reads) or by its ``skill://`` URI, resolved as
    :func:`~skillc_index.layout._from_folder` does, named (``called``) by its path when
    neither a plugin's name (:func:`plugin_called`) nor its own name reads it again: another
    skill has that name first (a project store's ``writing-plans`` for
    ``.claude/skills/writing-plans``), or none has it (:func:`_name_reads`). What a reply
    names it (:attr:`~skillc_index.layout.ResolvedSkill.shown`) then reads that skill."""
    from skillc_index.layout import _from_folder

    found = _from_folder(skill, source, layout, force_global, plain)
    if plain or found.called is not None:
        return found
    called = reading_name(found.name, found.source, layout, force_global, given=source)
    return found if called == found.name else found._replace(called=called)


def reading_name(
    name: str,
    source: Path,
    layout: Layout,
    force_global: bool = False,
    given: Path | None = None,
    installed: Callable[[], Installed] | None = None,
) -> str:
    """What names the skill at ``source`` (canonical) so that a read command reads it again:
    ``name`` when that bare name resolves to it (:func:`_name_reads`), else its path, ``./``
    before one relative to the working directory (another skill has that name first, a
    project store's ``writing-plans`` for ``.claude/skills/writing-plans``, or none has it:
    a folder only ``skc find --path`` searched). :func:`read_back`'s naming, and ``skc
    find``'s of each hit (:func:`reading_names`). ``given``: a folder that resolves to
    ``source`` (default: itself); ``installed``: the folders past the stores, once read."""
    from skillc_index.diagnostics import SkillcError
    from skillc_index.layout import _as_path

    given = source if given is None else given
    try:
        again = _name_reads(name, source, given, layout, force_global, installed)
    except SkillcError:  # a SKILL.md that cannot be read (E016)
        again = False
    return name if again else _as_path(layout, source)


def reading_names(skills: Sequence[tuple[str, Path]], layout: Layout) -> list[str]:
    """:func:`reading_name` of each ``(name, source)`` of ``skills`` (``skc find``'s hits),
    the agent folders and plugins past the stores read once for them all, when one of the
    names gets there."""
    read: list[Installed] = []

    def installed() -> Installed:
        if not read:
            read.append(_installed_roots(layout))
        return read[0]

    return [reading_name(name, source, layout, installed=installed) for name, source in skills]


def _name_reads(
    name: str,
    source: Path,
    given: Path,
    layout: Layout,
    force_global: bool,
    installed: Callable[[], Installed] | None = None,
) -> bool:
    """Whether ``name`` (a bare name) resolves to the skill at ``source`` again, in
    :func:`~skillc_index.resolve_skill`'s order (a folder of the working directory, the
    project store, the global store, then the installed skill :func:`resolve_installed`
    reads), without what ``resolve_skill`` does besides (putting back a stranded import,
    E001's near names and hints, W001); False where it fails (no folder of that name, or
    the first one is no skill). ``given``: a folder that resolved to ``source``, which
    resolves so again without a second look."""
    from skillc_index.files import entry_named, inside, is_file, is_folder
    from skillc_index.layout import _from_folder, expand_user

    if name == SKILL_FILE:  # read as the working directory's SKILL.md: by its path
        return False

    def reads(real: Path, entry: str, plain: bool, plugins: tuple[Root, ...] | None) -> bool:
        """Whether the folder ``real`` resolves (as a folder, :func:`_from_folder`) to it."""
        if real == given:
            return True
        return _from_folder(entry, real, layout, force_global, plain, plugins).source == source

    here = layout.cwd / expand_user(name)
    stores = [layout.store(scope) for scope in layout.scopes()]
    seen = False
    for folder in filter(
        is_folder, [here, *(store / entry_named(store, name) for store in stores)]
    ):
        seen = True
        if is_file(folder / SKILL_FILE, denied=True):
            real = folder.resolve()
            if not inside(os.path.realpath(real / SKILL_FILE), str(real)):
                return False  # E012
            return reads(real, name, True, None) if folder is here else real == source
    if seen:  # E010
        return False
    plugins, folders = _installed_roots(layout) if installed is None else installed()
    for entry, roots in _lookups(name, layout, plugins=plugins, folders=folders):
        for first in _found(entry, roots, layout):  # resolve_installed's first: no other
            return reads(first.real, entry, False, plugins)
    return False


def _ambiguous(skill: str, skills: tuple[InstalledSkill, ...], layout: Layout) -> Diagnostic:
    """W001: the skills of one name, the one used first; each named by a path that reads it
    when pasted (:func:`~skillc_index.layout.pasted_path`: absolute, not ``~/...``, when ``~``
    here is ``$SKILLC_HOME``; quoted where a shell would split it)."""
    from skillc_index.diagnostics import ambiguous_skill
    from skillc_index.layout import pasted_path

    firsts = [found.locations[0] for found in skills]
    uniques = plugin_key_names([_plugin_skill(first) for first in firsts])
    candidates = []
    plugin = None
    for index, (first, unique) in enumerate(zip(firsts, uniques, strict=True)):
        where = pasted_path(layout, first.path)
        if unique is not None:  # the name that picks it: plugin:skill, else with @marketplace
            plugin = unique if index else plugin  # the hint names another than the one used
            candidates.append(f"{unique} ({where})")
        else:
            candidates.append(f"{where} ({first.agent}, {first.scope})")
    return ambiguous_skill(skill, candidates, plugin)


#: A plugin's skill: its plugin, marketplace and name (None, None, name for a skill of no plugin).
PluginKey = tuple[str | None, str | None, str]


def plugin_key_names(keys: Sequence[PluginKey]) -> list[str | None]:
    """The name that reads each skill (given by its plugin, marketplace and name) among
    ``keys``, when it is a plugin's: the shortest of its names (``plugin:skill``, then
    ``plugin@marketplace:skill``) that no other of ``keys`` has; None for a skill of no
    plugin, or one no such name tells apart. The one naming of a plugin's skill: W001's
    candidates, ``skc list``'s, ``skc find``'s and ``skc stats --all``'s rows."""
    spellings = [_plugin_names(*key) for key in keys]
    counts: dict[str, int] = {}
    for names in spellings:
        for spelled in names:
            counts[spelled] = counts.get(spelled, 0) + 1
    return [
        next((spelled for spelled in names if counts[spelled] == 1), None) for names in spellings
    ]


def skill_names(skills: Sequence[InstalledSkill]) -> list[str]:
    """Each skill's name as the read commands take it: a plugin's skill (its first location
    is a plugin's) as :func:`plugin_key_names` names it among ``skills`` (``devkit:pdf-tools``,
    not the ``pdf-tools`` of another folder), any other by its name. A plugin installed at
    two scopes counts once: each copy is named as the plugin's skill, which reads the copy
    Claude Code loads (the project's, with W001), never by the bare name of another skill.
    Any other skill that is not the first of its bare name (``skills`` in resolution order:
    ``~/.claude/skills/skill-creator``, a plugin's, then Codex's bundled
    ``$CODEX_HOME/skills/.system/skill-creator``) is named by its path, which reads it: the
    bare name reads the first (as ``skc sources`` and W001 do)."""
    keys = [_plugin_skill(skill.locations[0]) for skill in skills]
    ones = list(dict.fromkeys(key for key in keys if key[0] is not None))
    named = dict(zip(ones, plugin_key_names(ones), strict=True))
    taken: set[str] = set()  # the bare names a skill before has
    names: list[str] = []
    for skill, key in zip(skills, keys, strict=True):
        first = skill.name not in taken
        taken.add(skill.name)
        names.append(named.get(key) or (skill.name if first else str(skill.source)))
    return names


def _plugin_skill(location: Location) -> PluginKey:
    """Which plugin's skill ``location`` is (its copies at two scopes are one)."""
    return location.plugin, location.marketplace, location.name


def _plugin_names(plugin: str | None, marketplace: str | None, name: str) -> tuple[str, ...]:
    """How a plugin's skill can be named, shortest first (``plugin:skill``, then
    ``plugin@marketplace:skill``): only a spelling that reads back as its plugin, marketplace
    and name (:func:`plugin_parts`; not for a plugin named ``my:tool``, or the empty name of
    a key ``@market``); none for a skill of no plugin."""
    if plugin is None:
        return ()
    names = [f"{plugin}:{name}"]
    if marketplace is not None:
        names.append(f"{plugin}@{marketplace}:{name}")
    markets = ("", marketplace)
    return tuple(
        spelled
        for spelled in names
        if (parts := plugin_parts(spelled))
        and parts[0] == plugin
        and parts[1] in markets
        and parts[2] == name
    )


def installed_names(layout: Layout) -> set[str]:
    """The names of the entries of every agent folder and plugin (E001's "did you mean":
    on the error path only, so it lists each folder)."""
    names: set[str] = set()
    for root in installed_folders(layout, _configured(layout)):
        try:
            with os.scandir(root.path) as entries:
                names.update(entry.name for entry in entries if not entry.name.startswith("."))
        except OSError:
            continue
    return names


def skill_at(name: str, layout: Layout) -> Path | None:
    """The folder of the installed skill ``name`` beyond the stores (for E001's suggestions:
    only names that are skills are suggested)."""
    for entry, roots in _lookups(name, layout):
        for found in _found(entry, roots, layout):
            return found.path
    return None


def near_skill_names(
    skill: str, layout: Layout, limit: int = 3, *, installed: bool = False
) -> tuple[str, ...]:
    """Up to ``limit`` skill names of the project and global stores (with ``installed``, of
    every installed skill) close to ``skill`` (for E001's "did you mean"), closest first.
    Only on the error path: difflib is imported here (and this module by ``resolve_skill``)."""
    from difflib import get_close_matches

    stores = [layout.store(scope) for scope in layout.scopes()]
    names: set[str] = set()
    for store in stores:
        try:
            names.update(name for name in os.listdir(store) if not name.startswith("."))  # noqa: PTH208
        except OSError:
            continue
    others: set[str] = set()
    if installed:
        others = installed_names(layout) - names
        names |= others
    found: list[str] = []
    for name in get_close_matches(skill, sorted(names), n=max(len(names), 1), cutoff=0.6):
        if any((store / name / SKILL_FILE).is_file() for store in stores) or (
            name in others and skill_at(name, layout) is not None
        ):
            found.append(name)
            if len(found) == limit:
                break
    return tuple(found)


def gone_links(skill: str, layout: Layout) -> str:
    """The entries named ``skill`` in the folders it is looked for in that the listing skips:
    a link whose target is gone (or cannot be reached: a loop), a deployment whose store
    skill is gone (with how to remove it), said as E001's hint in the listing's words
    (:func:`~.entries.location_of`, :func:`~.entries.gone_link`; on the error path only);
    then, once, that ``skill`` itself is not UTF-8 (typed in a Latin-1 terminal, say)."""
    from skillc_index.files import is_utf8
    from skillc_index.inventory.entries import gone_link
    from skillc_index.layout import shown

    found = [
        gone
        for name, roots in _lookups(skill, layout)
        if _entry_name(name)
        for root in roots
        if (gone := _skipped(root, name, layout) or gone_link(f"{root.path}/{name}")) is not None
    ]
    said = [f"{shown(layout.display(gone.path))}: {gone.reason}" for gone in distinct(found)]
    if not is_utf8(skill):
        said.append("the name given is not UTF-8 (is the terminal's encoding UTF-8?)")
    return "; ".join(said)


def _skipped(root: Root, name: str, layout: Layout) -> Skipped | None:
    """The entry ``name`` of ``root`` when the listing skips it (a deployment whose store
    skill is gone, one that cannot be read), else None."""
    found = location_of(root, name, layout)
    return found if isinstance(found, Skipped) else None
