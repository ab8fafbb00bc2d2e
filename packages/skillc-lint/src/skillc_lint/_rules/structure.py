"""RFC-0008's rules on a skill's structure (SKL201-SKL205: SKILL.md's length, its H1 and the
name in it, each Markdown file's first heading and the headings' levels): their checks, which
:data:`skillc_lint._rules.rfc0008.RULES` lists."""

from __future__ import annotations

from skillc_lint._registry import Finding
from skillc_lint._rules import fields
from skillc_lint._rules.fields import Findings, Options
from skillc_lint._skill import Skill

__all__ = [
    "heading_first_h1",
    "heading_h1",
    "heading_hierarchy",
    "heading_match_name",
    "skill_size",
]


def skill_size(skill: Skill, options: Options) -> Findings:
    """SKL201: SKILL.md has at most ``max-lines`` (500) lines."""
    count, limit = skill.skill_md.line_count, options["max-lines"]
    if count > limit:
        yield Finding(f"SKILL.md is {count} lines long (at most {limit} recommended)")


def heading_h1(skill: Skill, options: Options) -> Findings:
    """SKL202: SKILL.md has an H1."""
    if not any(heading.level == 1 for heading in skill.skill_md.headings):
        yield Finding("no H1 heading")


def _letters(text: str) -> str:
    return "".join(char for char in text.lower() if char.isalnum())


def heading_match_name(skill: Skill, options: Options) -> Findings:
    """SKL203: the first H1 contains the name, case-insensitively, its letters and digits
    alone (``Draw.io Diagram Generator``, ``Incident Post-Mortem`` hold theirs)."""
    name = fields.frontmatter_name(skill)
    first = next((h for h in skill.skill_md.headings if h.level == 1), None)
    if name is None or first is None:
        return
    if _letters(name) not in _letters(first.text):
        yield Finding(
            f"first H1 '{first.text}' does not contain the skill name '{name}'", line=first.line
        )


def heading_first_h1(skill: Skill, options: Options) -> Findings:
    """SKL204: in each Markdown file, the first heading is an H1."""
    for rel, doc in skill.docs.items():
        if doc.headings and doc.headings[0].level != 1:
            first = doc.headings[0]
            yield Finding(
                f"first heading '{first.text}' is H{first.level}, not H1", rel, first.line
            )


def heading_hierarchy(skill: Skill, options: Options) -> Findings:
    """SKL205: going deeper, headings never skip a level (H2 then H4); going up is free."""
    for rel, doc in skill.docs.items():
        for previous, heading in zip(doc.headings, doc.headings[1:], strict=False):
            if heading.level > previous.level + 1:
                yield Finding(
                    f"heading '{heading.text}' skips from H{previous.level} to H{heading.level}",
                    rel,
                    heading.line,
                )
