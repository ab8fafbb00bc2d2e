"""The one clock of the kit: timestamps as RFC 3339 UTC with ``Z``, to the second
(DECISIONS "Errors and output"), for the access log, the index's ``indexed_at`` and the
manifest's ``built_at`` alike."""

from __future__ import annotations

import time

__all__ = ["utc_now"]


def utc_now() -> str:
    """Now as RFC 3339 UTC with ``Z``, to the second (``2026-01-30T10:00:00Z``)."""
    return time.strftime("%Y-%m-%dT%H:%M:%SZ", time.gmtime())
