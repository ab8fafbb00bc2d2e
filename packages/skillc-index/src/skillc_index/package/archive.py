"""Archives with the same bytes for the same files (``skc package``, issue 37), and the bytes
of a package's files that stay on disk until they are written (:class:`Blob`).

A zip entry carries a time, permissions and the host system; :func:`zip_blob` fixes them
all: every entry dated 1980-01-01 00:00 (the earliest a zip can hold), ``0644`` or ``0755``
(executable), made on Unix, deflated at level 9, in the order of the paths (bytewise). The
same files give the same archive, so a package can be rebuilt and compared, and its digest
published. No file is held whole in memory: each is read, hashed, archived and copied in
:data:`CHUNK`-byte pieces, an archive of files over a piece built in a file of the run's
:class:`Spool` (in memory otherwise), closed once hashed.
"""

from __future__ import annotations

import errno
from collections.abc import Callable, Iterable
from contextlib import AbstractContextManager
from typing import IO, TYPE_CHECKING

if TYPE_CHECKING:
    from pathlib import Path

__all__ = [
    "CHUNK",
    "ArchiveEntry",
    "ArchiveTooLarge",
    "Blob",
    "Content",
    "Spool",
    "sha256_of",
    "size_of",
    "write_content",
    "zip_blob",
]

from skillc_index.digests import handle_sha256, sha256_hasher
from skillc_index.files import CHUNK, open_in_root
from skillc_index.record import Record

#: The earliest time a zip entry can hold.
_EPOCH = (1980, 1, 1, 0, 0, 0)


class Blob:
    """Bytes that stay on disk until they are written (a skill's file, an archive in a
    temporary file), read in :data:`CHUNK`-byte pieces from what ``opened()`` opens; ``size``
    and ``sha256`` (hex) are those read when it was made, which :meth:`copy_to` checks."""

    __slots__ = ("_opened", "name", "sha256", "size")

    def __init__(
        self,
        opened: Callable[[], AbstractContextManager[IO[bytes]]],
        name: str,
        size: int,
        sha256: str,
    ) -> None:
        self._opened, self.name, self.size, self.sha256 = opened, name, size, sha256

    @classmethod
    def in_skill(cls, handle: IO[bytes], root: str, rel: str, limit: int) -> Blob:
        """The skill's file ``rel`` (``handle``: open, at its start), hashed (its first
        ``limit`` bytes at most), reopened by :func:`~skillc_index.files.open_in_root`'s rules
        (no symlink out of ``root``, a regular file) when it is written."""
        from pathlib import Path

        size, digest = handle_sha256(handle, limit)
        return cls(lambda: open_in_root(Path(root), rel, real_root=root), rel, size, digest)

    @classmethod
    def spooled(cls, file: IO[bytes], path: str, name: str) -> Blob:
        """The bytes of the temporary ``file`` (a :class:`Spool`'s, at ``path``), hashed and
        closed: reopened by its path when written, so it holds no file open till then."""
        with file:
            file.seek(0)
            size, digest = handle_sha256(file)
        return cls(lambda: open(path, "rb"), name, size, digest)

    def copy_to(self, out: IO[bytes]) -> None:
        """Its bytes written into ``out``; ``OSError`` when they are not those it was made of
        (the file changed, grew, was removed or made a symlink since: the caller's output,
        written under a temporary name, is dropped)."""
        from skillc_index.diagnostics import PathEscapesRoot, PathNotFound, UnreadableFile

        try:
            with self._opened() as handle:  # one byte more: a file grown since
                size, digest = handle_sha256(handle, self.size + 1, out.write)
        except (PathEscapesRoot, PathNotFound):  # gone, a symlink out, not a file now
            raise self._changed() from None
        except UnreadableFile as exc:  # no permission now, too many files open
            number = getattr(exc.__cause__, "errno", None)
            raise OSError(number, f"cannot read {self.name}: {exc.reason}") from exc
        if size != self.size or digest != self.sha256:
            raise self._changed()

    def _changed(self) -> OSError:
        return OSError(errno.EAGAIN, f"{self.name} changed since it was read: package it again")


#: What a package file holds: its bytes, or a :class:`Blob` of them on disk.
Content = bytes | Blob


def sha256_of(content: Content) -> str:
    """The SHA-256 hex digest of ``content``'s bytes."""
    if isinstance(content, Blob):
        return content.sha256
    return str(sha256_hasher()(content).hexdigest())


def size_of(content: Content) -> int:
    return content.size if isinstance(content, Blob) else len(content)


def write_content(content: Content, out: IO[bytes]) -> None:
    """``content``'s bytes written into ``out`` (:meth:`Blob.copy_to`'s ``OSError``)."""
    if isinstance(content, Blob):
        content.copy_to(out)
    else:
        out.write(content)


class Spool:
    """The temporary folder of one run's archives over a piece (:func:`zip_blob`), made for
    the first of them and removed with all it holds when the run ends (``with``): each is a
    file of its own there, closed once hashed, so a package of many holds one open at most.
    The folder is ``$TMPDIR/.skc-package.<pid>-<hex>`` (:func:`~skillc_index.atomic.staging_dir`):
    one a killed run left (SIGKILL reaches no clean-up) is removed by the next run's."""

    def __init__(self) -> None:
        self._folder: Path | None = None

    def __enter__(self) -> Spool:
        return self

    def __exit__(self, *exc: object) -> None:
        if self._folder is not None:
            import shutil

            from skillc_index.cores import release

            release(self._folder)
            shutil.rmtree(self._folder, ignore_errors=True)

    def new_file(self) -> tuple[str, IO[bytes]]:
        """The path of a new empty file in the folder, and the file open to write and read."""
        import os
        import tempfile

        if self._folder is None:
            from pathlib import Path

            from skillc_index.atomic import staging_dir

            self._folder = staging_dir(Path(tempfile.gettempdir()), "skc-package")
        fd, path = tempfile.mkstemp(".zip", dir=self._folder)
        return path, os.fdopen(fd, "w+b")


class ArchiveEntry(Record):
    """One file of an archive: its path inside, its bytes, whether it is executable."""

    path: str
    data: Content
    executable: bool = False


class ArchiveTooLarge(Exception):
    """The archive passed :func:`zip_blob`'s ``limit``: ``size`` bytes when it stopped."""

    def __init__(self, size: int) -> None:
        super().__init__(size)
        self.size = size


def zip_blob(
    entries: Iterable[ArchiveEntry], name: str, spool: Spool, limit: int | None = None
) -> Content:
    """A zip archive of ``entries`` (``name``: its path, for errors), the same bytes whenever
    the entries are the same: its bytes when the files hold a piece or less, else a
    :class:`Blob` of a file of ``spool``. :class:`ArchiveTooLarge` as soon as it passes
    ``limit`` bytes (the entries after that one are not compressed);
    :class:`~skillc_index.command_errors.CannotCreate` (E999) when it cannot be written (no
    room left, no file left to open) or an entry's file changed since it was read."""
    import io
    import sys
    import zipfile

    from skillc_index.command_errors import CannotCreate

    # writestr's compresslevel, which ZipFile.open(info, "w") takes from the entry
    level = "compress_level" if sys.version_info >= (3, 13) else "_compresslevel"
    ordered = sorted(entries, key=lambda item: item.path.encode("utf-8", "surrogateescape"))
    memory = io.BytesIO()
    try:
        # a piece or less in memory, else in a file of its own (closed once hashed)
        large = sum(size_of(entry.data) for entry in ordered) > CHUNK
        path, file = spool.new_file() if large else ("", memory)
        with file:
            with zipfile.ZipFile(file, "w") as archive:
                for entry in ordered:
                    info = zipfile.ZipInfo(entry.path, date_time=_EPOCH)
                    info.compress_type = zipfile.ZIP_DEFLATED
                    setattr(info, level, 9)
                    info.create_system = 3  # Unix: the permissions below are read
                    mode = 0o755 if entry.executable else 0o644
                    info.external_attr = (0o100000 | mode) << 16
                    with archive.open(info, "w") as into:
                        write_content(entry.data, into)
                    if limit is not None and file.tell() > limit:
                        raise ArchiveTooLarge(file.tell())
            if limit is not None and file.tell() > limit:  # (with its central directory)
                raise ArchiveTooLarge(file.tell())
            if not path:
                return memory.getvalue()
            return Blob.spooled(file, path, name)
    except OSError as exc:
        raise CannotCreate(name, exc.strerror or str(exc)) from exc
