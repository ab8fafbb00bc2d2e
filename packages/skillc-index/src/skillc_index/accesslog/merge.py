"""Merging one access log's rows into another (``sync``, RFC-0007:C-SYNC; transcripts
imported by ``sync --from``): each row once.

A row's identity is all its columns but ``id`` (:data:`Identity`), which differs between
databases. Rows are counted, not just found: two identical accesses in the same second stay
two rows, and copying the same rows twice adds nothing. A row's text goes back with the bytes
it was read with (:func:`~.schema.text_param`): text that is not UTF-8 (a log another tool
wrote) is moved as it is.

Rows of a log with an identity (:mod:`.identity`: every fallback skillc makes) are told by
where they came from first: the copy records in the destination, in the same transaction,
the log's ``log_id`` and the highest ``id`` copied (``merged_logs``). Its rows above that
``id`` (and above its ``previous_upto``: rows it held before it had an identity) are new and
added as they are, never compared: identical rows of one second under one run id, logged
into a new fallback after a ``sync`` took the first ones, are not the rows it took. Only the
others (copied by a ``sync`` cut short before it removed the log) are counted against the
destination, as every row of a log without an identity is, and of a log holding the
destination's own identity (a copy of the destination: none of its rows is new).
"""

from __future__ import annotations

import sqlite3
from collections import Counter
from collections.abc import Callable, Generator, Iterable, Iterator, Mapping
from contextlib import closing
from pathlib import Path
from typing import TYPE_CHECKING, Any, NamedTuple

from skillc_index.accesslog.identity import LogIdentity, read_identity
from skillc_index.accesslog.schema import COLUMNS, COPY_ROW, connect, open_log, text_param
from skillc_index.clock import is_utc_timestamp
from skillc_index.sqlite import writing

if TYPE_CHECKING:
    from skillc_index.accesslog.moves import BaseMove

__all__ = [
    "FallbackRows",
    "Identity",
    "begin_merge",
    "copy_missing",
    "count_missing",
    "drop_merged",
    "read_identities",
    "sessionless",
]

#: ``timestamp, run_id, command, skill, skill_path, cwd, args, error``: what makes a row the
#: same row in two databases (the ``id`` differs between them).
Identity = tuple[Any, ...]


_SELECT_ROWS = f"SELECT {', '.join(COLUMNS)}, id FROM access_log ORDER BY id"
#: How many source folders' rows one query reads (:func:`_rows_of`): well under the
#: 999 variables of a statement of SQLite before 3.32.
FOLDERS_A_QUERY = 500
_COUNT_BY_FOLDER = "SELECT skill_path, COUNT(*) FROM access_log GROUP BY skill_path"
#: How many fallback logs a destination remembers (``merged_logs``): a record matters only
#: until its log is removed, at the end of the same ``sync`` unless it was cut short.
MERGED_LOGS_KEPT = 1000
# The rows of one access (idx_access_log_stats's columns: read from the index; `IS` because
# error may be NULL), with the two columns the index lacks. CAST: text_param's bytes as text.
_ROWS_OF_ACCESS = (
    "SELECT run_id, skill, id FROM access_log WHERE skill_path = CAST(? AS TEXT) "
    "AND command = CAST(? AS TEXT) AND args = CAST(? AS TEXT) AND timestamp = CAST(? AS TEXT) "
    "AND error IS CAST(? AS TEXT) AND cwd = CAST(? AS TEXT)"
)


def sessionless(identity: Identity) -> Identity:
    """``identity`` without its ``run_id``: the row when sessions are not told apart (a
    transcript's tool call, copied by the agent into another session's file)."""
    return identity[:1] + identity[2:]


class FallbackRows(NamedTuple):
    """The distinct rows of a fallback log, each with how many times it occurs, oldest first."""

    identities: list[tuple[Identity, int]]
    origin: LogIdentity | None = None
    """The identity of the log they were read from; None for a log without one (an older
    version's, another implementation's) and for rows of no log (a transcript's)."""
    ids: Mapping[Identity, list[int]] | None = None
    """With :attr:`origin`: the ``id`` of each row in that log, by identity, ascending."""
    skipped: int = 0
    """The rows of the folders :func:`read_identities` was told to leave: counted, not read."""

    @property
    def total(self) -> int:
        return sum(count for _, count in self.identities)


def read_identities(
    db: sqlite3.Connection, wanted: Callable[[Any], bool] | None = None
) -> FallbackRows:
    """All rows of a log as identities and counts; ``ValueError`` for a row that is not one
    skillc writes (a NULL where the schema wants text), which no destination would accept.
    ``wanted``: asked once per source folder (``skill_path``) the log names; the rows of the
    folders it refuses are only counted (:attr:`FallbackRows.skipped`, by the index), never
    read, so memory follows the rows taken, not the log (a checkout can ship any log)."""
    if wanted is None:
        rows: sqlite3.Cursor | Generator[Any, None, None] = db.execute(_SELECT_ROWS)
        skipped = 0
    else:
        folders, skipped = [], 0
        for folder, count in db.execute(_COUNT_BY_FOLDER):
            if not isinstance(folder, str):  # (NULL: no row skillc writes)
                raise ValueError(f"malformed row: its skill_path is {folder!r}")
            if wanted(folder):
                folders.append(folder)
            else:
                skipped += count
        rows = _rows_of(db, folders)
    found: dict[Identity, list[int]] = {}
    # closed while db is open: a loop cut short (a Ctrl-C, a malformed row) left the generator
    # to its finaliser, after the caller closed db ("Exception ignored ... closed database")
    with closing(rows):
        for row in rows:
            identity = tuple(row[:-1])
            ids = found.get(identity)
            if ids is None:
                if any(not isinstance(value, str) for value in identity[:-1]) or not isinstance(
                    identity[-1], str | None
                ):
                    raise ValueError(f"malformed row at {identity[0]!r}")
                if not is_utc_timestamp(identity[0]):  # copied as it was, it broke reports
                    timestamp = identity[0][:40]
                    raise ValueError(f"a row whose timestamp is not RFC 3339 UTC: {timestamp!r}")
                ids = found[identity] = []
            ids.append(row[-1])
    origin = read_identity(db)
    if wanted is not None:  # read by batches of folders: oldest first again
        found = dict(sorted(found.items(), key=lambda item: item[1][0]))
    counted = [(identity, len(ids)) for identity, ids in found.items()]
    return FallbackRows(counted, origin, found if origin is not None else None, skipped)


def _rows_of(db: sqlite3.Connection, folders: list[str]) -> Generator[Any, None, None]:
    """The rows of these source folders, :data:`FOLDERS_A_QUERY` folders a query (one query
    a folder cost more than the rows of a log of many folders with few rows each), each
    batch's by ``id`` (a folder's rows are all in one batch). CAST: text_param's bytes as
    text."""
    for start in range(0, len(folders), FOLDERS_A_QUERY):
        batch = folders[start : start + FOLDERS_A_QUERY]
        marks = ", ".join(["CAST(? AS TEXT)"] * len(batch))
        sql = f"SELECT {', '.join(COLUMNS)}, id FROM access_log WHERE skill_path IN ({marks})"
        yield from db.execute(f"{sql} ORDER BY id", [text_param(folder) for folder in batch])


def _missing(
    db: sqlite3.Connection,
    rows: Iterable[tuple[Identity, int]],
    sessions: bool = True,
    log: Path | None = None,
) -> Iterator[Identity]:
    """Each row as many times as it occurs in ``rows`` beyond its occurrences in ``db``.

    Counting (not just "exists or not") keeps two identical accesses in the same second as
    two rows, and makes a second copy of the same rows add nothing. The rows of one access
    (all but ``run_id`` and ``skill`` the same: sessions that ran one command in the same
    second) are counted by one read, kept for the others: a lookup a row read every row of
    its access, so 4,000 sessions' rows of one second took 1.3 s, 40,000 minutes. Without
    ``sessions``, rows that differ by ``run_id`` alone are one row (a transcript's tool call,
    whose id is in its ``args``, copied into another session's file by the agent), and so are
    the rows that count for its folder under another (:class:`_Folders`: a plugin's other
    versions', those a route's move took to it; ``log``: ``db``'s path, for the moves of its
    route that it does not record, as the readers count them).
    """
    crowded: dict[tuple[Any, ...], Counter[Any]] = {}
    folders = _Folders(db, log)
    for identity, count in rows:
        timestamp, run_id, command, skill, skill_path, cwd, args, error = identity
        access = (skill_path, command, args, timestamp, error, cwd)
        session: Any = (run_id, skill) if sessions else skill
        if access in crowded:
            present = crowded[access][session]
        else:
            found = []
            held = [(skill_path, None, [cwd])] if sessions else folders.of(skill_path, cwd)
            for folder, spans, cwds in held:
                for there in cwds:
                    values = [text_param(value) for value in (folder, *access[1:5], there)]
                    for run, name, row_id in db.execute(_ROWS_OF_ACCESS, values):
                        if spans is None or folders.taken_to(spans, row_id, folder) == skill_path:
                            found.append((run, name))
            keys = found if sessions else [name for _, name in found]
            if len(keys) > 1:  # kept: the other sessions' rows of it are read from here
                crowded[access] = Counter(keys)
            present = keys.count(session)
        for _ in range(count - present):
            yield identity


#: ``(folder, spans, cwds)``: a folder whose rows may count for another (:class:`_Folders`),
#: the spans of ids a move took from it (None: every row counts) and the working folders its
#: rows name for a row made in the one asked for (:func:`~.moves.cwds_before`).
_Held = tuple[Any, list[tuple[int, str]] | None, list[Any]]


class _Folders:
    """The folders whose rows count for a folder when sessions are not told apart, each
    read once per copy, by the rules the readers count rows by: its own; the other versions'
    of its Claude Code plugin skill that the log's rows name (the call imported before the
    plugin was updated: :func:`~.reader.other_versions`); a store skill's folders before its
    base moved (:func:`~.moves.former_stores`, the log's path ``log`` given: the call
    imported before ``mv`` of the project or of a folder above it), whose rows made in the
    old base name the same place there (:func:`~.moves.cwds_before`); and each folder a move
    took rows from to it or to one of those (``route install``/``uninstall``, chains of them
    composed, :func:`~.moves.moves_of`; given ``log``, the moves of its route an older
    skillc made without recording one too, :func:`~.moves.routed_moves`), with the spans of
    ids that tell which of that folder's rows are its (:meth:`taken_to`)."""

    def __init__(self, db: sqlite3.Connection, log: Path | None = None) -> None:
        self._db = db
        self._log = log
        self._known: dict[Any, list[_Held]] = {}
        self._held: dict[Any, tuple[list[tuple[Any, Any]], list[BaseMove]]] = {}
        self._moved: dict[str, list[tuple[int, str]]] | None = None
        self._same: dict[str, str] = {}

    def _rows(self, sql: str, params: Any) -> list[Any]:
        return self._db.execute(sql, params).fetchall()

    def of(self, folder: Any, cwd: Any) -> list[_Held]:
        """``(folder, spans, cwds)`` of the folders whose rows count for ``folder``, for a
        row made in ``cwd``: every row of one whose ``spans`` is None counts. The folders are
        read once per folder (:meth:`_folders_of`), the working folders once per ``cwd``."""
        key = (folder, cwd)
        if key not in self._known:
            from skillc_index.accesslog.moves import cwds_before

            held, moved = self._folders_of(folder)

            def cwds(one: Any) -> list[Any]:
                usable = isinstance(one, str) and isinstance(cwd, str)
                return cwds_before(moved, one, cwd) if usable and moved else [cwd]

            self._known[key] = [(one, spans, cwds(one)) for one, spans in held]
        return self._known[key]

    def _folders_of(self, folder: Any) -> tuple[list[tuple[Any, Any]], list[BaseMove]]:
        """``(folder, spans)`` of the folders whose rows count for ``folder``, whatever the
        working folder (:meth:`of`), and the moves of its base (:func:`~.moves.base_moves`)."""
        if folder not in self._held:
            from skillc_index.accesslog.moves import base_moves, former_stores
            from skillc_index.accesslog.reader import other_versions

            text = isinstance(folder, str)
            others = other_versions(self._rows, folder) if text else []
            try:
                formers = former_stores(self._rows, folder, self._log) if text else []
            except sqlite3.Error:  # another tool's moved_folders (as _moves)
                formers = []
            self._same.update(dict.fromkeys(formers, folder))
            held: list[tuple[Any, Any]] = [(one, None) for one in [folder, *others, *formers]]
            for old, spans in self._moves().items():
                taken = {self._same.get(now, now) for _, now in spans}
                if old != folder and folder in taken:
                    held.append((old, spans))
            self._held[folder] = (held, base_moves(dict.fromkeys(formers, folder)))
        return self._held[folder]

    def taken_to(self, spans: Iterable[tuple[int, str]], row_id: int, folder: Any) -> Any:
        """The folder the row ``row_id`` of ``folder`` counts for (:func:`~.moves.folder_key`):
        that of the first span of ids holding it, else its own; then the folder a store
        folder before its base moved counts as."""
        now = next((now for upto, now in spans if row_id <= upto), folder)
        return self._same.get(now, now)

    def _moves(self) -> dict[str, list[tuple[int, str]]]:
        """The log's moves by the folder they took rows from (its spans, in order); none when
        its ``moved_folders`` cannot be read as skillc's."""
        if self._moved is None:
            from skillc_index.accesslog.moves import moves_of

            self._moved = {}
            try:
                for old, upto, now in moves_of(self._rows, self._log):
                    self._moved.setdefault(old, []).append((upto, now))
            except sqlite3.Error:  # another tool's table of that name
                self._moved = {}
        return self._moved


def _merged_upto(db: sqlite3.Connection, log_id: str) -> int:
    """The highest ``id`` of the log ``log_id`` that a copy into ``db`` recorded (0: none;
    a destination older than ``merged_logs``)."""
    exists = db.execute(
        "SELECT 1 FROM sqlite_master WHERE type = 'table' AND name = 'merged_logs'"
    ).fetchone()
    if exists is None:
        return 0
    found = db.execute(
        "SELECT MAX(upto) FROM merged_logs WHERE log_id = CAST(? AS TEXT)", (text_param(log_id),)
    ).fetchone()[0]
    return found if isinstance(found, int) else 0


def _to_add(
    db: sqlite3.Connection, rows: FallbackRows, sessions: bool, log: Path
) -> tuple[list[Identity], int]:
    """The rows ``db`` (the log at ``log``) lacks (see the module: by where they came from,
    then by counting), and the highest ``id`` of their log to record as copied (0: a log
    without identity)."""
    if rows.origin is None or rows.ids is None:
        return list(_missing(db, rows.identities, sessions, log)), 0
    own = read_identity(db)
    if own is not None and own.log_id == rows.origin.log_id:  # a copy of this very log
        return list(_missing(db, rows.identities, sessions, log)), 0
    merged = _merged_upto(db, rows.origin.log_id)
    compared = max(merged, rows.origin.previous_upto)
    older: list[tuple[Identity, int]] = []
    new: list[Identity] = []
    upto = merged
    for identity, _ in rows.identities:
        ids = rows.ids[identity]
        before = sum(1 for row_id in ids if row_id <= compared)
        if before:
            older.append((identity, before))
        new.extend([identity] * (len(ids) - before))
        upto = max(upto, ids[-1])
    return [*_missing(db, older, sessions, log), *new], upto


def _record_merge(db: sqlite3.Connection, log_id: str, upto: int) -> None:
    """Record (inside the copy's transaction) that the rows of the log ``log_id`` up to
    ``id`` ``upto`` are in ``db``: the newest record, and only the newest
    :data:`MERGED_LOGS_KEPT` kept."""
    key = text_param(log_id)
    db.execute("DELETE FROM merged_logs WHERE log_id = CAST(? AS TEXT)", (key,))
    db.execute("INSERT INTO merged_logs (log_id, upto) VALUES (CAST(? AS TEXT), ?)", (key, upto))
    db.execute(
        "DELETE FROM merged_logs WHERE rowid <= (SELECT MAX(rowid) FROM merged_logs) - ?",
        (MERGED_LOGS_KEPT,),
    )


def count_missing(destination: Path, rows: FallbackRows, *, sessions: bool = True) -> int:
    """How many rows a copy into ``destination`` would add (read only; a missing database
    would receive them all; :class:`~.schema.ForeignLog` for one that
    :func:`copy_missing` would refuse to write). ``sessions``: as :func:`copy_missing`."""
    if not destination.exists():
        return rows.total
    with closing(open_log(destination, own=True)) as db:
        return len(_to_add(db, rows, sessions, destination)[0])


def copy_missing(destination: Path, rows: FallbackRows, *, sessions: bool = True) -> int:
    """Add to ``destination`` (created, or migrated to the current schema, as needed) the rows
    it does not hold yet, in one transaction, with the record of the log they came from
    (``merged_logs``, the newest :data:`MERGED_LOGS_KEPT`); return how many were added.
    Without ``sessions``, a row it holds under another ``run_id`` is held (a transcript's
    tool call in a session file the agent copied), and so is one under another version's
    folder of its Claude Code plugin skill (the call imported before the plugin's update)."""
    with closing(connect(destination)) as db, writing(db):
        added, upto = _to_add(db, rows, sessions, destination)
        db.executemany(COPY_ROW, ([text_param(value) for value in row] for row in added))
        if rows.origin is not None and upto:
            _record_merge(db, rows.origin.log_id, upto)
    return len(added)


def _delete_rows_of(db: sqlite3.Connection, skill_paths: Iterable[str]) -> None:
    """Delete the rows of these source folders (inside the caller's transaction): what
    ``sync`` does to a fallback log some rows of which stay."""
    db.executemany(
        "DELETE FROM access_log WHERE skill_path = CAST(? AS TEXT)",
        ((text_param(path),) for path in skill_paths),
    )


def begin_merge(
    db: sqlite3.Connection, wanted: Callable[[Any], bool] | None = None
) -> FallbackRows:
    """Take the write lock of the log ``db`` whose rows are being merged elsewhere (no other
    writer adds to it meanwhile) and read them (:func:`read_identities`, ``wanted`` as there).
    The transaction stays open: :func:`drop_merged` ends it (closing ``db`` without it rolls
    back)."""
    db.execute("BEGIN IMMEDIATE")
    return read_identities(db, wanted)


def drop_merged(db: sqlite3.Connection, skill_paths: Iterable[str]) -> None:
    """Delete the rows of these source folders, now merged into their primary logs, and
    commit: what ``sync`` does to a fallback log some rows of which stay."""
    _delete_rows_of(db, skill_paths)
    db.execute("COMMIT")
