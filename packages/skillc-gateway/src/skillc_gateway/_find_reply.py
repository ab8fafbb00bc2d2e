"""A ``find`` answer cut to a front end's reply bound (the MCP server's 100,000 characters of
JSON, ``Session.reply_chars``): ``skc_find`` replies had none, and 40 skills with long
descriptions made 4.8 MB (a description is whatever a SKILL.md's frontmatter holds, up to
its first MiB).

What goes first is what costs most and says least: the longest descriptions are cut, all to
one length, the most that lets the answer fit (short ones stay whole), each ending with
:data:`MARKER`; then, if paths alone are too many, the lists of other folders
(``duplicates``, ``deployed_to``) are cut to :data:`MAX_FOLDERS`; then the last skills go.
A warning says what was cut.
"""

from __future__ import annotations

import json
from typing import TYPE_CHECKING, Any

from skillc_index import Notice

if TYPE_CHECKING:
    from skillc_gateway.catalog import FindResult, FoundSkill

__all__ = ["MARKER", "MAX_FOLDERS", "fit_answer"]

#: Ends a cut description.
MARKER = "…"
#: The folders listed per skill (``duplicates``, ``deployed_to``) when paths must be cut too.
MAX_FOLDERS = 10
#: Characters kept for the warning this adds.
_WARNING_ROOM = 1_000


def _size(value: Any) -> int:
    return len(json.dumps(value, ensure_ascii=False))


def fit_answer(result: FindResult, chars: int) -> FindResult:
    """``result`` whose ``to_dict()`` JSON fits in ``chars`` characters (see the module)."""
    if _size(result.to_dict()) <= chars:
        return result
    budget = chars - _WARNING_ROOM
    notes: list[str] = []
    skills = list(result.skills)
    cap = _description_cap(result, budget)
    if cap is not None:
        cut = [skill for skill in skills if len(skill.description) > cap]
        skills = [_cut_description(skill, cap) for skill in skills]
        notes.append(
            f"the descriptions of {len(cut):,} skills cut to {cap:,} characters (`{MARKER}` "
            "ends them): each skill's SKILL.md has its whole description"
        )
    if _size(result._replace(skills=tuple(skills)).to_dict()) > budget:
        long = [s for s in skills if max(len(s.duplicates), len(s.deployed_to)) > MAX_FOLDERS]
        if long:
            skills = [_few_folders(skill) for skill in skills]
            notes.append(
                f"the other folders of {len(long):,} skills (`duplicates`, `deployed_to`) cut "
                f"to {MAX_FOLDERS}"
            )
    fixed = _size(result._replace(skills=()).to_dict())
    used, kept = fixed, 0
    for skill in skills:
        used += _size(skill.to_dict()) + 2
        if used > budget:
            break
        kept += 1
    if kept < len(skills):
        notes.append(f"{len(skills) - kept:,} skills left out (ask for fewer with `limit`)")
        skills = skills[:kept]
    warning = Notice(f"find's reply cut to its limit of {chars:,} characters: {'; '.join(notes)}")
    return result._replace(skills=tuple(skills), warnings=(*result.warnings, warning))


def _description_cap(result: FindResult, budget: int) -> int | None:
    """The longest description length that lets the answer fit (its other parts as they
    are), each longer one cut to it with the marker; None when no cut is needed. 0 when
    even that does not fit (the paths are cut next)."""
    lengths = [len(skill.description) for skill in result.skills]
    others = _size(
        result._replace(skills=tuple(s._replace(description="") for s in result.skills)).to_dict()
    )
    room = budget - others
    # JSON escapes (a quote, a control character) make a description longer than its
    # characters: count each description at its escaped length per character, at worst
    escaped = [(_size(s.description) - 2) / max(len(s.description), 1) for s in result.skills]

    def cost(cap: int) -> float:
        return sum(
            min(length, cap + len(MARKER)) * ratio
            for length, ratio in zip(lengths, escaped, strict=True)
        )

    if cost(max(lengths, default=0)) <= room:
        return None
    low, high = 0, max(lengths)
    while low < high:  # the largest cap whose cost fits
        middle = (low + high + 1) // 2
        if cost(middle) <= room:
            low = middle
        else:
            high = middle - 1
    return low


def _cut_description(skill: FoundSkill, cap: int) -> FoundSkill:
    if len(skill.description) <= cap:
        return skill
    return skill._replace(description=skill.description[:cap].rstrip() + MARKER)


def _few_folders(skill: FoundSkill) -> FoundSkill:
    return skill._replace(
        duplicates=skill.duplicates[:MAX_FOLDERS], deployed_to=skill.deployed_to[:MAX_FOLDERS]
    )
