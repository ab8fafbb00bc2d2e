"""The ``skillli`` profile, layer 3: the registry fields of spec/004 (SKL701-SKL705).

Each field may be written at the top level or inside ``metadata``; the top level wins, as in
skillli. Findings point at the line of the field, in ``metadata`` too (else ``metadata``'s).
"""

from __future__ import annotations

from typing import Any
from urllib.parse import urlsplit

from skillc_lint._registry import Finding, Rule
from skillc_lint._rules.fields import SEMVER, Findings, Options, field_line, frontmatter, type_name
from skillc_lint._skill import Skill

__all__ = ["FIELDS", "RULES"]

#: spec/004 layer 3 and layer 4's ``quiz``: the fields SKL109 learns with this profile.
FIELDS = (
    "version",
    "author",
    "tags",
    "category",
    "trust-level",
    "repository",
    "homepage",
    "min-skillli-version",
    "checksum",
    "quiz",
)
CATEGORIES = ("development", "creative", "enterprise", "data", "devops", "other")
TRUST_LEVELS = ("community", "verified", "official")

_MISSING = object()


def registry_field(skill: Skill, key: str) -> tuple[Any, int, str]:
    """``(value, line, label)`` of a layer-3 field: top level first, then ``metadata``;
    ``value`` is ``_MISSING`` when neither has it."""
    data = frontmatter(skill)
    if key in data:
        return data[key], field_line(skill, key), key
    metadata = data.get("metadata")
    if isinstance(metadata, dict) and key in metadata:
        return metadata[key], field_line(skill, "metadata", key), f"metadata.{key}"
    return _MISSING, 1, key


def registry_version(skill: Skill, options: Options) -> Findings:
    """SKL701: ``version`` and ``min-skillli-version`` are semantic versions (``1.2.0``)."""
    for key in ("version", "min-skillli-version"):
        value, line, label = registry_field(skill, key)
        if value is _MISSING:
            continue
        if not isinstance(value, str):
            yield Finding(
                f'{label} must be a semver string like "1.2.0", not {type_name(value)}', line=line
            )
        elif not SEMVER.match(value.strip()):
            yield Finding(f"{label} '{value}' is not a semantic version (1.2.0)", line=line)


def registry_tags(skill: Skill, options: Options) -> Findings:
    """SKL702: ``tags`` is a list of strings or a comma-separated string, 1 to 20 tags."""
    value, line, label = registry_field(skill, "tags")
    if value is _MISSING:
        return
    if isinstance(value, str):
        tags = [tag.strip() for tag in value.split(",")]
    elif isinstance(value, list) and all(isinstance(tag, str) for tag in value):
        tags = [tag.strip() for tag in value]
    elif isinstance(value, list):  # an item not a string, named by its position: YAML's
        # value is no text of the file (an unquoted ``802.10`` reads 802.1, ``1e3`` 1000.0)
        number, tag = next((n, t) for n, t in enumerate(value, 1) if not isinstance(t, str))
        scalar = tag is not None and not isinstance(tag, (list, dict))
        quote = ": quote it" if scalar else ""  # a number, a boolean, a date
        yield Finding(
            f"{label} must be a list of strings: item {number} is {type_name(tag)}{quote}",
            line=line,
        )
        return
    else:
        yield Finding(
            f"{label} must be a list of strings or a comma-separated string, "
            f"not {type_name(value)}",
            line=line,
        )
        return
    if any(not tag for tag in tags) and len(tags) > 1:
        yield Finding(f"{label} has an empty tag", line=line)
    count = len([tag for tag in tags if tag])
    if not 1 <= count <= options["max-tags"]:
        yield Finding(f"{label} has {count} tags (1-{options['max-tags']} allowed)", line=line)


def _enum(skill: Skill, key: str, allowed: tuple[str, ...]) -> Findings:
    value, line, label = registry_field(skill, key)
    if value is not _MISSING and value not in allowed:
        shown = f"'{value}'" if isinstance(value, str) else type_name(value)
        yield Finding(f"{label} must be one of {', '.join(allowed)}, not {shown}", line=line)


def registry_category(skill: Skill, options: Options) -> Findings:
    """SKL703: ``category`` is one of skillli's six categories."""
    yield from _enum(skill, "category", CATEGORIES)


def registry_trust_level(skill: Skill, options: Options) -> Findings:
    """SKL704: ``trust-level`` is ``community``, ``verified`` or ``official``."""
    yield from _enum(skill, "trust-level", TRUST_LEVELS)


def registry_urls(skill: Skill, options: Options) -> Findings:
    """SKL705: ``repository`` and ``homepage`` are http(s) URLs with a host."""
    for key in ("repository", "homepage"):
        value, line, label = registry_field(skill, key)
        if value is _MISSING:
            continue
        parts = urlsplit(value) if isinstance(value, str) else None
        if parts is None or parts.scheme not in ("http", "https") or not parts.netloc:
            shown = f"'{value}'" if isinstance(value, str) else type_name(value)
            yield Finding(f"{label} must be an http(s) URL, not {shown}", line=line)


RULES: tuple[Rule, ...] = (
    Rule(
        "SKL701",
        "registry-version",
        "error",
        registry_version,
        "version and min-skillli-version are semantic versions.",
        category="skillli",
        rationale=(
            "skillli resolves versions and upgrades with semantic versions; anything else cannot "
            "be compared."
        ),
        fix="Write versions as MAJOR.MINOR.PATCH, quoted: 'version: \"1.2.0\"'.",
    ),
    Rule(
        "SKL702",
        "registry-tags",
        "error",
        registry_tags,
        "tags are a list or comma-separated string of 1-20 tags.",
        options={"max-tags": 20},
        category="skillli",
        rationale=(
            "Tags are how skillli's registry lists and searches skills; empty or too many tags are "
            "refused."
        ),
        fix="Give 1-20 short tags as a YAML list or a comma-separated string.",
    ),
    Rule(
        "SKL703",
        "registry-category",
        "error",
        registry_category,
        "category is one of skillli's categories.",
        category="skillli",
        rationale=(
            "skillli files every skill under one of its categories; an unknown one is refused by "
            "the registry."
        ),
        fix="Use one of the categories the message lists.",
    ),
    Rule(
        "SKL704",
        "registry-trust-level",
        "error",
        registry_trust_level,
        "trust-level is community, verified or official.",
        category="skillli",
        rationale=(
            "trust-level tells users how far the skill was reviewed; the registry knows three "
            "levels."
        ),
        fix="Use community, verified or official.",
    ),
    Rule(
        "SKL705",
        "registry-urls",
        "error",
        registry_urls,
        "repository and homepage are http(s) URLs.",
        category="skillli",
        rationale=(
            "The registry links the repository and homepage; a URL that is not http(s) with a host "
            "cannot be opened."
        ),
        fix="Write full https:// URLs.",
    ),
)
