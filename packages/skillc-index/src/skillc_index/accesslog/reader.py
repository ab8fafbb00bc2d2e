"""Reading an access log (``.skillc-meta/logs.db``): every statement that reads its rows.

The writer is :mod:`.store` (and :mod:`.merge` for ``sync``'s copies); the schema,
:mod:`.schema`. This module holds the reading: the RFC-0003 queries of ``skc stats``
(:class:`StatsLog` for one skill, :func:`usage_of` for every skill at once); the rows and
ids an upload to a team store reads are :mod:`.upload`'s. Parameterised SQL only: the
statements are put together from fixed fragments, and every value (paths, times, commands)
is a bound parameter.

**Uses and author activity** (DECISIONS, "Logging and analytics"): a *use* is an agent
reading or activating a skill (:data:`USE_COMMANDS`); the author's own runs
(:data:`AUTHOR_COMMANDS`: ``build``, ``lint``, ``stats``...) stay in the log and are counted
apart, never as uses; nor is a failed read (a use command's row with an ``error``). Rows are
classified by their ``command`` and ``error`` when they are read, so every row ever logged
or uploaded (a team store's included) is classified the same way, with no migration.

The stats queries select one ``skill_path`` and are answered from the indexes the schema
defines for them (``idx_access_log_stats``, ``_projects``, ``_period``, ``_errors``): their
cost grows with that skill's rows, not with the size of the database. The same statements
read a team store (skillc-stats', PostgreSQL, through its own :data:`Rows`), where a skill's
rows are those of its name (its folder differs from machine to machine).
"""

from __future__ import annotations

import os
import sqlite3
from collections.abc import Callable, Collection, Iterable, Iterator, Mapping, Sequence
from pathlib import Path
from typing import TYPE_CHECKING, Any, NamedTuple, Protocol, TypeGuard, overload

from skillc_index.accesslog.kinds import (
    AUTHOR_COMMANDS,
    IS_AUTHOR,
    IS_USE,
    KIND_PARAMS,
    ROW_FAILED,
    SUCCEEDED,
    USE_COMMANDS,
    USE_ROW,
    command_kind,
    row_kinds,
)
from skillc_index.accesslog.moves import (
    Move,
    base_moves,
    cwd_key,
    folder_key,
    former_stores,
    log_folders,
    moves_of,
)
from skillc_index.accesslog.schema import empty_log, open_log
from skillc_index.clock import (
    TIME_ORDER,
    UTC_DAY,
    from_time_order,
    is_utc_timestamp,
    second_floor,
    time_order,
)
from skillc_index.diagnostics import UnreadableFile
from skillc_index.text import valid_utf8

if TYPE_CHECKING:
    from skillc_index.inventory.entries import InstalledSkill
    from skillc_index.layout import Layout

__all__ = [
    "AUTHOR_COMMANDS",
    "GROUPS",
    "IS_AUTHOR",
    "IS_USE",
    "KIND_PARAMS",
    "ROW_FAILED",
    "SUCCEEDED",
    "USE_COMMANDS",
    "USE_ROW",
    "UTC_DAY",
    "CommandCount",
    "LocalRows",
    "RowFilters",
    "Rows",
    "SkillUsage",
    "StatsLog",
    "add_usage",
    "add_versions",
    "command_kind",
    "followed_folder",
    "grouped_counts",
    "logs_of",
    "other_versions",
    "row_kinds",
    "same_folders",
    "second_floor",
    "several_logs",
    "usage_of",
    "where_clause",
]


class RowFilters(Protocol):
    """The filters of RFC-0003:C-FILTERS as the statements apply them: inclusive UTC bounds
    (RFC 3339, as rows store them), canonical project folders; in a team store, also the users
    and machines whose rows count (empty: all). skillc-stats' ``Filters`` is one."""

    @property
    def since(self) -> str | None: ...
    @property
    def until(self) -> str | None: ...
    @property
    def projects(self) -> Sequence[str]: ...
    @property
    def users(self) -> Sequence[str]: ...
    @property
    def machines(self) -> Sequence[str]: ...


class CommandCount(NamedTuple):
    command: str
    accesses: int
    errors: int


class SkillUsage(NamedTuple):
    """One skill's use within the filters (``skc stats --all``): its uses (:data:`USE_ROW`),
    the first and last of them, the distinct working folders they were made in, and, apart,
    the author's own runs (rows of :data:`AUTHOR_COMMANDS`)."""

    key: str
    """The ``skill_path`` (a local log) or the ``skill`` name (the team store)."""
    uses: int
    first_used: str | None
    last_used: str | None
    projects: int
    author_activity: int
    folders: tuple[str, ...] = ()
    """The distinct working folders of the uses, when asked for (:func:`usage_of`'s
    ``spread``: a skill whose rows are in several logs); :func:`add_usage` counts the
    projects of two logs as their union."""


#: ``rows(sql, params)``: run one read-only statement (``?`` marks) over an access log table,
#: local (:class:`LocalRows`) or a team store's (skillc-stats' ``TeamStore``).
Rows = Callable[[str, Sequence[Any]], list[Any]]


def where_clause(
    filters: RowFilters,
    column: str | None = None,
    values: Sequence[str] = (),
    cwd: tuple[str, Sequence[Any]] = ("cwd", ()),
) -> tuple[str, list[Any]]:
    """``WHERE`` for the rows whose ``column`` is one of ``values`` (no such test when
    ``column`` is None) and that match the filters (RFC-0003:C-FILTERS; ``users`` and
    ``machines`` exist in the team store only).

    A project matches its own folder and every folder below it: ``cwd`` equal to it, or
    starting with it plus a separator (so ``/a/web`` does not match ``/a/webapp``); ``cwd``:
    the SQL of a row's working folder and its parameters (:func:`~.moves.cwd_key`: a store
    skill's rows logged before its project moved, as made where the project is now). A time
    with a fraction of a second is compared as the time it is (:func:`second_floor`).
    """
    tests: list[str] = []
    params: list[Any] = []
    if column is not None:
        tests.append(
            f"{column} = ?" if len(values) == 1 else f"{column} IN ({', '.join('?' * len(values))})"
        )
        params += values
    if filters.since is not None:
        tests.append("timestamp >= ?")
        params.append(second_floor(filters.since))
    if filters.until is not None:
        tests.append("timestamp <= ?")
        params.append(filters.until)
        if second_floor(filters.until) != filters.until:  # not its second's fractions
            tests.append("NOT (timestamp > ? AND timestamp < ?)")
            params += [second_floor(filters.until), filters.until]
    if filters.projects:
        matches = []
        where, where_params = cwd
        for project in filters.projects:
            prefix = project if project.endswith(os.sep) else project + os.sep
            # CAST: PostgreSQL has no substr(text, bigint, bigint)
            matches.append(f"{where} = ? OR substr({where}, 1, CAST(? AS INTEGER)) = ?")
            params += [*where_params, project, *where_params, len(prefix), prefix]
        tests.append("(" + " OR ".join(matches) + ")")
    for name, values_ in (("username", filters.users), ("machine", filters.machines)):
        if values_:
            tests.append(f"{name} IN ({', '.join('?' * len(values_))})")
            params += values_
    # as the log stored them: text that was not UTF-8 has U+FFFD (skillc_index.text)
    params = [valid_utf8(v) if isinstance(v, str) else v for v in params]
    return (" WHERE " + " AND ".join(tests) if tests else ""), params


def _moved_where(
    filters: RowFilters,
    column: str,
    values: Sequence[str],
    moves: Sequence[Move],
    same: Mapping[str, str] | None = None,
) -> tuple[str, list[Any], str, list[Any]]:
    """:func:`where_clause` of the rows now at one of ``values``: their own, and those that
    ``moves`` (:func:`~.moves.moves_of`) took there, not those they took away (the folders
    are looked up in the index by ``column``, then each row's folder now tested, when a
    move concerns them: :func:`_concerning`); then the :func:`~.moves.folder_key` of it.
    ``same``: the folders of ``values`` whose rows count as another's, for the working
    folders of a store skill's rows logged before its base moved (:func:`_cwd_key`)."""
    moves = _concerning(moves, values)
    moved = [move[0] for move in moves if move[0] not in values]
    cwd = _cwd_key(filters, same, column)
    where, params = where_clause(filters, column, [*values, *dict.fromkeys(moved)], cwd)
    key, key_params = folder_key(column, None, moves)
    if moves:
        where += f" AND {key} IN ({', '.join('?' * len(values))})"
        params += [*key_params, *(valid_utf8(value) for value in values)]
    return where, params, key, key_params


def _cwd_key(
    filters: RowFilters, same: Mapping[str, str] | None, column: str | None
) -> tuple[str, list[Any]]:
    """The :func:`~.moves.cwd_key` the project filter tests (a store skill's rows logged
    before its base moved, :func:`~.moves.former_stores`, as made where the base is now):
    plain ``cwd`` without a project filter or such a folder in ``same``."""
    if not filters.projects or not same or column is None:
        return "cwd", []
    return cwd_key(base_moves(same), column)


def _concerning(moves: Sequence[Move], values: Collection[str]) -> Sequence[Move]:
    """The moves of each folder that a move takes rows from or to one of ``values``, every
    one of that folder's (they are tested in order); none of any other folder."""
    folders = {folder for folder, _, now in moves if folder in values or now in values}
    return [move for move in moves if move[0] in folders]


def _moves(rows: Rows) -> Sequence[Move]:
    """The moves of the log ``rows`` reads (:attr:`LocalRows.moves`): none for any other
    runner (a team store's rows are counted by the skill's name)."""
    return rows.moves if isinstance(rows, LocalRows) else ()


class LocalRows:
    """:data:`Rows` over one local log database, opened read-only on first use. A missing
    database, or one of no byte (:func:`~.schema.empty_log`: made, its schema never written),
    is an empty log (RFC-0003:C-CLI "No data"), never created here; one that cannot
    be read (corrupt, not a log, locked away) is E999 with the reason, never a traceback.
    Text that is not UTF-8 reads with lone surrogates (:func:`~.schema.log_text`)."""

    def __init__(self, path: Path) -> None:
        self.path = path
        self._db: sqlite3.Connection | None = None
        self._missing = not path.exists() or empty_log(path)
        self._moves: tuple[Move, ...] | None = None

    @property
    def moves(self) -> tuple[Move, ...]:
        """The moves the log records (:func:`~.moves.moves_of`), read once: what every reader
        of its rows (:class:`StatsLog`, :func:`usage_of`, :func:`grouped_counts`) counts the
        rows of a moved folder by, unasked."""
        if self._moves is None:
            self._moves = moves_of(self, self.path)
        return self._moves

    def __call__(self, sql: str, params: Sequence[Any]) -> list[Any]:
        return list(self.each(sql, params))

    def each(self, sql: str, params: Sequence[Any]) -> Iterator[Any]:
        """The rows one at a time (a statement of many rows: never all held at once)."""
        if self._missing:
            return
        try:
            if self._db is None:
                self._db = open_log(self.path)
                self._db.create_function("is_instant", 1, _instant_bytes, deterministic=True)
            yield from self._db.execute(sql, params)
        except sqlite3.Error as exc:
            from skillc_index.atomic import disk_failure

            reason = disk_failure(exc, self.path) or str(exc)
            raise UnreadableFile(str(self.path), reason, "access log") from exc

    def close(self) -> None:
        if self._db is not None:
            self._db.close()
            self._db = None


class StatsLog:
    """Read-only queries over one skill's rows (those whose ``column`` is ``value``, or one
    of its values: its ``skill_path`` in a local log, with the folders imported into it, its
    name in the team store) within the filters. In a local log, the rows a move took to one
    of the values are the skill's too, those it took away are not (:func:`_moves`); ``same``
    maps a value whose rows count as another's to that one (a store skill's folder before
    its base moved: the project filter takes its rows' working folders as moved too).

    The same statements run over SQLite and PostgreSQL: they use only what both have.
    """

    def __init__(
        self,
        rows: Rows,
        column: str,
        value: str | Sequence[str],
        filters: RowFilters,
        same: Mapping[str, str] | None = None,
    ) -> None:
        from skillc_index.items import as_items

        self._run = rows
        self._where, self._params, *_ = _moved_where(
            filters, column, as_items(value), _moves(rows), same
        )

    @overload
    def _rows(self, select: str, tail: str = "", extra: Sequence[Any] = ()) -> list[Any]: ...
    @overload
    def _rows(
        self, select: str, tail: str = "", extra: Sequence[Any] = (), *, stream: bool
    ) -> Iterable[Any]: ...
    def _rows(
        self, select: str, tail: str = "", extra: Sequence[Any] = (), *, stream: bool = False
    ) -> Iterable[Any]:
        """The rows of ``select`` over the skill's rows, then ``tail``; with ``stream``, one at
        a time from a runner that has ``each`` (:meth:`LocalRows.each`), all at once from any
        other."""
        run = (getattr(self._run, "each", None) if stream else None) or self._run
        return run(f"{select} FROM access_log{self._where}{tail}", [*self._params, *extra])

    def period(self, uses: bool = False) -> tuple[str | None, str | None]:
        """First and last time among the rows (the uses, :data:`USE_ROW`, with ``uses``) that is
        an instant (:func:`~skillc_index.clock.is_utc_timestamp`: another tool's row dated
        ``zzz``, ``2026-02-30T10:00:00Z`` or with an offset is in no period, as in ``--by``)."""
        return self._edge("MIN", uses), self._edge("MAX", uses)

    def _edge(self, func: str, uses: bool) -> str | None:
        """The ``MIN`` or ``MAX`` time that is an instant: an index lookup (a query holding one
        ``MIN`` or ``MAX`` and nothing else is the form SQLite answers from the index without a
        scan); when that time is none (rare: a foreign row's), the index read on from that end
        to the first instant (:data:`INSTANT`). That text is of the first (last) second; unless
        it is the first and a whole second, that second's rows are compared as times
        (:data:`~skillc_index.clock.TIME_ORDER`), one index range more."""
        tail, extra = (f" AND {USE_ROW}", list(USE_COMMANDS)) if uses else ("", [])
        found = self._rows(f"SELECT {func}(timestamp)", tail, extra)
        time = found[0][0] if found else None
        if time is not None and not _instant(time):
            found = self._rows(f"SELECT {func}(timestamp)", f"{tail} AND {INSTANT}", extra)
            time = found[0][0] if found else None
        if time is None or (func == "MIN" and len(time) == 20):
            return time  # (a whole second, skillc's rows, is before its fractions)
        second, within = time[:19], f"{tail} AND timestamp BETWEEN ? AND ? AND {INSTANT}"
        found = self._rows(f"SELECT {func}({TIME_ORDER})", within, [*extra, second, f"{second}Z"])
        return from_time_order(found[0][0]) if found and found[0][0] is not None else time

    def command_args_counts(self) -> Iterable[Any]:
        """``(command, args, rows, failed rows)`` for all rows: one pass over the skill's rows
        from which both the totals per command and the successful rows per target come (the
        summary needs both; two passes cost twice the rows). From a local log, one group at a
        time (as the index holds them: a skill's distinct searches are unbounded)."""
        return self._rows(
            "SELECT command, args, COUNT(*), COUNT(error)", " GROUP BY command, args", stream=True
        )

    def args_counts(self, command: str) -> list[Any]:
        """``(args, count)`` for the rows of one command (a search's query, say)."""
        return self._rows("SELECT args, COUNT(*)", " AND command = ? GROUP BY args", [command])

    def error_counts(self) -> list[Any]:
        """``(command, args, error, count)`` for failed rows."""
        return self._rows(
            "SELECT command, args, error, COUNT(*)",
            " AND error IS NOT NULL GROUP BY command, args, error",
        )

    def day_counts(self) -> list[Any]:
        """:meth:`counts` by UTC day (``YYYY-MM-DD``): the uses over time of ``--by``."""
        return self.counts(("day",))

    def counts(self, keys: Sequence[str]) -> list[Any]:
        """``(*keys, command, rows, failed rows)``: the rows of each value of ``keys`` (names
        of :data:`GROUPS`) and command (:func:`row_kinds` tells their kinds)."""
        select, group = _grouping(keys)
        return self._rows(f"SELECT {select}, command, COUNT(*), COUNT(error)", f" GROUP BY {group}")

    def cwd_counts(self) -> list[Any]:
        """``(cwd, uses)``: the uses (:data:`USE_ROW`) made in each working folder."""
        return self._rows("SELECT cwd, COUNT(*)", f" AND {USE_ROW} GROUP BY cwd", USE_COMMANDS)


#: What a count can be grouped by (:meth:`StatsLog.counts`, :func:`grouped_counts`): each
#: name and its SQL over a row (``day``: its UTC day, :data:`UTC_DAY`; ``username`` and
#: ``machine`` exist in a team store only).
GROUPS = {
    "day": UTC_DAY,
    "skill": "skill",
    "skill_path": "skill_path",
    "cwd": "cwd",
    "username": "username",
    "machine": "machine",
}


def _grouping(keys: Sequence[str], sql: Mapping[str, str] | None = None) -> tuple[str, str]:
    """The ``SELECT`` list of ``keys`` (fixed SQL of :data:`GROUPS`, never a value, or of
    ``sql``) and the ``GROUP BY`` of them and the command."""
    select = ", ".join((sql or {}).get(key) or GROUPS[key] for key in keys)
    return select, ", ".join(str(n) for n in range(1, len(keys) + 2))


def grouped_counts(
    rows: Rows,
    filters: RowFilters,
    column: str,
    values: Sequence[str],
    keys: Sequence[str],
    same: Mapping[str, str] | None = None,
) -> list[Any]:
    """``(*keys, command, rows, failed rows)`` of the rows whose ``column`` is one of
    ``values`` (a local log: its skills' source folders) within the filters: the trends and
    pictures of every skill at once (``skc stats --all --by``, ``--html``). In a local log
    (:func:`_moves`), the rows of a moved folder are read too, and a ``column`` key is the
    folder a move took them to. ``same``: as :class:`StatsLog`'s."""
    where, params, key, key_params = _moved_where(filters, column, values, _moves(rows), same)
    select, group = _grouping(keys, {column: key})
    statement = (
        f"SELECT {select}, command, COUNT(*), COUNT(error) FROM access_log{where} GROUP BY {group}"
    )
    return rows(statement, [*(key_params if column in keys else []), *params])


def usage_of(
    rows: Rows,
    filters: RowFilters,
    column: str,
    values: Sequence[str] | None = None,
    same: Mapping[str, str] | None = None,
    spread: Collection[str] = (),
) -> list[SkillUsage]:
    """Uses, first and last use, distinct projects (of the uses) and author activity per
    ``column`` value within the filters: of ``values`` only (a local log: its skills' source
    folders), or of every value (None). The rows of a key of ``same`` count as its value's
    (a folder imported into a store: its store copy's; a store skill's folder before its
    base moved, whose rows' working folders the project filter takes as moved too), each
    row once. One statement,
    answered from an index by ``column`` and command (the kind of each row is its command's,
    :func:`command_kind`; two when a first or last use may be a fraction of a second,
    :func:`_fractions`). The keys of ``spread`` (skills whose rows are in several logs,
    :func:`several_logs`) get their working folders too (:attr:`SkillUsage.folders`, one more
    statement). In a local log, the rows a move took to a folder count as that folder's
    (:func:`_moves`)."""
    same = same or {}
    moves = _moves(rows) if values is None else _concerning(_moves(rows), values)
    moved = list(dict.fromkeys(move[0] for move in moves))
    if values is not None:
        values = [*values, *(folder for folder in moved if folder not in values)]
    cwd = _cwd_key(filters, same, column)
    sql, params = where_clause(filters, column if values is not None else None, values or (), cwd)
    key, key_params = folder_key(column, same, moves)

    def statement(time: str) -> list[Any]:
        return rows(
            f"SELECT key, SUM(used), MIN(CASE WHEN used = 1 THEN {time} END), "
            f"MAX(CASE WHEN used = 1 THEN {time} END), "
            "COUNT(DISTINCT CASE WHEN used = 1 THEN cwd END), SUM(authored) "
            f"FROM (SELECT {key} AS key, timestamp, cwd, {IS_USE} AS used, "
            f"{IS_AUTHOR} AS authored FROM access_log{sql}) AS kinds GROUP BY key",
            [*key_params, *KIND_PARAMS, *params],
        )

    found = statement("timestamp")
    if _fractions(rows, found):  # (rare: compared as times, the time in SQL costs twice)
        found = [(*r[:2], *map(from_time_order, r[2:4]), *r[4:]) for r in statement(TIME_ORDER)]
    folders: dict[str, list[str]] = {}
    wanted = set(spread)
    leading = {folder for folder, _, now in moves if same.get(now, now) in wanted}  # to them
    spread_values = [
        valid_utf8(value)
        for value in dict.fromkeys(values if values is not None else [*same, *spread, *moved])
        if same.get(value, value) in wanted or value in leading
    ]
    if spread_values:  # only the rows of those skills: not every row a second time
        spread_sql, spread_params = where_clause(filters, column, spread_values, cwd)
        for name, cwd in rows(
            f"SELECT DISTINCT key, cwd FROM (SELECT {key} AS key, cwd, {IS_USE} AS used "
            f"FROM access_log{spread_sql}) AS kinds WHERE used = 1 AND cwd IS NOT NULL",
            [*key_params, *USE_COMMANDS, *spread_params],
        ):
            folders.setdefault(name, []).append(cwd)
    usage = []
    for name, uses, first, last, projects, authored in found:
        if not all(time is None or _instant(time) for time in (first, last)):  # (rare)
            logged = values if values is not None else [*same, name]  # its folders
            of_name = [value for value in logged if same.get(value, value) == name]
            first, last = StatsLog(rows, column, of_name, filters, same).period(uses=True)
        times = (first, last, int(projects), int(authored), tuple(folders.get(name, ())))
        usage.append(SkillUsage(name, int(uses), *times))
    return usage


def _fractions(rows: Rows, found: Iterable[Sequence[Any]]) -> bool:
    """Whether a first or last use :func:`usage_of` read as text may not be the first (last)
    time (:func:`~skillc_index.clock.time_order`): a time with a fraction of a second, or a
    last whole second the log holds a fraction of (an index lookup each)."""
    times = [(row[2], row[3]) for row in found]
    if any(_instant(time) and len(time) > 20 for pair in times for time in pair):
        return True
    probe = "SELECT 1 FROM access_log WHERE timestamp > ? AND timestamp < ? LIMIT 1"
    lasts = {last for _, last in times if _instant(last)}
    return any(rows(probe, [second_floor(last), last]) for last in lasts)


def _instant(time: object) -> TypeGuard[str]:
    """Whether a time read is an instant (:func:`~skillc_index.clock.is_utc_timestamp`): only
    such a time is a first or last one (:meth:`StatsLog.period`, :func:`usage_of`)."""
    return isinstance(time, str) and is_utc_timestamp(time)


def _instant_bytes(data: object) -> bool:
    """:func:`_instant` of a TEXT value given as its bytes (SQLite hands a function text that
    is not UTF-8 as an error): the SQL function ``is_instant`` of :class:`LocalRows`."""
    try:
        return isinstance(data, bytes) and _instant(data.decode("utf-8"))
    except UnicodeDecodeError:
        return False


#: SQL: whether a row's time is an instant (:func:`_instant`), on a :class:`LocalRows` log.
INSTANT = "typeof(timestamp) = 'text' AND is_instant(CAST(timestamp AS BLOB))"


def logs_of(skills: Iterable[InstalledSkill], layout: Layout) -> dict[Path, dict[str, str]]:
    """Where the local rows of ``skills`` are: each primary log -> each folder its rows name
    (:meth:`~skillc_index.inventory.entries.InstalledSkill.logged_as`: a folder imported
    into a store is its store copy, and its rows before the import may be in another log,
    the project's for a folder built ``--global``; a store link's, before its runtime was
    named after its entry: :func:`~.store.former_logs`; a skill in no store's, in the other
    scope's runtime: :func:`~.store.scope_logs`) -> its skill's source. Read each log with
    :func:`usage_of` once :func:`add_versions` has added the other versions' folders of its
    plugin skills (``same``: the folders that are not their source, :func:`same_folders`,
    which it returns), and sum a skill's logs with :func:`add_usage` (``skc stats --all`` and
    the agent listing's ranking)."""
    from skillc_index.accesslog.store import former_logs, primary_log_finder, scope_logs

    log_of = primary_log_finder(layout)
    by_log: dict[Path, dict[str, str]] = {}
    for skill in skills:
        source = valid_utf8(str(skill.source))
        for folder in skill.logged_as(layout):
            log, key = log_of(folder), valid_utf8(folder)
            folders = by_log.setdefault(log, {})
            if folders.get(key) != key:  # a skill's source stays its own (an older version
                folders[key] = source  # imported a store link's folder: that copy claims it)
            # a store link's, named otherwise (former_logs); a skill in no store's, in the
            # other scope's runtime (used outside the project, or before `skc init`): a store
            # skill logs to its store's runtime only, the other scope's log of its name is
            # another skill's (an unreadable one must not cost this one its uses)
            others = scope_logs if skill.store is None else former_logs
            for other in others(folder, log, layout):
                by_log.setdefault(other, {}).setdefault(key, source)
    return by_log


def add_versions(rows: Rows, folders: dict[str, str]) -> dict[str, str]:
    """Add to ``folders`` (one log's, as :func:`logs_of` gives them: folder -> its skill's
    source) the folders of the other versions of each Claude Code plugin skill among them that
    the log's rows name (:func:`other_versions`), as that skill's: the rows logged before an
    update count for the version installed now, read as they were logged; and a store
    skill's folders before its base moved (:func:`~.moves.former_stores`). A folder already
    there keeps its skill (a version installed too, at another scope: every installed skill of
    a name is logged in the same log); an older one goes to the first installed version. The
    log is not read when no folder is :func:`followed_folder`. Returns :func:`same_folders`."""
    log = rows.path if isinstance(rows, LocalRows) else None  # (its route's places: moved too)
    for folder, source in list(folders.items()):
        if followed_folder(folder):
            for other in [*other_versions(rows, folder), *former_stores(rows, folder, log)]:
                folders.setdefault(other, source)
    return same_folders(folders)


def followed_folder(folder: str) -> bool:
    """Whether :func:`add_versions` looks in the log for other folders of the skill at
    ``folder``: a Claude Code plugin skill's (its other versions') or a store skill's (its
    folders before its base moved, :func:`~skillc_index.layout.store_skill_name`)."""
    from skillc_index.inventory.plugins import plugin_version_parts
    from skillc_index.layout import store_skill_name

    return plugin_version_parts(folder) is not None or store_skill_name(folder) is not None


def same_folders(folders: Mapping[str, str]) -> dict[str, str]:
    """The folders of ``folders`` (:func:`logs_of`'s, one log's) that are not their skill's
    source, each -> that source: :func:`usage_of`'s ``same`` (their rows count as the
    source's)."""
    return {folder: source for folder, source in folders.items() if folder != source}


def other_versions(rows: Rows, folder: str) -> list[str]:
    """The folders of the other versions of the Claude Code plugin skill at ``folder`` that
    rows of the log ``rows`` name (:func:`~skillc_index.inventory.plugins.plugin_version_parts`:
    ``.../cache/<marketplace>/<plugin>/<version>/skills/<skill>``, any version): the rows an
    agent made before the plugin was updated, whose folder may be gone. Read at any time, from
    the rows as they were logged: the log's folders of the plugin
    (:func:`~.moves.log_folders`); none for any other folder."""
    from skillc_index.inventory.plugins import plugin_version_parts

    parts = plugin_version_parts(folder)
    if parts is None:
        return []
    head, tail = valid_utf8(parts[0]), valid_utf8(parts[1])
    end = head[:-1] + chr(ord(head[-1]) + 1)  # every text that starts with head sorts before
    own, found = valid_utf8(folder), []
    for low in log_folders(rows, head, end):
        version = low[len(head) : len(low) - len(tail)]  # one folder's name
        one = version not in ("", ".", "..") and os.sep not in version
        if one and low.endswith(tail) and low != own:
            found.append(low)
    return found


def several_logs(by_log: Mapping[Path, Mapping[str, str]]) -> frozenset[str]:
    """The sources of :func:`logs_of`'s answer whose rows are in more than one log: read
    them with :func:`usage_of`'s ``spread``, so that :func:`add_usage` counts a project
    used in both once."""
    seen: set[str] = set()
    twice: set[str] = set()
    for folders in by_log.values():
        sources = set(folders.values())
        twice |= seen & sources
        seen |= sources
    return frozenset(twice)


def add_usage(
    usage: dict[str, SkillUsage], found: Mapping[str, SkillUsage], sources: Iterable[str]
) -> None:
    """Add the use one log holds of each of ``sources`` (``found``, by key) to ``usage``:
    one skill's use from two logs (a folder imported into the other scope's store) is the
    rows of both, its projects the union of theirs (read with ``spread``: a project used
    from both counts once)."""
    for source in sources:
        use = found.get(source)
        if use is None:
            continue
        one = usage.get(source)
        if one is None:
            usage[source] = use
            continue
        firsts = [time for time in (one.first_used, use.first_used) if time is not None]
        lasts = [time for time in (one.last_used, use.last_used) if time is not None]
        folders = tuple(dict.fromkeys((*one.folders, *use.folders)))
        usage[source] = SkillUsage(
            one.key,
            one.uses + use.uses,
            min(firsts, default=None, key=time_order),
            max(lasts, default=None, key=time_order),
            len(folders) if folders else one.projects + use.projects,
            one.author_activity + use.author_activity,
            folders,
        )
