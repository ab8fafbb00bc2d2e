"""How much each installed skill is used, as an agent ranks its listing (issue 38): Claude
Code keeps the descriptions of the most-used skills when its listing is over budget and drops
the others' first (:func:`skillc_index.listing.agents.usage_priority`). The uses are those
skillc records in the access logs (the commands an agent runs on a skill, and the uses
``skc stats --import-transcripts`` imports from the agents' transcripts), all time.
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from datetime import datetime
from pathlib import Path
from typing import TYPE_CHECKING, NamedTuple

if TYPE_CHECKING:
    from skillc_index.inventory.entries import InstalledSkill
    from skillc_index.layout import Layout

__all__ = ["recorded_priorities"]


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
    skills never used are left out (priority 0). A log that cannot be read counts as empty."""
    from skillc_index.accesslog.reader import LocalRows, usage_of
    from skillc_index.accesslog.store import primary_log_finder
    from skillc_index.clock import utc_now
    from skillc_index.diagnostics import SkillcError
    from skillc_index.listing.agents import usage_priority

    by_log: dict[Path, list[InstalledSkill]] = {}
    log_of = primary_log_finder(layout)
    for skill in skills:
        by_log.setdefault(log_of(str(skill.source)), []).append(skill)
    now = _parsed(utc_now())
    found: dict[str, float] = {}
    for log, members in by_log.items():
        rows = LocalRows(log)
        try:
            paths = [str(skill.source) for skill in members]
            uses = {use.key: use for use in usage_of(rows, _AllRows(), "skill_path", paths)}
        except SkillcError:
            continue
        finally:
            rows.close()
        for skill in members:
            use = uses.get(str(skill.source))
            if use is None:
                continue
            priority = usage_priority(use.uses, _days_since(use.last_used, now))
            if priority > 0:
                found[str(skill.source)] = priority
                for location in skill.locations:
                    found[str(location.path)] = priority
    return found
