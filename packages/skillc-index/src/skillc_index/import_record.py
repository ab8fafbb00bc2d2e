"""The import record: what importing a folder into a store writes in the store copy
(:data:`~skillc_index.layout.IMPORT_RECORD`), so that the folder and its store copy are one
skill (reads through the folder use the store copy; ``build --all`` imports the folder again).
"""

from __future__ import annotations

import os
from pathlib import Path
from typing import TYPE_CHECKING

from skillc_index.layout import IMPORT_RECORD, SKILL_FILE
from skillc_index.record import Record

if TYPE_CHECKING:
    from skillc_index.glob import IgnoreRules
    from skillc_index.layout import Layout, Scope
    from skillc_index.skill_files import SkillFiles

#: A walk of a folder to import (:func:`walk_origin`): its files, folders and ignore rules.
OriginWalk = tuple["SkillFiles", list[str], list["IgnoreRules"]]

#: The most of an import record read (a path and a hash: well under 8 KiB).
MAX_IMPORT_RECORD_BYTES = 64 << 10


class ImportRecord(Record):
    """What importing a folder into a store records in the store copy (:data:`IMPORT_RECORD`):
    the canonical path it came from (:meth:`recorded`) and the source hash of the files
    copied. With it, the folder and its store copy are one skill: reads through the folder use
    the store copy, and importing the folder again may replace a store copy that is unchanged
    since."""

    origin: str
    """As written: relative to the project root for a project store copy of a folder inside
    the project (the same in every checkout: the record is a file of the project, committed
    with it), else absolute. :meth:`folder` reads it."""
    source_hash: str

    @staticmethod
    def recorded(origin: Path, scope: Scope, layout: Layout) -> str:
        """How the record of an import of the canonical folder ``origin`` into the ``scope``
        store names it: relative to the project root when both are the project's, so the
        project can move or be cloned; absolute otherwise."""
        if scope == "project" and layout.project_root is not None:
            try:
                relative = origin.relative_to(os.path.realpath(layout.project_root))
            except ValueError:
                relative = None
            if relative is not None and relative.parts:  # not the root itself
                return relative.as_posix()
        return str(origin)

    def folder(self, store_copy: Path) -> Path | None:
        """The folder the record names, absolute: a relative origin hangs off the folder the
        store of ``store_copy`` hangs off (``<base>/.skillc/skills/<name>``: the project
        root); None for one that is empty or climbs out of it (``..``)."""
        origin = Path(self.origin)
        if origin.is_absolute():
            return origin
        if not origin.parts or ".." in origin.parts:
            return None
        return Path(os.path.realpath(store_copy.parent.parent.parent)) / origin

    @classmethod
    def read(cls, store_copy: Path) -> ImportRecord | None:
        """The record of a store copy; None when there is none or it is unreadable, too large
        or too deep (a checkout may ship one:
        :func:`~skillc_index.bounded_json.read_json_bounded`)."""
        from skillc_index.bounded_json import read_json_bounded

        try:
            value = read_json_bounded(store_copy / IMPORT_RECORD, max_bytes=MAX_IMPORT_RECORD_BYTES)
        except (OSError, ValueError):
            return None
        got = value if isinstance(value, dict) else {}
        origin, digest = got.get("origin"), got.get("source_hash")
        return cls(origin, digest) if isinstance(origin, str) and isinstance(digest, str) else None

    def to_bytes(self) -> bytes:
        import json

        return (json.dumps(self._asdict(), indent=2) + "\n").encode("ascii")


def import_origin(
    copy: Path,
    scope: Scope,
    layout: Layout,
    *,
    bounded: bool = True,
    record: ImportRecord | None = None,
) -> Path | None:
    """The folder the store skill ``copy`` (of the ``scope`` store) was imported from, when
    it is still there (of the same name, holding ``SKILL.md``): where its author edits it,
    and what ``build --all`` imports again. A project store copy's import record is a file
    of the project (a checkout may ship one), so there only a folder inside the project
    counts: a record cannot make skillc copy (or write) a folder from elsewhere (not
    ``bounded``: the folder wherever it is, what the next import of it replaces the copy
    with). ``record``: the copy's record, when the caller has read it already. Raises
    :class:`~skillc_index.diagnostics.UnreadableFile` (E999, its ``path`` the folder) when
    the folder may be there but cannot be searched (a folder above it of mode 000): neither
    gone nor readable, which each caller tells apart (``build --all`` fails that skill
    alone, ``skc list`` warns, never advising a removal)."""
    from skillc_index.files import is_file, real_path, within

    record = ImportRecord.read(copy) if record is None else record
    folder = None if record is None else record.folder(copy)
    origin = None if folder is None else Path(real_path(folder))
    bound = layout.project_root if scope == "project" and bounded else None
    if (
        origin is None
        or origin.name != copy.name
        or (bound is not None and not within(origin, bound))
        or not is_file(origin / SKILL_FILE, denied=True)
    ):
        return None
    return origin


def origin_gone(
    name: str, copy: Path, record: ImportRecord, layout: Layout, real: Path | None = None
) -> str | None:
    """The warning of the store copy ``copy`` (the skill ``name``, its record ``record``;
    ``real``: its real path, when the caller has it)
    when the folder it was imported from no longer holds a skill (renamed or deleted: the
    copy's stub is still deployed, and ``build --all`` builds the copy as it is), with how to
    remove the copy or keep it as it is; None when the folder is there. ``skc list`` and a
    build of the copy say it alike. Raises :class:`~skillc_index.diagnostics.UnreadableFile`
    when the folder cannot be read (a folder above it of mode 000): it may well be there."""
    from shlex import quote

    from skillc_index.files import is_file

    folder = record.folder(Path(os.path.realpath(copy)) if real is None else real)
    # (a name too long: not there)
    if folder is not None and is_file(folder / SKILL_FILE, denied=True):
        return None
    how = (
        f"to remove it: rm -r {quote(str(copy))}, then its deployments (skc list "
        f"says how); to keep it as it is: rm {quote(str(copy / IMPORT_RECORD))}"
    )
    where = layout.display(copy)
    return f"skill '{name}' ({where}) was imported from {record.origin}, which is gone ({how})"


def walk_origin(origin: Path) -> OriginWalk:
    """The folder ``origin`` walked as an import reads it (:func:`~skillc_index.files.
    walk_skill`, with its folders and the ``.gitignore`` rules met): once for
    :func:`unchanged_since_import` and :func:`~skillc_index.build.origin.read_origin` alike."""
    from skillc_index.skill_files import walk_skill

    dirs: list[str] = []
    rules: list[IgnoreRules] = []
    return walk_skill(origin, dirs=dirs, rules=rules), dirs, rules


def unchanged_since_import(copy: Path, origin: Path, walked: OriginWalk) -> bool:
    """Whether file stats prove that the folder ``origin`` (:func:`walk_origin`'s ``walked``)
    holds what was imported from it into the store ``copy`` (no file read): the same files
    and the same ``.gitignore`` files (hidden, no part of its hash, yet an import copies them
    and ``build --all`` imports the folder again when one changed), each of the size and
    modification time of its copy (an import keeps them) and last changed before its copy
    was written. False when only reading the folder can tell (``skc list`` then does: an
    edited, added or removed file, a copy edited in place)."""
    from skillc_index.skill_files import walk_skill

    found, dirs, _ = walked
    copy_dirs: list[str] = []
    files = found.every
    if set(files) != set(walk_skill(copy, dirs=copy_dirs).every):
        return False
    ignores = _ignore_files(origin, dirs)
    if ignores != _ignore_files(copy, copy_dirs):
        return False
    for rel in (*files, *ignores):
        try:
            there, here = os.stat(f"{origin}/{rel}"), os.stat(f"{copy}/{rel}")  # noqa: PTH116
        except OSError:
            return False
        same = (there.st_size, there.st_mtime_ns) == (here.st_size, here.st_mtime_ns)
        if not same or there.st_ctime_ns >= here.st_ctime_ns:
            return False
    return True


def recovered(store_copy: Path) -> bool:
    """Whether a store copy that was missing has just been put back from where a killed
    import left it (checked only when a store lookup misses; the store listed once while
    it is unchanged: :func:`~skillc_index.hidden_entries.hidden_entries`)."""
    from skillc_index.hidden_entries import hidden_entries

    parent = store_copy.parent
    hidden = hidden_entries(parent)
    prefix = f".{store_copy.name}.old."
    if hidden is None or not any(name.startswith(prefix) for name in hidden):
        return False
    from skillc_index.build.store import recover_stranded

    recover_stranded(parent, store_copy.name)
    return store_copy.is_dir()


def _ignore_files(root: Path, folders: list[str]) -> set[str]:
    """The regular ``.gitignore`` files of the skill at ``root`` and of its ``folders``, which
    an import copies (:func:`~skillc_index.build.store.git_view`'s ``ignores``)."""
    from skillc_index.glob import ignore_files

    return {rel for rel, link in ignore_files(os.path.realpath(root), folders) if not link}


def imported_copy(source: Path, layout: Layout, force_global: bool) -> Path | None:
    """The store copy (canonical) whose import record names the folder ``source`` as its
    origin, in the stores ``source`` may have been imported into: the project store, then
    the global one (``skc build <folder> --global`` imports there); with ``force_global``
    the global one only. None when neither holds one."""
    for scope in ("global",) if force_global else layout.scopes():
        copy = layout.store(scope) / source.name
        record = ImportRecord.read(copy)
        if record is None and not copy.exists() and recovered(copy):
            record = ImportRecord.read(copy)
        if record is not None and record.folder(copy) == source and (copy / SKILL_FILE).is_file():
            return copy.resolve()
    return None
