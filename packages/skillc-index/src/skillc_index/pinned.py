"""A folder checked once, then changed only through a descriptor of it (:class:`Pinned`).

A command that checks a folder (an agent folder, a store, a runtime store: "really inside the
project") and then writes in it by path leaves a moment in which the folder, or one above it,
can be swapped for a symlink: the writes then land wherever the symlink leads. A
:class:`Pinned` folder is opened over the real path that was checked, walked from ``/`` one
name at a time without following a symlink (:func:`~skillc_index.atomic._open_folder`), and
every entry made, renamed or removed in it is named relative to that descriptor (``dir_fd``,
``src_dir_fd``/``dst_dir_fd``): whatever its path leads to later, they happen in this folder.
A symlink swapped in before the walk is ``OSError`` (``ENOTDIR``, ``ELOOP``): nothing done.
"""

from __future__ import annotations

import errno
import os
import stat
from collections.abc import Iterator, Mapping, Sequence
from contextlib import contextmanager, suppress
from pathlib import Path

from skillc_index.atomic import (
    _CLOEXEC,
    _FOLDER,
    _abandoned_in,
    _open_folder,
    move_aside,
    temporary_path,
)
from skillc_index.cores import mkdir_held, release

__all__ = ["Pinned"]


class Pinned:
    """A folder held by a descriptor (:attr:`fd`) for working in it by name; :attr:`path` is
    the path it was opened by, for messages and for the paths of what is in it. Closed at
    the end of a ``with`` block."""

    def __init__(self, fd: int, path: Path) -> None:
        self.fd = fd
        self.path = path

    @classmethod
    def at(cls, real: str | Path, *, make: bool = False, shown: Path | None = None) -> Pinned:
        """The folder at the real path ``real`` (absolute, the one checked: no symlink in it
        is followed, a swapped one is ``OSError``); with ``make``, the folders missing on the
        way are made, each in the one above it. ``shown``: the path :attr:`path` holds
        (default ``real``)."""
        path = Path(real) if shown is None else shown
        with naming(path):
            fd = _open_folder(Path(real), follow=False, make=make)
        return cls(fd, path)

    def __enter__(self) -> Pinned:
        return self

    def __exit__(self, *_exc: object) -> None:
        self.close()

    def close(self) -> None:
        if self.fd >= 0:
            os.close(self.fd)
            self.fd = -1

    def sub(self, name: str, *, make: bool = False) -> Pinned:
        """The folder ``name`` in this one (a symlink there is ``OSError``, never followed);
        with ``make``, made first when missing."""
        with naming(self.path / name):
            if make:
                with suppress(FileExistsError):
                    os.mkdir(name, dir_fd=self.fd)
            fd = os.open(name, _FOLDER | os.O_NOFOLLOW, dir_fd=self.fd)
        return Pinned(fd, self.path / name)

    def same(self, path: Path) -> bool:
        """Whether ``path`` leads (symlinks followed) to this very folder now (its device
        and inode): a read by path that decides what is done here is made only then."""
        try:
            there, here = os.stat(path), os.fstat(self.fd)  # noqa: PTH116
        except OSError:
            return False
        return (there.st_dev, there.st_ino) == (here.st_dev, here.st_ino)

    def holds(self, name: str, path: Path) -> bool:
        """Whether the entry ``name`` here is the file ``path`` leads to (device and inode):
        what a writer by path (SQLite) wrote landed in this folder."""
        try:
            here, there = self.lstat(name), os.stat(path)  # noqa: PTH116
        except OSError:
            return False
        return here is not None and (here.st_dev, here.st_ino) == (there.st_dev, there.st_ino)

    def lstat(self, name: str) -> os.stat_result | None:
        """The entry ``name``'s ``lstat``, None when there is none."""
        try:
            return os.stat(name, dir_fd=self.fd, follow_symlinks=False)
        except FileNotFoundError:
            return None

    def is_symlink(self, name: str) -> bool:
        found = self.lstat(name)
        return found is not None and stat.S_ISLNK(found.st_mode)

    def is_folder(self, name: str) -> bool:
        """Whether ``name`` is a folder itself (not a symlink to one)."""
        found = self.lstat(name)
        return found is not None and stat.S_ISDIR(found.st_mode)

    def rename(self, name: str, to: Pinned, new: str, *, replace: bool = True) -> None:
        """Rename the entry ``name`` to ``new`` in the folder ``to`` (this one or another);
        ``replace=False``: ``FileExistsError`` when ``new`` is taken, looked at just before
        (a rename replaces an empty folder or a file silently)."""
        if not replace and to.lstat(new) is not None:
            raise FileExistsError(errno.EEXIST, "destination exists", str(to.path / new))
        with naming(self.path / name):
            os.rename(name, new, src_dir_fd=self.fd, dst_dir_fd=to.fd)
        release(self.path / name)  # a staging folder moved in: held no more

    def symlink(self, text: str, name: str) -> None:
        with naming(self.path / name):
            os.symlink(text, name, target_is_directory=True, dir_fd=self.fd)

    def move_aside(self, name: str) -> str:
        """:func:`~skillc_index.atomic.move_aside` of the entry ``name``, in this folder."""
        return move_aside(self.path / name, self.fd).name

    def temporary(self, prefix: str) -> str:
        """A new empty hidden folder here (:func:`~skillc_index.atomic.temporary_path`'s
        name, made exclusively), its name."""
        while True:
            name = temporary_path(self.path, prefix).name
            try:
                with naming(self.path / name):
                    mkdir_held(self.path / name, self.fd)  # never swept while we run
            except FileExistsError:
                continue
            return name

    def abandoned(self, *prefixes: str, kinds: Sequence[str] = ()) -> list[str]:
        """The entries here a process that no longer runs left under a temporary name of
        ``prefixes``, or of any prefix ending in ``.<kind>`` of ``kinds``
        (:func:`~skillc_index.atomic.abandoned`); none when the folder cannot be listed
        (:func:`~skillc_index.atomic._abandoned_in`)."""
        return _abandoned_in(self.fd, prefixes, kinds)

    def sweep(self, *prefixes: str, kinds: Sequence[str] = ()) -> None:
        """Remove what killed runs left here under a temporary name of ``prefixes`` or
        ``kinds`` (:meth:`abandoned`), each as :meth:`remove` does; one that cannot be is
        left."""
        for stale in self.abandoned(*prefixes, kinds=kinds):
            with suppress(OSError):
                self.remove(stale)

    def write(self, files: Mapping[str, bytes], executable: frozenset[str] = frozenset()) -> None:
        """Write ``files`` (relative path -> bytes) as new files below this folder, their
        folders made as needed, each file and folder made in the one above it (never
        through a symlink); those of ``executable`` executable where readable."""
        for rel, data in files.items():
            *folders, name = rel.split("/")
            here = self
            try:
                for folder in folders:
                    below = here.sub(folder, make=True)
                    if here is not self:
                        here.close()
                    here = below
                flags = os.O_WRONLY | os.O_CREAT | os.O_EXCL | os.O_NOFOLLOW | _CLOEXEC
                with naming(self.path / rel):
                    fd = os.open(name, flags, 0o666, dir_fd=here.fd)
                with naming(self.path / rel), os.fdopen(fd, "wb") as handle:
                    handle.write(data)
                    if rel in executable:
                        mode = os.fstat(fd).st_mode
                        os.fchmod(fd, mode | (mode & 0o444) >> 2)
            finally:
                if here is not self:
                    here.close()

    def remove(self, name: str) -> None:
        """Remove the entry ``name``: a symlink or a file (only the link goes, never what it
        points to), or a folder with all it holds, each entry removed in the folder it is in
        (``os.fwalk``, which follows no symlink)."""
        release(self.path / name)
        with naming(self.path / name):
            if not self.is_folder(name):
                os.unlink(name, dir_fd=self.fd)
                return
            for _top, folders, files, fd in os.fwalk(name, topdown=False, dir_fd=self.fd):
                for entry in files:
                    os.unlink(entry, dir_fd=fd)
                for entry in folders:  # a symlink to a folder is listed here too
                    try:
                        os.rmdir(entry, dir_fd=fd)
                    except NotADirectoryError:
                        os.unlink(entry, dir_fd=fd)
            os.rmdir(name, dir_fd=self.fd)


@contextmanager
def naming(path: Path) -> Iterator[None]:
    """An ``OSError`` of the block names ``path``: a call in a folder's descriptor names only
    the entry's own name (a full disk, a permission refused are told of the file or folder,
    as by path: ``atomic.creating`` knows them so)."""
    try:
        yield
    except OSError as exc:
        if exc.errno is None:
            raise
        raise OSError(exc.errno, exc.strerror, str(path)) from exc
