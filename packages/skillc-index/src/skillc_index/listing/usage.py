"""How much each installed skill is used, as an agent ranks its listing (issue 38): Claude
Code keeps the descriptions of the most-used skills when its listing is over budget and drops
the others' first (:func:`skillc_index.listing.agents.usage_priority`). The uses are those
skillc records in the access logs (the commands an agent runs on a skill, and the uses
``skc stats --import-transcripts`` imports from the agents' transcripts), all time.
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping, Sequence
from datetime import datetime
from typing import TYPE_CHECKING, NamedTuple

if TYPE_CHECKING:
    from skillc_index.config import Config
    from skillc_index.inventory.entries import InstalledSkill
    from skillc_index.layout import Layout

__all__ = ["recorded_priorities", "skill_usage"]


class _AllRows(NamedTuple):
    """No filter (:class:`~skillc_index.accesslog.reader.RowFilters`): every row counts."""

    since: str | None = None
    until: str | None = None
    projects: Sequence[str] = ()
    users: Sequence[str] = ()
    machines: Sequence[str] = ()


def _parsed(timestamp: str) -> datetime | None:
    try:
        return datetime.fromisoformat(timestamp.replace("Z", "+00:00"))
    except ValueError:
        return None


def _days_since(timestamp: str | None, now: datetime | None) -> float | None:
    then = None if timestamp is None else _parsed(timestamp)
    if then is None or now is None or then.tzinfo is None:
        return None
    return (now - then).total_seconds() / 86400


def recorded_priorities(skills: Iterable[InstalledSkill], layout: Layout) -> dict[str, float]:
    """The listing priority of each of ``skills`` from the local access logs, keyed by its
    source folder and by each place it is installed at (as written: an agent folder's entry);
    skills never used are left out (priority 0). Its uses are those ``skc stats --all``
    counts (:func:`~skillc_index.accesslog.reader.logs_of`: a folder imported into a store
    is its store copy, the reads logged under the folder before the import included, from
    whichever log holds them; a plugin's skill, with its other versions' rows:
    :func:`~skillc_index.accesslog.reader.add_versions`). A log that cannot be read counts as
    empty."""
    from skillc_index.accesslog.reader import (
        LocalRows,
        SkillUsage,
        add_usage,
        add_versions,
        logs_of,
        several_logs,
        usage_of,
    )
    from skillc_index.clock import utc_now
    from skillc_index.diagnostics import SkillcError
    from skillc_index.listing.agents import usage_priority
    from skillc_index.text import valid_utf8

    listed = list(skills)
    usage: dict[str, SkillUsage] = {}
    by_log = logs_of(listed, layout)
    spread = several_logs(by_log)
    for log, folders in by_log.items():
        rows = LocalRows(log)
        try:
            same = add_versions(rows, folders)  # (a plugin's skill: its other versions' rows)
            found = usage_of(rows, _AllRows(), "skill_path", list(folders), same, spread)
        except SkillcError:
            continue
        finally:
            rows.close()
        add_usage(usage, {use.key: use for use in found}, set(folders.values()))
    now = _parsed(utc_now())
    priorities: dict[str, float] = {}
    for skill in listed:
        use = usage.get(valid_utf8(str(skill.source)))
        if use is None:
            continue
        priority = usage_priority(use.uses, _days_since(use.last_used, now))
        if priority > 0:
            priorities[str(skill.source)] = priority
            for location in skill.locations:
                priorities[str(location.path)] = priority
    return priorities


def skill_usage(
    layout: Layout, config: Config, installed: Sequence[InstalledSkill] | None = None
) -> Mapping[str, float]:
    """Each installed skill's priority in a listing, by its folder: its recorded use
    (:func:`recorded_priorities`, which opens every access log). ``installed``: the
    inventory when the caller has read it (``list``'s), else read here."""
    if installed is None:
        from skillc_index.inventory.entries import installed_skills
        from skillc_index.inventory.folders import trusted_targets

        installed = installed_skills(layout, trusted_targets(layout, config)).skills
    return recorded_priorities(installed, layout)
