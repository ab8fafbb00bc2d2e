"""The links of a folder (a store): which entry holds a skill linked under a name other
than its folder's (``alpha-x -> repo/skill``). Standard library only: resolution reads it
on the hot path (:func:`~skillc_index.layout.store_entry`)."""

from __future__ import annotations

import os
from itertools import islice
from pathlib import Path

__all__ = ["MAX_ENTRIES", "folder_links"]

#: At most this many entries of one folder are looked at (a library of 20,000 skills fits).
MAX_ENTRIES = 100_000


def folder_links(folder: Path) -> dict[str, str]:
    """The real paths the links of ``folder`` (a store) lead to, each -> the first by name of
    its links there (hidden ones left out; of its first :data:`MAX_ENTRIES` entries); ``{}``
    when it cannot be listed. Which entry of a store holds a skill linked under another name
    (:func:`~skillc_index.layout.store_entry`)."""
    try:
        with os.scandir(folder) as found:
            names = sorted(e.name for e in islice(found, MAX_ENTRIES) if e.is_symlink())
    except OSError:  # not there, not a folder, not readable
        return {}
    links: dict[str, str] = {}
    for name in names:
        if name[0] != ".":
            links.setdefault(os.path.realpath(folder / name), name)
    return links
