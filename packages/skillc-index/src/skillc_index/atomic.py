"""Writing files and folders so that nobody ever sees half of one: everything is written under
a temporary name in the destination's own folder (same file system), then renamed.

Nothing is fsync'ed: that would cost more than the rest of a small build, and the files are
derived data. After a crash of the whole machine, the worst case is an empty or stale stub,
manifest or index, which the next ``skc build`` detects (stub checksum, unreadable manifest,
corrupt index) and writes again.

Temporary names start with ``.`` so that stores and runtimes being listed skip them; they are
created with the default permissions (the umask applies), unlike :mod:`tempfile`'s private
``0600``/``0700``, because they become the real files and folders. They fit in a file name
(:data:`NAME_MAX` bytes) whatever the name they are for: a legal name of 243 to 255 bytes got
a temporary name the system refused (``File name too long``).
"""

from __future__ import annotations

import errno
import os
import stat
from collections.abc import Callable, Iterator, Sequence
from contextlib import ExitStack, contextmanager, suppress
from pathlib import Path
from typing import TYPE_CHECKING

if TYPE_CHECKING:
    from typing import IO

__all__ = [
    "abandoned",
    "disk_failure",
    "ensure_dir",
    "failure_reason",
    "file_target",
    "folders_made",
    "move_aside",
    "not_writable",
    "refused",
    "remove_abandoned_files",
    "remove_made",
    "staging_dir",
    "temporary_path",
    "temporary_pid",
    "write_file_atomic",
    "write_files_atomic",
]

_CLOEXEC = getattr(os, "O_CLOEXEC", 0)
#: How :func:`_open_folder` opens a folder: for ``dir_fd`` only (``O_PATH`` where there is
#: one: no read permission needed, as a write by path needs none).
_FOLDER = getattr(os, "O_PATH", os.O_RDONLY) | getattr(os, "O_DIRECTORY", 0) | _CLOEXEC
#: The longest file name, in bytes, of the common file systems (ext4, XFS, btrfs, APFS, tmpfs).
NAME_MAX = 255
#: What :func:`temporary_path` adds to its prefix's stem: ``.``, ``.``, a pid (at most 10
#: digits), ``-`` and 8 hex digits.
_ADDED = 21


def ensure_dir(path: Path) -> None:
    """Create ``path`` and its parents unless it is already a folder (checked first: on some
    file systems a ``mkdir`` that fails costs far more than a ``stat``)."""
    if not path.is_dir():
        path.mkdir(parents=True, exist_ok=True)


def nearest_existing(path: Path) -> Path:
    """``path`` if it exists, else the nearest path above it that does: where
    :func:`ensure_dir` would begin creating folders (a file there: it cannot). OSError for a
    path that cannot be looked up (a name too long)."""
    while not path.exists() and path.parent != path:
        path = path.parent
    return path


#: SQLite's primary result codes of a failing disk: ``SQLITE_IOERR``, ``SQLITE_FULL``.
_DISK_CODES = frozenset({10, 13})
#: ``SQLITE_CANTOPEN``: a file SQLite could not make (a log's ``-shm``). A disk failure only
#: when its device is full: no inode left, or no byte (else: a permission, a missing folder).
_CANTOPEN = 14
#: The ``OSError`` numbers of a failing disk: no room left, over quota, an I/O error.
_DISK_ERRNOS = frozenset({errno.ENOSPC, errno.EDQUOT, errno.EIO})
#: Free space under which a disk failure's reason says how much is left (a full disk).
_LOW_SPACE = 1 << 20


def disk_failure(exc: BaseException, path: Path) -> str | None:
    """The reason, when ``exc`` is the disk failing (no room left, over quota, an I/O error;
    SQLite's ``SQLITE_FULL``/``SQLITE_IOERR``, and ``SQLITE_CANTOPEN`` on a device with no
    inode or no byte left) while ``path`` was read or written, with the free space of its
    device when it is almost none, and that no inode is left when none is (SQLite's "disk
    I/O error" and "unable to open database file" do not say the disk is full: the device
    does); ``None`` for any other failure."""
    from .sqlite import result_code  # only here: a failure, never the common path

    found = result_code(exc)  # only sqlite3.Error has one
    space = None
    if found is not None:
        code, name = found
        if code & 0xFF == _CANTOPEN:
            space = _free_space(path)
            if space[0] and space[1] != 0:
                return None
        elif code & 0xFF not in _DISK_CODES:
            return None
        reason = f"{exc} ({name})" if name else str(exc)
    elif isinstance(exc, OSError) and exc.errno in _DISK_ERRNOS:
        reason = exc.strerror or str(exc)
    else:
        return None
    free, inodes = space or _free_space(path)
    if free < _LOW_SPACE:
        reason += f"; {free:,} bytes free on its device"
    if inodes == 0:
        reason += "; no inode free on its device"
    return reason


def failure_reason(exc: BaseException, path: Path) -> str:
    """Why ``exc`` failed a read or write of ``path``, in a line: the disk failing as
    :func:`disk_failure` says it (SQLite's "disk I/O error" names no cause, the free space
    of the device does), else an ``OSError``'s message, else the error's text (or type)."""
    reason = disk_failure(exc, path)
    if reason is not None:
        return reason
    if isinstance(exc, OSError) and exc.strerror:
        return exc.strerror
    return str(exc) or type(exc).__name__


def _free_space(path: Path) -> tuple[int, int | None]:
    """The bytes and the inodes free on ``path``'s device (inodes None where the file system
    does not count them, btrfs; :data:`_LOW_SPACE` bytes when it cannot be asked)."""
    try:
        device = os.statvfs(nearest_existing(path))
    except OSError:
        return _LOW_SPACE, None
    return device.f_bavail * device.f_frsize, device.f_favail if device.f_files else None


#: The ``OSError`` numbers of a folder that may not be written: no permission, a read-only
#: file system.
_DENIED_ERRNOS = frozenset({errno.EACCES, errno.EPERM, errno.EROFS})


def _denied(exc: BaseException, path: Path) -> str | None:
    """The reason, when ``exc`` is a write refused (no permission, a read-only file system)
    in the folder of ``path`` or below it (:func:`~skillc_index.files.inside`); None for any
    other failure (a source that cannot be read is not the destination's fault)."""
    if not isinstance(exc, OSError) or exc.errno not in _DENIED_ERRNOS:
        return None
    from skillc_index.files import inside

    names = (exc.filename, exc.filename2)
    if not any(isinstance(name, str) and inside(name, str(path.parent)) for name in names):
        return None
    return exc.strerror or str(exc)


@contextmanager
def creating(path: Path) -> Iterator[None]:
    """Run the block that creates ``path`` (through a staging folder beside it, as a build's
    runtime and an import's store copy are; the staging folder made inside the block): the
    disk failing in it (:func:`disk_failure`), or a write refused in ``path``'s folder (no
    permission, a read-only file system), is
    :class:`~skillc_index.command_errors.CannotCreate` (E999) naming ``path``, not the
    staging folder, with the reason; any other failure goes through as it is."""
    try:
        yield
    except Exception as exc:
        reason = disk_failure(exc, path) or _denied(exc, path)
        if reason is None:
            raise
        from skillc_index.command_errors import CannotCreate

        raise CannotCreate(str(path), reason) from exc


def file_target(cwd: Path, given: str) -> Path:
    """The file a command is told to write (``--html FILE``, ``--sarif-file FILE``,
    ``--write-baseline FILE``), ``given`` relative to ``cwd``, checked before the command's
    work: its folder may be missing (``write_file_atomic(..., parents=True)`` makes it, as
    ``package -o`` makes its output folder). Every option's one refusal is
    :class:`~skillc_index.command_errors.CannotWrite` (E100, ``cannot write 'GIVEN':
    reason``): a name that cannot be (too long: :func:`creation_start`), a folder there, a
    file in the way above it, one written as a folder (``reports/``: ``Path`` drops the final
    slash, and a file named ``reports`` was written) that is not one, a folder it would be
    made in that this process cannot write (:func:`not_writable`)."""
    from skillc_index.command_errors import CannotCreate, CannotWrite

    path = Path(cwd, given)
    try:
        start = creation_start(path)
    except CannotCreate as exc:
        raise CannotWrite(given, exc.reason) from None
    if path.is_dir():
        code = errno.EISDIR
    elif given.endswith(("/", os.sep)):  # a folder meant, none there
        code = errno.ENOTDIR if start == path or path.is_symlink() else errno.ENOENT
    elif not (folder := path.parent if start == path else start).is_dir():
        code = errno.ENOTDIR
    else:
        reason = not_writable(folder)
        if reason is None:
            return path
        raise CannotWrite(given, reason)
    raise CannotWrite(given, os.strerror(code))


def not_writable(folder: Path) -> str | None:
    """Why this process cannot create a file in the existing ``folder`` (the system's words:
    a read-only file system, or no permission), or None when it can."""
    if os.access(folder, os.W_OK | os.X_OK):
        return None
    return os.strerror(refused(folder))


def refused(path: Path) -> int:
    """The ``errno`` of a write refused at ``path``, which this process may not write:
    ``EROFS`` on a read-only file system, else ``EACCES`` (no permission)."""
    try:
        read_only = bool(os.statvfs(path).f_flag & os.ST_RDONLY)
    except (OSError, AttributeError):  # pragma: no cover - statvfs is POSIX
        read_only = False
    return errno.EROFS if read_only else errno.EACCES


def creation_start(path: Path) -> Path:
    """:func:`nearest_existing` of a file or folder a command is to create (``package -o``, a
    build's agent folder): one that cannot be looked up (a name too long) is
    :class:`~skillc_index.command_errors.CannotCreate` (E999) naming ``path``, with the
    system's reason, before anything is written; so is one holding a NUL byte, which
    :meth:`~pathlib.Path.exists` takes for one that is not there."""
    from skillc_index.command_errors import CannotCreate

    if "\0" in str(path):
        from skillc_index.text import NUL_REASON, nul_shown

        raise CannotCreate(nul_shown(str(path)), NUL_REASON)
    try:
        found = nearest_existing(path)
        _check_names(path, found)
    except OSError as exc:
        raise CannotCreate(str(path), exc.strerror or str(exc)) from exc
    return found


def _check_names(path: Path, start: Path) -> None:
    """OSError (``ENAMETOOLONG``) when a name of ``path`` below ``start``, the folder where its
    creation begins (:func:`nearest_existing`), is longer than the file system there allows
    (``os.pathconf``, else :data:`NAME_MAX` bytes): looking ``path`` up stops at the first
    missing folder, so such a name was refused only once the folders above it were made."""
    try:
        longest = os.pathconf(start, "PC_NAME_MAX")
    except (OSError, ValueError, AttributeError):  # pragma: no cover - pathconf is POSIX
        longest = NAME_MAX
    for part in path.relative_to(start).parts:
        if len(os.fsencode(part)) > longest:
            raise OSError(errno.ENAMETOOLONG, os.strerror(errno.ENAMETOOLONG), str(path))


def _stem(prefix: str) -> str:
    """``prefix``, or when a temporary name made of it would be longer than
    :data:`NAME_MAX` bytes, its first bytes and ``~`` and 8 hex digits of its SHA-256 (the
    same stem for the same prefix: :func:`abandoned` finds the names made of it)."""
    raw = os.fsencode(prefix)
    if len(raw) + _ADDED <= NAME_MAX:
        return prefix
    from skillc_index.digests import sha256_hasher

    tag = sha256_hasher()(raw).hexdigest()[:8]
    return f"{os.fsdecode(raw[: NAME_MAX - _ADDED - 9])}~{tag}"


def temporary_path(parent: Path, prefix: str) -> Path:
    """A hidden name in ``parent`` that nothing uses yet (almost surely: callers create it
    exclusively), ``.<prefix>.<pid>-<8 hex>``, the prefix shortened (:func:`_stem`) so that
    the name fits in :data:`NAME_MAX` bytes."""
    return parent / f".{_stem(prefix)}.{os.getpid()}-{os.urandom(4).hex()}"


def temporary_pid(name: str) -> int | None:
    """The process id in ``name`` when it is one :func:`temporary_path` makes (``.<prefix>.
    <pid>-<8 hex>``: a file or folder being written, or left by a process that was killed),
    else None."""
    head, _, tail = name.rpartition(".")
    pid, dash, tag = tail.partition("-")
    digits = dash and pid.isascii() and pid.isdigit()
    if len(head) < 2 or not head.startswith(".") or not digits or len(tag) != 8:
        return None
    return int(pid) if all(char in "0123456789abcdef" for char in tag) else None


def staging_dir(parent: Path, prefix: str, *, sweep: bool = True) -> Path:
    """A new empty hidden folder in ``parent`` (created if needed), to be renamed later.

    With ``sweep``, folders of the same ``prefix`` left by processes that no longer run (a
    build killed by SIGKILL never reaches its clean-up) are removed first; those of running
    processes are left alone. Callers whose staging folder may hold the only copy of
    something (the previous store copy during an import) pass ``sweep=False``.
    """
    ensure_dir(parent)
    if sweep:
        _remove_abandoned(parent, prefix)
    from skillc_index.cores import mkdir_held

    while True:
        path = temporary_path(parent, prefix)
        try:
            mkdir_held(path)  # held while this process runs: never swept meanwhile
        except FileExistsError:
            continue
        return path


def _remove_abandoned(parent: Path, prefix: str) -> None:
    """Remove ``parent/.<prefix>.<pid>-<hex>`` folders whose process is gone."""
    import shutil

    for path in abandoned(parent, prefix):
        shutil.rmtree(path, ignore_errors=True)


def abandoned(parent: Path, prefix: str, *more: str) -> list[Path]:
    """The ``parent/.<prefix>.<pid>-<hex>`` entries (made by :func:`staging_dir` or
    :func:`temporary_path`), of ``prefix`` or any of ``more``, whose process no longer runs
    (:func:`~skillc_index.cores.maker_gone`: a folder no process holds locked)."""
    return [parent / name for name in _abandoned_names(parent, (prefix, *more))]


def _abandoned_names(
    parent: Path | int, prefixes: Sequence[str], kinds: Sequence[str] = ()
) -> list[str]:
    """:func:`abandoned`'s names in ``parent`` (a path, or a readable descriptor of it);
    ``kinds``: those of any prefix ending in ``.<kind>`` too (``build``: every skill's
    staging folders, in one listing)."""
    from skillc_index.cores import maker_gone

    starts = {f".{_stem(name)}." for name in prefixes}
    ends = tuple(f".{kind}." for kind in kinds)

    def taken(head: str) -> bool:
        return head in starts or (head.startswith(".") and head.endswith(ends) and bool(ends))

    if isinstance(parent, int):
        try:
            listed: Sequence[str] | None = os.listdir(parent)  # noqa: PTH208
        except OSError:
            return []
    else:  # a store looked at for each skill: listed once while unchanged
        from skillc_index.hidden_entries import hidden_entries

        listed = hidden_entries(parent)
    if listed is None:
        return []
    found: list[str] = []
    for name in sorted(name for name in listed if taken(name[: name.rfind(".") + 1])):
        pid = temporary_pid(name)
        if pid is not None and maker_gone(pid, parent, name):
            found.append(name)
    return found


def _abandoned_in(folder: int, prefixes: Sequence[str], kinds: Sequence[str] = ()) -> list[str]:
    """:func:`abandoned`'s names in the folder of the descriptor ``folder`` (one that may
    hold no read permission, :data:`_FOLDER`'s: a readable one is opened to list it); none
    when it cannot be listed."""
    try:
        listing = os.open(".", os.O_RDONLY | os.O_DIRECTORY | _CLOEXEC, dir_fd=folder)
    except OSError:
        return []
    try:
        return _abandoned_names(listing, prefixes, kinds)
    finally:
        os.close(listing)


def remove_abandoned_files(paths: Sequence[Path]) -> None:
    """Remove the temporary files (:func:`_written`) of ``paths`` that processes no longer
    running left beside them (killed between writing one and renaming it)."""
    folders: dict[Path, list[str]] = {}
    for path in paths:
        folders.setdefault(path.parent, []).append(f"{path.name}.tmp")
    for folder, prefixes in folders.items():
        with suppress(OSError):  # no folder there: nothing left in it
            fd = os.open(folder, _FOLDER)
            try:
                _remove_abandoned_in(fd, prefixes)
            finally:
                os.close(fd)


def _remove_abandoned_in(folder: int, prefixes: Sequence[str]) -> None:
    """:func:`remove_abandoned_files` in the folder of the descriptor ``folder``: listed,
    and each regular file removed, there (a folder or a symlink of that name stays)."""
    for name in _abandoned_in(folder, prefixes):
        with suppress(OSError):
            if stat.S_ISREG(os.stat(name, dir_fd=folder, follow_symlinks=False).st_mode):
                os.unlink(name, dir_fd=folder)


def _open_folder(folder: Path, *, follow: bool = True, make: bool = False) -> int:
    """A descriptor of ``folder`` for writing in it by name (``dir_fd``: every write then
    lands in this one folder, whatever its path leads to later). Unless ``follow``, the
    absolute ``folder`` is taken as a real path (``os.path.realpath``'s) and walked from
    ``/`` one name at a time with ``O_NOFOLLOW``: a symlink swapped in anywhere along it since
    it was resolved is ``OSError`` (``ENOTDIR``/``ELOOP``), never followed; with ``make``, a
    folder missing on the way is made there (in the folder walked, not by a path)."""
    if follow:
        return os.open(folder, _FOLDER)
    fd = os.open("/", _FOLDER)
    try:
        for name in folder.parts[1:]:
            try:
                below = os.open(name, _FOLDER | os.O_NOFOLLOW, dir_fd=fd)
            except FileNotFoundError:
                if not make:
                    raise
                with suppress(FileExistsError):  # made by another at once: walked all the same
                    os.mkdir(name, dir_fd=fd)
                below = os.open(name, _FOLDER | os.O_NOFOLLOW, dir_fd=fd)
            os.close(fd)
            fd = below
    except BaseException:
        os.close(fd)
        raise
    return fd


def write_file_atomic(
    path: Path,
    data: bytes,
    *,
    mode: int | None = None,
    sync: bool = False,
    before_rename: Callable[[], None] | None = None,
    replace: bool = True,
    parents: bool = False,
    follow: bool = True,
) -> None:
    """Replace ``path`` with ``data`` in one rename (the folder must exist; with ``parents``
    it and its missing parents are made first: :func:`ensure_dir`). ``mode``: the
    permission bits the file gets (default: 0o666 less the umask); ``sync``: fsync the data
    before the rename, so a crash leaves the old file or the new one, never an empty one.
    ``before_rename``: called once the data is written (and synced), right before the rename;
    what it raises stops the write, nothing replaced (a check that ``path`` is still as its
    caller read it: the time it leaves another writer is the rename's, not the write's).
    ``replace=False``: a new file, never one replacing what is there (``FileExistsError``, as
    ``open(path, "x")``, which made it empty first: a kill then left it so), hard-linked into
    place (a link fails when the name is taken) and the temporary name removed; on a file
    system without hard links (FAT), created exclusively and written. Either way the
    temporary files a killed run left for ``path`` are removed first (a listing of its folder:
    ``skillc-lint --fix`` killed in its fsync left a hidden copy of SKILL.md in the skill).
    All of it is done in the folder :func:`_open_folder` opens once (``follow=False``: ``path``
    is a real path, and a folder of it swapped for a symlink since is ``OSError``): a folder
    swapped meanwhile never gets the temporary file, the rename or a removal."""
    if parents:
        ensure_dir(path.parent)
    try:
        folder = _open_folder(path.parent, follow=follow)
    except OSError as exc:
        raise OSError(exc.errno, exc.strerror, str(path)) from exc
    try:
        _remove_abandoned_in(folder, [f"{path.name}.tmp"])
        temporary = _written(path, data, mode, sync=sync, folder=folder).name
        try:
            if before_rename is not None:
                before_rename()
            try:
                if replace:
                    os.replace(temporary, path.name, src_dir_fd=folder, dst_dir_fd=folder)
                else:
                    _link_new(folder, temporary, path.name, data)
            except OSError as exc:  # named by path, as a by-path rename named it
                raise OSError(exc.errno, exc.strerror, str(path)) from exc
        except BaseException:
            with suppress(FileNotFoundError):
                os.unlink(temporary, dir_fd=folder)
            raise
        if not replace:
            os.unlink(temporary, dir_fd=folder)  # the file stays, under its own name
    finally:
        os.close(folder)


def _link_new(folder: int, temporary: str, name: str, data: bytes) -> None:
    """``temporary``'s file linked as ``name``, both in ``folder`` (``FileExistsError`` when
    the name is taken); where the file system has no hard links, a new ``name`` written with
    ``data``."""
    try:
        os.link(temporary, name, src_dir_fd=folder, dst_dir_fd=folder)
    except OSError as exc:
        if exc.errno not in (errno.EPERM, errno.EOPNOTSUPP, errno.ENOTSUP, errno.ENOSYS):
            raise
        fd = os.open(name, os.O_WRONLY | os.O_CREAT | os.O_EXCL | _CLOEXEC, 0o666, dir_fd=folder)
        with os.fdopen(fd, "wb") as handle:
            handle.write(data)
            mode = os.stat(temporary, dir_fd=folder).st_mode
            os.fchmod(handle.fileno(), stat.S_IMODE(mode))  # its mode, as a link has


def _written(
    path: Path,
    data: bytes | Callable[[IO[bytes]], object],
    mode: int | None,
    *,
    sync: bool = False,
    folder: int | None = None,
) -> Path:
    """``data`` written to a new temporary file beside ``path`` (:func:`write_file_atomic`'s
    ``mode`` and ``sync``), whose path is returned; nothing left on failure, and an
    ``OSError`` names ``path``, not its temporary name nor none (a write, or the flush at the
    close, which a full disk fails again: ``error[E999]: OSError: [Errno 28]`` named no
    file). ``data`` may be a function writing into the file (a copy in pieces: nothing held
    whole in memory). ``folder``: a descriptor of ``path``'s folder (:func:`_open_folder`),
    where the file is made and removed by name."""
    temporary = temporary_path(path.parent, path.name + ".tmp")
    where = temporary if folder is None else temporary.name
    try:  # the open inside: a Ctrl-C right after it left the temporary file behind
        fd = os.open(where, os.O_WRONLY | os.O_CREAT | os.O_EXCL | _CLOEXEC, 0o666, dir_fd=folder)
        with os.fdopen(fd, "wb") as handle:
            if isinstance(data, bytes):
                handle.write(data)
            else:
                data(handle)
            if mode is not None:
                os.fchmod(handle.fileno(), mode)
            if sync:
                handle.flush()
                os.fsync(handle.fileno())
    except BaseException as exc:
        with suppress(FileNotFoundError):
            os.unlink(where, dir_fd=folder)
        if isinstance(exc, OSError) and exc.errno is not None:
            raise OSError(exc.errno, exc.strerror, str(path)) from exc
        raise
    return temporary


def write_files_atomic(
    files: Sequence[tuple[Path, bytes | Callable[[IO[bytes]], object], int | None]],
) -> None:
    """Write several files, ``(path, data, mode)`` (:func:`write_file_atomic`'s ``mode``;
    ``data``: bytes, or a function writing them into the file it is given), all or none: each
    is written under a temporary name beside it (its folders made as needed),
    and only once all are written are they renamed into place, in order; first, the
    temporary files of these paths that a killed process left are removed. A failure while
    writing (no room left, a name or folder the system refuses) removes the temporary files
    and the folders made for them, leaving every file as it was, and is an ``OSError`` naming
    the file (or folder) that failed, not its temporary name. (The renames, in folders
    already there, fail only when the file system does.)"""
    remove_abandoned_files([path for path, _data, _mode in files])
    written: list[tuple[Path, Path]] = []
    with ExitStack() as made:  # the folders made for the files, removed again on a failure
        try:
            for path, data, mode in files:
                if not path.parent.is_dir():  # an error names the folder
                    made.enter_context(folders_made(path.parent))
                    path.parent.mkdir(parents=True, exist_ok=True)
                written.append((_written(path, data, mode), path))  # an OSError names path
        except BaseException:
            for temporary, _path in written:
                temporary.unlink(missing_ok=True)
            raise
    for temporary, path in written:
        temporary.replace(path)


@contextmanager
def folders_made(folder: Path) -> Iterator[None]:
    """Run the block that makes ``folder`` and its missing parents, and writes in it: when
    the block fails (an error, a Ctrl-C), the folders that were missing are removed again,
    the innermost first, each only while empty (what another process put there stays): a
    command that failed leaves no empty folder it made (``init NAME``, ``eval --init``)."""
    top = nearest_existing(folder)
    try:
        yield
    except BaseException:
        remove_made(top, folder)
        raise


def remove_made(top: Path, folder: Path) -> None:
    """Remove ``folder`` and its parents below ``top`` (the folders a run made for it), the
    innermost first, each only while empty."""
    below = folder.relative_to(top).parts
    for count in range(len(below), 0, -1):
        with suppress(OSError):
            top.joinpath(*below[:count]).rmdir()


def move_aside(path: Path, folder: int | None = None) -> Path:
    """Rename ``path`` to a new hidden ``.<name>.skillc-backup-<UTC time>[-N]`` beside it
    (same folder, so one rename: nothing is copied or deleted); returns the new path.
    ``folder``: a descriptor of ``path``'s folder, where the names are looked up and renamed
    (:class:`~skillc_index.pinned.Pinned`), whatever its path leads to meanwhile."""
    import time

    stamp = time.strftime("%Y%m%dT%H%M%SZ", time.gmtime())
    base = f".{path.name}.skillc-backup-{stamp}"
    number = 0
    while True:
        backup = path.parent / (base if number == 0 else f"{base}-{number}")
        try:
            os.stat(backup if folder is None else backup.name, dir_fd=folder, follow_symlinks=False)
        except FileNotFoundError:
            break
        number += 1
    where = (path, backup) if folder is None else (path.name, backup.name)
    os.rename(*where, src_dir_fd=folder, dst_dir_fd=folder)
    return backup
