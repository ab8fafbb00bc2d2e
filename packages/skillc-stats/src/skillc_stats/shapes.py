"""The JSON shapes of skillc-stats' results: what ``--format json`` prints (and the MCP tool
``skc_stats`` returns as ``structuredContent``), each a ``TypedDict`` that the result's
``to_dict()`` returns and from which the operation's output schema is made
(:mod:`skillc_index.shapes`).

Imported by type checkers and when the MCP server lists its tools, never by a command's run.
"""

from __future__ import annotations

from typing import Annotated, Any, TypedDict

from skillc_index.build.shapes import ErrorShape

__all__ = [
    "AllTrendsShape",
    "LocalSyncShape",
    "LogUploadShape",
    "MoverShape",
    "PeriodShape",
    "SkillImportShape",
    "SkillSyncShape",
    "SkillTrendShape",
    "SkillUsageShape",
    "StatsFilters",
    "StatsShape",
    "StatsSummaryShape",
    "SyncShape",
    "TranscriptSyncShape",
    "TrendShape",
    "UploadShape",
    "UploadSyncShape",
]


# -- stats (RFC-0003:C-SCHEMA) ------------------------------------------------------------


class _Filters(TypedDict):
    since: str | None
    until: str | None
    projects: list[str]


class StatsFilters(_Filters, total=False):
    """The filters applied; ``users`` and ``machines`` when the team store was read with
    them (they exist there only)."""

    users: list[str]
    machines: list[str]


class PeriodShape(TypedDict):
    """The first and last access counted (None when there is none)."""

    start: str | None
    end: str | None


class StatsSummaryShape(TypedDict):
    """``data`` of the ``summary`` query: RFC-0003's four counts, and how many of the
    accesses were uses and how many the author's own runs."""

    total_accesses: Annotated[int, "Every logged access, whatever its command."]
    uses: Annotated[
        int,
        "Agents' reads and activations: outline, show, open, sources, search, tools, run, "
        "exec, and the activations and reads imported from transcripts; a failed one "
        "(its row has an error) is no use.",
    ]
    failed_uses: Annotated[
        int, "Failed reads (a use command's rows with an error): no use; in error_count too."
    ]
    author_activity: Annotated[
        int, "The author's own runs (build, lint, stats): logged, never counted as uses."
    ]
    unique_sections: int
    unique_files: int
    error_count: int
    activations_by_user: Annotated[
        int, "Imported activations the user typed (/skill in Claude Code's transcript)."
    ]
    activations_by_model: Annotated[
        int, "Imported activations the model chose (its Skill or SlashCommand tool call)."
    ]


class SkillUsageShape(TypedDict):
    """One skill's entry in the answer for every skill at once (query ``all``)."""

    skill: str
    skill_path: Annotated[str | None, "Its folder here; null for a skill not installed here."]
    uses: Annotated[int, "Agents' reads and activations (never the author's own runs)."]
    projects: Annotated[int, "Distinct working folders the uses were made in."]
    first_used: str | None
    last_used: str | None
    author_activity: Annotated[
        int, "The author's own runs (build, lint, stats), counted apart from the uses."
    ]


class TrendShape(TypedDict):
    """One period of the uses over time (``by day``, ``by week``, ``by month``)."""

    period: Annotated[str, "YYYY-MM-DD (a day, or the Monday of an ISO week) or YYYY-MM."]
    uses: int
    author_activity: int
    total_accesses: int


class SkillTrendShape(TypedDict):
    """One skill's uses over time, for every skill at once (query ``all by ...``)."""

    skill: str
    skill_path: str | None
    uses: Annotated[int, "Its uses in the whole range."]
    by_period: Annotated[list[int], "Its uses in each of the periods."]
    previous: Annotated[int, "Its uses in the last period but one."]
    last: Annotated[int, "Its uses in the last period (the one holding the range's end)."]
    change: Annotated[int, "last - previous."]


class MoverShape(TypedDict):
    skill: str
    skill_path: str | None
    previous: int
    last: int
    change: int


class AllTrendsShape(TypedDict):
    """``data`` of every skill over time (query ``all by day|week|month``)."""

    periods: Annotated[list[TrendShape], "Every skill's uses per period, quiet ones included."]
    skills: Annotated[list[SkillTrendShape], "Most used first."]
    rising: Annotated[
        list[MoverShape],
        "The largest rises between the last two periods (none with fewer than two).",
    ]
    falling: Annotated[
        list[MoverShape],
        "The largest falls between the last two periods (none with fewer than two).",
    ]


class StatsShape(TypedDict):
    """``stats``: RFC-0003:C-SCHEMA's response (``skill`` and ``skill_path`` None for every
    skill at once)."""

    skill: str | None
    skill_path: str | None
    query: str
    filters: StatsFilters
    period: PeriodShape
    data: Annotated[
        StatsSummaryShape
        | dict[str, int]
        | AllTrendsShape
        | list[SkillUsageShape]
        | list[TrendShape]
        | list[Any],
        "An object for summary and commands (every logged command, the author's included), "
        "else an array; for every skill at once (query 'all'), one entry per skill: skill, "
        "skill_path, uses, projects, first_used, last_used, author_activity; over time (query "
        "'by day|week|month'), one entry per period; every skill over time (query 'all by "
        "...'), an object: periods, skills, rising, falling.",
    ]


# -- sync (RFC-0007:C-SYNC) ---------------------------------------------------------------


class SkillSyncShape(TypedDict):
    """One skill's fallback log (:class:`~skillc_stats._sync.SkillSync`)."""

    skill: str
    source: Annotated[str, "The fallback database."]
    entries: Annotated[int, "Rows added to the primary logs (dry run: that would be)."]
    destinations: Annotated[list[str], "The primary logs its rows belong in."]
    removed: Annotated[bool, "Whether the fallback folder was removed."]
    skipped: Annotated[int, "Rows left in the fallback log: skills not installed, never built."]
    error: Annotated[ErrorShape | None, "Why this skill could not be synced (null: synced)."]


class LocalSyncShape(TypedDict):
    """``sync``: the fallback logs under ``root`` moved into the primary logs."""

    root: Annotated[str, "The folder whose .skillc/logs/ was scanned."]
    dry_run: bool
    skills: list[SkillSyncShape]


class SkillImportShape(TypedDict):
    """The rows one skill got from the transcripts (:class:`~skillc_stats.SkillImport`)."""

    skill: str
    skill_path: str
    destination: str
    activations: int
    reads: int
    added: Annotated[int, "Rows added to the log (dry run: that would be)."]
    error: Annotated[
        ErrorShape | None, "Why this skill's rows were not imported (null: they were)."
    ]


class TranscriptSyncShape(TypedDict):
    """``sync --from claude-code``: the transcripts read and the rows imported."""

    source: Annotated[str, "The agent whose records were read: claude-code."]
    folder: Annotated[str, "The projects folder read."]
    dry_run: bool
    files: int
    files_read: int
    files_rewritten: int
    files_skipped: int
    lines: int
    malformed_lines: int
    long_lines: int
    unknown_records: int
    unknown_skill_calls: int
    unknown_skills: Annotated[dict[str, int], "Calls of each skill found nowhere."]
    router_calls: Annotated[int, "Calls of skc route's router (skill-router): no skill's use."]
    added: int
    skills: list[SkillImportShape]
    warnings: list[str]


class LogUploadShape(TypedDict):
    path: str
    added: int
    renewed: Annotated[bool, "The log was a copy of another one, now told apart."]
    refused: Annotated[int, "Rows older than the store's retention horizon: not stored."]
    error: Annotated[ErrorShape | None, "Why this log was not uploaded (null: it was)."]


class UploadShape(TypedDict):
    """What the team store received (:class:`~skillc_stats.UploadReport`)."""

    store: Annotated[str, "The store's URL, its password masked."]
    user: str
    machine: str
    added: int
    refused: Annotated[int, "Rows older than the store's retention horizon: not stored."]
    interrupted: Annotated[
        bool, "Ctrl-C ended the upload (exit status 130): added is what was stored by then."
    ]
    logs: list[LogUploadShape]


class UploadSyncShape(UploadShape):
    """``sync --to``: the upload, and the fallback logs merged before it."""

    merged: LocalSyncShape


SyncShape = LocalSyncShape | TranscriptSyncShape | UploadSyncShape
"""``sync``: the shape of its mode (the fallback logs, ``--from``, ``--to``)."""


class PrunedLogShape(TypedDict):
    path: str
    rows: Annotated[int, "Rows deleted (a dry run: would be)."]
    skipped: Annotated[str | None, "Why the log was left as it is (null: pruned)."]
    failed: Annotated[bool, "It could not be pruned (the exit status is then 1)."]


class PruneShape(TypedDict):
    """``skc stats prune --format json``: the rows older than ``before`` deleted from the
    local logs (``store`` null, one entry per log) or from the team store."""

    before: str
    dry_run: bool
    store: str | None
    rows: int
    logs: list[PrunedLogShape]
