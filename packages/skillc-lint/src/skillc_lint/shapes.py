"""The JSON shapes of lint's results, each a ``TypedDict`` (:mod:`skillc_index.shapes`):
what ``skc lint --format json`` prints and the MCP tool ``skc_lint`` returns as
``structuredContent``. :class:`LintShape` is the tool's (its output schema is made from it);
the others are the command line's.

Imported by type checkers and when the MCP server lists its tools, never by a lint.
"""

from __future__ import annotations

from typing import Annotated, Any, Literal, TypedDict


class EditShape(TypedDict):
    line: int
    column: int
    end_line: int
    end_column: int
    text: str


class FixShape(TypedDict):
    """A finding's fix (:class:`~skillc_lint.Fix`)."""

    description: str
    safe: Annotated[bool, "False when the fix may change meaning."]
    edits: Annotated[
        list[EditShape],
        "Replace from line:column up to end_line:end_column (1-based, exclusive, in "
        "characters) of the diagnostic's file with text.",
    ]


class _Finding(TypedDict):
    rule: Annotated[str, "SKLxxx"]
    severity: Literal["error", "warning"]
    file: Annotated[str, "Relative to the skill."]
    line: int | None
    column: int | None
    message: str


class DiagnosticShape(_Finding, total=False):
    """A rule's finding (:class:`~skillc_lint.LintDiagnostic`)."""

    fix: FixShape


class _Linted(TypedDict):
    skill: str
    path: str
    diagnostics: list[DiagnosticShape]
    error_count: Annotated[int, "Errors among the diagnostics (all of them: also any cut)."]
    warning_count: int


class _Skipped(TypedDict, total=False):
    skipped: Annotated[str, "'compiled' when not linted."]


class LintShape(_Linted, _Skipped):
    """``skc_lint``: one skill's findings, with their counts."""


class ErrorShape(TypedDict):
    code: str
    message: str


class NotFixedShape(ErrorShape, total=False):
    detail: str


class SkillShape(_Linted, _Skipped, total=False):
    """One skill of ``skc lint --format json`` (:func:`~skillc_lint.json_report`): with
    ``--fix``, how many fixes were applied and the files left alone; the run's warnings of
    it (a file past the bound or over the parse limit)."""

    fixed: int
    not_fixed: list[NotFixedShape]
    warnings: Annotated[
        list[str], "The run's warnings of the skill (a file not read whole); absent when none."
    ]


class _TargetError(TypedDict):
    error: NotFixedShape


class TargetErrorShape(_TargetError, total=False):
    """A target that could not be linted, in its place (:class:`~skillc_lint.RunError`); the
    error of the whole run has no ``target``."""

    target: str


class StatisticShape(TypedDict):
    """``--statistics``: one rule's count of findings."""

    rule: str
    name: str
    severity: Literal["error", "warning"]
    count: int


class RuleStateShape(TypedDict):
    """``--list-rules``: a rule as the configuration made it."""

    id: str
    name: str
    severity: Literal["error", "warning"]
    enabled: bool
    options: dict[str, Any]
    summary: str
    fixable: Literal["safe", "unsafe", None]


class RuleDocShape(TypedDict):
    """``--explain``: a rule's documentation (:func:`~skillc_lint._output.rule_doc`)."""

    id: str
    name: str
    severity: Literal["error", "warning"]
    category: str
    profile: Annotated[str | None, "None for RFC-0008's built-in rules."]
    summary: str
    rationale: str
    fix: str
    options: dict[str, Any]


LintJSON = (
    LintShape
    | SkillShape
    | TargetErrorShape
    | list[SkillShape | TargetErrorShape]
    | list[StatisticShape]
    | list[RuleStateShape]
    | RuleDocShape
    | list[RuleDocShape]
)
"""What a lint run's ``to_dict()`` is: the tool's :class:`LintShape`; or, on the command
line, one skill's object (or its error's), a list of them for several targets, the
``--statistics``, the ``--list-rules`` or the ``--explain`` of the run."""
