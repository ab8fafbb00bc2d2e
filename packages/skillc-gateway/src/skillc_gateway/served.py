"""The installed skills as the MCP Skills extension serves them (SEP-2640,
``io.modelcontextprotocol/skills``): each skill's entry (its frontmatter as JSON, every file
with its ``sha256:`` digest and size), its files' bytes, its directories' children.

The skills are the inventory's (:func:`skillc_index.inventory.entries.installed_skills`), at
the paths :mod:`skillc_index.inventory.uris` gives them, and the skills nested in them. The
files of a skill are :func:`skillc_index.walk_skill`'s, the files every command reads: hidden
names (``.git/``, ``.env``) are not served (as ``skc open`` does not serve them), nor a symlink
leading out of the skill, nor anything that is not a regular file; a read opens the file by
:func:`skillc_index.open_in_root` (no ``..``, no symlink out, checked as it opens) and only
when the skill's entry lists it.

A skill is served when it conforms to the Agent Skills specification, as the extension
requires (and as hosts check: FastMCP's client refuses a whole listing for one bad entry):
its ``SKILL.md`` frontmatter is a mapping that JSON can carry as it is (string keys, finite
numbers), its ``name`` passes the name rule and is the last segment of its path (its folder's
name), its ``description`` is 1 to 1,024 characters, the optional standard fields have their
standard types (:func:`.served_entry.frontmatter_problem`); and it is within the extension's
limits (:data:`~.served_entry.MAX_FILES` files, :data:`~.served_entry.MAX_BYTES` bytes), each
of its files named by a URI a read takes (:func:`skillc_index.inventory.uris.parse_uri`: no
backslash in a name, at most :data:`~skillc_index.inventory.uris.MAX_URI_CHARS` characters).
Any other skill is left out, with the reason (:attr:`.served_entry.Snapshot.refused`); the
section tools still read it by name.

:class:`ServedSkills` keeps what it read: each file's digest by its stat stamp (the files of
each skill's last look only), each skill's entry until something under the skill's folders
changes. With a watcher
(:mod:`skillc_gateway.catalog.watch`, Linux inotify) it knows what changed without looking:
a listing costs the JSON of the entries; without one, each listing from its first page looks
at every skill built so far again (file stats; a file is hashed again only when its stamp
changed). A skill's entry is built when asked for (:meth:`ServedSkills.page` builds its
page's skills, :meth:`ServedSkills.locate` its URI's), not before: the inventory (names and
paths) is what a first page lists of every skill. It
watches the inventory's folders, each skill's folders (for a skill whose entry is a symlink,
the folders above its target and the symlinks on the way to it too, as the find catalog
does: ``mv repo repo-old`` and a new clone, ``ln -sfn v2 links/current``; a skill whose
entry leads elsewhere then has the inventory listed again; a skill's folder gone, for its
return; the folder a file's symlink leads to that no walk enters, ``node_modules/``), each
inventory folder's name in its folder (a symlink re-pointed: each listing compares their
stamps too, one stat each, as the find catalog does), the target of each inventory folder's
symlink that led nowhere (and each listing stats the link), the inventory folders'
subfolders that are no skill yet (a skill installed folder first, its SKILL.md after), and
the configuration files (the global and the project's ``config.toml``, and the project's
``pyproject.toml``: a ``[targets]`` folder added is an inventory folder; Claude Code's
settings files, the managed one too, there or not, and Codex's ``config.toml``: a plugin
turned off is not served; the manifest of each plugin turned on, Claude Code's and
Codex's: one made invalid is not served), each by its name in its folder, and Codex's
plugin cache and the folder of each plugin turned on there (a version installed).
"""

# Paths are str here, not pathlib: this runs over every file of every installed skill.
# ruff: noqa: PTH116

from __future__ import annotations

import os
import time
from collections.abc import Callable, Iterable
from pathlib import Path
from typing import TYPE_CHECKING, Any

from skillc_gateway.served_entry import (
    MAX_BYTES,
    MAX_FILES,
    Entry,
    ServedFile,
    Snapshot,
    frontmatter_problem,
    open_served,
    read_frontmatter,
)
from skillc_index import SKILL_FILE
from skillc_index.record import Record

if TYPE_CHECKING:
    from skillc_gateway.catalog.watch import Watcher
    from skillc_index import Layout
    from skillc_index.inventory.entries import InstalledSkill, Listing
    from skillc_index.inventory.folders import Root

__all__ = ["MAX_AFTER_CHARS", "MAX_LINKED_STATS", "MAX_UNSKILLED", "ServedSkills"]

#: The longest ``after`` :meth:`ServedSkills.page` takes (no skill path is longer, and no
#: MCP cursor, of at most 16,384 base64 characters, decodes to a longer one).
MAX_AFTER_CHARS = 16_384

#: Folders of one inventory root that hold no skill, watched at most (:class:`ServedSkills`).
MAX_UNSKILLED = 256
#: Files of more than one name (hard links) statted by a look for changes, at most (whole
#: skills, in turn): a write through another name is no event of a watched folder.
MAX_LINKED_STATS = 1000
Stamp = tuple[int, int, int, int]
_Cache = tuple[
    dict[str, tuple[Stamp, str]], dict[str, tuple[Stamp, str]], dict[str, "Stamp | None"]
]
"""A look's file digests by path: those known from the skill's last look, and its own; and
the stamp of each file it found with more than one name (a hard link: None when it changed
within its file system's timestamp granularity, :func:`skillc_index.file_times.settled`)."""


def _stamp(st: os.stat_result) -> Stamp:
    return (st.st_size, st.st_mtime_ns, st.st_ino, st.st_ctime_ns)


def _digest(full: str, digests: _Cache, *, want: bool) -> tuple[str, int, bytes | None]:
    """``sha256:<hex>``, size, and (``want``) the bytes of a regular file. ``digests``: the
    skill's digests by stamp known from its last look, and this look's, which it adds to
    (not a file changed within its file system's timestamp granularity: it may change again
    with the same stamp, :func:`~skillc_index.file_times.settled`), and the stamps of hard
    links."""
    from skillc_index.digests import sha256_hasher
    from skillc_index.file_times import settled
    from skillc_index.files import open_regular

    known, kept, linked = digests
    st = os.stat(full)
    if st.st_nlink > 1:  # written through another name: no event of the skill's folders
        old = settled(st.st_mtime_ns, st.st_ctime_ns, time.time_ns())
        linked[full] = _stamp(st) if old else None
    found = kept.get(full) or known.get(full)
    if found is not None and found[0] == _stamp(st):
        kept[full] = found
        if not want:
            return found[1], st.st_size, None
    with open_regular(full) as handle:
        st = os.fstat(handle.fileno())
        data = handle.read(MAX_BYTES + 1)
    digest = "sha256:" + sha256_hasher()(data).hexdigest()
    if settled(st.st_mtime_ns, st.st_ctime_ns, time.time_ns()) and len(data) == st.st_size:
        kept[full] = (_stamp(st), digest)
    return digest, len(data), data if want else None


def _restamped(full: str, stamp: Stamp | None) -> bool:
    """Whether the file ``full`` is not the one ``stamp`` was taken of (None: unknown)."""
    try:
        return stamp is None or _stamp(os.stat(full)) != stamp
    except OSError:
        return True


class _Built(Record):
    """What one look at a top-level skill gave: its entries (its own and nested ones),
    refusals, and the folders to watch."""

    entries: tuple[Entry, ...]
    refused: tuple[tuple[str, str], ...]
    folders: tuple[str, ...]


_NONE = _Built((), (), ())


class ServedSkills:
    """The served skills of the inventory, kept current (see the module). ``layout`` gives
    the layout to serve (read again on every listing: the working directory's project and
    configuration). Not thread-safe: one caller at a time."""

    def __init__(self, layout: Callable[[], Layout], *, watch: bool = True) -> None:
        self._layout = layout
        self._digests: dict[str, dict[str, tuple[Stamp, str]]] = {}
        """Top-level skill path -> its files' digests (full path -> stamp, digest): those of
        its last look, replaced at each look, dropped with the skill (files that came and
        went are not kept)."""
        self._built: dict[str, _Built] = {}  # top-level skill path -> its look
        self._sources: dict[str, str] = {}  # top-level skill path -> its folder
        self._owner: dict[str, str] = {}  # watched folder -> top-level skill path
        self._roots: tuple[str, ...] = ()
        self._stamps: tuple[tuple[str, ...], tuple[int, ...]] = ((), ())
        """The inventory's folders and their stamps before they were listed
        (:func:`~skillc_gateway.catalog.tree_state.root_stamps`, as the find catalog keeps them)."""
        self._unskilled: set[str] = set()
        """The roots' folders that hold no SKILL.md (yet): watched, so that one written into
        them (a skill installed folder first, its files after) has the inventory looked at
        again."""
        self._dangling: tuple[str, ...] = ()
        """The roots' entries that were symlinks leading nowhere at the last listing: each
        listing stats them, and their targets are watched for (a target back at its path
        is no event of a watched folder), as the find catalog does."""
        self._paths: dict[str, InstalledSkill] | None = None
        self._order: list[str] = []  # the inventory's skill paths, sorted
        self._lengths: list[int] = []  # the lengths those paths have, each once
        self._linked: dict[str, dict[str, Stamp | None]] = {}
        """Top-level skill path -> its files of more than one name (hard links) and their
        stamps: statted by the looks for changes, :data:`MAX_LINKED_STATS` a look (a write
        through another name is no event of the skill's folders)."""
        self._linked_next = 0  # the skill of self._linked the next look stats first
        self._unheard: set[str] = set()
        """Top-level skills a read found a file of changed in, unseen by the watcher (a hard
        link written through its other name, a network file system): looked at again."""
        self._snapshot: Snapshot | None = None
        self._watcher: Watcher | None = None
        if watch:
            from skillc_gateway.catalog.watch import open_watcher

            self._watcher = open_watcher()

    def close(self) -> None:
        if self._watcher is not None:
            self._watcher.close()
            self._watcher = None

    @property
    def last(self) -> Snapshot | None:
        """The snapshot the last answer was made from (None before any): what a client was
        shown, to tell later whether it changed."""
        return self._snapshot

    def watch_fd(self) -> int | None:
        """A descriptor that becomes readable when something watched may have changed (the
        watcher's; None without one). Nothing is read from it here: :meth:`snapshot`, in the
        caller's thread, tells what changed."""
        return None if self._watcher is None else self._watcher.fileno()

    # -- keeping current ---------------------------------------------------------------------

    def snapshot(self, *, fresh: bool = True, complete: bool = True) -> Snapshot:
        """The served skills now. ``fresh=False`` (a listing's later pages) takes the last
        snapshot when there is one and no watcher says more. ``complete=False``: the entries
        of the skills built so far (:attr:`Snapshot.pending`: the others), the skills a
        change was seen in looked at again; the others are built when asked for
        (:meth:`page`, :meth:`locate`), not before: a first listing of 20,000 skills hashed
        every file of every one before its first page."""
        if not fresh and self._snapshot is not None and self._watcher is None:
            return self._ensure(self._pending() if complete else ())
        changed = self._changes()
        if changed is not None and not changed and self._snapshot is not None:
            return self._ensure(self._pending() if complete else ())
        self._update(changed)
        return self._ensure(self._pending() if complete else (), again=True)

    def _pending(self) -> list[str]:
        """The inventory's skills not built yet, in skill-path order."""
        return [path for path in self._order if path not in self._built]

    def _ensure(self, paths: Iterable[str], *, again: bool = False) -> Snapshot:
        """The snapshot, with the skills ``paths`` of the inventory built (those not yet);
        made anew when one was (or ``again``)."""
        assert self._paths is not None
        for path in paths:
            skill = self._paths.get(path)
            if skill is not None and path not in self._built:
                self._look(path, skill)
                again = True
        if again or self._snapshot is None:
            entries: dict[str, Entry] = {}
            refused: dict[str, str] = {}
            for path in self._paths:  # inventory order: the first of one path wins
                built = self._built.get(path)
                for entry in () if built is None else built.entries:
                    entries.setdefault(entry.path, entry)
                refused.update(() if built is None else built.refused)
            pending = frozenset(self._paths.keys() - self._built.keys())
            self._snapshot = Snapshot(dict(sorted(entries.items())), refused, pending)
        return self._snapshot

    def _changes(self) -> set[str] | None:
        """The top-level skill paths to look at again (``{""}``: the inventory itself), or
        None: everything."""
        stale, self._unheard = self._unheard, set()
        if self._watcher is None or self._paths is None:
            return None
        found = self._watcher.changed()
        if found is None or self._watcher.broken or self._watcher.exhausted:
            self._watcher.reset()
            return None
        self._relinked(stale)
        roots = set(self._roots)
        for folder in found.folders:
            if folder in roots or folder in self._unskilled:
                stale.add("")  # an entry came, went or changed: the inventory again
            owner = self._owner.get(folder)
            if owner is not None:
                stale.add(owner)
        for moved in found.moved:  # whatever is at that path now, and under it
            parent = moved.rpartition("/")[0]
            if parent in roots or moved in roots:
                stale.add("")
            owner = self._owner.get(moved) or self._owner.get(parent)
            if owner is not None:
                stale.add(owner)
        if "" not in stale:
            from skillc_gateway.catalog.tree_state import resolved, root_stamps

            # one stat a folder: one that is another folder now (a symlink to it, or above
            # it, re-pointed) is no event of its watch
            if root_stamps(self._stamps[0]) != self._stamps[1] or resolved(self._dangling):
                stale.add("")
        return stale

    def _relinked(self, stale: set[str]) -> None:
        """Add to ``stale`` the skills a file of more than one name (a hard link) changed in:
        one stat each, of :data:`MAX_LINKED_STATS` files at most (whole skills, taken in
        turn from where the last look stopped: a look with more sees the rest later)."""
        tops = [top for top, files in self._linked.items() if files]
        statted = 0
        for step in range(len(tops)):
            top = tops[(self._linked_next + step) % len(tops)]
            files = self._linked[top]
            if top not in stale and any(_restamped(f, stamp) for f, stamp in files.items()):
                stale.add(top)
            statted += len(files)
            if statted >= MAX_LINKED_STATS:
                self._linked_next = (self._linked_next + step + 1) % len(tops)
                return

    def _update(self, changed: set[str] | None) -> None:
        """Look again at the inventory (when ``changed`` is None or holds ``""``) and at the
        skills built so far in ``changed`` (all when None), dropping what is gone; a skill
        new to the inventory since the last look is pending (:attr:`Snapshot.pending`: a
        change of the list, built when asked for, :meth:`_ensure`, as the others: a
        ``[targets]`` folder or a plugin of thousands of skills built at once held every
        answer)."""
        if changed is None or "" in changed or self._paths is None or self._led_away(changed):
            self._paths = self._inventory()
            self._order = sorted(self._paths)  # the order pages take, built as they ask
            self._lengths = sorted({len(path) for path in self._order})
        paths = self._paths
        again = {path for path in self._built if changed is None or path in changed}
        for path in list(self._built):
            skill = paths.get(path)
            if skill is None or str(skill.source) != self._sources.get(path):
                again.add(path)
                self._forget(path)
        for path in again:
            self._forget(path)
            if path in paths:
                self._look(path, paths[path])
        for gone in self._digests.keys() - paths.keys():
            del self._digests[gone]
        for gone in self._linked.keys() - self._built.keys():
            del self._linked[gone]

    def _led_away(self, changed: set[str]) -> bool:
        """Whether an entry of a skill in ``changed`` leads to another folder than when the
        inventory was listed (a symlink on the way re-pointed, ``links/current``: the skill
        is another folder, which only the inventory tells). One realpath an entry that is a
        symlink (the skills something changed in only)."""
        assert self._paths is not None
        for path in changed:
            skill = self._paths.get(path)
            for location in () if skill is None else skill.locations:
                if location.path != location.real and os.path.realpath(location.path) != str(
                    location.real
                ):
                    return True
        return False

    def _forget(self, path: str) -> None:
        built = self._built.pop(path, None)
        source = self._sources.pop(path, None)
        for folder in (*(() if built is None else built.folders), source):
            if folder is not None and self._owner.get(folder) == path:
                del self._owner[folder]

    def _inventory(self) -> dict[str, InstalledSkill]:
        from skillc_gateway.catalog.tree_state import root_stamps
        from skillc_index.config import PYPROJECT, load_config
        from skillc_index.inventory.entries import installed_skills
        from skillc_index.inventory.folders import claude_home, search_roots, trusted_targets
        from skillc_index.inventory.plugins import plugin_config_files, plugin_watched
        from skillc_index.inventory.uris import skill_paths

        layout = self._layout()
        top = layout.project_root
        pyproject = None if top is None else top / PYPROJECT  # [tool.skillc.targets]
        configs = tuple(
            str(c) for c in (layout.global_config, layout.project_config, pyproject) if c
        )
        configs += tuple(str(path) for path in plugin_config_files(layout))  # plugins off
        if self._watcher is not None:  # before they are read: a write meanwhile is an event
            for config in configs:  # their [targets] are inventory folders
                self._watcher.watch_file(config)
        folders = search_roots(layout, trusted_targets(layout, load_config(layout)))
        # each plugin's manifest (made invalid: the plugin is left out), Codex's plugin
        # folders (a version installed); read just above: a plugin listed before has them
        # watched already
        manifests, places = plugin_watched(layout, folders)
        if self._watcher is not None:
            for manifest in manifests:
                self._watcher.watch_file(str(manifest))
            for place in places:  # there or not
                self._watcher.watch(str(place))
                self._watcher.watch_missing(str(place))
        configs += tuple(str(path) for path in (*manifests, *places))
        roots = tuple(str(root.path) for root in folders)
        self._stamps = (roots, root_stamps(roots))  # before they are listed
        inventory = installed_skills(layout, roots=folders)
        self._roots = configs + roots  # an event of any: the inventory again
        self._dangling = tuple(
            str(skipped.path)
            for _, listing in inventory.folders
            for skipped in listing.skipped
            if skipped.path.is_symlink() and not skipped.path.exists()
        )
        if self._watcher is not None:
            for root in roots:  # and its name in its folder: made, or re-pointed (ln -sfn)
                self._watcher.watch(root)
                self._watcher.watch_missing(root)
            records = str(claude_home(layout) / "plugins")
            if self._watcher.watch(records):
                self._roots += (records,)
            if layout.project_root is None:  # a project made here later (`skc init`): its store
                store = str(layout.new_project_store)
                self._watcher.watch_missing(store)
                self._roots += (store,)
            self._watch_unskilled(self._watcher, inventory.folders)
            for link in self._dangling:  # its target made (however many levels are missing)
                target = os.path.realpath(link)
                self._watcher.watch_missing(target)
                self._roots += (target,)
        return skill_paths(inventory)

    def _watch_unskilled(self, watcher: Watcher, folders: Iterable[tuple[Root, Listing]]) -> None:
        """Watch the folders of each root that are no skill (:attr:`Listing.others`: no
        SKILL.md when it was listed), at most :data:`MAX_UNSKILLED` a root: a tool that
        installs a skill makes its folder, then writes its files, and a look between the two
        saw no skill there; the file's event, in a folder nothing watched, was lost, and the
        skill not served until something else changed in the root."""
        self._unskilled = set()
        for _, listing in folders:
            for path in listing.others[:MAX_UNSKILLED]:
                folder = str(path)
                if watcher.watch(folder):
                    self._unskilled.add(folder)

    def _look(self, path: str, skill: InstalledSkill) -> None:
        folder = str(skill.source)
        built = self._build(path, folder)
        self._built[path] = built
        self._sources[path] = folder
        for watched in built.folders:
            self._owner.setdefault(watched, path)
        if self._watcher is None:
            return
        if not built.folders:  # its folder went (a folder above it moved): watched for its return
            self._owner.setdefault(folder, path)
            self._watcher.watch_missing(folder)
            return
        self._watcher.watch(built.folders[0], *self._around(folder, skill))
        for watched in built.folders[1:]:
            self._watcher.watch(watched)

    def _around(self, folder: str, skill: InstalledSkill) -> tuple[list[str], list[str]]:
        """For a skill whose entry is a symlink (to a clone elsewhere), the folders above its
        folder and the symlinks on the way to it, as the find catalog watches them
        (:func:`~skillc_gateway.catalog.tree_state.followed`): one renamed or deleted (``mv
        repo repo-old``, a re-clone) or re-pointed (``ln -sfn v2 links/current``) is no event
        of the folder's own watch, which follows its inode. Every entry's: a skill reached
        from two agent folders by two chains is another folder when either is re-pointed."""
        above: list[str] = []
        links: list[str] = []
        for location in skill.locations:
            entry = location.path
            if folder.rpartition("/")[0] == str(entry.parent):  # most skills: no symlink
                continue
            from skillc_gateway.catalog.tree_state import followed

            more, chain = followed(os.path.realpath(entry.parent), entry.name, folder)
            above += [path for path in more if path not in above]
            links += [path for path in chain if path not in links]
        return above, links

    # -- building entries ----------------------------------------------------------------------

    def _build(self, path: str, folder: str) -> _Built:
        from skillc_index import walk_skill

        folders: list[str] = []
        dirs: list[str] = []
        beyond: list[str] = []  # the folders of files its symlinks lead to, not walked
        files = walk_skill(Path(folder), folders, dirs=dirs, link_folders=beyond).files
        folders += beyond[:MAX_FILES]  # watched too: at most one a file served
        known = self._digests.get(path, {})
        kept: dict[str, tuple[Stamp, str]] = {}
        self._digests[path] = kept  # this look's files only (the known ones reused)
        linked: dict[str, Stamp | None] = {}
        self._linked[path] = linked
        name = path.rpartition("/")[2]
        if SKILL_FILE not in files:
            return _Built((), ((path, "no SKILL.md"),), tuple(folders))
        entries: list[Entry] = []
        refused: list[tuple[str, str]] = []
        top = self._entry(path, folder, "", files, dirs, name, (known, kept, linked))
        if isinstance(top, str):
            refused.append((path, top))
        else:
            entries.append(top)
        suffix = f"/{SKILL_FILE}"
        for relative in files:  # nested skills: a folder of the skill with its own SKILL.md
            if not relative.endswith(suffix):
                continue
            base = relative[: -len(suffix)]
            nested = self._entry(
                f"{path}/{base}",
                folder,
                base,
                files,
                dirs,
                base.rpartition("/")[2],
                (known, kept, linked),
            )
            if isinstance(nested, str):
                refused.append((f"{path}/{base}", nested))
            else:
                entries.append(nested)
        return _Built(tuple(entries), tuple(refused), tuple(folders))

    def _entry(
        self,
        path: str,
        folder: str,
        base: str,
        files: Iterable[str],
        dirs: Iterable[str],
        name: str,
        digests: _Cache,
    ) -> Entry | str:
        """The entry of the skill at ``base`` in ``folder`` (the top-level skill's folder),
        or why it is not served; ``files`` and ``dirs``: the top-level skill's
        (:func:`~skillc_index.walk_skill`); ``digests``: :meth:`_digest`'s."""
        from skillc_index import fs_bytes
        from skillc_index.inventory.uris import MAX_URI_CHARS, file_uri, parse_uri
        from skillc_index.layout import in_tests, shown

        prefix = f"{base}/" if base else ""
        # the walk leaves the tests out (evals/ at the top skill's root; a nested one's is files)
        mine = [f[len(prefix) :] for f in files if f.startswith(prefix)]
        if len(mine) > MAX_FILES:
            return f"{len(mine)} files (at most {MAX_FILES})"
        folders = [d[len(prefix) :] for d in dirs if d.startswith(prefix) and not in_tests(d, True)]
        if len(folders) > MAX_FILES:
            return f"{len(folders)} folders (at most {MAX_FILES})"
        # a folder no URI names (a backslash) holds no file (the skill would be refused)
        folders = sorted((d for d in folders if parse_uri(file_uri(path, d))), key=fs_bytes)
        for relative in mine:  # a file listed must be one a read of its URI serves
            if parse_uri(file_uri(path, relative)) is None:
                return (
                    f"a file no skill:// URI names (a backslash in its name, or a URI of more"
                    f" than {MAX_URI_CHARS} characters): '{shown(relative)}'"
                )
        root = f"{folder}/{base}" if base else folder
        served: list[ServedFile] = []
        total = 0
        front: dict[str, Any] | str = "no SKILL.md"
        for relative in mine:
            full = f"{root}/{relative}"
            try:
                digest, size, data = _digest(full, digests, want=relative == SKILL_FILE)
            except OSError:
                continue  # gone or unreadable since the walk: not served
            total += size
            if total > MAX_BYTES:
                return f"more than {MAX_BYTES} bytes of files"
            if data is not None:
                front = read_frontmatter(data)
            served.append(ServedFile(relative, size, digest))
        if isinstance(front, str):
            return front
        problem = frontmatter_problem(front, name)
        if problem:
            return problem
        return Entry(path, root, front, tuple(served), tuple(folders))

    # -- answering -----------------------------------------------------------------------------

    def page(self, after: str | None, limit: int) -> tuple[list[Entry], str | None]:
        """At most ``limit`` entries whose skill path sorts after ``after`` (None: from the
        first), and the path to go on after (None: that was the last). Only the skills that
        may hold them are built (:meth:`snapshot`): a skill's entries (its own and nested
        ones) sort from its own path on, so once ``limit + 1`` entries are found the skills
        after the last of them are left for later pages. E100 (InvalidOption) for an
        ``after`` that is no ``str`` of at most :data:`MAX_AFTER_CHARS` characters (or None)
        and a ``limit`` that is no integer from 1 to :data:`~skillc_index.arguments.MAX_COUNT`,
        before any work (a bare ``IndexError`` or ``TypeError`` before)."""
        import bisect

        from skillc_index.arguments import checked

        if after is not None:  # checked, kept as given (a cursor's surrogate escapes)
            checked("after", after, {"type": "string", "maxLength": MAX_AFTER_CHARS})
        limit = checked("limit", limit, {"type": "integer", "minimum": 1})
        snapshot = self.snapshot(fresh=after is None, complete=False)
        first = 0 if after is None else bisect.bisect_right(self._order, after)
        # a skill before ``after`` whose nested skills may sort after it: a prefix of it, of
        # a length some skill path has (every prefix of the longest ``after``: 134M characters)
        todo = [after[:n] for n in self._lengths if n <= len(after)] if after is not None else []
        while True:
            keys = list(snapshot.entries)
            start = 0 if after is None else bisect.bisect_right(keys, after)
            chosen = keys[start : start + limit + 1]
            bound = chosen[limit] if len(chosen) > limit else None
            for path in self._order[first:]:
                if len(todo) > limit or (bound is not None and path > bound):
                    break
                if path not in self._built:
                    todo.append(path)
            if not todo:
                break
            snapshot = self._ensure(todo)
            todo = []
        more = len(chosen) > limit
        chosen = chosen[:limit]
        return [snapshot.entries[k] for k in chosen], (chosen[-1] if more and chosen else None)

    def entry(self, uri: str) -> Entry | None:
        """The entry of the skill whose ``SKILL.md`` is ``uri``."""
        from skillc_index.inventory.uris import parse_uri

        segments = parse_uri(uri)
        if segments is None or len(segments) < 2 or segments[-1] != SKILL_FILE:
            return None
        return self._around_path(segments[:-1]).entries.get("/".join(segments[:-1]))

    def _around_path(self, segments: Iterable[str], *, fresh: bool = True) -> Snapshot:
        """The snapshot, with the skills that may hold the skill path ``segments`` built
        (those whose path is one of its first segments)."""
        parts = list(segments)
        self.snapshot(fresh=fresh, complete=False)
        return self._ensure("/".join(parts[:n]) for n in range(1, len(parts) + 1))

    def locate(self, uri: str) -> tuple[Entry, str] | None:
        """The served skill a file or directory URI is in, and the path in it (empty: its
        root): the deepest skill (a nested skill's file is its own)."""
        from skillc_index.inventory.uris import parse_uri

        segments = parse_uri(uri)
        if segments is None:
            return None
        entries = self._around_path(segments).entries
        for length in range(len(segments), 0, -1):
            entry = entries.get("/".join(segments[:length]))
            if entry is not None:
                return entry, "/".join(segments[length:])
        return None

    def refusal(self, uri: str) -> str | None:
        """Why the skill ``uri`` is in (its ``SKILL.md``, a file or a directory of it) is
        left out (:attr:`Snapshot.refused`: ``600 files (at most 512)``, a frontmatter
        problem); None when no skill is left out there, or a served one is deeper."""
        from skillc_index.inventory.uris import parse_uri

        segments = parse_uri(uri) or ()
        snapshot = self._around_path(segments, fresh=False)  # the read that found nothing's
        for length in range(len(segments), 0, -1):
            path = "/".join(segments[:length])
            if path in snapshot.entries:
                return None
            if path in snapshot.refused:
                return snapshot.refused[path]
        return None

    def read(self, uri: str) -> tuple[Entry, ServedFile, bytes] | None:
        """The bytes of the file ``uri`` names, when a served skill lists it (None
        otherwise), as its top-level skill's file (:func:`~.served_entry.open_served`)."""
        found = self.locate(uri)
        if found is None or not found[1]:
            return None
        entry, relative = found
        served = entry.file(relative)
        if served is None:
            return None
        with open_served(entry, relative, self._built) as handle:
            data = handle.read(MAX_BYTES + 1)
            st = os.fstat(handle.fileno())
        self._check(entry, served, f"{entry.folder}/{relative}", st, data)
        return entry, served, data

    def _check(
        self, entry: Entry, served: ServedFile, full: str, st: os.stat_result, data: bytes
    ) -> None:
        """Have the skill of ``entry`` looked at again when the bytes read of its file
        ``served`` (at ``full``, ``st`` its stat) are not those it lists: a change no watch
        saw (a hard link written through another name, a network file system's). A hash
        only for a file whose stamp is not the one it was hashed at."""
        parts = entry.path.split("/")
        tops = ("/".join(parts[:length]) for length in range(1, len(parts) + 1))
        top = next((key for key in tops if entry in self._built.get(key, _NONE).entries), None)
        known = self._digests.get(top or "", {}).get(full)
        if top is None or known == (_stamp(st), served.digest):
            return
        from skillc_index.digests import sha256_hasher

        if "sha256:" + sha256_hasher()(data).hexdigest() != served.digest:
            self._unheard.add(top)

    def directory(self, uri: str) -> list[dict[str, Any]] | None:
        """The direct children of a directory of a served skill (its root or one of its
        folders, an empty one too), as resources in bytewise order (:meth:`Entry.children`);
        None when ``uri`` names no such directory."""
        found = self.locate(uri)
        return None if found is None else found[0].children(found[1])
