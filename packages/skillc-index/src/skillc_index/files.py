"""The files of a skill's source folder, reached inside its root (RFC-0001:C-MANIFEST).

:func:`safe_join` is the one place a user-given relative path is turned into a filesystem
path, refusing anything that resolves outside the skill (E012); :func:`open_in_root` and
:func:`read_in_root` open and read a file by the same rule. Which files a skill has
(:func:`~skillc_index.skill_files.walk_skill`) is :mod:`skillc_index.skill_files`', by the rule
of which folders a walk enters (:mod:`skillc_index.walk`).
"""

from __future__ import annotations

import errno
import os
import re
import stat
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path
from typing import BinaryIO

from skillc_index.diagnostics import (
    EvalsPath,
    HiddenPath,
    NotARegularFile,
    Notice,
    PathEscapesRoot,
    PathNotFound,
    SkillFileNotFound,
    UnreadableFile,
)
from skillc_index.text import (  # the encoding helpers: in text since 2026-12, named here too
    composed_match,
    decoded,
    encoding_problem,
    other_bom,
)

__all__ = [
    "CHANGED_WHILE_READ",
    "CHUNK",
    "decoded",
    "encoding_notice",
    "encoding_problem",
    "entry_named",
    "evals_refusal",
    "file_kind",
    "fs_bytes",
    "hidden_refusal",
    "is_folder",
    "is_hidden",
    "is_utf8",
    "lfs_notice",
    "lfs_pointer",
    "open_in_root",
    "open_regular",
    "other_bom",
    "path_from_db",
    "path_to_db",
    "read_in_root",
    "read_text_in_root",
    "regular_fd",
    "safe_join",
    "typed_os_error",
    "typed_os_errors",
    "within",
]

#: How much of a file is read at once (hashed, archived, copied).
CHUNK = 1 << 20
#: Bytes :func:`read_in_root` asks for at a time (a SKILL.md is a few KB: one read, then EOF).
_READ = 1 << 16
#: Symbolic links followed while opening one path (Linux's own limit).
_MAX_SYMLINKS = 40
#: The shortest ``PATH_MAX`` POSIX allows (``_POSIX_PATH_MAX``): no shorter path is too long.
_POSIX_PATH_MAX = 256
_CLOEXEC = getattr(os, "O_CLOEXEC", 0)


def fs_bytes(path: str) -> bytes:
    """The bytes of a path as the file system has them (names that are not UTF-8 included):
    what every "bytewise order" of the kit sorts by, and what path hashes hash."""
    return path.encode("utf-8", "surrogateescape")


def path_to_db(rel: str) -> str | bytes:
    """A relative path as the index stores it: text, or its file-system bytes (a BLOB) when
    the name is not UTF-8, so that it can still be found again (:func:`path_from_db`)."""
    return rel if is_utf8(rel) else fs_bytes(rel)


def path_from_db(value: object) -> str:
    """Inverse of :func:`path_to_db`."""
    return value.decode("utf-8", "surrogateescape") if isinstance(value, bytes) else str(value)


def _join(base: str, rel: str) -> str:
    """``base/rel`` as a string (``os.path`` speed, without ``Path`` objects in hot loops)."""
    return base.rstrip(os.sep) + os.sep + rel


def _is_absolute(rel: str) -> bool:
    return rel.startswith(("/", os.sep)) or Path(rel).is_absolute()


#: Why a path that is not UTF-8 is left out (``list``) or refused (``build``): one wording.
NOT_UTF8 = "a path that is not UTF-8"


def is_utf8(path: str) -> bool:
    """Whether ``path`` is UTF-8 (a name of other bytes is read with lone surrogates, which
    SQLite, JSON and zip entries cannot hold)."""
    try:
        path.encode("utf-8")
    except UnicodeEncodeError:
        return False
    return True


def utf8_name(folder: Path) -> bool:
    """Whether the skill folder ``folder``'s own name is UTF-8, the check ``build`` and
    ``eval`` make: the name is what a manifest, an index or eval's library holds; the folders
    above it (a project's) may have any bytes."""
    return is_utf8(folder.name)


def inside(path: str, root: str) -> bool:
    """Whether ``path`` is ``root`` or below it, comparing the paths as written (give
    canonical ones, e.g. from ``os.path.realpath``, to compare where they really lead)."""
    prefix = root if root.endswith(os.sep) else root + os.sep
    return path == root or path.startswith(prefix)


def is_folder(path: Path) -> bool:
    """Whether ``path`` is a folder (symlinks followed); False, not an error, for a path no
    folder can have (a name too long, a component that is a file)."""
    try:
        return path.is_dir()
    except OSError:
        return False


def is_file(path: Path, *, denied: bool = False) -> bool:
    """Whether ``path`` is a regular file (symlinks followed); False, not an error, for a path
    no file can have (a name too long, a component that is a file): a skill named by an
    argument of any length is looked for, and not found (E001), never E999. With ``denied``
    (a skill's ``SKILL.md`` where a skill argument resolves), a folder this process may not
    search (mode 644 or 000) is :class:`UnreadableFile` naming the folder, not False: the
    skill is there, and cannot be read."""
    try:
        return path.is_file()
    except OSError as exc:
        if denied and exc.errno in (errno.EACCES, errno.EPERM):
            raise UnreadableFile(str(path.parent), exc.strerror or str(exc)) from None
        return False


def within(path: Path | str, root: Path | str) -> bool:
    """Whether ``path`` is ``root`` or below it once both are real paths (symlinks followed,
    ``..`` resolved; the parts of ``path`` that do not exist yet are taken as written): where a
    write to ``path`` would really land."""
    return inside(real_path(path), real_path(root))


def real_path(path: Path | str) -> str:
    """``os.path.realpath(path)``, which takes the parts that do not exist as written: so is
    a part holding a NUL byte (no file has one) and all after it, where ``realpath`` raises
    ``ValueError``. A lookup of such a path then answers what is not there."""
    text = os.fspath(path)
    head, nul, rest = text.partition("\0")
    if not nul:
        return os.path.realpath(text)
    parent, name = os.path.split(head)
    return os.path.normpath(os.path.join(os.path.realpath(parent), name + nul + rest))  # noqa: PTH118


def _checked_root(root: Path, rel: str, missing: type[PathNotFound], real_root: str | None) -> str:
    """The real path of ``root`` once ``rel`` passed the checks that need no walk, which
    :func:`safe_join` and :func:`open_in_root` both make first: a NUL byte, or a path longer
    than the system's ``PATH_MAX`` (``os.pathconf``, else 4096), is ``missing`` (no file has
    it: the system refuses it whole, ``File name too long``); an absolute one is E012.
    Refused before any lookup: resolving a path of many parts (``d/d/d/...``, 800 KB) one
    part at a time takes time quadratic in their number (``os.path.realpath``: 36 s)."""
    if "\0" in rel:
        raise missing(rel)  # shown as \0, with text.NUL_REASON
    if _is_absolute(rel):
        raise PathEscapesRoot(rel)
    root_real = real_root or os.path.realpath(root)
    if len(rel) > _POSIX_PATH_MAX:
        try:
            longest = os.pathconf(root_real, "PC_PATH_MAX")
        except (OSError, ValueError, AttributeError):  # pragma: no cover - pathconf is POSIX
            longest = 4096
        if len(rel) > longest:
            raise missing(rel, os.strerror(errno.ENAMETOOLONG))
    return root_real


def safe_join(
    root: Path,
    rel: str,
    missing: type[PathNotFound] = SkillFileNotFound,
    *,
    real_root: str | None = None,
) -> Path:
    """``rel`` resolved against ``root``, symlinks followed; E012 if it lands outside.

    Raises :class:`PathEscapesRoot` for an absolute ``rel`` and for any path whose canonical
    form is not ``root`` or below it (``../x``, ``a/../../x``, a symlink pointing outside).
    A name typed composed (NFC) for one written decomposed on disk (NFD: copied from a Mac)
    is that one (:func:`entry_named`). The result need not exist, but it must be able to: a
    path no file can have (a NUL byte, a name or path too long for the file system, a symlink
    loop) raises ``missing`` (E021 by default; E022 for callers that want a folder), never
    ``ValueError`` or ``OSError``.
    ``real_root``: the root's real path (``os.path.realpath(root)``), when the caller resolved
    it already: every check still runs against it, on every path and symlink met.
    """
    root_real = _checked_root(root, rel, missing, real_root)
    resolved = os.path.realpath(_join(root_real, rel))
    if not resolved.isascii() and inside(resolved, root_real) and not os.path.lexists(resolved):
        found = root_real  # each name composed otherwise on disk (NFD) as it is there
        for part in filter(None, resolved[len(root_real) :].split("/")):
            found = os.path.join(found, entry_named(found, part))  # noqa: PTH118
        resolved = os.path.realpath(found)
    if not inside(resolved, root_real):
        raise PathEscapesRoot(rel)
    try:
        os.stat(resolved)  # noqa: PTH116 - a str is at hand
    except OSError as exc:
        if exc.errno not in (errno.ENOENT, errno.ENOTDIR):  # ENAMETOOLONG, ELOOP, EACCES...
            raise missing(rel, exc.strerror or str(exc)) from None
    return Path(resolved)


def is_hidden(rel: str) -> bool:
    """Whether a relative path has a hidden component (a dot-file or dot-folder: ``.env``,
    ``.git/config``, ``a/.secret/b``); ``.`` and ``..`` are not names. Hidden files are not
    sources (:func:`walk_skill`) and readers serve them only when asked for explicitly."""
    return any(part.startswith(".") and part not in (".", "..") for part in rel.split("/"))


def hidden_refusal(rel: str, real: str) -> HiddenPath | None:
    """The E021 a reader raises for ``rel`` (the path as given) unless hidden files were
    asked for, None when it is no hidden file: ``rel`` has a hidden component, or ``real``
    (where it leads below the skill's root, symlinks followed) has one (a symlink to a hidden
    file is hidden too: "leads to a hidden file")."""
    if is_hidden(rel):
        return HiddenPath(rel)
    return HiddenPath(rel, real) if is_hidden(real) else None


def in_tests_at(rel: str, real_root: str) -> bool:
    """Whether ``rel`` (below the skill at ``real_root``, real) is in its tests: in ``evals/``
    (:func:`~skillc_index.layout.in_tests`), or ``EVALS/x`` where that is the same folder as
    ``evals`` (a file system that ignores case: one stat, only for such a name)."""
    from skillc_index.layout import in_tests

    if in_tests(rel):
        return True
    return rel[:6].lower() == "evals/" and evals_refusal(rel, rel, real_root=real_root) is not None


def evals_refusal(
    rel: str, real: str, folder: bool = False, real_root: str | None = None
) -> EvalsPath | None:
    """The E021 every reader that serves agents raises for ``rel`` (the path as given; a
    folder's with ``folder``), ``--hidden`` or not, when it or ``real`` (where it leads
    below the skill's root, symlinks followed) is in the skill's tests (``evals/`` at its
    root: :func:`~skillc_index.layout.in_tests`); None otherwise. Given ``real_root``, a
    ``real`` spelled otherwise (``EVALS/x``) is one too where it names that folder (a file
    system that ignores case: macOS's, Windows')."""
    import posixpath

    from skillc_index.layout import in_tests

    if in_tests(posixpath.normpath(rel), folder):
        return EvalsPath(rel)
    if in_tests(real, folder):
        return EvalsPath(rel, real)
    top = real.partition("/")[0]
    if real_root is None or not in_tests(real.lower(), folder):
        return None
    try:
        same = Path(_join(real_root, top)).samefile(_join(real_root, top.lower()))
    except OSError:  # no such folder: it names none of the tests
        return None
    return EvalsPath(rel, real) if same else None


def file_kind(mode: int) -> str:
    """What a path that is no regular file is, from its ``st_mode``: ``a folder``, ``a FIFO``,
    ``a socket``, ``a character device``, ``a block device``, else ``a special file`` (the
    words of :class:`~skillc_index.diagnostics.NotARegularFile`)."""
    for test, name in (
        (stat.S_ISDIR, "a folder"),
        (stat.S_ISFIFO, "a FIFO"),
        (stat.S_ISSOCK, "a socket"),
        (stat.S_ISCHR, "a character device"),
        (stat.S_ISBLK, "a block device"),
    ):
        if test(mode):
            return name
    return "a special file"


def regular_fd(
    name: str,
    dir_fd: int | None,
    rel: str,
    *,
    follow: bool = False,
    flags: int = os.O_RDONLY,
    mode: int = 0o600,
) -> int:
    """Open ``name`` (relative to ``dir_fd``) with ``flags`` (for reading unless told; with
    ``os.O_CREAT``, made with ``mode``, 0600 unless told, when missing) if it is a regular
    file, never blocking on a FIFO or device: the open is non-blocking and the descriptor is
    checked with ``fstat`` before it is used (:class:`NotARegularFile`, E021, otherwise).
    Unless ``follow``, a symlink in the last component is not followed (``ELOOP``, for the
    caller)."""
    flags |= os.O_NONBLOCK | _CLOEXEC | (0 if follow else os.O_NOFOLLOW)
    fd = os.open(name, flags, mode, dir_fd=dir_fd)
    try:
        found = os.fstat(fd).st_mode
        if not stat.S_ISREG(found):
            raise NotARegularFile(rel, file_kind(found))
        os.set_blocking(fd, True)
    except BaseException:
        os.close(fd)
        raise
    return fd


def open_regular(path: str) -> BinaryIO:
    """A file the caller already knows to be inside its skill (from :func:`walk_skill`),
    opened only if it is (still) a regular file: a FIFO swapped in is E021, never a hang."""
    try:
        mode = os.stat(path).st_mode  # noqa: PTH116 - a str is at hand
    except OSError:
        mode = stat.S_IFREG  # let the open below say why
    if not stat.S_ISREG(mode):
        raise NotARegularFile(path, file_kind(mode))
    return os.fdopen(regular_fd(path, None, path, follow=True), "rb")


def entry_named(folder: str | os.PathLike[str] | int, name: str) -> str:
    """``name``, or, when ``folder`` (a path, or a descriptor of it) holds no entry of that
    name, its one entry that is ``name`` composed otherwise
    (:func:`~skillc_index.text.composed_match`: ``café`` typed for a folder copied from a
    Mac, ``cafe`` and U+0301). An ASCII name as it is, without a look at the folder."""
    if name.isascii():
        return name
    try:
        if isinstance(folder, int):
            os.stat(name, dir_fd=folder, follow_symlinks=False)
        else:
            os.lstat(os.path.join(folder, name))  # noqa: PTH118
        return name
    except FileNotFoundError:
        pass
    except (OSError, ValueError):  # ValueError: a NUL in it
        return name
    try:
        return composed_match(name, os.listdir(folder)) or name  # noqa: PTH208
    except (OSError, ValueError):
        return name


def open_in_root(
    root: Path,
    rel: str,
    *,
    hidden: bool = True,
    missing: type[PathNotFound] = SkillFileNotFound,
    real_root: str | None = None,
    tests: bool = True,
) -> BinaryIO:
    """The regular file ``rel`` of the skill at ``root``, opened for reading in binary mode.

    The path is walked one component at a time from a descriptor of the root (``openat``
    style: each folder opened with ``O_NOFOLLOW | O_DIRECTORY`` relative to the one before,
    the file with ``O_NOFOLLOW | O_NONBLOCK`` and checked with ``fstat``), and each symlink
    met on the way is resolved by hand against the folders walked so far. So the rule of
    :func:`safe_join` holds at the moment of the open, not only when it was checked: a
    symlink (or ``..``) that leads outside the root is E012 (:class:`PathEscapesRoot`) even
    if it was swapped in a moment ago, and only a regular file is ever opened: a folder,
    FIFO, socket or device is E021 (:class:`NotARegularFile`), without blocking. Symlinks
    that stay inside the root are followed. ``hidden=False`` refuses a path with a hidden
    component (:class:`HiddenPath`, E021), and one the skill's ``.gitignore`` files exclude
    (:func:`~skillc_index.glob.refusal`); ``tests=False`` (what serves agents), a file of the
    skill's tests, ``hidden`` or not (:func:`evals_refusal`). No such file, a NUL byte, a name
    too long or too many symlinks: ``missing`` (E021). A name typed composed (NFC) for an
    entry written decomposed (a file copied from a Mac) opens that entry, when it is the only one
    (:func:`entry_named`). A file or folder that cannot be opened (no permission:
    mode 000) is :class:`UnreadableFile` (E999) naming ``rel``, never a bare ``OSError``.
    ``real_root``: the root's real path (``os.path.realpath(root)``), when the caller resolved
    it already: every check still runs against it, on every path and symlink met.
    """
    root_real = _checked_root(root, rel, missing, real_root)
    root_fd = os.open(root_real, os.O_RDONLY | os.O_DIRECTORY | _CLOEXEC)
    folders = [root_fd]  # descriptors from the root down to the current folder
    names: list[str] = []  # their names below the root (where the symlinks really lead)
    pending = [part for part in reversed(rel.split("/")) if part not in ("", ".")]
    # `SKILL.md/` and `SKILL.md/.` name a folder, as the system's own open reads them
    as_folder = rel.split("/")[-1] in ("", ".")
    links = 0
    try:
        while True:
            if not pending:  # the path names a folder (the root, or ends in '..')
                raise NotARegularFile(rel, "a folder")
            name = pending.pop()
            if name == "..":
                if len(folders) == 1:
                    # Above the root: the rest may come back in (``parent/skill/x``, where
                    # ``parent`` is ``..``). Resolved by name, then walked again from the
                    # root, so nothing outside it is opened (E012 if it stays outside).
                    rest = "/".join([root_real, "..", *reversed(pending)])
                    inside = _inside_part(rest, root_real, rel)
                    pending = [p for p in reversed(inside.split("/")) if p not in ("", ".")]
                    names.clear()
                    links += 1  # bounds the walk as a symlink would
                    if links > _MAX_SYMLINKS:
                        raise missing(rel, "too many levels of symbolic links")
                    continue
                os.close(folders.pop())
                names.pop()
                continue
            try:
                mode = os.stat(name, dir_fd=folders[-1], follow_symlinks=False).st_mode
                if stat.S_ISLNK(mode):
                    links += 1
                    if links > _MAX_SYMLINKS:
                        raise missing(rel, "too many levels of symbolic links")
                    target = os.readlink(name, dir_fd=folders[-1])
                    if target.startswith("/"):
                        target = _inside_part(target, root_real, rel)
                        while len(folders) > 1:
                            os.close(folders.pop())
                        names.clear()
                    pending.extend(p for p in reversed(target.split("/")) if p not in ("", "."))
                    continue
                if pending:
                    fd = os.open(
                        name,
                        os.O_RDONLY | os.O_DIRECTORY | os.O_NOFOLLOW | _CLOEXEC,
                        dir_fd=folders[-1],
                    )
                    folders.append(fd)
                    names.append(name)
                    continue
                if not stat.S_ISREG(mode):
                    raise NotARegularFile(rel, file_kind(mode))
                if as_folder:
                    raise missing(rel, "not a folder")
                # after the walk: an escape says E012; a symlink to a hidden file is hidden, and
                # what the skill's .gitignore files exclude is refused as one
                real = "/".join([*names, name])
                if not tests and (tested := evals_refusal(rel, real, real_root=root_real)):
                    raise tested
                if not hidden:
                    from skillc_index.glob import refusal

                    if (refused := refusal(root, root_real, rel, real)) is not None:
                        raise refused
                return os.fdopen(regular_fd(name, folders[-1], rel), "rb")
            except OSError as exc:
                swapped = exc.errno in (errno.ELOOP, errno.EMLINK, errno.EINVAL)
                if swapped and links <= _MAX_SYMLINKS:
                    # swapped for a symlink since the lstat, or a symlink swapped for a folder
                    # before its readlink (EINVAL): look at it again (counted)
                    links += 1
                    pending.append(name)
                    continue
                if exc.errno == errno.ENOENT and links <= _MAX_SYMLINKS:
                    other = entry_named(folders[-1], name)
                    if other != name:  # the name composed otherwise (counted: a bound)
                        links += 1
                        pending.append(other)
                        continue
                if exc.errno in (errno.ENOENT, errno.ENOTDIR):
                    raise missing(rel) from None
                if swapped or exc.errno == errno.ENAMETOOLONG:
                    raise missing(rel, exc.strerror or str(exc)) from None
                raise UnreadableFile(rel, exc.strerror or str(exc)) from exc
    finally:
        for fd in folders:
            os.close(fd)


def _inside_part(target: str, root_real: str, rel: str) -> str:
    """An absolute path (a symlink's target, or the rest of a path that went above the root)
    as a path relative to the root, by its canonical form as :func:`safe_join` judges it
    (E012 when it is outside). The result is then walked from the root's descriptor again,
    so nothing is opened on the strength of this name resolution alone."""
    candidate = os.path.realpath(target)
    if inside(candidate, root_real):
        return candidate[len(root_real) :].lstrip("/")
    raise PathEscapesRoot(rel)


def read_in_root(
    root: Path, rel: str, limit: int, *, hidden: bool = True, real_root: str | None = None
) -> bytes:
    """The first ``limit`` bytes of the regular file ``rel`` of the skill at ``root``, by
    :func:`open_in_root`'s rules and with its errors, without a file object. A name directly
    in the root (a skill's ``SKILL.md``, which an index reads by the thousand) is opened by
    its path under the root's real path with ``O_NOFOLLOW`` (the root's path itself followed
    as :func:`open_in_root` follows it to open the root) and checked as :func:`open_in_root`
    checks a file; a symlink there, a missing file or any other path takes
    :func:`open_in_root`'s walk, which says why. 2,289 ``SKILL.md`` in 0.03 s of CPU instead
    of 0.11 s (bench/RESULTS.md, "SKILL.md read without a file object")."""
    plain = rel not in ("", ".", "..") and "/" not in rel and "\0" not in rel
    if plain and hidden:  # else the walk's checks (hidden, the skill's .gitignore files)
        try:
            fd = regular_fd(f"{real_root or os.path.realpath(root)}/{rel}", None, rel)
        except OSError:
            fd = -1  # missing, a symlink, a name too long...: the walk below says what
        if fd >= 0:
            try:
                parts: list[bytes] = []
                while limit > 0 and (part := os.read(fd, min(limit, _READ))):
                    parts.append(part)
                    limit -= len(part)
                return b"".join(parts)
            finally:
                os.close(fd)
    with open_in_root(root, rel, hidden=hidden, real_root=real_root) as handle:
        return handle.read(limit)


def read_text_in_root(root: Path, rel: str, *, real_root: str | None = None) -> str:
    """The text of the regular file ``rel`` of the skill at ``root`` (:func:`open_in_root`,
    ``real_root`` passed on), as :func:`decoded` reads it (never an error)."""
    with open_in_root(root, rel, real_root=real_root) as handle:
        return decoded(handle.read())


#: The hint of a file the walk listed and then found gone: the skill changed as it was read
#: (a branch switched, a ``git clean`` under ``skc build``).
CHANGED_WHILE_READ = "it changed on disk while it was read; run the command again"


def typed_os_error(
    path: str,
    exc: OSError,
    missing: type[PathNotFound] = SkillFileNotFound,
    hint: str = "",
    named: str | None = None,
) -> PathNotFound | UnreadableFile:
    """The typed error of ``exc``, raised reading ``path``: nothing there (or a part of the
    path not a folder) is ``missing`` (E021, E022 for a folder) with ``hint``
    (:data:`CHANGED_WHILE_READ` for a file the walk listed); a name too long or a symlink
    loop too, with the system's reason (as :func:`open_in_root` says them); anything else
    (permissions, I/O) :class:`UnreadableFile` (E999) of ``named`` (default ``path``)."""
    reason = exc.strerror or str(exc)
    if exc.errno in (errno.ENOENT, errno.ENOTDIR):
        return missing(path, hint)
    if exc.errno in (errno.ELOOP, errno.ENAMETOOLONG):
        return missing(path, reason)
    return UnreadableFile(path if named is None else named, reason)


@contextmanager
def typed_os_errors(path: str, missing: type[PathNotFound] = SkillFileNotFound) -> Iterator[None]:
    """The ``OSError`` of reading ``path`` in the block as the typed error a public reader
    raises (:func:`typed_os_error`), an :class:`UnreadableFile` naming the file the system
    names."""
    try:
        yield
    except OSError as exc:
        named = exc.filename if isinstance(exc.filename, str) else None
        raise typed_os_error(path, exc, missing, named=named) from exc


def encoding_notice(name: str, problem: str, how: str) -> Notice:
    """The warning of the skill ``name`` whose SKILL.md has :func:`encoding_problem`'s
    ``problem``, ``how`` saying what became of its text (``build``'s stub, ``package``'s
    archive): ``x: SKILL.md is not UTF-8 (kept as it is): save it as UTF-8``."""
    return Notice(f"{name}: SKILL.md {problem} ({how}): save it as UTF-8")


#: The most bytes of a Git LFS pointer file: :func:`lfs_pointer` takes a file's first 1025.
LFS_POINTER_MAX = 1024


def lfs_pointer(head: bytes) -> bool:
    """Whether a file whose first bytes are ``head`` is a Git LFS pointer (no ``lfs pull``)."""
    form = rb"version https://git-lfs\.github\.com/spec/v1\n(?:ext-.*\n)*oid sha256:[0-9a-f]{64}"
    return len(head) <= LFS_POINTER_MAX and bool(re.fullmatch(form + rb"\nsize \d+\n?", head))


def lfs_notice(name: str, rel: str, how: str) -> Notice:
    """The warning of ``rel``, a Git LFS pointer in the skill ``name`` (:func:`lfs_pointer`)."""
    return Notice(f"{name}: {rel} is a Git LFS pointer ({how}): `git lfs pull` fetches its content")
