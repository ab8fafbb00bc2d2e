"""``lint`` as an operation (:mod:`skillc_index.operation`): one skill checked against the
authoring rules (RFC-0008), with the configuration's ``[lint]`` table, logged.

The MCP tool ``skc_lint`` runs :data:`LINT`; ``skc lint`` (``skillc-lint``) turns its
arguments (paths, names, folders of skills) into skill folders, builds the rules once with
:func:`rule_registry` and runs :func:`lint` for each folder, then prints the results in its
formats (text, json, sarif, github). Only the standard library and
:mod:`skillc_index.operation` are imported here: the linter loads when the operation runs.
"""

from __future__ import annotations

from collections.abc import Callable, Iterable
from typing import TYPE_CHECKING, Annotated, Any, NamedTuple

from skillc_index.operation import (
    INTEGER,
    NULLABLE_INTEGER,
    SKILL_DESCRIPTION,
    STRING,
    Operation,
    Param,
    Session,
    output_schema,
)

if TYPE_CHECKING:
    from pathlib import Path

    from skillc_index import Diagnostic, Layout, Notice, ResolvedSkill
    from skillc_lint import LintResult, RuleRegistry

__all__ = ["LINT", "OPERATIONS", "LintParams", "LintReport", "lint", "rule_registry"]


class LintParams(NamedTuple):
    skill: Annotated[str, Param(SKILL_DESCRIPTION, min_length=1)]
    force: Annotated[
        bool,
        Param("Lint even if the skill is compiled (SKL001 warns that results may mislead)."),
    ] = False
    select: Annotated[
        tuple[str, ...],
        Param(
            "Run only these rules: ids (SKL102), id prefixes (SKL1) or names (name-format); "
            "an item may hold several, comma-separated.",
            item_min_length=1,
        ),
    ] = ()
    ignore: Annotated[
        tuple[str, ...],
        Param("Do not run these rules (the same forms; applied after select).", item_min_length=1),
    ] = ()
    profile: Annotated[
        tuple[str, ...],
        Param(
            "Lint for these skill dialects too: claude-code, skillli, gibberish (default: the "
            "configuration's [lint] profiles). agentskills, the standard, always applies.",
            item_min_length=1,
        ),
    ] = ()

    def log_args(self) -> dict[str, Any]:
        """The options as given; :func:`lint` sets ``profiles`` to those in effect and adds
        ``errors``, ``warnings`` and ``skipped`` once the skill is linted."""
        return {
            "force": self.force,
            "profiles": list(self.profile),
            "select": list(self.select),
            "ignore": list(self.ignore),
        }


class LintReport(NamedTuple):
    """What linting one skill found, and the folder its paths are shown relative to."""

    result: LintResult
    cwd: Path

    @property
    def warnings(self) -> tuple[Diagnostic | Notice, ...]:
        return self.result.notices

    def to_dict(self) -> dict[str, Any]:
        """The ``--format json`` object of one skill, with its error and warning counts."""
        from skillc_lint import json_report

        data: dict[str, Any] = json_report([self.result], self.cwd, single=True)
        data["error_count"] = self.result.errors
        data["warning_count"] = self.result.warnings
        return data


def _names(values: Iterable[str]) -> list[str]:
    """Items that may each hold several comma-separated names, as one list."""
    return [part.strip() for value in values for part in value.split(",") if part.strip()]


def rule_registry(
    session: Session,
    *,
    profile: Iterable[str] = (),
    select: Iterable[str] = (),
    ignore: Iterable[str] = (),
) -> RuleRegistry:
    """The rules a lint runs: the configuration's ``[lint]`` table (its problems warned as
    ``config [lint]: ...``), the profiles (``profile``, else the table's), then ``select``
    and ``ignore``. Raises :class:`~skillc_lint.UnknownProfile` or
    :class:`~skillc_lint.UnknownRule` (E100)."""
    from skillc_index import Notice
    from skillc_lint import PROFILES, UnknownProfile, UnknownRule, configured_registry

    config = session.config
    profiles = _names(profile)
    for name in profiles:
        if name not in PROFILES:
            raise UnknownProfile(name, PROFILES)
    registry, problems = configured_registry(config.lint, tuple(profiles))
    session.warn(Notice(f"config [lint]: {problem}") for problem in problems)
    for parameter, selectors, apply in (
        ("select", _names(select), registry.enable_only),
        ("ignore", _names(ignore), registry.disable),
    ):
        if selectors:
            try:
                apply(*selectors)
            except KeyError as missing:
                raise UnknownRule(missing.args[0], parameter) from None
    return registry


def _folder(layout: Layout, given: str, skill: ResolvedSkill) -> Path:
    """The folder to lint: the one named when it is the skill (its paths shown as written,
    symlinks kept), else the resolved one. An imported folder is linted itself, not its
    store copy: it is what is edited."""
    import os
    from pathlib import Path

    folder = skill.imported_from or skill.source
    named = layout.cwd / Path(given).expanduser()
    return named if os.path.realpath(named) == str(folder) else folder


def lint(
    session: Session,
    params: LintParams,
    registry: RuleRegistry | None = None,
    *,
    engine: Callable[[Path], LintResult] | None = None,
) -> LintReport:
    """Lint one skill and log it. ``registry``: the rules (default: :func:`rule_registry` of
    ``params``); a caller linting several skills builds it once. ``engine``: what lints the
    resolved folder (default: :func:`~skillc_lint.lint_skill` with ``registry``); the command
    line passes the result a worker process already computed for it."""
    from skillc_lint import lint_skill, profiles_in

    if registry is None:
        registry = rule_registry(
            session, profile=params.profile, select=params.select, ignore=params.ignore
        )
    args = params.log_args()
    args["profiles"] = list(profiles_in(registry))
    with session.logged("lint", params.skill, args) as skill:
        folder = _folder(session.layout, params.skill, skill)
        if engine is None:
            result = lint_skill(folder, registry=registry, force=params.force)
        else:
            result = engine(folder)
        args.update(errors=result.errors, warnings=result.warnings, skipped=result.skipped)
    return LintReport(result, session.layout.cwd)


LINT: Operation[LintParams, LintReport] = Operation(
    name="lint",
    title="Lint a skill",
    description="Check a skill against the authoring standard (RFC-0008 rules SKL001 to "
    "SKL401: frontmatter, structure, links, files) and return every problem with its rule, "
    "severity, file and line. Use after writing or editing a skill, before building or "
    "publishing it; fix the errors first. `profile` adds the rules of a skill dialect "
    "(claude-code, skillli, gibberish); `select` and `ignore` narrow the rules. A compiled "
    "skill (one holding .skillc-meta/manifest.json) is skipped unless `force`.",
    params=LintParams,
    run=lint,
    output_schema=output_schema(
        {
            "skill": STRING,
            "path": STRING,
            "diagnostics": {
                "type": "array",
                "items": output_schema(
                    {
                        "rule": {"type": "string", "description": "SKLxxx"},
                        "severity": {"enum": ["error", "warning"]},
                        "file": {"type": "string", "description": "Relative to the skill."},
                        "line": NULLABLE_INTEGER,
                        "message": STRING,
                    }
                ),
            },
            "skipped": {"type": "string", "description": "'compiled' when not linted."},
            "error_count": INTEGER,
            "warning_count": INTEGER,
        },
        optional=("skipped",),
    ),
    cli_only={
        "jobs": "the tool lints one skill; worker processes pay off over many",
        "skills": "the command line lints several skills, or folders of skills, in one run; "
        "the tool lints one (skill)",
        "list_rules": "lists the rules instead of linting; an agent reads the rules from the "
        "diagnostics",
    },
    mcp_only={"skill": "the command line takes any number of skills (skills)"},
)

OPERATIONS: tuple[Operation[Any, Any], ...] = (LINT,)
"""The operations of this package."""
