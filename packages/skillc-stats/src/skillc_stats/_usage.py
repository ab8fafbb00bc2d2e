"""The usage of every installed skill at once (``skc stats --all``): which to keep, which to
prune.

The installed skills are those ``skc find`` searches (:func:`skillc_index.installed.search_roots`:
the project and global stores, every agent skills folder, project and home, and the skills
folders of installed Claude Code plugins): each entry of such a folder holding a
``SKILL.md``, once per real path. An agent-folder entry deployed by skillc (a link to a
runtime folder, or a copy holding ``.skillc-meta/``) stands for its source skill, which is in
a store, and is not listed itself.

Locally, a skill's rows are in the log of its runtime (RFC-0007:C-RESOLUTION), under its
source folder (``skill_path``): one statement per log reads the use of all its skills, from
the index by ``skill_path``, time and working folder. In the team store, a skill is its name
(folders differ between machines): one statement reads every skill's use.
"""

# Paths are str here, not pathlib: this runs over every entry of every skills folder.
# ruff: noqa: PTH112, PTH113, PTH118, PTH119

from __future__ import annotations

import os
from collections import defaultdict
from collections.abc import Iterable, Mapping
from pathlib import Path
from typing import TYPE_CHECKING, Any, NamedTuple

from skillc_index import META_DIR, SKILL_FILE, Layout, valid_utf8
from skillc_index.accesslog import primary_log
from skillc_index.installed import search_roots
from skillc_stats._filters import Filters
from skillc_stats._log_queries import LocalRows, SkillUsage, usage

if TYPE_CHECKING:
    from skillc_stats._team import TeamStore

#: At most this many entries of one folder are looked at (a library of 20,000 skills fits).
MAX_ENTRIES = 100_000
_RUNTIME = os.sep + os.path.join(".skillc", "runtime") + os.sep


class InstalledSkill(NamedTuple):
    name: str
    path: str
    """The real path of its folder (what the access log records as ``skill_path``)."""


def installed_skills(
    layout: Layout, configured: Mapping[str, str] | None = None
) -> list[InstalledSkill]:
    """Every installed skill (see the module), in the order of the folders searched, each
    real path once. ``configured``: the config's ``[targets]``."""
    found: dict[str, InstalledSkill] = {}
    for root in search_roots(layout, configured):
        try:
            with os.scandir(root.path) as entries:
                names = sorted(
                    entry.name for _, entry in zip(range(MAX_ENTRIES), entries, strict=False)
                )
        except OSError:
            continue
        for name in names:
            if name.startswith("."):
                continue
            folder = root.path / name
            real = os.path.realpath(folder)
            if real in found or not os.path.isfile(os.path.join(real, SKILL_FILE)):
                continue
            if _RUNTIME in real + os.sep or os.path.isdir(os.path.join(real, META_DIR)):
                continue  # deployed by skillc: its source is listed from its store
            found[real] = InstalledSkill(os.path.basename(real), real)
    return list(found.values())


def _entry(name: str, path: str | None, use: SkillUsage | None) -> dict[str, Any]:
    return {
        "skill": name,
        "skill_path": path,
        "uses": use.uses if use else 0,
        "projects": use.projects if use else 0,
        "first_used": use.first_used if use else None,
        "last_used": use.last_used if use else None,
    }


def _prune_first(entry: Mapping[str, Any]) -> tuple[Any, ...]:
    """Unused skills first, then the longest unused, then the least used."""
    return (
        entry["uses"] > 0,
        entry["last_used"] or "",
        entry["uses"],
        entry["skill"],
        entry["skill_path"] or "",
    )


def local_usage(
    skills: Iterable[InstalledSkill], layout: Layout, filters: Filters
) -> list[dict[str, Any]]:
    """One entry per installed skill, from the local runtime logs."""
    from skillc_index import runtime_for

    by_log: dict[Path, list[InstalledSkill]] = defaultdict(list)
    for skill in skills:
        by_log[primary_log(runtime_for(Path(skill.path), layout)[1])].append(skill)
    entries: list[dict[str, Any]] = []
    for log, members in by_log.items():
        rows = LocalRows(log)
        try:
            paths = [valid_utf8(skill.path) for skill in members]
            found = {use.key: use for use in usage(rows, filters, "skill_path", paths)}
        finally:
            rows.close()
        for skill, path in zip(members, paths, strict=True):
            entries.append(_entry(skill.name, skill.path, found.get(path)))
    return entries


def team_usage(
    skills: Iterable[InstalledSkill], store: TeamStore, filters: Filters
) -> list[dict[str, Any]]:
    """One entry per skill name the team store holds rows of, or installed here."""
    local: dict[str, str] = {}
    for skill in skills:
        local.setdefault(skill.name, skill.path)
    found = {use.key: use for use in usage(store, filters, "skill")}
    names = sorted(set(local) | set(found))
    return [_entry(name, local.get(name), found.get(name)) for name in names]


def usage_response(entries: list[dict[str, Any]], filters: Filters) -> dict[str, Any]:
    """The ``--all`` answer in the shape of RFC-0003:C-SCHEMA: ``skill`` and ``skill_path``
    null, ``query`` ``all``, ``data`` the entries, the ones to prune first."""
    entries.sort(key=_prune_first)
    firsts = [entry["first_used"] for entry in entries if entry["first_used"]]
    lasts = [entry["last_used"] for entry in entries if entry["last_used"]]
    return {
        "skill": None,
        "skill_path": None,
        "query": "all",
        "filters": filters.to_dict(),
        "period": {"start": min(firsts, default=None), "end": max(lasts, default=None)},
        "data": entries,
    }


def query_all(
    layout: Layout | None = None,
    *,
    since: str | None = None,
    until: str | None = None,
    projects: Iterable[str | os.PathLike[str]] = (),
    store: str | None = None,
    users: Iterable[str] = (),
    machines: Iterable[str] = (),
    targets: Mapping[str, str] | None = None,
) -> dict[str, Any]:
    """The use of every installed skill (``skc stats --all --format json``), from the local
    logs, or from the team ``store`` (a ``postgresql://`` URL; ``users`` and ``machines``
    filter it). ``targets``: the config's ``[targets]``. Filters as :func:`query_stats`."""
    from skillc_stats._stats import team_filters

    layout = layout or Layout.discover()
    filters = team_filters(layout, since, until, projects, store, users, machines)
    skills = installed_skills(layout, targets)
    if store is None:
        return usage_response(local_usage(skills, layout, filters), filters)
    from skillc_stats._team import TeamStore

    with TeamStore(store, write=False) as team:
        return usage_response(team_usage(skills, team, filters), filters)
