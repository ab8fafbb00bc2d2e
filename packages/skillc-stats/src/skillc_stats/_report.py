"""Text output of ``skc stats`` and ``skc sync``: the data of the API, laid out for people.

The summary follows the Usage Analytics guide's example (totals, top sections, unused
sections, access by command); the other query types are tables, most frequent first.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import TYPE_CHECKING, Any

from skillc_index import counted, printable
from skillc_index.accesslog.reader import command_kind
from skillc_stats._filters import Filters
from skillc_stats._stats import StatsQuery
from skillc_stats._sync import SkillSync
from skillc_stats._team import UploadReport
from skillc_stats.operations import StatsReport

if TYPE_CHECKING:
    from skillc_stats._transcripts import TranscriptSync

TOP_SECTIONS = 10
#: What a command's rows count as, in the ``commands`` table.
_KINDS = {"use": "use", "author": "author activity", "other": "other"}
#: Unknown skill names ``sync --from`` names in text, most used first (JSON has them all).
UNKNOWN_SHOWN = 10

_EMPTY = {
    "sections": "No sections read.",
    "files": "No files read.",
    "commands": "No accesses.",
    "projects": "No accesses.",
    "errors": "No errors.",
    "search": "No searches.",
}


def _cell(value: object) -> str:
    """One table cell on one line, as printed (a logged query may hold a newline, a tab or an
    escape sequence): :func:`~skillc_index.printable`, the tab escaped too, before the table
    sizes its columns."""
    text = "-" if value is None else str(value)
    return printable(text).replace("\t", "\\t")


def _table(headers: Sequence[str], rows: Sequence[Sequence[object]]) -> list[str]:
    """``COUNT`` right-aligned first, the other columns left-aligned, two spaces apart, each
    as wide as a terminal shows its widest cell (skillc-index's ``table_lines``)."""
    from skillc_index import table_lines

    cells = [list(headers)] + [[_cell(value) for value in row] for row in rows]
    return table_lines(cells, right=1)


def _scope(filters: Filters) -> str:
    if filters.since and filters.until:
        return f"{filters.since} to {filters.until}"
    if filters.since:
        return f"since {filters.since}"
    if filters.until:
        return f"until {filters.until}"
    return "all time"


def _heading(query: StatsQuery, group_by: str) -> list[str]:
    what = "" if group_by == "summary" else f": {group_by}"
    lines = [f"{query.skill.shown} usage statistics{what} ({_scope(query.filters)})"]
    lines.append(f"Skill path: {_cell(query.skill.source)}")  # JSON skill_path (RFC-0003:C-CLI)
    if query.filters.projects:
        lines.append("Projects: " + ", ".join(query.filters.projects))
    period = query.period()
    if period["start"] is None:
        lines.append("Period: no accesses")
    else:
        lines.append(f"Period: {period['start']} to {period['end']}")
    return lines


def summary_lines(query: StatsQuery) -> list[str]:
    """The default report: the summary, top sections, unused sections, access by command."""
    summary = query.summary()
    lines = _heading(query, "summary")
    lines += [
        f"Total accesses: {summary['total_accesses']}",
        f"Uses: {summary['uses']}",
        *([f"Failed reads: {summary['failed_uses']} (not uses)"] if summary["failed_uses"] else []),
        f"Author activity: {summary['author_activity']}",
        f"Unique sections: {summary['unique_sections']}",
        f"Unique files: {summary['unique_files']}",
        f"Errors: {summary['error_count']}",
    ]
    typed, chosen = summary["activations_by_user"], summary["activations_by_model"]
    if typed or chosen:
        lines.append(f"Activations: typed by the user {typed}, chosen by the model {chosen}")
    lines += [
        "",
    ]
    sections = query.sections()
    if sections:
        lines.append("Top sections:")
        for rank, entry in enumerate(sections[:TOP_SECTIONS], start=1):
            where = _cell(entry["file"])
            label = _cell(entry["section"])
            lines.append(
                f"{rank}. {label} ({where}, {counted(entry['count'], 'access', 'accesses')})"
            )
        if len(sections) > TOP_SECTIONS:
            more = len(sections) - TOP_SECTIONS
            lines.append(f"... ({more} more: --group-by sections)")
    else:
        lines.append("Top sections: none")
    lines.append("")
    unused = query.unused_sections()
    if unused:
        lines.append("Unused sections:")
        lines += [f"- {_cell(entry['section'])} ({entry['file']})" for entry in unused]
    else:
        lines.append("Unused sections: none")
    lines.append("")
    by_kind: dict[str, list[str]] = {"use": [], "author": [], "other": []}
    for command, count in query.commands().items():
        by_kind[command_kind(command)].append(f"{command}: {count}")
    if by_kind["use"]:
        lines += ["Access by command:", *by_kind["use"]]
    else:
        lines.append("Access by command: none")
    if by_kind["author"]:
        lines += ["", "Author activity (not uses):", *by_kind["author"]]
    if by_kind["other"]:
        lines += ["", "Other commands:", *by_kind["other"]]
    return lines


def _rows(group_by: str, data: Any) -> tuple[list[str], list[list[object]]]:
    if group_by == "sections":
        return ["COUNT", "SECTION", "FILE"], [[e["count"], e["section"], e["file"]] for e in data]
    if group_by == "files":
        return ["COUNT", "FILE"], [[e["count"], e["file"]] for e in data]
    if group_by == "commands":
        rows = [[count, command, _KINDS[command_kind(command)]] for command, count in data.items()]
        return ["COUNT", "COMMAND", "KIND"], rows
    if group_by == "projects":
        return ["COUNT", "PROJECT"], [[e["count"], e["project"]] for e in data]
    if group_by == "errors":
        headers = ["COUNT", "COMMAND", "TARGET", "ERROR"]
        return headers, [[e["count"], e["command"], e["target"], e["error"]] for e in data]
    return ["COUNT", "QUERY"], [[e["count"], e["query"]] for e in data]


def _all_heading(response: dict[str, Any], what: str) -> list[str]:
    filters = response["filters"]
    scope = _scope(Filters(filters["since"], filters["until"]))
    lines = [f"{what} ({scope})"]
    for name in ("projects", "users", "machines"):
        if filters.get(name):
            lines.append(f"{name.capitalize()}: " + ", ".join(filters[name]))
    period = response["period"]
    if period["start"] is None:
        lines.append("Period: no accesses")
    else:
        lines.append(f"Period: {period['start']} to {period['end']}")
    return lines


def all_trend_lines(response: dict[str, Any]) -> list[str]:
    """``stats --all --by PERIOD``: every skill's uses per period as rows and a chart, then
    the skills rising and falling between the last two periods."""
    data = response["data"]
    by = response["query"].removeprefix("all by ")
    lines = _all_heading(response, f"Usage of {counted(len(data['skills']), 'skill')} by {by}")
    lines += ["", *trend_lines(data["periods"])]
    periods = data["periods"]
    if len(periods) < 2:
        return lines
    between = f"{periods[-2]['period']} to {periods[-1]['period']}"
    for title, movers in (("Rising", data["rising"]), ("Falling", data["falling"])):
        lines += ["", f"{title} ({between}):"]
        if not movers:
            lines.append("none")
            continue
        rows = [
            [f"{m['change']:+d}", f"{m['previous']} -> {m['last']}", m["skill"], m["skill_path"]]
            for m in movers
        ]
        lines += _table(["CHANGE", "USES", "SKILL", "PATH"], rows)
    return lines


def all_lines(response: dict[str, Any]) -> list[str]:
    """``stats --all``: one line per skill, the ones to prune first."""
    data = response["data"]
    lines = _all_heading(response, f"Usage of {counted(len(data), 'skill')}")
    unused = sum(1 for entry in data if not entry["uses"])
    lines += [f"Never used: {unused}", ""]
    if not data:
        return [*lines, "No skills installed."]
    rows = [
        [
            e["uses"],
            e["projects"],
            e["last_used"] or ("unknown" if e["uses"] else "never"),  # (no use an instant)
            e["author_activity"],
            e["skill"],
            e["skill_path"],
        ]
        for e in data
    ]
    return lines + _table(["USES", "PROJECTS", "LAST USED", "AUTHOR", "SKILL", "PATH"], rows)


def stats_lines(report: StatsReport) -> list[str]:
    """The text report of one query: its answer (the summary also shows the sections read
    and unread, and the accesses by command, from the same rows)."""
    query, group_by, data = report.query, report.response["query"], report.response["data"]
    if report.html is not None:
        return [f"Wrote the usage report to {report.html}"]
    if query is None:
        if group_by.startswith("all by "):
            return all_trend_lines(report.response)
        return all_lines(report.response)
    if group_by == "summary":
        return summary_lines(query)
    if group_by.startswith("by "):
        return [*_heading(query, "uses " + group_by), "", *trend_lines(data)]
    lines = [*_heading(query, group_by), ""]
    if not data:
        return [*lines, _EMPTY[group_by]]
    headers, rows = _rows(group_by, data)
    return lines + _table(headers, rows)


def sync_line(result: SkillSync, dry_run: bool) -> str:
    """RFC-0007:C-SYNC's line for a skill synced (or that would be)."""
    skipped = f"skip{{}} {result.skipped} rows of skills not installed and never built"
    if dry_run:
        line = f"Would sync {result.entries} entries for '{result.skill}'"
        return f"{line}; would {skipped.format('')}" if result.skipped else line
    if result.skipped:
        line = f"Synced {result.entries} entries for '{result.skill}'"
        return f"{line}; {skipped.format('ped')} (local logs kept)"
    return f"Synced {result.entries} entries for '{result.skill}' (local logs removed)"


def transcript_lines(result: TranscriptSync) -> list[str]:
    """``sync --from claude-code``: the files read, the rows imported per skill, and what was
    skipped (skill calls of skills not installed, malformed lines, unknown records)."""
    rewritten = f", {result.files_rewritten} rewritten" if result.files_rewritten else ""
    lines = [
        f"Read {result.files_read} of {counted(result.files, 'transcript file')} "
        f"in {result.folder}{rewritten}"
    ]
    verb = "Would import" if result.dry_run else "Imported"
    for skill in result.skills:
        if skill.error is None and skill.added:
            found = f"{counted(skill.activations, 'activation')}, {counted(skill.reads, 'read')}"
            lines.append(f"{verb} {skill.added} entries for '{skill.skill}' ({found} found)")
    if result.ok and not result.added:
        lines.append("No new skill usage")
    if result.unknown_skill_calls:
        shown = list(result.unknown_skills.items())[:UNKNOWN_SHOWN]
        names = ", ".join(f"{_cell(name)} ({n})" for name, n in shown)
        if len(result.unknown_skills) > len(shown):
            names += f" and {len(result.unknown_skills) - len(shown)} more (see --format json)"
        calls = counted(result.unknown_skill_calls, "call")
        lines.append(f"Skipped {calls} of skills not installed: {names}")
    if result.router_calls:
        calls = counted(result.router_calls, "call")
        lines.append(
            f"Skipped {calls} of skc route's router (skill-router): the skills it routes to "
            "count their own uses"
        )
    skipped = [
        counted(result.malformed_lines, "malformed line"),
        counted(result.unknown_records, "record of an unknown kind", "records of unknown kinds"),
        counted(result.long_lines, "line too long", "lines too long"),
        counted(result.files_skipped, "file not read", "files not read"),
    ]
    if any(not part.startswith("0 ") for part in skipped):
        lines.append("Skipped " + ", ".join(p for p in skipped if not p.startswith("0 ")))
    return lines


def upload_lines(result: UploadReport) -> list[str]:
    """``sync --to``: what the team store received."""
    logs = sum(1 for log in result.logs if log.error is None)
    lines = [
        f"Uploaded {result.added} entries from {counted(logs, 'log')} to {result.store} "
        f"(user {result.user!r}, machine {result.machine!r})"
    ]
    copies = [log.path for log in result.logs if log.renewed]
    if copies:
        lines.append(
            f"{counted(len(copies), 'log was a copy', 'logs were copies')} of another (a cloned "
            "machine, a restored backup), now told apart: "
            + ", ".join(_cell(path) for path in copies)
        )
    if result.refused:
        lines.append(
            f"{counted(result.refused, 'row was', 'rows were')} not stored: older than the "
            "store's retention horizon ('skc stats prune --from')"
        )
    return lines


#: The widest bar of a ``--by`` chart, in characters.
BAR_WIDTH = 40


def trend_lines(rows: list[dict[str, Any]]) -> list[str]:
    """``skc stats SKILL --by PERIOD``: one line per period, its uses drawn as a bar (the
    busiest period the widest), then the author's own runs."""
    if not rows:
        return ["No accesses"]
    top = max(row["uses"] for row in rows) or 1
    width = max(len(row["period"]) for row in rows)
    lines = [f"{'PERIOD':<{width}}  {'USES':>6}  {'AUTHOR':>6}  CHART"]
    for row in rows:
        bar = "#" * round(BAR_WIDTH * row["uses"] / top)
        counts = f"{row['uses']:>6}  {row['author_activity']:>6}"
        lines.append(f"{row['period']:<{width}}  {counts}  {bar}".rstrip())
    return lines
