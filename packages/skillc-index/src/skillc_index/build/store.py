"""Importing a skill given by a path into a source store (ADR-0001, ADR-0002, RFC-0007 ``build``).

``skc build ./somewhere/my-skill`` copies the folder to ``<store>/my-skill`` (the project store
inside a project, else the global store; the global store with ``--global``) and builds that
copy. The copy holds the skill's files as :func:`~skillc_index.skill_files.walk_skill` sees them,
what its ``.gitignore`` files exclude too (:attr:`~skillc_index.skill_files.SkillFiles.every`,
which the record's source hash covers; no reader of the copy serves it either):
hidden names are left out and symlinks (which stay inside the skill) become regular files,
but for one leading to what the skill's ``.gitignore`` files exclude, which stays a relative
symlink. The skill's own ``.gitignore`` files come too: in the copy, which the project's git
tracks, git and ``skc package`` leave out what they leave out of the folder
(:func:`same_for_git`). Both are the folder's :class:`GitView`, read once per import. What
git ignores in the folder by other rules (the project's ``.gitignore`` above it) is left out
(:func:`origin_view`): those rules do not follow the copy.

The folder's name becomes the skill's name, so it must follow ``skc init``'s rule (E100
otherwise). An existing store copy is never replaced without ``force``, unless it already
holds exactly the same files (same source hash; the import is then a no-op) or it was
imported from this very folder and is unchanged since (its :class:`ImportRecord` says so).
A path that is itself in a store is never imported. The new copy is assembled in a hidden
temporary folder of the store and renamed into place, so a store never holds half a skill;
a copy stranded by a kill between the two renames is put back by :func:`recover_stranded`.
"""

from __future__ import annotations

import os
import stat
from dataclasses import dataclass
from pathlib import Path
from typing import TYPE_CHECKING, Literal, NamedTuple

from skillc_index.atomic import (
    abandoned,
    creating,
    move_aside,
    staging_dir,
    write_file_atomic,
)
from skillc_index.command_errors import (
    ImportRefused,
    StoreCopyDiffers,
)
from skillc_index.diagnostics import Notice
from skillc_index.digests import executable as is_executable
from skillc_index.digests import file_digests, source_hash
from skillc_index.files import open_in_root
from skillc_index.glob import IGNORE_FILE, parent_folders
from skillc_index.import_record import ImportRecord
from skillc_index.inventory.links import store_entry
from skillc_index.layout import (
    IMPORT_RECORD,
    SKILL_FILE,
    Layout,
    ResolvedSkill,
    Scope,
    require_skill_name,
    shown,
)
from skillc_index.skill_files import SkillFiles, walk_skill

if TYPE_CHECKING:
    from collections.abc import Iterable, Sequence

    from skillc_index.glob import IgnoreRules

__all__ = [
    "GitView",
    "ImportPlan",
    "git_view",
    "in_a_store",
    "origin_view",
    "perform_import",
    "plan_import",
    "recover_stranded",
    "same_for_git",
    "shadow_notice",
    "store_scope",
]

ImportAction = Literal["copy", "replace", "unchanged"]


@dataclass(frozen=True)
class ImportPlan:
    """What importing a path will do (decided before anything is written)."""

    origin: Path
    """Canonical path of the folder given on the command line."""
    recorded: str
    """``origin`` as the import record writes it (:meth:`ImportRecord.recorded`)."""
    destination: Path
    """``<store>/<name>``."""
    action: ImportAction
    files: SkillFiles
    view: GitView
    """The folder's :class:`GitView`, read once for the plan and the copy."""
    adopt_hash: str | None = None
    """For ``unchanged``: the source hash of a store copy whose record does not name this
    folder yet, or not as it is written now (an absolute path of a folder inside the project:
    an older record), which the copy then records (it holds the very same files, so the
    folder adopts it)."""
    keep_previous: bool = False
    """For ``replace`` with ``force``: what is there is not a copy skillc imported from this
    folder and nobody changed since, so it is moved aside
    (:func:`~skillc_index.atomic.move_aside`), not removed."""

    def imported(self, skill: ResolvedSkill) -> ResolvedSkill:
        """``skill`` as it resolves once the import is done: from the store copy."""
        source = Path(os.path.realpath(self.destination))
        return ResolvedSkill(skill.name, source, skill.scope, skill.runtime, True)


def store_scope(source: Path, layout: Layout) -> Scope | None:
    """The scope of the store a canonical source folder sits directly in (or one of whose
    entries links to it: :func:`~skillc_index.inventory.links.store_entry`), else None."""
    for scope in layout.scopes():
        if store_entry(layout.store(scope), source):
            return scope
    return None


def in_a_store(source: Path, layout: Layout) -> bool:
    """Whether a canonical source folder sits directly in the project or the global store."""
    return store_scope(source, layout) is not None


def shadow_notice(source: Path, layout: Layout, *, runs: bool = False) -> Notice | None:
    """A warning when the store skill at ``source`` shares its name with a skill of the other
    store (project vs global): in the project, the name resolves to the project's
    (RFC-0007:C-RESOLUTION), so the global skill's stub, whose commands name it, reads the
    project's there; with ``runs`` (``run``, ``exec``: a checkout's store skill would run
    its code in place of the user's), the project's code runs there, and the warning names
    the global skill's path. None outside a project, or when the other store has no such
    skill."""
    own = store_scope(source, layout)
    if own is None or len(layout.scopes()) < 2:
        return None
    entry = store_entry(layout.store(own), source) or source.name  # its name: the entry's
    other = layout.store("global" if own == "project" else "project") / entry
    if not (other / SKILL_FILE).is_file():
        return None
    name = f"'{entry}'"
    project, global_ = (other, source) if own == "global" else (source, other)
    then = (
        f"the project's runs here; give the global one's path to run it: {global_}"
        if runs
        else "the global stub's commands read the project's here"
    )
    return Notice(
        f"the project's {name} shadows the global {name} in this project "
        f"({layout.display(project)}): {then}"
    )


def one_folder_notice(given: str, skill: ResolvedSkill, layout: Layout) -> Notice | None:
    """A warning when ``given`` names a store's link to the folder of the store skill
    ``skill`` that does not name it: ``zeta`` and ``alpha-x`` both lead to ``repo/skill``,
    which is one skill, named after the first link by name (``alpha-x``: built, deployed
    and logged as that one). None otherwise."""
    entry = os.path.basename(given.rstrip("/" + os.sep))  # noqa: PTH119 (as it was given)
    if not skill.in_store or entry in {skill.name, "", ".", ".."}:
        return None
    for scope in layout.scopes():
        link = layout.store(scope) / entry
        if link.is_symlink() and os.path.realpath(link) == str(skill.source):
            return Notice(
                f"'{shown(entry)}' and '{shown(skill.name)}' are links to one folder "
                f"({shown(layout.display(skill.source))}): built as '{shown(skill.name)}'"
            )
    return None


class GitView(NamedTuple):
    """What git and ``skc package`` see of a skill folder besides its files (:func:`git_view`)."""

    folders: tuple[str, ...]
    """The folders looked in (:func:`~skillc_index.skill_files.walk_skill`'s ``dirs``)."""
    ignores: dict[str, str]
    """The skill's own ``.gitignore`` files (:func:`~skillc_index.glob.ignore_files`, regular
    ones) by their SHA-256: hidden, so not among its files nor in its source hash, yet an
    import carries them."""
    links: dict[str, str]
    """The symlinks its files are reached through that lead to what those files exclude
    (:meth:`~skillc_index.glob.IgnoreRules.excluded_link`: ``creds-link.json ->
    credentials.json``, ``pub -> local``): each link's path -> the path it leads to, both
    relative to the root. An import keeps them as links, as git commits them (a copy of the
    content would put it in git and in ``skc package NAME`` under the link's name)."""
    executable: frozenset[str] = frozenset()
    """Its files with an executable bit (:func:`~skillc_index.digests.executable`, as ``skc
    package`` gives a zip entry mode ``0755``): git records the bit, and a script run by
    ``skc exec`` or a hook needs it. An import copies it with each file."""


def git_view(root: Path, files: Iterable[str], folders: Iterable[str]) -> GitView:
    """The :class:`GitView` of the skill at ``root`` whose files are ``files`` and folders
    ``folders`` (relative, each after its parent): its ``.gitignore`` files read once, for an
    import to compare and copy. :class:`~skillc_index.glob.IgnoreTooLarge` when they are over
    their bounds: what they exclude, so which links to keep, is unknown (``skc package``
    refuses such a skill; an import too, :func:`origin_view`)."""
    return _view_and_rules(root, files, folders)[0]


def _view_and_rules(
    root: Path, files: Iterable[str], folders: Iterable[str], read: Sequence[IgnoreRules] = ()
) -> tuple[GitView, IgnoreRules]:
    """:func:`git_view`, with the rules of the ``.gitignore`` files it read (``read``'s, when
    the walk read them already)."""
    from skillc_index.glob import IgnoreRules, ignore_files

    real = os.path.realpath(root)
    looked = tuple(folders)
    ignores = file_digests(root, [rel for rel, link in ignore_files(real, looked) if not link])
    rules = read[0] if read else IgnoreRules.read(root, looked, real_root=real)
    links: dict[str, str] = {}
    executable: set[str] = set()
    for rel in files:
        if (found := rules.excluded_link(real, rel)) is not None:
            link = found[0].rstrip("/")
            links.setdefault(link, os.path.realpath(f"{real}/{link}")[len(real) + 1 :])
        try:
            if is_executable(os.stat(f"{real}/{rel}").st_mode):  # noqa: PTH116 (a link: its file's)
                executable.add(rel)
        except OSError:
            continue  # gone since it was listed: hashing it names it
    return GitView(looked, ignores, links, frozenset(executable)), rules


def same_for_git(copy: Path, files: Iterable[str], origin: GitView) -> bool:
    """Whether the store ``copy`` of a folder whose files are ``files`` and whose view is
    ``origin`` shows git and ``skc package`` what the folder does: the same ``.gitignore``
    files, the same links to what they exclude, the same executable files. A copy that does
    not (or whose ``.gitignore`` files are over their bounds) is imported again."""
    from skillc_index.glob import IgnoreTooLarge

    try:
        return git_view(copy, files, origin.folders) == origin
    except IgnoreTooLarge:
        return False


def origin_view(
    origin: Path,
    found: SkillFiles,
    folders: Iterable[str],
    shown: str,
    rules: Sequence[IgnoreRules] = (),
) -> tuple[SkillFiles, GitView]:
    """The files (``found``, :func:`walk_skill`'s) and :func:`git_view` of a folder to import
    (``shown`` as the error names it), without what git ignores there by rules its store
    copy would not carry (:func:`_ignored_outside`). :class:`~skillc_index.command_errors.
    ImportRefused` (E070) when its ``.gitignore`` files are over their bounds, as ``skc
    package`` refuses it: a link to what they exclude would be copied as the content, which
    git then commits. ``rules``: those the walk read (``walk_skill(rules=...)``), not read
    again."""
    from skillc_index.glob import IgnoreTooLarge

    try:
        view, read = _view_and_rules(origin, found.every, folders, rules)
    except IgnoreTooLarge as exc:
        raise ImportRefused(shown, str(exc)) from None
    from skillc_index._git import GitUnanswered

    try:
        left = _ignored_outside(origin, (*found.every, *view.ignores), read)
    except GitUnanswered as exc:  # what git ignores is not copied: no copy (fail closed)
        reason = f"cannot ask git what it ignores: {exc.reason}"
        raise ImportRefused(shown, reason, exc.hint) from None
    if not left:
        return found, view
    ignores = {rel: digest for rel, digest in view.ignores.items() if rel not in left}
    files = tuple(rel for rel in found.files if rel not in left)
    executable = view.executable - left
    ignored = tuple(rel for rel in found.ignored if rel not in left)
    return (
        found._replace(files=files, ignored=ignored),
        view._replace(ignores=ignores, executable=executable),
    )


def _ignored_outside(origin: Path, paths: Iterable[str], rules: IgnoreRules) -> set[str]:
    """Which of ``paths`` (relative to the folder ``origin``) git ignores there, or what they
    lead to (a symlink's content), by rules other than the folder's own ``.gitignore`` files
    (the project's ``.gitignore`` above it, ``.git/info/exclude``: :func:`~skillc_index._git.
    ignored_below`), which do not follow a copy to the store, where git would commit them.
    What the folder's own files exclude is copied with them (git ignores it in the copy too),
    and SKILL.md always (a skill needs it). Outside git nothing is looked at; a path is
    resolved only when reached through a symlink (:func:`_through_link`)."""
    from skillc_index._git import ignored_below, maybe_in_work_tree

    if not maybe_in_work_tree(origin):
        return set()
    real = os.path.realpath(origin)
    links: dict[str, bool] = {}
    asked: dict[str, list[str]] = {}  # what git is asked about (a link's target) -> paths
    for rel in paths:
        target = rel
        if _through_link(real, rel, links):
            target = os.path.realpath(f"{real}/{rel}")[len(real) + 1 :]
        if rel != SKILL_FILE and not (rules.excluded(rel) or rules.excluded(target)):
            asked.setdefault(target, []).append(rel)
    return {rel for target in ignored_below(origin, list(asked)) for rel in asked[target]}


def _through_link(real: str, rel: str, links: dict[str, bool]) -> bool:
    """Whether ``rel``, below the real folder ``real``, is a symlink or lies in a folder
    reached through one; ``links`` keeps each folder's answer, so each is looked at once."""
    parent = rel.rpartition("/")[0]
    if parent and parent not in links:
        links[parent] = _through_link(real, parent, links)
    return bool(parent and links[parent]) or os.path.islink(f"{real}/{rel}")  # noqa: PTH114


def _by_hand(copy: Path, held: Iterable[str]) -> bool:
    """Whether the store ``copy``, whose files are ``held`` (:func:`walk_skill`'s), holds an
    entry no import writes, which its source hash does not cover: anything but those files
    (and the links they are reached through), folders, ``.gitignore`` files and the import
    record (a ``.env``, a ``.git/`` repository written there by hand). Replacing it would
    delete that entry: it is an edited copy. A cache folder is no edit
    (:data:`~skillc_index.walk.CACHE_FOLDERS`: the ``__pycache__`` that a script run in the
    copy by ``skc exec`` writes)."""
    import stat

    from skillc_index.walk import CACHE_FOLDERS

    known = {IMPORT_RECORD, *held}
    known.update(folder for rel in list(known) for folder in parent_folders(rel))
    for folder, subfolders, names in os.walk(copy):
        prefix = "" if folder == str(copy) else os.path.relpath(folder, copy) + "/"
        for name in (*subfolders, *names):
            if prefix + name in known:
                continue  # a file of the skill, or a folder or link it is reached through
            try:
                mode = os.lstat(f"{folder}/{name}").st_mode
            except OSError:
                continue  # gone since it was listed
            if name in CACHE_FOLDERS and stat.S_ISDIR(mode) and name in subfolders:
                subfolders.remove(name)  # what is in it is no edit either
                continue
            wanted = stat.S_ISREG if name == IGNORE_FILE else stat.S_ISDIR
            if name.startswith(".") != (name == IGNORE_FILE) or not wanted(mode):
                return True  # a folder's entries are looked at in turn
    return False


def _is_empty_folder(path: Path) -> bool:
    try:
        return path.is_dir() and not path.is_symlink() and not any(path.iterdir())
    except OSError:
        return False


def plan_import(
    skill: ResolvedSkill,
    layout: Layout,
    files: SkillFiles,
    view: GitView,
    *,
    force: bool,
    origin_hash: str | None = None,
    record: ImportRecord | None = None,
) -> ImportPlan:
    """Decide how ``skill`` (found by path, outside the stores) goes into its scope's store;
    ``view`` is the folder's :class:`GitView` (:func:`git_view`). ``origin_hash`` (the source
    hash of ``files``) and ``record`` (the store copy's import record), when the caller has
    them already: not hashed or read again.

    Raises :class:`~skillc_index.command_errors.InvalidSkillName` (E100) when the folder's name is
    not a valid skill name, and :class:`StoreCopyDiffers` (E050) when the store already holds a
    different skill of that name, not imported from this folder or edited since, and
    ``force`` is not given.
    """
    require_skill_name(skill.name)
    destination = layout.store(skill.scope) / skill.name
    recover_stranded(destination.parent, skill.name)
    origin = skill.source
    recorded = ImportRecord.recorded(origin, skill.scope, layout)
    if not destination.exists() and not destination.is_symlink():
        return ImportPlan(origin, recorded, destination, "copy", files, view)
    if destination.is_symlink() and os.path.realpath(destination) == str(origin):
        return ImportPlan(origin, recorded, destination, "unchanged", files, view)
    why = "a different"
    if (
        destination.is_dir()
        and not destination.is_symlink()
        and (destination / SKILL_FILE).is_file()
    ):
        held = walk_skill(destination).every
        current = source_hash(destination, held)
        record = ImportRecord.read(destination) if record is None else record
        ours = record is not None and record.folder(destination) == origin
        if ours and record and record.source_hash != current:
            # skillc 0.1's import copied (and hashed) venv/, node_modules/, __pycache__/: they
            # are its own, and its copy is replaced, never "unchanged" (an import leaves them out)
            every = walk_skill(destination, every_folder=True).every
            if every != held and source_hash(destination, every) == record.source_hash:
                held, current = every, record.source_hash
        if current == (origin_hash or source_hash(origin, files.every)) and same_for_git(
            destination, files.every, view
        ):
            kept = ours and record == ImportRecord(recorded, current)
            return ImportPlan(
                origin, recorded, destination, "unchanged", files, view, None if kept else current
            )
        if ours and record and record.source_hash == current and not _by_hand(destination, held):
            return ImportPlan(origin, recorded, destination, "replace", files, view)
        if ours:
            why = "an edited"
        elif record is not None:
            why = f"a different (imported from {record.folder(destination) or record.origin})"
    if _is_empty_folder(destination):
        return ImportPlan(origin, recorded, destination, "replace", files, view)
    if not force:
        shown = layout.display(destination)
        raise StoreCopyDiffers(skill.name, skill.scope, why, shown, layout.display(origin))
    return ImportPlan(origin, recorded, destination, "replace", files, view, keep_previous=True)


def perform_import(plan: ImportPlan) -> Path | None:
    """Copy the files into a temporary folder of the store, record where they came from,
    then rename it into place. A previous copy skillc imported, unchanged since, is removed
    only once the new one is complete; anything else in its place (``keep_previous``: a
    skill written in the store, an edited copy, a link) is moved aside first, and where it
    went is returned."""
    if plan.action == "unchanged":
        if plan.adopt_hash is not None:
            record = ImportRecord(plan.recorded, plan.adopt_hash)
            write_file_atomic(plan.destination / IMPORT_RECORD, record.to_bytes())
        return None
    import shutil

    from skillc_index.cores import release

    store = plan.destination.parent
    name = plan.destination.name
    real_root = os.path.realpath(plan.origin)
    staging: Path | None = None
    try:
        with creating(plan.destination):  # the disk full, no permission: named, not the staging
            staging = staging_dir(store, f"{name}.import")
            made = {staging}
            links = plan.view.links
            for rel in (*(rel for rel in plan.files.every if rel not in links), *links):
                if any(folder in links for folder in parent_folders(rel)):
                    continue  # below a link kept: what it leads to is copied on its own path
                target = staging / rel
                if target.parent not in made:
                    target.parent.mkdir(parents=True, exist_ok=True)
                    made.update((target.parent, *target.parent.parents))
                if rel in links:  # git commits the link, never what it leads to
                    target.symlink_to(os.path.relpath(staging / links[rel], target.parent))
                else:
                    _copy_in_root(plan.origin, rel, target, real_root)
            for rel in plan.view.ignores:  # what git and package omit
                target = staging / rel
                if target.parent not in made:  # a folder of hidden files only, this one among them
                    target.parent.mkdir(parents=True, exist_ok=True)
                _copy_in_root(plan.origin, rel, target, real_root)
            record = ImportRecord(plan.recorded, source_hash(staging, plan.files.every))
            (staging / IMPORT_RECORD).write_bytes(record.to_bytes())
            if plan.keep_previous and (plan.destination.exists() or plan.destination.is_symlink()):
                backup = move_aside(plan.destination)
                staging.replace(plan.destination)
                return backup
            if not plan.destination.is_dir():
                staging.replace(plan.destination)
                return None
            old = staging_dir(store, f"{name}.old", sweep=False)  # may hold the only copy
            plan.destination.replace(old / name)
            try:
                staging.replace(plan.destination)
            except OSError:
                (old / name).replace(plan.destination)  # put the previous copy back
                release(old)
                old.rmdir()
                raise
            release(old)
            shutil.rmtree(old, ignore_errors=True)
            return None
    finally:
        if staging is not None:
            release(staging)  # renamed in, or removed now
            shutil.rmtree(staging, ignore_errors=True)


def _copy_in_root(origin: Path, rel: str, target: Path, real_root: str) -> None:
    """Copy the file ``rel`` of the skill at ``origin`` to ``target`` from the descriptor
    :func:`~skillc_index.files.open_in_root` opens (a regular file inside the skill at the
    moment it is read: a symlink out swapped in after the walk is E012, never followed), with
    its mode and times, as ``shutil.copy2`` keeps them (the copy is as old as its source)."""
    import shutil

    with open_in_root(origin, rel, real_root=real_root) as source:
        found = os.fstat(source.fileno())
        with target.open("wb") as out:
            shutil.copyfileobj(source, out)
            out.flush()
            os.fchmod(out.fileno(), stat.S_IMODE(found.st_mode))
            os.utime(out.fileno(), ns=(found.st_atime_ns, found.st_mtime_ns))


def recover_stranded(store: Path, name: str) -> None:
    """Repair what an import of ``name`` killed between its two renames left in ``store``:
    the previous copy moved aside to ``.<name>.old.<pid>-<hex>/<name>`` (and the new copy in
    its staging folder). When the store copy is missing, the previous one is put back;
    otherwise (the new copy is in place) the old one is removed. Folders of imports still
    running are left alone; staging folders of dead ones are removed."""
    import shutil

    destination = store / name
    for old in abandoned(store, f"{name}.old"):
        previous = old / name
        if not destination.exists() and not destination.is_symlink() and previous.is_dir():
            try:
                previous.replace(destination)
            except OSError:
                continue  # leave it for a later command rather than lose it
        shutil.rmtree(old, ignore_errors=True)
    for staging in abandoned(store, f"{name}.import"):
        shutil.rmtree(staging, ignore_errors=True)
