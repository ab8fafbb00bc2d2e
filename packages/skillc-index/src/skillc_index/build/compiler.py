"""The compiler: a skill source folder in, its runtime (SSOT) folder out (RFC-0001).

The runtime receives exactly three things: the stub ``SKILL.md``, ``.skillc-meta/manifest.json``
and ``.skillc-meta/search-<hash16>.db``; nothing of the source is copied (C-OUTPUT). SKILL.md
is validated first; then everything is written into a temporary folder next to the runtime
(the index file by file as the sources are parsed, so memory does not grow with the skill),
which becomes the runtime when there is none yet, else whose files are renamed into it one by
one (index, stub, manifest last: ``skc build`` makes an empty runtime folder to lock it, so its
first build goes this way too, the manifest last saying the runtime is built); a failed build
leaves the previous runtime as it was. Other files of the
runtime (``logs.db``, other sources' ``search-*.db``) are never touched.

An unchanged skill is not recompiled: when the manifest's source hash, stub format and stub
checksum match, and the index is current and still the file that build wrote (its size and
time are in the manifest: an index damaged in place is rebuilt), the build reads no Markdown
at all. ``force`` recompiles anyway.

The index's rows are parsed from bytes that hash as the digests it records (the digests are
taken first, for the source hash): a file written between its hash and its parse makes the
build start again, at most :data:`~skillc_index.index.cache.ATTEMPTS` times (then E002), as
the index made on demand does, waiting for the sources to settle on the first attempt only.
"""

from __future__ import annotations

import errno
import hashlib
import os
import sqlite3
import sys
import time
from collections.abc import Callable, Iterator, Mapping, Sequence
from contextlib import closing, contextmanager, suppress
from dataclasses import dataclass
from pathlib import Path
from typing import TYPE_CHECKING, Literal

from skillc_index.atomic import creating, not_writable
from skillc_index.build.manifest import (
    MANIFEST_FILE,
    MANIFEST_VERSION,
    Manifest,
    manifest_bytes,
    read_manifest,
    refuse_older_build,
)
from skillc_index.build.sources import Sources
from skillc_index.clock import utc_now
from skillc_index.command_errors import CannotCreate, RuntimeEntryInTheWay, RuntimeNotAFolder
from skillc_index.diagnostics import (
    IndexUnusable,
    Notice,
    PathEscapesRoot,
    SkillcError,
)
from skillc_index.digests import combine_digests, file_digests, file_sha256
from skillc_index.files import file_kind, lfs_notice
from skillc_index.index.cache import (
    ATTEMPTS,
    SourcesChanged,
    kept_changing,
    pause_before,
    refuse_too_large,
)
from skillc_index.index.freshness import IndexState, fresh_index, inspect_index
from skillc_index.index.fts import index_tokenizer
from skillc_index.index.rows import indexed_files
from skillc_index.index.schema import FileStat, settle, stat_files
from skillc_index.index.writer import IndexCounts, write_index
from skillc_index.layout import META_DIR, SKILL_FILE, ResolvedSkill
from skillc_index.skill_files import SkillFiles, skipped_notices, walk_skill
from skillc_index.text import valid_utf8

if TYPE_CHECKING:
    from skillc_index.pinned import Pinned

__all__ = ["CompileResult", "IndexReport", "Progress", "compile_skill", "runtime_is_current"]

#: ``progress(done, total)``: called as each file is parsed and indexed.
Progress = Callable[[int, int], None]

IndexAction = Literal["created", "rebuilt", "up-to-date"]


@dataclass(frozen=True)
class IndexReport:
    """What happened to the search index (RFC-0004 lifecycle)."""

    path: Path
    action: IndexAction
    reason: str
    """Why it was (re)built: ``missing``, ``corrupt: ...``, ``stale: ...``; empty when skipped."""
    tokenizer: str
    counts: IndexCounts | None
    """Rows written; None when the index was up to date."""


@dataclass(frozen=True)
class CompileResult:
    """One compiled runtime."""

    skill: str
    source: Path
    runtime: Path
    source_hash: str
    up_to_date: bool
    """Nothing needed rebuilding: stub, manifest and index were left as they were."""
    stub: Path
    manifest: Manifest
    index: IndexReport
    files: int
    notices: tuple[Notice, ...] = ()
    """Warnings of the compile: a Markdown file over the parse limit (1 MiB or 20,000 lines)."""


def _sha256(path: Path) -> str | None:
    """The SHA-256 of the regular file at ``path`` (the runtime's stub), read without
    blocking: None for a FIFO there (which hung the build) or anything unreadable."""
    try:
        return file_sha256(str(path))
    except (OSError, SkillcError):
        return None


def _skillc_version() -> str:
    from skillc_index import __version__

    return __version__


def _matches(
    skill: tuple[str, Path, Path],
    manifest: Manifest,
    current_hash: str,
    index_stat: list[int] | None,
) -> bool:
    """Whether the runtime's stub and manifest are those a build would write now of the
    skill ``(name, source, runtime)``, for an index (already known to be current) whose file
    stat is ``index_stat``."""
    from skillc_index.build.stub import STUB_FORMAT

    name, source, runtime = skill
    extra = manifest.extra
    return (
        manifest.skill == name
        and manifest.version == MANIFEST_VERSION
        and manifest.source_hash == current_hash
        and extra.get("stub_format") == STUB_FORMAT
        and extra.get("skillc_version") == _skillc_version()
        and extra.get("source_path") == valid_utf8(str(source))
        and extra.get("stub_sha256") == _sha256(runtime / SKILL_FILE)
        and extra.get("index_stat") == index_stat
    )


def runtime_is_current(name: str, source: Path, runtime: Path) -> bool:
    """Whether a build (not forced) of the skill ``name`` at ``source`` would leave its
    ``runtime`` as it is, as far as the stat-only check readers make tells
    (:func:`~skillc_index.index.freshness.current_source_hash`: no file hashed unless its
    stats moved): the index current for the sources, the stub and manifest those a build
    writes now (:func:`_matches`). A tokenizer setting changed since is not seen."""
    from skillc_index.index.freshness import current_source_hash
    from skillc_index.index.schema import index_path

    manifest = read_manifest(runtime)
    current = current_source_hash(runtime, source)
    if manifest is None or current is None:
        return False
    index_stat = _index_stat(index_path(runtime, source))
    return _matches((name, source, runtime), manifest, current, index_stat)


def _index_stat(path: Path) -> list[int] | None:
    """``[size, mtime_ns]`` of the index file, as the manifest records it (None: no file)."""
    try:
        st = path.stat()
    except OSError:
        return None
    return [st.st_size, st.st_mtime_ns]


def _sound(path: Path) -> bool:
    """Whether SQLite finds the index file's pages sound (``PRAGMA quick_check``), read only."""
    import sqlite3

    from skillc_index.sqlite import connect

    try:
        db = connect(path, mode="ro", timeout_ms=1000)
    except (OSError, sqlite3.Error):
        return False
    try:
        return db.execute("PRAGMA quick_check").fetchall() == [("ok",)]
    except sqlite3.Error:
        return False
    finally:
        db.close()


def _check_runtime_folder(runtime: Path, index_file: str) -> None:
    """RuntimeNotAFolder (E999) for a file or symlink where the runtime goes, or no folder
    where its store (``.skillc/runtime``) is; RuntimeEntryInTheWay (E999) for anything but a
    folder at its ``.skillc-meta``, or a folder where a file of the build goes (``SKILL.md``,
    the manifest, the index ``index_file``); CannotCreate (E999) naming the runtime when it,
    or its ``.skillc-meta``, is there but cannot be written: found before anything is moved
    into it (its new index beside an old stub)."""
    import stat

    if os.path.lexists(runtime.parent) and not runtime.parent.is_dir():
        raise RuntimeNotAFolder(str(runtime.parent))
    if runtime.is_symlink() or (runtime.exists() and not runtime.is_dir()):
        raise RuntimeNotAFolder(str(runtime))
    meta = runtime / META_DIR
    places = (
        (meta, False, "its .skillc-meta folder"),
        (runtime / SKILL_FILE, True, "the stub SKILL.md"),
        (meta / MANIFEST_FILE, True, "its manifest"),
        (meta / index_file, True, "its search index"),
    )
    for place, a_file, wanted in places:
        try:
            mode = place.lstat().st_mode
        except OSError:
            continue  # not there; else the build's own write says why
        if stat.S_ISDIR(mode) == a_file:
            kind = "a file" if stat.S_ISREG(mode) else "a symlink" if stat.S_ISLNK(mode) else None
            raise RuntimeEntryInTheWay(str(place), kind or file_kind(mode), wanted)
    for folder in (runtime, runtime / META_DIR):
        reason = not_writable(folder) if folder.is_dir() else None
        if reason is not None:
            raise CannotCreate(str(runtime), reason)


def _install(
    runtime: Path,
    index_file: str,
    new_index: Callable[[Path | sqlite3.Connection], IndexCounts] | None,
    contents: Callable[[list[int] | None], tuple[bytes, Manifest]],
    runtimes: str | None = None,
) -> tuple[IndexCounts | None, Manifest]:
    """Write the runtime's files into a temporary folder beside it, then move them in: the
    whole folder when there is no runtime yet, else file by file (index, stub, manifest last),
    leaving everything else in the runtime (logs, other sources' indexes) as it is.

    ``new_index`` writes the index (None: the runtime's index stays); ``contents`` then gives
    the stub and manifest, from the ``[size, mtime_ns]`` of the index the runtime will have.
    All of it is done in the runtime store opened once over its real path (``runtimes``, as
    the build checked it; else its real path now: :class:`~skillc_index.pinned.Pinned`), so
    a folder of its path swapped for a symlink meanwhile gets nothing (a ``.skillc/runtime``
    swapped got the runtime). The index is written as the other files are
    (:func:`_new_index`)."""
    from skillc_index.files import real_path

    _check_runtime_folder(runtime, index_file)
    staging: str | None = None
    real = runtimes or real_path(runtime.parent)
    with creating(runtime), _pinned(real, runtime) as store:
        try:
            store.sweep(f"{runtime.name}.build")  # of killed builds
            staging = store.temporary(f"{runtime.name}.build")
            with store.sub(staging) as made, made.sub(META_DIR, make=True) as meta:
                if new_index is None:
                    counts, index_stat = None, _index_stat(runtime / META_DIR / index_file)
                else:
                    by_path = Path(real, staging, META_DIR, index_file)
                    counts = _new_index(new_index, meta, index_file, by_path, runtime)
                    found = meta.lstat(index_file)
                    index_stat = None if found is None else [found.st_size, found.st_mtime_ns]
                stub, manifest = contents(index_stat)
                made.write(
                    {SKILL_FILE: stub, f"{META_DIR}/{MANIFEST_FILE}": manifest_bytes(manifest)}
                )
            _check_runtime_folder(runtime, index_file)
            if store.lstat(runtime.name) is None:
                try:
                    store.rename(staging, store, runtime.name, replace=False)
                    return counts, manifest
                except OSError:  # created meanwhile by another process: move file by file
                    pass
            with (
                store.sub(runtime.name) as built,
                built.sub(META_DIR, make=True) as built_meta,
                store.sub(staging) as made,
                made.sub(META_DIR) as meta,
            ):
                if counts is not None:
                    meta.rename(index_file, built_meta, index_file)
                made.rename(SKILL_FILE, built, SKILL_FILE)
                meta.rename(MANIFEST_FILE, built_meta, MANIFEST_FILE)
            return counts, manifest
        finally:
            if staging is not None:
                with suppress(OSError):  # renamed in: gone
                    store.remove(staging)


def _new_index(
    new_index: Callable[[Path | sqlite3.Connection], IndexCounts],
    meta: Pinned,
    name: str,
    by_path: Path,
    runtime: Path,
) -> IndexCounts:
    """Write the index ``name`` into the folder ``meta``. Where SQLite can hand a database
    over as bytes (``Connection.serialize``, Python 3.11 and later) it is built in memory
    and its bytes written as a new file in that folder's descriptor (:meth:`Pinned.write`),
    never by a path. Elsewhere SQLite writes it by its path ``by_path``, which a folder
    swapped for a symlink as it writes can lead elsewhere: unless the file landed in
    ``meta`` (:meth:`Pinned.holds`), what it wrote is removed by that path and the build is
    E022 (:class:`~skillc_index.diagnostics.FolderChanged`)."""
    from skillc_index.diagnostics import FolderChanged

    if _SERIALIZE and sys.version_info >= (3, 11):  # the version for mypy's sake
        with closing(sqlite3.connect(":memory:", isolation_level=None)) as memory:
            counts = new_index(memory)
            data = memory.serialize()
        meta.write({name: data})
        return counts
    counts = new_index(by_path)
    if not meta.holds(name, by_path):
        _remove_stray(by_path)  # SQLite wrote it elsewhere: taken back
        raise FolderChanged(str(runtime.parent))
    return counts


#: Whether the index is built in memory and written through the folder's descriptor
#: (``Connection.serialize``: Python 3.11 and later); else by its path.
_SERIALIZE = hasattr(sqlite3.Connection, "serialize")


def _remove_stray(index: Path) -> None:
    """Remove the index SQLite wrote by path where it should not have (a folder of the path
    swapped for a symlink as it wrote): the file this build made (its own, regular, under
    the temporary folder's new name), nothing else."""
    import stat

    with suppress(OSError):
        found = index.lstat()
        if stat.S_ISREG(found.st_mode) and found.st_uid == getattr(os, "geteuid", int)():
            index.unlink()


#: The runtime stores swept in this batch of builds (:func:`sweep_once_per_store`), when one
#: runs.
_SWEPT: list[set[str]] = []


def sweep_once_per_store(batch: bool = True) -> None:
    """From now on (until called again with ``batch=False``: the batch's end) a skill up to
    date sweeps its runtime store (:func:`_sweep_builds`) only if no other skill did yet,
    and then of every skill's leftovers (``.<any name>.build.<pid>-<hex>``): one listing
    of the store per batch, not one per skill (a listing of 5,000 runtimes for each of
    5,000 skills made a no-op ``build --all`` quadratic)."""
    _SWEPT.clear()
    if batch:
        _SWEPT.append(set())


def _sweep_builds(runtime: Path, runtimes: str | None) -> None:
    """Remove the staging folders killed builds of ``runtime`` left beside it
    (``.<name>.build.<pid>-<hex>``, of a process gone), as :func:`_install` does before it
    writes: a skill up to date was never written again, and its leftover (a partial search
    database) stayed for good. One that cannot be removed, or a store swapped, is left. In
    a batch (:func:`sweep_once_per_store`), each store once, for all its skills."""
    from skillc_index.files import real_path

    real = runtimes or real_path(runtime.parent)
    if _SWEPT and real in _SWEPT[0]:
        return
    with suppress(OSError, SkillcError), _pinned(real, runtime) as store:
        if _SWEPT:
            _SWEPT[0].add(real)
            store.sweep(kinds=("build",))
        else:
            store.sweep(f"{runtime.name}.build")


@contextmanager
def _pinned(real: str, runtime: Path) -> Iterator[Pinned]:
    """The runtime store at ``real`` (:meth:`Pinned.at`, made when missing): one of its
    folders swapped for a symlink since it was checked is ``FolderChanged`` (E022)."""
    from skillc_index.diagnostics import FolderChanged
    from skillc_index.pinned import Pinned

    try:
        folder = Pinned.at(real, make=True, shown=runtime.parent)
    except OSError as exc:
        if exc.errno not in (errno.ENOTDIR, errno.ELOOP):
            raise
        raise FolderChanged(str(runtime.parent)) from None
    with folder:
        yield folder


def compile_skill(
    skill: ResolvedSkill,
    *,
    tokenizer_setting: str = "ascii",
    files: SkillFiles | None = None,
    stats: Mapping[str, FileStat] | None = None,
    progress: Progress | None = None,
    force: bool = False,
    runtimes: str | None = None,
) -> CompileResult:
    """Compile ``skill.source`` into ``skill.runtime`` (RFC-0001, RFC-0004:C-INDEX), written
    in the runtime store's real path ``runtimes`` (as the caller checked it; default: its
    real path then), never through a symlink swapped in since.

    Raises :class:`PathEscapesRoot` (E012) when a symlink leads out of the source,
    :class:`MissingFrontmatterField` (E011) for SKILL.md without ``name``/``description``, and
    :class:`IndexCollision` (E003) when the index file belongs to another source, and
    :class:`IndexUnusable` (E002) when the skill is larger than an index may be (by its files'
    stats, before any is read: :func:`~skillc_index.index.cache.refuse_too_large`) or (not
    ``force``) its index is a newer skillc's (E999 for its manifest: refuse_older_build); in
    each case nothing is written. ``force`` rebuilds stub, manifest and index even when they
    are current.
    ``stats``: the :func:`~skillc_index.index.schema.stat_files` of ``files`` in
    ``skill.source``, taken before any was read (``build``'s, for E002 before an import), the
    first attempt's instead of its own.
    A source written while it was indexed makes the build start again (module docstring);
    E002 when that happens :data:`~skillc_index.index.cache.ATTEMPTS` times.
    """
    found = walk_skill(skill.source) if files is None else files
    if found.escapes:
        raise PathEscapesRoot(found.escapes[0])
    reason = ""
    for attempt in range(ATTEMPTS):
        pause_before(attempt)  # after a source changed under the attempt before
        try:
            args = (skill, found, tokenizer_setting, progress, force, stats, runtimes, not reason)
            return _compile(*args)
        except SourcesChanged as exc:
            reason = str(exc)
            stats = None  # a source changed since: the next attempt stats them again
    raise kept_changing(skill.name, reason)


def _compile(
    skill: ResolvedSkill,
    found: SkillFiles,
    tokenizer_setting: str,
    progress: Progress | None,
    force: bool,
    stats: Mapping[str, FileStat] | None,
    runtimes: str | None,
    settled: bool,
) -> CompileResult:
    """One attempt of :func:`compile_skill` (:class:`SourcesChanged` when a source changed
    between its hash and its parse)."""
    source, runtime = skill.source, skill.runtime
    if stats is None:  # before reading: a later edit shows as a change
        stats = stat_files(source, found.files)
    refuse_too_large(skill.name, indexed_files(found.files), stats)  # E002, nothing read
    if settled and settle(stats):
        # Changed so recently, a file could change again unseen by its stats (clock ticks):
        # readers would hash it on every call. Not after a change: index.cache says why.
        stats = stat_files(source, found.files)
    stats_at_ns = time.time_ns()
    pointers: list[str] = []  # Git LFS pointers: a checkout without `git lfs pull`
    digests = file_digests(source, found.files, pointers)
    current_hash = combine_digests(digests)
    tokenizer = index_tokenizer(tokenizer_setting)
    state = inspect_index(runtime, source, current_hash, tokenizer)
    manifest = read_manifest(runtime)
    refuse_older_build(skill.name, state, manifest, force=force)  # E003; E002/E999: newer's
    index_stat = _index_stat(state.path)
    if state.status == "current" and force:
        state = state._replace(status="stale", reason="forced")
    elif state.status == "current" and manifest is not None:
        # current by its own meta but of another stat than the manifest's: a reader rebuilt it
        # on demand (left as it is, the manifest takes its stat: not up to date below), or it
        # was damaged in place (its pages checked: built again)
        recorded = manifest.extra.get("index_stat")
        if recorded is not None and recorded != index_stat and not _sound(state.path):
            state = state._replace(status="stale", reason="the index file is damaged")
    counts: IndexCounts | None = None
    notices: tuple[Notice, ...] = ()
    up_to_date = (
        state.status == "current"
        and manifest is not None
        and _matches((skill.name, source, runtime), manifest, current_hash, index_stat)
    )
    if not up_to_date or manifest is None:
        counts, manifest, notices = _write_runtime(
            skill,
            found,
            progress,
            state,
            tokenizer,
            current_hash,
            stats,
            digests,
            stats_at_ns,
            pointers,
            runtimes,
        )
    else:  # nothing to write: what killed builds of it left is removed all the same
        _sweep_builds(runtime, runtimes)

    if counts is None:
        report = IndexReport(state.path, "up-to-date", "", tokenizer, None)
    else:
        action: IndexAction = "created" if state.status == "missing" else "rebuilt"
        reason = state.status if not state.reason else f"{state.status}: {state.reason}"
        report = IndexReport(state.path, action, reason, tokenizer, counts)
    return CompileResult(
        skill=skill.name,
        source=source,
        runtime=runtime,
        source_hash=current_hash,
        up_to_date=up_to_date,
        stub=runtime / SKILL_FILE,
        manifest=manifest,
        index=report,
        files=len(found.files),
        notices=(*skipped_notices(source, found.skipped, "built"), *notices),
    )


def _write_runtime(
    skill: ResolvedSkill,
    found: SkillFiles,
    progress: Progress | None,
    state: IndexState,
    tokenizer: str,
    current_hash: str,
    stats: Mapping[str, FileStat],
    digests: Mapping[str, str],
    stats_at_ns: int,
    pointers: Sequence[str],
    runtimes: str | None = None,
) -> tuple[IndexCounts | None, Manifest, tuple[Notice, ...]]:
    """Read SKILL.md (E011 before anything is written), then write the new runtime: a new
    index unless ``state`` is current, the stub and the manifest. Returns the warnings of
    the parse too, and one for each of ``pointers`` (Git LFS pointers, found as
    :func:`file_digests` read them)."""
    from skillc_index.build.stub import STUB_FORMAT

    sources = Sources(skill, found, progress, digests)
    # a checkout without `git lfs pull`: said as the encoding is
    sources.notices += [lfs_notice(sources.name, rel, "built as it is") for rel in pointers]

    def new_index(path: Path | sqlite3.Connection) -> IndexCounts:
        return write_index(
            path,
            source=skill.source,
            current_hash=current_hash,
            tokenizer=tokenizer,
            parsed=sources.parsed(),
            files=stats,
            digests=digests,
            stats_at_ns=stats_at_ns,
        )

    def contents(index_stat: list[int] | None) -> tuple[bytes, Manifest]:
        stub_bytes = sources.stub().encode("utf-8")
        return stub_bytes, Manifest(
            skill=skill.name,
            version=MANIFEST_VERSION,
            built_at=utc_now(),
            source_hash=current_hash,
            extra={
                "name": sources.name,
                "scope": skill.scope,
                "source_path": valid_utf8(str(skill.source)),
                "index": state.path.name,
                "index_stat": index_stat,
                "tokenizer": tokenizer,
                "files": len(found.files),
                "stub_sha256": hashlib.sha256(stub_bytes).hexdigest(),
                "stub_format": STUB_FORMAT,
                "skillc_version": _skillc_version(),
            },
        )

    rebuild = state.status != "current"
    if not rebuild and (index := fresh_index(skill)) is not None:
        # only the stub is rewritten: no Markdown parsed (an index unreadable after all:
        # stub() parses the sources)
        with suppress(IndexUnusable):
            sources.read_index(index)
    counts, manifest = _install(
        skill.runtime, state.path.name, new_index if rebuild else None, contents, runtimes
    )
    return counts, manifest, tuple(sources.notices)
