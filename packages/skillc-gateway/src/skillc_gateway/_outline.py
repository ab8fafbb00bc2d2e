"""``outline``: the headings of every Markdown file of a skill (RFC-0002:C-OUTLINE).

Shows the skill as it is now: from the headings of its index when the index is current (the
stat-only check of ``show``: no Markdown is parsed, markdown-it is not even imported), else
by parsing the sources, so a skill that was never built, or was edited since, is outlined
all the same. Both give the same headings and warnings. Of a file over the Markdown parse
limit (1 MiB or 20,000 lines), only the headings before the limit are listed, with a warning
naming the file.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from skillc_index import IndexHandle, IndexUnusable, Notice, ResolvedSkill, fresh_index
from skillc_index.record import Record

if TYPE_CHECKING:
    from skillc_gateway.shapes import HeadingShape


class OutlineHeading(Record):
    """One heading: the file it is in (relative, POSIX), its level, text and line (a
    Record: an outline can have thousands, made on every call)."""

    file: str
    level: int
    text: str
    line: int

    def to_dict(self) -> HeadingShape:
        return {"file": self.file, "level": self.level, "text": self.text, "line": self.line}


class Outline(Record):
    """The headings of a skill, and the warnings of reading them."""

    headings: tuple[OutlineHeading, ...]
    warnings: tuple[Notice, ...] = ()
    """A file over the parse limit (its headings after the limit are not listed)."""


def outline(skill: ResolvedSkill, *, level: int | None = None) -> Outline:
    """Headings of the skill's ``.md`` files, files in bytewise path order, headings in file
    order; only levels ``<= level`` when given. Hidden files and folders are not sources; only
    regular files inside the skill are read (E021/E012 for one swapped meanwhile).

    Read from the skill's index when it is current (any tokenizer: headings do not depend on
    it); parsed from the sources when there is no usable index or it cannot be read."""
    index = fresh_index(skill)
    if index is not None:
        try:
            return _indexed_outline(skill, index, level)
        except IndexUnusable:  # unreadable after all: the sources still are
            pass
    return _parsed_outline(skill, level)


def _indexed_outline(skill: ResolvedSkill, index: IndexHandle, level: int | None) -> Outline:
    from skillc_index import read_outline

    found = read_outline(index)
    warnings: tuple[Notice, ...] = ()
    if found.parse_limited:  # the skill model is loaded only then (a few ms)
        from skillc_index import over_limit_notice

        warnings = tuple(
            over_limit_notice(str(skill.source / relative), lines)
            for relative, lines in found.parse_limited
        )
    headings = tuple(
        OutlineHeading(heading.file, heading.level, heading.text, heading.start_line)
        for heading in found.headings
        if level is None or heading.level <= level
    )
    return Outline(headings, warnings)


def _parsed_outline(skill: ResolvedSkill, level: int | None) -> Outline:
    from skillc_index import limit_notice, parse_markdown, read_text_in_root, walk_skill

    found: list[OutlineHeading] = []
    warnings: list[Notice] = []
    for relative in walk_skill(skill.source).files:
        if not relative.endswith(".md"):
            continue
        doc = parse_markdown(read_text_in_root(skill.source, relative))
        notice = limit_notice(str(skill.source / relative), doc)
        if notice is not None:
            warnings.append(notice)
        found.extend(
            OutlineHeading(relative, heading.level, heading.text, heading.line)
            for heading in doc.headings
            if level is None or heading.level <= level
        )
    return Outline(tuple(found), tuple(warnings))
