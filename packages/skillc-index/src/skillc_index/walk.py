"""Walking a folder for skills: the one rule of which folders a walk enters.

``skc build DIR``, ``skc lint DIR`` and ``skc find`` (its catalog's own incremental walker,
``skillc_gateway.catalog.scan``) all look for ``SKILL.md`` under a folder, and all enter the
same folders (DECISIONS: "Walking a folder for skills"): every folder, hidden ones included
(``skills/.curated/``, ``skills/.system/``: the layout of the openai/skills repository; a
checkout's ``.claude/skills/``), except

- version control, virtual environments, installed packages and caches (:data:`SKIPPED_FOLDERS`,
  by name: a frozenset lookup per entry, the find walker's hot path);
- a cache its tool tagged (:data:`CACHE_TAG`: cargo's ``target/``, many tools' caches), below
  the folder walked: looked at only in a folder whose listing holds that name or was cut
  at :data:`MAX_ENTRIES` (:func:`cache_tagged`); a folder is never left out by a name like
  ``build`` or ``dist``, which may be sources;
- for the walks that ask, ``build``'s, ``eval``'s and find's catalog walker (a copy not built, run
  or found is safe), never lint's nor the agent-folder inventory's (a record is project content
  anyone can write: it must not hide a skill from the linter, nor one an agent loads from ``skc
  list``), what ``skc package`` wrote into a folder (its copies of skills are no sources): of a
  folder holding a :data:`PACKAGE_RECORD` (or cut at :data:`MAX_ENTRIES`), the entries the record
  names, each file written there and each folder the package runs made (one that held the user's
  files before a run wrote into it is walked; a record written before it listed them: each folder
  its files make, :func:`~skillc_index.package.written.written_entries`), and nothing else of the
  folder (it may be a project's root); a record that cannot be read, is too large or a newer skillc
  wrote leaves out nothing, silently;
- skillc's own: in a ``.skillc`` folder only its ``skills`` store (its ``runtime``, ``logs``,
  ``router`` hold compiled stubs, parked deployments and databases), a runtime's
  ``.skillc-meta``, and the hidden names skillc gives what it is writing or has moved aside
  (``.<name>.deploy.<pid>-<hex>``, ``.<name>.skillc-backup-<time>``: never a second copy of a
  skill).

:func:`skips_folder` is that rule; :func:`find_skill_folders` is the walk of ``build`` and
``lint``, breadth first. Every walk stops at the same bounds (:data:`MAX_DEPTH`,
:data:`MAX_FOLDERS`, which the find walker imports), and one stopped by either with folders
left says so (:func:`cut_short`; ``find``'s walker, depth first in name order because its
state keeps each folder's subtree after it, says so of :data:`MAX_FOLDERS` only). Of one
folder at most :data:`MAX_ENTRIES` entries are read: a walk leaves the rest of a folder holding
more, and says so naming it (:attr:`SkillFolders.crowded`, :func:`crowded`).

:func:`~skillc_index.skill_files.walk_skill` walks a skill's own folder by the same rule
(:mod:`skillc_index.skill_files`: the files of a skill, whose names are imported from there).
"""

from __future__ import annotations

import errno
import os
import re
import stat
from collections import deque
from itertools import islice
from pathlib import Path
from typing import TYPE_CHECKING
from weakref import WeakKeyDictionary

from skillc_index.diagnostics import Notice
from skillc_index.layout import META_DIR, SKILL_FILE, SKILLC_DIR, STORE_FOLDER

if TYPE_CHECKING:
    from collections.abc import Callable, Iterator

    from skillc_index.operation import Session

__all__ = [
    "CACHE_FOLDERS",
    "CACHE_TAG",
    "DEPTH_BOUND",
    "FOLDER_BOUND",
    "MAX_DEPTH",
    "MAX_ENTRIES",
    "MAX_FOLDERS",
    "PACKAGE_RECORD",
    "SKIPPED_FOLDERS",
    "Listing",
    "SkillFolders",
    "build_walk",
    "cache_tagged",
    "crowded",
    "cut_short",
    "find_skill_folders",
    "holds_past",
    "listed_as",
    "packaged",
    "skips_folder",
    "walked",
]

#: The record ``skc package`` keeps of what it wrote into an output folder (its format:
#: :mod:`skillc_index.package.written`); its name here, where the walks look for it.
PACKAGE_RECORD = ".skillc-package.json"

#: The caches Python and its tools make in the folder they run in (a skill's script run there
#: by ``skc exec``): no walk enters them, and one in a store copy leaves it unedited.
CACHE_FOLDERS = frozenset(
    {"__pycache__", ".cache", ".mypy_cache", ".pytest_cache", ".ruff_cache", ".hypothesis"}
)
#: Folders no walk for skills enters, whatever their parent: version control, virtual
#: environments and installed packages, caches, and skillc's runtime metadata.
SKIPPED_FOLDERS = frozenset(
    {
        # version control
        ".git",
        ".hg",
        ".svn",
        ".bzr",
        ".jj",
        "_darcs",
        "CVS",
        # virtual environments and installed packages
        ".venv",
        "venv",
        ".tox",
        ".nox",
        "__pypackages__",
        "node_modules",
        "bower_components",
        *CACHE_FOLDERS,
        # skillc's own
        META_DIR,
    }
)
#: The hidden names of what skillc is writing (``.<name>.<what>.<pid>-<8 hex>``, from
#: ``atomic.temporary_path``) or has moved aside (``.<name>.skillc-backup-<UTC time>[-N]``).
_SKILLC_TEMPORARY = re.compile(r"\..+\.(?:\d+-[0-9a-f]{8}|skillc-backup-\d{8}T\d{6}Z(?:-\d+)?)\Z")

#: Folder levels searched below the given folder (its entries are level 1).
MAX_DEPTH = 8
#: At most this many folders are looked at, by every walk (``find``'s: of each root); the rest
#: is not searched, and the walk says it was cut short (a library of 20,000 skills has about
#: 32,000 folders).
MAX_FOLDERS = 250_000


#: At most this many entries of one folder are read by a walk (a folder of a million cached files
#: cost every lint and ``find`` seconds): the rest of that folder is not walked, and the walk
#: names it (:attr:`SkillFolders.crowded`).
MAX_ENTRIES = 20_000

#: The Cache Directory Tagging spec's file (bford.info/cachedir): a folder holding one, a
#: regular file starting with :data:`CACHE_SIGNATURE`, is a cache (cargo's ``target/``), which
#: no walk for skills enters (:func:`cache_tagged`).
CACHE_TAG = "CACHEDIR.TAG"
CACHE_SIGNATURE = b"Signature: 8a477f597d28d172789f06886806bc55"


def cache_tagged(folder: str | int) -> bool:
    """Whether ``folder`` (a path, or a descriptor of it) holds a valid :data:`CACHE_TAG`: a
    regular file, no link, whose first bytes are :data:`CACHE_SIGNATURE`. One open and one
    read of 43 bytes (never blocking on a FIFO): called only for a folder whose listing holds
    that name, or whose listing was cut at :data:`MAX_ENTRIES` (the name may lie past it)
    (:func:`~skillc_index.bounded_json.read_bounded`)."""
    from skillc_index.bounded_json import read_bounded

    at, path = (folder, CACHE_TAG) if isinstance(folder, int) else (None, f"{folder}/{CACHE_TAG}")
    try:
        head = read_bounded(path, len(CACHE_SIGNATURE), dir_fd=at, follow=False)
    except OSError:
        return False
    return head.startswith(CACHE_SIGNATURE)


def packaged(folder: str | int, listed: bool) -> frozenset[str]:
    """The entries of ``folder`` (a path, or a descriptor of it) that ``skc package`` wrote
    there, as its :data:`PACKAGE_RECORD` names them (:func:`~skillc_index.package.written.
    written_entries`): no walk for skills enters them. Looked at only when ``listed``: the
    folder's listing holds that name, or was cut at :data:`MAX_ENTRIES` (it may lie past);
    else nothing, without a system call."""
    if not listed:
        return frozenset()
    from skillc_index.package.written import written_entries  # (not on show's and search's path)

    return written_entries(folder)


def crowded(folder: object, outcome: str) -> Notice:
    """The warning of a walk that read only the first :data:`MAX_ENTRIES` entries of
    ``folder``: ``<folder> holds more than 20,000 entries: not walked past them, <outcome>``
    (``skills past them are not built``)."""
    return Notice(
        f"{folder} holds more than {MAX_ENTRIES:,} entries: not walked past them, {outcome}"
    )


#: What stopped a walk with folders left to look at (:attr:`SkillFolders.cut_short`): the
#: folder bound (:data:`MAX_FOLDERS`) or the depth bound (:data:`MAX_DEPTH`: folders below
#: the last level searched).
FOLDER_BOUND = "folders"
DEPTH_BOUND = "depth"


class SkillFolders(list[Path]):
    """What :func:`find_skill_folders` found: the skill folders, a list, and whether the walk
    was ``cut_short``: the bound it stopped at with folders left to look at (skills may lie in
    them), :data:`FOLDER_BOUND` or :data:`DEPTH_BOUND`, else ``""``; and the folders it did not
    read past :data:`MAX_ENTRIES` entries of (``crowded``, in the order walked: the caller
    warns, :func:`crowded`)."""

    cut_short: str = ""
    crowded: tuple[Path, ...] = ()
    #: The first folder whose :data:`PACKAGE_RECORD` left out an entry there (what ``skc
    #: package`` wrote): a walk that found no skill says so, not only "missing SKILL.md".
    package_output: Path | None = None

    @property
    def stopped(self) -> bool:
        """Whether a bound stopped the walk (``cut_short``, ``crowded``): skills may lie past
        it, and a walk that found none must say so, not that ``SKILL.md`` is missing
        (:class:`~skillc_index.command_errors.NoSkillBeforeCut`)."""
        return bool(self.cut_short or self.crowded)


def holds_past(bound: str) -> str:
    """What a folder whose walk stopped at ``bound`` holds: ``holds more than 250,000
    folders`` or ``holds folders more than 8 levels deep``."""
    if bound == DEPTH_BOUND:
        return f"holds folders more than {MAX_DEPTH} levels deep"
    return f"holds more than {MAX_FOLDERS:,} folders"


def cut_short(folder: object, outcome: str, bound: str = FOLDER_BOUND) -> Notice:
    """The warning of a walk of ``folder`` that stopped at ``bound`` with folders left:
    ``<folder> holds more than 250,000 folders: only the first were searched, <outcome>``
    (``the answer is partial``, ``skills past them are not built``); at the depth bound
    ``<folder> holds folders more than 8 levels deep: only the first 8 levels were
    searched, <outcome>``."""
    searched = "the first were" if bound == FOLDER_BOUND else f"the first {MAX_DEPTH} levels were"
    return Notice(f"{folder} {holds_past(bound)}: only {searched} searched, {outcome}")


def skips_folder(name: str, parent: str) -> bool:
    """Whether a walk for skills leaves out the folder ``name`` found in a folder named
    ``parent`` (the rule of the module docstring). Cheap for the common name: one frozenset
    lookup and a character test."""
    if name in SKIPPED_FOLDERS:
        return True
    if parent == SKILLC_DIR:
        return name != STORE_FOLDER
    return name[:1] == "." and _SKILLC_TEMPORARY.match(name) is not None


#: How :func:`listed_as` opens a folder, to list it: where there is ``O_DIRECTORY`` (POSIX,
#: where ``os.scandir`` lists a descriptor too).
_LISTED = os.O_RDONLY | getattr(os, "O_DIRECTORY", 0) | getattr(os, "O_CLOEXEC", 0)
_LISTS_FD = hasattr(os, "O_DIRECTORY")


class Listing:
    """The entries of a folder (:func:`listed_as`), as ``os.scandir`` gives them, listed
    through a descriptor that stays open (their ``stat`` reads through it) until
    :meth:`close`, which a ``with`` block calls."""

    def __init__(self, folder: str | Path | int) -> None:
        self.fd = folder if isinstance(folder, int) else -1
        self.entries = os.scandir(folder)

    def __iter__(self) -> Iterator[os.DirEntry[str]]:
        return iter(self.entries)

    def close(self) -> None:
        self.entries.close()
        if self.fd >= 0:
            os.close(self.fd)
            self.fd = -1

    def __enter__(self) -> Listing:
        return self

    def __exit__(self, *_exc: object) -> None:
        self.close()


def listed_as(folder: str, seen: os.stat_result | None) -> Listing:
    """The entries of the folder a walk found at ``folder`` (``seen``: its ``lstat``, or its
    ``stat`` through a symlink the walk checked), listed only while the path still leads to
    that very folder (device and inode): one swapped for a symlink since, or a folder above it
    swapped, is ``OSError`` (``ENOENT``: no longer one of the walk's), never listed (its names
    were taken for the skill's files: ``sources`` showed a folder outside the skill). Listed
    through the descriptor checked: the entries' ``stat`` and ``is_dir`` are of that folder's
    entries, their ``path`` their bare name. ``seen`` None: the folder the path leads to now
    (the walk's root)."""
    if not _LISTS_FD:  # pragma: no cover - Windows: by path
        return Listing(folder)
    fd = os.open(folder, _LISTED)
    try:
        if seen is not None:
            now = os.fstat(fd)
            if (now.st_dev, now.st_ino) != (seen.st_dev, seen.st_ino):
                raise FileNotFoundError(errno.ENOENT, "changed since it was found", folder)
        return Listing(fd)
    except BaseException:
        os.close(fd)
        raise


def _holds_skill_file(listing: Listing, folder: Path) -> bool:
    """Whether the folder ``listing`` lists holds a regular file ``SKILL.md`` (symlinks
    followed, as :func:`~skillc_index.files.is_file`), looked up in the folder its descriptor
    holds (by path where there is none: Windows)."""
    from skillc_index.files import is_file

    if listing.fd < 0:  # pragma: no cover - Windows: by path
        return is_file(folder / SKILL_FILE)
    try:
        return stat.S_ISREG(os.stat(SKILL_FILE, dir_fd=listing.fd).st_mode)
    except (OSError, ValueError):
        return False


def find_skill_folders(
    folder: str | os.PathLike[str], *, linked_entries: bool = False, package_records: bool = False
) -> SkillFolders:
    """The skill folders under ``folder``: every folder holding SKILL.md, not looking inside
    a skill (a SKILL.md nested in a skill is one of its files), nor in the folders
    :func:`skips_folder` leaves out (hidden folders are entered: ``skills/.curated/x``).
    Bytewise order of the relative paths; ``[folder]`` itself when it is a skill.

    ``folder`` may be a symlink, but none below it is followed (``skills/x -> ~`` would walk
    the home folder, a checkout's ``skills/evil -> /elsewhere`` would build what is outside);
    at most :data:`MAX_DEPTH` levels and :data:`MAX_FOLDERS` folders are searched, level by
    level (a skill near ``folder`` is found whatever a later sibling holds; past a bound the
    answer is ``cut_short``: the caller warns, :func:`cut_short`). With
    ``linked_entries`` (lint: it only reads), a symlinked entry of ``folder`` itself that is
    a skill is found too (an agent folder's skills are links), never walked into. A folder
    that cannot be listed or searched (EACCES) is skipped, and so is a cache below
    ``folder`` (:func:`cache_tagged`); with ``package_records`` (``build``, ``eval``: a
    copy left out is not built nor run), what ``skc package`` wrote into a folder
    (:func:`packaged`) too. Lint never asks: a record is project content anyone can write,
    and must not hide a skill from the linter. Of a folder only the first
    :data:`MAX_ENTRIES` entries are read (the folder is then ``crowded``). ``folder`` may be
    a ``str`` (the skill folders found are each a ``Path`` all the same)."""
    from skillc_index.files import fs_bytes, is_file

    folder = Path(folder)
    found: list[tuple[bytes, Path]] = []
    # breadth first (level by level, each folder's entries in name order): a skill near the
    # folder is found before a sibling's deep tree spends the folder bound
    pending: deque[tuple[Path, str, int, os.stat_result | None]] = deque([(folder, "", 0, None)])
    walked = 0
    bound = ""
    full: list[Path] = []
    record: Path | None = None
    while pending:
        if walked >= MAX_FOLDERS:
            bound = FOLDER_BOUND
            break
        if pending[0][2] > MAX_DEPTH:  # every folder left is below the last level searched
            bound = DEPTH_BOUND
            break
        current, rel, depth, seen = pending.popleft()
        walked += 1
        try:  # the folder found, not one swapped in since: checked before SKILL.md is looked for
            listing = listed_as(str(current), seen)
        except OSError:  # one that cannot be listed is skipped; the walk's root is a skill
            if seen is None and is_file(current / SKILL_FILE):  # by path (nothing to swap)
                found.append((fs_bytes(rel.rstrip("/")), current))
            continue
        parent = current.name if rel else Path(os.path.abspath(current)).name  # noqa: PTH100
        with listing:
            if _holds_skill_file(listing, current):
                found.append((fs_bytes(rel.rstrip("/")), current))
                continue
            try:  # opened, yet its entries cannot be read (EACCES: /proc/1/map_files)
                entries = list(islice(listing, MAX_ENTRIES + 1))
            except OSError:
                continue
            more = len(entries) > MAX_ENTRIES  # its tag may lie past the entries read
            tagged = depth and (more or any(e.name == CACHE_TAG for e in entries))
            at = listing.fd if listing.fd >= 0 else str(current)
            if tagged and cache_tagged(at):
                continue  # a cache: not entered
            listed = package_records and (more or any(e.name == PACKAGE_RECORD for e in entries))
            written = packaged(at, listed)  # the copies skc package wrote there: not entered
            if written and record is None and any(e.name in written for e in entries):
                record = current
            if more:  # the rest of it is not read
                del entries[MAX_ENTRIES:]
                full.append(current)
            entries.sort(key=lambda e: e.name)
            for entry in entries:
                if skips_folder(entry.name, parent) or entry.name in written:
                    continue
                try:
                    is_dir = entry.is_dir(follow_symlinks=False)
                    if not is_dir and linked_entries and depth == 0 and entry.is_symlink():
                        linked = current / entry.name
                        if (linked / SKILL_FILE).is_file():
                            found.append((fs_bytes(entry.name), linked))
                    below = (current / entry.name, f"{rel}{entry.name}/", depth + 1)
                    if is_dir:
                        pending.append((*below, entry.stat(follow_symlinks=False)))
                except OSError:
                    continue
    found.sort(key=lambda item: item[0])
    folders = SkillFolders(path for _, path in found)
    folders.cut_short = bound
    folders.crowded = tuple(full)
    folders.package_output = record
    return folders


def build_walk(folder: Path) -> SkillFolders:
    """:func:`find_skill_folders` of ``folder`` as ``build`` walks it: leaving out what ``skc
    package`` wrote (its copies are not built; lint's walk keeps them)."""
    return find_skill_folders(folder, package_records=True)


#: Each command's build walks (:func:`walked`), by its session: a folder of up to
#: :data:`MAX_FOLDERS` folders is walked once, not for the progress bar's choice,
#: ``build.jobs.is_batch`` and ``build.jobs.batch_jobs`` each.
_WALKS: WeakKeyDictionary[Session, dict[Path, SkillFolders]] = WeakKeyDictionary()


def walked(session: Session) -> Callable[[Path], SkillFolders]:
    """:func:`build_walk` of a folder, walked once for the command ``session`` runs (its
    next command walks again: the folder may have changed)."""
    walks = _WALKS.setdefault(session, {})

    def walk(folder: Path) -> SkillFolders:
        if folder not in walks:
            walks[folder] = build_walk(folder)
        return walks[folder]

    return walk
