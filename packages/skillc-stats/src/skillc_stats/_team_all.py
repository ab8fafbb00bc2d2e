"""The statement of ``skc stats --all --from`` over a team store (:func:`usage_statement`):
every skill's uses, first and last use, distinct projects and author activity, from the
rollups of :mod:`._team_sql`.

Without a user or machine filter, all time is read from ``usage_folders`` (the rows counted
by skill and folder: their uses, author runs, first and last use), and a time range's whole
days as a sum of signed pieces (:func:`plan`): whole months from ``usage_months``, whole
weeks from ``usage_weeks`` (a month's days 1-7, 8-14, 15-21, 22 to its end), single days
from ``usage_daily``, each piece added, or subtracted where a month or a week minus its few
days outside the range reads fewer rollup rows than the days inside it; a day filed in a
month or week other than the one its text sorts in (another tool's ``2026-13-01``) is added or
taken out at the ends of a run of them (:func:`_strays`). Counts subtract;
first and last uses do not: those come from the rows of the hours the range cuts and, for
the whole days (all time too), from the first and the last day of ``usage_targets`` (by
skill and day) with a use, of the calendar (:func:`edges`: only instants are first or last,
as in a local log). With a user or machine filter, the rollups by day and all time that keep
them. One skill's period is read the same way (:func:`period_statement`).
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import replace
from typing import Any, NamedTuple

from skillc_index.accesslog.reader import ROW_FAILED, USE_COMMANDS, USE_ROW, where_clause
from skillc_stats._filters import Filters
from skillc_stats._team_days import (
    AFTER_LAST,
    CALENDAR_DAY,
    ROW_INSTANT,
    _days,
    _in_range,
    _month_after,
    _month_days,
    _next_day,
    _row_parts,
    _split_days,
    also,
    as_times,
)
from skillc_stats._team_kinds import USES, WEEK_STARTS, kind_sum
from skillc_stats._team_reads import cut_rows, rolled

#: Rollup rows a piece reads, relative to a day of ``usage_daily`` (at 10,000,000 rows of
#: ``bench/team_stats.py``'s shape: a day 17,300, a week 29,800, a month 30,000: every skill
#: in every folder): only which plan is chosen depends on them, never the answer.
COST = {"usage_daily": 1.0, "usage_weeks": 1.7, "usage_months": 1.75}


class Piece(NamedTuple):
    """The rows of ``table`` whose period lies within ``[first, last]`` (``""``: open),
    added (``sign`` 1) or subtracted (-1)."""

    table: str
    first: str
    last: str
    sign: int = 1


def _cheaper(one: list[Piece], other: list[Piece]) -> list[Piece]:
    return other if _cost(other) < _cost(one) else one


def _cost(pieces: list[Piece]) -> float:
    return sum(
        COST[p.table] * (_days(p.first, p.last) if p.table == "usage_daily" else 1) for p in pieces
    )


def _negated(pieces: list[Piece]) -> list[Piece]:
    return [piece._replace(sign=-piece.sign) for piece in pieces]


def _weeks(month: str) -> list[tuple[str, str]]:
    """The weeks of ``month`` (``YYYY-MM``) as ``(first, last)`` days."""
    starts = [f"{month}-{day}" for day in WEEK_STARTS]
    ends = [_next_day(start, -1) for start in starts[1:]]
    return list(zip(starts, [*ends, f"{month}-{_month_days(month)}"], strict=True))


def _within_month(first: str, last: str) -> list[Piece]:
    """The days ``[first, last]`` of one month as weeks and days: each week the range covers
    whole; of a week it cuts, its days, or the week minus the days outside (the cheaper)."""
    pieces: list[Piece] = []
    for start, end in _weeks(first[:7]):
        low, high = max(first, start), min(last, end)
        if low > high:
            continue
        if (low, high) == (start, end):
            if pieces and pieces[-1].table == "usage_weeks" and pieces[-1].sign == 1:
                pieces[-1] = pieces[-1]._replace(last=start)  # the weeks before, one range
            else:
                pieces.append(Piece("usage_weeks", start, start))
            continue
        inside = [Piece("usage_daily", low, high)]
        around = [Piece("usage_weeks", start, start)]
        if low > start:
            around.append(Piece("usage_daily", start, _next_day(low, -1), -1))
        if high < end:
            around.append(Piece("usage_daily", _next_day(high), end, -1))
        pieces += _cheaper(inside, around)
    return pieces


def _part_of_month(first: str, last: str) -> list[Piece]:
    """The days ``[first, last]`` of one month (not all of them): as :func:`_within_month`,
    or the month minus its days outside the range, whichever reads fewer rollup rows."""
    month = first[:7]
    start, end = f"{month}-01", f"{month}-{_month_days(month)}"
    outside = [Piece("usage_months", month, month)]
    if first > start:
        outside += _negated(_within_month(start, _next_day(first, -1)))
    if last < end:
        outside += _negated(_within_month(_next_day(last), end))
    return _cheaper(_within_month(first, last), outside)


def plan(first: str, last: str) -> list[Piece]:
    """The whole days ``[first, last]`` (``""``: an open end; none when ``first > last``) as
    signed pieces of the rollups by month, week and day whose sum counts their rows once."""
    if first and last and first > last:
        return []
    one_month = bool(first and last) and first[:7] == last[:7]
    if one_month and (first[8:], last[8:]) != ("01", _month_days(last[:7])):
        return _part_of_month(first, last)
    pieces: list[Piece] = []
    since = until = ""
    if first:
        since = first[:7]
        if first[8:] != "01":
            since = _month_after(first[:7])
            pieces += _part_of_month(first, f"{first[:7]}-{_month_days(first[:7])}")
    if last:
        until = last[:7]
        if last[8:] != _month_days(last[:7]):
            until = _month_after(last[:7], -1)
            pieces += _part_of_month(f"{last[:7]}-01", last)
    if not (since and until and since > until):
        pieces.append(Piece("usage_months", since, until))
    return pieces


def usage_statement(filters: Filters) -> tuple[str, list[Any]]:
    """The statement of every skill's uses, first and last use, distinct projects (of the
    uses) and author activity (``--all``; ``?`` marks, as the local logs' statements; a row's
    kind is its command's, :func:`~skillc_index.accesslog.command_kind`), and its parameters.
    A user or machine filter: :func:`plain_statement` (one user's rows); else all time from
    ``usage_folders`` (a row per skill and folder), a time range by :func:`_by_pieces`."""
    if filters.users or filters.machines:
        return plain_statement(filters)
    if filters.since is not None or filters.until is not None:
        return _by_pieces(filters)
    where, params = where_clause(filters)
    (first, last), edge_params = edges(filters, "c.skill", uses=True)
    return (
        f"SELECT skill, uses, {first}, {last}, projects, authored FROM (SELECT skill, "
        "SUM(uses) AS uses, SUM(CASE WHEN uses > 0 THEN 1 ELSE 0 END) AS projects, "
        f"SUM(authored) AS authored FROM usage_folders{where} GROUP BY skill) AS c",
        [*edge_params, *params],
    )


def plain_statement(filters: Filters) -> tuple[str, list[Any]]:
    """:func:`usage_statement` from ``usage_skills`` (no time filter) or the days of
    ``usage_daily`` and the cut hours' rows (the answer :func:`_by_pieces` must equal)."""
    columns = ("skill", "command", "cwd", "accesses", "failed", "first", "last")
    union, values = rolled(filters, columns, "usage_daily", "usage_skills")
    (edge_first, edge_last), edge_params = edges(filters, "c.skill", uses=True)
    # Summed by skill and folder first (a hash table of a few thousand groups: no sort of the
    # rollup rows by skill, which spilled to disk for a cut quarter at 12 M rows); a folder is
    # a project of the skill when its uses are more than none (every sum holds a row or more);
    # the first and last use those of the cut hours' rows and the edges of the whole days.
    # (a failed read is no use: a sum's uses are its rows but the failed ones, and a row's
    # time a first or last use only when it did not fail; a sum's times are none)
    statement = (
        f"SELECT skill, uses, {as_times('LEAST', 'first', edge_first)}, "
        f"{as_times('GREATEST', 'last', edge_last)}, "
        f"projects, authored FROM (SELECT skill, SUM(uses) AS uses, {as_times('MIN', 'first')} "
        f"AS first, {as_times('MAX', 'last')} AS last, "
        "SUM(CASE WHEN uses > 0 THEN 1 ELSE 0 END) AS projects, "
        f"SUM(authored) AS authored FROM (SELECT skill, SUM(used * ({USES})) AS uses, "
        f"{as_times('MIN', 'CASE WHEN used = 1 AND failed = 0 THEN first END')} AS first, "
        f"{as_times('MAX', 'CASE WHEN used = 1 AND failed = 0 THEN last END')} AS last, "
        "SUM(authored * accesses) AS authored "
        f"FROM (SELECT skill, cwd, accesses, failed, first, last, {kind_sum('uses', '1')} AS used, "
        f"{kind_sum('authored', '1')} AS authored FROM ({union}) AS rolled) AS kinds "
        "GROUP BY skill, cwd) AS folders GROUP BY skill) AS c"
    )
    return statement, [*edge_params, *values]


#: A piece's rows as ``(skill, cwd, accesses, uses, authored, first, last)``: the rollups by
#: period hold the sums of each kind; the daily one and the rows are classified here.
_PERIOD = {"usage_months": "month", "usage_weeks": "week", "usage_daily": "day"}
_NO_TIMES = "CAST(NULL AS TEXT) AS first, CAST(NULL AS TEXT) AS last"
#: The columns of :func:`_branch`, in no row (the union of no piece: :func:`_by_pieces`).
_NO_ROW = (
    "SELECT CAST(NULL AS TEXT) AS skill, CAST(NULL AS TEXT) AS cwd, 0 AS accesses, 0 AS uses, "
    f"0 AS authored, {_NO_TIMES} WHERE FALSE"
)


def _branch(piece: Piece, where: str, params: list[Any]) -> tuple[str, list[Any]]:
    sign = "" if piece.sign == 1 else "-"
    if piece.table == "usage_daily":
        sums = ("accesses", kind_sum("uses", USES), kind_sum("authored"))
    else:
        sums = ("accesses", "uses", "authored")
    counted = ", ".join(
        f"{sign}{value} AS {name}"
        for value, name in zip(sums, ("accesses", "uses", "authored"), strict=True)
    )
    select = f"SELECT skill, cwd, {counted}, {_NO_TIMES} FROM {piece.table}"
    return _in_range(select, where, params, _PERIOD[piece.table], (piece.first, piece.last))


def _strays(piece: Piece) -> list[tuple[str, str, int]]:
    """The days of ``usage_daily`` (``low <= day < high``, each added with ``sign``) that make
    ``piece`` count the days whose text lies within its days, as the local log's text
    comparison does. A rollup by month or week files a day by its first characters, so a day
    of the calendar in its own period, but another tool's ``2026-13-01`` in a month
    ``2026-13`` (between December and January as text: counted by neither) and ``2026-12-00``
    in December (before December 1 as text): those at the ends of a run of months, or of weeks
    that start or end a month, are taken out or added here."""
    if piece.table == "usage_daily":
        return []
    months = piece.table == "usage_months"
    found = []
    if piece.first and (months or piece.first.endswith("-01")):  # filed in it, before it
        prefix = piece.first if months else piece.first[:8]
        found.append((prefix, _month_start(piece.first[:7]), -piece.sign))
    if piece.last and (months or piece.last.endswith("-22")):  # after its label, within it
        prefix = piece.last if months else piece.last[:8]
        after = prefix[:-1] + chr(ord(prefix[-1]) + 1)  # above every text of that prefix
        found.append((after, _month_start(_month_after(piece.last[:7])), piece.sign))
    return [(low, high, sign) for low, high, sign in found if low < high]


def _month_start(month: str) -> str:
    """The first day of ``month`` as a bound of text (:data:`AFTER_LAST` for itself)."""
    return month if month == AFTER_LAST else f"{month}-01"


def _by_pieces(filters: Filters) -> tuple[str, list[Any]]:
    """:func:`usage_statement` over a time range (no user or machine filter): the whole days
    as the pieces of :func:`plan`, the hours the range cuts from the rows."""
    days = _split_days(filters.since, filters.until)
    plain, params = where_clause(replace(filters, since=None, until=None))
    branches = []
    for piece in plan(*days.whole):
        branches.append(_branch(piece, plain, params))
        for low, high, sign in _strays(piece):
            days_of = also(plain, "day >= ? AND day < ?")  # the stray days' rollup rows
            branches.append(
                _branch(Piece("usage_daily", "", "", sign), days_of, [*params, low, high])
            )
    for doubt in days.doubts:  # a day read from the rows instead: its sums taken out again
        branch, values = _branch(Piece("usage_daily", doubt.day, doubt.day, -1), plain, params)
        branches.append((f"{branch} AND {doubt.check}", [*values, *doubt.params]))
    used = kind_sum("uses", f"1 - {ROW_FAILED}")  # (a failed read is no use)
    time = f"CASE WHEN {used} = 1 AND {ROW_INSTANT} THEN timestamp END"  # a use's instant
    for part, check, check_params in _row_parts(days):
        cut, cut_params = cut_rows(filters, part)
        branches.append(
            (
                f"SELECT skill, cwd, 1 AS accesses, {used} AS uses, "
                f"{kind_sum('authored', '1')} AS authored, {time} AS first, {time} AS last "
                f"FROM access_log{cut}{check}",
                [*cut_params, *check_params],
            )
        )
    # (a range holding no whole second and no row's instant, since after until once rounded,
    # has no branch: a select of their columns that returns no row)
    union = " UNION ALL ".join(branch for branch, _ in branches) or _NO_ROW
    values = [value for _, branch_params in branches for value in branch_params]
    edge, edge_params = edges(filters, "c.skill", uses=True)
    # summed by skill and folder (a hash table), then by skill; a skill whose pieces sum to
    # no row (used only on days subtracted) is not listed
    statement = (
        f"SELECT skill, uses, {as_times('LEAST', 'first', edge[0])}, "
        f"{as_times('GREATEST', 'last', edge[1])}, projects, "
        f"authored FROM (SELECT skill, SUM(uses) AS uses, {as_times('MIN', 'first')} AS first, "
        f"{as_times('MAX', 'last')} AS last, SUM(CASE WHEN uses > 0 THEN 1 ELSE 0 END) AS "
        f"projects, SUM(authored) AS authored FROM (SELECT skill, SUM(uses) AS uses, "
        f"{as_times('MIN', 'first')} AS first, {as_times('MAX', 'last')} AS last, "
        "SUM(authored) AS authored, SUM(accesses) AS accesses "
        f"FROM ({union}) AS rolled GROUP BY skill, cwd) AS folders GROUP BY skill "
        "HAVING SUM(accesses) > 0) AS c"
    )
    return statement, [*edge_params, *values]


def edges(
    filters: Filters, skill: str, values: Sequence[str] = (), uses: bool = False
) -> tuple[tuple[str, str], list[Any]]:
    """The first and the last time of the rows of ``skill`` (SQL: ``c.skill``, an outer
    query's, or ``?``, bound to ``values``), of its uses only with ``uses``
    (:data:`~skillc_index.accesslog.reader.USE_ROW`: a failed read is none), that the rollups
    count on the whole days of the range (:func:`._team_days._split_days`) within the
    filters, as two scalar subqueries, and their parameters: those of the first (last) key of
    ``usage_targets`` whose day is a day of the calendar (its rows' times are instants,
    ``ROW_INSTANT``; a day marked ``NOT_UTC``, or none of the calendar, holds none), an index
    read from that end. The rows of a day a bound cuts are the caller's to read."""
    days = _split_days(filters.since, filters.until)
    kind, commands = (f" AND {USE_ROW}", USE_COMMANDS) if uses else ("", ())
    plain, params = where_clause(replace(filters, since=None, until=None))
    extra = kind + plain.replace(" WHERE ", " AND ", 1)  # the filters, each an AND
    tests, day_params = _in_range("", "", [], "day", days.whole)
    undoubted, undoubted_params = days.undoubted()
    tests = f"{tests}{undoubted}".replace(" WHERE ", " AND ", 1)
    calendar = CALENDAR_DAY.format(day="d.day")
    found: list[str] = []
    for func, column, order in (("MIN", "first", "ASC"), ("MAX", "last", "DESC")):
        earliest = as_times(func, f"t.{column}")
        found.append(
            f"(SELECT {earliest} FROM (SELECT d.day FROM usage_targets AS d WHERE "
            f"d.skill = {skill}{extra}{tests} AND {calendar} ORDER BY d.day {order} LIMIT 1) "
            f"AS e JOIN usage_targets AS t ON t.skill = {skill} AND t.day = e.day "
            f"WHERE TRUE{extra})"
        )
    one = [*values, *commands, *params, *day_params, *undoubted_params, *values, *commands, *params]
    return (found[0], found[1]), [*one, *one]


def period_statement(filters: Filters, skill: str) -> tuple[str, list[Any]]:
    """The first and last time of the rows of ``skill`` the filters keep that are instants
    (``ROW_INSTANT``; as :meth:`skillc_index.accesslog.reader.StatsLog.period` over a local
    log): those of the whole days from the rollups (:func:`edges`), of the days a bound cuts
    from the rows."""
    (first, last), values = edges(filters, "?", [skill])
    days = _split_days(filters.since, filters.until)
    branches, cut_values = ["SELECT CAST(NULL AS TEXT) AS timestamp"], []
    for part, check, extra in _row_parts(days):
        cut, cut_params = cut_rows(filters, part, "skill", [skill])
        branches.append(f"SELECT timestamp FROM access_log{cut}{check} AND {ROW_INSTANT}")
        cut_values += [*cut_params, *extra]
    return (
        f"SELECT {as_times('LEAST', as_times('MIN', 'timestamp'), first)}, "
        f"{as_times('GREATEST', as_times('MAX', 'timestamp'), last)} "
        f"FROM ({' UNION ALL '.join(branches)}) AS cut",
        [*values, *cut_values],
    )
