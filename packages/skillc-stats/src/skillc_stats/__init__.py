"""skillc-stats: usage analytics of Agent Skills (RFC-0003) and fallback log sync (RFC-0007).

``query_stats`` answers the RFC-0003 queries over a skill's access log and returns the
RFC-0003:C-SCHEMA response (what ``skc stats --format json`` prints); ``unused_sections``
lists the headings no agent read; ``sync_logs`` moves fallback logs into the primary logs
(``skc sync``). Each returns data; the ``skc`` commands and the MCP server format it.
Importing this package is cheap: names load on first use.
"""

from __future__ import annotations

import importlib
from typing import TYPE_CHECKING, Any

__version__ = "0.1.0"

_EXPORTS: dict[str, str] = {
    "QUERY_TYPES": "_stats",
    "query_stats": "_stats",
    "unused_sections": "_stats",
    "SkillSync": "_sync",
    "SyncReport": "_sync",
    "sync_logs": "_sync",
}

__all__ = ["__version__", *_EXPORTS]


def __getattr__(name: str) -> Any:
    module = _EXPORTS.get(name)
    if module is None:
        raise AttributeError(f"module 'skillc_stats' has no attribute {name!r}")
    value = getattr(importlib.import_module(f"skillc_stats.{module}"), name)
    globals()[name] = value
    return value


def __dir__() -> list[str]:
    return sorted(__all__)


if TYPE_CHECKING:
    from skillc_stats._stats import QUERY_TYPES, query_stats, unused_sections
    from skillc_stats._sync import SkillSync, SyncReport, sync_logs
