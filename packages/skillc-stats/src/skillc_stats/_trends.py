"""Every skill at once, over time and by who and where (``skc stats --all --by
day|week|month``, and the page of ``skc stats --all --html``): the uses of all the skills per
period, each skill's uses per period, the skills rising and falling between the last two
periods, and the uses per project (and, in a team store, per user and machine).

The installed skills and their totals are :func:`skillc_stats._usage.query_all`'s; the counts
over time are one grouped statement per local log (:func:`skillc_index.accesslog.reader.
grouped_counts`, from the rows of the skills' source folders, by day; the caller sums each
log's days into the asked periods before the next log is read), or one over the team store's
rollups, summed by period there (:func:`skillc_stats._team_reads.counts_statement`). A row's
kind (use, author activity) is its command's and, a failed read being no use, its error's
(:func:`~skillc_index.accesslog.reader.row_kinds`).
"""

from __future__ import annotations

from collections import Counter, defaultdict
from collections.abc import Iterable, Iterator, Mapping, Sequence
from pathlib import Path
from typing import TYPE_CHECKING, Any

from skillc_index import Layout, UnreadableFile, valid_utf8
from skillc_index.accesslog.reader import (
    LocalRows,
    add_versions,
    grouped_counts,
    row_kinds,
    same_folders,
)
from skillc_stats._filters import Filters

if TYPE_CHECKING:
    from skillc_index import Notice
    from skillc_stats._team import TeamStore

#: Skills listed as rising and as falling (JSON and text alike).
MOVERS = 5


class AllCounts:
    """Grouped counts of every skill's rows within the filters: locally one statement per
    runtime log over its installed skills' folders, or one over the team ``store``."""

    def __init__(
        self,
        entries: Sequence[Mapping[str, Any]],
        layout: Layout,
        filters: Filters,
        store: TeamStore | None = None,
        logs: Mapping[Path, Mapping[str, str]] | None = None,
        versioned: dict[Path, dict[str, str]] | None = None,
    ) -> None:
        self.entries = entries
        self.logs = logs or {}
        """Locally, where the installed skills' rows are (:func:`~skillc_index.accesslog.
        reader.logs_of`, in inventory order, the map ``--all`` counted with): each log ->
        each folder its rows name -> its skill's source (a folder imported into a store: its
        store copy); a plugin's other versions' folders are added when each log is read
        (:func:`~skillc_index.accesslog.reader.add_versions`: an older one goes to the first
        installed version, as in ``--all``)."""
        self.versioned = {} if versioned is None else versioned
        """The logs whose folders have had those versions added, each with them: looked up
        once per log for every answer (``--all`` fills it with the logs it read)."""
        self.layout = layout
        self.filters = filters
        self.store = store
        self.notes: dict[str, Notice] = {}
        """What the answers left out, to say on stderr: the periods :func:`trends` did not
        show, by period kind (:func:`~skillc_stats._periods.periods_note`), and the logs that
        could not be read, by path (:func:`~skillc_stats._usage.unreadable_log`)."""

    def key(self, entry: Mapping[str, Any]) -> str | None:
        """What the rows call a skill: its folder here, its name in the team store."""
        if self.store is not None:
            return str(entry["skill"])
        return None if entry["skill_path"] is None else valid_utf8(str(entry["skill_path"]))

    def counts(
        self, keys: Sequence[str], by: str = "day", *, per_skill: bool = True
    ) -> Iterator[tuple[Any, ...]]:
        """``(skill key, *keys, command, rows)`` (``per_skill``), else ``(*keys, command,
        rows)`` (the skills summed); a ``day`` key is the ``by`` period holding the day
        (:func:`~skillc_stats._periods.period_of`), a row in none left out. The team store sums
        by period in its statement; locally one log's rows by day are read at a time and
        given as their periods, for the caller to sum: never every log's days at once (that
        memory grew with the days of history, whatever the periods asked)."""
        from skillc_stats._periods import period_of

        at = keys.index("day") + per_skill if "day" in keys else None
        for row in self._counts(keys, by, per_skill):
            if at is not None:
                period = period_of(str(row[at]), by)
                if period is None:
                    continue
                row = (*row[:at], period, *row[at + 1 :])
            yield row

    def _counts(self, keys: Sequence[str], by: str, per_skill: bool) -> Iterator[tuple[Any, ...]]:
        """:meth:`counts` by day (in the team store by period), each local log in turn."""
        if self.store is not None:
            from skillc_stats._team_reads import counts_statement

            of_skill = ("skill",) if per_skill else ()
            statement = counts_statement(self.filters, (*of_skill, *keys), by=by)
            yield from (tuple(row) for row in self.store(*statement))
            return
        of_folder = ("skill_path",) if per_skill else ()
        for path, logged in self.logs.items():
            folders = self.versioned.get(path)
            rows = LocalRows(path)
            try:
                if folders is None:
                    folders = dict(logged)  # (add_versions adds to it)
                    add_versions(rows, folders)
                    self.versioned[path] = folders
                found = grouped_counts(
                    rows, self.filters, "skill_path", list(folders), (*of_folder, *keys),
                    same_folders(folders),
                )  # fmt: skip
            except UnreadableFile as exc:  # the others are counted, this one said
                from skillc_stats._usage import unreadable_log

                self.notes[str(path)] = unreadable_log(exc)
                continue
            finally:
                rows.close()
            for row in found:
                if per_skill:  # (the periods sum them with the skill's)
                    row = (folders.get(row[0], row[0]), *row[1:])
                yield tuple(row)
            del found  # (before the next log's are read)

    def uses_by(self, key: str) -> list[dict[str, Any]]:
        """The uses of every skill per value of ``key`` (``cwd``, ``username``, ``machine``),
        most first: ``[{"name", "uses"}]``."""
        from skillc_stats._stats import ranked_uses

        return ranked_uses(self.counts((key,), per_skill=False))


def trends(counts: AllCounts, by: str, end: str) -> dict[str, Any]:
    """``data`` of ``--all --by``: ``periods`` (every skill's uses, author activity and
    accesses per period, from the first period with an access to the one holding ``end``, a
    ``YYYY-MM-DD`` day), ``skills`` (each skill's uses in the range and per period, and the
    change between the last two periods; most used first) and the ``rising`` and ``falling``
    skills (the :data:`MOVERS` largest changes each way; none with fewer than two periods,
    which have no change, as the text shows none)."""
    from skillc_stats._periods import (
        kinds_by_period,
        period_of,
        period_rows,
        periods_note,
        shown_periods,
    )

    per_skill: dict[str, Counter[str]] = defaultdict(Counter)  # each skill's uses per period

    def summed() -> Iterator[tuple[Any, ...]]:
        """The rows summed over the skills, each skill's uses counted on the way (the
        counts are read once: one log at a time)."""
        for skill, period, command, count, failed in counts.counts(("day",), by):
            (kind, uses), _failed = row_kinds(command, count, failed)
            if kind == "use":
                per_skill[str(skill)][period] += uses
            yield period, command, count, failed

    kinds = kinds_by_period(summed(), by)
    runs_to = max(max(kinds, default=""), period_of(end, by) or "")  # (today's: quiet ones)

    def days() -> dict[str, Counter[str]]:  # (a second read: only when every row may be later)
        return kinds_by_period(counts.counts(("day",), "day", per_skill=False), "day")

    first, last = shown_periods(kinds, runs_to, end, by, days) if kinds else ("", "")
    note = periods_note(first, last, by)
    if note is not None:
        counts.notes[by] = note
    rows = period_rows(kinds, first, last, by)
    periods = [row["period"] for row in rows]
    skills = []
    for entry in counts.entries:
        key = counts.key(entry)
        series = [per_skill[key][p] for p in periods] if key is not None else [0] * len(periods)
        previous, latest = (series[-2], series[-1]) if len(series) > 1 else (0, sum(series[-1:]))
        skills.append(
            {
                "skill": entry["skill"],
                "skill_path": entry["skill_path"],
                "uses": sum(series),
                "by_period": series,
                "previous": previous,
                "last": latest,
                "change": latest - previous,
            }
        )
    skills.sort(key=lambda s: (-s["uses"], s["skill"], s["skill_path"] or ""))
    moved = [
        {k: s[k] for k in ("skill", "skill_path", "previous", "last", "change")}
        for s in (skills if len(periods) > 1 else [])
    ]
    rising = sorted((m for m in moved if m["change"] > 0), key=lambda m: -m["change"])
    falling = sorted((m for m in moved if m["change"] < 0), key=lambda m: m["change"])
    return {
        "periods": rows,
        "skills": skills,
        "rising": rising[:MOVERS],
        "falling": falling[:MOVERS],
    }


def end_day(filters: Filters) -> str:
    """The day the periods run to: that of ``--until`` when it is past, else today (UTC): a
    later ``--until`` (``9999-12-31``) ran ``--all --by`` and the pages to 1,000 empty days."""
    from skillc_index.clock import utc_now

    today = utc_now()[:10]
    return min(filters.until[:10], today) if filters.until else today


def all_response(usage: dict[str, Any], trend: dict[str, Any], by: str) -> dict[str, Any]:
    """The ``--all --by`` answer: the ``--all`` response (:func:`~skillc_stats._usage.
    usage_response`) with ``query`` ``all by <period>`` and ``trend`` (:func:`trends` to
    :func:`end_day`) as ``data``."""
    return {**usage, "query": f"all by {by}", "data": trend}


def top(entries: Iterable[Mapping[str, Any]], count: int) -> list[Mapping[str, Any]]:
    """The ``count`` most used skills (used at all), most first."""
    used = [entry for entry in entries if entry["uses"]]
    return sorted(used, key=lambda e: (-e["uses"], e["skill"]))[:count]


def page_data(usage: Mapping[str, Any], counts: AllCounts, by: str | None) -> dict[str, Any]:
    """What the page of every skill shows: the ``--all`` answer (``usage``), the trends by
    ``by`` (or by :func:`~skillc_stats._periods.page_period`), the uses per project, and in a
    team store per user and machine."""
    from skillc_stats._periods import page_period

    end = end_day(counts.filters)

    def days() -> Iterator[str]:  # (read only when the earliest row is on no day)
        return (str(row[0]) for row in counts.counts(("day",), "day", per_skill=False))

    by = by or page_period(usage["period"]["start"], end, days)
    found: dict[str, Any] = {"usage": usage, "by": by, "trend": trends(counts, by, end)}
    found["projects"] = counts.uses_by("cwd")
    if counts.store is not None:
        found["users"] = counts.uses_by("username")
        found["machines"] = counts.uses_by("machine")
    return found
