"""``outline``: the headings of every Markdown file of a skill (RFC-0002:C-OUTLINE).

Reads the sources (not the index), so it always shows the skill as it is now.
"""

from __future__ import annotations

from dataclasses import dataclass

from skillc_index import ResolvedSkill, parse_markdown, read_text_in_root, walk_skill


@dataclass(frozen=True)
class OutlineHeading:
    """One heading: the file it is in (relative, POSIX), its level, text and line."""

    file: str
    level: int
    text: str
    line: int

    def to_dict(self) -> dict[str, object]:
        return {"file": self.file, "level": self.level, "text": self.text, "line": self.line}


def outline(skill: ResolvedSkill, *, level: int | None = None) -> tuple[OutlineHeading, ...]:
    """Headings of the skill's ``.md`` files, files in bytewise path order, headings in file
    order; only levels ``<= level`` when given. Hidden files and folders are not sources; only
    regular files inside the skill are read (E021/E012 for one swapped meanwhile)."""
    found: list[OutlineHeading] = []
    for relative in walk_skill(skill.source).files:
        if not relative.endswith(".md"):
            continue
        doc = parse_markdown(read_text_in_root(skill.source, relative))
        found.extend(
            OutlineHeading(relative, heading.level, heading.text, heading.line)
            for heading in doc.headings
            if level is None or heading.level <= level
        )
    return tuple(found)
