"""Usage analytics of one skill (RFC-0003): the query types over its access log.

The log is ``<runtime>/.skillc-meta/logs.db`` of the resolved skill (RFC-0003:C-CLI), and
only rows whose ``skill_path`` is the resolved source folder count (and those of the folders
it is also logged as: :func:`skillc_stats._usage.logged_folders`): several source folders
with the same name share one runtime, and ``skill_path`` tells their rows apart
(RFC-0007:C-RESOLUTION). Filters are applied in SQL, before anything is counted.

What a row accessed comes from its ``args`` (RFC-0007:C-LOGGING), read through the types
that name their keys (:mod:`skillc_index.accesslog`: ``ShowArgs``, ``OpenArgs``,
``SearchArgs``, ``SourcesArgs``, which the operations log):

- ``show`` (``{"section", "file", "nth", "max_lines"}``): a section, found among the skill's
  *current* headings by ``show``'s own rule (``skillc_index.matching_headings``,
  RFC-0002:C-SHOW: trimmed, leading ``#`` marks dropped, the query as given then the part
  before `` — ``, Unicode case folding; the ``nth`` match, first by default, in file then
  line order, only in ``file`` when given). The entry carries the heading's own text and its
  file; a heading no longer there keeps the query, and ``file`` when the row gave one;
- ``open`` (``{"path"}``): a file; so is ``read``, a file an agent read with its own tool
  (imported by ``sync --from claude-code``, with the ``path`` ``open`` logs);
- ``search`` (``{"query", "result_count", "limit"}``): a search query.

Sections and files count successful rows only (a failed ``show``: under ``errors``).

**Uses and author activity** (DECISIONS, "Logging and analytics"): the summary's ``uses``
are the rows of agents' reads and activations (:data:`~skillc_index.accesslog.USE_COMMANDS`),
its ``author_activity`` the author's own runs (``build``, ``lint``, ``stats``:
:data:`~skillc_index.accesslog.AUTHOR_COMMANDS`), never counted as uses; a failed read (a row
of a use command with an ``error``) is no use either, its ``failed_uses``; ``projects`` and
``--by`` count uses. ``total_accesses``, ``commands`` and ``errors`` keep every row
(RFC-0003).
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Iterable, Mapping, Sequence
from functools import cached_property
from types import MappingProxyType
from typing import TYPE_CHECKING, Any, cast, get_args

from skillc_index import (
    MAX_JSON_BYTES,
    MAX_JSON_DEPTH,
    InvalidQueryType,
    Layout,
    Notice,
    ResolvedSkill,
    resolve_skill,
    valid_utf8,
)
from skillc_index.accesslog import primary_log
from skillc_index.accesslog.reader import (
    CommandCount,
    LocalRows,
    StatsLog,
    command_kind,
    row_kinds,
    same_folders,
)
from skillc_stats._accessed import (
    UNREADABLE,
    Headings,
    activation_source,
    as_text,
    error_target,
    label,
    load_args,
    relative_file,
    show_query,
)
from skillc_stats._filters import Filters, Folders, Names, Time, team_filters
from skillc_stats.operations import GroupBy

if TYPE_CHECKING:
    from pathlib import Path

    from skillc_index.accesslog import OpenArgs, SearchArgs, ShowArgs
    from skillc_index.layout import SkillArgument
    from skillc_stats._team import TeamStatsLog, TeamStore

#: RFC-0003:C-QUERIES, in the RFC's order; the first is the default.
QUERY_TYPES: tuple[str, ...] = get_args(GroupBy)

Section = tuple[str | None, str]
"""``(file, heading)``; file is None for a heading no longer found and not given."""


def _ranked(counts: Mapping[Any, int], key: Any = None) -> list[tuple[Any, int]]:
    """Count descending, then ``key(item)`` ascending (the RFC's tie-breaks)."""
    order = key or (lambda item: item)
    return sorted(counts.items(), key=lambda pair: (-pair[1], order(pair[0])))


class SeveralLogs:
    """One skill's rows in several local logs (:class:`StatsLog` each) read as one: a row is
    in one primary log (``sync`` moves rows, never copies them), so each group's counts are
    the sum of the logs' (every reader here sums the groups it gets), the period the widest."""

    def __init__(self, logs: Sequence[StatsLog]) -> None:
        self._logs = logs

    def period(self) -> tuple[str | None, str | None]:
        from skillc_index.clock import time_order

        found = [log.period() for log in self._logs]
        starts = [start for start, _ in found if start is not None]
        ends = [end for _, end in found if end is not None]
        return min(starts, default=None, key=time_order), max(ends, default=None, key=time_order)

    def command_args_counts(self) -> Iterable[Any]:
        for log in self._logs:
            yield from log.command_args_counts()

    def args_counts(self, command: str) -> list[Any]:
        return [row for log in self._logs for row in log.args_counts(command)]

    def error_counts(self) -> list[Any]:
        return [row for log in self._logs for row in log.error_counts()]

    def day_counts(self) -> list[Any]:
        return [row for log in self._logs for row in log.day_counts()]

    def counts(self, keys: Sequence[str]) -> list[Any]:
        return [row for log in self._logs for row in log.counts(keys)]

    def cwd_counts(self) -> list[Any]:
        return [row for log in self._logs for row in log.cwd_counts()]


class StatsQuery:
    """The RFC-0003 queries for one resolved skill and one set of filters, over its local
    log (the rows of its source and of those of ``folders``, :func:`~._usage.logged_folders`,
    that are its: :func:`~._usage.own_folders`), or over the rows of every skill of its name
    in a team ``store`` (which this query then owns and closes). Each result is computed
    once; the text summary of ``skc stats`` uses several of them."""

    def __init__(
        self,
        skill: ResolvedSkill,
        filters: Filters,
        store: TeamStore | None = None,
        folders: Mapping[str, str] = MappingProxyType({}),
        notices: tuple[Notice, ...] = (),
        others: Sequence[Path] = (),
        unused_note: Notice | None = None,
    ) -> None:
        self.skill = skill
        self._others: list[LocalRows] = []
        self.unused_note = unused_note
        """Said by :meth:`warnings` when the rows read hold no use (:func:`~._usage.elsewhere`)."""
        self.filters = filters
        self._notes: dict[str, Notice] = {note.text: note for note in notices}
        """``notices`` (the logs it does not read: :func:`~._usage.former_notices`), then the
        ``others`` it cannot read, then the periods :meth:`trend` left out, by period kind
        (:func:`periods_note`)."""
        self._source: LocalRows | TeamStore
        self._log: StatsLog | SeveralLogs | TeamStatsLog
        if store is None:
            self._source = own = LocalRows(primary_log(skill.runtime))
            try:
                self._log = self._local_log(own, folders, others)
            except BaseException:  # (UnreadableFile: E999, the log closed)
                self.close()
                raise
        else:
            self._source = store
            self._log = store.stats_log(skill.name, filters)

    def _local_log(
        self, own: LocalRows, folders: Mapping[str, str], others: Sequence[Path]
    ) -> StatsLog | SeveralLogs:
        """The skill's rows in its ``own`` log and in ``others`` (:func:`~skillc_index.accesslog.
        store.scope_logs`), those of its folders in any of them (a plugin's skill: its other
        versions' folders, :func:`~._usage.own_folders`, each log's); one of ``others`` that
        cannot be read is said (:func:`~._usage.unreadable_log`), not read."""
        from skillc_index import UnreadableFile
        from skillc_stats._usage import own_folders, unreadable_log

        source = str(self.skill.source)
        paths = dict.fromkeys(own_folders(own, folders, source))
        for log in others:  # its rows in the other scope's runtime too
            rows = LocalRows(log)
            self._others.append(rows)  # (closed with the query whatever happens next)
            try:
                rows("SELECT 1 FROM access_log LIMIT 1", [])  # (open, or say why not)
                paths.update(dict.fromkeys(own_folders(rows, folders, source)))
            except UnreadableFile as exc:  # one log must not hide the other's rows
                self._others.remove(rows)
                rows.close()
                self._notes[str(log)] = unreadable_log(exc, "its rows are not counted")
        # (--project: the other folders' rows count as the source's)
        same = same_folders(dict.fromkeys(paths, valid_utf8(source)))
        logs = [
            StatsLog(rows, "skill_path", list(paths), self.filters, same)
            for rows in (own, *self._others)
        ]
        return logs[0] if len(logs) == 1 else SeveralLogs(logs)

    def close(self) -> None:
        self._source.close()
        for rows in self._others:
            rows.close()

    def __enter__(self) -> StatsQuery:
        return self

    def __exit__(self, *exc_info: object) -> None:
        self.close()

    # -- reading ---------------------------------------------------------------------------
    @cached_property
    def headings(self) -> Headings:
        return Headings.of(self.skill.source)

    @cached_property
    def _commands(self) -> list[CommandCount]:
        """Rows and failed rows per command (:attr:`_by_args`)."""
        return [CommandCount(command, *counts) for command, counts in self._by_args[0].items()]

    @cached_property
    def _by_args(self) -> tuple[dict[str, tuple[int, int]], list[Any], int]:
        """One pass (one snapshot) over the ``(command, args)`` groups: rows and failed rows
        per command, the groups whose ``args`` the summary reads, with ``args`` read (no other
        is kept: distinct searches are unbounded), and the :attr:`skipped_rows`."""
        totals: dict[str, tuple[int, int]] = {}
        kept, skipped = [], 0
        for raw_command, raw, count, failed in self._log.command_args_counts():
            command, args = label(raw_command), load_args(raw)
            rows, errors = totals.get(command, (0, 0))
            totals[command] = (rows + count, errors + failed)
            if (command in ("show", "open", "read") and count > failed) or command == "activate":
                kept.append((command, args, count, failed))
            skipped += count if args is UNREADABLE else 0
        return totals, kept, skipped

    @cached_property
    def _targets(self) -> tuple[Counter[Section], Counter[str]]:
        """Successful ``show`` rows by section, and ``show``/``open``/``read`` rows by file."""
        sections: Counter[Section] = Counter()
        files: Counter[str] = Counter()
        kept = self._by_args[1]
        rows = [(c, args, count - failed) for c, args, count, failed in kept if c != "activate"]
        headings = self.headings if any(command == "show" for command, _, _ in rows) else None
        for command, args, count in rows:
            if command in ("open", "read"):  # read: an agent's own (sync --from, MCP)
                path = as_text(cast("OpenArgs", args).get("path"))
                if path:
                    files[relative_file(path)] += count
                continue
            show = cast("ShowArgs", args)
            query = as_text(show.get("section"))
            if query is None or headings is None:
                continue
            given = as_text(show.get("file"))
            file = relative_file(given) if given else None
            nth = show.get("nth", 1)  # 1 too for a foreign row's that is no positive int
            found = headings.find(query, file, nth if type(nth) is int and nth > 0 else 1)
            section: Section = found if found is not None else (file, show_query(query))
            sections[section] += count
            if section[0] is not None:
                files[section[0]] += count
        return sections, files

    @cached_property
    def skipped_rows(self) -> int:
        """Rows (within the filters) whose ``args`` could not be read
        (:func:`._accessed.load_args`): they count as accesses, but no section, file, query or
        target comes from them."""
        return self._by_args[2]

    def warnings(self) -> tuple[Notice, ...]:
        """A notice of the :attr:`skipped_rows`, when there are any, of the periods the
        trends asked so far left out (:func:`periods_note`), and the :attr:`unused_note`
        when no row read is a use."""
        notes = tuple(self._notes.values())
        if self.unused_note is not None and not any(
            command_kind(row.command) == "use" and row.accesses > row.errors
            for row in self._commands
        ):  # no use here: its uses may be in other projects' runtimes (prepare)
            notes = (*notes, self.unused_note)
        skipped = self.skipped_rows
        if not skipped:
            return notes
        from skillc_index.text import counted

        return (
            Notice(
                f"{counted(skipped, 'row')} of the log skipped: args that are not JSON, larger "
                f"than {MAX_JSON_BYTES >> 20} MiB or nested deeper than {MAX_JSON_DEPTH} levels "
                "(counted as accesses, read for nothing else)"
            ),
            *notes,
        )

    # -- RFC-0003:C-QUERIES ------------------------------------------------------------------
    @cached_property
    def _period(self) -> tuple[str | None, str | None]:
        return self._log.period()

    def period(self) -> dict[str, str | None]:
        """Earliest and latest access among the rows the filters keep, whatever the query
        type (null when none)."""
        start, end = self._period
        return {"start": start, "end": end}

    @cached_property
    def _activations(self) -> Counter[str]:
        """Imported activations by who chose the skill, as the transcript says
        (:func:`activation_source`)."""
        found: Counter[str] = Counter()
        for command, args, count, _failed in self._by_args[1]:
            if command == "activate":
                found[activation_source(args)] += count
        return found

    def summary(self) -> dict[str, int]:
        """RFC-0003's summary, with the ``uses`` (agents' reads and activations), the
        ``failed_uses`` (their failed rows: no use) and the ``author_activity`` (the author's
        own runs) among its ``total_accesses``."""
        sections, files = self._targets
        kinds: Counter[str] = Counter()
        for row in self._commands:
            for kind, count in row_kinds(row.command, row.accesses, row.errors):
                kinds[kind] += count
        return {
            "total_accesses": sum(row.accesses for row in self._commands),
            "uses": kinds["use"],
            "failed_uses": kinds["failed_use"],
            "author_activity": kinds["author"],
            "unique_sections": len(sections),
            "unique_files": len(files),
            "error_count": sum(row.errors for row in self._commands),
            "activations_by_user": self._activations["user"],
            "activations_by_model": self._activations["model"],
        }

    def sections(self) -> list[dict[str, Any]]:
        """By count, then file path, then heading (RFC-0003:C-QUERIES); unknown file first."""
        ranked = _ranked(self._targets[0], key=lambda item: (item[0] or "", item[1]))
        return [
            {"section": section, "file": file, "count": count} for (file, section), count in ranked
        ]

    def files(self) -> list[dict[str, Any]]:
        return [{"file": file, "count": count} for file, count in _ranked(self._targets[1])]

    def commands(self) -> dict[str, int]:
        """Every logged command, most used first (key order carries no meaning in JSON)."""
        counts = {row.command: row.accesses for row in self._commands}
        return dict(_ranked(counts))

    def projects(self) -> list[dict[str, Any]]:
        """The uses made in each working folder (the author's own runs are no use of the
        skill in a project); by count, then path (the RFC gives no tie-break; this one is
        stable)."""
        counts: Counter[str] = Counter()
        for cwd, count in self._log.cwd_counts():
            counts[label(cwd)] += count
        return [{"project": cwd, "count": count} for cwd, count in _ranked(counts)]

    def errors(self) -> list[dict[str, Any]]:
        """Failed accesses grouped by target, command and error; by count, then those."""
        counts: Counter[tuple[str, str, str]] = Counter()
        for command, raw, error, count in self._log.error_counts():
            target = error_target(load_args(raw), self.skill.name)
            counts[(target, label(command), label(error))] += count
        return [
            {"target": target, "command": command, "error": error, "count": count}
            for (target, command, error), count in _ranked(counts)
        ]

    def search(self) -> list[dict[str, Any]]:
        """Search queries as agents typed them, failed searches included; by count, then
        query text (RFC-0003:C-QUERIES)."""
        counts: Counter[str] = Counter()
        for raw, count in self._log.args_counts("search"):
            query = as_text(cast("SearchArgs", load_args(raw)).get("query"))
            if query is not None:
                counts[query] += count
        return [{"query": query, "count": count} for query, count in _ranked(counts)]

    def unused_sections(self) -> list[dict[str, str]]:
        """Current headings no successful ``show`` read (under the same filters), in outline
        order; a heading text repeated in one file counts once."""
        read = set(self._targets[0])
        unused: list[dict[str, str]] = []
        seen: set[tuple[str, str]] = set()
        for file, text, *_lines in self.headings.headings:
            if (file, text) in read or (file, text) in seen:
                continue
            seen.add((file, text))
            unused.append({"section": text, "file": file})
        return unused

    def data(self, query: str) -> Any:
        """The ``data`` field for one query type (E030 for an unknown one)."""
        answers = {
            "summary": self.summary,
            "sections": self.sections,
            "files": self.files,
            "commands": self.commands,
            "projects": self.projects,
            "errors": self.errors,
            "search": self.search,
        }
        return answers[check_query(query)]()

    def trend(self, by: str) -> list[dict[str, Any]]:
        """Uses, author activity and every access per ``by`` period (``day``, ``week``: the
        ISO week, named by its Monday, or ``month``), from the first to the last period with
        an access, up to today's at most as in ``--all`` (a row dated later, a wrong clock's,
        is in none, unless every row but the author's own is: :func:`~skillc_stats._periods.
        shown_periods`), the quiet ones included (zeros)."""
        from skillc_stats._periods import kinds_by_period, period_rows, periods_note, shown_periods
        from skillc_stats._trends import end_day

        rows = self._log.day_counts()
        kinds = kinds_by_period(rows, by)
        last = max(kinds, default="")
        first, last = shown_periods(
            kinds, last, end_day(self.filters), by, lambda: kinds_by_period(rows, "day")
        )
        note = periods_note(first, last, by)
        if note is not None:
            self._notes[by] = note
        return period_rows(kinds, first, last, by)

    def days(self) -> list[str]:
        """The days holding an access (a row on no day of the calendar is in none)."""
        from skillc_stats._periods import kinds_by_period

        return list(kinds_by_period(self._log.day_counts(), "day"))

    def uses_by(self, key: str) -> list[dict[str, Any]]:
        """The uses per value of ``key`` (``cwd``; in a team store ``username`` or
        ``machine``), most first: ``[{"name", "uses"}]`` (the page of ``--html``)."""
        return ranked_uses(self._log.counts((key,)))

    def response(self, query: str, by: str | None = None) -> dict[str, Any]:
        """The whole RFC-0003:C-SCHEMA response for one query type, or (``by``) for the uses
        over time (``query``: ``by day``, ``by week`` or ``by month``)."""
        data = self.data(query) if by is None else self.trend(by)
        return {
            "skill": self.skill.shown,
            "skill_path": str(self.skill.source),
            "query": query if by is None else f"by {by}",
            "filters": self.filters.to_dict(),
            "period": self.period(),
            "data": data,
        }


def ranked_uses(rows: Iterable[Sequence[Any]]) -> list[dict[str, Any]]:
    """``(value, command, count, failed)`` rows as the uses of each value (:func:`~skillc_index.
    accesslog.reader.row_kinds`), most first (then by value): ``[{"name", "uses"}]``."""
    totals: Counter[str] = Counter()
    for value, command, count, failed in rows:
        (kind, uses), _failed = row_kinds(command, count, failed)
        if kind == "use" and uses:
            totals[str(value)] += uses
    ranked = sorted(totals.items(), key=lambda item: (-item[1], item[0]))
    return [{"name": name, "uses": uses} for name, uses in ranked]


def check_query(group_by: str) -> str:
    """``group_by`` if it is a query type of RFC-0003:C-QUERIES, else E030 (a plain string is
    checked here, not by click, so the CLI reports E030 rather than a usage error)."""
    if not isinstance(group_by, str) or group_by not in QUERY_TYPES:  # 5: a bare TypeError
        raise InvalidQueryType(str(group_by), QUERY_TYPES)
    return group_by


def prepare(
    skill: ResolvedSkill | SkillArgument,
    layout: Layout | None,
    group_by: str,
    since: Time | None,
    until: Time | None,
    projects: Folders,
    *,
    store: str | None = None,
    users: Names = (),
    machines: Names = (),
) -> StatsQuery:
    """Check the query type and the filters, resolve the skill, open the team ``store``
    (a ``postgresql://`` URL) if one is given: a ready :class:`StatsQuery`."""
    check_query(group_by)
    if not isinstance(skill, ResolvedSkill):  # 5: E100 before any work, not a bare TypeError
        from skillc_index.layout import checked_skill

        checked_skill(skill)
    if layout is None:
        layout = Layout.discover()
    filters = team_filters(layout, since, until, projects, store, users, machines)
    resolved = skill if isinstance(skill, ResolvedSkill) else resolve_skill(skill, layout)
    if store is None:
        from skillc_index.accesslog.store import scope_logs
        from skillc_stats._usage import elsewhere, elsewhere_notice, former_notices, logged_folders

        folders, notices = logged_folders(resolved, layout), former_notices(resolved, layout)
        source, log = str(resolved.source), primary_log(resolved.runtime)
        # a skill in no store's rows in the other scope's runtime (used outside the project,
        # or before `skc init`); a store skill's are in its own log (its former_logs, which
        # no skill in no store has, said by the notices, not read)
        others = [] if resolved.in_store else scope_logs(source, log, layout)
        unused = None  # said when it finds no use
        if elsewhere(source, resolved.in_store, layout):
            unused = elsewhere_notice([resolved.shown], layout)  # as given: devkit@other:review
        return StatsQuery(
            resolved, filters, folders=folders, notices=notices, others=others, unused_note=unused
        )
    from skillc_stats._team import TeamStore

    return StatsQuery(resolved, filters, TeamStore(store, write=False))


def query_stats(
    skill: ResolvedSkill | SkillArgument,
    layout: Layout | None = None,
    *,
    group_by: str = "summary",
    since: Time | None = None,
    until: Time | None = None,
    projects: Folders = (),
    store: str | None = None,
    users: Names = (),
    machines: Names = (),
) -> dict[str, Any]:
    """Usage analytics of a skill as the RFC-0003:C-SCHEMA response (``skc stats --format json``).

    ``skill`` is a resolved skill or a name/path resolved from ``layout`` (default: the
    current directory and ``$SKILLC_HOME``). ``group_by`` is one of :data:`QUERY_TYPES`
    (E030 otherwise); ``since``/``until`` are inclusive bounds (RFC 3339, ``YYYY-MM-DD`` or
    ``Nd``; a ``date``, or a ``datetime`` with its time zone), ``projects`` folders whose
    accesses count (E031 when malformed). Relative project paths are relative to
    ``layout.cwd``. With ``store`` (a ``postgresql://`` URL) the rows are the team store's
    rows of every skill of that name, of ``users`` and ``machines`` only when given
    (E043/E044 when the store cannot be used). Does not log an access itself.
    """
    with prepare(
        skill,
        layout,
        group_by,
        since,
        until,
        projects,
        store=store,
        users=users,
        machines=machines,
    ) as query:
        return query.response(group_by)


def unused_sections(
    skill: ResolvedSkill | SkillArgument,
    layout: Layout | None = None,
    *,
    since: Time | None = None,
    until: Time | None = None,
    projects: Folders = (),
) -> list[dict[str, str]]:
    """``{"section", "file"}`` for each current heading of the skill that no successful
    ``show`` read within the filters (the "Unused sections" of the text report)."""
    with prepare(skill, layout, "summary", since, until, projects) as query:
        return query.unused_sections()
