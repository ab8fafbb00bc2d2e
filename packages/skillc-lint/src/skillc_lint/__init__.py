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

from typing import TYPE_CHECKING

from skillc_index import lazy_exports

__version__ = "0.2.0.dev0"

# public name -> private module that defines it
_EXPORTS: dict[str, str] = {
    "LintDiagnostic": "_engine",
    "LintResult": "_engine",
    "Target": "_targets",
    "find_skill_folders": "_engine",
    "is_compiled": "_engine",
    "is_plugin": "_targets",
    "lint_folder": "_engine",
    "lint_skill": "_engine",
    "lint_targets": "_engine",
    "resolve_target": "_targets",
    "resolve_targets": "_targets",
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
    "slug": "_anchors",
}

__all__ = ["__version__", *_EXPORTS]

# a name 0.1.0 exported and this package no longer does -> where it is now (":name": renamed
# here): it still resolves, with a DeprecationWarning naming the new import, until the next release
_MOVED: dict[str, str] = {"find_skills": ":find_skill_folders"}


__getattr__, __dir__ = lazy_exports(__name__, _EXPORTS, globals(), _MOVED)


if TYPE_CHECKING:
    from skillc_lint._anchors import slug as slug
    from skillc_lint._engine import LintDiagnostic as LintDiagnostic
    from skillc_lint._engine import LintResult as LintResult
    from skillc_lint._engine import find_skill_folders as find_skill_folders
    from skillc_lint._engine import is_compiled as is_compiled
    from skillc_lint._engine import lint_folder as lint_folder
    from skillc_lint._engine import lint_skill as lint_skill
    from skillc_lint._engine import lint_targets as lint_targets
    from skillc_lint._engine import target_folders as target_folders
    from skillc_lint._errors import BaselineNotWritten as BaselineNotWritten
    from skillc_lint._errors import ConfigNotFound as ConfigNotFound
    from skillc_lint._errors import ConflictingParameters as ConflictingParameters
    from skillc_lint._errors import FixOutsideTree as FixOutsideTree
    from skillc_lint._errors import InvalidBaseline as InvalidBaseline
    from skillc_lint._errors import NotFixed as NotFixed
    from skillc_lint._errors import ParameterError as ParameterError
    from skillc_lint._errors import UnknownProfile as UnknownProfile
    from skillc_lint._errors import UnknownRule as UnknownRule
    from skillc_lint._fixes import FileChange as FileChange
    from skillc_lint._fixes import Fix as Fix
    from skillc_lint._fixes import FixOutcome as FixOutcome
    from skillc_lint._fixes import TextEdit as TextEdit
    from skillc_lint._fixes import fix_skill as fix_skill
    from skillc_lint._output import RunError as RunError
    from skillc_lint._output import json_report as json_report
    from skillc_lint._pool import lint_folders as lint_folders
    from skillc_lint._pool import usable_cores as usable_cores
    from skillc_lint._profiles import BUILTIN_RULES as BUILTIN_RULES
    from skillc_lint._profiles import DEFAULT_PROFILES as DEFAULT_PROFILES
    from skillc_lint._profiles import PROFILES as PROFILES
    from skillc_lint._profiles import Profile as Profile
    from skillc_lint._profiles import configured_registry as configured_registry
    from skillc_lint._profiles import default_registry as default_registry
    from skillc_lint._profiles import profiles_in as profiles_in
    from skillc_lint._profiles import use_profile as use_profile
    from skillc_lint._registry import Finding as Finding
    from skillc_lint._registry import Fixable as Fixable
    from skillc_lint._registry import Rule as Rule
    from skillc_lint._registry import RuleCheck as RuleCheck
    from skillc_lint._registry import RuleRegistry as RuleRegistry
    from skillc_lint._registry import RuleScope as RuleScope
    from skillc_lint._registry import RuleState as RuleState
    from skillc_lint._registry import Severity as Severity
    from skillc_lint._run import LintRun as LintRun
    from skillc_lint._skill import LinkRef as LinkRef
    from skillc_lint._skill import Skill as Skill
    from skillc_lint._targets import Target as Target
    from skillc_lint._targets import is_plugin as is_plugin
    from skillc_lint._targets import resolve_target as resolve_target
    from skillc_lint._targets import resolve_targets as resolve_targets
