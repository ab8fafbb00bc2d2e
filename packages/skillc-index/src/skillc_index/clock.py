"""The one clock of the kit: timestamps as RFC 3339 UTC with ``Z``, to the second
(DECISIONS "Errors and output"), for the access log, the index's ``indexed_at`` and the
manifest's ``built_at`` alike; :func:`as_utc_timestamp` puts a time another process reports
(an older find server's epoch seconds) in that form."""

from __future__ import annotations

import time

__all__ = ["as_utc_timestamp", "is_utc_timestamp", "utc_now"]


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
