"""The files of a skill's source folder and the source hash (RFC-0001:C-MANIFEST).

:func:`walk_skill` is the one definition of "the files of a skill": every consumer (build,
the source hash, lint, ``list --check-obsolete``) uses it, so they all agree on what counts.
:func:`safe_join` is the one place a user-given relative path is turned into a filesystem
path, refusing anything that resolves outside the skill (E012).
"""

from __future__ import annotations

import errno
import os
import stat
from collections.abc import Iterable
from pathlib import Path
from typing import NamedTuple

from skillc_index._diagnostics import (
    PathEscapesRoot,
    PathNotFound,
    SkillFileNotFound,
)

__all__ = [
    "SkillFiles",
    "fs_bytes",
    "path_from_db",
    "path_to_db",
    "safe_join",
    "source_hash",
    "sqlite_uri",
    "walk_skill",
    "within",
]

_CHUNK = 1 << 20


class SkillFiles(NamedTuple):
    """What :func:`walk_skill` found under a skill root."""

    files: tuple[str, ...]
    """Relative POSIX paths of regular files (symlinks to files inside the root included),
    sorted bytewise."""
    escapes: tuple[str, ...]
    """Relative paths of symlinks whose target resolves outside the root (not in ``files``),
    sorted bytewise."""


def fs_bytes(path: str) -> bytes:
    """The bytes of a path as the file system has them (names that are not UTF-8 included):
    what every "bytewise order" of the kit sorts by, and what path hashes hash."""
    return path.encode("utf-8", "surrogateescape")


def sqlite_uri(path: Path, mode: str) -> str:
    """A SQLite URI opening ``path`` (made absolute; ``%``, ``?`` and ``#`` escaped, which is
    what ``Path.as_uri`` gives without importing ``urllib``) in ``mode`` (``ro``, ``rw``)."""
    text = os.path.abspath(path)  # noqa: PTH100 - a str is wanted
    for char, escaped in (("%", "%25"), ("?", "%3f"), ("#", "%23")):
        text = text.replace(char, escaped)
    return f"file:{text}?mode={mode}"


def path_to_db(rel: str) -> str | bytes:
    """A relative path as the index stores it: text, or its file-system bytes (a BLOB) when
    the name is not UTF-8, so that it can still be found again (:func:`path_from_db`)."""
    try:
        rel.encode("utf-8")
    except UnicodeEncodeError:
        return fs_bytes(rel)
    return rel


def path_from_db(value: object) -> str:
    """Inverse of :func:`path_to_db`."""
    if isinstance(value, bytes):
        return value.decode("utf-8", "surrogateescape")
    return str(value)


def _join(base: str, rel: str) -> str:
    """``base/rel`` as a string (``os.path`` speed, without ``Path`` objects in hot loops)."""
    return base.rstrip(os.sep) + os.sep + rel


def _is_absolute(rel: str) -> bool:
    return rel.startswith(("/", os.sep)) or Path(rel).is_absolute()


def _inside(path: str, root: str) -> bool:
    """Whether canonical ``path`` is ``root`` or below it (both from ``os.path.realpath``)."""
    if path == root:
        return True
    prefix = root if root.endswith(os.sep) else root + os.sep
    return path.startswith(prefix)


def within(path: Path | str, root: Path | str) -> bool:
    """Whether ``path`` is ``root`` or below it once both are real paths (symlinks followed,
    as far as they exist): where a write to ``path`` would land, compared with ``root``."""
    return _inside(os.path.realpath(path), os.path.realpath(root))


def walk_skill(root: Path) -> SkillFiles:
    """The regular files under ``root``, skipping every name that starts with ``.``.

    Hidden files and folders (``.git``, ``.skillc-meta``, ``.github``...) are skipped at any
    depth. A symlink whose target is inside the root counts as what it points to (a file, or
    a folder that is walked); one whose target is outside is reported in ``escapes`` and never
    followed (even when that target does not exist: it still points out of the skill); a
    broken one pointing inside is skipped. A folder symlink that leads back to a folder already on
    the current walk path (a cycle) is not entered again. Other entries (sockets, FIFOs,
    devices) are ignored.
    """
    root_real = os.path.realpath(root)
    files: list[str] = []
    escapes: list[str] = []
    # (real folder path, relative prefix, real paths of the folders on the walk path to it)
    stack: list[tuple[str, str, frozenset[str]]] = [(root_real, "", frozenset((root_real,)))]
    while stack:
        folder, prefix, ancestors = stack.pop()
        try:
            entries = os.scandir(folder)
        except OSError:
            continue
        with entries:
            for entry in entries:
                name = entry.name
                if name.startswith("."):
                    continue
                rel = prefix + name
                try:
                    if not entry.is_symlink():
                        if entry.is_file(follow_symlinks=False):
                            files.append(rel)
                        elif entry.is_dir(follow_symlinks=False):
                            real = _join(folder, name)
                            stack.append((real, rel + "/", ancestors | {real}))
                        continue
                    target = os.path.realpath(entry.path)
                    if not _inside(target, root_real):
                        escapes.append(rel)
                        continue
                    mode = entry.stat().st_mode  # follows the symlink, known to stay inside
                except OSError:  # broken symlink, symlink loop, vanished entry
                    continue
                if stat.S_ISREG(mode):
                    files.append(rel)
                elif stat.S_ISDIR(mode) and target not in ancestors:
                    stack.append((target, rel + "/", ancestors | {target}))
    files.sort(key=fs_bytes)
    escapes.sort(key=fs_bytes)
    return SkillFiles(tuple(files), tuple(escapes))


def _file_sha256(path: str) -> str:
    import hashlib  # here, not at module level: readers that only walk never pay for OpenSSL

    digest = hashlib.sha256()
    with open(path, "rb") as handle:
        while chunk := handle.read(_CHUNK):
            digest.update(chunk)
    return digest.hexdigest()


def source_hash(root: Path, files: Iterable[str] | None = None) -> str:
    """RFC-0001:C-MANIFEST: "SHA-256 over the sorted list of (relative_path, file_hash) pairs
    from the source directory".

    Exactly: for each relative path in bytewise order, ``file_hash`` is the SHA-256 hex digest
    of the file's bytes, and ``f"{rel}\\0{file_hash}\\n"`` (UTF-8) is fed into one SHA-256,
    whose hex digest is returned. ``files`` defaults to ``walk_skill(root).files``; a given
    list must hold relative paths without ``..`` (else :class:`PathEscapesRoot`).
    """
    root_real = os.path.realpath(root)
    if files is None:
        names: list[str] = list(walk_skill(root).files)
    else:
        names = sorted(files, key=fs_bytes)
        for rel in names:
            if _is_absolute(rel) or ".." in rel.split("/"):
                raise PathEscapesRoot(rel)
    import hashlib

    digest = hashlib.sha256()
    for rel in names:
        file_hash = _file_sha256(_join(root_real, rel))
        digest.update(fs_bytes(f"{rel}\0{file_hash}\n"))
    return digest.hexdigest()


def safe_join(root: Path, rel: str, missing: type[PathNotFound] = SkillFileNotFound) -> Path:
    """``rel`` resolved against ``root``, symlinks followed; E012 if it lands outside.

    Raises :class:`PathEscapesRoot` for an absolute ``rel`` and for any path whose canonical
    form is not ``root`` or below it (``../x``, ``a/../../x``, a symlink pointing outside).
    The result need not exist, but it must be able to: a path no file can have (a NUL byte, a
    name or path too long for the file system, a symlink loop) raises ``missing`` (E021 by
    default; E022 for callers that want a folder), never ``ValueError`` or ``OSError``.
    """
    if "\0" in rel:
        raise missing(rel.replace("\0", "\\0"), "a path cannot hold a NUL byte")
    if _is_absolute(rel):
        raise PathEscapesRoot(rel)
    root_real = os.path.realpath(root)
    resolved = os.path.realpath(_join(root_real, rel))
    if not _inside(resolved, root_real):
        raise PathEscapesRoot(rel)
    try:
        os.stat(resolved)  # noqa: PTH116 - a str is at hand
    except OSError as exc:
        if exc.errno not in (errno.ENOENT, errno.ENOTDIR):  # ENAMETOOLONG, ELOOP, EACCES...
            raise missing(rel, exc.strerror or str(exc)) from None
    return Path(resolved)
