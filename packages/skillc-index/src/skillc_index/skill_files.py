"""The files of a skill (RFC-0001:C-MANIFEST): its own folder walked by the rule every walk
enters folders by (:mod:`skillc_index.walk`).

:func:`walk_skill` is the one definition of "the files of a skill", which every consumer (build,
the source hash, the index, ``sources``/``open``, ``package``, lint, ``list --check-obsolete``)
uses, so they all agree on what counts: no hidden name, no folder a walk leaves out
(:data:`~skillc_index.walk.SKIPPED_FOLDERS`), none of the leftovers editors, operating systems
and merges leave beside the files (:func:`is_leftover`), nothing its ``.gitignore`` files
exclude, no symlink out of the root; the skill's tests (``evals/``) apart. Of a skill holding
more Markdown and text files than the index does (:data:`MAX_INDEXED_FILES`), a reader reads
the first (:func:`first_files`) and says so (:func:`past_file_bound`, :func:`past_byte_bound`);
a folder it may not read is skipped and said (:func:`skipped_notices`).
"""

from __future__ import annotations

import errno
import os
import stat
from typing import TYPE_CHECKING

from skillc_index.diagnostics import Notice
from skillc_index.files import _join, fs_bytes, in_tests_at, inside, is_hidden
from skillc_index.layout import SKILL_FILE
from skillc_index.record import Record
from skillc_index.walk import SKIPPED_FOLDERS, listed_as

if TYPE_CHECKING:
    from collections.abc import Iterable, Sequence
    from pathlib import Path

    from skillc_index.glob import IgnoreRules

__all__ = [
    "LEFTOVER_NAMES",
    "LEFTOVER_SUFFIXES",
    "MAX_INDEXED_FILES",
    "SkillFiles",
    "first_files",
    "in_skipped_folder",
    "is_leftover",
    "never_packaged",
    "past_byte_bound",
    "past_file_bound",
    "skipped_notices",
    "walk_skill",
]

#: The files editors, operating systems and merges leave beside a skill's files, never its
#: content: no walk of a skill (:func:`walk_skill`) lists them, so build's
#: source hash, the index, ``sources``/``open``, every package, the MCP listing and lint agree.
#: By suffix: Emacs' and many editors' backups (``name~``), Vim's swap files (``.swp``,
#: ``.swo``, ``.swx``; hidden ones are out already), JetBrains' safe-write files, a merge's or
#: ``patch``'s leftovers (``.orig``, ``.rej``). ``*.bak`` is not one: a skill may ship one.
LEFTOVER_SUFFIXES = (
    "~",
    ".swp",
    ".swo",
    ".swx",
    "___jb_tmp___",
    "___jb_old___",
    ".orig",
    ".rej",
)
#: By whole name (compared lowercased): Vim's write test (``4913``), Windows' thumbnail cache
#: and folder settings; macOS's ``.DS_Store`` and AppleDouble ``._*`` files are hidden, out
#: of every walk already. Emacs' auto-save files are ``#name#``; an atomic save's temporary
#: is ``<name>.tmp``, one only while ``<name>`` is beside it (:func:`is_leftover`).
LEFTOVER_NAMES = frozenset({"4913", "thumbs.db", "desktop.ini", ".ds_store"})


def is_leftover(name: str, folder: str | None = None) -> bool:
    """Whether the file ``name`` is an editor's, OS's or merge's leftover, no part of a skill
    (:data:`LEFTOVER_SUFFIXES`, :data:`LEFTOVER_NAMES`, ``#name#``, a hidden ``._name``; and
    ``<name>.tmp`` while ``folder``, the real path of the folder holding it, holds ``<name>``
    too: ``SKILL.md.tmp`` beside ``SKILL.md``). Cheap for the common name: one ``endswith``
    and a frozenset lookup; a stat only for a name ending ``.tmp``."""
    if name.endswith(LEFTOVER_SUFFIXES) or name.lower() in LEFTOVER_NAMES:
        return True
    if name[:1] == "#":
        return len(name) > 2 and name[-1] == "#"
    if name[:2] == "._":
        return True
    if folder is not None and len(name) > 4 and name[-4:].lower() == ".tmp":
        return os.path.lexists(os.path.join(folder, name[:-4]))  # noqa: PTH118
    return False


#: The most files of a skill whose text is read, the one bound of them all: the index holds at
#: most this many ``.md``/``.txt`` files (more: E002, ``skc build`` refuses the skill too,
#: :func:`~skillc_index.index.cache.refuse_too_large`), and of a skill with more of them lint
#: reads the first this many in path order (and every other file), ``outline`` (parsing the
#: sources of a skill that cannot be indexed) the first this many Markdown files
#: (:func:`first_files`, :func:`past_file_bound`): 100,000 small files took lint 30 s and
#: 360 MB, outline 15 s.
MAX_INDEXED_FILES = 10_000


class SkillFiles(Record):
    """What :func:`walk_skill` found under a skill root."""

    files: tuple[str, ...]
    """Relative POSIX paths of regular files (symlinks to files inside included), bytewise."""
    escapes: tuple[str, ...]
    """Relative paths of symlinks resolving outside the root (not in ``files``), bytewise."""
    skipped: tuple[str, ...] = ()
    """Relative paths of the folders the user may not list or search (mode 000, or 600),
    skipped with all they hold, sorted bytewise (:func:`skipped_notices` warns of them)."""
    ignored: tuple[str, ...] = ()
    """The files the skill's ``.gitignore`` files exclude (no part of it), sorted bytewise."""
    second_links: tuple[str, ...] = ()
    """The symlinks to a folder walked by another path (no part of the skill), bytewise."""
    tests: tuple[str, ...] = ()
    """The files of the skill's tests (``evals/`` at its root, or leading into it:
    :func:`~skillc_index.layout.in_tests`), not ``files``: what lint and ``skc eval`` read."""

    @property
    def every(self) -> tuple[str, ...]:
        """``files``, ``ignored`` and ``tests``, bytewise: the folder as an import copies it."""
        if not self.ignored and not self.tests:  # most skills: ``files``, not sorted again
            return self.files
        return tuple(sorted((*self.files, *self.ignored, *self.tests), key=fs_bytes))

    @property
    def linted(self) -> tuple[str, ...]:
        """``files`` and ``tests``, bytewise: what lint reads of the skill."""
        return tuple(sorted((*self.files, *self.tests), key=fs_bytes)) if self.tests else self.files


def in_skipped_folder(rel: str) -> bool:
    """Whether the folder ``rel`` (relative to a skill's root, POSIX, real) is one no walk
    enters (:data:`~skillc_index.walk.SKIPPED_FOLDERS`: ``venv``, ``node_modules``,
    ``__pycache__``...) or lies in one: what a symlink to a folder may not lead to
    (``deps -> node_modules``, ``cache -> scripts/__pycache__``), as no walk enters such a
    folder by its own name (:func:`walk_skill`)."""
    return any(part in SKIPPED_FOLDERS for part in rel.split("/"))


def never_packaged(rel: str, real_root: str) -> str:
    """Why every package (``skc package``) leaves out the path ``rel`` of the skill at
    ``real_root`` (relative, POSIX, normalized; a folder when it is one on disk), as a link to
    it says (``link target is never packaged: ... (hidden)``); ``""`` when nothing does
    (whether it is there is not asked). What no walk lists (:func:`walk_skill`: a hidden name,
    a folder of :data:`~skillc_index.walk.SKIPPED_FOLDERS`, an editor's leftover) and what
    :func:`~skillc_index.layout.not_packaged` leaves out (``evals/``, ``*.pyc``), of ``rel``
    or of where it leads (``notes.md -> .notes/x.md``, ``deps/x.js`` through ``deps ->
    node_modules``; a symlink to one file of a skipped folder is that file, as the walk takes
    it); and a path through a symlink to a folder of the skill, or that symlink (``mirror/x.md``
    through ``mirror -> refs``: the walk takes each folder once, by its own path, and lists
    such a symlink in :attr:`SkillFiles.second_links`). What the ``.gitignore`` files exclude
    is :class:`~skillc_index.glob.IgnoreRules`'s."""
    from skillc_index.files import real_path

    real = real_path(f"{real_root}/{rel}")
    folder = os.path.isdir(real)  # noqa: PTH112
    why = _left_out(rel, real_root, folder=folder, skipped=True, named=True)
    target = real[len(real_root) + 1 :] if inside(real, real_root) else ""
    if why or not target or target == rel:
        return why
    parent = rel.rpartition("/")[0]  # reached through a symlink to a folder: the walk's rule
    through = parent and real_path(f"{real_root}/{parent}") != f"{real_root}/{parent}"
    why = _left_out(target, real_root, folder=folder, skipped=folder or bool(through), named=False)
    if why:
        return f"leads to '{target}', {why}"
    link = _folder_link(rel if folder else parent, real_root)
    return link and f"reached through '{link}', a second link to a folder the skill has"


def _folder_link(rel: str, real_root: str) -> str:
    """The first part of the path ``rel`` (a folder's; ``rel`` itself the last) that is a
    symlink, when it leads to a folder of the skill at ``real_root``: the walk lists it in
    :attr:`SkillFiles.second_links`, not what it holds; ``""`` for none."""
    from skillc_index.files import real_path

    parts = rel.split("/") if rel else []
    for end in range(1, len(parts) + 1):
        path = f"{real_root}/{'/'.join(parts[:end])}"
        if os.path.islink(path):  # noqa: PTH114
            leads = real_path(path)
            linked = inside(leads, real_root) and os.path.isdir(leads)  # noqa: PTH112
            return "/".join(parts[:end]) if linked else ""
    return ""


def _left_out(rel: str, real_root: str, *, folder: bool, skipped: bool, named: bool) -> str:
    """:func:`never_packaged`'s answer for the path ``rel`` by its name: hidden, in a folder
    no walk enters (``skipped``: asked; the last part too for a ``folder``), the skill's
    tests, compiled Python, an editor's leftover (``named``: the name is the file's own, not
    a symlink's target's)."""
    from skillc_index.layout import in_tests, not_packaged

    if is_hidden(rel):
        return "hidden"
    parts = rel.split("/")
    if skipped:
        passed = parts if folder else parts[:-1]
        into = next((part for part in passed if part in SKIPPED_FOLDERS), None)
        if into is not None:
            where = "" if folder and into == parts[-1] == passed[0] else "in "
            return f"{where}{into}/, a folder skillc skips"
    if in_tests(rel, folder) or in_tests_at(rel, real_root):
        return "the skill's tests, evals/"
    if folder:
        return ""
    if not_packaged(rel):
        return "compiled Python"
    parent = os.path.dirname(f"{real_root}/{rel}")  # noqa: PTH120
    return "an editor's leftover" if named and is_leftover(parts[-1], parent) else ""


def walk_skill(
    root: Path,
    folders: list[str] | None = None,
    *,
    real_root: str | None = None,
    dirs: list[str] | None = None,
    every_folder: bool = False,
    rules: list[IgnoreRules] | None = None,
    link_folders: list[str] | None = None,
) -> SkillFiles:
    """The regular files under ``root``, skipping every name that starts with ``.``; those of
    the skill's tests (``evals/``, a symlink into it, ``EVALS/`` where case is ignored:
    :func:`~skillc_index.files.in_tests_at`) in ``tests``, not ``files``.

    Hidden files and folders (``.git``, ``.skillc-meta``, ``.github``...) are skipped at any
    depth, and so is a symlink that leads to one; so are the folders no walk enters
    (:data:`~skillc_index.walk.SKIPPED_FOLDERS`: ``venv``, ``node_modules``...), a symlink to
    such a folder or to one in it (``deps -> node_modules``: :func:`in_skipped_folder`; a
    symlink to one file in it is that file, ``notes.txt -> node_modules/x/notes.txt``), and
    the files editors, OSes and merges leave (:func:`is_leftover`). What the skill's
    ``.gitignore`` files exclude is no part of the skill: it is in ``ignored``, not ``files``
    (:func:`~skillc_index.glob.left_out`, the rules ``skc package`` reads; read only when the
    walk met a ``.gitignore``). A symlink whose target is inside the root counts as what it
    points to (a file, or a folder that is walked); one whose target is outside is reported in
    ``escapes`` and never followed (even when that target does not exist: it still points out of
    the skill), unless the ``.gitignore`` files exclude it (git commits it not, nor does ``skc
    package`` pack it); a broken one pointing inside is skipped. Each real folder is walked
    once: by its own path, else by the bytewise first symlink to it; other symlinks to it (a
    cycle, a second name) are skipped, so they cannot multiply the walk, and listed in
    ``second_links``. Sockets, FIFOs and devices are ignored. A folder the user may not list or
    search (mode 000, or 600: its files cannot be opened) is skipped and reported in ``skipped``
    (the root is not: its SKILL.md cannot be read). ``folders``, when given, gets the real path
    of each folder listed (the root first), ``link_folders`` of each folder not listed that a
    symlink of ``files`` leads into (``node_modules/``): what a watcher of the skill watches.
    ``dirs``, when given, gets the relative path of each folder listed but the root and those
    the ``.gitignore`` files exclude (one empty or holding hidden files only too: the skill's
    directories as it is served), in walk order. ``rules``, when given, gets the ``.gitignore``
    files' rules (:class:`~skillc_index.glob.IgnoreRules`; none when it met none, or past their
    bounds), which an import reads once. ``real_root``: the root's real path, when the caller
    has it. ``every_folder``: the folders of ``SKIPPED_FOLDERS`` are walked too (not the hidden
    ones), as skillc 0.1 walked a skill: the files an import of 0.1 copied, which its record's
    source hash covers (:func:`~skillc_index.build.store.plan_import`)."""
    from heapq import heappop, heappush

    root_real = real_root or os.path.realpath(root)
    files: list[str] = []
    tests: list[str] = []  # evals/ at the root: the skill's tests, not the skill
    escapes: list[str] = []
    skipped: list[str] = []
    again: list[str] = []  # the symlinks to a folder entered by another path
    holders: list[str] = []  # the folders a .gitignore is in (rare)
    links: set[str] = set()  # the symlinks followed, when a .gitignore is
    stack: list[tuple[str, str, os.stat_result | None]] = [(root_real, "", None)]
    linked: list[tuple[bytes, str, str, os.stat_result]] = []  # folder symlinks, bytewise first
    entered: set[str] = set()  # the real folders walked
    targets: set[str] = set()  # the real folders of the files symlinks lead to
    while stack or linked:
        folder, prefix, seen = stack.pop() if stack else heappop(linked)[1:]
        if folder in entered:  # by another path
            again.append(prefix[:-1])
            continue
        entered.add(folder)
        try:
            entries = listed_as(folder, seen)
            # one the user may list but not search (mode 600) is skipped as one that cannot
            # be listed: its names are there, but none of its files can be opened or stat'ed
            if not os.access(folder, os.X_OK):
                entries.close()
                raise PermissionError(errno.EACCES, "Permission denied", folder)
        except OSError as exc:  # a vanished folder is no longer one of the skill's
            if isinstance(exc, PermissionError) and prefix:
                skipped.append(prefix[:-1])
            continue
        if folders is not None:
            folders.append(folder)
        if dirs is not None and prefix:
            dirs.append(prefix[:-1])
        here = folder[len(root_real) :].lstrip("/") + "/"  # where the folder really is
        testing = in_tests_at(prefix, root_real) or in_tests_at(here, root_real)
        with entries:
            for entry in entries:
                name = entry.name
                if name.startswith("."):
                    if name == ".gitignore":
                        holders.append(prefix)
                    continue
                rel = prefix + name
                try:
                    if name in SKIPPED_FOLDERS and not (every_folder or entry.is_file()):
                        continue
                    if not entry.is_symlink():
                        if entry.is_file(follow_symlinks=False) and not is_leftover(name, folder):
                            (tests if testing else files).append(rel)
                        elif entry.is_dir(follow_symlinks=False):
                            seen = entry.stat(follow_symlinks=False)
                            stack.append((_join(folder, name), rel + "/", seen))
                        continue
                    target = os.path.realpath(_join(folder, name))
                    if not inside(target, root_real):
                        escapes.append(rel)
                        continue
                    if is_hidden(target[len(root_real) :]):  # leads to a hidden file
                        continue
                    seen = entry.stat()  # follows the symlink, known to stay inside
                    if (  # deps -> node_modules: no walk enters it by another name either
                        stat.S_ISDIR(seen.st_mode)
                        and not every_folder
                        and in_skipped_folder(target[len(root_real) + 1 :])
                    ):
                        continue
                except OSError:  # broken symlink, symlink loop, vanished entry
                    continue
                links.add(rel)
                if stat.S_ISREG(seen.st_mode) and not is_leftover(name, folder):
                    into_tests = testing or in_tests_at(target[len(root_real) + 1 :], root_real)
                    (tests if into_tests else files).append(rel)
                    targets.add(target.rpartition(os.sep)[0])
                elif stat.S_ISDIR(seen.st_mode):  # one entered by another path: in ``again``
                    heappush(linked, (fs_bytes(rel), target, rel + "/", seen))
    if link_folders is not None:
        link_folders += sorted(targets - entered, key=fs_bytes)
    ignored: list[str] = []
    if holders:  # rare: the .gitignore files are read only then
        from skillc_index.glob import left_out

        held, files = set(tests), files + tests  # what the .gitignore files exclude: ignored
        ignored = left_out(root, root_real, (files, escapes, dirs), holders, links, rules)
        files, tests = [r for r in files if r not in held], [r for r in files if r in held]
    found = (files, escapes, skipped, ignored, again, tests)
    return SkillFiles(*(tuple(sorted(paths, key=fs_bytes)) for paths in found))


def skipped_notices(root: Path, skipped: Iterable[str], outcome: str) -> tuple[Notice, ...]:
    """The warning of each folder :func:`walk_skill` skipped (:attr:`SkillFiles.skipped`):
    ``<root>/<folder>: folder cannot be read (Permission denied): its files are not
    <outcome>`` (``linted``, ``built``)."""
    why = "folder cannot be read (Permission denied): its files are not"
    return tuple(Notice(f"{root / rel}: {why} {outcome}") for rel in skipped)


def first_files(files: Sequence[str]) -> tuple[str, ...]:
    """``files`` (bytewise path order, as :func:`walk_skill` lists them) with only the first
    :data:`MAX_INDEXED_FILES` of their Markdown and text files, the ones the index counts
    (:func:`~skillc_index.index.rows.is_indexed`: the parse-heavy part); every other file is
    kept (10,000 assets sorted before ``scripts/install.sh`` must not hide it from lint), and
    ``SKILL.md`` always when it is one (in its place: every other indexed file kept sorts
    before it); ``files`` all when there are no more."""
    if len(files) <= MAX_INDEXED_FILES:
        return tuple(files)
    from skillc_index.index.rows import is_indexed

    kept: list[str] = []
    counted = 0
    for rel in files:
        if not is_indexed(rel):
            kept.append(rel)
        elif counted < MAX_INDEXED_FILES or rel == SKILL_FILE:
            counted += 1
            kept.append(rel)
    if counted > MAX_INDEXED_FILES:  # SKILL.md past the bound: it takes the last one's place
        last = max(i for i, rel in enumerate(kept) if is_indexed(rel) and rel != SKILL_FILE)
        del kept[last]
    return tuple(kept)


def past_file_bound(folder: object, count: int, what: str, outcome: str) -> Notice:
    """The warning of a read of a skill (``folder``) holding ``count`` ``what`` (``Markdown
    and text files``, ``Markdown files``), more than :data:`MAX_INDEXED_FILES`, of which only
    the first were read (:func:`first_files`): ``<folder> holds 100,001 Markdown files, more
    than 10,000: only the first 10,000 in path order are <outcome>`` (``linted``,
    ``outlined``)."""
    bound = f"{MAX_INDEXED_FILES:,}"
    return Notice(
        f"{folder} holds {count:,} {what}, more than {bound}: "
        f"only the first {bound} in path order are {outcome}"
    )


def past_byte_bound(folder: object, read: int, count: int, what: str, outcome: str) -> Notice:
    """The warning of a read of a skill (``folder``) holding ``count`` ``what``, of which only
    the first ``read`` were read: their bytes reached the index's
    (:data:`~skillc_index.index.cache.MAX_INDEXED_BYTES`), as :func:`past_file_bound` says
    for their number: ``<folder> holds 40 Markdown files, more than 32 MiB: only the first
    33 in path order are <outcome>``."""
    from skillc_index.index.cache import MAX_INDEXED_BYTES

    return Notice(
        f"{folder} holds {count:,} {what}, more than {MAX_INDEXED_BYTES >> 20} MiB: "
        f"only the first {read:,} in path order are {outcome}"
    )
