"""SKL108 ``description-triggers``: the description says when to use the skill."""

from __future__ import annotations

from skillc_lint._registry import Finding
from skillc_lint._rules.fields import Findings, Options, field_line, frontmatter
from skillc_lint._skill import Skill

__all__ = ["TRIGGER_PATTERNS", "TRIGGER_PHRASINGS", "description_triggers"]

#: SKL108 activation trigger patterns, verbatim from the RFC (matched case-insensitively).
TRIGGER_PATTERNS = (
    "use when",
    "when to use",
    "use for",
    "triggers on",
    "triggers:",
    "activate when",
)
#: The RFC's "use when" and "use for" with the skill named in between, and its passive: how
#: Anthropic's skills and its skill-creator guide say it ("Use this skill when ...", "This
#: skill should be used when ..."). Accepted by default with the RFC's patterns.
TRIGGER_PHRASINGS = (
    "use this skill when",
    "use this skill whenever",
    "use this skill for",
    "use it when",
    "use whenever",
    "should be used when",
)


def description_triggers(skill: Skill, options: Options) -> Findings:
    """SKL108: the description says when to use the skill (one of ``patterns``)."""
    description = frontmatter(skill).get("description")
    if not isinstance(description, str) or not description.strip():
        return
    text = " ".join(description.lower().split())
    if not any(pattern.lower() in text for pattern in options["patterns"]):
        yield Finding(
            "missing activation trigger (say when to use the skill, e.g. 'Use when ...')",
            line=field_line(skill, "description"),
        )
