"""The one clock of the kit: timestamps as RFC 3339 UTC with ``Z``, to the second
(DECISIONS "Errors and output"), for the access log, the index's ``indexed_at`` and the
manifest's ``built_at`` alike; :func:`as_utc_timestamp` puts a time another process reports
(an older find server's epoch seconds) in that form. Another tool's log may hold fractions of
a second, which as text sort before their whole second: :func:`time_order` and
:func:`second_floor` compare them as the times they are; the SQL of a logged time here too."""

from __future__ import annotations

import time
from typing import overload

__all__ = [
    "TIME_ORDER",
    "UTC_DAY",
    "as_utc_timestamp",
    "from_time_order",
    "is_utc_timestamp",
    "second_floor",
    "time_order",
    "utc_now",
]


def is_utc_timestamp(text: str) -> bool:
    """Whether ``text`` is a timestamp as skillc stores them (:func:`utc_now`'s form, a
    fraction of a second allowed; ASCII digits only, as the team store's SQL reads them): a
    row of a log a checkout ships may hold anything."""
    import re
    from datetime import date

    if not re.fullmatch(r"\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d(?:\.\d+)?Z", text, re.ASCII):
        return False
    try:
        date.fromisoformat(text[:10])
    except ValueError:
        return False
    return int(text[11:13]) < 24 and int(text[14:16]) < 60 and int(text[17:19]) < 61


def time_order(time: str) -> str:
    """``time`` (a timestamp, :func:`is_utc_timestamp`) as text that sorts as the time does:
    a space before its ``Z``. As themselves a fraction sorts before its whole second (``.``
    before ``Z``) and a longer fraction before a shorter one it extends (``...00.51Z`` before
    ``...00.5Z``), though each is later; the space sorts before ``.`` and every digit. Other
    tools' logs may hold fractions (RFC-0007): first and last use compare so."""
    return f"{time[:-1]} {time[-1:]}"


def _digits(*spans: tuple[int, int]) -> str:
    """SQL: whether the characters of ``timestamp`` at each ``(start, length)`` are digits."""
    joined = " || ".join(f"substr(timestamp, {start}, {length})" for start, length in spans)
    return f"ltrim({joined}, '0123456789') = ''"


#: A row's UTC day, ``YYYY-MM-DD``, when its timestamp has the form skillc writes
#: (:func:`is_utc_timestamp`: ``2026-01-30T10:00:00Z``, a fraction of a
#: second allowed); NULL for any other (``2026-03-01T23:30:00-05:00`` is of March 2 in UTC,
#: ``2026-03-01t10:00:00z``, ``zzz``): such a row is in no period of ``--by``. Whether the day
#: is one of the calendar is the reader's to tell. The same SQL in SQLite and PostgreSQL.
UTC_DAY = (
    "CASE WHEN substr(timestamp, 5, 1) = '-' AND substr(timestamp, 8, 1) = '-' "
    "AND substr(timestamp, 11, 1) = 'T' AND substr(timestamp, 14, 1) = ':' "
    "AND substr(timestamp, 17, 1) = ':' "
    f"AND {_digits((1, 4), (6, 2), (9, 2), (12, 2), (15, 2), (18, 2))} "
    "AND substr(timestamp, 12, 2) < '24' AND substr(timestamp, 15, 2) < '60' "
    "AND substr(timestamp, 18, 2) < '61' AND (substr(timestamp, 20) = 'Z' OR "
    "(substr(timestamp, 20, 1) = '.' AND length(timestamp) > 21 "
    "AND substr(timestamp, length(timestamp)) = 'Z' "
    "AND ltrim(substr(timestamp, 21, length(timestamp) - 21), '0123456789') = '')) "
    "THEN substr(timestamp, 1, 10) END"
)

#: SQL, of SQLite and PostgreSQL: a log row's ``timestamp`` as :func:`time_order`.
TIME_ORDER = (
    "substr(timestamp, 1, length(timestamp) - 1) || ' ' || substr(timestamp, length(timestamp))"
)


@overload
def from_time_order(key: str) -> str: ...
@overload
def from_time_order(key: object) -> object: ...
def from_time_order(key: object) -> object:
    """The time of a :func:`time_order` text (:data:`TIME_ORDER`'s too); anything else (None)
    as it is."""
    return f"{key[:-2]}{key[-1:]}" if isinstance(key, str) and len(key) > 1 else key


def second_floor(bound: str) -> str:
    """The text below every time of the second of ``bound`` (a bound of skillc's form,
    ``2026-12-01T10:00:00Z``): ``2026-12-01T10:00:00.``, which sorts after every earlier
    second and before that second's times, ``...00Z`` and its fractions ``...00.500Z``;
    ``bound`` itself for any other text (a day). As text a fraction sorts before its whole
    second (``.`` before ``Z``) though it is later: a lower bound keeps the rows from this
    text, an upper bound keeps those up to it but the fractions between this text and it
    (:func:`~skillc_index.accesslog.reader.where_clause`; the team store's days,
    ``skillc_stats._team_days``, alike)."""
    return bound[:19] + "." if len(bound) == 20 and bound.endswith("Z") else bound


def utc_now() -> str:
    """Now as RFC 3339 UTC with ``Z``, to the second (``2026-01-30T10:00:00Z``)."""
    return time.strftime("%Y-%m-%dT%H:%M:%SZ", time.gmtime())


def as_utc_timestamp(value: object) -> str | None:
    """``value``, a time another process reported, as RFC 3339 UTC with ``Z`` (to the second,
    as :func:`utc_now`): seconds since the epoch (what older find servers sent), or a
    timestamp text, already in this form or with another offset; None when it is none of
    these (no offset, out of range...)."""
    from datetime import datetime, timezone

    if isinstance(value, str) and is_utc_timestamp(value):
        return value
    try:
        if isinstance(value, (int, float)) and not isinstance(value, bool):
            moment = datetime.fromtimestamp(value, timezone.utc)
        elif isinstance(value, str):
            moment = datetime.fromisoformat(value.strip())
            if moment.tzinfo is None:  # a local time of some zone: no UTC time known
                return None
        else:
            return None
        return moment.astimezone(timezone.utc).strftime("%Y-%m-%dT%H:%M:%SZ")
    except (ValueError, OverflowError, OSError):
        return None
