"""What the rules share: frontmatter lookups, type names and the semver pattern."""

from __future__ import annotations

import re
from collections.abc import Iterator, Mapping
from typing import Any

from skillc_index import type_name
from skillc_lint._registry import Finding
from skillc_lint._skill import Skill

__all__ = ["SEMVER", "Findings", "Options", "field_line", "frontmatter", "type_name"]

Options = Mapping[str, Any]
Findings = Iterator[Finding]

#: Semantic Versioning 2.0.0: MAJOR.MINOR.PATCH, optional -pre-release and +build.
SEMVER = re.compile(
    r"(0|[1-9]\d*)\.(0|[1-9]\d*)\.(0|[1-9]\d*)"
    r"(-[0-9A-Za-z-]+(\.[0-9A-Za-z-]+)*)?(\+[0-9A-Za-z-]+(\.[0-9A-Za-z-]+)*)?\Z"
)


def frontmatter(skill: Skill) -> dict[str, Any]:
    """SKILL.md's frontmatter, or ``{}`` when it is missing or invalid (SKL100 reports it)."""
    return skill.frontmatter or {}


def field_line(skill: Skill, key: str) -> int:
    """Line of a top-level frontmatter key, or 1 when it is absent."""
    return skill.skill_md.frontmatter.field_lines.get(key, 1)
