"""The days of the team store's SQL (:mod:`._team_sql`): whether a text is a day of the
calendar or a time skillc writes, the ``--by`` period of a rollup's day, and a time range
split into the whole days the rollups answer and the parts of days read from the rows."""

from __future__ import annotations

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
#: The ``--by`` period of a ``day`` (SQL text) as :func:`~skillc_stats._stats.period_of`
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


def _split_days(
    since: str | None, until: str | None
) -> tuple[tuple[str, str], list[tuple[str, str]]]:
    """The time range ``[since, until]`` (RFC 3339 UTC, inclusive; None: open) as the whole
    days it covers (``(first, last)`` days, ``""`` for an open end; ``first > last`` when
    none) and the parts of days at its ends (``[(since, until)]`` ranges of rows)."""
    first = last = ""
    parts: list[tuple[str, str]] = []
    if since is not None:
        first = since[:10]
        if since[11:] != "00:00:00Z":
            first = _next_day(first)
            end = f"{since[:10]}T23:59:59Z"
            parts.append((since, end if until is None or end < until else until))
    if until is not None:
        last = until[:10]
        if until[11:] != "23:59:59Z":
            last = _next_day(last, -1)
            start = f"{until[:10]}T00:00:00Z"
            if since is None or start > since:
                parts.append((start, until))
            elif not parts:
                parts.append((since, until))
    if first and last and first > last:  # no whole day: rows only
        return ("9999-12-31", "0000-01-01"), parts
    return (first, last), parts


def _month_after(month: str, step: int = 1) -> str:
    index = int(month[:4]) * 12 + int(month[5:7]) - 1 + step
    return f"{index // 12:04d}-{index % 12 + 1:02d}"


def _month_days(month: str) -> str:
    """How many days the month ``YYYY-MM`` has, as a day of the month (``"28"`` to ``"31"``)."""
    from calendar import monthrange

    return f"{monthrange(int(month[:4]), int(month[5:7]))[1]:02d}"


def _next_day(day: str, step: int = 1) -> str:
    from datetime import date, timedelta

    return (date.fromisoformat(day) + timedelta(days=step)).isoformat()


def _days(first: str, last: str) -> int:
    """How many days ``[first, last]`` holds."""
    from datetime import date

    return (date.fromisoformat(last) - date.fromisoformat(first)).days + 1
