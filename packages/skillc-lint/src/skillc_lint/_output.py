"""The output formats of lint results: text, JSON, SARIF 2.1.0 and GitHub annotations.

Each function returns data (lines or a JSON-ready mapping); printing is the CLI's job. File
paths are shown as a person or a CI service can open them: relative to the working folder
when the file is inside it, absolute otherwise.
"""

from __future__ import annotations

import os
from collections.abc import Sequence
from pathlib import Path
from typing import Any
from urllib.parse import quote

from skillc_index import format_diagnostic
from skillc_lint._engine import LintDiagnostic, LintResult
from skillc_lint._fixes import Fix
from skillc_lint._registry import RuleRegistry

__all__ = [
    "SARIF_SCHEMA",
    "display_path",
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


# -- JSON -------------------------------------------------------------------------------------


def json_report(results: Sequence[LintResult], cwd: Path, *, single: bool) -> Any:
    """The Validating guide's shape, ``{"skill", "diagnostics": [...]}``, plus ``path`` (the
    skill folder) and ``skipped`` (only on a skipped compiled skill). One object when
    ``single``, else a list of them."""
    items = [{**r.to_dict(), "path": display_path(r.path, cwd)} for r in results]
    return items[0] if single and len(items) == 1 else items


# -- SARIF 2.1.0 ------------------------------------------------------------------------------


def _artifact(result: LintResult, diagnostic: LintDiagnostic, cwd: Path) -> dict[str, str]:
    shown = _file_path(result, diagnostic, cwd)
    if Path(shown).is_absolute():
        return {"uri": Path(shown).as_uri()}
    return {"uri": quote(shown, safe="/"), "uriBaseId": SRCROOT}


def _sarif_fix(
    result: LintResult, diagnostic: LintDiagnostic, fix: Fix, cwd: Path
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
            {"artifactLocation": _artifact(result, diagnostic, cwd), "replacements": replacements}
        ],
        "properties": {"safe": fix.safe},
    }


def sarif_log(
    results: Sequence[LintResult], registry: RuleRegistry, cwd: Path, *, version: str
) -> dict[str, Any]:
    """A SARIF 2.1.0 log with one run, for GitHub code scanning and IDEs.

    ``tool.driver.rules`` lists the rules that ran (id, name, descriptions, help, default
    level, ``fixable``); each result has its rule, level, message and a physical location: the
    file relative to ``%SRCROOT%`` (the working folder) and its line (1 for whole-file
    findings), and its ``fixes`` when the rule has one.
    """
    rules: list[dict[str, Any]] = []
    index: dict[str, int] = {}
    for entry in registry.active():
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
                "properties": {
                    "tags": [rule.category] if rule.category else [],
                    **({"fixable": rule.fixable} if rule.fixable else {}),
                },
            }
        )
    sarif_results: list[dict[str, Any]] = []
    for result in results:
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
            if d.fix is not None:
                item["fixes"] = [_sarif_fix(result, d, d.fix, cwd)]
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
                "originalUriBaseIds": {SRCROOT: {"uri": cwd.as_uri().rstrip("/") + "/"}},
                "columnKind": "unicodeCodePoints",
                "results": sarif_results,
            }
        ],
    }


# -- GitHub workflow annotations --------------------------------------------------------------


def _escape_data(text: str) -> str:
    return text.replace("%", "%25").replace("\r", "%0D").replace("\n", "%0A")


def _escape_property(text: str) -> str:
    return _escape_data(text).replace(":", "%3A").replace(",", "%2C")


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
