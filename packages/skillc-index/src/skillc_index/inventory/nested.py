"""The ``.claude/skills`` folders of a project's subfolders, which Claude Code reads when it
works with files there (:func:`nested_folders`), and what a search of them cut short says
(:func:`nested_notices`): a part of the inventory's folders (:mod:`.folders`)."""

from __future__ import annotations

import os
from itertools import islice
from pathlib import Path

from skillc_index.diagnostics import Notice
from skillc_index.inventory.folders import NESTED_AGENT, Root
from skillc_index.layout import KNOWN_TARGETS

#: Subfolder levels searched for a nested ``.claude/skills`` (``packages/web/.claude/skills``
#: is at level 2): a monorepo's packages, not the whole tree.
NESTED_DEPTH = 3
#: At most this many folders are listed looking for them (about 20 ms): the rest is not,
#: and :func:`nested_notices` says so.
NESTED_FOLDERS = 1000
#: The folders whose last :func:`nested_folders` walk in this process was cut short.
_NESTED_CUT: set[str] = set()


def nested_folders(base: Path) -> tuple[Root, ...]:
    """The ``.claude/skills`` folders of ``base``'s subfolders (not ``base``'s own), at most
    :data:`NESTED_DEPTH` levels down, in bytewise path order, as roots of the ``claude``
    agent, scope ``project``. The walk enters the folders every walk for skills enters
    (:func:`skillc_index.skips_folder`), never a symlink, nor ``.skillc`` (its store is a root
    already) or a ``.claude`` folder itself, nor a cache its tool tagged
    (:func:`skillc_index.walk.cache_tagged`); what ``skc package`` wrote into a folder is searched
    all the same (agents load what is there, whoever wrote its record); it lists at most
    :data:`NESTED_FOLDERS` folders, and of each at most :data:`skillc_index.walk.MAX_ENTRIES`
    entries (a folder of a million files cost every ``find`` and ``list`` seconds; silently): the
    first the system lists, then walked in bytewise name order (reading all of them to sort is what
    the bound avoids). A folder its tool tagged is known before its subfolders count towards the
    bound (a ``target/`` of thousands cut the walk short, said so, for folders never searched); it
    remembers a walk cut short at the folder bound for :func:`nested_notices`."""
    from skillc_index.layout import SKILLC_DIR
    from skillc_index.walk import (
        CACHE_TAG,
        MAX_ENTRIES,
        cache_tagged,
        skips_folder,
    )

    relative = KNOWN_TARGETS[NESTED_AGENT].project or ".claude/skills"
    marker, _, rest = relative.partition("/")
    found: list[str] = []
    pending = [(str(base), 0)]  # breadth first: the bound leaves out the deepest folders
    listed, cut = 0, False
    while listed < len(pending):  # (at most NESTED_FOLDERS of them)
        folder, depth = pending[listed]
        listed += 1
        parent = folder.rpartition("/")[2]
        try:
            with os.scandir(folder) as listing:  # the rest of a folder is not read
                entries = sorted(islice(listing, MAX_ENTRIES), key=lambda e: os.fsencode(e.name))
        except OSError:
            continue
        # a listing cut at the bound may hold its tag past it: looked at all the same
        crowded = len(entries) >= MAX_ENTRIES
        if (
            depth
            and (crowded or any(e.name == CACHE_TAG for e in entries))
            and cache_tagged(folder)
        ):
            continue  # a cache: not searched, its subfolders not counted
        for entry in entries:
            name = entry.name
            try:
                if not entry.is_dir(follow_symlinks=False):
                    continue
            except OSError:
                continue
            if name == marker:
                if depth and os.path.isdir(f"{entry.path}/{rest}"):  # noqa: PTH112
                    found.append(f"{entry.path}/{rest}")
                continue
            if depth >= NESTED_DEPTH or name == SKILLC_DIR or skips_folder(name, parent):
                continue
            if len(pending) >= NESTED_FOLDERS:
                cut = True
                continue
            pending.append((entry.path, depth + 1))
    (_NESTED_CUT.add if cut else _NESTED_CUT.discard)(str(base))
    found.sort(key=os.fsencode)
    return tuple(Root(Path(path), "agent", "project", NESTED_AGENT) for path in found)


def nested_notices() -> tuple[Notice, ...]:
    """A warning for each folder whose last :func:`nested_folders` walk in this process
    stopped at :data:`NESTED_FOLDERS` (``list``, ``find`` and E001 say it)."""
    return tuple(
        Notice(
            f"{base} holds more than {NESTED_FOLDERS:,} folders within {NESTED_DEPTH} levels: "
            "only the first, in name order, were searched for nested .claude/skills folders"
        )
        for base in sorted(_NESTED_CUT, key=os.fsencode)
    )


# -- Codex's folders between the working directory and the repository root -----------------
