"""A ``find`` answer cut to a front end's reply bound (the MCP server's 100,000 characters of
JSON, ``Session.reply_chars``): ``skc_find`` replies had none, and 40 skills with long
descriptions made 4.8 MB (a description is whatever a SKILL.md's frontmatter holds, up to
its first MiB).

What goes first is what costs most and says least: section headings longer than
:data:`FIELD_CHARS` are cut to it (the catalog keeps them at any length: one 110,000-character
heading left no room for any skill); a skill's name never is (it is what ``skc_show`` reads
the skill by: a folder's name, at most 255 bytes, or its path, bounded as ``path`` is, which
is never cut either; ``skc list`` shows it whole too); then the longest descriptions are
cut, all to one length, the most that lets the answer fit but never under
:data:`FIELD_CHARS` (shorter ones stay whole); each cut field ends with the ellipsis
(:func:`skillc_index.text.cut`, the one cut of the kit). Then, if paths alone are too
many, the lists of other folders (``duplicates``, ``deployed_to``) are cut to
:data:`MAX_FOLDERS`; then the skills that no longer fit are left out, the others kept in
rank order. A warning says what was cut.
"""

from __future__ import annotations

import json
from typing import TYPE_CHECKING, Any

from skillc_index import Notice
from skillc_index.text import ELLIPSIS, counted, cut

if TYPE_CHECKING:
    from skillc_gateway.catalog import FindResult, FoundSkill

__all__ = ["FIELD_CHARS", "MAX_FOLDERS", "fit_answer"]

#: The length headings are cut to, and the least a description is cut to.
FIELD_CHARS = 200
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
    skills = [_cut_headings(skill) for skill in result.skills]
    long_fields = sum(new is not old for new, old in zip(skills, result.skills, strict=True))
    if long_fields:
        notes.append(
            f"the section headings of {counted(long_fields, 'skill')} cut to "
            f"{FIELD_CHARS} characters (`{ELLIPSIS}` ends them)"
        )
    cap = _description_cap(result._replace(skills=tuple(skills)), budget)
    if cap is not None:  # never under FIELD_CHARS: past that, skills are left out instead
        cap = max(cap, FIELD_CHARS)
        limit = cap + len(ELLIPSIS)
        cut_down = [skill for skill in skills if len(skill.description) > limit]
        if cut_down:
            skills = [s._replace(description=cut(s.description, limit)) for s in skills]
            notes.append(
                f"the descriptions of {counted(len(cut_down), 'skill')} cut to {cap:,} characters "
                f"(`{ELLIPSIS}` ends them): each skill's SKILL.md has its whole description"
            )
    if _size(result._replace(skills=tuple(skills)).to_dict()) > budget:
        long = [s for s in skills if max(len(s.duplicates), len(s.deployed_to)) > MAX_FOLDERS]
        if long:
            skills = [_few_folders(skill) for skill in skills]
            notes.append(
                f"the other folders of {counted(len(long), 'skill')} (`duplicates`, "
                f"`deployed_to`) cut to {MAX_FOLDERS}"
            )
    fixed = _size(result._replace(skills=()).to_dict())
    used, kept, no_room, too_long = fixed, [], 0, 0
    for skill in skills:  # in rank order: a skill that does not fit is left out, not the rest
        size = _size(skill.to_dict()) + 2
        if used + size <= budget:
            used += size
            kept.append(skill)
        elif fixed + size <= budget:
            no_room += 1
        else:
            too_long += 1
    if no_room:  # some skill was kept: fewer would leave room for the best ones
        notes.append(f"{counted(no_room, 'skill')} left out (ask for fewer with `limit`)")
    if too_long:
        notes.append(f"{counted(too_long, 'skill')} left out: each alone is longer than the limit")
    warning = Notice(f"find's reply cut to its limit of {chars:,} characters: {'; '.join(notes)}")
    return result._replace(skills=tuple(kept), warnings=(*result.warnings, warning))


def _description_cap(result: FindResult, budget: int) -> int | None:
    """The longest description length that lets the answer fit (its other parts as they
    are), each longer one cut to it with the ellipsis; None when no cut is needed. 0 when
    even that does not fit (:func:`fit_answer` cuts to :data:`FIELD_CHARS` at least)."""
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
            min(length, cap + len(ELLIPSIS)) * ratio
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


def _cut_headings(skill: FoundSkill) -> FoundSkill:
    """``skill`` with its section headings cut to :data:`FIELD_CHARS` and the ellipsis (one
    that fits in those is whole); its name whole (see the module)."""
    limit = FIELD_CHARS + len(ELLIPSIS)
    if all(len(s.heading) <= limit for s in skill.sections):
        return skill
    sections = tuple(s._replace(heading=cut(s.heading, limit)) for s in skill.sections)
    return skill._replace(sections=sections)


def _few_folders(skill: FoundSkill) -> FoundSkill:
    return skill._replace(
        duplicates=skill.duplicates[:MAX_FOLDERS], deployed_to=skill.deployed_to[:MAX_FOLDERS]
    )
