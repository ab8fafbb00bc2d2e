"""The output formats of lint results: text, JSON, SARIF 2.1.0 and GitHub annotations.

Each function returns data (lines or a JSON-ready mapping); printing is the CLI's job. File
paths are shown as a person or a CI service can open them: relative to the working folder
when the file is inside it, absolute otherwise (GitHub annotations and SARIF: relative to
GitHub Actions' workspace where it is set, :mod:`skillc_index.sarif`).
"""

from __future__ import annotations

import re
from collections.abc import Mapping, Sequence
from pathlib import Path
from typing import Any, NamedTuple

from skillc_index import Diagnostic, counted, diagnostic_json, format_diagnostic, printable
from skillc_index.columns import display_width
from skillc_index.diagnostics import warning_text
from skillc_index.sarif import (  # display_path: how a finding names its file, as SARIF does
    annotation_path,
    artifact_location,
    display_path,
    error_notification,
    github_data,
    github_property,
    github_warning,
    source_root,
    uri_base_ids,
    warning_notification,
)
from skillc_index.text import grapheme_boundary
from skillc_lint._engine import LintDiagnostic, LintResult
from skillc_lint._fixes import Fix
from skillc_lint._registry import Rule, RuleRegistry

__all__ = [
    "SARIF_SCHEMA",
    "RunError",
    "code_frame",
    "display_path",
    "explain_lines",
    "failed_line",
    "github_lines",
    "json_report",
    "rule_doc",
    "sarif_log",
    "sarif_replaces",
    "statistics",
    "summary_line",
    "text_lines",
]

SARIF_SCHEMA = (
    "https://docs.oasis-open.org/sarif/sarif/v2.1.0/errata01/os/schemas/sarif-schema-2.1.0.json"
)


def leading(text: str) -> str:
    """``text`` (a skill's name, a file's path) as the start of a line of the text output:
    :func:`~skillc_index.printable` (no control character, no line break), and a ``::``
    that white space alone comes before written ``\\x3a:``. GitHub Actions reads a line of a
    step's output that starts so as a workflow command (a folder named ``::error
    file=README.md::Approved`` would make an annotation of its own)."""
    shown = printable(text)
    stripped = shown.lstrip()
    if stripped.startswith("::"):
        at = len(shown) - len(stripped)
        return f"{shown[:at]}\\x3a{shown[at + 1 :]}"
    return shown


class RunError(NamedTuple):
    """An error of the run itself rather than a rule's finding: a target that could not be
    linted (``target``: the argument or the skill folder; E001, E010, E012), or the whole
    run failing (``target`` None: a bad option, E100, or an internal error, E999)."""

    target: str | None
    diagnostic: Diagnostic

    def to_dict(self) -> dict[str, Any]:
        """``{"target": ..., "error": {"code", "message"[, "detail"]}}`` (no ``target`` for
        the whole run)."""
        error = diagnostic_json(self.diagnostic)
        return {"error": error} if self.target is None else {"target": self.target, "error": error}


Outcome = LintResult | RunError
"""What a run reports for one skill folder or one target: its result or its error."""


def _file_path(result: LintResult, diagnostic: LintDiagnostic, cwd: Path) -> str:
    return display_path(result.path / diagnostic.file, cwd)


# -- text -------------------------------------------------------------------------------------


#: Characters of a line a code frame shows around its caret.
FRAME_WIDTH = 100


def code_frame(diagnostic: LintDiagnostic) -> list[str]:
    """The offending line under a gutter with its number, and a caret under the column::

          |
        2 | name: Bad_Name
          | ^

    Tabs show as one space and other control characters as their escapes (:func:`printable`:
    ``\x1b``), the caret under the character either way, in the terminal's columns (a CJK
    character or an emoji takes two: :func:`~skillc_index.text.display_width`); a long line
    is cut to at most :data:`FRAME_WIDTH` characters around the caret, where no grapheme
    splits (``...`` where it was cut). No frame for a whole-file diagnostic."""
    if diagnostic.line is None or diagnostic.source is None:
        return []
    source = diagnostic.source.replace("\t", " ")
    column = (diagnostic.column or 1) - 1
    text, head = printable(source), printable(source[:column])
    # a joiner (variation selector) ending the head shows as itself before what it joins
    at = len(head) if text.startswith(head) else len(printable(source[: column - 1])) + 1
    start = max(0, min(at - FRAME_WIDTH // 2, len(text) - FRAME_WIDTH))
    start = grapheme_boundary(text, start)
    end = grapheme_boundary(text, start + FRAME_WIDTH)
    shown = text[start:end]
    caret = display_width(text[start : grapheme_boundary(text, at)])  # under its glyph
    if start:
        shown, caret = "..." + shown, caret + 3
    if end < len(text):
        shown += "..."
    gutter = " " * len(str(diagnostic.line))
    return [f"{gutter} |", f"{diagnostic.line} | {shown}".rstrip(), f"{gutter} | {' ' * caret}^"]


#: ANSI styles of the text output on a terminal (``colour``): the severity, the location.
_STYLES = {"error": "\033[1;31m", "warning": "\033[1;33m", "where": "\033[1m", "help": "\033[36m"}
_RESET = "\033[0m"


def _styled(text: str, style: str, colour: bool) -> str:
    return f"{_STYLES[style]}{text}{_RESET}" if colour else text


def text_lines(
    result: LintResult, cwd: Path, *, colour: bool = False, show_fixes: bool = False
) -> list[str]:
    """``<file>[:<line>:<column>]: error[E300]: SKL102 name-format: <message>`` per
    diagnostic, each followed by its :func:`code_frame`; with ``show_fixes``, a ``help:``
    line with its fix, if it has one (``--show-fixes``). ``colour``: ANSI colours for a
    terminal (the severity, the location)."""
    lines = []
    for d in result.diagnostics:
        where = _file_path(result, d, cwd)
        if d.line:
            where += f":{d.line}" + (f":{d.column}" if d.column else "")
        severity, bracket, rest = format_diagnostic(d.diagnostic, terminal=True).partition("[")
        text = _styled(severity, d.severity, colour) + bracket + rest
        lines.append(f"{_styled(leading(where), 'where', colour)}: {text}")
        lines += code_frame(d)
        if show_fixes and d.fix is not None:
            kind = "safe fix, --fix" if d.fix.safe else "unsafe fix, --unsafe-fixes"
            help_line = f"  = help: {printable(d.fix.description)} ({kind})"
            lines.append(_styled(help_line, "help", colour))
    return lines


def statistics(results: Sequence[LintResult]) -> list[dict[str, Any]]:
    """Diagnostics per rule over ``results``: ``{"rule", "name", "severity", "count"}``,
    most frequent first (then by rule id)."""
    counts: dict[tuple[str, str, str], int] = {}
    for result in results:
        for d in result.diagnostics:
            key = (d.rule, d.name, d.severity)
            counts[key] = counts.get(key, 0) + 1
    ordered = sorted(counts.items(), key=lambda item: (-item[1], item[0][0]))
    return [
        {"rule": rule, "name": name, "severity": severity, "count": count}
        for (rule, name, severity), count in ordered
    ]


# -- rule documentation -----------------------------------------------------------------------


def rule_doc(rule: Rule, profile: str | None) -> dict[str, Any]:
    """What ``--explain`` shows of a rule (its JSON): id, name, default severity, category,
    profile (None for RFC-0008's built-in rules), summary, rationale, fix, options."""
    return {
        "id": rule.id,
        "name": rule.name,
        "severity": rule.severity,
        "category": rule.category,
        "profile": profile,
        "summary": rule.summary,
        "rationale": rule.rationale,
        "fix": rule.fix,
        "options": dict(rule.options),
    }


#: A Markdown code span of a rule's documentation (a command, an option, a path).
_CODE_SPAN = r"`[^`]+`"


def explain_lines(doc: Mapping[str, Any]) -> list[str]:
    """A :func:`rule_doc` as text, wrapped at 88 columns between words only: never at a
    hyphen (``claude-code``, ``--max-warnings``), inside a long word or inside a code span
    (a command to paste, ``grep -nP '...'``: longer lines rather)."""
    import re
    import textwrap

    where = f"profile {doc['profile']}" if doc["profile"] else doc["category"]
    lines = [f"{doc['id']} {doc['name']} ({doc['severity']}; {where})", "", doc["summary"], ""]
    for label, key in (("Why", "rationale"), ("Fix", "fix")):
        # the spaces of a code span as NULs (no white space to textwrap) while it wraps
        text = re.sub(_CODE_SPAN, lambda span: span.group().replace(" ", "\0"), doc[key])
        wrapped = textwrap.wrap(
            f"{label}: {text}",
            88,
            subsequent_indent="  ",
            break_on_hyphens=False,
            break_long_words=False,
        )
        lines += [line.replace("\0", " ") for line in wrapped]
    if doc["options"]:
        lines.append("Options (set in the [lint] table of config.toml):")
        lines += [f"  {key} = {value!r}" for key, value in doc["options"].items()]
    return lines


def summary_line(result: LintResult) -> str:
    """``my-skill: 2 errors, 1 warning`` (the name as :func:`leading` writes it)."""
    errors, warnings = counted(result.errors, "error"), counted(result.warnings, "warning")
    return f"{leading(result.skill)}: {errors}, {warnings}"


def total_line(linted: Sequence[LintResult], skills: int) -> str:
    """``3 skills: 2 errors, 1 warning`` over the ``linted`` results (``LintRun.linted``),
    the findings of the folders of skills (their ``folder`` rules) among them, ``skills``
    (``LintRun.skills``: the folders not counted) the count."""
    errors = sum(r.errors for r in linted)
    warnings = sum(r.warnings for r in linted)
    return f"{counted(skills, 'skill')}: {counted(errors, 'error')}, {counted(warnings, 'warning')}"


def failed_line(failed: int) -> str:
    """``1 target was not linted (see the errors above)``, after the total of a run with bad
    targets."""
    verb = "target was" if failed == 1 else "targets were"
    return f"{failed} {verb} not linted (see the errors above)"


# -- JSON -------------------------------------------------------------------------------------


def json_report(
    results: Sequence[Outcome], cwd: Path, *, single: bool, warnings: bool = True
) -> Any:
    """The Validating guide's shape, ``{"skill", "diagnostics": [...]}``, plus ``path`` (the
    skill folder), ``error_count`` and ``warning_count`` (as the tool ``skc_lint`` returns
    them), ``skipped`` (only on a skipped compiled skill) and ``warnings`` (only when the
    run warned of the skill: the text of each of its :attr:`~skillc_lint.LintResult.notices`,
    a file past the bound or over the parse limit, not read whole); a target that could not
    be linted is ``{"target", "error": {"code", "message"}}`` in its place. One object when
    ``single``, else a list of them. The error of the whole run is one object,
    ``{"error": {...}}`` (:meth:`RunError.to_dict`). Without ``warnings`` no ``warnings``
    (the tool's reply: its ``warnings`` are the session's, the notices' lines among them)."""
    items = [
        r.to_dict()
        if isinstance(r, RunError)
        else {
            **r.to_dict(),
            "path": display_path(r.path, cwd),
            "error_count": r.errors,
            "warning_count": r.warnings,
            **(
                {"warnings": [warning_text(n) for n in r.notices]} if warnings and r.notices else {}
            ),
        }
        for r in results
    ]
    return items[0] if single and len(items) == 1 else items


# -- SARIF 2.1.0 ------------------------------------------------------------------------------


def _artifact(
    result: LintResult, diagnostic: LintDiagnostic, cwd: Path, root: Path
) -> dict[str, str]:
    """Where ``diagnostic``'s file is, in a log whose ``%SRCROOT%`` is ``root``."""
    return artifact_location(cwd / result.path / diagnostic.file, root)


def _sarif_fix(
    result: LintResult, diagnostic: LintDiagnostic, fix: Fix, cwd: Path, root: Path
) -> dict[str, Any]:
    """A SARIF ``fix``: the diagnostic's edits as replacements in its file (columns count
    code points, the run's ``columnKind``; ``safe`` in the properties)."""
    replacements = [
        {
            "deletedRegion": {
                "startLine": edit.line,
                "startColumn": edit.column,
                "endLine": edit.end_line,
                "endColumn": edit.end_column,
            },
            "insertedContent": {"text": edit.text},
        }
        for edit in fix.edits
    ]
    return {
        "description": {"text": fix.description},
        "artifactChanges": [
            {
                "artifactLocation": _artifact(result, diagnostic, cwd, root),
                "replacements": replacements,
            }
        ],
        "properties": {"safe": fix.safe},
    }


def sarif_log(
    results: Sequence[Outcome], registries: Sequence[RuleRegistry], cwd: Path, *, version: str
) -> dict[str, Any]:
    """A SARIF 2.1.0 log with one run, for GitHub code scanning and IDEs.

    ``tool.driver.rules`` lists the rules that ran (id, name, descriptions, help, default
    level, ``fixable``; none when the run failed before it had its rules): those enabled by
    any of ``registries`` (each configuration the run used, a subfolder's too), in the order
    of the first that enables each, with its level there; each result has its
    rule, level, message and a physical location: the file relative to ``%SRCROOT%`` (the
    working folder; GitHub Actions' workspace where it is set:
    :func:`~skillc_index.sarif.source_root`) and its line (1 for whole-file findings), and
    its ``fixes`` when the rule has one. The run's own errors (:class:`RunError`) are
    ``invocations[0].toolExecutionNotifications``, and ``executionSuccessful`` is false when
    there is one; its warnings (each result's :attr:`~skillc_lint.LintResult.notices`: a
    file past the bound, one over the parse limit) are notifications there too, of level
    ``warning`` (``executionSuccessful`` stays true).
    """
    root = source_root(cwd)
    rules: list[dict[str, Any]] = []
    index: dict[str, int] = {}
    for entry in (state for registry in registries for state in registry.active()):
        rule = entry.rule
        if rule.id in index:  # enabled by an earlier configuration too
            continue
        index[rule.id] = len(rules)
        rules.append(
            {
                "id": rule.id,
                "name": rule.name,
                "shortDescription": {"text": rule.summary},
                "fullDescription": {"text": rule.rationale or rule.summary},
                "help": {"text": rule.fix or rule.summary},
                "defaultConfiguration": {"level": entry.severity},
                "properties": {
                    "tags": [rule.category] if rule.category else [],
                    **({"fixable": rule.fixable} if rule.fixable else {}),
                },
            }
        )
    sarif_results: list[dict[str, Any]] = []
    notifications: list[dict[str, Any]] = []
    failed = False
    for result in results:
        if isinstance(result, RunError):
            notifications.append(error_notification(result.diagnostic))
            failed = True
            continue
        notifications += [warning_notification(notice) for notice in result.notices]
        for d in result.diagnostics:
            item: dict[str, Any] = {
                "ruleId": d.rule,
                "level": d.severity,
                "message": {"text": d.message},
                "locations": [
                    {
                        "physicalLocation": {
                            "artifactLocation": _artifact(result, d, cwd, root),
                            "region": {"startLine": d.line or 1, "startColumn": d.column or 1},
                        }
                    }
                ],
            }
            if d.rule in index:
                item["ruleIndex"] = index[d.rule]
            if d.fix is not None:
                item["fixes"] = [_sarif_fix(result, d, d.fix, cwd, root)]
            sarif_results.append(item)
    return {
        "$schema": SARIF_SCHEMA,
        "version": "2.1.0",
        "runs": [
            {
                "tool": {
                    "driver": {
                        "name": "skillc-lint",
                        "version": version,
                        "semanticVersion": version,
                        "informationUri": "https://agentskills.io/specification",
                        "rules": rules,
                    }
                },
                "invocations": [
                    {
                        "executionSuccessful": not failed,
                        "toolExecutionNotifications": notifications,
                    }
                ],
                "originalUriBaseIds": uri_base_ids(root),
                "columnKind": "unicodeCodePoints",
                "results": sarif_results,
            }
        ],
    }


# -- GitHub workflow annotations --------------------------------------------------------------


def github_lines(result: LintResult, cwd: Path) -> list[str]:
    """``::error file=<path>,line=<n>,col=<c>,endLine=<n>,endColumn=<e>,title=SKL102
    name-format::<message>`` per diagnostic (the path relative to GitHub Actions' workspace,
    else absolute: :func:`~skillc_index.sarif.annotation_path`); the end is the end of the
    line's text (GitHub underlines from the column to it), when the line is known; first a
    ``::warning::<text>`` line for each of its notices (the run's warnings of it:
    :func:`~skillc_index.sarif.github_warning`)."""
    lines = [github_warning(notice) for notice in result.notices]
    for d in result.diagnostics:
        level = "error" if d.severity == "error" else "warning"
        props = [f"file={github_property(annotation_path(result.path / d.file, cwd))}"]
        if d.line:
            props.append(f"line={d.line}")
        if d.column:
            props.append(f"col={d.column}")
        if d.line and d.source is not None:
            end = max(len(d.source.rstrip()), d.column or 1)
            props += [f"endLine={d.line}", f"endColumn={end}"]
        props.append(f"title={github_property(f'{d.rule} {d.name}')}")
        lines.append(f"::{level} {','.join(props)}::{github_data(d.message)}")
    return lines


#: The most bytes of a file ``--sarif-file`` names that are read to tell a SARIF log.
MAX_SARIF_BYTES = 64 << 20
#: How a SARIF 2.1.0 log starts as this linter, CodeQL and most tools write it (``$schema``,
#: ``version``, ``runs``): known from its first bytes (:func:`sarif_replaces`).
_SARIF_HEAD = re.compile(
    rb'\A(?:\xef\xbb\xbf)?\s*\{\s*(?:"\$schema"\s*:\s*"[^"\\]*"\s*,\s*)?'
    rb'"version"\s*:\s*"2\.1\.0"\s*,\s*(?:"\$schema"\s*:\s*"[^"\\]*"\s*,\s*)?"runs"\s*:\s*\['
)


def sarif_replaces(path: Path, shown: str) -> bool:
    """Whether ``--sarif-file`` replaces a file at ``path`` (True: a SARIF log, rewritten each
    CI run) or makes a new one (False: nothing there). Anything else there is never replaced
    (``--sarif-file SKILL.md`` wrote the log over the skill, and leaving the run's own files
    out of the lint hid it): E050 naming ``shown``, as ``--write-baseline`` refuses a file
    that is no baseline. A log is a regular file (never a symlink, nor a FIFO: read without
    blocking) whose JSON is an object of ``version`` ``"2.1.0"`` and a list of ``runs``; an
    empty regular file (``--sarif-file "$(mktemp)"``) is replaced too."""
    import stat

    from skillc_index import read_json_bounded
    from skillc_index.bounded_json import read_bounded

    if not (path.is_symlink() or path.exists()):
        return False
    log: object = None
    if not path.is_symlink():
        try:
            info = path.lstat()
            if stat.S_ISREG(info.st_mode) and info.st_size == 0:
                return True  # (an empty file: mktemp's)
            if _SARIF_HEAD.match(read_bounded(path, 4096)):
                return True
            log = read_json_bounded(path, max_bytes=MAX_SARIF_BYTES)
        except (OSError, ValueError):  # (JsonRejected is a ValueError)
            log = None
    if isinstance(log, dict) and log.get("version") == "2.1.0" and type(log.get("runs")) is list:
        return True
    from skillc_index.command_errors import ForeignFile

    raise ForeignFile(
        shown,
        "it is not a SARIF log (only one is replaced); name another file, or move it aside first",
    )
