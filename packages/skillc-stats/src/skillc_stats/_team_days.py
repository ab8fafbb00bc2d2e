"""The days of the team store's SQL (:mod:`._team_sql`): whether a text is a day of the
calendar or a time skillc writes, the ``--by`` period of a rollup's day, and a time range
split into the whole days the rollups answer and the parts of days read from the rows."""

from __future__ import annotations

from typing import Any, NamedTuple

from skillc_index.accesslog.reader import UTC_DAY, second_floor

#: Whether the text ``{day}`` is a day of the calendar, ``YYYY-MM-DD`` from year 1 (as
#: :func:`skillc_index.clock.is_utc_timestamp` reads a row's day): only then is it cast. (No
#: ``%`` nor ``?``: the statements are run with ``?`` marks made ``%s``.)
CALENDAR_DAY = (
    "CASE WHEN {day} ~ '^[0-9]{{4}}-(0[1-9]|1[0-2])-(0[1-9]|[12][0-9]|3[01])$' "
    "AND substr({day}, 1, 4) <> '0000' THEN substr({day}, 9, 2) <= CASE substr({day}, 6, 2) "
    "WHEN '02' THEN CASE WHEN mod(CAST(substr({day}, 1, 4) AS INTEGER), 4) = 0 AND "
    "(mod(CAST(substr({day}, 1, 4) AS INTEGER), 100) <> 0 OR "
    "mod(CAST(substr({day}, 1, 4) AS INTEGER), 400) = 0) THEN '29' ELSE '28' END "
    "WHEN '04' THEN '30' WHEN '06' THEN '30' WHEN '09' THEN '30' WHEN '11' THEN '30' "
    "ELSE '31' END ELSE FALSE END"
)
#: Whether a row's time is an instant: of skillc's UTC form (``UTC_DAY``) on a day of the
#: calendar, as :func:`skillc_index.clock.is_utc_timestamp` tells it in a local log. Only such
#: a time is a first or last one (a rollup's, by day: of a key whose day is a calendar day,
#: all its rows' are; :func:`._team_all.edges`).
ROW_INSTANT = f"({UTC_DAY} IS NOT NULL AND {CALENDAR_DAY.format(day='substr(timestamp, 1, 10)')})"
#: What marks the day of a row whose time is not of skillc's UTC form in the rollups by day:
#: its first 10 characters and this (``2026-03-01T23:30:00-05:00``, March 2 in UTC, is of
#: ``2026-03-01*``; schema 10), no day of the calendar, so in no ``--by`` period nor a view's
#: day, as locally, but between its day and the next in text order, so that a range of whole
#: days keeps it as the local log's text comparison does (:func:`_in_range`). Below every
#: digit and ``-``: a shorter text marked still sorts before the days it is the start of, as
#: it did unmarked.
NOT_UTC = "*"
#: The calendar's first and last days, and the text above every text of its last month: the
#: day (and the month) after its last as a bound of text (:func:`_next_day`,
#: :func:`_month_after`), as ``2027-01-01`` is above every text of ``2026-12``.
FIRST_DAY, LAST_DAY, AFTER_LAST = "0001-01-01", "9999-12-31", "9999-13"
#: The ``--by`` period of a ``day`` (SQL text) as :func:`~skillc_stats._periods.period_of`
#: makes it: the day, the Monday of its ISO week, the month (``YYYY-MM``); NULL for a text
#: that is no day (a teammate's row may hold anything: counted, in no period).
_WEEK = "to_char(date_trunc('week', CAST({day} AS timestamp)), 'YYYY-MM-DD')"
PERIOD_OF = {
    by: f"CASE WHEN {CALENDAR_DAY} THEN {period} END"
    for by, period in (("day", "{day}"), ("week", _WEEK), ("month", "substr({day}, 1, 7)"))
}


#: A row's time as PostgreSQL's ``timestamptz`` (NULL for a text that is not one skillc writes,
#: on a day of the calendar: a teammate's foreign row, ``2026-02-30T10:00:00Z``, never breaks
#: a dashboard), and a rollup's day as the start of that day, for the views.
ROW_TIME = (
    "CASE WHEN timestamp ~ '^[0-9]{4}-[0-9]{2}-[0-9]{2}T([01][0-9]|2[0-3]):[0-5][0-9]:[0-5][0-9]"
    "Z$' "
    f"AND {CALENDAR_DAY.format(day='substr(timestamp, 1, 10)')} "
    "THEN CAST(timestamp AS timestamptz) END"
)
DAY_TIME = (
    f"CASE WHEN {CALENDAR_DAY.format(day='day')} THEN CAST(day || 'T00:00:00Z' AS timestamptz) END"
)


#: The rows of a day a bound names, read from the log: ``(low, high, below)``, those whose text
#: is at least ``low``, at most ``high`` and below ``below`` (None: no such bound).
Part = tuple[str, str | None, str | None]


class Doubt(NamedTuple):
    """A whole day at an end of a time range that the rollups answer unless it holds rows
    outside the range (``check``: SQL, true when it does, and its ``params``): then its
    ``part`` is read from the rows instead."""

    day: str
    part: Part
    check: str
    params: list[str]


class Days(NamedTuple):
    """A time range as the rollups and the rows answer it (:func:`_split_days`)."""

    whole: tuple[str, str]
    parts: list[Part]
    doubts: list[Doubt]

    def undoubted(self) -> tuple[str, list[str]]:
        """The SQL (`` AND NOT (...)`` each, ``""`` when none) that leaves out of a rollup by
        day each of :attr:`doubts` whose rows are read instead (the day's texts, as
        :func:`_in_range` has them), and its parameters."""
        sql = "".join(f" AND NOT (day >= ? AND day < ? AND {d.check})" for d in self.doubts)
        return sql, [v for d in self.doubts for v in (d.day, _next_day(d.day), *d.params)]


def _split_days(since: str | None, until: str | None) -> Days:
    """The time range ``[since, until]`` (RFC 3339 UTC, inclusive; None: open) as the whole
    days it covers (``(first, last)`` days, ``""`` for an open end; ``first > last`` when
    none), the days a bound cuts (read from the rows) and the whole days at its ends that may
    hold rows the bounds leave out (:class:`Doubt`).

    A row is in the range by the text comparison of the local log, a rollup's day by the
    first 10 characters of its rows (marked :data:`NOT_UTC` or not): of a bound's day, a leap
    second ``23:59:60Z`` or a lowercase ``t`` sorts after ``23:59:59Z``, a space or a bare
    date before ``T00:00:00Z``. So a cut day's rows are all the rows of its day's text within
    the range, and a whole day at an end is read from the rows when it holds one outside (a
    cheap test: rarely true). A bound that cuts the calendar's last day (first), which has no
    whole day after it (before it), leaves the whole range to the rows: a few at most."""
    if _cuts(LAST_DAY, since, None) or _cuts(FIRST_DAY, None, until):
        return Days((LAST_DAY, FIRST_DAY), [(since or "", until, None)], [])
    days = sorted({bound[:10] for bound in (since, until) if bound is not None})
    cut = {day for day in days if _cuts(day, since, until)}
    first = last = ""
    if since is not None:
        first = _next_day(since[:10]) if since[:10] in cut else since[:10]
    if until is not None:
        last = _next_day(until[:10], -1) if until[:10] in cut else until[:10]
    parts = [_part(day, since, until) for day in days if day in cut]
    doubts = [_doubt(day, since, until) for day in days if day not in cut]
    if first and last and first > last:  # no whole day: rows only
        return Days((LAST_DAY, FIRST_DAY), parts, [])
    return Days((first, last), parts, doubts)


def _row_parts(days: Days) -> list[tuple[Part, str, list[str]]]:
    """The parts of :func:`_split_days`'s days read from the rows, each with the SQL that
    keeps it (``""``: always; `` AND <check>`` of a :class:`Doubt`) and its parameters."""
    found: list[tuple[Part, str, list[str]]] = [(part, "", []) for part in days.parts]
    return found + [(d.part, f" AND {d.check}", d.params) for d in days.doubts]


def _in_range(
    select: str, where: str, params: list[Any], column: str, bounds: tuple[str, str]
) -> tuple[str, list[Any]]:
    """``select`` and its ``where`` clause (``""`` or ``" WHERE ..."`` of ``params``) with
    ``column`` kept within ``bounds`` (inclusive; ``""``: open), and its parameters. Of the
    ``day``, the last day's texts run to the next day of the calendar: the day marked
    :data:`NOT_UTC`, and a day on none (``2026-02-30``, after ``2026-02-28``), as the text
    comparison of the local log keeps them below ``2026-03-01T...`` (and a month or a week of
    ``--all``'s rollups by its first characters)."""
    upper = "<="
    if column == "day" and bounds[1]:
        bounds, upper = (bounds[0], _next_day(bounds[1])), "<"
    tests = [f"{column} {op} ?" for op, bound in zip((">=", upper), bounds, strict=True) if bound]
    joined = " AND ".join(tests)
    if joined:
        where = also(where, joined)
    return select + where, [*params, *(bound for bound in bounds if bound)]


def also(where: str, test: str) -> str:
    """The clause ``where`` (``""`` or ``" WHERE ..."``) with the SQL ``test`` required too."""
    return f"{where} AND {test}" if where else f" WHERE {test}"


def _cuts(day: str, since: str | None, until: str | None) -> bool:
    """Whether ``since`` or ``until`` falls within ``day`` rather than at its start or end."""
    return (since is not None and since[:10] == day and since[11:] != "00:00:00Z") or (
        until is not None and until[:10] == day and until[11:] != "23:59:59Z"
    )


def _part(day: str, since: str | None, until: str | None) -> Part:
    """The rows of ``day`` (a bound's) within the range: from ``since`` (or the day's text),
    to ``until`` (or below the next day's)."""
    low = since if since is not None and since[:10] == day else day
    if until is not None and until[:10] == day:
        return low, until, None
    return low, None, _next_day(day)


def _doubt(day: str, since: str | None, until: str | None) -> Doubt:
    """The whole ``day`` at an end of the range, and the test of a row of its text outside:
    before ``since`` (``T00:00:00Z``) or after ``until`` (``T23:59:59Z``, a fraction of that
    second too: :func:`~skillc_index.accesslog.reader.second_floor`, as ``where_clause``
    compares), through the index of the time."""
    tests, params = [], []
    if since is not None and since[:10] == day:
        tests.append("(o.timestamp >= ? AND o.timestamp < ?)")
        params += [day, second_floor(since)]
    if until is not None and until[:10] == day:
        tests.append("(o.timestamp > ? AND o.timestamp < ? AND o.timestamp <> ?)")
        params += [second_floor(until), _next_day(day), until]
    check = f"EXISTS (SELECT 1 FROM access_log AS o WHERE {' OR '.join(tests)})"
    return Doubt(day, _part(day, since, until), check, params)


def _month_after(month: str, step: int = 1) -> str:
    """The month ``step`` months after ``month`` (``YYYY-MM``); past the calendar's last,
    :data:`AFTER_LAST`."""
    index = int(month[:4]) * 12 + int(month[5:7]) - 1 + step
    return f"{index // 12:04d}-{index % 12 + 1:02d}" if index < 120000 else AFTER_LAST


def _month_days(month: str) -> str:
    """How many days the month ``YYYY-MM`` has, as a day of the month (``"28"`` to ``"31"``)."""
    from calendar import monthrange

    return f"{monthrange(int(month[:4]), int(month[5:7]))[1]:02d}"


def _next_day(day: str, step: int = 1) -> str:
    """The day ``step`` days after ``day``; past the calendar's last, :data:`AFTER_LAST` (a
    bound of text only: :func:`_split_days` never asks for a day before its first)."""
    from datetime import date, timedelta

    if day == LAST_DAY and step > 0:
        return AFTER_LAST
    return (date.fromisoformat(day) + timedelta(days=step)).isoformat()


def _days(first: str, last: str) -> int:
    """How many days ``[first, last]`` holds."""
    from datetime import date

    return (date.fromisoformat(last) - date.fromisoformat(first)).days + 1


#: A time as text that sorts as the time does (skillc-index's ``time_order``: a space before
#: its ``Z``, so that ``10:00:00Z`` sorts before ``10:00:00.5Z``, as a local log compares
#: them), and such a text back (schema 11; any other text as it is): with plain string
#: functions (every row of an upload: a regular expression costs more), which name their
#: text three times; a subquery's with a regular expression, which names it once (a
#: subquery named three times is run three times).
_ORDER = "CASE WHEN right({0}, 1) = 'Z' THEN left({0}, -1) || ' Z' ELSE {0} END"
_UNORDER = "CASE WHEN right({0}, 2) = ' Z' THEN left({0}, -2) || 'Z' ELSE {0} END"
_ORDER_ONCE = "regexp_replace({0}, 'Z$', ' Z')"
_UNORDER_ONCE = "regexp_replace({0}, ' Z$', 'Z')"


def as_times(func: str, *values: str) -> str:
    """SQL: ``func`` (``MIN``, ``MAX``, ``LEAST``, ``GREATEST``) of the times ``values``
    (columns or expressions) compared as times, not as text (NULLs skipped, as ``func``
    skips them)."""

    def once(value: str) -> bool:
        return "SELECT" in value

    ordered = ", ".join((_ORDER_ONCE if once(v) else _ORDER).format(v) for v in values)
    return (_UNORDER_ONCE if any(map(once, values)) else _UNORDER).format(f"{func}({ordered})")
