"""``stats`` as an operation (:mod:`skillc_index.operation`): usage analytics of one skill
from its access log (RFC-0003), logged like every command that resolves a skill.

``skc stats`` renders the result as text or JSON, the MCP tool ``skc_stats`` returns
``to_dict()``, the RFC-0003:C-SCHEMA response. (``sync`` is a command of its own: it resolves
no single skill and logs nothing.) Only the standard library and
:mod:`skillc_index.operation` are imported here: the log readers load when the operation runs.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Annotated, Any, Literal, NamedTuple

from skillc_index.operation import (
    NULLABLE_STRING,
    SKILL_DESCRIPTION,
    STRING,
    Operation,
    Param,
    Session,
    output_schema,
)

if TYPE_CHECKING:
    from skillc_index import Diagnostic, Notice
    from skillc_stats._stats import StatsQuery

__all__ = ["OPERATIONS", "STATS", "GroupBy", "StatsParams", "StatsReport", "stats"]

GroupBy = Literal["summary", "sections", "files", "commands", "projects", "errors", "search"]
"""The query types of RFC-0003:C-QUERIES, in the RFC's order; the first is the default."""


class StatsParams(NamedTuple):
    skill: Annotated[
        str | None,
        Param(
            SKILL_DESCRIPTION + " Leave it out for every installed skill at once: uses, last "
            "use and projects of each, the unused ones (to prune) first.",
            min_length=1,
        ),
    ] = None
    group_by: Annotated[GroupBy, Param("Aggregation dimension.")] = "summary"
    since: Annotated[
        str | None,
        Param(
            "Only accesses at or after this time: 2026-01-30T10:00:00Z, 2026-01-30 (start of "
            "that day, UTC) or 7d (seven days ago)."
        ),
    ] = None
    until: Annotated[
        str | None, Param("Only accesses at or before this time (the same forms).")
    ] = None
    project: Annotated[
        tuple[str, ...],
        Param("Only accesses made from these project folders (or below).", item_min_length=1),
    ] = ()
    from_: Annotated[
        str | None,
        Param(
            "Read the team store instead of this machine's logs: a postgresql:// URL, or "
            "'team' for the configured one ([stats] url, SKILLC_STATS_URL)."
        ),
    ] = None
    user: Annotated[
        tuple[str, ...],
        Param("Team store only: only accesses of these users.", item_min_length=1),
    ] = ()
    machine: Annotated[
        tuple[str, ...],
        Param("Team store only: only accesses from these machines.", item_min_length=1),
    ] = ()

    def log_args(self) -> dict[str, Any]:
        args: dict[str, Any] = {
            "group_by": self.group_by,
            "since": self.since,
            "until": self.until,
            "project": list(self.project),
        }
        if self.from_ is not None:  # never with its password
            from skillc_stats._team import masked

            args["from"] = masked(self.from_)
            args.update(user=list(self.user), machine=list(self.machine))
        return args


class StatsReport(NamedTuple):
    """The answer to one query: the RFC-0003:C-SCHEMA ``response``, and the ``query`` it
    came from (its log closed), whose other answers the text summary shows too."""

    query: StatsQuery | None
    """None for every skill at once (``skill`` left out)."""
    response: dict[str, Any]
    warnings: tuple[Diagnostic | Notice, ...] = ()

    def to_dict(self) -> dict[str, Any]:
        return dict(self.response)


def stats(session: Session, params: StatsParams) -> StatsReport:
    """Answer one query over the skill's access log (or the team store's rows of its name),
    after the rows of this session's earlier commands are written (a queued log: the MCP
    server). Without a skill: the use of every installed skill (nothing is logged: no single
    skill is resolved)."""
    from skillc_stats._stats import prepare

    session.log.flush()
    layout = session.layout
    store = None
    if params.from_ is not None:
        from skillc_stats._team import team_url

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
    if params.skill is None:
        return StatsReport(None, _all(session, params, store))
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
        response = query.response(params.group_by)
        warnings = query.warnings()
    return StatsReport(query, response, warnings)


def _all(session: Session, params: StatsParams, store: str | None) -> dict[str, Any]:
    from skillc_index import InvalidOption
    from skillc_index.installed import trusted_targets
    from skillc_stats._usage import query_all

    if params.group_by != "summary":
        raise InvalidOption("every skill at once has one report: leave out --group-by")
    return query_all(
        session.layout,
        since=params.since,
        until=params.until,
        projects=params.project,
        store=store,
        users=params.user,
        machines=params.machine,
        targets=trusted_targets(session.layout, session.config),
    )


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
    cli_only={"all_": "the tool answers for every skill when skill is left out"},
    output=output_schema(
        {
            "skill": NULLABLE_STRING,
            "skill_path": NULLABLE_STRING,
            "query": STRING,
            "filters": output_schema(
                {
                    "since": NULLABLE_STRING,
                    "until": NULLABLE_STRING,
                    "projects": {"type": "array", "items": STRING},
                }
            ),
            "period": output_schema({"start": NULLABLE_STRING, "end": NULLABLE_STRING}),
            "data": {
                "anyOf": [{"type": "object"}, {"type": "array"}],
                "description": "An object for summary and commands, else an array; for "
                "every skill at once (query 'all'), one entry per skill: skill, skill_path, "
                "uses, projects, first_used, last_used.",
            },
        }
    ),
)

OPERATIONS: tuple[Operation[Any, Any], ...] = (STATS,)
"""The operations of this package."""
