"""The find server's memory (:class:`~.server.FindServer`): its resident size, and the
memory a build of the catalog took, given back once the build ends."""

from __future__ import annotations

import os
from typing import TYPE_CHECKING

if TYPE_CHECKING:
    import sqlite3

__all__ = ["give_back_memory", "resident"]


def resident() -> str:
    """This process's resident memory, as ``212 MB`` (``?`` where /proc does not say)."""
    try:
        with open("/proc/self/statm", "rb") as statm:
            pages = int(statm.read().split()[1])
    except (OSError, ValueError, IndexError):
        return "?"
    return f"{pages * os.sysconf('SC_PAGE_SIZE') // 1_000_000} MB"


def give_back_memory(db: sqlite3.Connection) -> None:
    """Give back the memory a build took: the pages of ``db``'s page cache (``PRAGMA
    shrink_memory``; it fills again as far as queries read, up to
    :data:`~.database.CACHE_KIB`), then the C heap's free pages (glibc's ``malloc_trim``;
    where there is none, nothing: the memory Python and SQLite free during a build goes back
    to the heap, not to the system, and a long-running server kept it)."""
    import contextlib
    import sqlite3

    with contextlib.suppress(sqlite3.Error):  # a busy or closed catalog: nothing given
        db.execute("PRAGMA shrink_memory")
    from skillc_index.cores import c_library

    libc = c_library()
    if libc is not None:
        with contextlib.suppress(AttributeError):  # no glibc (musl has no trim)
            libc.malloc_trim(0)
