"""skillc-stats' commands as operations (:mod:`skillc_index.operation`): ``stats``, usage
analytics of one skill from its access log (RFC-0003), logged like every command that
resolves a skill, and ``sync``, which moves access rows: fallback logs into the primary logs
(RFC-0007:C-SYNC), an agent's transcripts into the logs, the logs into a team store.

``skc stats`` and ``skc sync`` are made from them (:mod:`skillc_stats.cli_stats`,
:mod:`skillc_stats.cli_sync`) and render the results as text or JSON; the MCP tool
``skc_stats`` returns ``to_dict()``, the RFC-0003:C-SCHEMA response. ``sync`` is no tool
(:attr:`SYNC.no_tool <skillc_index.operation.Operation.no_tool>` says why). The results'
JSON shapes are in :mod:`skillc_stats.shapes`. Only the standard library and
:mod:`skillc_index.operation` are imported here: the log readers load when an operation runs.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Annotated, Any, Literal, cast

from skillc_index.operation import SKILL_DESCRIPTION, Operation, Param, Session
from skillc_index.record import Record

if TYPE_CHECKING:
    from pathlib import Path

    from skillc_index import Diagnostic, Notice, SkillcError
    from skillc_stats._prune import PruneReport
    from skillc_stats._stats import StatsQuery
    from skillc_stats._sync import SyncReport
    from skillc_stats._team import UploadReport
    from skillc_stats._transcripts import TranscriptSync
    from skillc_stats.shapes import StatsShape, SyncShape

__all__ = [
    "MAX_FILTER_VALUES",
    "OPERATIONS",
    "PRUNE",
    "STATS",
    "SYNC",
    "GroupBy",
    "Period",
    "PruneParams",
    "StatsParams",
    "StatsReport",
    "SyncParams",
    "SyncResult",
    "prune",
    "stats",
    "sync",
]

#: At most this many values of each of ``project``, ``user`` and ``machine`` (the tool's
#: ``maxItems``, the command line's repeated option): 20,000 project folders in one tool call
#: held the MCP server 20 s.
MAX_FILTER_VALUES = 64

GroupBy = Literal["summary", "sections", "files", "commands", "projects", "errors", "search"]
"""The query types of RFC-0003:C-QUERIES, in the RFC's order; the first is the default."""

Period = Literal["day", "week", "month"]
"""The periods of ``--by`` (the uses over time), the one list of them."""


# -- stats (RFC-0003) ---------------------------------------------------------------------


class StatsParams(Record):
    """The parameters of ``stats``: one skill (or, without one, every installed skill at
    once), the query type and the filters. ``log_args()``: what the access log stores."""

    skill: Annotated[
        str | None,
        Param(
            SKILL_DESCRIPTION + " Leave it out for every installed skill at once: uses, last "
            "use and projects of each, the unused ones (to prune) first.",
            argument=True,
            path=True,
            skill=True,
        ),
    ] = None
    all_: Annotated[
        bool,
        Param(
            "Every installed skill at once: uses, projects and last use of each, the unused "
            "ones (to prune) first."
        ),
    ] = False
    group_by: Annotated[
        GroupBy,
        Param(
            "Aggregation dimension.",
            help="What to count: summary, sections, files, commands, projects, errors or search.",
            metavar="TYPE",
            show_default=True,
            choice=False,  # an unknown query type is E030 (RFC-0005), checked by the run
        ),
    ] = "summary"
    by: Annotated[
        Period | None,
        Param(
            "Instead of a query type: the skill's uses over time, one entry per day, week "
            "(ISO, named by its Monday) or month: period, uses, author_activity, "
            "total_accesses. Without a skill: every skill's (periods), each skill's per "
            "period (skills) and those rising and falling between the last two periods.",
            help="The uses over time instead: one row per day, week or month, with a chart; "
            "with --all, every skill's, and the skills rising and falling.",
            metavar="PERIOD",
        ),
    ] = None
    since: Annotated[
        str | None,
        Param(
            "Only accesses at or after this time: 2026-01-30T10:00:00Z, 2026-01-30 (start of "
            "that day, UTC) or 7d (seven days ago).",
            help="Only accesses at or after TIME: 2026-01-30T10:00:00Z, 2026-01-30 (the start "
            "of that day, UTC) or 7d (seven days ago).",
            metavar="TIME",
        ),
    ] = None
    until: Annotated[
        str | None,
        Param(
            "Only accesses at or before this time (the same forms).",
            help="Only accesses at or before TIME (the same forms; a date means its start).",
            metavar="TIME",
        ),
    ] = None
    project: Annotated[
        tuple[str, ...],
        Param(
            "Only accesses made from these project folders (or below).",
            help="Only accesses made in PATH or a folder below it. Repeat for several (any "
            "matches).",
            metavar="PATH",
            names="dir",
            max_items=MAX_FILTER_VALUES,
        ),
    ] = ()
    from_: Annotated[
        str | None,
        Param(
            "Read the team store instead of this machine's logs: a postgresql:// URL, or "
            "'team' for the configured one ([stats] url, SKILLC_STATS_URL).",
            help="Read the team store: a postgresql:// URL, or 'team' for the configured one "
            "([stats] url in the global config.toml, or SKILLC_STATS_URL).",
            metavar="URL",
        ),
    ] = None
    user: Annotated[
        tuple[str, ...],
        Param(
            "Team store only: only accesses of these users.",
            item_min_length=1,
            max_items=MAX_FILTER_VALUES,
            help="With --from: only accesses of user NAME. Repeat for several.",
            metavar="NAME",
        ),
    ] = ()
    machine: Annotated[
        tuple[str, ...],
        Param(
            "Team store only: only accesses from these machines.",
            item_min_length=1,
            max_items=MAX_FILTER_VALUES,
            help="With --from: only accesses from machine NAME (its host name). Repeat for "
            "several.",
            metavar="NAME",
        ),
    ] = ()

    html: Annotated[
        str | None,
        Param(
            "Also write the report as one self-contained HTML page (inline charts, nothing "
            "fetched) to FILE.",
            help="Write the report as one self-contained HTML page to FILE (the text says "
            "only where; --format json prints the JSON as ever): uses over time, top skills "
            "or sections read and never read, projects, and users and machines with --from. "
            "A file skillc did not write there is moved aside only with --force.",
            metavar="FILE",
            names="file",
            min_length=1,
        ),
    ] = None
    force: Annotated[
        bool,
        Param(
            "With --html: move an existing FILE that skillc did not write aside (to a hidden "
            "backup beside it; never deleted) and write the page.",
            flags=("-f", "--force"),
        ),
    ] = False

    def log_args(self) -> dict[str, Any]:
        args: dict[str, Any] = {
            "group_by": self.group_by,
            "since": self.since,
            "until": self.until,
            "project": list(self.project),
        }
        if self.from_ is not None:  # never with its password
            from skillc_stats._team_url import masked

            args["from"] = masked(self.from_)
            args.update(user=list(self.user), machine=list(self.machine))
        return args


class StatsReport(Record):
    """The answer to one query: the RFC-0003:C-SCHEMA ``response``, and the ``query`` it
    came from (its log closed), whose other answers the text summary shows too."""

    query: StatsQuery | None
    """None for every skill at once (``skill`` left out)."""
    response: dict[str, Any]
    warnings: tuple[Diagnostic | Notice, ...] = ()
    html: str | None = None
    """The page written (``html``), as given."""

    def to_dict(self) -> StatsShape:
        return cast("StatsShape", dict(self.response))


def stats(session: Session, params: StatsParams) -> StatsReport:
    """Answer one query over the skill's access log (or the team store's rows of its name),
    after the rows of this session's earlier commands are written (a queued log: the MCP
    server). Without a skill (or with ``all_``): the use of every installed skill (nothing
    is logged: no single skill is resolved)."""
    from skillc_stats._stats import prepare

    if params.all_ and params.skill is not None:
        from skillc_index.option_errors import ParameterError

        raise ParameterError("give either {skill} or {all}")
    if params.by is not None and params.group_by != "summary":  # one skill or all: one report
        from skillc_index.option_errors import ParameterError

        _known_query(params.group_by)
        raise ParameterError("{by} is its own report, the uses over time: leave out {group_by}")
    session.log.flush()
    layout = session.layout
    store = None
    if params.from_ is not None:
        from skillc_stats._team_url import team_url

        configured = session.config.stats_url
        if session.configured_stores_only:  # a tool call: the configured store only
            if params.from_ not in ("team", configured):
                from skillc_index import InvalidOption

                raise InvalidOption(
                    "from: a tool call reads only the configured team store: 'team' "
                    "([stats] url, SKILLC_STATS_URL)"
                )
            store = team_url(params.from_, configured, "from")
        else:
            store = team_url(params.from_, configured, "--from")
    if params.force and params.html is None:
        from skillc_index.option_errors import ParameterError

        raise ParameterError("{force} goes with {html}")
    if params.html is not None and params.group_by != "summary":  # the page shows them all
        from skillc_index.option_errors import ParameterError

        _known_query(params.group_by)
        raise ParameterError(
            "{html} is its own report, every view on one page: leave out {group_by}"
        )
    if params.html == "-":  # no command of the kit reads '-' as standard output
        from skillc_index.option_errors import ParameterError

        raise ParameterError("{html} writes a file, not standard output: './-' names a file '-'")
    target = None
    if params.html is not None:  # checked before the report is made (E100 cannot write)
        from skillc_index.atomic import file_target

        target = file_target(layout.cwd, params.html)
    if params.skill is None:
        response, page, notes = _all(session, params, store)
        if page is not None and params.html is not None and target is not None:
            from skillc_stats._html import all_page

            written = _write(params.html, target, all_page(page, _shown(store)), params.force)
            return _fitted(session, StatsReport(None, response, notes + written, params.html))
        return _fitted(session, StatsReport(None, response, notes))
    with (
        session.logged("stats", params.skill, params.log_args()) as skill,
        prepare(
            skill,
            layout,
            params.group_by,
            params.since,
            params.until,
            params.project,
            store=store,
            users=params.user,
            machines=params.machine,
        ) as query,
    ):
        response = query.response(params.group_by, params.by)
        moved: tuple[Notice, ...] = ()
        if params.html is not None and target is not None:
            from skillc_stats._html import skill_page
            from skillc_stats._periods import page_period
            from skillc_stats._trends import end_day

            first, end = response["period"]["start"], end_day(query.filters)
            by = params.by or page_period(first, end, query.days)
            html = skill_page(query, response, by, _shown(store))
            moved = _write(params.html, target, html, params.force)
        warnings = query.warnings() + moved  # (the page's periods left out too)
    return _fitted(session, StatsReport(query, response, warnings, params.html))


def _fitted(session: Session, report: StatsReport) -> StatsReport:
    """``report`` within the reply's bound (:meth:`~skillc_index.operation.Session.
    fit_parts`: the MCP tool's; 562 skills made 107,812 characters, 400 searches of one skill
    412,925): the rows of ``data`` (or each list of it: ``--all --by``'s ``periods`` and
    ``skills``), the last of the longest first; its other keys stay whole."""
    if session.reply_chars is None:  # (the command line: every row)
        return report
    from itertools import compress

    from skillc_index.operation import Part

    response, everyone = report.response, report.query is None
    data = response["data"]
    lists = {"rows": data} if isinstance(data, list) else {}
    if isinstance(data, dict):
        lists = {key: value for key, value in data.items() if isinstance(value, list)}
    rest = [] if isinstance(data, list) else {**data, **dict.fromkeys(lists, ())}
    # ``--all --by``'s periods run oldest first: the newest (what ``last`` and ``change``
    # describe) are kept, and each kept skill's ``by_period`` cut to the same ones
    newest = {key: items[::-1] if key == "periods" else items for key, items in lists.items()}
    kept, cut = session.fit_parts(
        lambda: [Part(noun, items) for noun, items in newest.items()],
        "stats",
        f"narrow it with since, until or project{' (or name a skill)' if everyone else ''}, "
        "or run `skc stats --format json` with the same options for every row",
        {**response, "data": rest},
        warnings=report.warnings,
    )
    if not cut:
        return report
    masks = dict(zip(newest, kept, strict=True))
    shown = {key: list(compress(items, masks[key])) for key, items in newest.items()}
    if "periods" in shown:
        shown["periods"] = shown["periods"][::-1]
        periods = masks["periods"][::-1]
        shown = {
            key: [_kept_periods(item, periods) for item in items] if key == "skills" else items
            for key, items in shown.items()
        }
    data = shown["rows"] if isinstance(data, list) else {**data, **shown}
    return report._replace(response={**response, "data": data}, warnings=(*report.warnings, *cut))


def _kept_periods(skill: object, periods: tuple[bool, ...]) -> object:
    """A skill of ``--all --by`` with its ``by_period`` series cut to the values of the
    periods a fitted reply keeps (``periods``: a mask of them, oldest first)."""
    if not isinstance(skill, dict) or not isinstance(skill.get("by_period"), list):
        return skill
    from itertools import compress

    return {**skill, "by_period": list(compress(skill["by_period"], periods))}


def _shown(store: str | None) -> str | None:
    """The team store as a page names it: its URL without the password."""
    if store is None:
        return None
    from skillc_stats._team_url import masked

    return masked(store)


def _write(given: str, path: Path, page: str, force: bool) -> tuple[Notice, ...]:
    """The page to ``path`` (``given``; :func:`~skillc_stats._html.write_page`), and a
    warning naming where a file that was there went (``force``)."""
    from skillc_index import Notice
    from skillc_stats._html import write_page

    backup = write_page(path, page, force)
    if backup is None:
        return ()
    return (Notice(f"{given} was not written by skillc: moved aside to {backup}"),)


def _known_query(group_by: str) -> None:
    """E030 with the query types for an unknown ``group_by``, before an option that takes
    none says to leave it out (``--group-by bogus --html p.html`` said only that); a known
    one is checked, and an unknown one logged, once the skill is resolved otherwise."""
    from skillc_stats._stats import check_query

    check_query(group_by)


def _all(
    session: Session, params: StatsParams, store: str | None
) -> tuple[dict[str, Any], dict[str, Any] | None, tuple[Notice, ...]]:
    from skillc_index.inventory.folders import trusted_targets
    from skillc_stats._filters import team_filters
    from skillc_stats._usage import all_answers

    if params.group_by != "summary":
        from skillc_index.option_errors import ParameterError

        _known_query(params.group_by)
        raise ParameterError("every skill at once has one report: leave out {group_by}")
    filters = team_filters(
        session.layout,
        params.since,
        params.until,
        params.project,
        store,
        params.user,
        params.machine,
    )
    targets = trusted_targets(session.layout, session.config)
    return all_answers(session.layout, filters, store, targets, params.by, params.html is not None)


STATS: Operation[StatsParams, StatsReport] = Operation(
    name="stats",
    title="Usage analytics of a skill",
    description="Report how agents used a skill, from its access log: a summary, or accesses "
    "grouped by section, file, command, project, error (failed lookups) or search query. Use "
    "it when improving a skill, to see which parts agents read, what they searched for and "
    "what they could not find. Without a skill: every installed skill's uses, projects and "
    "last use, the unused ones first (which skills to prune).",
    params=StatsParams,
    run=stats,
    output="skillc_stats.shapes:StatsShape",
    cli_only={
        "all_": "the tool answers for every skill when skill is left out",
        "html": "a tool call writes no file on the user's machine: the page is for a person, "
        "who asks for it on the command line",
        "force": "it goes with html",
    },
)


# -- sync (RFC-0007:C-SYNC) ---------------------------------------------------------------


class SyncParams(Record):
    """The parameters of ``sync``: the fallback logs of the working folder (or ``project``)
    moved into the primary logs, only ``skill``'s when given; or, with ``from_``, an agent's
    transcripts imported; or, with ``to``, every runtime log uploaded to a team store (the
    fallback logs merged first)."""

    skill: Annotated[
        str | None,
        Param("Only the fallback logs of this skill (its name).", argument=True),
    ] = None
    project: Annotated[
        str | None,
        Param(
            "Sync the fallback logs of PATH's project (its root's .skillc/logs/) instead of "
            "the current folder's.",
            metavar="PATH",  # a folder: checked by sync_logs (E100), for the API too
            names="dir",
            min_length=1,
        ),
    ] = None
    dry_run: Annotated[
        bool, Param("Show what would be synced; change nothing.", flags=("-n", "--dry-run"))
    ] = False
    from_: Annotated[
        Literal["claude-code"] | None,
        Param(
            "Import skill activations and skill-file reads from an agent's own session records "
            "instead (claude-code: the transcripts under ~/.claude/projects)."
        ),
    ] = None
    claude_dir: Annotated[
        str | None,
        Param(
            "Claude Code's data folder for --from claude-code (default: $CLAUDE_CONFIG_DIR, "
            "else ~/.claude).",
            metavar="PATH",  # a folder: checked by sync_transcripts (E100), for the API too
            names="dir",
            min_length=1,
        ),
    ] = None
    to: Annotated[
        str | None,
        Param(
            "Upload this machine's access rows to the team store instead: a postgresql:// "
            "URL, or 'team' for the configured one. Rows already there are not sent again.",
            metavar="URL",
        ),
    ] = None


class SyncResult(Record):
    """What ``sync`` did, by mode: ``merged``, the fallback logs moved (alone, or before an
    upload); ``imported``, the transcripts read (``from_``); ``uploaded``, the team store's
    new rows (``to``). ``failed``: the upload's error (E043, E044) after the merge, whose
    rows the text still shows; :meth:`to_dict` raises it, a failed upload has no JSON."""

    merged: SyncReport | None = None
    imported: TranscriptSync | None = None
    uploaded: UploadReport | None = None
    failed: SkillcError | None = None

    @property
    def ok(self) -> bool:
        """Every skill and log synced (a failed one is in :attr:`warnings`)."""
        parts = (self.merged, self.imported, self.uploaded)
        return self.failed is None and all(part.ok for part in parts if part is not None)

    @property
    def interrupted(self) -> bool:
        """Ctrl-C ended the upload: :attr:`uploaded` holds the rows stored by then."""
        return self.uploaded is not None and self.uploaded.interrupted

    @property
    def warnings(self) -> tuple[Diagnostic | Notice, ...]:
        """The transcripts' or the upload's notices, then the error of each skill or log not
        synced."""
        found: list[Diagnostic | Notice] = []
        if self.imported is not None:
            found += self.imported.warnings
            found += [s.error.diagnostic for s in self.imported.skills if s.error is not None]
        if self.merged is not None:
            found += [s.error.diagnostic for s in self.merged.skills if s.error is not None]
        if self.uploaded is not None:
            found += self.uploaded.warnings
            found += [log.error.diagnostic for log in self.uploaded.logs if log.error is not None]
        return tuple(found)

    def check(self) -> None:
        """Raise the upload's error, if it failed."""
        if self.failed is not None:
            raise self.failed

    def to_dict(self) -> SyncShape:
        self.check()
        if self.imported is not None:
            return self.imported.to_dict()
        assert self.merged is not None
        if self.uploaded is not None:
            return {**self.uploaded.to_dict(), "merged": self.merged.to_dict()}
        return self.merged.to_dict()


def sync(session: Session, params: SyncParams) -> SyncResult:
    """RFC-0007:C-SYNC: move the fallback logs under ``project`` (default: the working
    folder) into their skills' primary logs, only ``skill``'s when given (``dry_run``: count
    the rows, change nothing); with ``from_``, import the skill usage of the agent's
    transcripts instead (:func:`~skillc_stats.sync_transcripts`); with ``to``, merge the
    fallback logs, then upload the runtime logs (this project's and the global ones) to the
    team store (:func:`~skillc_stats.upload_logs`). Nothing is logged: no single skill is
    resolved. One skill that cannot be synced does not stop the others
    (:attr:`SyncResult.ok`)."""
    from skillc_index.option_errors import ParameterError

    if params.from_ is not None:
        if params.to is not None:
            raise ParameterError("use one of {from} and {to} (import, then upload)")
        if params.skill is not None or params.project is not None:
            given = "{skill}" if params.skill is not None else "{project}"
            raise ParameterError("{from} imports every installed skill; drop " + given)
    elif params.claude_dir is not None:
        raise ParameterError("{claude_dir} goes with {from} claude-code")
    elif params.to is not None and (params.skill is not None or params.dry_run):
        raise ParameterError("{to} uploads every log: it takes no {skill} and no {dry_run}")
    session.log.flush()  # the rows this session queued are in the logs moved
    if params.from_ is not None:
        from skillc_stats._transcripts import sync_transcripts

        found = sync_transcripts(claude_folder=params.claude_dir, dry_run=params.dry_run)
        return SyncResult(imported=found)
    from skillc_stats._sync import sync_logs

    if params.to is None:
        merged = sync_logs(params.skill, project=params.project, dry_run=params.dry_run)
        return SyncResult(merged)
    from skillc_index import Layout, SkillcError
    from skillc_stats._team import UploadInterrupted, upload_logs
    from skillc_stats._team_url import team_url

    url = team_url(params.to, session.config.stats_url, "--to")
    merged = sync_logs(project=params.project)
    layout = Layout.discover(params.project) if params.project else session.layout
    try:
        uploaded = upload_logs(url, layout)
    except SkillcError as exc:  # after the merge, which the text still shows
        return SyncResult(merged, failed=exc)
    except UploadInterrupted as exc:  # what was stored is said (and the command ends with 130)
        return SyncResult(merged, uploaded=exc.report)
    return SyncResult(merged, uploaded=uploaded)


SYNC: Operation[SyncParams, SyncResult] = Operation(
    name="sync",
    title="Move access rows: fallback logs, agent transcripts, the team store",
    description="Merge the fallback access logs of the working folder into the skills' "
    "primary logs; or import skill usage from an agent's transcripts; or upload this "
    "machine's access rows to a team store.",
    params=SyncParams,
    run=sync,
    output="skillc_stats.shapes:SyncShape",
    annotations={
        "readOnlyHint": False,
        "destructiveHint": False,
        "idempotentHint": True,
        "openWorldHint": True,
    },
    no_tool="it moves the user's usage records: it writes the access logs, removes the "
    "fallback copies, reads another agent's transcripts and sends this machine's rows to a "
    "team server; the user (or a scheduled job) runs it, a model does not",
)

# -- stats prune (retention) --------------------------------------------------------------


class PruneParams(Record):
    """The parameters of ``stats prune``: the rows older than ``before`` go, from this
    machine's runtime logs, or from the team store ``from_``."""

    before: Annotated[
        str,
        Param(
            "Delete the access rows older than TIME: YYYY-MM-DD (the start of that day, UTC), "
            "an RFC 3339 time, or a number of days such as 90d.",
            metavar="TIME",
        ),
    ]
    dry_run: Annotated[
        bool, Param("Count the rows that would go; change nothing.", flags=("-n", "--dry-run"))
    ] = False
    from_: Annotated[
        str | None,
        Param(
            "Prune the team store instead of the local logs: a postgresql:// URL, or 'team' "
            "for the configured one. Its rollups (the counts of every day) are kept.",
            metavar="URL",
        ),
    ] = None


def prune(session: Session, params: PruneParams) -> PruneReport:
    """Delete the access rows older than ``before`` from the runtime logs of the working
    folder's stores (the project's and the global one), or from the team store ``from_``
    (:mod:`skillc_stats._prune`: nothing is uploaded twice afterwards). Nothing is logged."""
    from skillc_index import MalformedFilter
    from skillc_index.clock import utc_now
    from skillc_stats._filters import parse_time
    from skillc_stats._prune import prune_logs, prune_store

    before = parse_time(params.before, "before", upper=False)
    if before > utc_now():  # a typo (2062): every row gone, and every later upload refused
        raise MalformedFilter("before", params.before, "is in the future")
    if params.from_ is None:
        return prune_logs(session.layout, before, dry_run=params.dry_run)
    from skillc_stats._team_url import team_url

    url = team_url(params.from_, session.config.stats_url, "--from")
    return prune_store(url, before, dry_run=params.dry_run)


PRUNE: Operation[PruneParams, PruneReport] = Operation(
    name="stats prune",
    title="Delete old access rows",
    description="Delete the access rows older than a date from this machine's runtime logs "
    "or from the team store (its daily counts are kept).",
    params=PruneParams,
    run=prune,
    output="skillc_stats.shapes:PruneShape",
    annotations={
        "readOnlyHint": False,
        "destructiveHint": True,
        "idempotentHint": True,
        "openWorldHint": True,
    },
    no_tool="it deletes usage records, locally or for a whole team: an administrator's "
    "decision, never a model's",
)

OPERATIONS: tuple[Operation[Any, Any], ...] = (STATS, SYNC, PRUNE)
"""The operations of this package (``sync`` is no MCP tool: :attr:`SYNC.no_tool
<skillc_index.operation.Operation.no_tool>`)."""
