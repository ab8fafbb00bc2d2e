"""Content hashes: SHA-256 of a file, of an open file's rest, of a skill's files and the
source hash over them (RFC-0001:C-MANIFEST), with CPython's built-in SHA-256 where there is
one (no OpenSSL loaded on the readers' paths).
"""

from __future__ import annotations

import os
from collections.abc import Callable, Iterable, Mapping
from pathlib import Path
from typing import IO, Any

from skillc_index.diagnostics import PathEscapesRoot
from skillc_index.files import (
    CHANGED_WHILE_READ,
    CHUNK,
    LFS_POINTER_MAX,
    _is_absolute,
    _join,
    fs_bytes,
    lfs_pointer,
    open_regular,
    typed_os_error,
)
from skillc_index.skill_files import walk_skill

__all__ = [
    "combine_digests",
    "executable",
    "file_digests",
    "file_sha256",
    "handle_sha256",
    "sha256_hasher",
    "source_hash",
]

_sha256: Callable[..., Any] | None = None


def executable(mode: int) -> bool:
    """Whether a file of ``st_mode`` ``mode`` is executable as git records it: its owner's
    execute bit (git's ``100755``). The one rule of build, deploy, an import, ``skc package``
    and lint's SKL908, so a file one of them calls executable is so for all."""
    return bool(mode & 0o100)


def sha256_hasher() -> Callable[..., Any]:
    """The SHA-256 constructor: CPython's built-in module (``_sha2``, ``_sha256`` before
    3.12), which spares a process loading OpenSSL through :mod:`hashlib` (about 3 ms, 11M
    instructions: the readers hash a path or a changed file or two), else hashlib's. The
    digests are the same. Looked up once per process."""
    global _sha256
    if _sha256 is None:
        try:
            from _sha2 import sha256  # type: ignore[import-not-found,unused-ignore]  # 3.12+
        except ImportError:
            try:
                from _sha256 import sha256  # type: ignore[import-not-found,no-redef,unused-ignore]
            except ImportError:  # a build without the built-in modules
                from hashlib import sha256
        _sha256 = sha256
    return _sha256


def handle_sha256(
    handle: IO[bytes], limit: int | None = None, into: Callable[[bytes], object] | None = None
) -> tuple[int, str]:
    """The size and SHA-256 hex digest of what is left of ``handle`` (``limit`` bytes at
    most), read in :data:`CHUNK`-byte pieces, each passed to ``into`` too when given."""
    digest, size = sha256_hasher()(), 0
    while (limit is None or size < limit) and (
        chunk := handle.read(CHUNK if limit is None else min(CHUNK, limit - size))
    ):
        digest.update(chunk)
        if into is not None:
            into(chunk)
        size += len(chunk)
    return size, str(digest.hexdigest())


def file_sha256(path: str, into: Callable[[bytes], object] | None = None) -> str:
    """The SHA-256 hex digest of a regular file's bytes (E021 for anything else: a FIFO
    never blocks; ``OSError`` when it cannot be read), each piece read passed to ``into``
    too when given."""
    with open_regular(path) as handle:
        return handle_sha256(handle, into=into)[1]


def _checked_names(files: Iterable[str]) -> list[str]:
    names = sorted(files, key=fs_bytes)
    for rel in names:
        if _is_absolute(rel) or ".." in rel.split("/"):
            raise PathEscapesRoot(rel)
    return names


def file_digests(
    root: Path, files: Iterable[str], pointers: list[str] | None = None
) -> dict[str, str]:
    """The :func:`file_sha256` of each of ``files`` (relative paths without ``..``, else
    :class:`PathEscapesRoot`), in bytewise order: what :func:`combine_digests` takes. The
    index keeps them (``files.sha256``), so that a changed file is all that is hashed again.
    One that cannot be read (no permission: mode 000) is :class:`UnreadableFile` naming it,
    one gone since it was listed E021 (:func:`~skillc_index.files.typed_os_error`).
    Given ``pointers``, the files whose bytes, as hashed, are a Git LFS pointer
    (:func:`~skillc_index.files.lfs_pointer`) are added to it: no second read."""
    root_real = os.path.realpath(root)
    digests: dict[str, str] = {}
    for rel in _checked_names(files):
        head = bytearray()  # the first LFS_POINTER_MAX + 1 bytes, when pointers is given

        def keep(chunk: bytes, head: bytearray = head) -> None:
            head += chunk[: LFS_POINTER_MAX + 1 - len(head)]

        try:
            digests[rel] = file_sha256(_join(root_real, rel), None if pointers is None else keep)
        except OSError as exc:
            raise typed_os_error(rel, exc, hint=CHANGED_WHILE_READ) from exc
        if pointers is not None and lfs_pointer(bytes(head)):
            pointers.append(rel)
    return digests


def combine_digests(digests: Mapping[str, str]) -> str:
    """The source hash (:func:`source_hash`) of files whose digests are ``digests`` (relative
    path -> SHA-256 hex digest of its bytes)."""
    digest = sha256_hasher()()
    for rel in sorted(digests, key=fs_bytes):
        digest.update(fs_bytes(f"{rel}\0{digests[rel]}\n"))
    return str(digest.hexdigest())


def source_hash(root: Path, files: Iterable[str] | None = None) -> str:
    """RFC-0001:C-MANIFEST: "SHA-256 over the sorted list of (relative_path, file_hash) pairs
    from the source directory".

    Exactly: for each relative path in bytewise order, ``file_hash`` is the SHA-256 hex digest
    of the file's bytes, and ``f"{rel}\\0{file_hash}\\n"`` (UTF-8) is fed into one SHA-256,
    whose hex digest is returned. ``files`` defaults to ``walk_skill(root).files``; a given
    list must hold relative paths without ``..`` (else :class:`PathEscapesRoot`).
    """
    names = walk_skill(root).files if files is None else files
    return combine_digests(file_digests(root, names))
