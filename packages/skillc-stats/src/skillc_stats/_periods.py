"""The ``--by`` periods of the uses over time (``day``, ``week``: the ISO week, named by its
Monday, or ``month``): a day's period (:func:`period_of`), rows counted by kind per period
(:func:`kinds_by_period`) and made one row per period, quiet ones included
(:func:`period_rows`), the periods between two (at most :data:`MAX_PERIODS`, a notice past
that), and a page's periods when none is asked (:func:`page_period`). One skill's trend
(:meth:`~._stats.StatsQuery.trend`) and every skill's (:func:`~._trends.trends`) count here."""

from __future__ import annotations

from collections import Counter
from collections.abc import Callable, Iterable, Mapping, Sequence
from functools import lru_cache
from typing import Any

from skillc_index import Notice
from skillc_index.accesslog.reader import row_kinds

__all__ = [
    "MAX_PERIODS",
    "kinds_by_period",
    "page_period",
    "period_of",
    "period_rows",
    "periods_between",
    "periods_note",
]


@lru_cache(maxsize=4096)  # a few hundred days, each met once per skill and command
def period_of(day: str, by: str) -> str | None:
    """The ``by`` period of a ``YYYY-MM-DD`` day: the day, the Monday of its ISO week, or
    ``YYYY-MM`` (of a period, that period); None for what is no day of the calendar (a
    stranger's row: ``zzz``, ``2026-13-01``, is in no period)."""
    from datetime import date, timedelta

    from skillc_index.clock import is_utc_timestamp

    whole = f"{day}-01" if len(day) == 7 else day
    if len(whole) != 10 or not is_utc_timestamp(f"{whole}T00:00:00Z"):
        return None  # (`--by month` of "zzz" counted months for ever)
    if by == "month":
        return day[:7]
    if by == "week":
        moment = date.fromisoformat(day)
        return (moment - timedelta(days=moment.weekday())).isoformat()
    return day


def shown_periods(
    kinds: Mapping[str, Counter[str]],
    last: str,
    end: str,
    by: str,
    days: Callable[[], Mapping[str, Counter[str]]],
) -> tuple[str, str]:
    """The first and last ``by`` periods shown of ``kinds`` (:func:`kinds_by_period`; both
    empty when it is): from the first period to ``last``, up to the period of the day ``end``
    (:func:`~skillc_stats._trends.end_day`) at most; unless every row is dated after ``end``
    (a wrong clock's), leaving the author's own out of that test (``stats``, ``lint``,
    ``build``: :func:`~skillc_index.accesslog.reader.command_kind`): then from the period of
    the first row after ``end`` to ``last``, all of them shown. ``skc stats`` logs its own row
    today: counted in that test (or shown from today), the next run showed today's period
    only (or ran from today). The rows' days are compared with ``end``, not their periods:
    ``days`` (the same rows by day, read only when the period of ``end`` or a later one holds
    every counted row) tells them apart in the period of ``end`` (a week's or month's row
    after today was in today's period, and every later period was dropped)."""
    first, cap = min(kinds, default=""), period_of(end, by)
    if not first or cap is None:
        return first, last
    if max(kinds) >= cap and all(p >= cap for p, n in kinds.items() if _counted(n)):
        by_day = kinds if by == "day" else days()
        later = [day for day in by_day if day > end]
        if later and all(day > end for day, n in by_day.items() if _counted(n)):
            return period_of(min(later), by) or cap, last  # (every later period was dropped)
    return first, min(last, cap)


def _counted(kinds: Counter[str]) -> bool:
    """Whether a period's ``kinds`` hold a row other than the author's own."""
    return bool(kinds["use"] or kinds["failed_use"] or kinds["other"])


def kinds_by_period(rows: Iterable[Sequence[Any]], by: str) -> dict[str, Counter[str]]:
    """``(day, command, count, failed)`` rows as the count of each kind of row
    (:func:`~skillc_index.accesslog.reader.row_kinds`: a failed read is no use) per ``by``
    period (a row's day may be a ``by`` period already: :func:`period_of` gives it back; one
    skill's trend and :func:`~skillc_stats._trends.trends` of every skill both sum here)."""
    kinds: dict[str, Counter[str]] = {}
    for day, command, count, failed in rows:
        period = period_of(str(day), by)  # a day, or a month's period of a team store's rollup
        if period is not None:
            counts = kinds.setdefault(period, Counter())
            for kind, number in row_kinds(command, count, failed):
                counts[kind] += number
    return kinds


def period_rows(
    kinds: Mapping[str, Counter[str]], first: str, last: str, by: str
) -> list[dict[str, Any]]:
    """One ``{"period", "uses", "author_activity", "total_accesses"}`` per ``by`` period from
    ``first`` to ``last`` (none when ``first`` is empty), a quiet one all zeros."""
    rows = []
    for period in periods_between(first, last, by):
        counts = kinds.get(period, Counter())
        rows.append(
            {
                "period": period,
                "uses": counts["use"],
                "author_activity": counts["author"],
                "total_accesses": sum(counts.values()),
            }
        )
    return rows


def page_period(first: str | None, last: str, days: Callable[[], Iterable[str]]) -> str:
    """The periods of a page's chart when none is asked: days over up to 62 days from the
    first access to ``last`` (``YYYY-MM-DD``), weeks up to two years, else months. ``first``:
    the RFC 3339 time of the earliest row (None: no access); when it is on no day of the
    calendar (:func:`period_of`), the earliest of the ``days`` in a period."""
    from datetime import date

    start = None if first is None else period_of(str(first)[:10], "day")
    if first is not None and start is None:  # (a stranger's row, in no period)
        start = min(days(), default=None)
    if start is None:
        return "day"
    span = (date.fromisoformat(last) - date.fromisoformat(start)).days
    return "day" if span <= 62 else "week" if span <= 730 else "month"


#: The most periods ``--by`` and ``--html`` show: the most recent ones, up to the last access
#: (a row dated 0001-01-01 made 740,000 day periods, a page of 200 MB; :func:`periods_note`).
MAX_PERIODS = 1000


def periods_between(first: str, last: str, by: str) -> list[str]:
    """Every ``by`` period from ``first`` to ``last`` (both periods), in order; the last
    :data:`MAX_PERIODS` of them when there are more. Counted back from ``last``: never past
    the calendar's ends (9999-12-31, 0001-01-01), never more than those made."""
    from datetime import date, timedelta

    if not first:
        return []
    found: list[str] = []
    if by == "month":
        year, month = int(last[:4]), int(last[5:7])
        first_month = (int(first[:4]), int(first[5:7]))
        while (year, month) >= first_month and len(found) < MAX_PERIODS:
            found.append(f"{year:04d}-{month:02d}")
            year, month = (year - 1, 12) if month == 1 else (year, month - 1)
        return found[::-1]
    step = timedelta(days=7 if by == "week" else 1)
    moment, start = date.fromisoformat(last), date.fromisoformat(first)
    while moment >= start and len(found) < MAX_PERIODS:
        found.append(moment.isoformat())
        if moment - date.min < step:
            break
        moment -= step
    return found[::-1]


def periods_note(first: str, last: str, by: str) -> Notice | None:
    """A notice when more than :data:`MAX_PERIODS` ``by`` periods lie from ``first`` to
    ``last``: how many, and from which one on they are shown."""
    from datetime import date

    if not first:
        return None
    if by == "month":
        count = int(last[:4]) * 12 + int(last[5:7]) - int(first[:4]) * 12 - int(first[5:7]) + 1
    else:
        days = (date.fromisoformat(last) - date.fromisoformat(first)).days
        count = days // (7 if by == "week" else 1) + 1
    if count <= MAX_PERIODS:
        return None
    shown = periods_between(first, last, by)[0]
    return Notice(
        f"{count:,} {by}s from {first} to {last}: only the last {MAX_PERIODS:,} are shown, "
        f"from {shown} (the accesses before count in the totals; --since narrows the range)"
    )
