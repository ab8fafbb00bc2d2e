"""Writing files and folders so that nobody ever sees half of one: everything is written under
a temporary name in the destination's own folder (same file system), then renamed.

Nothing is fsync'ed: that would cost more than the rest of a small build, and the files are
derived data. After a crash of the whole machine, the worst case is an empty or stale stub,
manifest or index, which the next ``skc build`` detects (stub checksum, unreadable manifest,
corrupt index) and writes again.

Temporary names start with ``.`` so that stores and runtimes being listed skip them; they are
created with the default permissions (the umask applies), unlike :mod:`tempfile`'s private
``0600``/``0700``, because they become the real files and folders.
"""

from __future__ import annotations

import os
from pathlib import Path

__all__ = ["ensure_dir", "staging_dir", "temporary_path", "write_file_atomic"]


def ensure_dir(path: Path) -> None:
    """Create ``path`` and its parents unless it is already a folder (checked first: on some
    file systems a ``mkdir`` that fails costs far more than a ``stat``)."""
    if not path.is_dir():
        path.mkdir(parents=True, exist_ok=True)


def temporary_path(parent: Path, prefix: str) -> Path:
    """A hidden name in ``parent`` that nothing uses yet (almost surely: callers create it
    exclusively)."""
    return parent / f".{prefix}.{os.getpid()}-{os.urandom(4).hex()}"


def staging_dir(parent: Path, prefix: str) -> Path:
    """A new empty hidden folder in ``parent`` (created if needed), to be renamed later."""
    ensure_dir(parent)
    while True:
        path = temporary_path(parent, prefix)
        try:
            path.mkdir()
        except FileExistsError:
            continue
        return path


def write_file_atomic(path: Path, data: bytes) -> None:
    """Replace ``path`` with ``data`` in one rename (the folder must exist)."""
    temporary = temporary_path(path.parent, path.name + ".tmp")
    fd = os.open(temporary, os.O_WRONLY | os.O_CREAT | os.O_EXCL, 0o666)
    try:
        with os.fdopen(fd, "wb") as handle:
            handle.write(data)
        temporary.replace(path)
    except BaseException:
        temporary.unlink(missing_ok=True)
        raise
