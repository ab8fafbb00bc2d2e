"""``outline``: the headings of every Markdown file of a skill (RFC-0002:C-OUTLINE).

Reads the sources (not the index), so it always shows the skill as it is now. Of a file over
the Markdown parse limit (1 MiB or 20,000 lines), only the headings before the limit are
listed, with a warning naming the file.
"""

from __future__ import annotations

from dataclasses import dataclass

from skillc_index import (
    Notice,
    ResolvedSkill,
    limit_notice,
    parse_markdown,
    read_text_in_root,
    walk_skill,
)


@dataclass(frozen=True)
class OutlineHeading:
    """One heading: the file it is in (relative, POSIX), its level, text and line."""

    file: str
    level: int
    text: str
    line: int

    def to_dict(self) -> dict[str, object]:
        return {"file": self.file, "level": self.level, "text": self.text, "line": self.line}


@dataclass(frozen=True)
class Outline:
    """The headings of a skill, and the warnings of reading them."""

    headings: tuple[OutlineHeading, ...]
    warnings: tuple[Notice, ...] = ()
    """A file over the parse limit (its headings after the limit are not listed)."""


def outline(skill: ResolvedSkill, *, level: int | None = None) -> Outline:
    """Headings of the skill's ``.md`` files, files in bytewise path order, headings in file
    order; only levels ``<= level`` when given. Hidden files and folders are not sources; only
    regular files inside the skill are read (E021/E012 for one swapped meanwhile)."""
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
