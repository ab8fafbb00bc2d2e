"""The build manifest (RFC-0001:C-MANIFEST) at ``<runtime>/.skillc-meta/manifest.json``."""

from __future__ import annotations

from dataclasses import dataclass
from pathlib import Path
from typing import TYPE_CHECKING, Any, cast

from skillc_index.layout import META_DIR, store_skill_name

if TYPE_CHECKING:
    from skillc_index.build.shapes import ManifestShape
    from skillc_index.index.freshness import IndexState
    from skillc_index.layout import ResolvedSkill

MANIFEST_FILE = "manifest.json"
MANIFEST_VERSION = 1
#: The most of a manifest read (skillc writes well under 4 KiB).
MAX_MANIFEST_BYTES = 1 << 20
#: The fields only the file holds, left out of a build's result (``--format json``, MCP
#: ``skc_build``): ``index_stat``, the index file's ``[size, mtime_ns]`` a build compares for
#: freshness, whose nanosecond time is above 2**53, which a JSON reader of doubles rounds.
FILE_ONLY = frozenset({"index_stat"})


def manifest_path(runtime: Path) -> Path:
    return runtime / META_DIR / MANIFEST_FILE


@dataclass(frozen=True)
class Manifest:
    """The fields RFC-0001 requires; ``extra`` keeps any others."""

    skill: str
    version: int
    built_at: str
    source_hash: str
    extra: dict[str, Any]

    def to_dict(self) -> ManifestShape:
        """The JSON object: the four RFC fields first, then the extra ones."""
        known = {
            "skill": self.skill,
            "version": self.version,
            "built_at": self.built_at,
            "source_hash": self.source_hash,
        }
        extra = {k: v for k, v in self.extra.items() if k not in known}
        return cast("ManifestShape", {**known, **extra})  # more keys than the shape's

    def result_dict(self) -> ManifestShape:
        """The manifest as a build's result shows it: :meth:`to_dict` without
        :data:`FILE_ONLY`."""
        data = self.to_dict()
        return cast("ManifestShape", {k: v for k, v in data.items() if k not in FILE_ONLY})


def manifest_bytes(manifest: Manifest) -> bytes:
    """What ``manifest.json`` holds for ``manifest``."""
    import json

    return (json.dumps(manifest.to_dict(), indent=2, ensure_ascii=False) + "\n").encode("utf-8")


def write_manifest(runtime: Path, manifest: Manifest) -> Path:
    """Write ``<runtime>/.skillc-meta/manifest.json`` atomically (a temporary file renamed
    over the old one), creating the folders; returns its path."""
    from skillc_index.atomic import ensure_dir, write_file_atomic

    path = manifest_path(runtime)
    ensure_dir(path.parent)
    write_file_atomic(path, manifest_bytes(manifest))
    return path


def read_manifest(runtime: Path) -> Manifest | None:
    """The runtime's manifest, or None when it is missing or not a valid manifest."""
    try:
        return load_manifest(runtime)
    except (OSError, ValueError):
        return None


def recorded_source(manifest: Manifest | None, name: str) -> str | None:
    """The store skill ``name`` a build's ``manifest`` records as its ``source_path``
    (absolute, ``<base>/.skillc/skills/<name>``), there or not; else None."""
    built_from = None if manifest is None else manifest.extra.get("source_path")
    if not isinstance(built_from, str) or store_skill_name(built_from) != name:
        return None
    return built_from if Path(built_from).is_absolute() else None


def load_manifest(runtime: Path) -> Manifest | None:
    """The runtime's manifest; None when there is none. A manifest is a file of a deployed
    copy, which a checkout may ship: read within bounds
    (:func:`~skillc_index.bounded_json.read_json_bounded`). Raises :class:`OSError` when it cannot
    be read, :class:`ValueError` when it is not a valid manifest (not JSON, too large or too
    deep, fields missing)."""
    from skillc_index.bounded_json import read_json_bounded

    try:
        data = read_json_bounded(manifest_path(runtime), max_bytes=MAX_MANIFEST_BYTES)
    except (FileNotFoundError, NotADirectoryError):
        return None
    if not isinstance(data, dict):
        raise ValueError("a manifest is a JSON object")
    skill, version = data.get("skill"), data.get("version")
    built_at, source_hash = data.get("built_at"), data.get("source_hash")
    if not (
        isinstance(skill, str)
        and isinstance(version, int)
        and not isinstance(version, bool)
        and isinstance(built_at, str)
        and isinstance(source_hash, str)
    ):
        raise ValueError("a manifest has skill, version, built_at and source_hash")
    known = {"skill", "version", "built_at", "source_hash"}
    extra = {k: v for k, v in data.items() if k not in known}
    return Manifest(skill, version, built_at, source_hash, extra)


def refuse_older_build(
    skill: str, state: IndexState, manifest: Manifest | None, *, force: bool
) -> None:
    """Before a build of ``skill`` writes its runtime (whose index the build found in
    ``state``, and whose manifest is ``manifest``): E003 for an index of another source (a
    hash collision); unless ``force``, E002 for an index a newer skillc wrote
    (:func:`~skillc_index.index.freshness.newer_index`), E999 for a manifest of a newer
    version or recording a newer stub format. Files a newer skillc wrote are never rewritten
    to this version's formats unasked (an old MCP server's ``skc_build`` and the new code
    would rebuild them in turn), as its route manifest, listing overrides and lint baseline;
    ``--force`` builds them again with this version."""
    from skillc_index.diagnostics import IndexCollision

    if state.status == "collision":
        raise IndexCollision(state.hash16)
    if force:
        return
    from skillc_index.command_errors import written_by_newer
    from skillc_index.index.freshness import newer_index

    again = "it is left as it is ('skc build --force' builds it again with this skillc)"
    if why := newer_index(state.meta):
        from skillc_index.diagnostics import IndexUnusable

        raise IndexUnusable(skill, f"it was {why}; {again}")
    if manifest is None:
        return
    from skillc_index.build.stub import STUB_FORMAT

    stub = manifest.extra.get("stub_format")
    if type(manifest.version) is int and manifest.version > MANIFEST_VERSION:
        why = written_by_newer("manifest version", manifest.version, MANIFEST_VERSION)
    elif type(stub) is int and stub > STUB_FORMAT:
        why = written_by_newer("stub format", stub, STUB_FORMAT)
    else:
        return
    from skillc_index.diagnostics import InternalError

    raise InternalError(f"cannot build '{skill}': its manifest was {why}; {again}")


def refuse_older_runtime(skill: ResolvedSkill, *, force: bool) -> None:
    """:func:`refuse_older_build` for the runtime of ``skill`` as it is now, its sources not
    read (:func:`~skillc_index.index.freshness.stored_index`): an import checks it before it
    writes the store copy the build then compiles, which the compile's own check came after
    (E002 for a newer skillc's index, with the copy already rewritten)."""
    from skillc_index.index.freshness import stored_index

    state = stored_index(skill.runtime, skill.source)
    refuse_older_build(skill.name, state, read_manifest(skill.runtime), force=force)
