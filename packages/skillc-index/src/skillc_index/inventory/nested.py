"""The ``.claude/skills`` folders of a project's subfolders, which Claude Code reads when it
works with files there (:func:`nested_folders`), and what a search of them cut short says
(:func:`nested_notices`): a part of the inventory's folders (:mod:`.folders`)."""

from __future__ import annotations

import os
import threading
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path
from typing import TYPE_CHECKING

from skillc_index.diagnostics import Notice

if TYPE_CHECKING:  # (imported as a command starts: :func:`one_walk`)
    from skillc_index.inventory.folders import Root
    from skillc_index.layout import Layout

#: Subfolder levels searched for a nested ``.claude/skills`` (``packages/web/.claude/skills``
#: is at level 2): a monorepo's packages, not the whole tree.
NESTED_DEPTH = 3
#: At most this many folders are listed looking for them: the rest is not, and
#: :func:`nested_notices` says so.
NESTED_FOLDERS = 1000
#: At most this many entries, files included, are read listing them, all folders together
#: (about 20 ms; a folder's own bound is :data:`skillc_index.walk.MAX_ENTRIES`): a dataset of
#: ten folders of 20,000 files cost every home skill's ``show`` 0.17 s, and the folder bound
#: alone let 1,000 such folders cost seconds. The folders past it are not listed, and
#: :func:`nested_notices` says so.
NESTED_ENTRIES = 50_000
#: A folder below the project's top stops being read once this many entries in a row were no
#: folder (a dataset's ``data/`` of 20,000 files is read 1,000 entries deep): three such
#: folders sorting before ``packages/`` took all of :data:`NESTED_ENTRIES` and its nested
#: skills were not found. The rest of such a folder is not read, as past
#: :data:`skillc_index.walk.MAX_ENTRIES`, and nothing is said of it.
NESTED_RUN = 1000
#: The folders whose last :func:`nested_folders` walk in this process was cut short, with the
#: bound that cut it (``folders`` or ``entries``).
_NESTED_CUT: dict[str, str] = {}
#: The command under way's walks (:func:`one_walk`): ``(layout, base)`` -> what was found.
#: (per thread, not a ContextVar: ``contextvars`` would be one more module for ``skc
#: search``; an MCP tool call runs on one thread)
_WALKS = threading.local()


@contextmanager
def one_walk() -> Iterator[None]:
    """Within it, :func:`nested_roots` walks each project once (a command: the CLI's and an
    MCP tool call's, :func:`skillc_index.console.command`); outside it, every lookup walks
    again (a server's, an embedder's: never a list older than the lookup)."""
    outer = getattr(_WALKS, "found", None)
    _WALKS.found = {}
    try:
        yield
    finally:
        _WALKS.found = outer


def nested_roots(layout: Layout, base: Path) -> tuple[Root, ...]:
    """:func:`nested_folders` of ``base``, walked once for a command (:func:`one_walk`: an
    E001 walked three times, for the lookup, the near names and the links gone; ``find``
    three times too); walked again at each lookup outside one."""
    walks: dict[tuple[Layout, Path], tuple[Root, ...]] | None = getattr(_WALKS, "found", None)
    if walks is None:
        return nested_folders(base)
    found = walks.get((layout, base))
    if found is None:
        found = walks[(layout, base)] = nested_folders(base)
    return found


def nested_folders(base: Path) -> tuple[Root, ...]:
    """The ``.claude/skills`` folders of ``base``'s subfolders (not ``base``'s own), at most
    :data:`NESTED_DEPTH` levels down, in bytewise path order, as roots of the ``claude``
    agent, scope ``project``. The walk enters the folders every walk for skills enters
    (:func:`skillc_index.skips_folder`), never a symlink, nor ``.skillc`` (its store is a root
    already) or a ``.claude`` folder itself, nor a cache its tool tagged
    (:func:`skillc_index.walk.cache_tagged`); what ``skc package`` wrote into a folder is searched
    all the same (agents load what is there, whoever wrote its record). A ``.claude`` that is
    a symlink, or its ``skills``, is followed when it really lies within ``base`` (a package's
    ``.claude -> ../../shared/claude``, as Claude Code follows it), not when it leads out of
    it. It lists at most :data:`NESTED_FOLDERS` folders, and of each at most
    :data:`skillc_index.walk.MAX_ENTRIES` entries, below the top until :data:`NESTED_RUN` in a
    row were no folder, :data:`NESTED_ENTRIES` in all (a folder of a million files cost every
    ``find`` and ``list`` seconds; silently): the first the system lists, of which only the
    folders are kept, walked in bytewise name order (reading all of them to sort is what the
    bound avoids). The folders of the last level are not listed, nor those found once
    :data:`NESTED_ENTRIES` are read: their ``.claude`` is looked up. A folder its tool tagged
    is known before its subfolders count towards the bound (a ``target/`` of thousands cut
    the walk short, said so, for folders never searched); it remembers a walk cut short at
    either bound for :func:`nested_notices` (a folder left unlisted that holds anything, a
    listing the total bound stopped before its end: not one ending on it)."""
    from skillc_index.inventory.folders import NESTED_AGENT, Root
    from skillc_index.layout import SKILLC_DIR
    from skillc_index.targets import KNOWN_TARGETS
    from skillc_index.walk import CACHE_TAG, MAX_ENTRIES, cache_tagged, skips_folder

    relative = KNOWN_TARGETS[NESTED_AGENT].project or ".claude/skills"
    marker, _, rest = relative.partition("/")
    found: list[str] = []
    pending = [(str(base), 0)]  # breadth first: the bounds leave out the deepest folders
    listed, left, cut = 0, NESTED_ENTRIES, ""
    while listed < len(pending):  # (at most NESTED_FOLDERS of them)
        folder, depth = pending[listed]
        listed += 1
        if depth >= NESTED_DEPTH or left <= 0:  # not listed: its .claude alone is looked up
            if depth < NESTED_DEPTH and not cut and _holds_any(folder):
                cut = "entries"  # its subfolders were not searched
            claude = f"{folder}/{marker}"
            if os.path.lexists(claude) and not cache_tagged(folder):
                _add_nested(found, claude, rest, str(base))
            continue
        parent = folder.rpartition("/")[2]
        limit, run = min(MAX_ENTRIES, left), NESTED_RUN if depth else MAX_ENTRIES
        read, alone, more, tagged, seen, folders = 0, 0, False, False, False, []
        try:
            with os.scandir(folder) as listing:  # the rest of a folder is not read
                for entry in listing:
                    if read >= limit or alone >= run:
                        more = True  # it holds more than was read
                        break
                    read += 1
                    alone += 1
                    name = entry.name
                    if name == CACHE_TAG:
                        tagged = True
                    elif name == marker:
                        folders.append(entry)  # followed when it is a link within base
                        alone, seen = 0, True
                    else:
                        try:
                            if entry.is_dir(follow_symlinks=False):
                                folders.append(entry)
                                alone = 0
                        except OSError:
                            continue
        except OSError:
            continue
        left -= read
        if more and read >= limit and limit < MAX_ENTRIES:
            cut = "entries"  # this folder's listing was cut by the budget
        # a listing stopped early may hold its tag past it: looked at all the same
        if depth and (tagged or more) and cache_tagged(folder):
            continue  # a cache: not searched, its subfolders not counted
        if depth and more and not seen:  # its .claude may lie past where the listing stopped
            claude = f"{folder}/{marker}"
            if os.path.lexists(claude):
                _add_nested(found, claude, rest, str(base))
        folders.sort(key=lambda e: os.fsencode(e.name))
        for entry in folders:
            name = entry.name
            if name == marker:
                if depth:
                    _add_nested(found, entry.path, rest, str(base))
                continue
            if name == SKILLC_DIR or skips_folder(name, parent):
                continue
            if len(pending) >= NESTED_FOLDERS:
                cut = cut or "folders"
                continue
            pending.append((entry.path, depth + 1))
    if cut:
        _NESTED_CUT[str(base)] = cut
    else:
        _NESTED_CUT.pop(str(base), None)
    found.sort(key=os.fsencode)
    return tuple(Root(Path(path), "agent", "project", NESTED_AGENT) for path in found)


def _holds_any(folder: str) -> bool:
    """Whether ``folder`` holds an entry (one is read)."""
    try:
        with os.scandir(folder) as listing:
            return next(listing, None) is not None
    except OSError:
        return False


def _add_nested(found: list[str], claude: str, rest: str, base: str) -> None:
    """Add ``<claude>/<rest>`` to ``found`` when it is a folder that really lies within
    ``base`` (symlinks followed) when ``claude`` or ``<claude>/<rest>`` is a symlink: a link
    out of the project, either of them, is not followed."""
    skills = f"{claude}/{rest}"
    if os.path.islink(claude) or os.path.islink(skills):  # noqa: PTH114 (paths as text)
        from skillc_index.files import within

        if not within(skills, base):
            return  # a link out of the project: not followed
    if os.path.isdir(skills):  # noqa: PTH112
        found.append(skills)


def nested_notices() -> tuple[Notice, ...]:
    """A warning for each folder whose last :func:`nested_folders` walk in this process
    stopped at :data:`NESTED_FOLDERS` or :data:`NESTED_ENTRIES` (``list``, ``find`` and E001
    say it)."""
    return tuple(
        Notice(
            f"{base} holds more than {NESTED_FOLDERS:,} folders within {NESTED_DEPTH} levels: "
            "only the first, in name order, were searched for nested .claude/skills folders"
            if _NESTED_CUT[base] == "folders"
            else f"{base} holds more than {NESTED_ENTRIES:,} files and folders within "
            f"{NESTED_DEPTH} levels: only the folders listed first, in name order, were "
            "searched for nested .claude/skills folders"
        )
        for base in sorted(_NESTED_CUT, key=os.fsencode)
    )


# -- Codex's folders between the working directory and the repository root -----------------
