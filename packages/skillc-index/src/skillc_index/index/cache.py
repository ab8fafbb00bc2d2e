"""The index is a cache (DECISIONS "Gateway and index"): :func:`ensure_index` gives the
readers (``show``, ``search``, ``outline``) a current index of any skill, built or not.

- **Checked as always.** The stat-only check of
  :func:`~skillc_index.index.freshness.checked_index` (a walk and one ``stat`` per file); a
  current index is returned as it is, and that is all a read of a fresh index costs.
- **Built on demand.** A missing, corrupt or stale index (sources changed, another schema
  version or tokenizer) is built where the build puts it: ``<runtime>/.skillc-meta/
  search-<hash16>.db`` in the skill's runtime (a store skill's, else the project's runtime,
  else the global one: :func:`~skillc_index.layout.runtime_for`), never in the skill's folder
  or an agent folder. Only the index is written: a build's stub and manifest stay what the
  build wrote (``skc list`` then says ``stale``).
- **Once.** Building takes a lock, ``search-<hash16>.lock`` beside the index (``flock``); a
  process that waited for it checks again before building, so two readers never index one
  skill twice. The index is written under a temporary name and renamed into place: nobody
  opens half of one.
- **Only what changed.** When the indexed files are the same ones and at most half of them
  changed, a copy of the index gets the rows of the changed files replaced
  (:func:`~skillc_index.index.writer.update_index`; rows are numbered by file, so the result
  is the index a whole build writes); otherwise the whole index is written, by the writer and
  from the rows (:mod:`~skillc_index.index.rows`) the build uses.
- **Read-only runtimes** (a sandbox): a runtime that cannot be written, or whose folder leads
  out of its project or skillc home, gets its index in a private folder of this process in
  the temporary directory, removed when the process exits; where none can be made either
  (everything read-only), in this process's memory (:mod:`.memory`), with a warning, once.
- **Never over a newer skillc's index** (its schema version above this code's:
  :func:`~skillc_index.index.freshness.newer_index`; this process runs older code, an MCP
  server started before an upgrade): it is left as it is, this process reads an index it
  builds in memory, with a warning, once (:func:`_newer`).
- **E002 only when the skill cannot be indexed**, with the reason: larger than an index may
  be (:data:`MAX_INDEXED_FILES`, :data:`MAX_INDEXED_BYTES`, :data:`MAX_SOURCE_BYTES`, by the
  files' stats, before any is read; ``skc build`` refuses such a skill too:
  :func:`refuse_too_large`), a file that cannot be read (but one this user may not read,
  another user's of mode 600, is left out: no rows, a warning of the readers,
  :data:`~skillc_index.index.freshness.UNREADABLE`), no place to write, or sources that kept
  changing while they were indexed.

Like the build, the stats that go into an index are taken once the newest source file is
older than the file system's timestamp granularity (:func:`~skillc_index.index.schema.
racy_window_ns`: 100 ms, 2.1 s on a file system of whole seconds; waiting out the rest of it
when a file was written a moment ago, never longer: :func:`~skillc_index.index.schema.settle`), so
the readers after it check stats alone; a file dated in the future is not waited for, and
the readers hash it. An attempt
after one the sources changed under does not wait: an editor saving every 100 ms or so left
no quiet time for both that wait and a build, so three attempts in a row failed (E002); its
index records the stats as they are, and the readers hash the files changed that recently,
on every read until the index is written again (a change of one of its files, ``skc build
--force``): the time the stats were recorded at is the index's, and a read writes nothing.
A reader's own attempt after one a file changed under (``show``) does not wait either
(``settled``). The index just written is the answer even when a file is saved between its
write and the check after it (:func:`~skillc_index.index.freshness.written_index`): it was
current then, a version of the sources that existed during the call (a save landing there
failed about 2 ``skc show`` in 150 with E002 while an editor saved every 100 ms); a reader
that reads a file changed since hashes it and tries again.
"""

from __future__ import annotations

import os
from pathlib import Path
from typing import TYPE_CHECKING, NamedTuple

from skillc_index.diagnostics import IndexCollision, IndexUnusable, SkillcError
from skillc_index.index.freshness import (
    MEMORY_RUNTIME,
    IndexHandle,
    IndexState,
    checked_index,
    newer_index,
    written_index,
)
from skillc_index.layout import META_DIR
from skillc_index.skill_files import MAX_INDEXED_FILES

if TYPE_CHECKING:
    from collections.abc import Iterator, Mapping, Sequence
    from contextlib import AbstractContextManager

    from skillc_index.index.runtime_lock import RuntimeLock
    from skillc_index.index.schema import FileStat, IndexMeta
    from skillc_index.index.writer import ParsedFile
    from skillc_index.layout import ResolvedSkill

__all__ = [
    "ATTEMPTS",
    "MAX_INDEXED_BYTES",
    "MAX_INDEXED_FILES",
    "MAX_SOURCE_BYTES",
    "SourcesChanged",
    "ensure_index",
    "hashed_bytes",
    "kept_changing",
    "pause_before",
    "refuse_too_large",
]

# The most ``.md``/``.txt`` files a skill may have to be indexed (on demand or by a build):
# :data:`skillc_index.skill_files.MAX_INDEXED_FILES`, the bound lint and outline read files to too.
#: The most bytes of ``.md``/``.txt`` files a skill may have to be indexed (about
#: 8 s on a 2-core machine; the largest skill of the 581 of the corpus has 0.8 MB).
MAX_INDEXED_BYTES = 32 << 20
#: The most bytes of all its files (each is hashed) a skill may have to be indexed.
MAX_SOURCE_BYTES = 1 << 30
#: How many times the sources may change under a build before the reader (or ``skc build``)
#: gives up (E002).
ATTEMPTS = 3
#: How long each attempt after the first waits first (seconds): an editor's quick saves of
#: one file (write a temporary, rename it over) settle, where three back to back all failed.
ATTEMPT_WAITS_S = (0.02, 0.05)
#: How long a reader waits for another process building the same index (seconds), after
#: which it builds its own (the renames keep that correct; it only costs the work twice).
LOCK_WAIT_S = 120.0

_private: Path | None = None
"""This process's own runtime for indexes it cannot write in place (:func:`_private_runtime`)."""
_unwritable = ""
"""Why :data:`_private` is :data:`~.freshness.MEMORY_RUNTIME` (the warning of :mod:`.memory`)."""


class SourcesChanged(Exception):
    """The sources changed while they were indexed (a file vanished or was swapped, or its
    bytes are not those hashed): try again, at most :data:`ATTEMPTS` times (here, and in the
    build: :func:`~skillc_index.build.compiler.compile_skill`), then :func:`kept_changing`."""


def pause_before(attempt: int) -> None:
    """Wait before the ``attempt``-th attempt (from 0) at indexing sources that changed under
    the one before (:data:`ATTEMPT_WAITS_S`; not before the first)."""
    if 0 < attempt <= len(ATTEMPT_WAITS_S):
        import time

        time.sleep(ATTEMPT_WAITS_S[attempt - 1])


def kept_changing(skill: str, reason: str) -> IndexUnusable:
    """E002 for a skill whose sources changed under each of the :data:`ATTEMPTS` to index it
    (``reason``: the last :class:`SourcesChanged`)."""
    return IndexUnusable(skill, f"the sources kept changing while they were indexed ({reason})")


def hashed_bytes(rel: str, data: bytes, digest: str | None) -> bytes:
    """``data``, the bytes of the source file ``rel`` read to be parsed into the index, when
    they hash as ``digest`` (its SHA-256 taken before, which the index records) said, else
    :class:`SourcesChanged`. A file is hashed, then read again to be parsed: a version written
    between the two reads (of the same size and time stamp as the one hashed, within the file
    system's clock tick) would give the index the lines of one version under the digest of
    the other, which the readers trust (``show`` and ``search`` would serve wrong lines)."""
    from skillc_index.digests import sha256_hasher

    if sha256_hasher()(data).hexdigest() != digest:
        raise SourcesChanged(f"'{rel}' changed while it was indexed")
    return data


class _NotWritable(Exception):
    """The index could not be written where it was being built (the reason)."""


def ensure_index(
    skill: ResolvedSkill,
    tokenizer_setting: str,
    *,
    damaged: IndexHandle | None = None,
    settled: bool = True,
) -> IndexHandle:
    """A current index of ``skill`` for ``tokenizer_setting``, checked (stat-only in the
    common case) and, when it is not current, built on demand (module docstring).

    ``damaged``: a handle whose reads failed (RFC-0004: a read failure is corruption); that
    file is built again, whatever its check says. ``settled`` False: a build does not wait
    for the sources to settle (a reader's attempt after one a file changed under: the wait
    would end about when an editor saving every 100 ms saves again). Raises E003 for an
    index of another source at this path (a hash collision), E002 (:class:`IndexUnusable`,
    with the reason) when the skill cannot be indexed.
    """
    if damaged is None:
        state, handle = checked_index(skill, tokenizer_setting)
        if handle is not None:
            return handle
        if state.status == "collision":
            raise IndexCollision(state.hash16)
    return _build_on_demand(skill, tokenizer_setting, damaged, settled)


def _build_on_demand(
    skill: ResolvedSkill, tokenizer_setting: str, damaged: IndexHandle | None, settled: bool
) -> IndexHandle:
    """The slow path of :func:`ensure_index`: under the index's lock, check again, then build."""
    for built in (_private, MEMORY_RUNTIME) if damaged is None else ():
        # where this process built it before (in memory: beside a newer skillc's, _newer)
        handle = None if built is None else checked_index(skill, tokenizer_setting, built)[1]
        if handle is not None:
            return handle
    reason = newer = ""
    private = False
    for attempt in range(ATTEMPTS):
        if reason:  # the sources changed under the attempt before
            pause_before(attempt)
        runtime, lock, made = _locked_runtime(skill, private, newer)
        with lock:
            try:
                state, handle = checked_index(skill, tokenizer_setting, runtime)
                if handle is not None and not _same_file(handle, damaged):
                    return handle  # built meanwhile by the process we waited for
                if state.status == "collision":
                    raise IndexCollision(state.hash16)
                if runtime == skill.runtime and (newer := _newer(state)):
                    continue  # a newer skillc's: never rewritten, built in memory instead
                try:
                    written = _write(
                        skill,
                        runtime,
                        tokenizer_setting,
                        update=damaged is None,
                        settled=settled and not reason,
                        why=newer or _unwritable,
                    )
                except SourcesChanged as exc:
                    reason = str(exc)
                    continue
                except _NotWritable as exc:
                    if runtime == _private:
                        raise IndexUnusable(skill.name, f"cannot write its index: {exc}") from None
                    private = True  # a runtime that lets a lock file be made but nothing else
                    continue
                damaged = None
                state, handle = checked_index(skill, tokenizer_setting, runtime)
                if handle is None:  # saved since it was written: that version is an answer
                    handle = written_index(skill, tokenizer_setting, runtime, written)
                if handle is not None:
                    return handle
                reason = state.reason
            finally:
                if made is not None:  # while the lock is held (RuntimeLock)
                    made.undo(skill)
    raise kept_changing(skill.name, reason)


def _newer(state: IndexState) -> str:
    """The warning for an index a newer skillc wrote (:func:`~.freshness.newer_index`: this
    process runs older code), which is left as it is; "" for any other."""
    newer = newer_index(state.meta)  # its one remedy: upgrade skillc, or restart the process
    return newer and (
        f"the index of a skill was {newer}; this process leaves that index as it is and "
        "reads one it builds in memory"
    )


def _same_file(handle: IndexHandle, damaged: IndexHandle | None) -> bool:
    return damaged is not None and handle.snapshot.identity == damaged.snapshot.identity


def _locked_runtime(
    skill: ResolvedSkill, private: bool, newer: str = ""
) -> tuple[Path, AbstractContextManager[object], RuntimeLock | None]:
    """Where the index is built, its lock, and the lock again when it is the skill's
    runtime's (:class:`~.runtime_lock.RuntimeLock`: what was made there for it): the skill's
    runtime, else (not writable, or its folder leads out of its base; or ``private``) this
    process's private runtime; with ``newer`` (:func:`_newer`), this process's memory. E002
    when none can be written."""
    from skillc_index.index.schema import hash16
    from skillc_index.locks import FileLock  # here: a read of a current index takes no lock

    if newer:
        from skillc_index.index.memory import LOCK, available

        if not available():  # SQLite before 3.36: no memdb
            raise IndexUnusable(skill.name, newer)
        return MEMORY_RUNTIME, LOCK, None
    name = f"search-{hash16(skill.source)}.lock"
    if not private:
        from skillc_index.index.runtime_lock import RuntimeLock

        try:
            lock = RuntimeLock(skill.runtime, name)
        except OSError:
            pass
        else:
            return skill.runtime, lock, lock
    try:
        runtime = _private_runtime()
        if runtime == MEMORY_RUNTIME:
            from skillc_index.index.memory import LOCK

            return runtime, LOCK, None
        meta = runtime / META_DIR
        meta.mkdir(exist_ok=True)
        return runtime, FileLock(meta / name, LOCK_WAIT_S), None
    except OSError as exc:
        raise IndexUnusable(skill.name, f"cannot write its index: {exc.strerror or exc}") from exc


def _private_runtime() -> Path:
    """A folder of this process in the temporary directory, removed when it exits; where none
    can be made (no writable temporary directory: a sandbox where everything is read-only),
    :data:`~.freshness.MEMORY_RUNTIME`, whose indexes this process keeps in memory
    (:mod:`.memory`, with a warning, once), or OSError without SQLite's ``memdb``."""
    global _private, _unwritable
    if _private is None:
        import atexit
        import shutil
        import tempfile

        try:
            _private = Path(tempfile.mkdtemp(prefix="skillc-index-"))
        except OSError:
            from skillc_index.index.memory import available

            if not available():
                raise
            _private = MEMORY_RUNTIME
            # said of the cause, not of tempfile's words (a list of folders, a capital) nor
            # of why the runtime was not written (read-only, leading out of its base: either)
            _unwritable = (
                "cannot write the index of a skill in its runtime, and no temporary directory "
                "can be written: indexes are built in memory, by each process again; "
                "set TMPDIR to a writable folder"
            )
        else:
            atexit.register(shutil.rmtree, _private, True)  # os._exit: remove_private_runtime
    return _private


def remove_private_runtime() -> None:
    """Remove this process's private runtime (:func:`_private_runtime`), as its exit does:
    a process that ends with :func:`os._exit` (whose exit handlers do not run) calls this
    first, else each such exit left a ``skillc-index-*`` folder in the temporary directory."""
    if _private is not None and _private != MEMORY_RUNTIME:
        import shutil

        shutil.rmtree(_private, ignore_errors=True)


def _write(
    skill: ResolvedSkill,
    runtime: Path,
    tokenizer_setting: str,
    *,
    update: bool,
    settled: bool = True,
    why: str = "",
) -> str:
    """Build the index of ``skill`` into ``runtime`` (the caller holds the lock), and say the
    source hash it records (the sources' as they were when it was written): by
    replacing the changed files' rows in a copy of the index there when ``update`` and that
    is possible, else whole. :class:`SourcesChanged` when the sources changed under it,
    :class:`_NotWritable` when the index cannot be written there. ``settled``: the stats
    are taken once the sources are old enough for the readers to trust them alone (not
    after an attempt they changed under: see the module). ``why``: the warning of an index
    built in memory."""
    import sqlite3
    import time

    from skillc_index.atomic import abandoned, temporary_path
    from skillc_index.digests import combine_digests
    from skillc_index.index.fts import index_tokenizer
    from skillc_index.index.rows import indexed_files
    from skillc_index.index.schema import hash16, settle
    from skillc_index.skill_files import walk_skill

    source = skill.source
    found = walk_skill(source)
    indexed = indexed_files(found.files)
    stats = _stats(source, found.files)
    refuse_too_large(skill.name, indexed, stats)
    # as the build does (compiler.compile_skill): readers check stats only
    if settled and settle(stats):
        stats = _stats(source, found.files)
    stats_at_ns = time.time_ns()
    tokenizer = index_tokenizer(tokenizer_setting)

    meta = runtime / META_DIR
    target = meta / f"search-{hash16(source)}.db"
    if runtime == MEMORY_RUNTIME:
        return _write_in_memory(skill, target, indexed, stats, stats_at_ns, tokenizer, why)
    prefix = f"{target.name}.tmp"
    for left in abandoned(meta, prefix):  # of a reader killed while it built
        left.unlink(missing_ok=True)
    temporary = temporary_path(meta, prefix)
    try:
        rows = _Rows(skill, indexed)
        base = _copy(target, temporary, rows, tokenizer) if update else None
        digests = rows.digests(stats, base)
        current_hash = combine_digests(digests)
        try:
            updated = base is not None and _update(
                temporary, rows, base, stats, digests, stats_at_ns, current_hash
            )
            if not updated:
                from skillc_index.index.writer import write_index

                temporary.unlink(missing_ok=True)
                write_index(
                    temporary,
                    source=source,
                    current_hash=current_hash,
                    tokenizer=tokenizer,
                    parsed=(rows.of(number) for number in range(len(indexed))),
                    files=stats,
                    digests=digests,
                    stats_at_ns=stats_at_ns,
                )
            if _indexed_changed(source, indexed, stats):
                # a file was written while it was hashed or parsed: its digest, rows and
                # stats may come from different versions, and a reader trusting the stats
                # would read the lines of one version at the places of the other
                raise SourcesChanged("a file changed while it was indexed")
            temporary.replace(target)
        except (OSError, sqlite3.Error) as exc:  # the sources' own errors are _Rows'
            raise _NotWritable(getattr(exc, "strerror", None) or str(exc)) from exc
    finally:
        temporary.unlink(missing_ok=True)
    return current_hash


def _write_in_memory(
    skill: ResolvedSkill,
    target: Path,
    indexed: Sequence[str],
    stats: Mapping[str, FileStat],
    stats_at_ns: int,
    tokenizer: str,
    why: str,
) -> str:
    """:func:`_write`'s whole build (no copy to update) into a database in memory, kept as
    the index ``target`` (:mod:`.memory`, which warns ``why``) once the sources proved
    unchanged meanwhile; the source hash it records."""
    import sqlite3

    from skillc_index.digests import combine_digests
    from skillc_index.index.memory import keep
    from skillc_index.index.writer import write_index

    rows = _Rows(skill, indexed)
    digests = rows.digests(stats, None)
    current_hash = combine_digests(digests)

    def fill(connection: sqlite3.Connection) -> None:
        write_index(
            connection,
            source=skill.source,
            current_hash=current_hash,
            tokenizer=tokenizer,
            parsed=(rows.of(number) for number in range(len(indexed))),
            files=stats,
            digests=digests,
            stats_at_ns=stats_at_ns,
        )
        if _indexed_changed(skill.source, indexed, stats):  # as _write
            raise SourcesChanged("a file changed while it was indexed")

    try:
        keep(target, fill, why)
    except (OSError, sqlite3.Error) as exc:  # no memory left, say
        raise _NotWritable(getattr(exc, "strerror", None) or str(exc)) from exc
    return current_hash


def _stats(source: Path, files: Sequence[str]) -> dict[str, FileStat]:
    """The stats of ``files``, but of one no index reads (not Markdown) that vanished since
    the walk: no longer one of the skill's files, no reason to start again. An indexed file
    removed meanwhile is :class:`SourcesChanged`."""
    from skillc_index.index.rows import is_indexed
    from skillc_index.index.schema import stat_files

    try:
        return stat_files(source, files, optional=lambda rel: not is_indexed(rel))
    except OSError as exc:  # a file removed between the walk and its stat
        raise SourcesChanged(f"'{exc.filename}' vanished") from exc


def _indexed_changed(source: Path, indexed: Sequence[str], stats: Mapping[str, FileStat]) -> bool:
    """Whether an indexed file's stats are no longer ``stats``' (it was written to, or
    removed, while the index was built). Another file's change is none of the index's: its
    digest is of a version no older than its recorded stats, which a reader finds changed and
    hashes again (or a walk no longer lists): only the indexed files are stat'ed again."""
    now = _stats(source, indexed)
    return any(now.get(rel) != stats.get(rel) for rel in indexed)


def refuse_too_large(skill: str, indexed: Sequence[str], stats: Mapping[str, FileStat]) -> None:
    """E002 (:class:`~skillc_index.IndexUnusable`) when the skill named ``skill`` is larger than
    an index may be (``indexed``: its ``.md``/``.txt`` files; ``stats``: every file's, taken
    before any is
    read): the readers' index made on demand, and ``skc build``'s (which read each indexed
    file whole: a 400 MB ``.md`` took 2.8 GB), so nothing is read then."""
    indexed_bytes = sum(stats[rel].size for rel in indexed)
    all_bytes = sum(stat.size for stat in stats.values())
    if len(indexed) > MAX_INDEXED_FILES:
        what = f"{len(indexed):,} Markdown and text files, more than {MAX_INDEXED_FILES:,}"
    elif indexed_bytes > MAX_INDEXED_BYTES:
        what = (
            f"{indexed_bytes / (1 << 20):.1f} MiB of Markdown and text, more than "
            f"{MAX_INDEXED_BYTES >> 20} MiB"
        )
    elif all_bytes > MAX_SOURCE_BYTES:
        what = f"{all_bytes / (1 << 20):.1f} MiB of files, more than {MAX_SOURCE_BYTES >> 20} MiB"
    else:
        return
    raise IndexUnusable(skill, f"too large to index ({what})")


class _Base(NamedTuple):
    """The index a copy was made of: its metadata, and the stats and digests it recorded."""

    meta: IndexMeta
    stats: Mapping[str, FileStat]
    digests: Mapping[str, str]


class _Rows:
    """What is read of the sources to index them: each file's digest and its rows. A file
    that vanished or was swapped (for a folder, a FIFO, a link leading out) meanwhile is
    :class:`SourcesChanged`; one that cannot be read is E002."""

    def __init__(self, skill: ResolvedSkill, indexed: Sequence[str]) -> None:
        self.skill, self.indexed = skill, indexed
        self.hashed: Mapping[str, str] = {}  # :meth:`digests`' answer, which :meth:`of` checks

    def _failed(self, rel: str, exc: Exception) -> Exception:
        if isinstance(exc, SkillcError | FileNotFoundError):
            return SourcesChanged(f"'{rel}' changed: {exc}")
        reason = f"cannot read '{rel}': {getattr(exc, 'strerror', None) or exc}"
        return IndexUnusable(self.skill.name, reason)

    def digests(self, stats: Mapping[str, FileStat], base: _Base | None) -> dict[str, str]:
        """Every file's SHA-256: as ``base`` recorded it for a file whose stats prove it
        unchanged since, else hashed now; :data:`~skillc_index.index.freshness.UNREADABLE`
        for one this user may not read (it gets no rows)."""
        from skillc_index.index.freshness import current_digests, source_digest
        from skillc_index.index.schema import canonical_source

        canonical = canonical_source(self.skill.source)
        digests: dict[str, str] = {}
        if base is not None:
            try:
                digests = current_digests(canonical, stats, base.stats, base.digests, base.meta)
            except (OSError, SkillcError) as exc:
                raise self._failed(str(getattr(exc, "filename", "") or "a file"), exc) from exc
        else:
            for rel in stats:
                try:
                    digests[rel] = source_digest(canonical, rel)
                except (OSError, SkillcError) as exc:
                    raise self._failed(rel, exc) from exc
        self.hashed = digests
        return digests

    def of(self, number: int) -> ParsedFile:
        """The rows of the ``number``-th indexed file, read and parsed now, from bytes that
        hash as :meth:`digests` said (:func:`hashed_bytes`)."""
        from skillc_index.files import decoded, open_in_root
        from skillc_index.index.freshness import UNREADABLE
        from skillc_index.index.rows import parse_rows
        from skillc_index.index.writer import ParsedFile

        rel = self.indexed[number]
        if self.hashed.get(rel, "").startswith(UNREADABLE):  # left out: no rows
            return ParsedFile(rel, (), ())
        try:
            with open_in_root(self.skill.source, rel) as handle:
                data = handle.read()
        except (OSError, SkillcError) as exc:
            raise self._failed(rel, exc) from exc
        return parse_rows(rel, decoded(hashed_bytes(rel, data, self.hashed.get(rel))))


def _copy(target: Path, temporary: Path, rows: _Rows, tokenizer: str) -> _Base | None:
    """Copy the index at ``target`` to ``temporary`` when it can be updated (readable, this
    schema version, the same tokenizer, source and indexed files) and say what it recorded;
    None (nothing usable made) otherwise."""
    from skillc_index.files import regular_fd
    from skillc_index.index.freshness import read_digests, read_index_files
    from skillc_index.index.rows import is_indexed
    from skillc_index.index.schema import SCHEMA_VERSION, canonical_source

    try:
        # only a regular file, opened without blocking: a FIFO there would hang the reader
        # (and the MCP server) for ever; anything else is built anew, never copied
        fd = regular_fd(str(target), None, target.name)
        with os.fdopen(fd, "rb") as old, open(temporary, "xb") as copy:  # one file, as it is
            while chunk := old.read(1 << 20):  # not shutil: it imports zlib, bz2 and lzma
                copy.write(chunk)
        meta, stats = read_index_files(temporary)
        digests = read_digests(temporary)
    except (OSError, ValueError, SkillcError):
        return None
    wanted = (SCHEMA_VERSION, tokenizer, canonical_source(rows.skill.source))
    if (meta.schema_version, meta.tokenizer, meta.skill_path) != wanted:
        return None
    if {rel for rel in stats if is_indexed(rel)} != set(rows.indexed):
        return None
    return _Base(meta, stats, digests)


def _update(
    temporary: Path,
    rows: _Rows,
    base: _Base,
    stats: Mapping[str, FileStat],
    digests: Mapping[str, str],
    stats_at_ns: int,
    current_hash: str,
) -> bool:
    """Replace, in the copy at ``temporary``, the rows of the indexed files whose digest
    changed; False (the caller builds it whole) when most did (a whole build is as quick)
    or the copy cannot be updated (damaged pages)."""
    import sqlite3

    from skillc_index.index.writer import update_index

    changed = [
        number for number, rel in enumerate(rows.indexed) if digests[rel] != base.digests.get(rel)
    ]
    if len(changed) * 2 > len(rows.indexed):
        return False

    def replaced() -> Iterator[tuple[int, ParsedFile]]:
        for number in changed:
            yield number, rows.of(number)

    try:
        update_index(
            temporary,
            current_hash=current_hash,
            replaced=replaced(),
            files=stats,
            digests=digests,
            stats_at_ns=stats_at_ns,
        )
    except sqlite3.DatabaseError:  # damaged pages, no room...: the caller builds it whole
        return False
    return True
