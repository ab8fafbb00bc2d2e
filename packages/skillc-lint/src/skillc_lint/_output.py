"""The output formats of lint results: text, JSON, SARIF 2.1.0 and GitHub annotations.

Each function returns data (lines or a JSON-ready mapping); printing is the CLI's job. File
paths are shown as a person or a CI service can open them: relative to the working folder
when the file is inside it, absolute otherwise.
"""

from __future__ import annotations

import os
from collections.abc import Sequence
from pathlib import Path
from typing import Any, NamedTuple
from urllib.parse import quote

from skillc_index import Diagnostic, format_diagnostic
from skillc_lint._engine import LintDiagnostic, LintResult
from skillc_lint._registry import RuleRegistry

__all__ = [
    "SARIF_SCHEMA",
    "RunError",
    "display_path",
    "failed_line",
    "github_error_line",
    "github_lines",
    "json_report",
    "sarif_log",
    "summary_line",
    "text_lines",
]

SARIF_SCHEMA = (
    "https://docs.oasis-open.org/sarif/sarif/v2.1.0/errata01/os/schemas/sarif-schema-2.1.0.json"
)
SRCROOT = "%SRCROOT%"


def display_path(path: Path, cwd: Path) -> str:
    """``path`` relative to ``cwd`` (POSIX separators) when inside it, else absolute."""
    absolute = Path(os.path.abspath(cwd / path))  # noqa: PTH100 - lexical, symlinks kept
    try:
        return absolute.relative_to(cwd).as_posix() or "."
    except ValueError:
        return absolute.as_posix()


class RunError(NamedTuple):
    """An error of the run itself rather than a rule's finding: a target that could not be
    linted (``target``: the argument or the skill folder; E001, E010, E012), or the whole
    run failing (``target`` None: a bad option, E100, or an internal error, E999)."""

    target: str | None
    diagnostic: Diagnostic

    def to_dict(self) -> dict[str, Any]:
        """``{"target": ..., "error": {"code", "message"[, "detail"]}}`` (no ``target`` for
        the whole run)."""
        error = {"code": self.diagnostic.code, "message": self.diagnostic.message}
        if self.diagnostic.detail:
            error["detail"] = self.diagnostic.detail
        return {"error": error} if self.target is None else {"target": self.target, "error": error}


Outcome = LintResult | RunError
"""What a run reports for one skill folder or one target: its result or its error."""


def _file_path(result: LintResult, diagnostic: LintDiagnostic, cwd: Path) -> str:
    return display_path(result.path / diagnostic.file, cwd)


def _plural(count: int, word: str) -> str:
    return f"{count} {word}{'' if count == 1 else 's'}"


# -- text -------------------------------------------------------------------------------------


def text_lines(result: LintResult, cwd: Path) -> list[str]:
    """``<file>[:<line>]: error[E300]: SKL102 name-format: <message>``, one per diagnostic."""
    lines = []
    for d in result.diagnostics:
        where = _file_path(result, d, cwd) + (f":{d.line}" if d.line else "")
        lines.append(f"{where}: {format_diagnostic(d.diagnostic)}")
    return lines


def summary_line(result: LintResult) -> str:
    """``my-skill: 2 errors, 1 warning``."""
    return (
        f"{result.skill}: {_plural(result.errors, 'error')}, {_plural(result.warnings, 'warning')}"
    )


def total_line(results: Sequence[LintResult]) -> str:
    """``3 skills: 2 errors, 1 warning`` over every linted skill (skipped ones not counted)."""
    linted = [r for r in results if not r.skipped]
    errors = sum(r.errors for r in linted)
    warnings = sum(r.warnings for r in linted)
    return (
        f"{_plural(len(linted), 'skill')}: {_plural(errors, 'error')}, "
        f"{_plural(warnings, 'warning')}"
    )


def failed_line(failed: int) -> str:
    """``1 target was not linted (see the errors above)``, after the total of a run with bad
    targets."""
    verb = "target was" if failed == 1 else "targets were"
    return f"{failed} {verb} not linted (see the errors above)"


# -- JSON -------------------------------------------------------------------------------------


def json_report(results: Sequence[Outcome], cwd: Path, *, single: bool) -> Any:
    """The Validating guide's shape, ``{"skill", "diagnostics": [...]}``, plus ``path`` (the
    skill folder) and ``skipped`` (only on a skipped compiled skill); a target that could not
    be linted is ``{"target", "error": {"code", "message"}}`` in its place. One object when
    ``single``, else a list of them. The error of the whole run is one object,
    ``{"error": {...}}`` (:meth:`RunError.to_dict`)."""
    items = [
        r.to_dict()
        if isinstance(r, RunError)
        else {**r.to_dict(), "path": display_path(r.path, cwd)}
        for r in results
    ]
    return items[0] if single and len(items) == 1 else items


# -- SARIF 2.1.0 ------------------------------------------------------------------------------


def _artifact(result: LintResult, diagnostic: LintDiagnostic, cwd: Path) -> dict[str, str]:
    shown = _file_path(result, diagnostic, cwd)
    if Path(shown).is_absolute():
        return {"uri": Path(shown).as_uri()}
    return {"uri": quote(shown, safe="/"), "uriBaseId": SRCROOT}


def sarif_log(
    results: Sequence[Outcome], registry: RuleRegistry | None, cwd: Path, *, version: str
) -> dict[str, Any]:
    """A SARIF 2.1.0 log with one run, for GitHub code scanning and IDEs.

    ``tool.driver.rules`` lists the rules that ran (id, name, descriptions, help, default
    level; none when the run failed before it had its rules); each result has its rule, level,
    message and a physical location: the file relative to ``%SRCROOT%`` (the working folder)
    and its line (1 for whole-file findings). The run's own errors (:class:`RunError`) are
    ``invocations[0].toolExecutionNotifications``, and ``executionSuccessful`` is false when
    there is one.
    """
    rules: list[dict[str, Any]] = []
    index: dict[str, int] = {}
    for entry in registry.active() if registry is not None else ():
        rule = entry.rule
        index[rule.id] = len(rules)
        rules.append(
            {
                "id": rule.id,
                "name": rule.name,
                "shortDescription": {"text": rule.summary},
                "fullDescription": {"text": f"{rule.id} {rule.name}: {rule.summary}"},
                "help": {"text": f"{rule.summary} (RFC-0008:C-REGISTRY {rule.id})"},
                "defaultConfiguration": {"level": entry.severity},
                "properties": {"tags": [rule.category] if rule.category else []},
            }
        )
    sarif_results: list[dict[str, Any]] = []
    notifications: list[dict[str, Any]] = []
    for result in results:
        if isinstance(result, RunError):
            notifications.append(_notification(result))
            continue
        for d in result.diagnostics:
            item: dict[str, Any] = {
                "ruleId": d.rule,
                "level": d.severity,
                "message": {"text": d.message},
                "locations": [
                    {
                        "physicalLocation": {
                            "artifactLocation": _artifact(result, d, cwd),
                            "region": {"startLine": d.line or 1},
                        }
                    }
                ],
            }
            if d.rule in index:
                item["ruleIndex"] = index[d.rule]
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
                        "executionSuccessful": not notifications,
                        "toolExecutionNotifications": notifications,
                    }
                ],
                "originalUriBaseIds": {SRCROOT: {"uri": cwd.as_uri().rstrip("/") + "/"}},
                "results": sarif_results,
            }
        ],
    }


def _notification(error: RunError) -> dict[str, Any]:
    """A SARIF notification of a run error: its code as the descriptor, its message (which
    names the target) and its detail."""
    text = error.diagnostic.message
    if error.diagnostic.detail:
        text = f"{text} ({error.diagnostic.detail})"
    return {
        "descriptor": {"id": error.diagnostic.code},
        "level": "error",
        "message": {"text": text},
    }


# -- GitHub workflow annotations --------------------------------------------------------------


def _escape_data(text: str) -> str:
    return text.replace("%", "%25").replace("\r", "%0D").replace("\n", "%0A")


def _escape_property(text: str) -> str:
    return _escape_data(text).replace(":", "%3A").replace(",", "%2C")


def github_error_line(error: RunError) -> str:
    """``::error title=E010::not a valid skill: ...``: a run error as an annotation of the
    workflow run (no file: the target is in the message)."""
    text = error.diagnostic.message
    if error.diagnostic.detail:
        text = f"{text}\n{error.diagnostic.detail}"
    return f"::error title={error.diagnostic.code}::{_escape_data(text)}"


def github_lines(result: LintResult, cwd: Path) -> list[str]:
    """``::error file=<path>,line=<n>,title=SKL102 name-format::<message>`` per diagnostic."""
    lines = []
    for d in result.diagnostics:
        level = "error" if d.severity == "error" else "warning"
        props = [f"file={_escape_property(_file_path(result, d, cwd))}"]
        if d.line:
            props.append(f"line={d.line}")
        props.append(f"title={_escape_property(f'{d.rule} {d.name}')}")
        lines.append(f"::{level} {','.join(props)}::{_escape_data(d.message)}")
    return lines
