"""Whether an index can be used, and the handle every read of it takes.

- :func:`checked_index` checks an index once, in RFC-0004's order (missing, corrupt,
  collision, stale), and returns its state and, when current, an :class:`IndexHandle`: the
  database path with the metadata and file stats the check read, and the stats of the source
  files the check found to be the indexed ones. The readers (``show``, ``search``,
  ``outline``) get it through :func:`~skillc_index.index.cache.ensure_index`, which builds the
  index when it is not current. The reads in :mod:`~skillc_index.index.queries` take that
  handle, and a reader that then reads a source file compares the file's stats with the
  handle (:meth:`IndexHandle.describes`) instead of checking the index again.
- :func:`require_index` is the check alone (E002 instead of a build), :func:`fresh_index`
  the same giving None; :func:`check_index` / :func:`index_is_fresh` give the verdict as
  data; :func:`inspect_index` and :func:`stored_index` are the build's view.

Stale means the index no longer matches the sources as they are now (DECISIONS "Gateway and
index"). The common case costs a folder walk and one ``stat`` per file; only when a file's
size, times or inode changed are files hashed: those whose stats moved
(:func:`current_digests`; the index keeps every file's digest), and an edit that was undone
stays ``current``.

What the process read of each index file is kept in one cache (:data:`_snapshots`), valid
while the file is unchanged (same device, inode, size and time: builds replace the file,
never edit it), so a long-running reader such as the MCP server checks freshness without
opening the database on every call; the headings that ``show`` looks up are kept there too.
"""

from __future__ import annotations

import os
import sqlite3
import stat as stat_module
import time
from collections.abc import Mapping
from contextlib import closing
from pathlib import Path
from typing import TYPE_CHECKING, Literal

from skillc_index.diagnostics import IndexCollision, IndexUnusable, Notice, SkillcError
from skillc_index.digests import combine_digests, file_sha256, source_hash
from skillc_index.files import path_from_db
from skillc_index.index.fts import index_tokenizer
from skillc_index.index.schema import (
    REQUIRED_KEYS,
    REQUIRED_TABLES,
    SCHEMA_OBJECTS,
    SCHEMA_VERSION,
    FileStat,
    IndexMeta,
    StoredHeading,
    canonical_hash16,
    canonical_source,
    racy_window_ns,
    stat_files,
)
from skillc_index.layout import META_DIR, ResolvedSkill
from skillc_index.record import Record
from skillc_index.skill_files import walk_skill
from skillc_index.sqlite import connect

if TYPE_CHECKING:
    from skillc_index.index.queries import IndexOutline

__all__ = [
    "MEMORY_RUNTIME",
    "READ_TIMEOUT_MS",
    "UNREADABLE",
    "IndexHandle",
    "IndexSnapshot",
    "IndexState",
    "IndexStatus",
    "check_index",
    "checked_index",
    "current_digests",
    "current_source_hash",
    "fresh_index",
    "index_is_fresh",
    "inspect_index",
    "kept_in_memory",
    "newer_index",
    "read_digests",
    "read_index_files",
    "require_index",
    "source_digest",
    "stored_index",
    "unreadable_notice",
    "unreadable_notices",
    "written_index",
]

IndexStatus = Literal["missing", "corrupt", "collision", "stale", "current"]

#: How long a reader waits for a lock on an index. Builds never write an index in place (they
#: rename a new file over it), so a lock can only be another program's: waiting longer would
#: not help, and a busy reader answers E002 (RFC-0004: a read failure is corruption) quickly.
READ_TIMEOUT_MS = 500

#: The runtime of the indexes this process keeps in memory, where none can be written
#: (:mod:`.memory`): no folder; :func:`_open` reads them as it reads index files.
MEMORY_RUNTIME = Path(":memory:")
#: The device of an index in memory in its :data:`Identity` (no file has it).
_MEMORY_DEVICE = -1

#: The start of the digest the index records for a source file this user may not read (the
#: system's reason follows: ``unreadable: Permission denied``; no SHA-256 looks so): the file
#: has no rows, the readers warn of it (:func:`unreadable_notices`), and it is indexed once it
#: can be read (``chmod`` changes its change time: its stats no longer prove it unchanged).
UNREADABLE = "unreadable: "


def source_digest(canonical: str, rel: str) -> str:
    """The SHA-256 of the source file ``rel`` of the skill whose :func:`canonical_source`
    is ``canonical``, or :data:`UNREADABLE` and the reason for one this user may not read
    (no permission: another user's file, mode 600); ``OSError`` or E021 for any other
    failure (one unreadable file left the whole skill without an index: no ``show``,
    ``search`` nor ``outline``)."""
    try:
        return file_sha256(os.path.join(canonical, rel))  # noqa: PTH118
    except PermissionError as exc:
        return UNREADABLE + (exc.strerror or "Permission denied")


class IndexState(Record):
    """What :func:`inspect_index` / :func:`check_index` found."""

    status: IndexStatus
    path: Path
    hash16: str
    reason: str = ""
    """Why it is corrupt or stale, for people (``-v``) and scripts."""
    meta: IndexMeta | None = None


Identity = tuple[int, int, int, int]
"""``(st_dev, st_ino, st_size, st_mtime_ns)`` of an index file."""


class IndexSnapshot:
    """What this process read of one index file: its ``index_meta`` and ``files`` rows, and
    (filled in by :mod:`~skillc_index.index.queries`) its headings grouped by case-folded
    text, from the second lookup on, and its outline, from the first. Kept in
    :data:`_snapshots` while the file keeps its :attr:`identity`."""

    __slots__ = (
        "files",
        "headings",
        "headings_looked_up",
        "headings_read",
        "identity",
        "meta",
        "outline",
        "unreadable",
    )

    def __init__(
        self,
        identity: Identity,
        meta: IndexMeta,
        files: dict[str, FileStat],
        unreadable: Mapping[str, str],
    ) -> None:
        self.identity = identity
        self.meta = meta
        self.files = files
        self.unreadable = unreadable
        """The source files the index left out as unreadable (:data:`UNREADABLE`), with why."""
        self.headings: dict[str, list[StoredHeading]] | None = None
        """Heading rows by case-folded text, in file then line order; None when there are
        too many to keep (``queries.HEADINGS_CACHE_MAX``) or before they are read."""
        self.headings_read = False
        self.headings_looked_up = False
        """A heading was looked up (``queries.find_headings``): the next lookup fills
        :attr:`headings`."""
        self.outline: IndexOutline | None = None
        """What ``outline`` reads (``queries.read_outline``), once read; None before, or when
        the index has more headings than ``queries.HEADINGS_CACHE_MAX``."""


#: The one cache of index files read by this process, by database path. Only files older than
#: the timestamp granularity (:func:`~skillc_index.index.schema.racy_window_ns`) go in: one
#: changed in place within the same clock tick would keep its identity.
_snapshots: dict[Path, IndexSnapshot] = {}


class IndexHandle(Record):
    """A usable index of one skill, as :func:`require_index` found it. Every read of the index
    (:mod:`~skillc_index.index.queries`) takes one."""

    path: Path
    skill: str
    """The skill's name, for the E002 a failed read raises."""
    snapshot: IndexSnapshot
    verified: Mapping[str, FileStat]
    """The source files the check proved to be the indexed ones, with the stats they had
    then: the recorded stats when those matched, else (the sources were hashed) the stats
    seen before hashing, of the files not changed within the timestamp granularity of it
    (:meth:`~skillc_index.index.schema.FileStat.settled_before`)."""

    @property
    def meta(self) -> IndexMeta:
        return self.snapshot.meta

    @property
    def files(self) -> Mapping[str, FileStat]:
        """Every source file as the build recorded it."""
        return self.snapshot.files

    @property
    def unreadable(self) -> Mapping[str, str]:
        """The source files left out because they could not be read, with why."""
        return self.snapshot.unreadable

    def describes(self, stat: FileStat) -> bool:
        """Whether a source file with ``stat`` (taken while it was read) is one the check
        proved to be indexed: same path, size, times and inode. False means it changed after
        the check (or too close to it to tell), and only hashing the sources can tell."""
        return self.verified.get(stat.path) == stat

    def connect(self) -> sqlite3.Connection:
        """A read-only connection to the index file the check read: ``sqlite3.Error`` when it
        cannot open, or when another process has built the index again since (a build renames
        a new file over the path: its rows may be of other sources, whose lines would be read
        at this index's places). The connection keeps the file it opened."""
        connection = _open(self.path)
        try:
            row = connection.execute(
                "SELECT value FROM index_meta WHERE key = 'source_hash'"
            ).fetchone()
            if row is None or row[0] != self.meta.source_hash:
                raise sqlite3.DatabaseError("built again since it was checked")
        except BaseException:
            connection.close()
            raise
        return connection


class _Corrupt(Exception):
    """Any failure reading the index (RFC-0004: all of them are corruption)."""


def _open(path: Path) -> sqlite3.Connection:
    """The index at ``path`` opened read-only: its file, or the database this process keeps
    in memory for it (in :data:`MEMORY_RUNTIME`)."""
    if path.parent.parent == MEMORY_RUNTIME:
        from skillc_index.index import memory

        return memory.connect(path, READ_TIMEOUT_MS)
    return connect(path, mode="ro", timeout_ms=READ_TIMEOUT_MS)


def _read(path: Path) -> tuple[IndexMeta, dict[str, FileStat], dict[str, str]]:
    """The metadata and file stats of an index, and its unreadable files (with why);
    :class:`_Corrupt` on any failure."""
    try:
        with closing(_open(path)) as connection:
            objects = {
                (str(kind), str(name))
                for kind, name in connection.execute("SELECT type, name FROM sqlite_master")
            }
            foreign = sorted(objects - SCHEMA_OBJECTS, key=lambda o: o[0] in ("table", "index"))
            if foreign and foreign[0][0] not in ("table", "index"):  # what would run: refused
                raise _Corrupt(f"not skillc's index: {foreign[0][0]} '{foreign[0][1]}'")
            tables = {name for kind, name in objects if kind == "table"}
            values = (
                dict(connection.execute("SELECT key, value FROM index_meta").fetchall())
                if "index_meta" in tables
                else {}
            )
            # A newer skillc's index is newer whatever its tables and indexes (it may add
            # some, or change the files table): never classed corrupt and rebuilt by this
            # code (newer_index), and its rows are not read.
            newer = _newer_version(values.get("schema_version"))
            if foreign and not newer:
                raise _Corrupt(f"not skillc's index: {foreign[0][0]} '{foreign[0][1]}'")
            if not newer and not tables >= REQUIRED_TABLES:
                missing = ", ".join(sorted(REQUIRED_TABLES - tables))
                raise _Corrupt(f"missing table(s): {missing}")
            # An index of another version is stale whatever its files (its table may lack
            # this version's columns): it is built again, not read as corrupt.
            this_version = values.get("schema_version") == str(SCHEMA_VERSION)
            rows = (
                []
                if newer
                else connection.execute(
                    "SELECT path, size, mtime_ns, ino, ctime_ns FROM files"
                    if this_version
                    else "SELECT path, 0, 0, 0, 0 FROM files"
                ).fetchall()
            )
            left_out = (
                connection.execute(
                    "SELECT path, sha256 FROM files WHERE substr(sha256, 1, ?) = ?",
                    (len(UNREADABLE), UNREADABLE),
                ).fetchall()
                if this_version
                else []
            )
    except (sqlite3.Error, OSError, ValueError) as exc:
        raise _Corrupt(str(exc) or type(exc).__name__) from exc
    if isinstance(values.get("skill_path"), bytes):  # a folder whose name is not UTF-8
        values["skill_path"] = path_from_db(values["skill_path"])
    for key in REQUIRED_KEYS:
        if not isinstance(values.get(key), str) or not values[key]:
            raise _Corrupt(f"index_meta has no '{key}'")
    try:
        schema_version = int(values["schema_version"])
        stats_at = values.get("stats_at_ns")
        stats_at_ns = int(stats_at) if stats_at is not None else None
        files = {
            path_from_db(p): FileStat(path_from_db(p), int(size), int(mtime), int(ino), int(ct))
            for p, size, mtime, ino, ct in rows
        }
        unreadable = {path_from_db(p): str(d)[len(UNREADABLE) :] for p, d in left_out}
    except (TypeError, ValueError) as exc:
        raise _Corrupt(f"unparsable value: {exc}") from exc
    indexed_at = values.get("indexed_at")
    meta = IndexMeta(
        skill_path=values["skill_path"],
        source_hash=values["source_hash"],
        schema_version=schema_version,
        tokenizer=values["tokenizer"],
        indexed_at=indexed_at if isinstance(indexed_at, str) else None,
        stats_at_ns=stats_at_ns,
    )
    return meta, files, unreadable


def _newer_version(value: object) -> bool:
    """Whether ``value``, an index's ``schema_version`` as stored, is above
    :data:`SCHEMA_VERSION` (a newer skillc wrote the index)."""
    try:
        return int(str(value)) > SCHEMA_VERSION if value is not None else False
    except ValueError:
        return False


def _load(
    runtime: Path, source: Path, canonical: str | None = None
) -> tuple[IndexState, IndexSnapshot | None]:
    """Steps 1-4 of RFC-0004's lifecycle: missing, corrupt, collision; else readable (and
    then its snapshot). ``canonical``: the source's :func:`canonical_source`, when known."""
    if canonical is None:
        canonical = canonical_source(source)
    key = canonical_hash16(canonical)
    path = runtime / META_DIR / f"search-{key}.db"  # index_path, without hashing twice
    settled = True  # a database in memory is never changed: built again, it is another
    if runtime == MEMORY_RUNTIME:
        from skillc_index.index import memory

        number = memory.number(path)
        if number is None:
            return IndexState("missing", path, key, "no index in memory"), None
        identity: Identity = (_MEMORY_DEVICE, number, 0, 0)
    else:
        try:
            st = path.stat()
        except OSError:
            st = None
        if st is None or not stat_module.S_ISREG(st.st_mode):
            return IndexState("missing", path, key, "no index file"), None
        identity = (st.st_dev, st.st_ino, st.st_size, st.st_mtime_ns)
        settled = st.st_mtime_ns + racy_window_ns(st.st_mtime_ns, st.st_ctime_ns) < time.time_ns()
    snapshot = _snapshots.get(path)
    if snapshot is None or snapshot.identity != identity:
        try:
            meta, files, unreadable = _read(path)
        except _Corrupt as exc:
            return IndexState("corrupt", path, key, str(exc)), None
        snapshot = IndexSnapshot(identity, meta, files, unreadable)
        if settled:
            _snapshots[path] = snapshot
    meta = snapshot.meta
    if meta.skill_path != canonical:
        return IndexState("collision", path, key, f"built for {meta.skill_path}", meta), None
    return IndexState("current", path, key, "", meta), snapshot


def stored_index(runtime: Path, source: Path) -> IndexState:
    """The index file of ``source`` in ``runtime`` as it is, its sources not read: missing,
    corrupt, collision, else current (whatever its sources) with its metadata. What a build
    checks before it writes anything (another source's index, E003, and an index a newer
    skillc wrote: :func:`~skillc_index.build.manifest.refuse_older_runtime`)."""
    return _load(runtime, source)[0]


def newer_index(meta: IndexMeta | None) -> str:
    """Why the index whose metadata is ``meta`` is never rewritten by this code, a newer
    skillc having written it (its schema version above :data:`SCHEMA_VERSION`: this process
    runs older code than the index's); "" for any other (none, or one this code may build
    again). Readers build theirs in memory instead (:mod:`.cache`), a build refuses it
    without ``--force`` (E002): old and new code would otherwise rebuild it in turn."""
    if meta is None or meta.schema_version <= SCHEMA_VERSION:
        return ""
    from skillc_index.command_errors import written_by_newer

    return written_by_newer("index schema", meta.schema_version, SCHEMA_VERSION)


def _stale_reason(
    meta: IndexMeta, current_hash: str | None, tokenizer: str | None, older: bool = False
) -> str:
    """Why the index is stale ("" when it is not); ``tokenizer`` None: any will do; ``older``:
    an older schema will do (what the sources were is all that is asked)."""
    if meta.schema_version != SCHEMA_VERSION and not (
        older and meta.schema_version < SCHEMA_VERSION
    ):
        return f"schema version {meta.schema_version}, expected {SCHEMA_VERSION}"
    if tokenizer is not None and meta.tokenizer != tokenizer:
        return f"tokenizer '{meta.tokenizer}', expected '{tokenizer}'"
    if current_hash is not None and meta.source_hash != current_hash:
        return "sources changed"
    return ""


def inspect_index(runtime: Path, source: Path, current_hash: str, tokenizer: str) -> IndexState:
    """The build's view (RFC-0004:C-INDEX "Index lifecycle"), given the source hash just
    computed and the tokenizer the build would use (:func:`index_tokenizer`)."""
    state, _snapshot = _load(runtime, source)
    if state.status != "current" or state.meta is None:
        return state
    reason = _stale_reason(state.meta, current_hash, tokenizer)
    if reason:
        return IndexState("stale", state.path, state.hash16, reason, state.meta)
    return state


def trusted(stat: FileStat, stats_at_ns: int | None) -> bool:
    """Whether a file's stats, taken at ``stats_at_ns``, prove it unchanged while they stay
    the same: its times are older than that by more than the file system's timestamp
    granularity (:meth:`~skillc_index.index.schema.FileStat.settled_before`: 100 ms, two
    seconds on a file system of whole seconds; one changed closer may have been changed
    again with the same stats); False when no time was recorded (an index written before
    ``stats_at_ns`` existed: no stat proves anything)."""
    return stats_at_ns is not None and stat.settled_before(stats_at_ns)


def trusted_stats(stats: Mapping[str, FileStat], stats_at_ns: int | None) -> dict[str, FileStat]:
    """Those of ``stats`` (taken at ``stats_at_ns``) old enough to prove their files unchanged
    while they stay the same (:func:`trusted`)."""
    if stats_at_ns is None:
        return {}
    return {rel: stat for rel, stat in stats.items() if stat.settled_before(stats_at_ns)}


def _current_stats(
    source: Path, canonical: str, recorded: Mapping[str, FileStat], stats_at_ns: int | None
) -> tuple[bool | None, dict[str, FileStat]]:
    """The source files' stats now, and whether they prove the files are those indexed: True
    when they do (same paths, sizes, times and inodes, none changed too close to the
    recording), False when the files certainly differ (added, removed, or escaping), None
    when only reading them can tell."""
    found = walk_skill(source)  # a symlink leading out of the skill is no file of it
    if set(found.files) != set(recorded):
        return False, {}
    try:
        now = stat_files(source, found.files, canonical=canonical)
    except OSError:
        return None, {}
    for rel, stat in now.items():
        if stat != recorded[rel] or not trusted(stat, stats_at_ns):
            return None, now
    return True, now


def read_digests(index: Path | IndexHandle) -> dict[str, str]:
    """The SHA-256 of each source file as the index at a path, or a checked index
    (:meth:`IndexHandle.connect`), recorded it (``ValueError`` when it cannot be read): read
    only when stats moved, not on every check."""
    try:
        opened = index.connect() if isinstance(index, IndexHandle) else _open(index)
        with closing(opened) as connection:
            rows = connection.execute("SELECT path, sha256 FROM files").fetchall()
    except sqlite3.Error as exc:
        raise ValueError(str(exc) or type(exc).__name__) from exc
    return {path_from_db(rel): str(digest) for rel, digest in rows}


def current_digests(
    canonical: str,
    now: Mapping[str, FileStat],
    recorded: Mapping[str, FileStat],
    recorded_digests: Mapping[str, str],
    meta: IndexMeta,
) -> dict[str, str]:
    """The SHA-256 of each source file as it is now: the digest the index recorded for a
    file whose stats (``now``) are the recorded ones and older than the recording by more
    than the timestamp granularity (:func:`trusted`, the proof the stat-only check takes),
    else the file's bytes hashed now (:func:`source_digest`: :data:`UNREADABLE` for one this
    user may not read). ``canonical``: the source's :func:`canonical_source`. ``OSError`` or
    E021 for a file that cannot be read otherwise."""
    digests: dict[str, str] = {}
    for rel, stat in now.items():
        known = recorded_digests.get(rel)
        if known and recorded.get(rel) == stat and trusted(stat, meta.stats_at_ns):
            digests[rel] = known
        else:
            digests[rel] = source_digest(canonical, rel)
    return digests


def unreadable_notice(rel: str, why: str) -> Notice:
    """The warning for the source file ``rel`` this user may not read (``why``)."""
    return Notice(f"cannot read '{rel}' ({why}): its sections are left out")


def unreadable_notices(index: IndexHandle) -> tuple[Notice, ...]:
    """One warning for each Markdown or text file the index left out because this user may
    not read it (another user's file of mode 600 in a skill they share): its sections are not
    searched, outlined nor shown, and the answer says so rather than fail."""
    if not index.unreadable:  # the common case imports nothing more (the readers' hot path)
        return ()
    from skillc_index.index.rows import is_indexed

    unreadable = sorted(index.unreadable.items())
    return tuple(unreadable_notice(rel, why) for rel, why in unreadable if is_indexed(rel))


def kept_in_memory(index: IndexHandle) -> tuple[Notice, ...]:
    """The warning that the indexes are kept in memory, none could be written (each command
    builds them again: :mod:`.memory`), the first time a reader asks it of one that is (once
    a process); else none."""
    if index.snapshot.identity[0] != _MEMORY_DEVICE:  # the readers' hot path: no import
        return ()
    from skillc_index.index import memory

    return memory.notice()


def _check(
    runtime: Path, source: Path, tokenizer_setting: str | None, older: bool = False
) -> tuple[IndexState, IndexSnapshot | None, Mapping[str, FileStat]]:
    """The readers' verdict, with the snapshot and the verified stats when it is current
    (``tokenizer_setting`` None: an index of any tokenizer is current; ``older``: of an older
    schema too, :func:`_stale_reason`)."""
    tokenizer = None if tokenizer_setting is None else index_tokenizer(tokenizer_setting)
    canonical = canonical_source(source)  # once: resolving a path stats each of its folders
    state, snapshot = _load(runtime, source, canonical)
    if state.status != "current" or snapshot is None:
        return state, None, {}
    meta = snapshot.meta
    reason = _stale_reason(meta, None, tokenizer, older)
    verified: Mapping[str, FileStat] = {}
    if not reason:
        started_ns = time.time_ns()
        unchanged, now = _current_stats(source, canonical, snapshot.files, meta.stats_at_ns)
        if unchanged is False:
            reason = "source files added or removed"
        elif unchanged:
            verified = snapshot.files
        else:
            try:
                if now:
                    recorded = read_digests(state.path)
                    digests = current_digests(canonical, now, snapshot.files, recorded, meta)
                    current_hash = combine_digests(digests)
                else:  # a file vanished between the walk and its stat
                    current_hash = source_hash(source)
            except (OSError, SkillcError, ValueError) as exc:
                current_hash = f"unreadable: {exc}"
            reason = _stale_reason(meta, current_hash, tokenizer, older)
            # A file changed after its stat was taken would show a later time than one this
            # much older than the check; one changed closer to it could keep its stats.
            verified = trusted_stats(now, started_ns)
    if reason:
        return IndexState("stale", state.path, state.hash16, reason, meta), None, {}
    return state, snapshot, verified


def check_index(runtime: Path, source: Path, tokenizer_setting: str | None) -> IndexState:
    """The readers' view (``show``, ``search``; RFC-0004 "Index file selection"): ``missing``,
    ``corrupt``, ``collision``, ``stale`` or ``current`` (``tokenizer_setting`` None: an index
    of any tokenizer is current)."""
    return _check(runtime, source, tokenizer_setting)[0]


def index_is_fresh(runtime: Path, source: Path, tokenizer_setting: str) -> bool:
    """Whether the index of ``source`` in ``runtime`` can be used as it is."""
    return check_index(runtime, source, tokenizer_setting).status == "current"


def checked_index(
    skill: ResolvedSkill, tokenizer_setting: str | None, runtime: Path | None = None
) -> tuple[IndexState, IndexHandle | None]:
    """The check every reader makes, once: the state of the skill's index (in ``runtime``,
    default the skill's) and, when it is current, its handle."""
    state, snapshot, verified = _check(
        skill.runtime if runtime is None else runtime, skill.source, tokenizer_setting
    )
    if snapshot is None:
        return state, None
    return state, IndexHandle(state.path, skill.name, snapshot, verified)


def written_index(
    skill: ResolvedSkill, tokenizer_setting: str, runtime: Path, source_hash: str
) -> IndexHandle | None:
    """The index of ``skill`` in ``runtime`` when it is the one recording ``source_hash``
    for ``tokenizer_setting`` (the index this process has just written, proven current once
    written: :mod:`.cache`), whether or not the sources changed since; else None. A version
    of the sources that existed during the call is a correct answer: a reader that then
    reads a source file trusts only the recorded stats old enough to prove it unchanged, as
    :func:`checked_index` does, and hashes any other (a file changed since is not served)."""
    state, snapshot = _load(runtime, skill.source)
    if snapshot is None or snapshot.meta.source_hash != source_hash:
        return None
    if _stale_reason(snapshot.meta, None, index_tokenizer(tokenizer_setting)):
        return None
    verified = trusted_stats(snapshot.files, snapshot.meta.stats_at_ns)
    return IndexHandle(state.path, skill.name, snapshot, verified)


def require_index(skill: ResolvedSkill, tokenizer_setting: str) -> IndexHandle:
    """The index of a resolved skill, checked and ready to query; otherwise E003 for a
    collision and E002 for a missing, corrupt or stale index (RFC-0004 steps 1-5). The
    readers call :func:`~skillc_index.index.cache.ensure_index`, which builds it then."""
    state, handle = checked_index(skill, tokenizer_setting)
    if state.status == "collision":
        raise IndexCollision(state.hash16)
    if handle is None:
        raise IndexUnusable(skill.name, f"{state.status}: {state.reason}")
    return handle


def fresh_index(skill: ResolvedSkill, tokenizer_setting: str | None = None) -> IndexHandle | None:
    """The index of a resolved skill when it is usable as :func:`require_index` would find
    it (the same stat-only check), else None (missing, corrupt, collision or stale).
    ``tokenizer_setting`` None accepts an index of any tokenizer, for readers of its headings
    only."""
    return checked_index(skill, tokenizer_setting)[1]


def current_source_hash(runtime: Path, source: Path, *, older: bool = False) -> str | None:
    """The source hash of ``source`` as it is now, when its index in ``runtime`` is current
    (any tokenizer; ``older``: of an older schema too, as an older skillc left it, which the
    next read rebuilds): the one it recorded, proven by the stat-only check (hashing only
    files whose stats moved); None when there is no current index to tell (then only hashing
    the sources can). ``skc list`` compares it with a build's manifest."""
    _state, snapshot, _verified = _check(runtime, source, None, older)
    return None if snapshot is None else snapshot.meta.source_hash


def read_index_files(path: Path) -> tuple[IndexMeta, dict[str, FileStat]]:
    """The metadata and recorded file stats of the index file at ``path`` (a copy about to be
    updated: :mod:`~skillc_index.index.cache`); ``ValueError`` when it cannot be read."""
    try:
        return _read(path)[:2]
    except _Corrupt as exc:
        raise ValueError(str(exc)) from exc
