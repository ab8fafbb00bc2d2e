"""skillc-lint: validate Agent Skills against the authoring standard (RFC-0008).

The API returns data, never text::

    from skillc_lint import lint_skill

    result = lint_skill("skills/my-skill")
    for d in result.diagnostics:
        print(d.rule, d.severity, d.file, d.line, d.message)

Rules live in a :class:`RuleRegistry` (``default_registry()``: RFC-0008's rules plus those
of the profiles chosen): enable, disable, reorder, configure, or add your own :class:`Rule`.
:func:`fix_skill` applies the fixes rules attach to their findings (``--fix``).
``lint`` as a command (``skc lint``, the MCP tool ``skc_lint``) is the operation of
:mod:`skillc_lint.operations`, whose run is a :class:`LintRun`. Importing this package is
cheap: names are loaded from their modules on first use (PEP 562).
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from skillc_index import lazy_exports

__version__ = "0.1.0"

# public name -> private module that defines it
_EXPORTS: dict[str, str] = {
    "LintDiagnostic": "_engine",
    "LintResult": "_engine",
    "Target": "_engine",
    "find_skill_folders": "_engine",
    "is_compiled": "_engine",
    "is_plugin": "_engine",
    "lint_folder": "_engine",
    "lint_skill": "_engine",
    "lint_targets": "_engine",
    "resolve_target": "_engine",
    "resolve_targets": "_engine",
    "target_folders": "_engine",
    "FileChange": "_fixes",
    "Fix": "_fixes",
    "FixOutcome": "_fixes",
    "TextEdit": "_fixes",
    "fix_skill": "_fixes",
    "lint_folders": "_pool",
    "usable_cores": "_pool",
    "Finding": "_registry",
    "Fixable": "_registry",
    "Rule": "_registry",
    "RuleCheck": "_registry",
    "RuleRegistry": "_registry",
    "RuleScope": "_registry",
    "RuleState": "_registry",
    "Severity": "_registry",
    "BUILTIN_RULES": "_profiles",
    "DEFAULT_PROFILES": "_profiles",
    "PROFILES": "_profiles",
    "Profile": "_profiles",
    "use_profile": "_profiles",
    "profiles_in": "_profiles",
    "default_registry": "_profiles",
    "configured_registry": "_profiles",
    "json_report": "_output",
    "BaselineNotWritten": "_errors",
    "ConfigNotFound": "_errors",
    "ConflictingParameters": "_errors",
    "FixOutsideTree": "_errors",
    "InvalidBaseline": "_errors",
    "NotFixed": "_errors",
    "ParameterError": "_errors",
    "RunError": "_output",
    "LintRun": "_run",
    "UnknownProfile": "_errors",
    "UnknownRule": "_errors",
    "LinkRef": "_skill",
    "Skill": "_skill",
    "slug": "_skill",
}

__all__ = ["__version__", *_EXPORTS]


__getattr__, __dir__ = lazy_exports(__name__, _EXPORTS, globals())


if TYPE_CHECKING:
    from skillc_lint._engine import (
        LintDiagnostic,
        LintResult,
        Target,
        find_skill_folders,
        is_compiled,
        is_plugin,
        lint_folder,
        lint_skill,
        lint_targets,
        resolve_target,
        resolve_targets,
        target_folders,
    )
    from skillc_lint._errors import (
        BaselineNotWritten,
        ConfigNotFound,
        ConflictingParameters,
        FixOutsideTree,
        InvalidBaseline,
        NotFixed,
        ParameterError,
        UnknownProfile,
        UnknownRule,
    )
    from skillc_lint._fixes import FileChange, Fix, FixOutcome, TextEdit, fix_skill
    from skillc_lint._output import RunError, json_report
    from skillc_lint._pool import lint_folders, usable_cores
    from skillc_lint._profiles import (
        BUILTIN_RULES,
        DEFAULT_PROFILES,
        PROFILES,
        Profile,
        configured_registry,
        default_registry,
        profiles_in,
        use_profile,
    )
    from skillc_lint._registry import (
        Finding,
        Fixable,
        Rule,
        RuleCheck,
        RuleRegistry,
        RuleScope,
        RuleState,
        Severity,
    )
    from skillc_lint._run import LintRun
    from skillc_lint._skill import LinkRef, Skill, slug
