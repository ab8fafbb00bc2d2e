"""The route's record: the manifest ``<base>/.skillc/router/<agent>.json``, one
:class:`MoveRecord` per move (name, kind, the moved entry's device and inode, which a
rename keeps, and what it held, which a copy keeps: :func:`content_of`), the names of the
runtimes ``install`` built that were not there before (``runtimes``: ``uninstall`` removes
those, and only those), and what each runtime that was there before held
(``runtimes_held``: ``uninstall`` removes from it what install added).

The manifest is written *before* anything moves, so an interrupted run is finished by running
the command again: a recorded entry is where the record says (moved) or still in the folder
(planned again), whichever the file system shows (:func:`is_ours`). A checkout may ship a
manifest: it is read within bounds, and one that is not valid is E999 naming the file.
"""

from __future__ import annotations

import json
import os
from collections.abc import Callable, Mapping
from pathlib import Path
from types import MappingProxyType
from typing import Any, Literal, NamedTuple

from skillc_index.atomic import ensure_dir, write_file_atomic
from skillc_index.diagnostics import InternalError, SkillcError
from skillc_index.route.result import Kind

__all__ = [
    "MANIFEST_VERSION",
    "MoveRecord",
    "RouteManifest",
    "content_of",
    "folder_content",
    "identity_of",
    "is_ours",
    "lexists",
    "plain_name",
    "read_route_manifest",
    "seen",
    "write_route_manifest",
]

MANIFEST_VERSION = 1

#: The most of a route manifest read (an entry is ~80 bytes: 100,000 skills fit).
MAX_MANIFEST_BYTES = 16 << 20


class MoveRecord(NamedTuple):
    """One recorded move."""

    name: str
    kind: Kind
    dev: int
    ino: int
    content: str | None = None
    """What the entry held when the route last saw it at its place (:func:`content_of`):
    how it is known again once its inode changed (the project copied, or moved to another
    file system). None in a record written before its move, or by an earlier skillc."""

    def to_json(self) -> dict[str, Any]:
        data = {"name": self.name, "kind": self.kind, "dev": self.dev, "ino": self.ino}
        return data if self.content is None else {**data, "content": self.content}


class RouteManifest(NamedTuple):
    folder: str
    """The agent folder, relative to the base (where uninstall puts the skills back)."""
    state: Literal["installing", "installed"]
    records: tuple[MoveRecord, ...]
    router_sha256: str | None
    runtimes: tuple[str, ...] = ()
    """The runtimes (``<runtime store>/<name>``) install built where there was none: recorded
    before they are built, removed by uninstall once their skill is back in the agent
    folder. A runtime that was there before install is never one of them."""
    runtimes_held: Mapping[str, tuple[str, ...]] = MappingProxyType({})
    """Each runtime that was there before install of a skill it moved (read through the agent
    folder: its access log, its index) and what it held then: its entries, those of its
    ``.skillc-meta/`` as ``.skillc-meta/<name>``. Uninstall removes the others once the skill
    is back (:func:`~skillc_index.route.runtimes.restore_runtime`)."""
    made: tuple[str, ...] = ()
    """skillc's folders install made where there were none (``.skillc/skills``,
    ``.skillc/runtime``, relative to the base): uninstall removes each once it is empty
    again, and never one that was there before (:func:`~skillc_index.route.place.made_by_route`)."""
    gitignore: tuple[str, ...] = ()
    """The lines install added to the project's ``.gitignore`` (``/.skillc/router/``, the
    router's folder): uninstall takes them out once nothing is routed (``made`` holds
    ``.gitignore`` when install made the file)."""
    gitignore_newline: bool = False
    """Install ended the file's last line (it had no final newline) before adding its lines:
    uninstall takes that newline out again when its lines were the last."""


def read_route_manifest(path: Path) -> RouteManifest | None:
    """The route manifest at ``path`` (None: there is none). A checkout may ship one: read
    within bounds (:func:`~skillc_index.bounded_json.read_json_bounded`); one that cannot be read or
    is not valid is E999 naming the file: what is routed cannot be known."""
    from skillc_index.bounded_json import JsonRejected, read_json_bounded

    try:
        data = read_json_bounded(path, max_bytes=MAX_MANIFEST_BYTES)
    except FileNotFoundError:
        return None
    except OSError as exc:
        raise _unusable(path, _not_a_file(path) or exc.strerror or str(exc)) from None
    except JsonRejected as exc:
        raise _unusable(path, f"it is {exc}") from None
    except ValueError:
        raise _unusable(path, "it is not JSON" if _size(path) else "it is empty") from None
    if not isinstance(data, dict):
        raise _unusable(path, "it holds no route record (a JSON object was expected)")
    version = data.get("version")
    if type(version) is int and version > MANIFEST_VERSION:  # a newer skillc's: upgrade
        raise _unusable(path, "", newer=version)
    try:
        records = tuple(
            MoveRecord(item["name"], item["kind"], item["dev"], item["ino"], item.get("content"))
            for item in data["entries"]
        )
        if data.get("version") != MANIFEST_VERSION or any(
            not (isinstance(r.name, str) and plain_name(r.name))
            or r.kind not in ("folder", "deployment")
            or not all(type(number) is int for number in (r.dev, r.ino))
            or not isinstance(r.content, (str, type(None)))
            for r in records
        ):
            raise ValueError("unknown version or entry")
        if not isinstance(data["folder"], str):
            raise ValueError("folder is not a string")
        router = data.get("router_sha256")
        built = data.get("runtimes", [])  # none in manifests of earlier versions
        if not isinstance(built, list) or not all(
            isinstance(name, str) and plain_name(name) for name in built
        ):
            raise ValueError("runtimes is not a list of names")
        runtimes = tuple(built)
        held = data.get("runtimes_held", {})  # none in manifests of earlier versions
        if not isinstance(held, dict) or not all(
            isinstance(name, str)
            and plain_name(name)
            and isinstance(entries, list)
            and all(isinstance(entry, str) for entry in entries)
            for name, entries in held.items()
        ):
            raise ValueError("runtimes_held is not a map of names to entries")
        made = data.get("made", [])  # none in manifests of earlier versions
        if not isinstance(made, list) or not all(isinstance(rel, str) for rel in made):
            raise ValueError("made is not a list of folders")
        ignored = data.get("gitignore", [])  # none in manifests of earlier versions
        if not isinstance(ignored, list) or not all(isinstance(line, str) for line in ignored):
            raise ValueError("gitignore is not a list of lines")
        newline = data.get("gitignore_newline", False)  # none in manifests of earlier versions
        if not isinstance(newline, bool):
            raise ValueError("gitignore_newline is not a boolean")
        return RouteManifest(
            data["folder"],
            "installed" if data.get("state") == "installed" else "installing",
            records,
            router if isinstance(router, str) else None,
            runtimes,
            {name: tuple(entries) for name, entries in held.items()},
            tuple(made),
            tuple(ignored),
            newline,
        )
    except KeyError as exc:
        raise _unusable(path, f"its record has no {exc.args[0]!r}") from None
    except (AttributeError, TypeError):
        raise _unusable(path, "an entry of it is not a record of a move") from None
    except ValueError as exc:
        raise _unusable(path, f"its record is not valid: {exc}") from None


def _unusable(path: Path, reason: str, *, newer: int | None = None) -> InternalError:
    """E999 for the route manifest at ``path`` that cannot be used (``reason``, in the
    user's words), with what to do: which skills are routed cannot be known from it, and it
    is never overwritten; the skills behind the router are in the store (the folders moved)
    and the agent's parking folder (the deployments), where the user finds them. One a
    newer skillc wrote (``newer``, its version) is valid there: upgrade, nothing else."""
    from skillc_index.layout import STORE_FOLDER

    if newer is not None:
        from skillc_index.command_errors import written_by_newer

        why = written_by_newer("route manifest", newer, MANIFEST_VERSION)
        return InternalError(
            f"the route manifest '{path}' cannot be used: {why}; it is left as it is"
        )
    store = path.parent.parent / STORE_FOLDER
    parking = path.parent / path.stem
    return InternalError(
        f"the route manifest '{path}' cannot be used: {reason}; what is routed cannot be known "
        f"without it, and it is left as it is. Restore it (from git or a backup) and run the "
        f"command again; else move it aside and put the skills back by hand: the folders the "
        f"route moved are in '{store}', the deployments it parked in '{parking}'"
    )


def _not_a_file(path: Path) -> str | None:
    import stat

    from skillc_index.files import file_kind

    try:
        mode = path.stat().st_mode  # (read through a symlink, as the read was)
    except OSError:
        return None
    return None if stat.S_ISREG(mode) else f"it is {file_kind(mode)}, not a file"


def _size(path: Path) -> int:
    try:
        return path.stat().st_size
    except OSError:
        return 1


def write_route_manifest(path: Path, agent: str, manifest: RouteManifest) -> None:
    data = {
        "version": MANIFEST_VERSION,
        "agent": agent,
        "folder": manifest.folder,
        "state": manifest.state,
        "router_sha256": manifest.router_sha256,
        "entries": [record.to_json() for record in manifest.records],
        "runtimes": list(manifest.runtimes),
        "runtimes_held": {name: list(held) for name, held in manifest.runtimes_held.items()},
        "made": list(manifest.made),
        "gitignore": list(manifest.gitignore),
        "gitignore_newline": manifest.gitignore_newline,
    }
    try:
        ensure_dir(path.parent)
        write_file_atomic(path, (json.dumps(data, indent=2, ensure_ascii=False) + "\n").encode())
    except OSError as exc:  # a full disk: "cannot create '<manifest>'", not a bare OSError
        from skillc_index.command_errors import CannotCreate

        raise CannotCreate(str(exc.filename or path), exc.strerror or str(exc)) from exc


def plain_name(name: str) -> bool:
    """A name one entry of a folder can have, that is not hidden."""
    return bool(name) and not name.startswith(".") and "/" not in name and os.sep not in name


def identity_of(path: Path) -> tuple[int, int] | None:
    try:
        info = path.lstat()
    except OSError:
        return None
    return info.st_dev, info.st_ino


def lexists(path: Path) -> bool:
    return os.path.lexists(path)


def is_ours(
    record: MoveRecord, path: Path, content: Callable[[], str | None] | None = None
) -> bool:
    """Whether the entry at ``path`` is the one ``record`` moved: its device and inode, else
    (a copy of the project, or a move to another file system, gives every entry new ones)
    what it holds (:func:`content_of`): another entry under its name holds something else.
    ``content``, called only then, says what it holds when the caller knows that more
    cheaply than hashing the folder (the stats' readers: the source hash of the store
    skill's last build, :func:`~skillc_index.accesslog.moves.routed_moves`): a folder that
    replaced the one moved is then taken for it until it is built."""
    identity = identity_of(path)
    if identity is None:
        return False
    if identity == (record.dev, record.ino):
        return True
    if record.content is None:
        return False
    return (content_of(path, record.kind) if content is None else content()) == record.content


def seen(record: MoveRecord, path: Path, content: str | None = None) -> MoveRecord:
    """``record`` of the entry at ``path`` as it is now (its device, inode and content,
    ``content`` when the caller has it: a compile's source hash)."""
    identity = identity_of(path) or (record.dev, record.ino)
    return record._replace(
        dev=identity[0], ino=identity[1], content=content or content_of(path, record.kind)
    )


def folder_content(source_hash: str) -> str:
    """The :func:`content_of` a skill folder whose source hash is ``source_hash``."""
    return f"sha256:{source_hash}"


def content_of(path: Path, kind: Kind) -> str | None:
    """What the entry at ``path`` holds, as a route knows it again: a skill folder's source
    hash (``sha256:<hex>``, the one a build records; a folder larger than an index may be, or
    with a symlink leading out, is none), a parked link's text (``link:<text>``), a parked
    copy's store skill (``copy:<skill>``, while it is skillc's unedited copy of it). None
    when it is none of these or cannot be read."""
    try:
        if kind == "folder":
            if path.is_symlink() or not path.is_dir():
                return None
            from skillc_index.build.skill import _refuse_too_large
            from skillc_index.digests import source_hash
            from skillc_index.skill_files import walk_skill

            found = walk_skill(path)
            if found.escapes:
                return None
            _refuse_too_large(path.name, path, found)
            return folder_content(source_hash(path, found.files))
        if path.is_symlink():
            return f"link:{path.readlink()}"
        from skillc_index.build.deploy import is_skillc_copy
        from skillc_index.build.manifest import read_manifest

        manifest = read_manifest(path)
        if manifest is not None and is_skillc_copy(path, manifest.skill, manifest):
            return f"copy:{manifest.skill}"
    except (SkillcError, OSError):
        return None
    return None
