"""The built-in rule set: RFC-0008:C-REGISTRY's table as :class:`Rule` values, the presets
(plain data) and :func:`default_registry`, which puts them together."""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any

from skillc_lint._registry import Rule, RuleRegistry
from skillc_lint._rules import (
    KNOWN_FIELDS,
    NON_CONTENT_FILES,
    TRIGGER_PATTERNS,
    description_length,
    description_nonempty,
    description_required,
    description_triggers,
    frontmatter_known,
    frontmatter_valid,
    heading_first_h1,
    heading_h1,
    heading_hierarchy,
    heading_match_name,
    link_anchor_exists,
    link_file_exists,
    link_no_escape,
    name_format,
    name_length,
    name_match_dir,
    name_required,
    no_orphans,
    skill_size,
    skip_compiled,
)

__all__ = ["BUILTIN_RULES", "PRESETS", "default_registry"]


BUILTIN_RULES: tuple[Rule, ...] = (
    Rule(
        "SKL001",
        "skip-compiled",
        "warning",
        skip_compiled,
        "Compiled skills (with .skillc-meta/manifest.json) are skipped unless --force.",
        category="meta",
        protected=True,
    ),
    Rule(
        "SKL100",
        "frontmatter-valid",
        "error",
        frontmatter_valid,
        "SKILL.md starts with a --- delimited block of valid YAML.",
        category="frontmatter",
    ),
    Rule(
        "SKL101",
        "name-required",
        "error",
        name_required,
        "The name field is present.",
        category="frontmatter",
    ),
    Rule(
        "SKL102",
        "name-format",
        "error",
        name_format,
        "name uses lowercase letters, digits and single hyphens, not first or last.",
        category="frontmatter",
    ),
    Rule(
        "SKL103",
        "name-length",
        "error",
        name_length,
        "name is 1-64 characters long.",
        category="frontmatter",
    ),
    Rule(
        "SKL104",
        "name-match-dir",
        "warning",
        name_match_dir,
        "name matches the skill's directory name.",
        category="frontmatter",
    ),
    Rule(
        "SKL105",
        "description-required",
        "error",
        description_required,
        "The description field is present.",
        category="frontmatter",
    ),
    Rule(
        "SKL106",
        "description-nonempty",
        "error",
        description_nonempty,
        "description is text, not empty or whitespace only.",
        category="frontmatter",
    ),
    Rule(
        "SKL107",
        "description-length",
        "warning",
        description_length,
        "description is at most 1024 characters.",
        options={"max-length": 1024},
        category="frontmatter",
    ),
    Rule(
        "SKL108",
        "description-triggers",
        "warning",
        description_triggers,
        "description says when to use the skill ('Use when ...').",
        options={"patterns": list(TRIGGER_PATTERNS)},
        category="frontmatter",
    ),
    Rule(
        "SKL109",
        "frontmatter-known",
        "warning",
        frontmatter_known,
        "Frontmatter fields are known Agent Skills fields.",
        options={"known-fields": list(KNOWN_FIELDS)},
        category="frontmatter",
    ),
    Rule(
        "SKL201",
        "skill-size",
        "warning",
        skill_size,
        "SKILL.md is at most 500 lines.",
        options={"max-lines": 500},
        category="structure",
    ),
    Rule(
        "SKL202",
        "heading-h1",
        "warning",
        heading_h1,
        "SKILL.md has an H1 heading.",
        category="structure",
    ),
    Rule(
        "SKL203",
        "heading-match-name",
        "warning",
        heading_match_name,
        "The first H1 of SKILL.md contains the skill name.",
        category="structure",
    ),
    Rule(
        "SKL204",
        "heading-first-h1",
        "warning",
        heading_first_h1,
        "The first heading of each Markdown file is an H1.",
        category="structure",
    ),
    Rule(
        "SKL205",
        "heading-hierarchy",
        "warning",
        heading_hierarchy,
        "Headings do not skip levels going deeper.",
        category="structure",
    ),
    Rule(
        "SKL301",
        "link-file-exists",
        "error",
        link_file_exists,
        "Relative links point at files that exist in the skill.",
        category="links",
    ),
    Rule(
        "SKL302",
        "link-anchor-exists",
        "warning",
        link_anchor_exists,
        "Anchor links point at existing headings.",
        category="links",
    ),
    Rule(
        "SKL303",
        "link-no-escape",
        "error",
        link_no_escape,
        "Links do not leave the skill folder (through '..' or a symlink).",
        category="links",
    ),
    Rule(
        "SKL401",
        "no-orphans",
        "warning",
        no_orphans,
        "Every Markdown file is reachable from SKILL.md through links.",
        options={"exceptions": list(NON_CONTENT_FILES)},
        category="files",
    ),
)

#: Presets are plain data: the rules to run, in order, and their settings in the ``[lint]``
#: shape. Dialect profiles (:mod:`skillc_lint._profiles`) add their own rules on top.
PRESETS: dict[str, dict[str, Any]] = {
    "rfc-0008": {
        "description": "every rule of RFC-0008:C-REGISTRY with its default severity",
        "rules": [rule.id for rule in BUILTIN_RULES],
        "settings": {},
    },
}


def default_registry(
    preset: str = "rfc-0008", profiles: Sequence[str] | None = None
) -> RuleRegistry:
    """A new registry holding the built-in rules, set up as ``preset`` says, plus the rules
    of each dialect profile in ``profiles`` (default: ``agentskills``; ``()`` for RFC-0008
    alone). ``KeyError`` for an unknown profile."""
    from skillc_lint._profiles import DEFAULT_PROFILES, use_profile

    data = PRESETS[preset]
    registry = RuleRegistry(BUILTIN_RULES)
    registry.enable_only(*data["rules"])
    problems = registry.configure(data["settings"])
    if problems:  # a preset is code: a bad one is a bug, not a user error
        raise ValueError(f"preset {preset!r}: {'; '.join(problems)}")
    for name in DEFAULT_PROFILES if profiles is None else profiles:
        registry.use(use_profile, name)
    return registry


def configured_registry(
    lint: Mapping[str, Any], profiles: Sequence[str] = ()
) -> tuple[RuleRegistry, list[str]]:
    """The registry a run uses, from the ``[lint]`` table of the configuration (RFC-0009),
    and the problems found in that table, one message each (callers print them as
    ``config [lint]: <message>`` warnings; they never fail a run).

    The profiles are ``profiles`` when given (known names: the caller checked them), else
    ``[lint] profiles`` (unknown names skipped with a problem), always on top of
    ``agentskills``. Settings of rules from profiles not in use are left out without a
    problem: a config may tune a dialect's rules for the runs that select it."""
    from skillc_lint._profiles import PROFILES, profiles_in

    settings = dict(lint)
    configured = settings.pop("profiles", None)
    problems: list[str] = []
    names = list(profiles)
    if not names and configured is not None:
        if not isinstance(configured, list) or not all(isinstance(n, str) for n in configured):
            problems.append("profiles must be a list of names; ignored")
        else:
            known = ", ".join(PROFILES)
            for name in configured:
                if name in PROFILES:
                    names.append(name)
                else:
                    problems.append(f"unknown profile '{name}' (known: {known})")
    registry = default_registry(profiles=tuple(dict.fromkeys(["agentskills", *names])))
    in_use = profiles_in(registry)
    idle = {
        key
        for name, profile in PROFILES.items()
        if name not in in_use
        for rule in profile.rules
        for key in (rule.id.lower(), rule.name)
    }
    problems += registry.configure(_without(settings, idle))
    return registry, problems


def _without(settings: Mapping[str, Any], idle: set[str]) -> dict[str, Any]:
    """``settings`` without the keys (rule ids or names, also under ``rules``) in ``idle``."""
    return {
        key: _without(value, idle) if key == "rules" and isinstance(value, Mapping) else value
        for key, value in settings.items()
        if str(key).lower() not in idle
    }
