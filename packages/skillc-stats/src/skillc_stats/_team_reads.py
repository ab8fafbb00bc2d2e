"""The reads of the reports over a team store (:mod:`._team`): a subquery of the rows the
filters keep, summed from the rollups of :mod:`._team_sql` (the whole days) and read from the
log (the parts of days a time filter cuts: :func:`rolled`), and the statements built on it
(one skill's, :func:`skill_statement`; the counts of the trends, :func:`counts_statement`).
``--all`` is :mod:`._team_all`'s. Parameterised SQL only, ``?`` marks (made ``%s`` when run).
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import replace
from typing import Any

from skillc_index.accesslog.reader import ROW_FAILED, USE_ROW, where_clause
from skillc_stats._filters import Filters
from skillc_stats._team_days import (
    PERIOD_OF,
    ROW_INSTANT,
    Part,
    _in_range,
    _row_parts,
    _split_days,
)
from skillc_stats._team_sql import ROLLUP_DAY, TARGET

__all__ = [
    "COMMAND_TARGETS",
    "ERRORS",
    "TARGETS_OF",
    "USES_BY_CWD",
    "counts_statement",
    "cut_rows",
    "rolled",
    "skill_statement",
]


#: What a stored row holds for each column of a rollup's sums (its day as in the rollups; its
#: time as first and last only when it is an instant, :data:`ROW_INSTANT`), and a rollup's
#: first and last (none: the edges of its days tell them, :func:`._team_all.edges`).
_ROW_VALUES = {"day": ROLLUP_DAY, "target": TARGET, "accesses": "1", "failed": ROW_FAILED}
_ROW_VALUES |= dict.fromkeys(("first", "last"), f"CASE WHEN {ROW_INSTANT} THEN timestamp END")
_ROLLUP_VALUES = dict.fromkeys(("first", "last"), "CAST(NULL AS TEXT)")


def rolled(
    filters: Filters,
    columns: tuple[str, ...],
    daily: str,
    total: str,
    skill: str | None = None,
) -> tuple[str, list[Any]]:
    """A subquery of ``columns`` (rollup columns, ``accesses``, ``first``, ``last``: sums of
    rows; ``first`` and ``last`` the instants of the rows read, NULL for a rollup's) over the
    rows the filters keep (of ``skill`` only, when given), ``?`` marks, and its parameters:
    with no time filter, from the all-time rollup ``total``; else the whole days
    from the rollup by day ``daily``, and the rows of the days the time filters cut (at most
    one at each end) from the log, as those of a whole day at an end that holds a row the
    bounds leave out (:func:`._team_days._split_days`)."""
    select = ", ".join(f"{_ROLLUP_VALUES.get(column, column)} AS {column}" for column in columns)
    key: tuple[str | None, list[str]] = ("skill", [skill]) if skill is not None else (None, [])
    if filters.since is None and filters.until is None:
        where, params = where_clause(filters, *key)
        return f"SELECT {select} FROM {total}{where}", params
    days = _split_days(filters.since, filters.until)
    sql, params = where_clause(replace(filters, since=None, until=None), *key)
    branch, values = _in_range(f"SELECT {select} FROM {daily}", sql, params, "day", days.whole)
    undoubted, undoubted_params = days.undoubted()  # left out when its rows are read instead
    branches = [(branch + undoubted, values + undoubted_params)]
    of_rows = ", ".join(f"{_ROW_VALUES.get(column, column)} AS {column}" for column in columns)
    for part, check, extra in _row_parts(days):
        cut, cut_params = cut_rows(filters, part, *key)
        branches.append((f"SELECT {of_rows} FROM access_log{cut}{check}", cut_params + extra))
    union = " UNION ALL ".join(branch for branch, _ in branches)
    return union, [value for _, branch_params in branches for value in branch_params]


def cut_rows(
    filters: Filters, part: Part, column: str | None = None, values: Sequence[str] = ()
) -> tuple[str, list[Any]]:
    """``WHERE`` for the rows of ``part`` (:func:`._team_days._split_days`) the filters keep
    (:func:`where_clause`'s ``column`` and ``values`` too), and its parameters."""
    low, high, below = part
    where, params = where_clause(replace(filters, since=low, until=high), column, values)
    if below is None:
        return where, params
    return f"{where} AND timestamp < ?", [*params, below]


#: One skill's rows, summed: what the per-skill statements read (:func:`rolled`).
_SKILL_COLUMNS = ("command", "target", "error", "cwd", "accesses")
_SUM = "CAST(SUM(accesses) AS BIGINT)"


def skill_statement(
    filters: Filters, skill: str, select: str, tail: str = "", extra: Sequence[Any] = ()
) -> tuple[str, list[Any]]:
    """``SELECT {select} FROM`` the rows of ``skill`` the filters keep, summed from the
    rollups, then ``tail`` (``WHERE``, ``GROUP BY``; its values ``extra``)."""
    union, values = rolled(filters, _SKILL_COLUMNS, "usage_targets", "usage_totals", skill)
    return f"SELECT {select} FROM ({union}) AS rolled{tail}", [*values, *extra]


def _names_rows(filters: Filters) -> bool:
    """Whether ``filters`` keep rows by user, machine or project (a rollup without them
    cannot tell)."""
    return bool(filters.projects or filters.users or filters.machines)


def counts_statement(
    filters: Filters, keys: Sequence[str], skill: str | None = None, by: str = "day"
) -> tuple[str, list[Any]]:
    """``(*keys, command, accesses, failed)`` within the filters, of ``skill`` or of every skill
    (``keys``: rollup columns, ``day`` among them for the trends: counted by the ``by``
    period), from the rollups (the daily one when a key is the day; and the rows of the days
    a time filter cuts)."""
    daily = "usage_targets" if skill is not None else "usage_daily"
    if skill is None and set(keys) <= {"skill", "day"} and not _names_rows(filters):
        daily = "usage_skill_days"  # nothing to tell users, machines or folders apart
    total = daily if "day" in keys else "usage_totals" if skill is not None else "usage_skills"
    union, values = rolled(filters, (*keys, "command", "accesses", "failed"), daily, total, skill)
    group = ", ".join(str(n) for n in range(1, len(keys) + 2))
    select = ", ".join("p.period" if key == "day" else key for key in keys)
    source = f"({union}) AS rolled"
    if "day" in keys:
        # each day's period made once, in a subquery PostgreSQL memoizes (checking the day of
        # each row made a week's statement 2.5 times as slow); a row in none is left out
        period = PERIOD_OF[by].format(day="rolled.day")
        source += f" CROSS JOIN LATERAL (SELECT {period} AS period OFFSET 0) AS p"
        source += " WHERE p.period IS NOT NULL"
    sums = f"{_SUM}, CAST(SUM(failed) AS BIGINT)"
    return f"SELECT {select}, command, {sums} FROM {source} GROUP BY {group}", values


#: ``(select, tail)`` of each per-skill statement (:class:`~._team.TeamStatsLog`), the
#: answers of :class:`skillc_index.accesslog.reader.StatsLog`'s from sums (its period:
#: :func:`._team_all.period_statement`).
COMMAND_TARGETS = (
    f"command, target, {_SUM}, CAST(SUM({ROW_FAILED} * accesses) AS BIGINT)",
    " GROUP BY command, target",
)
TARGETS_OF = (f"target, {_SUM}", " WHERE command = ? GROUP BY target")
ERRORS = (f"command, target, error, {_SUM}", " WHERE error IS NOT NULL GROUP BY 1, 2, 3")
USES_BY_CWD = (f"cwd, {_SUM}", f" WHERE {USE_ROW} GROUP BY cwd")  # (no failed read)
