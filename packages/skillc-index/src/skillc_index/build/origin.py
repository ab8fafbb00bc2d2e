"""The folder a store copy was imported from, which a build imports again: read as an import
reads it (:func:`read_origin`), and whether the copy still holds what importing it again would
make (:func:`import_current`, the one test of ``build --all`` and ``skc list``'s ``stale``)."""

from __future__ import annotations

from pathlib import Path
from typing import NamedTuple

from skillc_index.build.store import (
    GitView,
    origin_view,
    same_for_git,
)
from skillc_index.diagnostics import Notice, SkillcError
from skillc_index.digests import source_hash
from skillc_index.import_record import (
    ImportRecord,
    OriginWalk,
    import_origin,
    origin_gone,
    walk_origin,
)
from skillc_index.layout import (
    Layout,
    ResolvedSkill,
    Scope,
    runtime_for,
)
from skillc_index.skill_files import SkillFiles

__all__ = ["Origin", "built_folder", "from_origin", "import_current", "read_origin"]


class Origin(NamedTuple):
    """What :func:`from_origin` learnt of the folder a store copy was imported from, which the
    import plan then takes rather than reading and hashing it again."""

    files: SkillFiles
    digest: str
    """Its source hash (of ``files.every``, as the import record's)."""
    record: ImportRecord
    """The store copy's import record."""
    view: GitView
    """Its :class:`~skillc_index.build.store.GitView`."""


def read_origin(
    origin: Path, record: ImportRecord, layout: Layout, walked: OriginWalk | None = None
) -> Origin:
    """The folder ``origin`` a store copy whose import record is ``record`` was imported from,
    read as an import of it reads it (``walked``: :func:`~skillc_index.import_record.
    walk_origin`'s, when the caller walked it): its files (without what git ignores there by
    rules its copy would not carry), hashed, and its view. What :func:`import_current`
    compares with the copy. E070 for ``.gitignore`` files over their bounds; ``OSError`` for
    a file that cannot be read."""
    found, dirs, rules = walk_origin(origin) if walked is None else walked
    files, view = origin_view(origin, found, dirs, layout.display(origin), rules)
    return Origin(files, source_hash(origin, files.every), record, view)


def import_current(copy: Path, scope: Scope, origin: Path, known: Origin, layout: Layout) -> bool:
    """Whether the store ``copy`` (of the ``scope`` store) holds what importing the folder
    ``origin`` again (read: ``known``, :func:`read_origin`) would make of it: the same
    source hash as its record's, the same for git (:func:`~.store.same_for_git`: its
    ``.gitignore`` files, the links to what they exclude, its executable files), and a
    record of today's form. When not, ``build --all`` imports the folder again (and builds
    it) and ``skc list`` says ``stale``: the one test of both."""
    return (
        known.digest == known.record.source_hash
        and same_for_git(copy, known.files.every, known.view)
        and known.record.origin == ImportRecord.recorded(origin, scope, layout)
    )


def from_origin(
    resolved: ResolvedSkill, layout: Layout, force_global: bool
) -> tuple[ResolvedSkill, Origin | None]:
    """A store copy imported from a folder is built from that folder, imported again (so the
    edits made there are built), however it was named: the folder itself, into the store a
    build of the folder imports into (its copy may be the other one's); the store skill (by
    name, by its path, ``--all``), into its own store when the folder is still there (for the
    project store, a folder inside the project only: :func:`import_origin`) and changed
    since it was imported, or its record is of an older form (absolute, which the import
    writes relative again) (else the store skill is built as it is, edited in place say): the
    folder's files, hash and the copy's record are then handed back with it. A store skill
    whose folder is gone (renamed or deleted) is built as it is with ``skc list``'s warning
    (:func:`~skillc_index.import_record.origin_gone`) among its notices."""
    origin = resolved.imported_from
    known = None
    if origin is not None:
        scope, runtime, _ = runtime_for(origin, layout, force_global=force_global)
    elif resolved.in_store:
        real = resolved.source  # (canonical)
        named = (resolved.name, layout.store(resolved.scope) / real.name)
        record = ImportRecord.read(real)
        if record is not None:
            origin = import_origin(resolved.source, resolved.scope, layout, record=record)
            gone = None if origin is not None else origin_gone(*named, record, layout, real)
            if gone is not None:  # built as it is, said as skc list says it
                resolved = resolved._replace(notices=(*resolved.notices, Notice(gone)))
        if origin is not None and record is not None:
            known = read_origin(origin, record, layout)
            if import_current(resolved.source, resolved.scope, origin, known, layout):
                origin = None
        scope, runtime = resolved.scope, resolved.runtime
    if origin is None:
        return resolved, None
    built = resolved._replace(
        source=origin, scope=scope, runtime=runtime, in_store=False, imported_from=None
    )
    return built, known


def built_folder(resolved: ResolvedSkill, layout: Layout) -> Path:
    """The folder a build of ``resolved`` (by its name) builds from (:func:`from_origin`): the
    folder a store copy was imported from when a build imports it again, else the store copy
    (or the folder named). What ``skc lint NAME`` checks: the folder the author edits, never an
    older copy. A folder a build cannot import (``OSError``: a file it cannot read; a
    :class:`~skillc_index.diagnostics.SkillcError`: E070, a ``.gitignore`` over its bounds)
    is still the one returned when it is there (lint reports what is wrong there)."""
    if resolved.imported_from is not None:
        return resolved.imported_from
    if not resolved.in_store:
        return resolved.source
    try:
        built, _ = from_origin(resolved, layout, force_global=False)
    except (OSError, SkillcError):
        return import_origin(resolved.source, resolved.scope, layout) or resolved.source
    return built.source
