"""What the catalog's walk reads of one folder: its flags and the subfolders it enters.

Every walk for skills enters the same folders (:func:`skillc_index.skips_folder`, the rule
``build`` and ``lint`` walk by too); :meth:`FolderLister._list` is that rule as the catalog
applies it to one listing, at most :data:`~skillc_index.walk.MAX_ENTRIES` entries of it: a
``SKILL.md`` that is no folder makes the folder a skill (a skill's tests, ``evals/``, are not
entered), a symlinked entry is followed only at the root (and not out of :attr:`confine`), a
deployed skillc skill at the root stands for its source (:meth:`_source`: a stub, not
entered), a cache (``CACHEDIR.TAG``) and what ``skc package`` wrote are not entered, and a
name that is not UTF-8 is skipped and counted (:func:`utf8`). The walk itself, over the whole
tree and again from a saved state, is :mod:`.scan`'s (its walker is a :class:`FolderLister`).
"""

# Paths are str here, not pathlib: this runs over every folder of every skill per query.
# ruff: noqa: PTH110, PTH112, PTH114

from __future__ import annotations

import os
from collections.abc import Callable
from itertools import islice

from skillc_gateway.catalog.tree_state import (
    CROWDED,
    DEEP,
    LINK,
    SKILL,
    STUB,
    UNREADABLE,
    TreeState,
)
from skillc_index import META_DIR, SKIPPED_FOLDERS, skips_folder
from skillc_index.inventory.deployed import ROUTER_MARK, ROUTER_NAME
from skillc_index.layout import NOT_PACKAGED_AT_ROOT as TESTS
from skillc_index.walk import (
    CACHE_TAG,
    MAX_DEPTH,
    MAX_ENTRIES,
    PACKAGE_RECORD,
    cache_tagged,
    packaged,
)

__all__ = ["ENTRIES", "SKILL_FILE", "FolderLister", "utf8"]

SKILL_FILE = "SKILL.md"
#: Folder levels searched below a folder of installed skills: its entries. A root given as a
#: path is searched :data:`MAX_DEPTH` levels deep (its entries are level 1), and at most
#: :data:`MAX_FOLDERS` folders of one root are walked (the rest is not searched and the answer
#: says it is partial): the bounds of every walk for skills (:mod:`skillc_index.walk`).
ENTRIES = 1


def utf8(path: str) -> bool:
    """Whether ``path`` is UTF-8 (a name of other bytes is read with lone surrogates, which
    the catalog's SQLite cannot hold: such a folder is skipped and counted, never a failure)."""
    try:
        path.encode("utf-8")
    except UnicodeEncodeError:
        return False
    return True


class FolderLister:
    """Lists a folder for the walk (:mod:`.scan`'s walker is one): reads the state it fills
    (its dangling entries, followed links and deployed skills' sources), the depth searched,
    the folders a symlinked entry may lead into, and the deployed skills' sources."""

    state: TreeState
    depth: int
    confine: tuple[str, ...]
    deployed_source: Callable[[str, bool], str | None]

    def _list(self, path: str, full: str, link: int) -> tuple[int, list[tuple[str, int]]]:
        """A folder's flags and its subfolders to walk (each with LINK when it is a followed
        symlink: only the root's own entries; for the root, its dangling ones recorded)."""
        depth = path.count("/") + 1 if path else 0
        if not path:
            self.state.dangling = set()
        kind = link
        children: list[tuple[str, int]] = []
        meta = router = tagged = recorded = False
        deeper: list[str] = []  # at MAX_DEPTH: the subfolders not walked (DEEP)
        parent = full.rpartition("/")[2]
        store = parent == ".skillc"  # skips_folder: only its skills store is searched
        if not utf8(full) or (link and not self._may_follow(self.state.links.get(path, ""))):
            # a name, or a link's target, that is not UTF-8 (or leads out of a plugin's folder)
            return kind | UNREADABLE, []
        try:
            with os.scandir(full) as listing:
                for entry in islice(listing, MAX_ENTRIES):  # the bound of every walk's folder
                    name = entry.name
                    try:
                        if name == SKILL_FILE:
                            # not a regular file (a link, a FIFO, a device): skipped and
                            # counted by the indexer, which never opens it
                            if not entry.is_dir():
                                kind |= SKILL
                            continue
                        if name == CACHE_TAG:
                            tagged = True
                        hidden = name[0] == "."
                        if hidden:
                            router = router or name == ROUTER_MARK
                            recorded = recorded or name == PACKAGE_RECORD
                            if name == META_DIR and depth == 1:
                                meta = entry.is_dir(follow_symlinks=False)
                        if depth >= self.depth:
                            if depth == MAX_DEPTH and not skips_folder(name, parent):
                                deeper += [name] if entry.is_dir(follow_symlinks=False) else []
                            continue
                        # skips_folder(name, parent), its frozenset lookup first: the function
                        # is called only for a hidden name or in .skillc (the rest it passes)
                        if name in SKIPPED_FOLDERS:
                            continue
                        if (hidden or store) and skips_folder(name, parent):
                            continue
                        child = f"{path}/{name}" if path else name
                        if entry.is_dir(follow_symlinks=False):
                            children.append((child, 0))
                        elif depth == 0 and entry.is_symlink():
                            if entry.is_dir():
                                children.append((child, LINK))
                            elif not os.path.exists(entry.path):
                                self.state.dangling.add(child)
                    except OSError:  # this entry only (a symlink loop): the others are walked
                        if name == SKILL_FILE:
                            kind |= SKILL  # a looping link: the reader refuses it, counted
                more = next(listing, None) is not None  # the rest is not read
        except OSError:
            return kind | UNREADABLE, []
        if more:  # the names the walk looks for may lie past the entries read: looked up
            skill, found = f"{full}/{SKILL_FILE}", f"{full}/{META_DIR}"
            if os.path.lexists(skill) and not os.path.isdir(skill):  # as entry.is_dir()
                kind |= SKILL
            meta = meta or (depth == 1 and os.path.isdir(found) and not os.path.islink(found))
            tagged, recorded = True, True
            router = router or os.path.lexists(f"{full}/{ROUTER_MARK}")
        if kind & SKILL:  # a skill's tests (evals/): not searched (a fixture's SKILL.md there)
            children = [one for one in children if one[0].rpartition("/")[2] not in TESTS]
            deeper = [name for name in deeper if name not in TESTS]
        if router and depth == 1 and parent == ROUTER_NAME:  # `skc route`'s router points to
            # find; it is not found itself (a skill elsewhere holding the mark is)
            kind &= ~SKILL
        if depth == 1 and kind & SKILL:
            try:
                source = self._source(path, meta)
            except (OSError, ValueError):  # a deployed copy whose manifest cannot be read
                self.state.sources.pop(path, None)
                return (kind & ~SKILL) | UNREADABLE, []  # skipped and counted, not indexed
            if source is not None:
                self.state.sources[path] = source
                return kind | STUB, []
            self.state.sources.pop(path, None)
        if tagged and depth and cache_tagged(full):  # a cache (cargo's target/): not searched
            return kind, []
        # skc package's copies: left out of a --path root's walk only (a store, an agent
        # folder or a plugin is what agents load, whoever wrote a record there)
        if recorded and self.depth > ENTRIES and (written := packaged(full, recorded)):
            children = [child for child in children if child[0].rpartition("/")[2] not in written]
            deeper = [name for name in deeper if name not in written]
        crowd = CROWDED if more and depth < self.depth else 0  # entries past it: not walked
        return kind | crowd | (DEEP if deeper else 0), sorted(children)

    def _may_follow(self, target: str) -> bool:
        """Whether a symlinked entry of the root leading to ``target`` (its real path) is
        listed: a UTF-8 one, inside a folder of :attr:`confine` when the root has them (a
        plugin's, a model's ``path``)."""
        if not utf8(target):
            return False
        if not self.confine:
            return True
        from skillc_index.files import inside  # a confined root's link only

        return any(inside(target, folder) for folder in self.confine)

    def _source(self, path: str, meta: bool) -> str | None:
        """The source of a deployed skillc skill at the root's entry ``path``, else None."""
        return self.deployed_source(self.state.real_path(path), meta)
