"""The CPUs this process may run on: the one answer for every pool of workers in the kit
(``build``'s processes, ``skillc-lint``'s, the gateway's threads that compute vectors)."""

from __future__ import annotations

import os

__all__ = ["usable_cores"]


def usable_cores() -> int:
    """The CPUs this process may run on (its affinity mask where the system has one)."""
    try:
        return len(os.sched_getaffinity(0))
    except AttributeError:  # macOS, Windows
        return os.cpu_count() or 1
