"""The installed skills: every skill of the inventory's folders
(:mod:`~skillc_index.inventory.folders`), each once, with every place an agent finds it.

A skill of a folder is an entry of it (a folder, or a symlink to one) holding a regular
``SKILL.md`` (a symlinked ``SKILL.md`` is not read, as ``skc find`` does not), that is not left
out by the walk rules (:func:`skillc_index.skips_folder`: version control, skillc's temporary
names...) nor the router of ``skc route`` (:data:`~.deployed.ROUTER_MARK`). Each such entry
is a :class:`Location`. An entry skillc deployed (a link to a runtime, a ``--copy`` holding
``.skillc-meta/``) stands for its store skill (``source``); a deployment whose store skill
is gone, or a copy whose manifest cannot be read, is no skill (:class:`Skipped`); nor is a
link whose target is gone (:func:`gone_link`: a skill removed from the store it was linked
from, ``npx skills remove``, a deleted checkout), which the listing says too.

One skill is one source: the locations whose real path, or whose deployed source, is the same
folder are one :class:`InstalledSkill` (a store skill and its deployments, a folder linked
into several agent folders); so is a folder imported into a store (``skc build <folder>``)
with its store copy, whose import record names it (DECISIONS). Two other copies of a skill
are two skills, as two different skills of one name are. :func:`installed_skills` gives the
set every command counts (``list``, ``stats --all``, the MCP server's ``skills/list``;
``find`` walks the same folders by the same rules); :func:`location_of` looks at one name in
one folder (resolution). Nothing here reads a SKILL.md: it costs file stats (and the import
record of a store skill named as another installed folder).
"""

# Paths are str here, not pathlib: this runs over every entry of every skills folder.
# ruff: noqa: PTH116

from __future__ import annotations

import errno
import os
import stat
from collections.abc import Iterable, Mapping
from pathlib import Path
from typing import TYPE_CHECKING, Literal

from skillc_index.diagnostics import Notice, UnreadableFile
from skillc_index.files import NOT_UTF8, is_utf8, within
from skillc_index.import_record import ImportRecord, import_origin
from skillc_index.inventory.deployed import ROUTER_MARK, ROUTER_NAME, deployed_source
from skillc_index.inventory.folders import Root, RootKind, search_roots
from skillc_index.inventory.links import MAX_STORE_ENTRIES
from skillc_index.inventory.nested import nested_notices
from skillc_index.layout import (
    META_DIR,
    RUNTIME_FOLDER,
    SKILL_FILE,
    Layout,
    Scope,
    store_skill_name,
)
from skillc_index.record import Record

if TYPE_CHECKING:
    from skillc_index.listing.shapes import LocationShape

__all__ = [
    "MAX_STORE_ENTRIES",
    "InstalledSkill",
    "Inventory",
    "Listing",
    "Location",
    "LocationKind",
    "Skipped",
    "deployment_gone",
    "distinct",
    "gone_link",
    "group",
    "imported_folders",
    "installed_skills",
    "location_of",
    "removal",
    "root_listing",
]

LocationKind = Literal["store", "agent", "config", "plugin"]


class Location(Record):
    """One place an installed skill is at: an entry of a store, an agent folder or a plugin."""

    path: Path
    """The entry as the agent names it (not resolved): ``~/.claude/skills/<name>``."""
    real: Path
    """Its real path (symlinks resolved)."""
    kind: LocationKind
    agent: str | None
    """The agent that reads it (a target name; ``claude`` for a plugin), None in a store."""
    scope: Scope
    managed: bool
    """skillc made it: a store skill, or a deployment of one (``source``)."""
    source: Path | None = None
    """For a deployment skillc made: the store skill's folder (real path)."""
    plugin: str | None = None
    """The plugin it comes with (``plugin:<name>`` names it)."""
    marketplace: str | None = None
    """That plugin's marketplace (``plugin@marketplace:<name>`` names it)."""

    @property
    def name(self) -> str:
        return self.path.name

    def to_dict(self) -> LocationShape:
        return {
            "path": str(self.path),
            "real": str(self.real),
            "kind": self.kind,
            "agent": self.agent,
            "scope": self.scope,
            "managed": self.managed,
            "source": None if self.source is None else str(self.source),
            "plugin": self.plugin,
        }


class Skipped(Record):
    """An entry holding a ``SKILL.md`` that is no skill of the inventory, and why."""

    path: Path
    reason: str
    gone: bool = False
    """A deployment skillc made whose store skill is gone (renamed or deleted): its agent
    lists it all the same (``list --budget`` prices it, ``eval`` scores against it)."""
    shown: str = ""
    """What the warning calls it: a plugin's ``name@marketplace`` (its folder is a version,
    ``1.0``); ``""``: its folder's name."""

    def notice(self) -> Notice:
        """The listing's warning for it (``skc eval --path`` skips such a folder too)."""
        return Notice(f"skipping '{self.shown or self.path.name}' ({self.path}): {self.reason}")

    @property
    def key(self) -> str:
        """The entry's real path (its folder's real path and its name: the entry itself may
        be a link loop): two agent folders that are one (``~/.agents/skills ->
        ~/.claude/skills``) show one entry by two paths, said once."""
        try:
            return os.path.join(os.path.realpath(self.path.parent), self.path.name)  # noqa: PTH118
        except OSError:  # the folder swapped for a link as it was resolved
            return str(self.path)


def distinct(skipped: Iterable[Skipped], said: set[str] | None = None) -> list[Skipped]:
    """``skipped`` without a second path to an entry already in it or in ``said`` (the keys
    of those said before, :attr:`Skipped.key`; each one kept is added to it)."""
    said = set() if said is None else said
    kept: list[Skipped] = []
    for entry in skipped:
        if entry.key not in said:
            said.add(entry.key)
            kept.append(entry)
    return kept


class InstalledSkill(Record):
    """One installed skill and every place it is at (the first in resolution order first)."""

    name: str
    """Its name: its store folder's, else its source folder's where a location has that
    name, else its first location's."""
    source: Path
    """The folder that is the skill (real path): a store skill's, a deployment's source, or
    the real path of its folder."""
    locations: tuple[Location, ...]

    def logged_as(self, layout: Layout) -> tuple[str, ...]:
        """The folders its rows in the access logs name (``skill_path``): its source first,
        then each folder imported into it (:func:`group`) and, for a store copy, the folder
        its import record names (:func:`~skillc_index.import_record.import_origin`: still there,
        and inside the project for a project store's; one small file read), installed in an
        agent folder or not: the reads of those folders before the import are its uses too.
        One folder but for an imported one."""
        keys = [str(location.source or location.real) for location in self.locations]
        store = self.store
        try:
            origin = None if store is None else import_origin(store.real, store.scope, layout)
        except UnreadableFile as exc:  # there, yet cannot be searched: its reads still count
            origin = Path(exc.path)
        if origin is not None:
            keys.append(str(origin))
        return tuple(dict.fromkeys((str(self.source), *keys)))

    @property
    def managed(self) -> bool:
        """Whether skillc manages it: a store skill (its deployments included)."""
        return any(location.managed for location in self.locations)

    @property
    def store(self) -> Location | None:
        """Its location in a source store, if it is a store skill of this layout."""
        return next((loc for loc in self.locations if loc.kind == "store"), None)

    @property
    def scope(self) -> Scope:
        """Where it lives: its store's scope, else its first location's."""
        return (self.store or self.locations[0]).scope

    @property
    def agents(self) -> tuple[str, ...]:
        """The agents that see it (through an agent folder or a plugin), sorted."""
        return tuple(sorted({loc.agent for loc in self.locations if loc.agent is not None}))


class Listing(Record):
    """The skills of one folder: its locations in name order, the entries skipped, and why
    the folder could not be listed (None: it could, or it is not there); and its folders that
    are no skill (no regular ``SKILL.md`` when listed, the router): where a skill installed
    folder first gets its ``SKILL.md`` later (a watcher of the skills watches them)."""

    locations: tuple[Location, ...] = ()
    skipped: tuple[Skipped, ...] = ()
    error: str | None = None
    others: tuple[Path, ...] = ()


class Inventory(Record):
    """The result of :func:`installed_skills`."""

    skills: tuple[InstalledSkill, ...]
    """In the order names resolve: by first location (folder order, then name)."""
    folders: tuple[tuple[Root, Listing], ...] = ()
    """Each folder looked at and what it held."""

    @property
    def skipped(self) -> tuple[Skipped, ...]:
        """Each entry skipped, once (by its real path: :func:`distinct`)."""
        return tuple(distinct(entry for _, listing in self.folders for entry in listing.skipped))

    def notices(self, kinds: Iterable[RootKind] | None = None) -> tuple[Notice, ...]:
        """What was left out, in folder order (of the folders of ``kinds``, default all): each
        entry skipped and why, each folder that could not be listed; then, with agent
        folders, each project whose nested ``.claude/skills`` lookup was cut short
        (:func:`~skillc_index.inventory.nested.nested_notices`)."""
        wanted = None if kinds is None else set(kinds)
        notices: list[Notice] = []
        said: set[str] = set()  # an entry reached by two folders that are one: said once
        for root, listing in self.folders:
            if wanted is not None and root.kind not in wanted:
                continue
            notices += (entry.notice() for entry in distinct(listing.skipped, said))
            if listing.error is not None:
                kind = f"the {root.scope} store" if root.kind == "store" else f"{root.kind} folder"
                notices.append(Notice(f"cannot list {kind} {root.path} ({listing.error})"))
        if wanted is None or "agent" in wanted:
            notices += nested_notices()
        return tuple(notices)


def location_of(
    root: Root, name: str, layout: Layout, real_root: str | None = None
) -> Location | Skipped | None:
    """The skill at ``<root>/<name>`` (see the module): a :class:`Location`, a
    :class:`Skipped` entry, or None when the entry is no skill folder (missing, a file, no
    regular ``SKILL.md``, the router). ``real_root``: the real path of ``root``, when the
    entry is known to be no symlink (its real path is then ``<real_root>/<name>``, without
    a realpath of its own: :func:`root_listing`, of thousands of entries)."""
    full = f"{root.path}/{name}"
    skill = meta = False
    try:
        with os.scandir(full) as entries:
            for entry in entries:
                if entry.name == SKILL_FILE:
                    skill = entry.is_file(follow_symlinks=False)
                elif entry.name == META_DIR:
                    meta = entry.is_dir(follow_symlinks=False)
                elif entry.name == ROUTER_MARK and name == ROUTER_NAME:
                    return None  # the router of `skc route`: it points to the others
    except (FileNotFoundError, NotADirectoryError, ValueError):  # ValueError: a NUL in it
        return None
    except OSError as exc:
        if exc.errno == errno.ENAMETOOLONG:  # a name no folder holds (nor an agent reads)
            return None
        return _unreadable(root.path / name, exc)
    if not skill:
        return None
    if root.unloaded is not None:  # a plugin Claude Code fails to load: none of its skills
        return Skipped(root.path / name, root.unloaded)
    if not is_utf8(full):  # the catalog's SQLite cannot hold it: find skips it too
        return Skipped(root.path / name, NOT_UTF8)  # (an entry that is there: E001's hint)
    # os.path.join: a root that resolves to "/" gives "/name" (not "//name")
    real = os.path.realpath(full) if real_root is None else os.path.join(real_root, name)  # noqa: PTH118
    if not is_utf8(real):
        return Skipped(root.path / name, "a link to a path that is not UTF-8")
    confine = root.confined_to
    if confine and not any(within(real, folder) for folder in confine):
        return Skipped(root.path / name, root.link_out(real))
    try:
        source = deployed_source(real, layout, copy=meta, gone=True, strict=True)
    except (OSError, ValueError):
        return Skipped(root.path / name, "a deployment whose manifest cannot be read")
    if source is not None:
        source = os.path.realpath(source)
        missing = _source_missing(full, real, source, layout)
        if missing is not None:
            return Skipped(root.path / name, missing[1], gone=missing[0])
    kind: LocationKind = "config" if root.kind == "path" else root.kind  # a folder given
    return Location(
        root.path / name,
        Path(real),
        kind,
        root.agent,
        root.scope or "global",
        kind == "store" or source is not None,
        None if source is None else Path(source),
        root.plugin,
        root.marketplace,
    )


def _source_missing(full: str, real: str, source: str, layout: Layout) -> tuple[bool, str] | None:
    """Whether the store skill ``source`` (a real path) of skillc's deployment ``full`` (its
    real path ``real``) is gone, and why it is skipped: its SKILL.md not there (gone: how to
    remove the deployment, :func:`removal`) or not readable (no reason to delete); None
    when it is there."""
    try:  # only a SKILL.md not there is gone: one that cannot be read is no reason to delete
        there = stat.S_ISREG(os.stat(f"{source}/{SKILL_FILE}").st_mode)
    except (FileNotFoundError, NotADirectoryError, ValueError):
        there = False
    except OSError as exc:
        return False, f"a deployment of {source}, which cannot be read ({exc.strerror or exc})"
    if there:
        return None
    return True, f"a deployment of {source}, which is gone ({removal(full, real, source, layout)})"


def deployment_gone(full: str, layout: Layout, real: str | None = None) -> str | None:
    """Why the entry ``full`` (a deployment skillc made: a link to a runtime, skillc's copy)
    stands for a store skill that is gone (renamed or deleted since its build), in the
    listing's words (``a deployment of <source>, which is gone (to remove it: ...)``); None
    when it is no deployment of skillc's, its store skill is there or cannot be read. What a
    deployment parked behind a router (``skc route``) is checked with: the inventory never
    lists the parking folders (``real``: the real path it leads to, when it is not where it
    lies: a parked link's text is read from the agent folder it came from)."""
    real = os.path.realpath(full) if real is None else real
    try:
        source = deployed_source(real, layout, gone=True, strict=True)
    except (OSError, ValueError):
        return None
    if source is None:
        return None
    missing = _source_missing(full, real, os.path.realpath(source), layout)
    return missing[1] if missing is not None and missing[0] else None


def removal(entry: str | None, real: str, source: str, layout: Layout) -> str:
    """How to remove a deployment skillc made whose store skill ``source`` is gone (a renamed
    or deleted skill, which agents still load): the agent folder's ``entry`` (a link, or
    skillc's copy; None: not known), then the runtime it leads to (``real``, its real path)
    or, for a copy, was copied from (:func:`~skillc_index.inventory.deployed.copied_from`),
    which holds the skill's usage logs and may be deployed to another agent folder too. A
    project skill built ``--global`` (a source in another base's store than the runtime) may
    only have moved with its project: rebuilding it there comes first. Said by the listing's
    warning, E001 and E100."""
    from shlex import quote

    from skillc_index.inventory.deployed import copied_from

    name = Path(source).name
    copy = store_skill_name(real, RUNTIME_FOLDER) is None  # else a runtime, any base's
    runtime = str(copied_from(real, name, layout)) if copy else real
    moved = ""
    runtimes, store = map(
        os.path.realpath, (layout.runtime_store("global"), layout.store("global"))
    )
    global_build = os.path.realpath(Path(runtime).parent) == runtimes
    if global_build and os.path.realpath(Path(source).parent) != store:  # a project's skill
        moved = f"if its project moved, run skc build {quote(name)} --global there; else "
    if copy:
        first = f"{moved}to remove it: rm -r {quote(entry or real)}"
        if not os.path.isdir(runtime):  # noqa: PTH112
            return first
        return (
            f"{first}, then rm -r {quote(runtime)}, its runtime with its usage logs, once no "
            "other agent folder links to it or holds a copy of it"
        )
    if entry is None:
        return (
            f"{moved}to remove it: rm -r {quote(runtime)}, with its usage logs, once no agent "
            "folder links to it"
        )
    return (
        f"{moved}to remove it: rm {quote(entry)}, then rm -r {quote(runtime)}, its runtime with "
        "its usage logs, once no other agent folder links to it"
    )


def _unreadable(path: Path, exc: OSError) -> Skipped:
    """``path`` skipped because it cannot be read: one wording for the listing and E001."""
    return Skipped(path, f"cannot read it ({exc.strerror or exc})")


def gone_link(path: str) -> Skipped | None:
    """``path`` as a link whose target is gone, skipped with where it led (or, when it
    cannot be followed, a link that loops, as :func:`_unreadable`); None when it is no link,
    or its target is there (a readlink, and a stat for a link)."""
    try:
        target = os.readlink(path)  # noqa: PTH115 (a str path: see the module)
    except (OSError, ValueError):  # no link (EINVAL), no entry; ValueError: a NUL in it
        return None
    try:
        os.stat(path)
        return None
    except (FileNotFoundError, NotADirectoryError):
        pass
    except OSError as exc:  # ELOOP: the target is not gone, it cannot be reached
        return _unreadable(Path(path), exc)
    from skillc_index.layout import shown

    return Skipped(Path(path), f"a link to {shown(target)}, which is gone")


def root_listing(root: Root, layout: Layout) -> Listing:
    """The skills of one folder (its entries, at most :data:`MAX_STORE_ENTRIES`, in name order)."""
    from skillc_index.walk import skips_folder

    if root.unloaded is not None:  # a plugin its agent fails to load: said once, for it
        there = root.path.is_dir()
        plugin = f"{root.plugin}@{root.marketplace}" if root.marketplace else root.plugin
        unloaded = Skipped(root.path.parent, root.unloaded, shown=plugin or "")
        return Listing(skipped=(unloaded,) if there else ())
    parent = root.path.name
    try:
        with os.scandir(root.path) as entries:
            names = sorted(
                (entry.name, _is_dir(entry), _is_link(entry))
                for _, entry in zip(range(MAX_STORE_ENTRIES), entries, strict=False)
                if not skips_folder(entry.name, parent)
            )
    except (FileNotFoundError, NotADirectoryError):
        return Listing()
    except OSError as exc:
        return Listing(error=exc.strerror or str(exc))
    locations: list[Location] = []
    skipped: list[Skipped] = []
    others: list[Path] = []
    real_root = os.path.realpath(root.path)  # once: an entry that is no symlink lies in it
    for name, folder, link in names:
        found = location_of(root, name, layout, None if link else real_root)
        # (a dangling link is no folder); a hidden one is no skill (a skill's name has no
        # leading dot): Emacs' lock file `.#SKILL.md -> user@host.pid` is not warned of
        if found is None and not folder and name[:1] != ".":
            found = gone_link(f"{root.path}/{name}")
        if isinstance(found, Location):
            locations.append(found)
        elif found is not None:
            skipped.append(found)
        elif folder:
            others.append(root.path / name)
    return Listing(tuple(locations), tuple(skipped), others=tuple(others))


def _is_link(entry: os.DirEntry[str]) -> bool:
    """Whether ``entry`` is a symlink (True when that cannot be told: its real path is
    looked for)."""
    try:
        return entry.is_symlink()
    except OSError:
        return True


def _is_dir(entry: os.DirEntry[str]) -> bool:
    """Whether ``entry`` is a folder, or a link to one (False when that cannot be told)."""
    try:
        return entry.is_dir()
    except OSError:
        return False


def group(locations: Iterable[Location]) -> tuple[InstalledSkill, ...]:
    """The skills of ``locations`` (in their order): those of one source are one skill, named
    as its store folder, else as the source folder where a location has that name (a link
    ``~/.agents/skills/x2 -> ~/.claude/skills/x`` is the skill ``x``), else as its first
    location. A folder imported into a store is its store copy's (:func:`_imported`)."""
    located = list(locations)
    imported = _imported(located)
    by_source: dict[str, list[Location]] = {}
    for location in located:
        key = str(location.source or location.real)
        key = imported.get(key, key)
        by_source.setdefault(key, []).append(location)
    skills = []
    for key, places in by_source.items():
        name = places[0].name
        if places[0].kind != "store":
            own = key.rpartition("/")[2]
            name = own if any(place.name == own for place in places) else name
        skills.append(InstalledSkill(name, Path(key), tuple(places)))
    return tuple(skills)


def _imported(locations: list[Location]) -> dict[str, str]:
    """The folders among ``locations`` that were imported into a store among them: each one's
    real path -> its store copy's (:func:`imported_folders`; a deployment is no such folder)."""
    copies = [str(location.real) for location in locations if location.kind == "store"]
    folders = [
        str(location.real)
        for location in locations
        if location.kind != "store" and location.source is None
    ]
    return imported_folders(copies, folders)


def imported_folders(copies: Iterable[str], folders: Iterable[str]) -> dict[str, str]:
    """Which of ``folders`` (real paths) were imported into one of the store skills
    ``copies`` (real paths): each one -> its store copy, whose
    :class:`~skillc_index.import_record.ImportRecord` names it as its origin (DECISIONS: a folder
    imported into a store and its store copy are one skill). An import keeps the folder's
    name, so only a store copy named as one of ``folders`` is read (one small file). The one
    rule of ``list``, ``stats --all`` and ``find`` (:mod:`skillc_gateway.catalog.answer`)."""
    by_name: dict[str, list[str]] = {}
    for copy in copies:
        by_name.setdefault(copy.rpartition("/")[2], []).append(copy)
    records: dict[str, ImportRecord | None] = {}
    found: dict[str, str] = {}
    for real in folders:
        if real in found:
            continue
        for copy in by_name.get(real.rpartition("/")[2], ()):
            if copy not in records:
                records[copy] = ImportRecord.read(Path(copy))
            record = records[copy]
            if record is not None and record.folder(Path(copy)) == Path(real):
                found[real] = copy
                break
    return found


def installed_skills(
    layout: Layout,
    configured: Mapping[str, str] | None = None,
    *,
    roots: Iterable[Root] | None = None,
    cache: dict[Path, Listing] | None = None,
) -> Inventory:
    """Every installed skill seen from ``layout``: the skills of every folder of the
    inventory (:func:`~.folders.search_roots`, ``configured`` being the config's trusted
    ``[targets]``; or ``roots``), each once. ``cache`` keeps each folder's listing by path for
    a caller that asks for many layouts (the transcript import: one view per project)."""
    locations: list[Location] = []
    folders: list[tuple[Root, Listing]] = []
    for root in search_roots(layout, configured) if roots is None else roots:
        listing = None if cache is None else cache.get(root.path)
        if listing is None:
            listing = root_listing(root, layout)
            if cache is not None:
                cache[root.path] = listing
        folders.append((root, listing))
        locations += listing.locations
    return Inventory(group(locations), tuple(folders))
