"""The one clock of the kit: timestamps as RFC 3339 UTC with ``Z``, to the second
(DECISIONS "Errors and output"), for the access log, the index's ``indexed_at`` and the
manifest's ``built_at`` alike."""

from __future__ import annotations

import time

__all__ = ["is_utc_timestamp", "utc_now"]


def is_utc_timestamp(text: str) -> bool:
    """Whether ``text`` is a timestamp as skillc stores them (:func:`utc_now`'s form, a
    fraction of a second allowed): a row of a log a checkout ships may hold anything."""
    import re
    from datetime import date

    if not re.fullmatch(r"\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d(?:\.\d+)?Z", text):
        return False
    try:
        date.fromisoformat(text[:10])
    except ValueError:
        return False
    return int(text[11:13]) < 24 and int(text[14:16]) < 60 and int(text[17:19]) < 61


def utc_now() -> str:
    """Now as RFC 3339 UTC with ``Z``, to the second (``2026-01-30T10:00:00Z``)."""
    return time.strftime("%Y-%m-%dT%H:%M:%SZ", time.gmtime())
