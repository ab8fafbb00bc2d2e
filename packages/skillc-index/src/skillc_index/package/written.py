"""The record of what ``skc package`` wrote into an output folder (:data:`MANIFEST`,
``.skillc-package.json``), its format in one place: read and written by the package run
(:func:`made_before`, :func:`record_bytes`), read by every walk for skills
(:func:`written_entries`: the copies a package holds are no source skills).

``{"version": 1, "files": {path: sha256 hex}}``: each file written, by its path relative
to the output folder (``/``-separated), with its digest (a list of two, the earlier digest
and the new one, while a run renames its files). A record without ``version``, as written
before, is version 1; one of a newer format (its ``version`` above :data:`RECORD_VERSION`) is
never rewritten (:func:`made_before`: E999) nor read by a walk."""

from __future__ import annotations

import os
import stat
from collections.abc import Mapping
from pathlib import Path
from typing import Any

__all__ = [
    "MANIFEST",
    "MAX_RECORD_BYTES",
    "RECORD_VERSION",
    "made_before",
    "record_bytes",
    "written_entries",
]

MANIFEST = ".skillc-package.json"
#: The format of :data:`MANIFEST` this version reads and writes.
RECORD_VERSION = 1
#: A larger record is not read (one of 10,000 files is about 1 MiB).
MAX_RECORD_BYTES = 1 << 20
_OPEN = (
    os.O_RDONLY
    | getattr(os, "O_NOFOLLOW", 0)
    | getattr(os, "O_NONBLOCK", 0)
    | getattr(os, "O_CLOEXEC", 0)
)


def _read(folder: str | int) -> Any:
    """The JSON of :data:`MANIFEST` in ``folder`` (a path, or a descriptor of it): a regular
    file, no link, never blocking on a FIFO, at most :data:`MAX_RECORD_BYTES`. ``OSError``
    or ``ValueError`` when it cannot be read as that."""
    from skillc_index.bounded_json import loads_bounded

    if isinstance(folder, int):
        fd = os.open(MANIFEST, _OPEN, dir_fd=folder)
    else:
        fd = os.open(os.path.join(folder, MANIFEST), _OPEN)  # noqa: PTH118
    try:
        if not stat.S_ISREG(os.fstat(fd).st_mode):
            raise ValueError("not a regular file")
        with os.fdopen(os.dup(fd), "rb") as handle:
            data = handle.read(MAX_RECORD_BYTES + 1)
    finally:
        os.close(fd)
    return loads_bounded(data, max_bytes=MAX_RECORD_BYTES)


def _files(data: object) -> dict[str, tuple[str, ...]]:
    """The record's paths, each with the digests skillc wrote there."""
    files = data.get("files") if isinstance(data, dict) else None
    if not isinstance(files, dict):
        return {}
    made = {}
    for rel, given in files.items():
        digests = [given] if isinstance(given, str) else given if isinstance(given, list) else []
        kept = tuple(digest for digest in digests[:2] if isinstance(digest, str))
        if isinstance(rel, str) and kept:
            made[rel] = kept
    return made


def _newer(data: object) -> int | None:
    """The ``version`` of a record a newer skillc wrote, or None."""
    version = data.get("version", RECORD_VERSION) if isinstance(data, dict) else None
    return version if type(version) is int and version > RECORD_VERSION else None


def made_before(output: Path) -> dict[str, tuple[str, ...]]:
    """What earlier runs wrote into ``output`` (path -> the sha256 hex digests skillc wrote
    there: two when a run was stopped while renaming its files), from :data:`MANIFEST`;
    ``{}`` when there is none or it cannot be read (its files then count as skillc did not
    write them). E999 for a record a newer skillc wrote, left as it is: rewritten in this
    format, it lost what the newer one records
    (:func:`~skillc_index.command_errors.written_by_newer`)."""
    try:
        data = _read(str(output))
    except (OSError, ValueError):
        return {}
    newer = _newer(data)
    if newer is not None:
        from skillc_index.command_errors import written_by_newer
        from skillc_index.diagnostics import InternalError

        why = written_by_newer("package record version", newer, RECORD_VERSION)
        raise InternalError(
            f"the record of what skc package wrote '{output / MANIFEST}' is left as it is, "
            f"and nothing is written: {why}"
        )
    return _files(data)


def record_bytes(made: Mapping[str, tuple[str, ...]]) -> bytes:
    """:data:`MANIFEST`'s bytes: a path's digest, or a list of two while its file is renamed."""
    import json

    record = {
        "version": RECORD_VERSION,
        "files": {rel: d[0] if len(d) == 1 else list(d) for rel, d in sorted(made.items())},
    }
    return (json.dumps(record, indent=2, ensure_ascii=False) + "\n").encode("utf-8")


def written_entries(folder: str | int) -> frozenset[str]:
    """The names of the entries of ``folder`` (a path, or a descriptor of it) that its
    :data:`MANIFEST` records as written by ``skc package``: each file it wrote there and each
    folder its files make (``office`` of ``office/skills/pdf/SKILL.md``), which no walk for
    skills enters; nothing else of the folder (it may be a project's root). None at all, and
    nothing said, when the record is not there, cannot be read (a link, a FIFO, not JSON),
    is over :data:`MAX_RECORD_BYTES`, or a newer skillc wrote it (``version`` over
    :data:`RECORD_VERSION`). Called only for a folder whose listing holds :data:`MANIFEST`."""
    try:
        data = _read(folder)
    except (OSError, ValueError):
        return frozenset()
    version = data.get("version", RECORD_VERSION) if isinstance(data, dict) else None
    if type(version) is not int or version > RECORD_VERSION:
        return frozenset()
    names = {rel.split("/", 1)[0] for rel in _files(data)}
    return frozenset(names - {"", ".", ".."})
