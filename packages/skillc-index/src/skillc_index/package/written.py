"""The record of what ``skc package`` wrote into an output folder (:data:`MANIFEST`,
``.skillc-package.json``), its format in one place: read and written by the package run
(:func:`made_before`, :func:`record_bytes`), read by every walk for skills
(:func:`written_entries`: the copies a package holds are no source skills).

``{"version": 1, "files": {path: sha256 hex}, "made_folders": [name]}``: each file written,
by its path relative to the output folder (``/``-separated), with its digest (a list of two,
the earlier digest and the new one, while a run renames its files); and the top-level
folders the runs made (:data:`MADE_FOLDERS`: not there before a run wrote into them, as
``office`` of ``office/skills/pdf/SKILL.md`` in a project), which a walk leaves out, unlike a
folder of the user's a run wrote into (``-o .`` of a plugin named as the project's
``skills``). A record without ``version``, as written before, is version 1; one without
:data:`MADE_FOLDERS` (written before it) says nothing of the folders: a walk leaves out
each its files make, and the next run judges them (:func:`folders_made`). A record of a
newer format (its ``version`` above :data:`RECORD_VERSION`) is never rewritten
(:func:`made_before`: E999) nor read by a walk; one whose ``version`` is no whole number
(``"1"``) is no record to either (:func:`_version`)."""

from __future__ import annotations

import os
import stat
from collections.abc import Iterable, Mapping
from pathlib import Path
from typing import Any, NamedTuple

from skillc_index.walk import PACKAGE_RECORD

__all__ = [
    "MADE_FOLDERS",
    "MANIFEST",
    "MAX_RECORD_BYTES",
    "RECORD_VERSION",
    "Written",
    "folders_made",
    "made_before",
    "record_bytes",
    "written_entries",
]

MANIFEST = PACKAGE_RECORD
#: The record's key listing the top-level folders the package runs made (a list of names).
MADE_FOLDERS = "made_folders"
#: The format of :data:`MANIFEST` this version reads and writes.
RECORD_VERSION = 1
#: A larger record is not read (one of 10,000 files is about 1 MiB).
MAX_RECORD_BYTES = 1 << 20


def _read(folder: str | int) -> Any:
    """The JSON of :data:`MANIFEST` in ``folder`` (a path, or a descriptor of it): a regular
    file, no link, never blocking on a FIFO, at most :data:`MAX_RECORD_BYTES`
    (:func:`~skillc_index.bounded_json.read_json_bounded`). ``OSError`` or ``ValueError``
    when it cannot be read as that."""
    from skillc_index.bounded_json import read_json_bounded

    at, path = (folder, MANIFEST) if isinstance(folder, int) else (None, f"{folder}/{MANIFEST}")
    return read_json_bounded(path, max_bytes=MAX_RECORD_BYTES, dir_fd=at, follow=False)


def _files(data: object) -> dict[str, tuple[str, ...]]:
    """The record's paths, each with the digests skillc wrote there."""
    files = data.get("files") if isinstance(data, dict) else None
    if not isinstance(files, dict):
        return {}
    made = {}
    for rel, given in files.items():
        digests = [given] if isinstance(given, str) else given if isinstance(given, list) else []
        kept = tuple(digest for digest in digests[:3] if isinstance(digest, str))
        if isinstance(rel, str) and kept:
            made[rel] = kept
    return made


def _folders(data: object) -> frozenset[str] | None:
    """The record's :data:`MADE_FOLDERS`, each a plain name; None when it has no such key (a
    record written before it); none when its value is no list."""
    if not isinstance(data, dict) or MADE_FOLDERS not in data:
        return None
    given = data[MADE_FOLDERS]
    names = given if isinstance(given, list) else []
    return frozenset(
        name
        for name in names
        if isinstance(name, str) and "/" not in name and name not in {"", ".", ".."}
    )


def _version(data: object) -> int | None:
    """The record's format: its ``version`` (:data:`RECORD_VERSION` when it has none, as
    written before it); None when it is no record (no mapping) or its ``version`` is no whole
    number (``"1"``, ``true``, ``1.0``), which the package run and every walk alike read as
    no record."""
    if not isinstance(data, dict):
        return None
    version = data.get("version", RECORD_VERSION)
    return version if type(version) is int else None


class Written(NamedTuple):
    """What earlier runs wrote into an output folder, as its :data:`MANIFEST` says."""

    #: Each file's path -> the sha256 hex digests skillc wrote there (two when a run was
    #: stopped while renaming its files).
    files: dict[str, tuple[str, ...]]
    #: The top-level folders the runs made; None when the record does not say (no
    #: :data:`MADE_FOLDERS`, or no record).
    folders: frozenset[str] | None


def made_before(output: Path) -> Written:
    """What earlier runs wrote into ``output``, from its :data:`MANIFEST`; nothing when there
    is none or it cannot be read (its files then count as skillc did not write them). E999
    for a record a newer skillc wrote, left as it is: rewritten in this format, it lost what
    the newer one records (:func:`~skillc_index.command_errors.written_by_newer`)."""
    try:
        data = _read(str(output))
    except (OSError, ValueError):
        return Written({}, None)
    version = _version(data)
    if version is None:  # no record of this format: its files count as not skillc's
        return Written({}, None)
    if version > RECORD_VERSION:
        from skillc_index.command_errors import written_by_newer
        from skillc_index.diagnostics import InternalError

        why = written_by_newer("package record version", version, RECORD_VERSION)
        raise InternalError(
            f"the record of what skc package wrote '{output / MANIFEST}' is left as it is, "
            f"and nothing is written: {why}"
        )
    return Written(_files(data), _folders(data))


def _is_folder(path: Path) -> bool:
    """Whether ``path`` is a folder itself (no link to one)."""
    try:
        return stat.S_ISDIR(os.lstat(path).st_mode)
    except OSError:
        return False


def _only_recorded(folder: Path, files: Mapping[str, tuple[str, ...]]) -> bool:
    """Whether each entry of the top-level ``folder`` is one the record's ``files`` make
    (an earlier run made it, nothing of the user's beside): listed up to one entry more than
    they make, never past the record's bound."""
    from itertools import islice

    prefix = folder.name + "/"
    named = {rel[len(prefix) :].split("/", 1)[0] for rel in files if rel.startswith(prefix)}
    try:
        with os.scandir(folder) as listing:
            entries = [entry.name for entry in islice(listing, len(named) + 1)]
    except OSError:
        return False
    return bool(entries) and set(entries) <= named


def folders_made(output: Path, paths: Iterable[str], earlier: Written) -> frozenset[str]:
    """The top-level folders of ``output`` the package runs made, for the record a run
    writes (before it writes ``paths``): each of ``paths``' that is no folder yet (the run
    makes it), and each ``earlier`` made that is still a folder. An ``earlier`` record that
    does not say (written before :data:`MADE_FOLDERS`) made each folder its files make that
    holds nothing else (the user's folder a run wrote into holds the user's files too)."""
    tops = {rel.split("/", 1)[0] for rel in paths if "/" in rel}
    made = {top for top in tops if not _is_folder(output / top)}
    if earlier.folders is None:
        before = {rel.split("/", 1)[0] for rel in earlier.files if "/" in rel}
        kept = {top for top in before if _only_recorded(output / top, earlier.files)}
    else:
        kept = {top for top in earlier.folders if _is_folder(output / top)}
    return frozenset((made | kept) - {"", ".", ".."})


def record_bytes(made: Mapping[str, tuple[str, ...]], folders: Iterable[str]) -> bytes:
    """:data:`MANIFEST`'s bytes: a path's digest, or a list while its file is renamed (two;
    three for an index: :func:`~skillc_index.package.indexes.interim_index`'s too),
    and the top-level ``folders`` the runs made (:func:`folders_made`)."""
    import json

    record = {
        "version": RECORD_VERSION,
        "files": {rel: d[0] if len(d) == 1 else list(d) for rel, d in sorted(made.items())},
        MADE_FOLDERS: sorted(folders),
    }
    return (json.dumps(record, indent=2, ensure_ascii=False) + "\n").encode("utf-8")


def written_entries(folder: str | int) -> frozenset[str]:
    """The names of the entries of ``folder`` (a path, or a descriptor of it) that its
    :data:`MANIFEST` records as written by ``skc package``: each file it wrote there and each
    folder the runs made (:data:`MADE_FOLDERS`: ``office`` of ``office/skills/pdf/SKILL.md``
    in a project; a record without that list, written before it: each folder its files
    make), which no walk for skills enters; nothing else of the folder (it may be a
    project's root; a folder of the user's a run wrote into is walked). None at all, and
    nothing said, when the record is not there, cannot be read (a link, a FIFO, not JSON),
    is over :data:`MAX_RECORD_BYTES`, or a newer skillc wrote it (``version`` over
    :data:`RECORD_VERSION`). Called only for a folder whose listing holds :data:`MANIFEST`."""
    try:
        data = _read(folder)
    except (OSError, ValueError):
        return frozenset()
    version = _version(data)
    if version is None or version > RECORD_VERSION:
        return frozenset()
    files, folders = _files(data), _folders(data)
    if folders is None:  # a record written before MADE_FOLDERS: each folder its files make
        names = {rel.split("/", 1)[0] for rel in files}
    else:
        names = {rel for rel in files if "/" not in rel} | folders
    return frozenset(names - {"", ".", ".."})
