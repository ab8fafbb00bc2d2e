"""The usage of every installed skill at once (``skc stats --all``): which to keep, which to
prune.

The installed skills are the inventory's (:func:`skillc_index.inventory.entries.installed_skills`:
the set ``skc list`` lists and ``skc find`` searches: the project and global stores, every
agent skills folder, project, nested and home, and the skills folders of installed Claude
Code plugins), each once: a skill deployed by skillc (a link to a runtime folder, or a copy
holding ``.skillc-meta/``) is its source skill.

Locally, a skill's rows are in the log of its runtime (RFC-0007:C-RESOLUTION), under its
source folder (``skill_path``; a Claude Code plugin's skill, under any version's folder:
:func:`skillc_index.accesslog.reader.add_versions`): one statement per log reads the use of
all its skills, from the index by ``skill_path``, time and working folder, and
:class:`UsageCache` keeps the answer of each log until the log changes (opening 2,000 logs
is most of the cost). In the team store, a skill is its name (folders differ between
machines): one statement reads every skill's use.

Uses are agents' reads and activations; the author's own ``build``, ``lint`` and ``stats`` runs
are counted apart (``author_activity``), never as uses, nor in ``projects``, ``first_used`` or
``last_used`` (:data:`skillc_index.accesslog.USE_COMMANDS`, ``AUTHOR_COMMANDS``). A skill its
author only builds is never used: it is listed with the ones to prune.
"""

# Paths are str here, not pathlib: this runs over every entry of every skills folder.
# ruff: noqa: PTH116

from __future__ import annotations

import json
import os
import time
from collections.abc import Iterable, Mapping
from pathlib import Path
from typing import TYPE_CHECKING, Any

from skillc_index import Layout, UnreadableFile, valid_utf8
from skillc_index.accesslog.reader import (
    LocalRows,
    SkillUsage,
    add_usage,
    add_versions,
    followed_folder,
    logs_of,
    same_folders,
    several_logs,
    usage_of,
)
from skillc_index.clock import time_order
from skillc_index.inventory.entries import InstalledSkill, installed_skills
from skillc_stats._filters import Filters, Folders, Names, Time

if TYPE_CHECKING:
    from skillc_index import Notice, ResolvedSkill
    from skillc_stats._team import TeamStore

#: The cache of ``--all`` (:class:`UsageCache`), in the skillc home.
CACHE_FILE = "stats-usage.json"
#: 2: each skill's author activity apart from its uses (version 1 counted every row as a use).
#: 3: the working folders of a skill whose rows are in several logs (``SkillUsage.folders``).
#: 4: a failed read is no use (version 3 counted it in the uses, projects, first and last use).
CACHE_VERSION = 4
MAX_CACHE_BYTES = 64 * 1024 * 1024


def _entry(name: str, path: str | None, use: SkillUsage | None) -> dict[str, Any]:
    return {
        "skill": name,
        "skill_path": path,
        "uses": use.uses if use else 0,
        "projects": use.projects if use else 0,
        "first_used": use.first_used if use else None,
        "last_used": use.last_used if use else None,
        "author_activity": use.author_activity if use else 0,
    }


def _prune_first(entry: Mapping[str, Any]) -> tuple[Any, ...]:
    """Unused skills first, then the longest unused, then the least used."""
    return (
        entry["uses"] > 0,
        time_order(entry["last_used"]) if entry["last_used"] else "",
        entry["uses"],
        entry["skill"],
        entry["skill_path"] or "",
    )


def _stamp(log: Path) -> list[int]:
    """Size, modification and change time of the log and its WAL (``-1`` when missing or,
    for the WAL, empty: a reader may create it): a committed write changes one of them (the
    WAL until a checkpoint, then the database)."""
    stamp: list[int] = []
    for path in (str(log), f"{log}-wal"):
        try:
            st = os.stat(path)
        except OSError:
            st = None
        if st is None or (path.endswith("-wal") and st.st_size == 0):
            stamp += [-1, -1, -1]
        else:
            stamp += [st.st_size, st.st_mtime_ns, st.st_ctime_ns]
    return stamp


def _settled(stamp: list[int]) -> bool:
    """Whether the files of a :func:`_stamp` were last changed longer ago than their file
    system's timestamp granularity (:func:`skillc_index.file_times.settled`): a log written
    again within it could keep its stamp."""
    from skillc_index.file_times import settled

    now = time.time_ns()
    times = [(stamp[i], stamp[i + 1]) for i in range(1, len(stamp) - 1, 3)]
    return all(settled(mtime, ctime, now) for mtime, ctime in times if mtime != -1)


#: The most a count of rows can be (SQLite's largest integer).
MAX_COUNT = (1 << 63) - 1


def _count(value: object) -> bool:
    return type(value) is int and 0 <= value <= MAX_COUNT


def _possible(use: SkillUsage) -> bool:
    """Whether a cached entry's values could be a log's (its shape already checked): counts
    whole numbers from 0 to :data:`MAX_COUNT`, no more projects than uses, a first and a
    last use both or neither, only when there are uses, each a timestamp as rows hold them
    (:func:`~skillc_index.clock.is_utc_timestamp`), the first not after the last, folders
    texts. A damaged ``stats-usage.json`` of the right shape printed negative counts,
    ``10**30`` uses or a last use on ``2026-13-99``."""
    from skillc_index.clock import is_utc_timestamp

    if not all(_count(n) for n in (use.uses, use.projects, use.author_activity)):
        return False
    if use.projects > use.uses or not all(isinstance(f, str) for f in use.folders):
        return False
    first, last = use.first_used, use.last_used
    if first is None or last is None:  # none used, or no use row with a valid time
        return first is None and last is None
    return (
        use.uses > 0
        and isinstance(first, str)
        and isinstance(last, str)
        and is_utc_timestamp(first)
        and is_utc_timestamp(last)
        and first <= last
    )


class UsageCache:
    """What ``--all`` last read from each log, under the stamp the log had and the filters
    asked (:data:`CACHE_FILE` in the skillc home): an unchanged log is not opened again. A
    log changed within its file system's timestamp granularity of the reading is not kept
    (:func:`_settled`: a second write within it could keep its stamp). Missing, unreadable
    or foreign: empty. When it is written, the entries of logs that are gone (a deleted
    project's) and that this run did not ask for are dropped."""

    def __init__(self, path: Path) -> None:
        self.path = path
        self.logs: dict[str, Any] = {}
        self.changed = False
        self.asked: set[str] = set()  # the logs of this run (a missing log's entry is kept)
        from skillc_index import read_json_bounded

        try:
            data = read_json_bounded(path, max_bytes=MAX_CACHE_BYTES)
        except (OSError, ValueError):
            return
        if isinstance(data, dict) and data.get("version") == CACHE_VERSION:
            logs = data.get("logs")
            self.logs = logs if isinstance(logs, dict) else {}

    def get(self, log: Path, stamp: list[int], key: str) -> dict[str, SkillUsage] | None:
        self.asked.add(str(log))
        entry = self.logs.get(str(log))
        if not isinstance(entry, dict) or entry.get("stamp") != stamp or entry.get("key") != key:
            return None
        try:
            found = {}
            for path, (*head, folders) in entry["usage"].items():  # (put's field order)
                use = SkillUsage._make((path, *head, tuple(folders)))
                if not _possible(use):  # the right shape, impossible values: read again
                    return None
                found[path] = use
            return found
        except (AttributeError, TypeError, KeyError, ValueError):
            return None

    def put(self, log: Path, stamp: list[int], key: str, found: dict[str, SkillUsage]) -> None:
        if not _settled(stamp):
            self.logs.pop(str(log), None)
            return
        usage_ = {path: list(use[1:]) for path, use in found.items()}
        self.logs[str(log)] = {"stamp": stamp, "key": key, "usage": usage_}
        self.changed = True

    def save(self) -> None:
        """Replace the file in one rename; a cache that cannot be written is no error."""
        if not self.changed:
            return
        for log in [log for log in self.logs if log not in self.asked]:
            if not os.path.lexists(log):  # its project deleted: it would stay for good
                del self.logs[log]
        data = json.dumps({"version": CACHE_VERSION, "logs": self.logs}).encode()
        if len(data) > MAX_CACHE_BYTES:
            return
        import contextlib

        from skillc_index.atomic import write_file_atomic

        # its folder a file (~/.skillc), not writable, no space: no cache this time; its
        # folder made first (the user's skillc home: a project-only user has none)
        with contextlib.suppress(OSError):
            write_file_atomic(self.path, data, parents=True)


def unreadable_log(
    error: UnreadableFile, left: str = "its skills are listed with no uses"
) -> Notice:
    """What ``--all`` says of a runtime log it cannot read (not a database, a FIFO): the
    others are read, and (``left``) its skills listed with no uses; ``stats SKILL`` of its
    other scope's log alike."""
    from skillc_index import Notice

    return Notice(f"skipped {error.path}: cannot read it: {error.reason} ({left})")


def local_usage(
    skills: Iterable[InstalledSkill],
    layout: Layout,
    filters: Filters,
    notes: dict[str, Notice] | None = None,
    logs: Mapping[Path, Mapping[str, str]] | None = None,
    versioned: dict[Path, dict[str, str]] | None = None,
) -> list[dict[str, Any]]:
    """One entry per installed skill, from the local runtime logs: one statement per log
    changed since the last ``--all`` with the same filters (:class:`UsageCache`). A skill's
    rows are those of every folder it is logged as (:meth:`InstalledSkill.logged_as`: a
    folder imported into a store counts as its store copy; a plugin's skill, its other
    versions' folders, :func:`add_versions`), each row once. ``logs``: :func:`logs_of` the
    skills when the caller has it (the trends count with the same map); ``versioned`` gets
    each log read with its folders as :func:`add_versions` left them (the trends' own
    :attr:`~skillc_stats._trends.AllCounts.versioned`: looked up once per log)."""
    listed = list(skills)
    by_log = logs_of(listed, layout) if logs is None else logs  # log -> folder -> source
    several = several_logs(by_log)  # their projects: the union of their logs' (add_usage)
    cache = UsageCache(layout.global_dir / CACHE_FILE)
    filters_key = json.dumps(filters.to_dict(), sort_keys=True)
    usage: dict[str, SkillUsage] = {}
    for log, logged in by_log.items():
        folders = dict(logged)  # (add_versions adds to it)
        same = same_folders(folders)
        spread = sorted(several & set(folders.values()))
        # the folders add_versions follows (a plugin's: its other versions' folders are looked
        # for when the log is read; a store skill's: its folders before its base moved)
        followed = sorted(filter(followed_folder, folders))
        parts = [sorted(same.items()), spread, *([followed] if followed else [])]
        key = f"{filters_key} {json.dumps(parts)}" if same or spread or followed else filters_key
        stamp = _stamp(log)
        found = cache.get(log, stamp, key)
        if found is None:
            rows = LocalRows(log)
            try:
                if followed:
                    same = add_versions(rows, folders)
                if versioned is not None:
                    versioned[log] = folders
                uses = usage_of(rows, filters, "skill_path", same=same, spread=spread)
                found = {use.key: use for use in uses}
            except UnreadableFile as exc:  # one log must not hide every other skill's use
                found = {}
                if notes is not None:
                    notes[str(log)] = unreadable_log(exc)
            else:
                if _stamp(log) == stamp:  # no write while it was read
                    cache.put(log, stamp, key, found)
            finally:
                rows.close()
        add_usage(usage, found, set(folders.values()))
    cache.save()
    from skillc_index.inventory.resolve import skill_names

    entries: list[dict[str, Any]] = []
    for skill, name in zip(listed, skill_names(listed), strict=True):  # plugin:skill, as list
        path = str(skill.source)
        entries.append(_entry(name, path, usage.get(valid_utf8(path))))
    return entries


def logged_folders(skill: ResolvedSkill, layout: Layout) -> dict[str, str]:
    """For a store copy with an import record or a Claude Code plugin's skill: each folder
    logged in the skill's own log by a skill the inventory holds as one of that name
    (:meth:`InstalledSkill.logged_as`; every installed version), mapped to that skill's
    source; empty for any other skill (its rows are its source's, a store skill's folders
    before its base moved too: :func:`own_folders`). The log is not read:
    :func:`own_folders` picks the skill's folders from the rows the query opens."""
    from skillc_index.import_record import ImportRecord
    from skillc_index.inventory.plugins import plugin_folders, plugin_version_parts

    name = skill.runtime.name
    if plugin_version_parts(str(skill.source)) is not None:  # every installed plugin's skill
        from skillc_index.inventory.entries import Location, group, location_of

        found = [location_of(root, name, layout) for root in plugin_folders(layout)]
        skills = group(place for place in found if isinstance(place, Location))
    elif skill.in_store and ImportRecord.read(skill.source) is not None:
        from skillc_index.config import load_config
        from skillc_index.inventory.folders import trusted_targets

        skills = installed_skills(layout, trusted_targets(layout, load_config(layout))).skills
    else:
        return {}  # (no inventory walk: a skill nothing was imported into is its folder)
    from skillc_index.accesslog import primary_log

    # the skills logged in its log: those with a folder of its name (every installed version)
    named = [one for one in skills if any(Path(f).name == name for f in one.logged_as(layout))]
    return logs_of(named, layout).get(primary_log(skill.runtime), {})


def own_folders(rows: LocalRows, folders: Mapping[str, str], source: str) -> tuple[str, ...]:
    """The folders of ``folders`` (:func:`logged_folders`, else ``source`` alone) that are the
    skill at ``source``'s, with the other versions' of a plugin's skill and a store skill's
    folders before its base moved that its log's ``rows`` name (:func:`add_versions`: an
    older version goes to the first installed one); ``source`` alone when there are none."""
    found = dict(folders) if folders else {source: source}
    add_versions(rows, found)
    mine = valid_utf8(source)
    return tuple(folder for folder, of in found.items() if of == mine) or (source,)


def former_notices(skill: ResolvedSkill, layout: Layout) -> tuple[Notice, ...]:
    """A notice of each log that holds rows of ``skill`` from before its runtime was named
    after its store entry (:func:`~skillc_index.accesslog.store.former_logs`: a store's link
    to a folder of another name), which its summary does not read; ``skc stats --all``
    counts them (:func:`~skillc_index.accesslog.reader.logs_of`). None for any other skill."""
    from skillc_index import Notice
    from skillc_index.accesslog import primary_log
    from skillc_index.accesslog.store import former_logs
    from skillc_index.text import counted

    notices = []
    source = str(skill.source)
    for log in former_logs(source, primary_log(skill.runtime), layout):
        rows = LocalRows(log)
        try:
            query = "SELECT COUNT(*) FROM access_log WHERE skill_path = ?"
            count = rows(query, [valid_utf8(source)])[0][0]
        except UnreadableFile:  # (its own summary says nothing of a log it cannot read)
            continue
        finally:
            rows.close()
        if count:
            notices.append(
                Notice(
                    f"{counted(count, 'row')} of '{skill.name}' logged before its runtime was "
                    f"named after its store entry {'is' if count == 1 else 'are'} in "
                    f"{layout.display(log)}: counted by `stats --all`, not by this summary"
                )
            )
    return tuple(notices)


def elsewhere(source: str, in_store: bool, layout: Layout) -> bool:
    """Whether the rows of the skill at ``source`` may be in runtimes this folder's ``stats``
    does not read: a skill in no store outside this project (a home agent skill, a plugin's)
    logs to the runtime of the project it is used in, else to skillc's home (DECISIONS,
    runtime), and skillc keeps no list of those projects. A project's own agent skills and
    every store skill log where ``stats`` reads (:func:`~skillc_index.accesslog.store.
    scope_logs`: this project's runtime and the home's)."""
    root = layout.project_root
    return not in_store and (root is None or not Path(source).is_relative_to(root))


def elsewhere_notice(names: list[str], layout: Layout) -> Notice:
    """What ``stats`` says of the skills :func:`elsewhere` (``names``, three shown) whose
    uses it cannot all count (``--all``: those it lists with none)."""
    from skillc_index import Notice

    one = len(names) == 1
    shown = ", ".join(f"'{name}'" for name in names[:3])
    if not one:
        shown = (
            f"{len(names)} skills listed with no use ({shown}{', ...' if len(names) > 3 else ''})"
        )
    read = (
        "this project's runtime and skillc's home's" if layout.project_root else "skillc's home's"
    )
    from skillc_index.text import shell_word

    # (a folder's name as one shell word: `a b;$(id)` pasted would run id)
    command = (
        f"skc stats {shell_word(names[0])}" if one and len(names[0]) <= 64 else "skc stats --all"
    )
    return Notice(
        f"{shown} {'is' if one else 'are'} in no store: a use is logged in the runtime of the "
        f"project it is made in (else skillc's home), and only {read} are read here; uses in "
        f"other projects are not counted: run `{command}` in them"
    )


def team_usage(
    skills: Iterable[InstalledSkill], store: TeamStore, filters: Filters
) -> list[dict[str, Any]]:
    """One entry per skill name the team store holds rows of, or installed here (shown as
    the installed skill of that name is: ``plugin:skill`` for a plugin's, as locally)."""
    from skillc_index.inventory.resolve import skill_names

    listed = list(skills)
    local: dict[str, str] = {}
    shown: dict[str, str] = {}
    for skill, name in zip(listed, skill_names(listed), strict=True):
        if skill.name not in local:
            local[skill.name], shown[skill.name] = str(skill.source), name
    found = {use.key: use for use in store.usage(filters)}
    names = sorted(set(local) | set(found))
    return [_entry(shown.get(name, name), local.get(name), found.get(name)) for name in names]


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
        "period": {
            "start": min(firsts, default=None, key=time_order),
            "end": max(lasts, default=None, key=time_order),
        },
        "data": entries,
    }


def query_all(
    layout: Layout | None = None,
    *,
    since: Time | None = None,
    until: Time | None = None,
    projects: Folders = (),
    store: str | None = None,
    users: Names = (),
    machines: Names = (),
    targets: Mapping[str, str] | None = None,
    by: str | None = None,
) -> dict[str, Any]:
    """The use of every installed skill (``skc stats --all --format json``), from the local
    logs, or from the team ``store`` (a ``postgresql://`` URL; ``users`` and ``machines``
    filter it). ``targets``: the config's ``[targets]``. Filters as :func:`query_stats`.
    ``by`` (``day``, ``week``, ``month``): their uses over time instead
    (:func:`skillc_stats._trends.trends`). Another ``by``, or ``targets`` that map no names
    to folders, is E100 (as ``--by`` on the command line), checked first."""
    from typing import get_args

    from skillc_index.items import checked_targets
    from skillc_index.layout import shown
    from skillc_index.option_errors import InvalidOption
    from skillc_stats._filters import team_filters
    from skillc_stats.operations import Period

    periods: tuple[str, ...] = get_args(Period)
    if by is not None and (not isinstance(by, str) or by not in periods):
        given = f"'{shown(by)}'" if isinstance(by, str) else type(by).__name__
        raise InvalidOption(f"by must be {', '.join(periods[:-1])} or {periods[-1]}, not {given}")
    checked_targets(targets)
    layout = layout or Layout.discover()
    filters = team_filters(layout, since, until, projects, store, users, machines)
    return all_answers(layout, filters, store, targets, by)[0]


def all_answers(
    layout: Layout,
    filters: Filters,
    store: str | None,
    targets: Mapping[str, str] | None,
    by: str | None,
    page: bool = False,
) -> tuple[dict[str, Any], dict[str, Any] | None, tuple[Notice, ...]]:
    """:func:`query_all`'s answer, with ``page`` what the HTML page of every skill shows
    (:func:`skillc_stats._trends.page_data`), and the notices of what they left out."""
    from skillc_stats._trends import AllCounts, all_response, end_day, page_data, trends

    skills = installed_skills(layout, targets).skills

    def answer(usage: dict[str, Any], counts: AllCounts) -> tuple[Any, Any, Any]:
        extra = page_data(usage, counts, by) if page else None
        found = usage
        if by:  # the page's trends when it has them: every log is read once for them
            trend = extra["trend"] if extra is not None else trends(counts, by, end_day(filters))
            found = all_response(usage, trend, by)
        return found, extra, tuple(counts.notes.values())

    if store is None:
        notes: dict[str, Notice] = {}
        logs = logs_of(skills, layout)  # (in inventory order: one map for both answers)
        versioned: dict[Path, dict[str, str]] = {}  # (a plugin's versions looked up once)
        entries = local_usage(skills, layout, filters, notes, logs, versioned)
        unused = [  # (entries in inventory order)
            entry["skill"]
            for skill, entry in zip(skills, entries, strict=True)
            if not entry["uses"] and elsewhere(str(skill.source), skill.store is not None, layout)
        ]
        if unused:  # "never used" only as far as this folder's runtimes know
            notes["elsewhere"] = elsewhere_notice(unused, layout)
        usage = usage_response(entries, filters)
        counts = AllCounts(usage["data"], layout, filters, logs=logs, versioned=versioned)
        counts.notes.update(notes)
        return answer(usage, counts)
    from skillc_stats._team import TeamStore

    with TeamStore(store, write=False) as team:
        usage = usage_response(team_usage(skills, team, filters), filters)
        return answer(usage, AllCounts(usage["data"], layout, filters, team))
