"""The links of a folder (a store): which entry holds a skill linked under a name other
than its folder's (``alpha-x -> repo/skill``). Standard library only: resolution reads it
on the hot path (:func:`store_entry`).

A store's links are read once per process while the store folder is unchanged (its path,
inode and modification time: adding, removing or renaming an entry changes it), each with
one ``os.readlink`` and one ``lstat`` of its target (whether it is a link itself), and filed
by the last name of the path it holds: a folder is looked for among the links whose
target has its name (and those whose target is itself a link, or ends in ``.``/``..``),
each compared by ``os.stat`` (one system call) before ``os.path.realpath`` confirms it.
A farm of 2,000 links to folders of their own names, or all named ``skill``, costs a
listing and 2,000 ``readlink`` and ``lstat`` per process, not 2,000 ``realpath`` per
resolution.

What a link's target is, is not looked at again while the store is unchanged: a target
replaced since by a symlink to a folder outside the store (``repo/skill`` now a link to
``elsewhere/other``) is still filed by its old last name, so a long-running process (an MCP
server, the find server) does not find the skill behind it by that link until the store
folder changes (an entry added, removed or renamed); a new process does."""

# ruff: noqa: PTH114, PTH115, PTH116, PTH118
# (strings and single system calls: resolution runs this for every link of a store)
from __future__ import annotations

import os
from heapq import merge
from itertools import islice
from pathlib import Path
from typing import NamedTuple

__all__ = ["MAX_STORE_ENTRIES", "folder_links", "link_targets", "linked_entry", "store_entry"]

#: At most this many entries of one store or skills folder are listed, its links here and its
#: skills (:func:`~skillc_index.inventory.entries.root_listing`): a library of 20,000 skills
#: fits. (A walk for skills reads fewer of each folder it goes through: ``walk.MAX_ENTRIES``.)
MAX_STORE_ENTRIES = 100_000
#: The scans kept per process (a project's store, the global one, a few others').
MAX_SCANS = 16


class _Scan(NamedTuple):
    """A folder's links (hidden ones left out), by name: ``by_last`` filed by the last name
    of their target, ``always`` those a folder of any name may be behind."""

    key: tuple[int, int, int]
    by_last: dict[str, list[str]]
    always: list[str]


_scans: dict[str, _Scan] = {}


def _scan(folder: Path) -> _Scan | None:
    """The links of ``folder``, read again (:func:`_read`) only when it changed; None when
    it cannot be listed."""
    try:
        st = os.stat(folder)
    except OSError:  # not there, not readable
        return None
    key = (st.st_dev, st.st_ino, st.st_mtime_ns)
    known = _scans.get(str(folder))
    if known is not None and known.key == key:
        return known
    scan = _read(folder, key)
    if scan is not None:
        if len(_scans) >= MAX_SCANS:
            _scans.clear()
        _scans[str(folder)] = scan
    return scan


def _read(folder: Path, key: tuple[int, int, int]) -> _Scan | None:
    """:func:`_scan`'s listing of ``folder``: each link read (``os.readlink``), its target
    looked at (one ``lstat``: it may be a link itself) unless its last part is empty, ``.``
    or ``..``."""
    try:
        with os.scandir(folder) as found:
            names = sorted(e.name for e in islice(found, MAX_STORE_ENTRIES) if e.is_symlink())
    except OSError:  # not a folder, not readable
        return None
    by_last: dict[str, list[str]] = {}
    always: list[str] = []
    for name in names:
        if name[0] == ".":
            continue
        try:
            target = os.readlink(os.path.join(folder, name))
        except OSError:  # replaced since it was listed: looked at for every folder
            always.append(name)
            continue
        last = os.path.basename(target.rstrip(os.sep))  # noqa: PTH119 (a link's text)
        if last in {"", ".", ".."} or os.path.islink(os.path.join(folder, target)):
            always.append(name)
        else:
            by_last.setdefault(last, []).append(name)
    return _Scan(key, by_last, always)


def store_entry(store: Path, source: Path, entry: str | None = None) -> str | None:
    """The name of the store's entry that is the canonical folder ``source``, the skill's name
    (its runtime's, ``skc list``'s): its own when it is in the store or the entry of its name
    links to it, else the first by name of the store's links to it (``alpha-x -> repo/skill``:
    a stow farm, a dotfiles repository: :func:`linked_entry`), else None. A skill shared from
    another project's store by a link is this store's, built and logged here, not an import.
    ``entry``: an entry known to lead to ``source`` (found by name). Imported by
    :mod:`skillc_index.layout`, where every caller finds it."""
    if source.parent == store.resolve():
        return source.name
    if (store / source.name).is_symlink() and os.path.realpath(store / source.name) == str(source):
        return source.name
    return linked_entry(store, source, entry)


def linked_entry(folder: Path, source: Path, known: str | None = None) -> str | None:
    """The first by name of the links of ``folder`` (a store; hidden ones left out, of its
    first :data:`MAX_STORE_ENTRIES` entries) that lead to the canonical folder ``source``; None
    when there is none or ``folder`` cannot be listed. ``known``: a link of ``folder`` known
    to lead there (found by name): only those named before it are looked at. Which entry of
    a store holds a skill linked under another name
    (:func:`store_entry`)."""
    before = known if known and known[0] != "." else None
    scan = _scan(folder)
    if scan is None:
        return before
    candidates = merge(scan.by_last.get(source.name, ()), scan.always)
    want: os.stat_result | None = None
    for name in candidates:
        if before is not None and name >= before:
            break
        path = os.path.join(folder, name)
        try:
            want = want or os.stat(source)
            found = os.stat(path)
        except OSError:
            continue
        same = (found.st_dev, found.st_ino) == (want.st_dev, want.st_ino)
        if same and os.path.realpath(path) == str(source):
            return name
    return before


def link_targets(folder: Path) -> frozenset[str] | None:
    """The last names of the folders the links of ``folder`` (a store) may lead to, from the
    scan :func:`linked_entry` reads (one ``stat`` while it is kept): a folder of another name
    is no link's; None when any folder may be (a link to a link, to ``..``); empty when there
    is no link or ``folder`` cannot be listed. For a caller asking about many folders (find's
    answer): only a folder whose name is there is worth a :func:`store_entry`."""
    scan = _scan(folder)
    if scan is None:
        return frozenset()
    return None if scan.always else frozenset(scan.by_last)


def folder_links(folder: Path) -> dict[str, str]:
    """The real paths the links of ``folder`` (a store) lead to, each -> the first by name of
    its links there (hidden ones left out; of its first :data:`MAX_STORE_ENTRIES` entries); ``{}``
    when it cannot be listed: every linked skill of a store at once
    (:func:`~skillc_index.accesslog.store.primary_log_finder`)."""
    scan = _scan(folder)
    if scan is None:
        return {}
    links: dict[str, str] = {}
    for name in sorted(
        [*scan.always, *(name for names in scan.by_last.values() for name in names)]
    ):
        links.setdefault(os.path.realpath(os.path.join(folder, name)), name)
    return links
