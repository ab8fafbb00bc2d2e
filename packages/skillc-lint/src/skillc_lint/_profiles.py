"""Dialect profiles: the Agent Skills standard and the dialects built on it, as plain data.

A profile names the rules it adds (each dialect module's ``RULES``), the frontmatter fields it
makes known to SKL109, the profile it extends, and settings in the ``[lint]`` shape (so a
dialect can widen an option or turn off a rule that does not fit it). :func:`use_profile` is
a registry plugin (``registry.use(use_profile, "claude-code")``), as markdown-it-py's presets
and plugins are.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, field
from typing import Any

from skillc_lint import _dialect_claude, _dialect_gibberish, _dialect_quiz, _dialect_skillli
from skillc_lint._dialect_standard import RULES as STANDARD_RULES
from skillc_lint._registry import Rule, RuleRegistry

__all__ = ["DEFAULT_PROFILES", "PROFILES", "Profile", "use_profile"]


@dataclass(frozen=True)
class Profile:
    """A dialect: its rules, the fields it makes known, what it extends, its settings."""

    name: str
    description: str
    rules: tuple[Rule, ...]
    known_fields: tuple[str, ...] = ()
    extends: str | None = None
    settings: Mapping[str, Any] = field(default_factory=dict)


PROFILES: dict[str, Profile] = {
    profile.name: profile
    for profile in (
        Profile(
            "agentskills",
            "the Agent Skills standard's optional fields (spec/004 layer 1)",
            STANDARD_RULES,
        ),
        Profile(
            "claude-code",
            "Claude Code's frontmatter extensions (spec/004 layer 2)",
            _dialect_claude.RULES,
            _dialect_claude.FIELDS,
            extends="agentskills",
            # Claude Code reads allowed-tools as a YAML list or a comma-separated string too.
            settings={"SKL503": {"accept": ["string", "list", "commas"]}},
        ),
        Profile(
            "skillli",
            "skillli's registry fields and quizzes (spec/004 layers 3 and 4)",
            _dialect_skillli.RULES + _dialect_quiz.RULES,
            _dialect_skillli.FIELDS,
            extends="agentskills",
            # spec/004 layer 1 as skillli implements it: compatibility may be a list.
            settings={"SKL501": {"accept": ["string", "list"]}},
        ),
        Profile(
            "gibberish",
            "gibb.eri.sh tool-defining skills (spec/003)",
            _dialect_gibberish.RULES,
            _dialect_gibberish.FIELDS,
            extends="agentskills",
            # Tool definitions are H3 sections: a body without an H1 is the norm (§3.1).
            settings={"SKL202": "off", "SKL204": "off"},
        ),
    )
}

#: What ``skillc-lint`` uses without ``--profile`` or ``[lint] profiles``.
DEFAULT_PROFILES = ("agentskills",)


def profiles_in(registry: RuleRegistry) -> tuple[str, ...]:
    """The profiles whose rules ``registry`` holds (in :data:`PROFILES` order)."""
    return tuple(
        name
        for name, profile in PROFILES.items()
        if all(rule.id in registry for rule in profile.rules)
    )


def use_profile(registry: RuleRegistry, name: str) -> None:
    """Plugin: add profile ``name`` (and the one it extends, first) to ``registry``: its
    rules, its known fields for SKL109, its settings. Applying a profile twice is harmless.
    ``KeyError`` for an unknown profile."""
    profile = PROFILES[name]
    if profile.extends:
        use_profile(registry, profile.extends)
    if profile.rules and profile.rules[0].id in registry:
        return
    for rule in profile.rules:
        registry.add(rule)
    if profile.known_fields and "SKL109" in registry:
        known = registry.options("SKL109")["known-fields"]
        fields = list(dict.fromkeys([*known, *profile.known_fields]))
        registry.set_options("SKL109", **{"known-fields": fields})
    problems = registry.configure(profile.settings)
    if problems:  # a profile is code: a bad one is a bug, not a user error
        raise ValueError(f"profile {name!r}: {'; '.join(problems)}")
